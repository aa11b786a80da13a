//! `[scene]` from a LAMMPS/LIGGGHTS dump: the contacts meff finds are the
//! generator's own and SciPy's periodic ones; two spheres and a sphere on
//! a plane give the closed forms (also across a periodic boundary, where
//! the lever arm goes to the image); every defect is an error at its
//! `dump:line:col`, exit 2. Fixtures: `tests/cases/dump/make.py`.

use crate::support::{assert_close, evaluate_path, meff, root, stderr};
use std::collections::BTreeSet;

fn dir() -> std::path::PathBuf {
    root().join("tests/cases/dump")
}

fn json(ev: &meff::Evaluated) -> serde_json::Value {
    serde_json::from_str(&meff::render::json(&ev.report)).unwrap()
}

fn numbers(v: &serde_json::Value, key: &str) -> Vec<f64> {
    v["contacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c[key].as_f64().unwrap())
        .collect()
}

#[test]
fn the_dump_gives_the_generators_contacts_and_numbers() {
    let from_dump = json(&evaluate_path(&dir().join("packing.toml")));
    let reference = json(&evaluate_path(&dir().join("packing.scene.toml")));
    let (a, b) = (numbers(&from_dump, "m_eff"), numbers(&reference, "m_eff"));
    assert!(a.len() > 500, "{}", a.len());
    assert_eq!(a.len(), b.len());
    // The same contacts in the same order (pairs by rows, then the floor);
    // the points differ in rounding only.
    for (x, y) in a.iter().zip(&b) {
        assert_close(*x, *y, 1e-10);
    }
    for key in ["coupled_omega_max", "dt_coupled"] {
        if let (Some(x), Some(y)) = (from_dump[key].as_f64(), reference[key].as_f64()) {
            assert_close(x, y, 1e-10);
        }
    }
    let names: Vec<&str> = from_dump["contacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(names[0].starts_with("a3_a"), "{}", names[0]);
    assert!(names.last().unwrap().ends_with("_zlo"));
}

#[test]
fn an_earlier_snapshot_is_read_by_its_timestep() {
    let case = dir().join("packing.toml");
    let text = std::fs::read_to_string(&case).unwrap();
    let tmp = dir().join("step0.toml.tmp");
    std::fs::write(&tmp, text.replace("[scene]\n", "[scene]\ntimestep = 0\n")).unwrap();
    let out = meff(["eval", "--no-verify", tmp.to_str().unwrap()]);
    std::fs::write(&tmp, text.replace("[scene]\n", "[scene]\ntimestep = 7\n")).unwrap();
    let absent = meff(["eval", "--no-verify", tmp.to_str().unwrap()]);
    std::fs::remove_file(&tmp).unwrap();
    // Timestep 0 has the spheres spread apart (no contacts).
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the scene has no contacts"),
        "{}",
        stderr(&out)
    );
    assert_eq!(absent.status.code(), Some(2));
    let err = stderr(&absent);
    assert!(
        err.contains("no snapshot of timestep 7") && err.contains("timesteps 0, 1000"),
        "{err}"
    );
}

#[test]
fn periodic_pairs_are_scipys_and_see_the_image() {
    let case = "title = \"periodic\"\nspace = \"3d\"\n[scene]\ndump = \"periodic.dump\"\ncontact = { stiffness = \"1e5 N/m\" }\n";
    let path = dir().join("periodic.toml.tmp");
    std::fs::write(&path, case).unwrap();
    let loaded = meff::case::load(&path);
    std::fs::remove_file(&path).unwrap();
    let case = loaded.unwrap_or_else(|e| panic!("{e}"));
    let s = &case.scene.as_ref().unwrap().data;
    let names = s.body_names.as_ref().unwrap();
    let found: BTreeSet<(String, String)> = (0..s.n_contacts())
        .map(|c| {
            (
                names[s.body[c] as usize].clone(),
                names[s.other[c] as usize].clone(),
            )
        })
        .collect();
    let pairs = std::fs::read_to_string(dir().join("periodic.pairs")).unwrap();
    let expected: BTreeSet<(String, String)> = pairs
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (a, b) = l.split_once(' ').unwrap();
            (format!("a{a}"), format!("a{b}"))
        })
        .collect();
    assert!(expected.len() > 500);
    assert_eq!(found, expected);
    let image = s.image.as_ref().expect("wrapped contacts");
    let wrapped = image
        .chunks(3)
        .filter(|v| v.iter().any(|&x| x != 0.0))
        .count();
    assert!(wrapped > 50, "{wrapped}");
}

/// A dump of spheres `(id, x, y, z, r, m)` in a box with `flags`.
fn dump(flags: &str, lo: f64, hi: f64, spheres: &[(i64, f64, f64, f64, f64, f64)]) -> String {
    let mut s = format!(
        "ITEM: TIMESTEP\n5\nITEM: NUMBER OF ATOMS\n{}\nITEM: BOX BOUNDS {flags}\n{lo} {hi}\n{lo} {hi}\n{lo} {hi}\nITEM: ATOMS id type x y z radius mass\n",
        spheres.len()
    );
    for (id, x, y, z, r, m) in spheres {
        s.push_str(&format!("{id} 1 {x} {y} {z} {r} {m}\n"));
    }
    s
}

/// Evaluates a case with `[scene]` keys `extra` on the dump text.
fn eval_dump(text: &str, extra: &str) -> serde_json::Value {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("d.dump"), text).unwrap();
    let case = tmp.path().join("case.toml");
    std::fs::write(
        &case,
        format!("title = \"t\"\nspace = \"3d\"\n[scene]\ndump = \"d.dump\"\ncontact = {{ stiffness = \"2e5 N/m\" }}\n{extra}"),
    )
    .unwrap();
    json(&evaluate_path(&case))
}

#[test]
fn two_spheres_and_a_sphere_on_a_plane_give_the_closed_forms() {
    let k = 2e5;
    let (m1, m2) = (0.3, 0.7);
    let me = m1 * m2 / (m1 + m2);
    // Along a skew line, 1 µm overlap; then the same pair across a
    // periodic corner (the image shift is not along the normal: a lever
    // arm to the unshifted sphere would add its rotation to A).
    let (r1, r2) = (0.01, 0.02);
    let d = r1 + r2 - 1e-6;
    let u = [0.6, 0.0, 0.8];
    let pair = [
        (7, 0.5, 0.5, 0.5, r1, m1),
        (9, 0.5 + d * u[0], 0.5, 0.5 + d * u[2], r2, m2),
    ];
    let wrapped = [
        (7, 0.005, 0.5, 0.004, r1, m1),
        (9, 1.005 - d * u[0], 0.5, 1.004 - d * u[2], r2, m2),
    ];
    for (flags, spheres) in [("ff ff ff", pair), ("pp pp pp", wrapped)] {
        let v = eval_dump(&dump(flags, 0.0, 1.0, &spheres), "");
        assert_eq!(numbers(&v, "m_eff").len(), 1, "{flags}");
        assert_close(numbers(&v, "m_eff")[0], me, 1e-9);
        assert_close(numbers(&v, "omega")[0], (k / me).sqrt(), 1e-9);
        assert_eq!(v["contacts"][0]["name"], "a7_a9");
    }
    // A sphere resting on the box floor, and on a tilted plane.
    let m = 0.25;
    let v = eval_dump(
        &dump("ff ff ff", 0.0, 1.0, &[(1, 0.5, 0.5, 0.0099, 0.01, m)]),
        "walls = \"fixed\"\n",
    );
    assert_eq!(numbers(&v, "m_eff").len(), 1);
    assert_close(numbers(&v, "m_eff")[0], m, 1e-12);
    assert_close(numbers(&v, "omega")[0], (k / m).sqrt(), 1e-12);
    assert_eq!(v["contacts"][0]["name"], "a1_zlo");
    let v = eval_dump(
        &dump("pp pp pp", 0.0, 1.0, &[(1, 0.5, 0.5, 0.5, 0.01, m)]),
        "planes = [{ point = [\"0.5 m\", \"0.5 m\", \"0.4905 m\"], normal = [0, 0.6, 0.8] }]\ntolerance = \"2 mm\"\n",
    );
    assert_close(numbers(&v, "m_eff")[0], m, 1e-12);
    assert_eq!(v["contacts"][0]["name"], "a1_plane0");
}

#[test]
fn defects_are_errors_at_dump_line_and_column() {
    let good = dump(
        "pp pp ff",
        0.0,
        1.0,
        &[
            (1, 0.5, 0.5, 0.5, 0.01, 0.1),
            (2, 0.5, 0.5, 0.519, 0.01, 0.1),
        ],
    );
    let edit = |from: &str, to: &str| {
        assert!(good.contains(from), "{from}");
        good.replacen(from, to, 1)
    };
    let cases: Vec<(String, &str, &str)> = vec![
        (edit("radius mass", "mass"), "no `radius` column", ":9:"),
        (
            edit("radius mass", "radius mass radius"),
            "column `radius` is named twice",
            ":9:",
        ),
        (
            edit("radius mass", "radius diameter mass"),
            "both give the size",
            ":9:",
        ),
        (
            edit("2 1 0.5 0.5 0.519 0.01 0.1", "2 1 0.5 nan 0.519 0.01 0.1"),
            "the position is nan",
            ":11:9",
        ),
        (
            edit("2 1 0.5 0.5 0.519 0.01 0.1", "2 1 0.5 0.5 0.519 -0.01 0.1"),
            "a radius must be positive",
            ":11:19",
        ),
        (
            edit("2 1 0.5 0.5 0.519 0.01 0.1", "2 1 0.5 0.5 0.519 0.01 -1"),
            "a mass must be positive",
            ":11:24",
        ),
        (
            edit("2 1 0.5 0.5 0.519 0.01 0.1", "2 1 0.5 0.5 0.5x 0.01 0.1"),
            "`0.5x` is not a number",
            ":11:13",
        ),
        (
            edit("2 1 0.5 0.5 0.519 0.01 0.1", "1 1 0.5 0.5 0.519 0.01 0.1"),
            "atom id 1 appears twice",
            ":11:1",
        ),
        (
            edit("2 1 0.5 0.5 0.519 0.01 0.1", "2 1 0.5 0.5 0.509 0.01 0.1"),
            "atoms 1 and 2 overlap by",
            ":11:",
        ),
        (
            edit("NUMBER OF ATOMS\n2", "NUMBER OF ATOMS\n3"),
            "says 3, but 2 atom lines follow",
            ":12:",
        ),
        (
            edit("NUMBER OF ATOMS\n2", "NUMBER OF ATOMS\n1"),
            "more atom lines than the 1",
            ":11:",
        ),
        (
            edit("NUMBER OF ATOMS\n2", "NUMBER OF ATOMS\n99999999999"),
            "more than a scene may have",
            ":4:1",
        ),
        (edit("pp pp ff", "xy xz yz pp pp ff"), "triclinic", ":5:"),
        (
            edit("pp pp ff", "pp pf ff"),
            "periodic at one end only",
            ":5:",
        ),
        (
            edit("ITEM: TIMESTEP\n5", "ITEM: STEP\n5"),
            "expected `ITEM: TIMESTEP`",
            ":1:",
        ),
        (
            edit(
                "ITEM: TIMESTEP",
                "ITEM: UNITS\nfurlong\nITEM: TIME\n0.5\nITEM: TIMESTEP",
            ),
            "unknown units `furlong`",
            ":2:1",
        ),
        (
            edit("ITEM: TIMESTEP", "ITEM: UNITS\nlj\nITEM: TIMESTEP"),
            "lj units have no physical scale",
            ":2:1",
        ),
        (
            edit("2 1 0.5 0.5 0.519 0.01 0.1", "2 1 0.5 0.5 0.519 0.01"),
            "this atom line has 6 fields",
            ":11:",
        ),
    ];
    // Coordinates at the ends of f64's range: one cell, no contact, no hang.
    let far = edit("1 1 0.5 0.5 0.5 ", "1 1 0.5 0.5 -1.7e308 ").replacen(
        "2 1 0.5 0.5 0.519 ",
        "2 1 0.5 0.5 1.7e308 ",
        1,
    );
    let mut cases = cases;
    cases.push((far, "the scene has no contacts", ":5:"));
    // A header of 100,000 copies of one name: 20 problems, at once.
    let names = format!(
        "ITEM: ATOMS id type x y z radius mass{}",
        " x".repeat(100_000)
    );
    cases.push((
        edit("ITEM: ATOMS id type x y z radius mass", &names),
        "column `x` is named twice",
        ":9:",
    ));
    let tmp = tempfile::tempdir().unwrap();
    let case = tmp.path().join("case.toml");
    std::fs::write(
        &case,
        "title = \"t\"\nspace = \"3d\"\n[scene]\ndump = \"d.dump\"\ncontact = { stiffness = \"1e5 N/m\" }\n",
    )
    .unwrap();
    for (text, said, at) in &cases {
        std::fs::write(tmp.path().join("d.dump"), text).unwrap();
        let out_dir = tmp.path().join("out");
        let out = meff([
            "report",
            case.to_str().unwrap(),
            "-o",
            out_dir.to_str().unwrap(),
        ]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{said}: {err}");
        assert!(err.contains(said), "expected `{said}` in:\n{err}");
        assert!(
            err.contains(&format!("d.dump{at}")),
            "expected `d.dump{at}` in:\n{err}"
        );
        assert!(!out_dir.exists(), "{said}: nothing is written");
    }
}

#[test]
fn case_keys_that_do_not_fit_are_errors_in_the_case() {
    let good = dump(
        "pp pp ff",
        0.0,
        1.0,
        &[
            (1, 0.5, 0.5, 0.5, 0.01, 0.1),
            (2, 0.5, 0.5, 0.519, 0.01, 0.1),
        ],
    );
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("d.dump"), &good).unwrap();
    let head = "title = \"t\"\nspace = \"3d\"\n[scene]\ndump = \"d.dump\"\n";
    let law = "contact = { stiffness = \"1e5 N/m\" }\n";
    let cases = [
        (
            format!("{head}{law}walls = [\"xlo\"]\n"),
            "wall `xlo` is on the x axis, which the dump's box makes periodic",
        ),
        (
            format!("{head}{law}units = \"lj\"\n"),
            "unknown LAMMPS unit style `lj`",
        ),
        (
            format!("{head}{law}walls = [\"zlow\"]\n"),
            "did you mean `zlo`?",
        ),
        (
            format!("{head}contact = {{ stiffness = \"-1 N/m\" }}\n"),
            "stiffness",
        ),
        (format!("{head}{law}tolerance = \"1 kg\"\n"), "must be in"),
        (head.to_string(), "missing `contact`"),
        (
            format!(
                "{head}{law}planes = [{{ point = [\"0 m\", \"0 m\", \"0 m\"], normal = [0, 0, 2] }}]\n"
            ),
            "unit",
        ),
        (
            format!("{head}{law}units = {{ stiffness = \"N/mm\" }}\n"),
            "a dump has no stiffness column",
        ),
        (head.replace("3d", "planar") + law, "3-d scene"),
        (
            format!("title = \"t\"\nspace = \"3d\"\n[scene]\nfile = \"x.npz\"\n{law}"),
            "`contact` is a key of a `dump` scene",
        ),
    ];
    for (case, said) in &cases {
        let path = tmp.path().join("case.toml");
        std::fs::write(&path, case).unwrap();
        let out = meff(["eval", "--no-verify", path.to_str().unwrap()]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{said}: {err}");
        assert!(err.contains(said), "expected `{said}` in:\n{err}");
        assert!(err.contains("case.toml:"), "located in the case:\n{err}");
    }
}
