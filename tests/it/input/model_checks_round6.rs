//! Model checks of the sixth round: a scene's contact list that misses
//! most of its bodies (cut short; a dump's tolerance in another unit), a
//! scene said to be at rest whose overlap forces are far from its weight
//! (stiffness in N/mm, or 1000× too soft), a dump in other units read as
//! SI (cgs, micro), a robot model's joint range in degrees where its
//! format reads radians (URDF; MJCF with `angle="radian"`), and a density
//! the words state against a shaped body's m/V. Each planted input is
//! flagged with its rule and located; its honest twin is silent.

use crate::support::{evaluate_path, evaluate_str, root, scratch};
use std::path::Path;

fn rules(ev: &meff::Evaluated) -> Vec<&'static str> {
    ev.report.model_checks.iter().map(|w| w.rule).collect()
}

/// Writes `files` (name, text) into `dir` and evaluates the first.
fn evaluate_files(dir: &Path, files: &[(&str, String)]) -> meff::Evaluated {
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    evaluate_path(&dir.join(files[0].0))
}

/// A LAMMPS dump of spheres (id, x, y, z, radius, mass in the dump's
/// numbers) in a box `[0, hi]³` with a floor at z = 0.
fn dump(spheres: &[[f64; 5]], hi: f64) -> String {
    let mut s = format!(
        "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n{}\nITEM: BOX BOUNDS ff ff fm\n0 {hi}\n0 {hi}\n0 {hi}\nITEM: ATOMS id type x y z radius mass\n",
        spheres.len()
    );
    for (i, [x, y, z, r, m]) in spheres.iter().enumerate() {
        s.push_str(&format!("{} 1 {x:?} {y:?} {z:?} {r:?} {m:?}\n", i + 1));
    }
    s
}

/// A dump scene's case: its title, the `[scene]` keys after `dump`.
fn dump_case(title: &str, keys: &str) -> String {
    format!("title = \"{title}\"\nspace = \"3d\"\n[scene]\ndump = \"pile.dump\"\n{keys}\n")
}

/// Four 5 mm glass beads (2500 kg/m³) apart on a floor, each sunk by its
/// weight on a 10⁵ N/m contact: δ = m g / k.
fn settled_beads() -> String {
    let (r, rho, k, g) = (0.005, 2500.0, 1e5, 9.806_65);
    let m = rho * 4.0 / 3.0 * std::f64::consts::PI * r * r * r;
    let delta = m * g / k;
    let beads: Vec<[f64; 5]> = (0..4)
        .map(|i| [0.01 + 0.012 * i as f64, 0.01, r - delta, r, m])
        .collect();
    dump(&beads, 0.06)
}

#[test]
fn a_scene_said_at_rest_whose_overlap_forces_are_not_its_weight_is_flagged() {
    let dir = scratch("round6-rest");
    let title = "Four glass beads at rest on a plate";
    let with = |k: &str| {
        dump_case(
            title,
            &format!("contact = {{ stiffness = \"{k}\" }}\nwalls = [\"zlo\"]"),
        )
    };
    // Typed in N/mm: the overlaps' forces are 1000 × the weight.
    for (planted, ratio) in [("1e5 N/mm", "1000×"), ("100 N/m", "0.001000×")] {
        let ev = evaluate_files(
            &dir,
            &[("case.toml", with(planted)), ("pile.dump", settled_beads())],
        );
        assert_eq!(rules(&ev), vec!["overlap_force"], "{planted}");
        let w = &ev.report.model_checks[0];
        assert!(w.message.contains(ratio), "{}", w.message);
        assert!(w.message.contains("at rest"), "{}", w.message);
        assert!(w.location.starts_with("case.toml:3:"), "{}", w.location);
    }
    let honest = evaluate_files(
        &dir,
        &[
            ("case.toml", with("1e5 N/m")),
            ("pile.dump", settled_beads()),
        ],
    );
    assert!(
        rules(&honest).is_empty(),
        "{:?}",
        honest.report.model_checks
    );
    // The same overlaps, said to be a snapshot not at rest: not compared.
    let snapshot = dump_case(
        "Four glass beads, a snapshot not at rest",
        "contact = { stiffness = \"1e5 N/mm\" }\nwalls = [\"zlo\"]",
    );
    let ev = evaluate_files(
        &dir,
        &[("case.toml", snapshot), ("pile.dump", settled_beads())],
    );
    assert!(rules(&ev).is_empty(), "{:?}", ev.report.model_checks);
}

/// Four touching spheres on the floor, in the dump's numbers: radius `r`,
/// mass `m`.
fn row(r: f64, m: f64) -> String {
    let s: Vec<[f64; 5]> = (0..4)
        .map(|i| [r * (1.0 + 2.0 * i as f64), 2.0 * r, r, r, m])
        .collect();
    dump(&s, 10.0 * r)
}

#[test]
fn a_dump_in_other_units_read_as_si_is_flagged_declared_it_is_not() {
    let dir = scratch("round6-units");
    let law = "contact = { stiffness = \"1e5 N/m\" }\nwalls = [\"zlo\"]\ntolerance = \"1 um\"";
    // Steel balls of 3 mm radius written by a `units cgs` run: cm and g.
    let steel = row(0.3, 7.85 * 4.0 / 3.0 * std::f64::consts::PI * 0.027);
    let ev = evaluate_files(
        &dir,
        &[
            ("case.toml", dump_case("Steel shot", law)),
            ("pile.dump", steel.clone()),
        ],
    );
    assert_eq!(rules(&ev), vec!["dump_units"]);
    let w = &ev.report.model_checks[0];
    assert!(w.message.contains("7.850 kg/m³"), "{}", w.message);
    assert!(w.message.contains("units = \"cgs\""), "{}", w.message);
    assert!(w.location.starts_with("pile.dump"), "{}", w.location);
    let declared = dump_case("Steel shot", &format!("{law}\nunits = \"cgs\""));
    let ev = evaluate_files(&dir, &[("case.toml", declared), ("pile.dump", steel)]);
    assert!(rules(&ev).is_empty(), "{:?}", ev.report.model_checks);
    // Glass microbeads of 10 µm radius from a `units micro` run (µm, pg).
    let micro = row(10.0, 2.5e-3 * 4.0 / 3.0 * std::f64::consts::PI * 1e3);
    let soft = "contact = { stiffness = \"1e9 N/m\" }\nwalls = [\"zlo\"]\ntolerance = \"1 um\"";
    let ev = evaluate_files(
        &dir,
        &[
            ("case.toml", dump_case("Microbeads", soft)),
            ("pile.dump", micro),
        ],
    );
    assert!(
        rules(&ev).contains(&"dump_units"),
        "{:?}",
        ev.report.model_checks
    );
}

#[test]
fn a_contact_list_that_misses_most_bodies_is_flagged_a_rattler_is_not() {
    let dir = scratch("round6-free");
    // Six 10 mm steel balls on a plate.
    let mut bodies = String::from("name,mass,x,y,z,Ixx,Iyy,Izz,Ixy,Ixz,Iyz\n");
    for i in 0..6 {
        bodies.push_str(&format!(
            "ball{i},0.00409,{:?},0,0.005,4.09e-8,4.09e-8,4.09e-8,0,0,0\n",
            0.02 * i as f64
        ));
    }
    let contacts = |n: usize| {
        let mut c = String::from("name,body,other,px,py,pz,nx,ny,nz,k\n");
        for i in 0..n {
            c.push_str(&format!(
                "floor{i},ball{i},world,{:?},0,0,0,0,1,1e6\n",
                0.02 * i as f64
            ));
        }
        c
    };
    let case = "title = \"Six balls on a plate\"\nspace = \"3d\"\n[scene]\nbodies = \"b.csv\"\ncontacts = \"c.csv\"\n".to_string();
    // The export stopped after two rows: four of six balls touch nothing.
    let ev = evaluate_files(
        &dir,
        &[
            ("case.toml", case.clone()),
            ("b.csv", bodies.clone()),
            ("c.csv", contacts(2)),
        ],
    );
    assert_eq!(rules(&ev), vec!["free_bodies"]);
    let w = &ev.report.model_checks[0];
    assert!(w.message.starts_with("4 of the scene's 6"), "{}", w.message);
    assert!(
        w.message.contains("ball2, ball3, ball4, ball5"),
        "{}",
        w.message
    );
    assert_eq!(w.location, "b.csv: bodies row 3");
    // One rattler of six: silent.
    let ev = evaluate_files(
        &dir,
        &[
            ("case.toml", case),
            ("b.csv", bodies),
            ("c.csv", contacts(5)),
        ],
    );
    assert!(rules(&ev).is_empty(), "{:?}", ev.report.model_checks);
}

#[test]
fn a_dump_tolerance_in_another_unit_leaves_most_spheres_free() {
    let dir = scratch("round6-tolerance");
    // Eight 5 mm spheres in a row, 3 µm apart; the first two overlap.
    let (r, m) = (0.005, 1.309e-3);
    let s: Vec<[f64; 5]> = (0..8)
        .map(|i| {
            let x = 0.01 + (2.0 * r + 3e-6) * i as f64 + if i == 0 { 6e-6 } else { 0.0 };
            [x, 0.01, 0.02, r, m]
        })
        .collect();
    let text = dump(&s, 0.2);
    let with = |tol: &str| {
        dump_case(
            "A row of beads",
            &format!("contact = {{ stiffness = \"1e5 N/m\" }}\ntolerance = \"{tol}\""),
        )
    };
    let ev = evaluate_files(
        &dir,
        &[("case.toml", with("5 nm")), ("pile.dump", text.clone())],
    );
    assert_eq!(rules(&ev), vec!["free_bodies"]);
    assert!(
        ev.report.model_checks[0]
            .message
            .starts_with("6 of the scene's 8")
    );
    let ev = evaluate_files(&dir, &[("case.toml", with("5 um")), ("pile.dump", text)]);
    assert!(rules(&ev).is_empty(), "{:?}", ev.report.model_checks);
}

#[test]
fn a_joint_range_in_degrees_where_the_format_reads_radians_is_flagged() {
    let dir = scratch("round6-ranges");
    let urdf = std::fs::read_to_string(root().join("cases/models/ur5_robot.urdf")).unwrap();
    let elbow = "lower=\"-3.14159265359\" upper=\"3.14159265359\"";
    assert_eq!(urdf.matches(elbow).count(), 1);
    let case = "title = \"t\"\n[model]\nurdf = \"ur5.urdf\"\nconfiguration = { shoulder_lift_joint = \"-90 deg\", elbow_joint = \"90 deg\", wrist_1_joint = \"-90 deg\", wrist_2_joint = \"-90 deg\" }\n[[contact]]\nname = \"tool\"\nbody = \"tool0\"\npoint = [\"0 m\", \"0 m\", \"0.05 m\"]\nnormal = [0, 0, -1]\nframe = \"body\"\nstiffness = \"1e5 N/m\"\n".to_string();
    let degrees = urdf.replace(elbow, "lower=\"-180\" upper=\"180\"");
    let ev = evaluate_files(&dir, &[("case.toml", case.clone()), ("ur5.urdf", degrees)]);
    assert_eq!(rules(&ev), vec!["range_unit"]);
    let w = &ev.report.model_checks[0];
    assert_eq!(
        w.location,
        "ur5.urdf: joint elbow_joint <limit lower upper>"
    );
    assert!(w.message.contains("28.65 turns"), "{}", w.message);
    let ev = evaluate_files(&dir, &[("case.toml", case), ("ur5.urdf", urdf)]);
    assert!(rules(&ev).is_empty(), "{:?}", ev.report.model_checks);

    // MJCF: `range` is in the compiler's angle unit, degrees by default.
    let xml = std::fs::read_to_string(root().join("cases/models/two-link-arm.xml")).unwrap();
    let limited = xml.replace(
        "<joint name=\"elbow\" type=\"hinge\" axis=\"0 1 0\"/>",
        "<joint name=\"elbow\" type=\"hinge\" axis=\"0 1 0\" limited=\"true\" range=\"-150 150\"/>",
    );
    assert_ne!(limited, xml);
    let radian = limited.replace(
        "<option timestep",
        "<compiler angle=\"radian\"/>\n  <option timestep",
    );
    let case = "title = \"t\"\nspace = \"3d\"\n[model]\nmjcf = \"arm.xml\"\nconfiguration = { shoulder = \"0.3 rad\", elbow = \"0.9 rad\" }\n[[contact]]\nname = \"tip\"\nbody = \"fore\"\npoint = [\"0.36 m\", \"0 m\", \"0 m\"]\nframe = \"body\"\nnormal = [0, 0, 1]\nnormal_frame = \"world\"\nstiffness = \"2e4 N/m\"\n".to_string();
    let ev = evaluate_files(&dir, &[("case.toml", case.clone()), ("arm.xml", radian)]);
    assert_eq!(rules(&ev), vec!["range_unit"]);
    assert_eq!(
        ev.report.model_checks[0].location,
        "arm.xml: joint elbow range"
    );
    let ev = evaluate_files(
        &dir,
        &[("case.toml", case.clone()), ("arm.xml", limited.clone())],
    );
    assert!(rules(&ev).is_empty(), "{:?}", ev.report.model_checks);
    // Radians typed where the compiler reads degrees: a range of ±3.14°.
    let radians = limited.replace("range=\"-150 150\"", "range=\"-3.1416 3.1416\"");
    let ev = evaluate_files(&dir, &[("case.toml", case), ("arm.xml", radians)]);
    assert!(
        rules(&ev).contains(&"range_unit"),
        "{:?}",
        ev.report.model_checks
    );
}

#[test]
fn a_density_the_words_state_is_held_against_the_shape() {
    // A steel roller 50 mm across and 200 mm long: `cylinder` takes the
    // radius, and the diameter typed there makes m/V a quarter of steel's.
    let roller = |radius: &str| {
        format!(
            "title = \"t\"\nspace = \"3d\"\n[parameters]\nm = {{ value = \"3.06 kg\", description = \"steel roller (7800 kg/m^3)\" }}\n[[body]]\nname = \"roller\"\ntype = \"rigid\"\nmass = \"m\"\nshape = {{ cylinder = [\"{radius}\", \"200 mm\"] }}\nposition = [\"0 m\", \"0 m\", \"0.1 m\"]\n[[contact]]\nname = \"pad-a\"\nbody = \"roller\"\nframe = \"body\"\npoint = [\"20 mm\", \"0 m\", \"-100 mm\"]\nnormal = [0, 0, 1]\nstiffness = \"5e6 N/m\"\n[[contact]]\nname = \"pad-b\"\nbody = \"roller\"\nframe = \"body\"\npoint = [\"-20 mm\", \"0 m\", \"-100 mm\"]\nnormal = [0, 0, 1]\nstiffness = \"5e6 N/m\"\n"
        )
    };
    let ev = evaluate_str(&roller("50 mm"));
    assert_eq!(rules(&ev), vec!["description_contradicts_result"]);
    let w = &ev.report.model_checks[0];
    assert!(w.message.contains("7800 kg/m^3"), "{}", w.message);
    assert!(
        w.message.contains("m/V of body roller's cylinder"),
        "{}",
        w.message
    );
    let ev = evaluate_str(&roller("25 mm"));
    assert!(rules(&ev).is_empty(), "{:?}", ev.report.model_checks);
}

#[test]
fn a_scene_overlap_column_weighs_its_stiffness_column() {
    // Three 10 mm steel balls at rest on a plate; the DEM export carries
    // each contact's overlap (m g / k at k = 10⁶ N/m) and its stiffness
    // column in N/mm, read as N/m.
    let dir = scratch("round6-overlap");
    let (m, g) = (0.00409, 9.806_65);
    let mut bodies = String::from("name,mass,x,y,z,Ixx,Iyy,Izz,Ixy,Ixz,Iyz\n");
    let contacts = |k: f64| {
        let mut c = String::from("name,body,other,px,py,pz,nx,ny,nz,k,overlap\n");
        for i in 0..3 {
            c.push_str(&format!(
                "floor{i},ball{i},world,{:?},0,0,0,0,1,{k:?},{:?}\n",
                0.02 * i as f64,
                m * g / 1e6
            ));
        }
        c
    };
    for i in 0..3 {
        bodies.push_str(&format!(
            "ball{i},{m:?},{:?},0,0.005,4.09e-8,4.09e-8,4.09e-8,0,0,0\n",
            0.02 * i as f64
        ));
    }
    let case = "title = \"Three steel balls at rest on a plate\"\nspace = \"3d\"\n[scene]\nbodies = \"b.csv\"\ncontacts = \"c.csv\"\n".to_string();
    let ev = evaluate_files(
        &dir,
        &[
            ("case.toml", case.clone()),
            ("b.csv", bodies.clone()),
            ("c.csv", contacts(1e3)),
        ],
    );
    assert_eq!(rules(&ev), vec!["overlap_force"]);
    assert!(ev.report.model_checks[0].message.contains("0.001000×"));
    let ev = evaluate_files(
        &dir,
        &[
            ("case.toml", case),
            ("b.csv", bodies),
            ("c.csv", contacts(1e6)),
        ],
    );
    assert!(rules(&ev).is_empty(), "{:?}", ev.report.model_checks);
}
