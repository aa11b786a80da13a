//! One inertia rule for every reader: the same tensor, written in a case's
//! `[[body]]` table and in a scene's NPZ archive (the scene form that takes
//! a full 3×3 tensor) or CSV file, gets the same verdict — also at the edge
//! of the symmetry tolerance (`meff::kinematics::inertia::TOLERANCE` times
//! the tensor's largest entry).

use std::io::Write;

/// A `.npy` file of little-endian f64 (or i64 with `int`) values.
fn npy(shape: &str, values: &[f64], int: bool) -> Vec<u8> {
    let descr = if int { "<i8" } else { "<f8" };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    for &v in values {
        if int {
            out.extend((v as i64).to_le_bytes());
        } else {
            out.extend(v.to_le_bytes());
        }
    }
    out
}

/// One body at the origin, one contact against the world below it.
fn npz(path: &std::path::Path, tensor: &[[f64; 3]; 3]) {
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let flat: Vec<f64> = tensor.iter().flatten().copied().collect();
    for (name, bytes) in [
        ("mass", npy("(1,)", &[1.0], false)),
        ("position", npy("(1, 3)", &[0.0, 0.0, 0.0], false)),
        ("inertia", npy("(1, 3, 3)", &flat, false)),
        ("body", npy("(1,)", &[0.0], true)),
        ("other", npy("(1,)", &[-1.0], true)),
        ("point", npy("(1, 3)", &[0.1, 0.05, -0.1], false)),
        ("normal", npy("(1, 3)", &[0.0, 0.0, 1.0], false)),
        ("stiffness", npy("(1,)", &[1e4], false)),
    ] {
        z.start_file(format!("{name}.npy"), opts).unwrap();
        z.write_all(&bytes).unwrap();
    }
    z.finish().unwrap();
}

fn toml_case(tensor: &[[f64; 3]; 3]) -> String {
    let row = |r: &[f64; 3]| {
        format!(
            "[\"{:e} kg m^2\", \"{:e} kg m^2\", \"{:e} kg m^2\"]",
            r[0], r[1], r[2]
        )
    };
    format!(
        "space = \"3d\"\n[[body]]\nname = \"b\"\ntype = \"rigid\"\nmass = \"1 kg\"\n\
         position = [\"0 m\", \"0 m\", \"0 m\"]\ninertia = [{}, {}, {}]\n\
         [[contact]]\nname = \"c\"\nbody = \"b\"\npoint = [\"0.1 m\", \"0.05 m\", \"-0.1 m\"]\n\
         normal = [0, 0, 1]\nstiffness = \"1e4 N/m\"\n",
        row(&tensor[0]),
        row(&tensor[1]),
        row(&tensor[2])
    )
}

/// The verdicts (accepted?) of the TOML case and of the NPZ scene, and
/// their errors.
fn verdicts(tensor: [[f64; 3]; 3]) -> (Result<(), String>, Result<(), String>) {
    let dir = tempfile::tempdir().unwrap();
    let toml = dir.path().join("table.toml");
    std::fs::write(&toml, toml_case(&tensor)).unwrap();
    npz(&dir.path().join("s.npz"), &tensor);
    let scene = dir.path().join("scene.toml");
    std::fs::write(&scene, "space = \"3d\"\n[scene]\nfile = \"s.npz\"\n").unwrap();
    let verdict = |p: &std::path::Path| meff::case::load(p).map(|_| ()).map_err(|e| e.to_string());
    (verdict(&toml), verdict(&scene))
}

#[test]
fn a_tensor_gets_one_verdict_in_a_table_and_in_a_scene() {
    let tol = meff::kinematics::inertia::TOLERANCE;
    let base = [[0.02, 0.003, 0.0], [0.003, 0.03, 0.0], [0.0, 0.0, 0.04]];
    // (tensor, accepted): symmetric; noise far below the tolerance on an
    // entry that is itself zero (a table refused this before, a scene
    // took it); asymmetry just inside and just outside the tolerance of
    // the largest entry (0.04); plainly asymmetric; not positive definite.
    let with = |i: usize, j: usize, x: f64| {
        let mut t = base;
        t[i][j] += x;
        t
    };
    let cases = [
        (base, true),
        (with(0, 2, 1e-17), true),
        (with(0, 1, 0.5 * tol * 0.04), true),
        (with(0, 1, 2.0 * tol * 0.04), false),
        (with(1, 2, 1e-4), false),
        (
            [[0.02, 0.03, 0.0], [0.03, 0.03, 0.0], [0.0, 0.0, 0.04]],
            false,
        ),
    ];
    for (tensor, accepted) in cases {
        let (table, scene) = verdicts(tensor);
        assert_eq!(table.is_ok(), accepted, "{tensor:?} as a table: {table:?}");
        assert_eq!(scene.is_ok(), accepted, "{tensor:?} in a scene: {scene:?}");
        if !accepted {
            let (t, s) = (table.unwrap_err(), scene.unwrap_err());
            let both = |w: &str| t.contains(w) && s.contains(w);
            assert!(
                both("not symmetric") || both("not positive definite"),
                "{tensor:?}: the two readers refuse for different reasons:\n{t}\n{s}"
            );
        }
    }
}

/// A CSV scene writes the six distinct entries (symmetric by its form):
/// positive definiteness is judged as for a table.
#[test]
fn positive_definiteness_is_one_rule_for_tables_and_csv() {
    for (ixy, accepted) in [(0.003, true), (0.0244, true), (0.0246, false)] {
        let tensor = [[0.02, ixy, 0.0], [ixy, 0.03, 0.0], [0.0, 0.0, 0.04]];
        let dir = tempfile::tempdir().unwrap();
        let toml = dir.path().join("table.toml");
        std::fs::write(&toml, toml_case(&tensor)).unwrap();
        std::fs::write(
            dir.path().join("b.csv"),
            format!("mass,x,y,z,Ixx,Iyy,Izz,Ixy,Ixz,Iyz\n1,0,0,0,0.02,0.03,0.04,{ixy},0,0\n"),
        )
        .unwrap();
        std::fs::write(
            dir.path().join("c.csv"),
            "body,other,px,py,pz,nx,ny,nz,k\n0,-1,0.1,0.05,-0.1,0,0,1,1e4\n",
        )
        .unwrap();
        let scene = dir.path().join("scene.toml");
        std::fs::write(
            &scene,
            "space = \"3d\"\n[scene]\nbodies = \"b.csv\"\ncontacts = \"c.csv\"\n",
        )
        .unwrap();
        let t = meff::case::load(&toml)
            .map(|_| ())
            .map_err(|e| e.to_string());
        let s = meff::case::load(&scene)
            .map(|_| ())
            .map_err(|e| e.to_string());
        assert_eq!(t.is_ok(), accepted, "Ixy {ixy} as a table: {t:?}");
        assert_eq!(s.is_ok(), accepted, "Ixy {ixy} in a CSV scene: {s:?}");
    }
}
