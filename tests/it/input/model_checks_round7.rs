//! Model checks of the seventh round (checks7c): a body sagging a fifth
//! of its size under its own weight (N/mm typed as N/m), a Hertz R* above
//! its ball's radius against a convex counterpart (r1 + r2 for
//! r1 r2/(r1 + r2)), a Hertz material density in g/cm³ typed as kg/m³, a
//! dump's contact tolerance of the spheres' size, a payload's position in
//! world coordinates and its inertia in kg·cm² typed as kg·m², an engine
//! preload below the weight's share; and two false alarms gone (a block
//! face down on an incline in body axes, a weight stated in N). Each
//! planted input is flagged with its rule and located; its honest twin is
//! silent.

use crate::support::{evaluate_path, evaluate_str, root, scratch};

fn rules(ev: &meff::Evaluated) -> Vec<&'static str> {
    ev.report.model_checks.iter().map(|w| w.rule).collect()
}

/// A box of `mass` kg and sides `sides` (m) on four corner pads of
/// stiffness `k`, feet typed in body axes; `extra` is appended.
fn on_pads(mass: f64, sides: [f64; 3], k: &str, orientation: &str, extra: &str) -> String {
    let [a, b, c] = sides.map(|s| s / 2.0);
    let mut s = format!(
        "title = \"Box on pads\"\nspace = \"3d\"\n[[body]]\nname = \"box\"\ntype = \"rigid\"\nmass = \"{mass} kg\"\nshape = {{ box = [\"{} m\", \"{} m\", \"{} m\"] }}\nposition = [\"0 m\", \"0 m\", \"{c} m\"]\n{orientation}\n",
        sides[0], sides[1], sides[2]
    );
    for (i, (x, y)) in [(a, b), (-a, b), (-a, -b), (a, -b)].iter().enumerate() {
        s.push_str(&format!(
            "[[contact]]\nname = \"p{i}\"\nbody = \"box\"\nframe = \"body\"\npoint = [\"{x} m\", \"{y} m\", \"{} m\"]\nnormal = [0, 0, 1]\n{k}\n",
            -c
        ));
    }
    s + extra
}

#[test]
fn a_body_sagging_a_fifth_of_its_size_under_its_weight_is_flagged() {
    // Three new members: N/mm typed as N/m on a cabinet, on a 2 kg
    // housing, and kN/m typed as N/m on a 300 kg machine.
    for (mass, sides, k) in [
        (35.0, [0.5, 0.4, 0.8], "stiffness = \"400 N/m\""),
        (2.0, [0.2, 0.15, 0.1], "stiffness = \"80 N/m\""),
        (300.0, [1.2, 0.8, 1.0], "stiffness = \"2000 N/m\""),
    ] {
        let ev = evaluate_str(&on_pads(mass, sides, k, "", ""));
        assert_eq!(rules(&ev), vec!["stiffness_for_size"], "{k}");
        let w = &ev.report.model_checks[0];
        assert!(w.message.contains("m g/Σk"), "{}", w.message);
        assert!(w.message.contains("Hz"), "{}", w.message);
        assert!(w.location.starts_with("test.toml:7:"), "{}", w.location);
    }
    // The same in their datasheet units: silent.
    for (mass, sides, k) in [
        (35.0, [0.5, 0.4, 0.8], "stiffness = \"400 N/mm\""),
        (300.0, [1.2, 0.8, 1.0], "stiffness = \"2000 kN/m\""),
    ] {
        assert!(rules(&evaluate_str(&on_pads(mass, sides, k, "", ""))).is_empty());
    }
}

/// A ball of radius `r1` on a fixed seat, a convex ball of radius `r2`
/// about the origin, with a Hertz `radius` typed as `radius`.
fn ball_on_ball(r1: f64, r2: f64, radius: &str, seat_shape: bool) -> String {
    let shape = if seat_shape {
        format!(
            "type = \"rigid\"\nmass = \"1000 kg\"\nshape = {{ sphere = \"{r2} m\" }}\nposition = [\"0 m\", \"0 m\", \"0 m\"]"
        )
    } else {
        "type = \"fixed\"".to_string()
    };
    format!(
        "title = \"Ball on ball\"\nspace = \"3d\"\n[parameters]\nr1 = \"{r1} m\"\nr2 = \"{r2} m\"\n[[body]]\nname = \"ball\"\ntype = \"rigid\"\nmass = \"{} kg\"\nshape = {{ sphere = \"r1\" }}\nposition = [\"0 m\", \"0 m\", \"r1 + r2\"]\n[[body]]\nname = \"seat\"\n{shape}\n[[contact]]\nname = \"touch\"\nbody = \"ball\"\nother = \"seat\"\npoint = [\"0 m\", \"0 m\", \"r2\"]\nnormal = [0, 0, 1]\nlaw = \"hertz\"\nradius = \"{radius}\"\nload = \"{} N\"\nmodulus = \"115 GPa\"\n",
        7850.0 * 4.0 / 3.0 * std::f64::consts::PI * r1.powi(3),
        7850.0 * 4.0 / 3.0 * std::f64::consts::PI * r1.powi(3) * 9.81
    )
}

#[test]
fn a_hertz_radius_above_its_balls_against_a_convex_side_is_flagged() {
    // Sums typed for the harmonic mean: on an unshaped seat whose point
    // is its radius out along the normal, and on a shaped ball; a radius
    // in mm typed as cm.
    for (r1, r2, radius, shaped) in [
        (0.004, 0.006, "r1 + r2", false),
        (0.02, 0.05, "r1 + r2", true),
        (0.01, 0.01, "0.5 cm * 10", false),
    ] {
        let text = ball_on_ball(r1, r2, radius, shaped);
        let ev = evaluate_str(&text);
        assert!(
            rules(&ev).contains(&"hertz_geometry"),
            "{radius}: {:?}",
            rules(&ev)
        );
        let w = ev
            .report
            .model_checks
            .iter()
            .find(|w| w.rule == "hertz_geometry")
            .unwrap();
        assert!(w.message.contains("1/R* = 1/r1 + 1/r2"), "{}", w.message);
        let line = text
            .lines()
            .position(|l| l.starts_with("radius ="))
            .unwrap()
            + 1;
        assert_eq!(w.location, format!("test.toml:{line}:10"));
    }
    // The harmonic mean, and a ball on a flat (R* = r1): silent.
    for (r1, r2, radius, shaped) in [
        (0.004, 0.006, "r1*r2/(r1 + r2)", false),
        (0.02, 0.05, "r1*r2/(r1 + r2)", true),
        (0.01, 0.01, "r1", false),
    ] {
        let ev = evaluate_str(&ball_on_ball(r1, r2, radius, shaped));
        assert!(
            !rules(&ev).contains(&"hertz_geometry"),
            "{radius}: {:?}",
            ev.report.model_checks
        );
    }
}

/// A steel ball on a plate with a Hertz material of density `rho`.
fn material(rho: &str, other: &str) -> String {
    format!(
        "title = \"Ball on plate\"\nspace = \"3d\"\n[[body]]\nname = \"ball\"\ntype = \"rigid\"\nmass = \"0.0327 kg\"\nshape = {{ sphere = \"0.01 m\" }}\nposition = [\"0 m\", \"0 m\", \"0.01 m\"]\n[[contact]]\nname = \"plate\"\nbody = \"ball\"\npoint = [\"0 m\", \"0 m\", \"0 m\"]\nnormal = [0, 0, 1]\nlaw = \"hertz\"\nradius = \"0.01 m\"\nload = \"0.3207 N\"\nmaterial = {{ youngs_modulus = \"210 GPa\", poisson_ratio = 0.3, density = \"{rho}\", radius = \"0.01 m\" }}\nother_material = {{ youngs_modulus = \"70 GPa\", poisson_ratio = 0.33{other} }}\n"
    )
}

#[test]
fn a_hertz_material_density_in_g_per_cm3_is_flagged() {
    for (rho, other, key) in [
        ("7.85 kg/m^3", "", "material.density"),
        ("15.6 kg/m^3", "", "material.density"),
        (
            "7850 kg/m^3",
            ", density = \"2.7 kg/m^3\"",
            "other_material.density",
        ),
    ] {
        let ev = evaluate_str(&material(rho, other));
        let w: Vec<_> = ev
            .report
            .model_checks
            .iter()
            .filter(|w| w.rule == "implausible_density")
            .collect();
        assert_eq!(w.len(), 1, "{rho}{other}: {:?}", ev.report.model_checks);
        assert!(w[0].input.contains(key), "{}", w[0].input);
        assert!(w[0].message.contains("g/cm³"), "{}", w[0].message);
        let text = material(rho, other);
        let table = key.trim_end_matches(".density");
        let line = text
            .lines()
            .position(|l| l.starts_with(&format!("{table} =")))
            .unwrap()
            + 1;
        assert!(
            w[0].location.starts_with(&format!("test.toml:{line}:")),
            "{}",
            w[0].location
        );
    }
    let ev = evaluate_str(&material("7850 kg/m^3", ", density = \"2700 kg/m^3\""));
    assert!(!rules(&ev).contains(&"implausible_density"));
}

/// A Drake box of `mass` kg on four corners with `preload`.
fn drake(mass: f64, preload: &str) -> String {
    on_pads(
        mass,
        [0.2, 0.15, 0.1],
        "",
        "",
        &format!(
            "[engine.drake]\ntimestep = \"1 ms\"\nstiffness = \"1e5 N/m\"\ndissipation = \"0.5 s/m\"\npreload = \"{preload}\"\n"
        ),
    )
}

#[test]
fn an_engine_preload_below_the_weight_share_is_flagged() {
    // The mass number typed as the force, the total weight divided by the
    // wrong count (8 for 4), and a kgf read as N.
    for (mass, preload) in [(3.0, "3 N"), (2.0, "2.45 N"), (10.0, "2.5 N")] {
        let ev = evaluate_str(&drake(mass, preload));
        assert_eq!(rules(&ev), vec!["engine_preload"], "{preload}");
        let w = &ev.report.model_checks[0];
        assert!(w.message.contains("m g/n"), "{}", w.message);
        assert!(w.location.starts_with("test.toml:"), "{}", w.location);
        assert!(w.input.contains("[engine.drake]"), "{}", w.input);
    }
    // The share, and a clamp far above it: silent.
    for (mass, preload) in [(2.0, "4.903 N"), (2.0, "150 N")] {
        assert!(
            rules(&evaluate_str(&drake(mass, preload))).is_empty(),
            "{preload}"
        );
    }
}

#[test]
fn a_block_face_down_on_an_incline_in_body_axes_is_not_flagged() {
    // Turned 30° about x and 20° about y: the feet's normal is the face's.
    for rpy in [
        "\"30 deg\", \"0 deg\", \"0 deg\"",
        "\"0 deg\", \"20 deg\", \"0 deg\"",
    ] {
        let orientation = format!("orientation = {{ rpy = [{rpy}] }}");
        let ev = evaluate_str(&on_pads(
            4.0,
            [0.2, 0.2, 0.1],
            "stiffness = \"1e5 N/m\"",
            &orientation,
            "",
        ));
        assert!(
            !rules(&ev).contains(&"body_frame_normal"),
            "{rpy}: {:?}",
            ev.report.model_checks
        );
    }
    // A tilted block on one edge's two corners, normals in body axes: the
    // floor's normal is not the face's there.
    let mut edge = on_pads(
        4.0,
        [0.2, 0.2, 0.1],
        "stiffness = \"1e5 N/m\"",
        "orientation = { rpy = [\"30 deg\", \"0 deg\", \"0 deg\"] }",
        "",
    );
    // Keep p0 and p3 (x = +0.1: one edge).
    let cut = edge.find("[[contact]]\nname = \"p1\"").unwrap();
    let end = edge.find("[[contact]]\nname = \"p3\"").unwrap();
    edge.replace_range(cut..end, "");
    let ev = evaluate_str(&edge);
    assert!(
        rules(&ev).contains(&"body_frame_normal"),
        "{:?}",
        ev.report.model_checks
    );
}

#[test]
fn a_weight_stated_in_newtons_counts_as_a_force() {
    for (mass, words) in [(2.0, "19.6 N"), (5.0, "49.05 N"), (0.5, "4.9 N")] {
        let case = on_pads(mass, [0.2, 0.15, 0.1], "stiffness = \"1e5 N/m\"", "", "").replacen(
            "space",
            &format!("description = \"On a force gauge it weighs {words}.\"\nspace"),
            1,
        );
        let ev = evaluate_str(&case);
        assert!(
            !rules(&ev).contains(&"description_contradicts_result"),
            "{words}: {:?}",
            ev.report.model_checks
        );
    }
    let case = on_pads(2.0, [0.2, 0.15, 0.1], "stiffness = \"1e5 N/m\"", "", "").replacen(
        "space",
        "description = \"On a force gauge it weighs 25 N.\"\nspace",
        1,
    );
    assert!(rules(&evaluate_str(&case)).contains(&"description_contradicts_result"));
}

/// The bundled UR5 program case with its payload's `from` line replaced
/// by `to`, in `dir`.
fn ur5_with(dir: &std::path::Path, from: &str, to: &str) -> meff::Evaluated {
    let text = std::fs::read_to_string(root().join("cases/ur5-program.toml")).unwrap();
    assert!(text.contains(from), "{from}");
    std::fs::create_dir_all(dir.join("models")).unwrap();
    for f in ["models/ur5_robot.urdf", "ur5-program.csv"] {
        std::fs::copy(root().join("cases").join(f), dir.join(f)).unwrap();
    }
    let path = dir.join("case.toml");
    std::fs::write(&path, text.replace(from, to)).unwrap();
    evaluate_path(&path)
}

const POSITION: &str = "position = [\"0 m\", \"0 m\", \"0.06 m\"]";
const INERTIA: &str = "inertia = [\"2e-3 kg m^2\", \"2e-3 kg m^2\", \"1e-3 kg m^2\"]";

#[test]
fn a_payload_position_in_world_coordinates_is_flagged() {
    let dir = scratch("round7-payload-position");
    // tool0's world position at the case's configuration, typed for its
    // frame's origin; and a point 3 cm beyond it.
    for at in [
        "[\"0.4869 m\", \"0.1092 m\", \"0.4319 m\"]",
        "[\"0.49 m\", \"0.11 m\", \"0.46 m\"]",
    ] {
        let ev = ur5_with(&dir, POSITION, &format!("position = {at}"));
        let w: Vec<_> = ev
            .report
            .model_checks
            .iter()
            .filter(|w| w.rule == "payload_inputs")
            .collect();
        assert_eq!(w.len(), 1, "{at}: {:?}", ev.report.model_checks);
        assert!(w[0].message.contains("world"), "{}", w[0].message);
        assert!(
            w[0].location.starts_with("case.toml:29:"),
            "{}",
            w[0].location
        );
    }
    // A long end effector, 0.35 m out along the flange's axis: silent.
    let ev = ur5_with(&dir, POSITION, "position = [\"0 m\", \"0 m\", \"0.35 m\"]");
    assert!(
        !rules(&ev).contains(&"payload_inputs"),
        "{:?}",
        ev.report.model_checks
    );
}

#[test]
fn a_payload_inertia_far_too_large_for_its_mass_is_flagged() {
    let dir = scratch("round7-payload-inertia");
    // kg·cm² typed as kg·m² (10⁴×), and kg·dm²-sized moments (10³×).
    for moments in [
        "[\"20 kg m^2\", \"20 kg m^2\", \"10 kg m^2\"]",
        "[\"2 kg m^2\", \"2 kg m^2\", \"1 kg m^2\"]",
    ] {
        let ev = ur5_with(&dir, INERTIA, &format!("inertia = {moments}"));
        let w: Vec<_> = ev
            .report
            .model_checks
            .iter()
            .filter(|w| w.rule == "implausible_density" && w.input.starts_with("payload"))
            .collect();
        assert_eq!(w.len(), 1, "{moments}: {:?}", ev.report.model_checks);
        assert!(w[0].message.contains("kg·cm²"), "{}", w[0].message);
        assert!(
            w[0].location.starts_with("case.toml:30:"),
            "{}",
            w[0].location
        );
    }
    // A slender 0.8 kg suction tube, 0.5 m long: silent.
    let ev = ur5_with(
        &dir,
        INERTIA,
        "inertia = [\"1.67e-2 kg m^2\", \"1.67e-2 kg m^2\", \"2e-4 kg m^2\"]",
    );
    assert!(
        !ev.report
            .model_checks
            .iter()
            .any(|w| w.input.starts_with("payload")),
        "{:?}",
        ev.report.model_checks
    );
}
