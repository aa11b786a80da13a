//! Sweeps are validated like the case point, and orientations given with
//! parameters follow them: a sweep point where a value
//! breaks a rule of the case (negative damping, a zero size, a zero drop,
//! a non-unit normal) is an error at the sweep, exit 2, naming the point
//! and the rule; a quaternion or axis written with parameters is
//! re-evaluated at every point (it was frozen to numbers: a flat sweep).

use crate::support::{cli, evaluate_str};
use nalgebra::{Matrix3, Rotation3, Unit, Vector3};

const BOX: [f64; 3] = [0.4, 0.3, 0.2];
const MASS: f64 = 8.0;
const D: f64 = 0.15;

/// A box turned by `orientation`, struck at the world point (0, D, 0)
/// from below; one sweep over `sweep`.
fn turned_box(params: &str, orientation: &str, sweep: &str) -> String {
    format!(
        "title = \"turned\"\nspace = \"3d\"\n[parameters]\n{params}\n\
         [[body]]\nname = \"box\"\ntype = \"rigid\"\nmass = \"{MASS} kg\"\n\
         shape = {{ box = [\"{} m\", \"{} m\", \"{} m\"] }}\norientation = {{ {orientation} }}\n\
         [[contact]]\nname = \"k\"\nbody = \"box\"\npoint = [\"0 m\", \"{D} m\", \"0 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\n\
         [[sweep]]\n{sweep}\nplot = [\"m_eff(k)\"]\n",
        BOX[0], BOX[1], BOX[2]
    )
}

/// The closed form: a = 1/m + D² (R I⁻¹ Rᵀ)ₓₓ for a box turned by `r`.
fn m_eff(r: &Rotation3<f64>) -> f64 {
    let [a, b, c] = BOX;
    let i = Matrix3::from_diagonal(&Vector3::new(
        MASS * (b * b + c * c) / 12.0,
        MASS * (a * a + c * c) / 12.0,
        MASS * (a * a + b * b) / 12.0,
    ));
    let w = r.matrix() * i.try_inverse().unwrap() * r.matrix().transpose();
    1.0 / (1.0 / MASS + D * D * w[(0, 0)])
}

fn sweep_values(text: &str) -> (Vec<f64>, Vec<f64>) {
    let ev = evaluate_str(text);
    let s = &ev.report.sweeps[0];
    let v = s.series[0].values.iter().map(|v| v.unwrap()).collect();
    (s.x.clone(), v)
}

#[test]
fn a_sweep_over_a_quaternion_turns_the_body() {
    let text = turned_box(
        "th = \"0\"",
        "quat = [\"cos(th/2)\", \"0\", \"0\", \"sin(th/2)\"]",
        "parameter = \"th\"\nfrom = \"0\"\nto = \"1.5707963267948966\"\npoints = 7",
    );
    let (x, v) = sweep_values(&text);
    for (th, got) in x.iter().zip(&v) {
        let want = m_eff(&Rotation3::from_axis_angle(&Vector3::z_axis(), *th));
        assert!(
            (got - want).abs() <= 1e-9 * want,
            "θ = {th}: {got} vs {want}"
        );
    }
    assert!((v[6] - v[0]).abs() > 0.1 * v[0], "not flat: {v:?}");
}

#[test]
fn a_sweep_over_an_axis_turns_the_body() {
    let text = turned_box(
        "ph = \"0\"",
        "axis_angle = { axis = [\"sin(ph)\", \"0\", \"cos(ph)\"], angle = \"90 deg\" }",
        "parameter = \"ph\"\nfrom = \"0\"\nto = \"1.2\"\npoints = 5",
    );
    let (x, v) = sweep_values(&text);
    for (ph, got) in x.iter().zip(&v) {
        let axis = Unit::new_normalize(Vector3::new(ph.sin(), 0.0, ph.cos()));
        let want = m_eff(&Rotation3::from_axis_angle(
            &axis,
            std::f64::consts::FRAC_PI_2,
        ));
        assert!(
            (got - want).abs() <= 1e-9 * want,
            "φ = {ph}: {got} vs {want}"
        );
    }
    assert!((v[0] - v[4]).abs() > 0.01 * v[0], "not flat: {v:?}");
}

#[test]
fn an_rpy_sweep_matches_the_closed_form() {
    let text = turned_box(
        "yaw = \"0 deg\"",
        "rpy = [\"0\", \"0\", \"yaw\"]",
        "parameter = \"yaw\"\nfrom = \"0 deg\"\nto = \"90 deg\"\npoints = 4",
    );
    let (x, v) = sweep_values(&text);
    for (th, got) in x.iter().zip(&v) {
        let want = m_eff(&Rotation3::from_axis_angle(&Vector3::z_axis(), *th));
        assert!(
            (got - want).abs() <= 1e-9 * want,
            "yaw = {th}: {got} vs {want}"
        );
    }
}

/// The reader's error for `text`, which must not be a valid case.
fn error(text: &str) -> String {
    match meff::case::parse_case("sweep.toml", text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

const BLOCK: &str = "title = \"b\"\n[parameters]\nm = \"2 kg\"\nk = \"1e5 N/m\"\nc = \"20 N s/m\"\nw = \"0.2 m\"\nh = \"0.5 m\"\nnx = \"0\"\n\
     [[body]]\nname = \"b\"\ntype = \"rigid\"\nmass = \"m\"\nshape = { box = [\"w\", \"0.1 m\"] }\n\
     [[contact]]\nname = \"floor\"\nbody = \"b\"\npoint = [\"0 m\", \"-0.05 m\"]\nnormal = [\"nx\", \"sqrt(1 - nx^2)\"]\nstiffness = \"k\"\ndamping = \"c\"\n\
     [[impact]]\ncontact = \"floor\"\ndrop = \"h\"\n";

fn sweep(parameter: &str, from: &str, to: &str) -> String {
    format!(
        "{BLOCK}[[sweep]]\nparameter = \"{parameter}\"\nfrom = \"{from}\"\nto = \"{to}\"\npoints = 5\nplot = [\"m_eff(floor)\"]\n"
    )
}

#[test]
fn invalid_sweep_points_are_errors_at_the_sweep() {
    for (parameter, from, to, rule) in [
        ("c", "20 N s/m", "-10 N s/m", "a damping cannot be negative"),
        ("w", "0.2 m", "-0.2 m", "a shape size must be positive"),
        ("h", "0.5 m", "0 m", "a drop height must be positive"),
        ("m", "2 kg", "0 kg", "a mass must be positive"),
        ("k", "1e5 N/m", "-1e5 N/m", "a stiffness must be positive"),
        ("nx", "0", "2", "normal"),
    ] {
        let e = error(&sweep(parameter, from, to));
        assert!(e.contains("sweep point"), "{parameter}: {e}");
        assert!(e.contains(rule), "{parameter}: {e}");
        assert!(
            e.contains(&format!("{parameter} = ")),
            "names the point: {e}"
        );
        // Located at the sweep's table.
        let line = BLOCK.lines().count() + 1;
        assert!(e.contains(&format!("sweep.toml:{line}:")), "{e}");
    }
    // Within the rules, the same sweeps are fine.
    for (parameter, from, to) in [("c", "0 N s/m", "40 N s/m"), ("h", "0.1 m", "1 m")] {
        meff::case::parse_case("sweep.toml", &sweep(parameter, from, to))
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn a_quaternion_off_unit_length_at_a_sweep_point_is_an_error() {
    let text = turned_box(
        "s = \"1\"",
        "quat = [\"s\", \"0\", \"0\", \"0\"]",
        "parameter = \"s\"\nfrom = \"1\"\nto = \"2\"\npoints = 3",
    );
    let e = error(&text);
    assert!(
        e.contains("quaternion") && e.contains("sweep point 2 of 3"),
        "{e}"
    );
}

#[test]
fn the_cli_exits_2_and_writes_nothing() {
    let dir = crate::support::scratch("sweep-checks");
    std::fs::create_dir_all(&dir).unwrap();
    let case = dir.join("damping.toml");
    std::fs::write(&case, sweep("c", "20 N s/m", "-10 N s/m")).unwrap();
    let out_dir = dir.join("out");
    let out = cli(["report", case.to_str().unwrap(), "--out"])
        .arg(&out_dir)
        .exits(2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("damping.toml:") && err.contains("cannot be negative"),
        "{err}"
    );
    assert!(!out_dir.join("damping.json").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
