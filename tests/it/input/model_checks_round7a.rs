//! Model checks of issue 36's round-6 plants (checks7a): a world contact
//! on another shaped body (`other` forgotten), a Hertz load below the
//! weight it carries, a Hertz material no solid is, G*/E* above 1/3, R*
//! exactly a ball's diameter on a flat, a scene's bodies written twice, a
//! scene nothing holds up (a misnamed wall), a dump snapshot in motion or
//! not the file's last, an engine's dashpot below 10⁻⁴ of critical and a
//! MuJoCo solimp width in metres. The planter's cases are kept in
//! tests/cases/plant6; each class has new members here, and honest twins
//! that stay silent.

use crate::support::{evaluate_path, evaluate_str, root, scratch};
use std::path::Path;

fn rules(ev: &meff::Evaluated) -> Vec<&'static str> {
    ev.report.model_checks.iter().map(|w| w.rule).collect()
}

fn has(ev: &meff::Evaluated, rule: &str) -> bool {
    rules(ev).contains(&rule)
}

fn first<'a>(ev: &'a meff::Evaluated, rule: &str) -> &'a meff::checks::ModelCheck {
    ev.report
        .model_checks
        .iter()
        .find(|w| w.rule == rule)
        .unwrap_or_else(|| panic!("no {rule}: {:?}", rules(ev)))
}

/// The planter's cases: each warns with its rule, located in its file.
#[test]
fn the_planters_round6_cases_warn() {
    let dir = root().join("tests/cases/plant6");
    for (file, rule, at) in [
        (
            "p02-stack-missing-other.toml",
            "contact_on_other_body",
            ":48:",
        ),
        ("p06-hertz-radius-diameter.toml", "hertz_geometry", ":23:"),
        ("p07-hertz-load-mass-number.toml", "hertz_load", ":23:"),
        (
            "p08-hertz-material-density-wrong.toml",
            "wave_speed",
            ":27:",
        ),
        (
            "p09-hertz-E-and-G-not-effective.toml",
            "tangential_ratio",
            ":25:",
        ),
        ("p13-scene-appended-twice.toml", "duplicate_bodies", "row 4"),
        ("p20-dump-snapshot-mid-pour.toml", "dump_snapshot", ":7:"),
        ("p30-bullet-damping-as-ratio.toml", "damping_ratio", ":45:"),
        ("p31-mujoco-solimp-width-mm.toml", "solimp_width", ":20:"),
    ] {
        let ev = evaluate_path(&dir.join(file));
        let w = first(&ev, rule);
        assert!(w.location.contains(at), "{file}: {}", w.location);
    }
}

/// Two bodies, `upper` resting on `lower` with its contacts typed at the
/// top of `lower`; `other` given or not.
fn stack(lower: &str, upper: &str, top: &str, other: &str, space: &str) -> String {
    let (pts, nrm) = if space == "3d" {
        (
            [
                format!("[\"-0.05 m\", \"0 m\", \"{top}\"]"),
                format!("[\"0.05 m\", \"0 m\", \"{top}\"]"),
            ],
            "[0, 0, 1]",
        )
    } else {
        (
            [
                format!("[\"-0.05 m\", \"{top}\"]"),
                format!("[\"0.05 m\", \"{top}\"]"),
            ],
            "[0, 1]",
        )
    };
    let mut s = format!(
        "title = \"stack\"\nspace = \"{space}\"\n\n[[body]]\nname = \"lower\"\ntype = \"rigid\"\nmass = \"4 kg\"\n{lower}\n\n[[body]]\nname = \"upper\"\ntype = \"rigid\"\nmass = \"1 kg\"\n{upper}\n"
    );
    let floor = |x: &str| {
        if space == "3d" {
            format!("[\"{x}\", \"0 m\", \"0 m\"]")
        } else {
            format!("[\"{x}\", \"0 m\"]")
        }
    };
    for (i, x) in ["-0.05 m", "0.05 m"].iter().enumerate() {
        s += &format!(
            "\n[[contact]]\nname = \"floor{i}\"\nbody = \"lower\"\npoint = {}\nnormal = {nrm}\nstiffness = \"1e6 N/m\"\n",
            floor(x)
        );
    }
    for (i, p) in pts.iter().enumerate() {
        s += &format!(
            "\n[[contact]]\nname = \"top{i}\"\nbody = \"upper\"\n{other}point = {p}\nnormal = {nrm}\nstiffness = \"1e6 N/m\"\n"
        );
    }
    s
}

#[test]
fn a_world_contact_on_another_shaped_body_is_other_forgotten() {
    // A cylinder standing on a 3-d box, and a ball on a ball (planar
    // discs): the upper body's contacts sit on the lower one's top.
    let planted = [
        stack(
            "shape = { box = [\"0.3 m\", \"0.3 m\", \"0.2 m\"] }\nposition = [\"0 m\", \"0 m\", \"0.1 m\"]",
            "shape = { cylinder = [\"0.06 m\", \"0.1 m\"] }\nposition = [\"0 m\", \"0 m\", \"0.25 m\"]",
            "0.2 m",
            "",
            "3d",
        ),
        stack(
            "shape = { box = [\"0.3 m\", \"0.1 m\"] }\nposition = [\"0 m\", \"0.05 m\"]",
            "shape = { sphere = \"0.05 m\" }\nposition = [\"0 m\", \"0.15 m\"]",
            "0.1 m",
            "",
            "planar",
        ),
    ];
    for case in &planted {
        let ev = evaluate_str(case);
        let w = first(&ev, "contact_on_other_body");
        assert!(w.message.contains("other = \"lower\""), "{}", w.message);
        assert!(w.input.starts_with("contact top"), "{}", w.input);
        assert!(w.location.starts_with("test.toml:"), "{}", w.location);
    }
    // Honest: the same with `other` given; and two boxes side by side on
    // the floor, whose shared corner is on the neighbour's side face.
    let honest = stack(
        "shape = { box = [\"0.3 m\", \"0.3 m\", \"0.2 m\"] }\nposition = [\"0 m\", \"0 m\", \"0.1 m\"]",
        "shape = { cylinder = [\"0.06 m\", \"0.1 m\"] }\nposition = [\"0 m\", \"0 m\", \"0.25 m\"]",
        "0.2 m",
        "other = \"lower\"\n",
        "3d",
    );
    assert!(!has(&evaluate_str(&honest), "contact_on_other_body"));
    let side_by_side = stack(
        "shape = { box = [\"0.1 m\", \"0.1 m\"] }\nposition = [\"0 m\", \"0.05 m\"]",
        "shape = { box = [\"0.1 m\", \"0.1 m\"] }\nposition = [\"0.1 m\", \"0.05 m\"]",
        "0 m",
        "",
        "planar",
    );
    let ev = evaluate_str(&side_by_side);
    assert!(!has(&ev, "contact_on_other_body"), "{:?}", rules(&ev));
}

/// A ball of mass `m` and radius `r` on a flat, Hertz, with `keys`.
fn hertz_ball(space: &str, m: &str, r: &str, keys: &str) -> String {
    let (pos, pt, nrm) = if space == "3d" {
        (
            "[\"0 m\", \"0 m\", \"r\"]",
            "[\"0 m\", \"0 m\", \"0 m\"]",
            "[0, 0, 1]",
        )
    } else {
        ("[\"0 m\", \"r\"]", "[\"0 m\", \"0 m\"]", "[0, 1]")
    };
    format!(
        "title = \"ball\"\nspace = \"{space}\"\n[parameters]\nm = {{ value = \"{m}\" }}\nr = {{ value = \"{r}\" }}\n\n[[body]]\nname = \"ball\"\ntype = \"rigid\"\nmass = \"m\"\nshape = {{ sphere = \"r\" }}\nposition = {pos}\n\n[[contact]]\nname = \"flat\"\nbody = \"ball\"\npoint = {pt}\nnormal = {nrm}\nlaw = \"hertz\"\n{keys}\n"
    )
}

#[test]
fn a_hertz_load_below_half_the_weight_it_carries_is_flagged() {
    // 2 kg typed as 2 N (planar disc); 5 kg written as 0.005 kN meant 50 N.
    for (space, m, load, ratio) in [
        ("planar", "2 kg", "2 N", "0.1020×"),
        ("3d", "5 kg", "0.005 kN", "0.1020×"),
    ] {
        let case = hertz_ball(
            space,
            m,
            "0.02 m",
            &format!("radius = \"r\"\nmodulus = \"115 GPa\"\nload = \"{load}\""),
        );
        let ev = evaluate_str(&case);
        let w = first(&ev, "hertz_load");
        assert!(w.message.contains(ratio), "{}", w.message);
        assert!(w.location.starts_with("test.toml:22:"), "{}", w.location);
    }
    // Honest: a preload above the weight, and the weight itself.
    for load in ["50 N", "19.6 N"] {
        let case = hertz_ball(
            "3d",
            "2 kg",
            "0.02 m",
            &format!("radius = \"r\"\nmodulus = \"115 GPa\"\nload = \"{load}\""),
        );
        assert!(!has(&evaluate_str(&case), "hertz_load"), "{load}");
    }
}

#[test]
fn a_hertz_material_no_solid_is_is_flagged_by_its_wave_speed() {
    // Steel's density in g/cm³ (164 km/s), a modulus in MPa read as Pa
    // (5.2 m/s), and nylon given steel's modulus (the plant).
    for (e, rho) in [
        ("210 GPa", "7.85 kg/m^3"),
        ("210000 Pa", "7850 kg/m^3"),
        ("210 GPa", "1140 kg/m^3"),
    ] {
        let case = hertz_ball(
            "3d",
            "0.03 kg",
            "0.01 m",
            &format!(
                "radius = \"r\"\nload = \"0.3 N\"\nmaterial = {{ youngs_modulus = \"{e}\", poisson_ratio = 0.3, density = \"{rho}\", radius = \"r\" }}\nother_material = {{ youngs_modulus = \"210 GPa\", poisson_ratio = 0.3 }}"
            ),
        );
        let ev = evaluate_str(&case);
        let w = first(&ev, "wave_speed");
        assert!(w.message.contains("√(E/ρ)"), "{}", w.message);
    }
    // Honest: nylon (2.8 GPa, 1140 kg/m³: 1.57 km/s) and rubber (5 MPa,
    // 1100 kg/m³: 67 m/s).
    for (e, rho) in [("2.8 GPa", "1140 kg/m^3"), ("5 MPa", "1100 kg/m^3")] {
        let case = hertz_ball(
            "3d",
            "0.03 kg",
            "0.01 m",
            &format!(
                "radius = \"r\"\nload = \"0.3 N\"\nmaterial = {{ youngs_modulus = \"{e}\", poisson_ratio = 0.4, density = \"{rho}\", radius = \"r\" }}\nother_material = {{ youngs_modulus = \"210 GPa\", poisson_ratio = 0.3 }}"
            ),
        );
        assert!(!has(&evaluate_str(&case), "wave_speed"), "{e}");
    }
}

#[test]
fn a_shear_to_normal_modulus_ratio_above_a_third_is_flagged() {
    // Aluminium's E and G (0.37), and steel's in MPa (0.385).
    for (e, g) in [("70 GPa", "26 GPa"), ("210000 MPa", "80800 MPa")] {
        let case = hertz_ball(
            "3d",
            "0.03 kg",
            "0.01 m",
            &format!(
                "radius = \"r\"\nload = \"0.3 N\"\nmodulus = \"{e}\"\nshear_modulus = \"{g}\""
            ),
        );
        let ev = evaluate_str(&case);
        let w = first(&ev, "tangential_ratio");
        assert!(w.message.contains("1/3"), "{}", w.message);
    }
    // Honest: steel on steel's effective E* = 115 and G* = 23.8 GPa (0.21).
    let case = hertz_ball(
        "3d",
        "0.03 kg",
        "0.01 m",
        "radius = \"r\"\nload = \"0.3 N\"\nmodulus = \"115 GPa\"\nshear_modulus = \"23.8 GPa\"",
    );
    assert!(!has(&evaluate_str(&case), "tangential_ratio"));
}

#[test]
fn a_hertz_radius_equal_to_the_balls_diameter_on_a_flat_is_flagged() {
    // Planar disc and a 3-d ball in millimetres.
    for (space, r, rs) in [("planar", "0.015 m", "0.03 m"), ("3d", "4 mm", "8 mm")] {
        let case = hertz_ball(
            space,
            "0.05 kg",
            r,
            &format!("radius = \"{rs}\"\nmodulus = \"115 GPa\"\nload = \"1 N\""),
        );
        let ev = evaluate_str(&case);
        let w = first(&ev, "hertz_geometry");
        assert!(w.message.contains("R* = r"), "{}", w.message);
        assert!(w.input.ends_with("radius"), "{}", w.input);
    }
    // Honest: R* = r, and a groove's R* a little off 2r.
    for rs in ["4 mm", "8.4 mm"] {
        let case = hertz_ball(
            "3d",
            "0.05 kg",
            "4 mm",
            &format!("radius = \"{rs}\"\nmodulus = \"115 GPa\"\nload = \"1 N\""),
        );
        assert!(!has(&evaluate_str(&case), "hertz_geometry"), "{rs}");
    }
}

fn write(dir: &Path, files: &[(&str, String)]) -> meff::Evaluated {
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    evaluate_path(&dir.join(files[0].0))
}

#[test]
fn a_scenes_bodies_written_twice_are_flagged_with_their_rows() {
    let dir = scratch("round7a-twice");
    let case =
        "title = \"s\"\nspace = \"planar\"\n[scene]\nbodies = \"b.csv\"\ncontacts = \"c.csv\"\n";
    // Planar: two discs and the second written again as row 3.
    let bodies = "mass,x,y,I\n1,0,0.1,0.005\n1,0.3,0.1,0.005\n1,0.3,0.1,0.005\n";
    let contacts =
        "body,other,px,py,nx,ny,k\n0,-1,0,0,0,1,1e5\n1,-1,0.3,0,0,1,1e5\n2,-1,0.3,0,0,1,1e5\n";
    let ev = write(
        &dir,
        &[
            ("case.toml", case.to_string()),
            ("b.csv", bodies.to_string()),
            ("c.csv", contacts.to_string()),
        ],
    );
    let w = first(&ev, "duplicate_bodies");
    assert!(w.message.starts_with("1 of"), "{}", w.message);
    assert!(w.message.contains("(bodies row 2) and"), "{}", w.message);
    assert_eq!(w.location, "b.csv: bodies row 3");
    // Honest: the same mass and inertia at another centre.
    let honest = "mass,x,y,I\n1,0,0.1,0.005\n1,0.3,0.1,0.005\n1,0.6,0.1,0.005\n";
    let contacts =
        "body,other,px,py,nx,ny,k\n0,-1,0,0,0,1,1e5\n1,-1,0.3,0,0,1,1e5\n2,-1,0.6,0,0,1,1e5\n";
    let ev = write(
        &dir,
        &[
            ("case.toml", case.to_string()),
            ("b.csv", honest.to_string()),
            ("c.csv", contacts.to_string()),
        ],
    );
    assert!(!has(&ev, "duplicate_bodies"), "{:?}", rules(&ev));
}

/// A dump of four 5 mm beads in a row, each pressed 1 µm into the next
/// and resting on the floor (z = r − 1 µm), with
/// velocity columns `v` (m/s, along z) when given, as snapshots at the
/// steps `steps`.
fn beads(steps: &[u64], v: Option<f64>) -> String {
    let (r, m) = (0.005, 0.001_309);
    let mut s = String::new();
    for step in steps {
        s += &format!(
            "ITEM: TIMESTEP\n{step}\nITEM: NUMBER OF ATOMS\n4\nITEM: BOX BOUNDS ff ff fm\n0 0.06\n0 0.06\n0 0.06\nITEM: ATOMS id type x y z radius mass{}\n",
            if v.is_some() { " vx vy vz" } else { "" }
        );
        for i in 0..4 {
            let x = 0.01 + (2.0 * r - 1e-6) * i as f64;
            s += &format!("{} 1 {x} 0.01 {} {r} {m}", i + 1, r - 1e-6);
            if let Some(v) = v {
                s += &format!(" 0 0 {v}");
            }
            s += "\n";
        }
    }
    s
}

fn dump_case(keys: &str) -> String {
    format!(
        "title = \"beads\"\nspace = \"3d\"\n[scene]\ndump = \"pile.dump\"\ncontact = {{ stiffness = \"1e5 N/m\" }}\n{keys}\n"
    )
}

#[test]
fn a_scene_nothing_holds_up_is_flagged() {
    let dir = scratch("round7a-unsupported");
    // The floor named zhi (the top), and a plane above the beads.
    for keys in [
        "walls = [\"zhi\"]",
        "walls = [\"zlo\"]\nplanes = [{ point = [\"0 m\", \"0 m\", \"0.05 m\"], normal = [0, 0, -1] }]",
    ] {
        let ev = write(
            &dir,
            &[
                ("case.toml", dump_case(keys)),
                ("pile.dump", beads(&[0], None)),
            ],
        );
        let w = first(&ev, "scene_unsupported");
        assert!(w.message.contains("no sphere touches"), "{}", w.message);
        assert!(w.location.starts_with("case.toml:6:"), "{}", w.location);
    }
    // A CSV scene said to rest with no contact to the world.
    let case = "title = \"Two blocks at rest\"\nspace = \"planar\"\n[scene]\nbodies = \"b.csv\"\ncontacts = \"c.csv\"\n";
    let ev = write(
        &dir,
        &[
            ("case.toml", case.to_string()),
            (
                "b.csv",
                "mass,x,y,I\n1,0,0.05,0.002\n1,0,0.15,0.002\n".into(),
            ),
            (
                "c.csv",
                "body,other,px,py,nx,ny,k\n1,0,-0.05,0.1,0,1,1e5\n1,0,0.05,0.1,0,1,1e5\n".into(),
            ),
        ],
    );
    let w = first(&ev, "scene_unsupported");
    assert!(w.message.contains("at rest"), "{}", w.message);
    // Honest: the floor named zlo.
    let ev = write(
        &dir,
        &[
            ("case.toml", dump_case("walls = [\"zlo\"]")),
            ("pile.dump", beads(&[0], None)),
        ],
    );
    assert!(!has(&ev, "scene_unsupported"), "{:?}", rules(&ev));
}

#[test]
fn a_dump_snapshot_in_motion_or_not_the_last_is_flagged() {
    let dir = scratch("round7a-snapshot");
    // Falling at 1 m/s (√(g r) = 0.22 m/s), read as the last snapshot.
    let ev = write(
        &dir,
        &[
            ("case.toml", dump_case("walls = [\"zlo\"]")),
            ("pile.dump", beads(&[0], Some(-1.0))),
        ],
    );
    let w = first(&ev, "dump_snapshot");
    assert!(w.message.contains("4 of 4 spheres"), "{}", w.message);
    // At rest, but an earlier timestep chosen than the file's last.
    let ev = write(
        &dir,
        &[
            ("case.toml", dump_case("walls = [\"zlo\"]\ntimestep = 100")),
            ("pile.dump", beads(&[100, 200, 300], Some(0.0))),
        ],
    );
    let w = first(&ev, "dump_snapshot");
    assert!(w.message.contains("2 later"), "{}", w.message);
    assert!(w.message.contains("timestep 300"), "{}", w.message);
    assert!(w.location.starts_with("case.toml:7:"), "{}", w.location);
    // Honest: creeping at 1 mm/s, the last snapshot.
    let ev = write(
        &dir,
        &[
            ("case.toml", dump_case("walls = [\"zlo\"]")),
            ("pile.dump", beads(&[100, 200], Some(0.001))),
        ],
    );
    assert!(!has(&ev, "dump_snapshot"), "{:?}", rules(&ev));
}

/// A 10 kg plate on four feet whose spring and dashpot are the engine's
/// (`engine`: the table).
fn engine_plate(engine: &str) -> String {
    let mut s = "title = \"plate\"\nspace = \"3d\"\n\n[[body]]\nname = \"plate\"\ntype = \"rigid\"\nmass = \"10 kg\"\nshape = { box = [\"0.4 m\", \"0.4 m\", \"0.05 m\"] }\nposition = [\"0 m\", \"0 m\", \"0.025 m\"]\n".to_string();
    for (i, (x, y)) in [(0.15, 0.15), (-0.15, 0.15), (-0.15, -0.15), (0.15, -0.15)]
        .iter()
        .enumerate()
    {
        s += &format!(
            "\n[[contact]]\nname = \"foot{i}\"\nbody = \"plate\"\npoint = [\"{x} m\", \"{y} m\", \"0 m\"]\nnormal = [0, 0, 1]\n"
        );
    }
    s + "\n" + engine
}

#[test]
fn an_engines_dashpot_below_a_ten_thousandth_of_critical_is_flagged() {
    // Bullet's contactDamping in mN s/m; Bullet's at 5e-3 N s/m.
    for damping in ["0.5 mN*s/m", "5e-3 N*s/m"] {
        let case = engine_plate(&format!(
            "[engine.bullet]\ntimestep = \"1 ms\"\nstiffness = \"1e6 N/m\"\ndamping = \"{damping}\"\n"
        ));
        let ev = evaluate_str(&case);
        let w = first(&ev, "damping_ratio");
        assert!(w.message.contains("below 0.0001"), "{}", w.message);
        // At the engine's `damping` key, not the contact.
        assert!(w.location.ends_with(":38:1"), "{}", w.location);
    }
    // Honest: 500 N s/m on 1e6 N/m (ζ ≈ 0.16).
    let case = engine_plate(
        "[engine.bullet]\ntimestep = \"1 ms\"\nstiffness = \"1e6 N/m\"\ndamping = \"500 N*s/m\"\n",
    );
    assert!(!has(&evaluate_str(&case), "damping_ratio"));
}

#[test]
fn a_mujoco_solimp_width_in_metres_is_flagged() {
    let with = |width: &str| {
        engine_plate(&format!(
            "[engine.mujoco]\ntimestep = \"2 ms\"\nsolref = [0.02, 1]\nsolimp = [0.9, 0.95, {width}, 0.5, 2]\n"
        ))
    };
    for width in ["0.5", "5"] {
        let ev = evaluate_str(&with(width));
        let w = first(&ev, "solimp_width");
        assert!(w.location.ends_with(":38:1"), "{}", w.location);
    }
    for width in ["0.001", "0.02"] {
        assert!(!has(&evaluate_str(&with(width)), "solimp_width"), "{width}");
    }
}
