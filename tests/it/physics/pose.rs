//! Bodies with a shape and an orientation: a turned body equals
//! the same body with its world-frame tensor written out, shapes give the
//! textbook inertias in closed form, body-frame contacts turn with the body.

use crate::support::{assert_close, evaluate_str, meff_with_stdin};
use nalgebra::{Matrix3, Rotation3, UnitQuaternion, Vector3};

const BOX: [f64; 3] = [0.4, 0.3, 0.2];
const MASS: f64 = 8.0;

fn box_principal() -> [f64; 3] {
    let [a, b, c] = BOX;
    [
        MASS * (b * b + c * c) / 12.0,
        MASS * (a * a + c * c) / 12.0,
        MASS * (a * a + b * b) / 12.0,
    ]
}

/// A 3-d box with one corner contact (world frame) and the body given by
/// `body` (its `inertia`/`shape`/`orientation` lines).
fn case(body: &str, corner: [f64; 3]) -> String {
    format!(
        "title = \"box\"\nspace = \"3d\"\n[[body]]\nname = \"box\"\ntype = \"rigid\"\nmass = \"{MASS} kg\"\n{body}\n\
         [[contact]]\nname = \"corner\"\nbody = \"box\"\npoint = [\"{} m\", \"{} m\", \"{} m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\n",
        corner[0], corner[1], corner[2]
    )
}

fn m_eff(text: &str) -> f64 {
    evaluate_str(text).report.contacts[0].m_eff.unwrap()
}

fn tensor_case(r: &Matrix3<f64>, corner: [f64; 3]) -> String {
    let i = box_principal();
    let world = r * Matrix3::from_diagonal(&Vector3::new(i[0], i[1], i[2])) * r.transpose();
    let rows: Vec<String> = (0..3)
        .map(|k| {
            format!(
                "[\"{:.17e} kg m^2\", \"{:.17e} kg m^2\", \"{:.17e} kg m^2\"]",
                world[(k, 0)],
                world[(k, 1)],
                world[(k, 2)]
            )
        })
        .collect();
    case(&format!("inertia = [{}]", rows.join(", ")), corner)
}

#[test]
fn the_tote_on_one_corner_sees_1_461_kg() {
    // 8 kg, 400 × 300 × 200 mm, dropped flat onto one corner.
    let text = case(
        "shape = { box = [\"400 mm\", \"300 mm\", \"200 mm\"] }",
        [0.2, 0.15, -0.1],
    );
    let m = m_eff(&text);
    let i = box_principal();
    let a = 1.0 / MASS + 0.15 * 0.15 / i[0] + 0.2 * 0.2 / i[1];
    assert_close(m, 1.0 / a, 1e-12);
    assert!((m - 1.461).abs() < 5e-4, "{m}");
}

#[test]
fn a_turned_box_equals_its_world_tensor_for_every_orientation_form() {
    let corner = [0.13, -0.07, -0.11];
    let (roll, pitch, yaw) = (10f64.to_radians(), -25f64.to_radians(), 40f64.to_radians());
    let shape = "shape = { box = [\"0.4 m\", \"0.3 m\", \"0.2 m\"] }";
    // rpy: URDF's fixed axes X, Y, Z = Rz(yaw) Ry(pitch) Rx(roll).
    let r = Rotation3::from_euler_angles(roll, pitch, yaw).into_inner();
    let rpy = case(
        &format!("{shape}\norientation = {{ rpy = [\"10 deg\", \"-25 deg\", \"40 deg\"] }}"),
        corner,
    );
    assert_close(m_eff(&rpy), m_eff(&tensor_case(&r, corner)), 1e-12);
    // quat [w, x, y, z].
    let q = UnitQuaternion::from_euler_angles(0.3, 0.5, -1.1);
    let qc = q.quaternion();
    let quat = case(
        &format!(
            "{shape}\norientation = {{ quat = [{:.17}, {:.17}, {:.17}, {:.17}] }}",
            qc.w, qc.i, qc.j, qc.k
        ),
        corner,
    );
    let rq = q.to_rotation_matrix().into_inner();
    assert_close(m_eff(&quat), m_eff(&tensor_case(&rq, corner)), 1e-12);
    // axis_angle (the axis need not be unit).
    let axis = Vector3::new(1.0, 2.0, -2.0);
    let ra = Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(axis), 30f64.to_radians())
        .into_inner();
    let aa = case(
        &format!(
            "{shape}\norientation = {{ axis_angle = {{ axis = [1, 2, -2], angle = \"30 deg\" }} }}"
        ),
        corner,
    );
    assert_close(m_eff(&aa), m_eff(&tensor_case(&ra, corner)), 1e-12);
    // The identity turns nothing.
    let none = case(
        &format!("{shape}\norientation = {{ quat = [1, 0, 0, 0] }}"),
        corner,
    );
    assert_close(
        m_eff(&none),
        m_eff(&tensor_case(&Matrix3::identity(), corner)),
        1e-13,
    );
}

#[test]
fn shapes_give_textbook_inertias() {
    // Contact at a lever arm 0.1 m along x, normal z: a = 1/m + 0.01/Iyy.
    let arm = [0.1, 0.0, 0.0];
    let (m, r, h) = (MASS, 0.05, 0.3);
    let iyy = |shape: &str| {
        let a = 1.0 / m_eff(&case(shape, arm)) - 1.0 / m;
        0.01 / a
    };
    assert_close(
        iyy("shape = { sphere = \"0.05 m\" }"),
        0.4 * m * r * r,
        1e-12,
    );
    assert_close(
        iyy("shape = { cylinder = [\"0.05 m\", \"0.3 m\"] }"),
        m * (3.0 * r * r + h * h) / 12.0,
        1e-12,
    );
    assert_close(
        iyy("shape = { ellipsoid = [\"0.2 m\", \"0.1 m\", \"0.05 m\"] }"),
        m * (0.2f64.powi(2) + 0.05f64.powi(2)) / 5.0,
        1e-12,
    );
    // Capsule: the cylinder (length h) and two hemispheres share the mass
    // by volume (MuJoCo's convention).
    let (vc, vs) = (
        std::f64::consts::PI * r * r * h,
        4.0 / 3.0 * std::f64::consts::PI * r.powi(3),
    );
    let (mc, ms) = (m * vc / (vc + vs), m * vs / (vc + vs));
    let want = mc * (3.0 * r * r + h * h) / 12.0
        + ms * (2.0 * r * r / 5.0 + h * h / 4.0 + 3.0 * h * r / 8.0);
    assert_close(
        iyy("shape = { capsule = [\"0.05 m\", \"0.3 m\"] }"),
        want,
        1e-12,
    );
}

#[test]
fn a_shape_keeps_its_closed_form() {
    let text = "title = \"t\"\nspace = \"3d\"\n[parameters]\nm = { value = \"8 kg\" }\na = { value = \"0.4 m\" }\nb = { value = \"0.3 m\" }\nc = { value = \"0.2 m\" }\n\
        [[body]]\nname = \"box\"\ntype = \"rigid\"\nmass = \"m\"\nshape = { box = [\"a\", \"b\", \"c\"] }\n\
        [[contact]]\nname = \"k\"\nbody = \"box\"\npoint = [\"a/2\", \"b/2\", \"-c/2\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\n\
        [[claim]]\nof = \"a(k)\"\nequals = \"1/m + (b/2)^2/(m*(b^2 + c^2)/12) + (a/2)^2/(m*(a^2 + c^2)/12)\"\n";
    let ev = evaluate_str(text);
    let claim = &ev.report.claims[0];
    assert_eq!(claim.passed, Some(true), "{:?}", claim.message);
    assert_eq!(
        claim.how, "symbolic",
        "proved in closed form, not by numbers"
    );
}

#[test]
fn body_frame_contacts_turn_with_the_body() {
    // A planar block turned 90°: a body-frame point 0.1 m along its x axis
    // is 0.1 m above its centre in the world, and its normal (1, 0) is (0, 1).
    let planar = |angle: &str, frame: &str, point: &str, normal: &str| {
        format!(
            "title = \"p\"\nspace = \"planar\"\n[[body]]\nname = \"b\"\ntype = \"rigid\"\nmass = \"2 kg\"\ninertia = \"0.02 kg m^2\"\nposition = [\"0.3 m\", \"0.05 m\"]\n{angle}\n\
             [[contact]]\nname = \"c\"\nbody = \"b\"\n{frame}\npoint = {point}\nnormal = {normal}\nstiffness = \"1e5 N/m\"\n"
        )
    };
    let turned = planar(
        "angle = \"90 deg\"",
        "frame = \"body\"",
        "[\"0.1 m\", \"0.02 m\"]",
        "[1, 0]",
    );
    let world = planar("", "", "[\"0.28 m\", \"0.15 m\"]", "[0, 1]");
    assert_close(m_eff(&turned), m_eff(&world), 1e-12);
    // Without an angle, body frame = world axes from the centre of mass.
    let shifted = planar("", "frame = \"body\"", "[\"-0.02 m\", \"0.1 m\"]", "[0, 1]");
    assert_close(m_eff(&shifted), m_eff(&world), 1e-12);
}

#[test]
fn shape_and_orientation_mistakes_are_located() {
    for (body, needle) in [
        (
            "inertia = [\"1 kg m^2\", \"1 kg m^2\", \"1 kg m^2\"]\nshape = { sphere = \"0.1 m\" }",
            "exclusive",
        ),
        ("shape = { cube = \"0.1 m\" }", "unknown shape `cube`"),
        ("shape = { rod = \"1 m\" }", "thin rod"),
        (
            "shape = { box = [\"0.4 m\", \"-0.3 m\", \"0.2 m\"] }",
            "positive",
        ),
        (
            "shape = { sphere = \"0.1 m\" }\norientation = { quat = [0, 0, 0, 0] }",
            "length 1",
        ),
        (
            "shape = { sphere = \"0.1 m\" }\norientation = { rpy = [0, 0, 0], quat = [1, 0, 0, 0] }",
            "exactly one",
        ),
        (
            "shape = { sphere = \"0.1 m\" }\nangle = \"10 deg\"",
            "planar body",
        ),
    ] {
        let text = case(body, [0.1, 0.0, 0.0]);
        let out = meff_with_stdin(&["eval", "--no-verify", "-"], &text);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{body}: {err}");
        assert!(err.contains(needle), "{body}: {err}");
        assert!(err.contains("<stdin>:") || err.contains(":"), "{err}");
    }
}

#[test]
fn a_shaped_body_is_sketched_as_its_shape_turned_with_it() {
    use meff::report::sketch::{Outline, sketch};
    let text = case(
        "shape = { box = [\"400 mm\", \"300 mm\", \"200 mm\"] }\nposition = [\"1 m\", \"0 m\", \"0.1 m\"]\n\
         orientation = { axis_angle = { axis = [0, 0, 1], angle = \"90 deg\" } }",
        [1.2, 0.15, 0.0],
    );
    let parsed = meff::case::parse_case("test.toml", &text).unwrap();
    let s = sketch(&parsed, None).unwrap();
    let Outline::Shape(lines) = &s.bodies[0].outline else {
        panic!("a box shape is drawn as itself: {:?}", s.bodies[0].outline)
    };
    assert_eq!(lines.len(), 12, "a box has twelve edges");
    // Turned a quarter about z: body x (0.4 m) lies along world y.
    let (mut ymin, mut ymax, mut xmax) = (f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    for p in lines.iter().flatten() {
        ymin = ymin.min(p[1]);
        ymax = ymax.max(p[1]);
        xmax = xmax.max(p[0]);
    }
    assert_close(ymax - ymin, 0.4, 1e-12);
    assert_close(xmax, 1.15, 1e-12);
    // A sphere: rings of its radius about its centre.
    let text = case(
        "shape = { sphere = \"0.1 m\" }\nposition = [\"0 m\", \"0 m\", \"0.1 m\"]",
        [0.0, 0.0, 0.0],
    );
    let parsed = meff::case::parse_case("test.toml", &text).unwrap();
    let Outline::Shape(rings) = &sketch(&parsed, None).unwrap().bodies[0].outline else {
        panic!("a sphere is drawn as itself")
    };
    for p in rings.iter().flatten() {
        let r = (p[0] * p[0] + p[1] * p[1] + (p[2] - 0.1) * (p[2] - 0.1)).sqrt();
        assert_close(r, 0.1, 1e-12);
    }
}
