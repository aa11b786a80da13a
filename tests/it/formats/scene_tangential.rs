//! Tangential springs in scenes (issue 38): CSV columns and a dump's
//! contact law give the same rows as `[[contact]]` tables; the sphere on
//! the floor gives 2/7 m from a dump on both paths; bad values are errors
//! at `file:line:col` (exit 2, nothing written).

use crate::support::{assert_close, evaluate_path, meff, stderr};

fn write(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Two spheres on each other and the lower on the floor, as tables.
const TABLES: &str = r#"space = "3d"
[[body]]
name = "low"
type = "rigid"
mass = "0.3 kg"
inertia = ["1.2e-5 kg m^2", "1.2e-5 kg m^2", "1.2e-5 kg m^2"]
position = ["0 m", "0 m", "0.01 m"]
[[body]]
name = "high"
type = "rigid"
mass = "0.5 kg"
inertia = ["2e-5 kg m^2", "3e-5 kg m^2", "2.5e-5 kg m^2"]
position = ["0.003 m", "0.001 m", "0.029 m"]
[[contact]]
name = "pair"
body = "high"
other = "low"
point = ["0.0015 m", "0.0005 m", "0.0195 m"]
normal = [0.6, 0, 0.8]
stiffness = "2e5 N/m"
damping = "3 N s/m"
tangential_ratio = 0.7
[[contact]]
name = "floor"
body = "low"
point = ["0 m", "0 m", "0 m"]
normal = [0, 0, 1]
stiffness = "1e5 N/m"
tangential_stiffness = "4e4 N/m"
tangential_damping = "1.5 N s/m"
"#;

const BODIES: &str = "name,mass,x,y,z,Ixx,Iyy,Izz,Ixy,Ixz,Iyz\nlow,0.3,0,0,0.01,1.2e-5,1.2e-5,1.2e-5,0,0,0\nhigh,0.5,0.003,0.001,0.029,2e-5,3e-5,2.5e-5,0,0,0\n";

#[test]
fn csv_tangential_columns_give_the_tables_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(d, "b.csv", BODIES);
    // Absolute stiffness per contact (the pair's 0.7 × 2e5), dampings per
    // contact (the pair's 0.7 × 3: a ratio scales the normal damping).
    write(
        d,
        "c.csv",
        "name,body,other,px,py,pz,nx,ny,nz,k,c,tangential_stiffness,tangential_damping\n\
         pair,high,low,0.0015,0.0005,0.0195,0.6,0,0.8,2e5,3,140000,2.1\n\
         floor,low,world,0,0,0,0,0,1,1e5,0,4e4,1.5\n",
    );
    let case = write(
        d,
        "s.toml",
        "space = \"3d\"\n[scene]\nbodies = \"b.csv\"\ncontacts = \"c.csv\"\n",
    );
    let tables = write(
        d,
        "t.toml",
        &TABLES.replace(
            "name = \"floor\"\nbody = \"low\"",
            "name = \"floor\"\nbody = \"low\"\ndamping = \"0 N s/m\"",
        ),
    );
    let (s, t) = (evaluate_path(&case), evaluate_path(&tables));
    let (s, t) = (
        s.analysis.tangential.as_ref().unwrap(),
        t.analysis.tangential.as_ref().unwrap(),
    );
    assert_eq!(s.rows.len(), 6);
    for (x, y) in s.rows.iter().zip(t.rows.iter()) {
        assert_eq!(x.of, y.of);
        assert_eq!(x.direction, y.direction, "the [[contact]] basis rule");
        assert_close(x.stiffness, y.stiffness, 1e-15);
        assert_close(x.a, y.a, 1e-12);
        assert_eq!(x.damping.is_some(), y.damping.is_some());
        if let (Some(a), Some(b)) = (x.damping, y.damping) {
            assert_close(a, b, 1e-15);
        }
    }
    assert_close(s.modes[0].omega, t.modes[0].omega, 1e-12);
    // A ratio column instead: the same stiffnesses.
    write(
        d,
        "r.csv",
        "name,body,other,px,py,pz,nx,ny,nz,k,tangential_ratio\n\
         pair,high,low,0.0015,0.0005,0.0195,0.6,0,0.8,2e5,0.7\n\
         floor,low,world,0,0,0,0,0,1,1e5,0.4\n",
    );
    let case = write(
        d,
        "r.toml",
        "space = \"3d\"\n[scene]\nbodies = \"b.csv\"\ncontacts = \"r.csv\"\n",
    );
    let r = evaluate_path(&case);
    let r = r.analysis.tangential.as_ref().unwrap();
    let k: Vec<f64> = r.rows.iter().map(|x| x.stiffness).collect();
    assert_eq!(k, [2e5, 0.7 * 2e5, 0.7 * 2e5, 1e5, 0.4 * 1e5, 0.4 * 1e5]);
    assert!(r.rows.iter().all(|x| x.damping.is_none()));
}

/// A dump of one sphere resting on the box floor.
fn one_sphere(m: f64, r: f64) -> String {
    format!(
        "ITEM: TIMESTEP\n5\nITEM: NUMBER OF ATOMS\n1\nITEM: BOX BOUNDS ff ff ff\n0 1\n0 1\n0 1\nITEM: ATOMS id type x y z radius mass\n1 1 0.5 0.5 {z} {r} {m}\n",
        z = r - 1e-7
    )
}

#[test]
fn a_dumps_law_gives_the_spheres_two_sevenths_on_both_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    for (m, r) in [(0.25, 0.01), (2.0, 0.03)] {
        write(d, "one.dump", &one_sphere(m, r));
        for path in ["dense", "large"] {
            let case = write(
                d,
                "c.toml",
                &format!(
                    "space = \"3d\"\n[scene]\ndump = \"one.dump\"\ncontact = {{ stiffness = \"1e5 N/m\", damping = \"2 N s/m\", tangential_ratio = 0.8 }}\nwalls = [\"zlo\"]\n[analysis]\npath = \"{path}\"\n"
                ),
            );
            let ev = evaluate_path(&case);
            assert_eq!(ev.analysis.large.is_some(), path == "large");
            let t = ev.analysis.tangential.as_ref().unwrap();
            assert_eq!(t.rows.len(), 3);
            assert_close(t.rows.m_eff(0).unwrap(), m, 1e-12);
            // The contact point is in the middle of the 0.1 µm overlap:
            // the lever arm is r less 0.05 µm, so 2/7 m to 2δ/r.
            let tol = 2.0 * 1e-7 / r;
            for row in t.rows.iter().skip(1) {
                assert_close(row.m_eff.unwrap(), 2.0 / 7.0 * m, tol);
                assert_close(row.stiffness, 8e4, 1e-15);
                // The ratio scales the normal damping too.
                assert_close(row.damping.unwrap(), 1.6, 1e-15);
            }
            let want = (8e4 * 3.5 / m).sqrt();
            assert_close(t.modes[0].omega, want, tol);
            // The exact tangent mass at the lever arm the dump gives.
            assert_close(
                t.modes[0].omega,
                (8e4 / t.rows.m_eff(1).unwrap()).sqrt(),
                1e-10,
            );
        }
    }
}

/// `meff eval` on a case; the output directory of `report -o` stays absent.
fn refused_at(case: &std::path::Path, said: &str, at: &str) {
    let out_dir = case.parent().unwrap().join("out");
    let out = meff([
        "report",
        case.to_str().unwrap(),
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(said), "{said:?} not in {err}");
    assert!(err.contains(at), "{at:?} not in {err}");
    assert!(!out_dir.exists(), "nothing is written");
}

#[test]
fn bad_tangential_columns_are_errors_at_their_cell() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(d, "b.csv", BODIES);
    let head = "body,other,px,py,pz,nx,ny,nz,k";
    let row = |extra: &str| format!("low,world,0,0,0,0,0,1,1e5{extra}\n");
    let cases = [
        (
            format!("{head},tangential_ratio\n{}", row(",10.5")),
            "must be in (0, 10]",
            "c.csv:2:",
        ),
        (
            format!("{head},tangential_ratio\n{}{}", row(",0.5"), row(",0")),
            "must be in (0, 10]",
            "c.csv:3:",
        ),
        (
            format!("{head},tangential_ratio\n{}", row(",NaN")),
            "`NaN`",
            "c.csv:2:",
        ),
        (
            format!("{head},tangential_stiffness\n{}", row(",-4e4")),
            "must be positive",
            "c.csv:2:",
        ),
        (
            format!(
                "{head},tangential_ratio,tangential_damping\n{}",
                row(",0.5,-1")
            ),
            "cannot be negative",
            "c.csv:2:",
        ),
        (
            format!(
                "{head},tangential_ratio,tangential_stiffness\n{}",
                row(",0.5,4e4")
            ),
            "both `tangential_stiffness` and `tangential_ratio`",
            "c.csv:1:",
        ),
        (
            format!("{head},tangential_damping\n{}", row(",1")),
            "needs a tangential spring",
            "c.csv:1:",
        ),
        (
            format!("{head},tangential_raito\n{}", row(",0.5")),
            "did you mean `tangential_ratio`?",
            "c.csv:1:",
        ),
    ];
    for (contacts, said, at) in cases {
        write(d, "c.csv", &contacts);
        let case = write(
            d,
            "s.toml",
            "space = \"3d\"\n[scene]\nbodies = \"b.csv\"\ncontacts = \"c.csv\"\n",
        );
        refused_at(&case, said, at);
    }
}

#[test]
fn bad_tangential_law_keys_of_a_dump_are_errors_at_the_value() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(d, "one.dump", &one_sphere(0.25, 0.01));
    for (law, said) in [
        ("tangential_ratio = 0", "must be in (0, 10]"),
        ("tangential_ratio = 12", "must be in (0, 10]"),
        (
            "tangential_ratio = nan",
            "a tangential ratio must be a finite number",
        ),
        ("tangential_ratio = \"1 m\"", "a tangential ratio"),
        (
            "tangential_stiffness = \"4e4 N s/m\"",
            "a tangential stiffness",
        ),
        ("tangential_stiffness = \"-4e4 N/m\"", "must be positive"),
        (
            "tangential_ratio = 0.5, tangential_stiffness = \"4e4 N/m\"",
            "both `tangential_stiffness` and `tangential_ratio`",
        ),
        (
            "tangential_damping = \"1 N s/m\"",
            "needs a tangential spring",
        ),
        (
            "tangential_ratio = 0.5, tangential_damping = \"-1 N s/m\"",
            "tangential damping",
        ),
        ("tangential_raito = 0.5", "tangential_ratio"),
    ] {
        let case = write(
            d,
            "c.toml",
            &format!(
                "space = \"3d\"\n[scene]\ndump = \"one.dump\"\ncontact = {{ stiffness = \"1e5 N/m\", {law} }}\nwalls = [\"zlo\"]\n"
            ),
        );
        refused_at(&case, said, "c.toml:4:");
    }
}

fn scene_case(dir: &std::path::Path, files: &str, path: &str) -> std::path::PathBuf {
    let fixtures = crate::support::root().join("tests/cases/scene");
    let files = files.replace("DIR", fixtures.to_str().unwrap());
    write(
        dir,
        &format!("{path}.toml"),
        &format!("space = \"3d\"\n[scene]\n{files}\n[analysis]\nmodes = 6\npath = \"{path}\"\n"),
    )
}

/// The generator's 40-body packing with a tangential spring on every
/// contact: NPZ arrays and CSV columns give the same rows bit for bit, and
/// the large path gives the dense path's fastest mode over every row (1e-10).
#[test]
fn npz_and_csv_tangential_packings_agree_and_both_paths_give_the_same_modes() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let npz = "file = \"DIR/tangential.scene.npz\"";
    let csv = "bodies = \"DIR/p3d.bodies.csv\"\ncontacts = \"DIR/tangential.contacts.csv\"";
    let a = evaluate_path(&scene_case(d, npz, "dense"));
    let b = evaluate_path(&scene_case(d, csv, "dense"));
    let (ta, tb) = (
        a.analysis.tangential.as_ref().unwrap(),
        b.analysis.tangential.as_ref().unwrap(),
    );
    assert_eq!(ta.rows.len(), 3 * a.analysis.contacts.len());
    for (x, y) in ta.rows.iter().zip(tb.rows.iter()) {
        assert_eq!(x.a.to_bits(), y.a.to_bits());
        assert_eq!(x.stiffness.to_bits(), y.stiffness.to_bits());
        assert_eq!(x.damping.map(f64::to_bits), y.damping.map(f64::to_bits));
    }
    let large = evaluate_path(&scene_case(d, npz, "large"));
    let tl = large.analysis.tangential.as_ref().unwrap();
    assert!(large.analysis.large.is_some());
    // The large path seeks the fastest mode over every row alone, and
    // stops once it has converged: one replay for its shape, one residual.
    assert_eq!(tl.modes.len(), 1);
    let info = tl.large.as_ref().expect("the run over every row");
    assert_eq!((info.modes_requested, info.modes_converged), (1, 1));
    assert_eq!(info.products, 2 * info.lanczos_steps, "{info:?}");
    for (x, y) in ta.modes.iter().zip(&tl.modes) {
        assert!(
            (x.omega - y.omega).abs() <= 1e-10 * ta.modes[0].omega,
            "{} vs {}",
            x.omega,
            y.omega
        );
    }
    for (x, y) in ta.rows.iter().zip(tl.rows.iter()) {
        assert_close(x.a, y.a, 1e-12);
    }
    // Which rows set the step, and the step without the tangential springs.
    assert_eq!(
        ta.setting_rows.iter().map(|r| r.0).collect::<Vec<_>>(),
        tl.setting_rows.iter().map(|r| r.0).collect::<Vec<_>>()
    );
    assert_close(
        ta.stable_dt.coupled.unwrap(),
        tl.stable_dt.coupled.unwrap(),
        1e-10,
    );
    // A ratio out of range in the archive: at the array and row.
    let bad = scene_case(d, "file = \"DIR/bad-tangential.npz\"", "auto");
    let out = meff(["eval", "--no-verify", bad.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("array `tangential_ratio`, row 4") && err.contains("(0, 10]"),
        "{err}"
    );
}
