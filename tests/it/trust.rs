//! Trust, round 3 (issue 26): a damped stable step that is never above the
//! true limit, no false "disagrees" from round-off, failing claims that
//! read well.

use std::process::Command;

fn eval(text: &str) -> meff::Evaluated {
    let case = meff::case::parse_case("trust.toml", text).expect("valid case");
    meff::evaluate_with(
        case,
        meff::Options {
            verify: true,
            ..Default::default()
        },
    )
    .expect("evaluates")
}

/// A planar block on two contacts with unequal dashpots.
fn block(c1: f64, c2: f64, r: f64) -> String {
    format!(
        r#"title = "Block on two damped contacts"
space = "planar"
[[body]]
name = "block"
type = "rigid"
mass = "2 kg"
inertia = "0.02 kg m^2"
position = ["0 m", "0.05 m"]
[[contact]]
name = "left"
body = "block"
point = ["-{r} m", "0 m"]
normal = [0, 1]
stiffness = "1e5 N/m"
damping = "{c1} N s/m"
[[contact]]
name = "right"
body = "block"
point = ["{r} m", "0 m"]
normal = [0, 1]
stiffness = "1e5 N/m"
damping = "{c2} N s/m"
"#
    )
}

/// Symplectic Euler with the dashpot force at the step's start velocity,
/// on the gaps: true when a small start grows over many steps.
fn grows(a: [[f64; 2]; 2], k: [f64; 2], c: [f64; 2], h: f64) -> bool {
    let (mut g, mut v) = ([1e-3, -0.7e-3], [0.0, 0.0]);
    for _ in 0..100_000 {
        let f = [k[0] * g[0] + c[0] * v[0], k[1] * g[1] + c[1] * v[1]];
        for i in 0..2 {
            v[i] -= h * (a[i][0] * f[0] + a[i][1] * f[1]);
        }
        for i in 0..2 {
            g[i] += h * v[i];
        }
        if g[0].hypot(g[1]) > 1e-2 || g[0].hypot(g[1]).is_nan() {
            return true;
        }
    }
    false
}

#[test]
fn damped_stable_step_is_the_true_limit_for_any_dashpots() {
    for (c1, c2, r) in [
        (50.0, 2000.0, 0.1),
        (0.0, 800.0, 0.07),
        (300.0, 30.0, 0.12),
        (1500.0, 1500.0, 0.1),
    ] {
        let ev = eval(&block(c1, c2, r));
        let an = &ev.analysis;
        let a = [[an.a(0, 0), an.a(0, 1)], [an.a(1, 0), an.a(1, 1)]];
        let h = an.stable_dt.coupled_damped.expect("damped step");
        // Never above the true limit, and within 1 % below it.
        assert!(!grows(a, [1e5; 2], [c1, c2], h), "{c1} {c2}: {h}");
        assert!(
            grows(a, [1e5; 2], [c1, c2], h * 1.01),
            "{c1} {c2}: {h} is more than 1 % below the limit"
        );
        assert!(h <= an.stable_dt.coupled.unwrap());
    }
}

/// A thin rod (radius ρ, 1 m, 1 kg) along a turned axis in the plane: its
/// inertia tensor's condition number is about (1/12)/(ρ²/2).
fn rod(angle_deg: f64, radius: f64) -> String {
    let t = 1.0 / 12.0;
    let axial = 0.5 * radius * radius;
    let (s, c) = angle_deg.to_radians().sin_cos();
    let ixx = t * (1.0 - c * c) + axial * c * c;
    let iyy = t * (1.0 - s * s) + axial * s * s;
    let ixy = (axial - t) * c * s;
    format!(
        r#"title = "Thin rod on a turned axis"
space = "3d"
[[body]]
name = "rod"
type = "rigid"
mass = "1 kg"
inertia = [["{ixx:?} kg m^2", "{ixy:?} kg m^2", "0 kg m^2"], ["{ixy:?} kg m^2", "{iyy:?} kg m^2", "0 kg m^2"], ["0 kg m^2", "0 kg m^2", "{t:?} kg m^2"]]
position = ["0 m", "0 m", "0 m"]
[[contact]]
name = "tip"
body = "rod"
point = ["{:?} m", "{:?} m", "0 m"]
normal = [0, 0, 1]
stiffness = "1e5 N/m"
"#,
        0.5 * c,
        0.5 * s
    )
}

#[test]
fn an_ill_conditioned_inertia_verifies_within_its_round_off() {
    for (angle, radius) in [(30.0, 1e-6), (-55.0, 2e-6), (12.0, 5e-7)] {
        let ev = eval(&rod(angle, radius));
        let v = ev.report.verification.as_ref().expect("verified");
        let kappa = v.inertia_condition;
        let expected = (1.0 / 12.0) / (0.5 * radius * radius);
        assert!(
            (kappa / expected - 1.0).abs() < 1e-3,
            "{kappa} vs {expected}"
        );
        let failed: Vec<_> = v
            .verdict
            .checks
            .iter()
            .filter(|c| c.agrees == Some(false))
            .collect();
        assert!(v.verdict.agrees, "{angle}° {radius}: {failed:#?}");
        let impulse = v
            .verdict
            .checks
            .iter()
            .find(|c| c.check == "impulse")
            .unwrap();
        let tol = impulse.tolerance.unwrap();
        assert!(tol > meff::verify::IMPULSE_TOLERANCE && tol < 1e-2, "{tol}");
        assert!(impulse.why.contains("condition number"), "{}", impulse.why);
    }
    // A well-conditioned body keeps the tight tolerance.
    let ev = eval(&rod(30.0, 0.2));
    let v = ev.report.verification.as_ref().unwrap();
    let impulse = v
        .verdict
        .checks
        .iter()
        .find(|c| c.check == "impulse")
        .unwrap();
    assert_eq!(impulse.tolerance, Some(meff::verify::IMPULSE_TOLERANCE));
}

#[test]
fn convergence_orders_are_judged_above_the_runs_floor() {
    // The thin rod's RK4 error levels off near 1e-8 relative: orders below
    // that are not judged, those above are still 4.
    let ev = eval(&rod(30.0, 1e-6));
    let v = ev.report.verification.as_ref().unwrap();
    let rk4 = v
        .convergence_all
        .iter()
        .find(|c| c.integrator == "rk4")
        .expect("RK4 study");
    let check = v
        .verdict
        .checks
        .iter()
        .find(|c| c.what.contains("RK4") || c.what.contains("rk4"))
        .expect("RK4 order check");
    assert_eq!(check.agrees, Some(true), "{rk4:#?}");
    let judged = check.measured.unwrap();
    assert!((judged - 4.0).abs() < 0.35, "{judged}");
}

#[test]
fn failing_claims_read_well() {
    let dir = std::env::temp_dir().join(format!("meff-trust-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(crate::root().join("cases/offcentre.toml")).unwrap();
    // a − claimed = (r − s)²/I.
    let text = text.replace(
        "k = { value",
        "s = { value = \"0.04 m\", description = \"a second length\" }\nk = { value",
    ) + r#"
[[claim]]
of = "a(offcentre)"
equals = "1/m + (2*r*s - s^2)/I"

[[claim]]
of = "omega(offcentre)"
equals = "300 rad/s"
rel_tol = 0.01
"#;
    let path = dir.join("wrong.toml");
    std::fs::write(&path, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_meff"))
        .args(["check", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    // a = 1/2 + 0.01/0.02 = 1 1/kg; claimed 1/2 + (0.008 − 0.0016)/0.02 = 0.82.
    let fail = text
        .split("  FAIL")
        .nth(1)
        .expect("a failing claim")
        .lines()
        .collect::<Vec<_>>();
    let first: String = fail[..fail.len().min(3)].join("\n");
    assert!(first.contains("claimed 0.8200 1/kg"), "{text}");
    assert!(first.contains("computed 1.000 1/kg"), "{text}");
    assert!(first.contains("+21.95 %"), "{text}");
    assert!(
        first.contains("(r - s)^2/I") || first.contains("(-r + s)^2/I"),
        "the difference is factored: {text}"
    );
    // The explicit tolerance is named as such.
    assert!(text.contains("given by `rel_tol`"), "{text}");
    assert!(text.contains("claimed 300.0 rad/s"), "{text}");
    // The summary table of `eval` keeps the message whole.
    let out = Command::new(env!("CARGO_BIN_EXE_meff"))
        .args(["eval", "--no-verify", path.to_str().unwrap()])
        .output()
        .unwrap();
    let eval = String::from_utf8_lossy(&out.stdout);
    assert!(eval.contains("computed 1.000 1/kg (+21.95 %)"), "{eval}");
    // --digits changes the figures.
    let out = Command::new(env!("CARGO_BIN_EXE_meff"))
        .args([
            "eval",
            "--no-verify",
            "--digits",
            "6",
            path.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let eval = String::from_utf8_lossy(&out.stdout);
    assert!(eval.contains("claimed 0.820000 1/kg"), "{eval}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn non_proportional_damping_is_verified_by_its_response() {
    for (c1, c2, r) in [(50.0, 2000.0, 0.07), (300.0, 30.0, 0.12)] {
        let case = meff::case::parse_case("trust.toml", &block(c1, c2, r)).unwrap();
        let model = meff::model::numeric(&case);
        let right = meff::analysis::analyze(&model).unwrap();
        let v = meff::verify::verify(&case, &model, &right, &|_, _| {}, None);
        let check = v
            .verdict
            .checks
            .iter()
            .find(|c| c.check == "damped_response")
            .expect("a damped response check");
        assert_eq!(check.agrees, Some(true), "{check:?}");
        assert!(check.why.contains("not proportional"), "{}", check.why);
        assert!(v.verdict.agrees);
        // An analysis whose dashpot is 10 % off: the response says so.
        let mut wrong = right.clone();
        let d = wrong.contacts[1].damping.unwrap();
        wrong.contacts[1].damping = Some(1.1 * d);
        let v = meff::verify::verify(&case, &model, &wrong, &|_, _| {}, None);
        assert!(
            v.verdict
                .disagreements()
                .any(|c| c.check == "damped_response"),
            "{:#?}",
            v.verdict.checks
        );
    }
}

/// The bundled MuJoCo arm with its contact's `stiffness` (and `damping`)
/// left out, the model path made absolute.
fn arm_without_stiffness(extra: &str) -> String {
    let text = std::fs::read_to_string(crate::root().join("cases/engine-mujoco-arm.toml")).unwrap();
    let models = crate::root().join("cases/models/");
    text.lines()
        .filter(|l| !l.starts_with("stiffness = ") && !l.starts_with("damping = "))
        .map(|l| l.replace("\"models/", &format!("\"{}", models.display())))
        .collect::<Vec<_>>()
        .join("\n")
        + extra
}

#[test]
fn an_engine_case_without_stiffness_is_analysed_with_the_engines_spring() {
    let dir = std::env::temp_dir().join(format!("meff-trust-arm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("arm.toml");
    std::fs::write(&path, arm_without_stiffness("")).unwrap();
    let case = meff::case::load(&path).unwrap();
    let ev = meff::evaluate_with(
        case,
        meff::Options {
            verify: true,
            ..Default::default()
        },
    )
    .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let r = &ev.report;
    let se = r.stiffness_from_engine.as_ref().expect("said so");
    assert_eq!(
        (se.engine.key(), se.contacts.clone()),
        ("mujoco", vec!["tip".to_string()])
    );
    let engine = &r.engines[0].contacts[0];
    let (k, c) = (engine.k.unwrap(), engine.c.unwrap());
    let contact = &r.contacts[0];
    assert!(
        (contact.stiffness / k - 1.0).abs() < 1e-12,
        "{} {k}",
        contact.stiffness
    );
    assert!((contact.damping.unwrap() / c - 1.0).abs() < 1e-12);
    // The analysis' ω and ζ are the engine's continuous ones with the
    // exact mass, not a placeholder's.
    let exact = engine.exact.unwrap();
    assert!(
        (contact.omega / exact.omega - 1.0).abs() < 1e-9,
        "{} {}",
        contact.omega,
        exact.omega
    );
    assert!((contact.zeta.unwrap() / exact.zeta - 1.0).abs() < 1e-9);
    assert!(r.verification.as_ref().unwrap().verdict.agrees);
    // Every format says so.
    let t = meff::render::templates::Templates::load(None).unwrap();
    let md = t.report_md(r, 4).unwrap();
    assert!(md.contains("No stiffness was given for tip"), "{md}");
    let html = t.report_html(r, 4).unwrap();
    assert!(html.contains("No stiffness was given for <strong>tip</strong>"));
    let text = meff::render::text::summary(r, 4);
    assert!(text.contains("no stiffness given for tip"), "{text}");
}

#[test]
fn a_missing_stiffness_the_engines_cannot_supply_is_an_error_at_the_contact() {
    let dir = std::env::temp_dir().join(format!("meff-trust-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, extra, says) in [
        ("two.toml", "\n[engine.box2d]\n", "2 engine tables"),
        ("rigid.toml", "", "rigid"),
    ] {
        let text = if name == "rigid.toml" {
            arm_without_stiffness("")
                .split("[engine.mujoco]")
                .next()
                .unwrap()
                .to_string()
                + "[engine.bullet]\ntimestep = \"1/240 s\"\n"
        } else {
            arm_without_stiffness(extra)
        };
        let path = dir.join(name);
        std::fs::write(&path, &text).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_meff"))
            .args(["eval", "--no-verify", path.to_str().unwrap()])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(says), "{name}: {err}");
        assert!(err.contains(&format!("{name}:")), "at the file: {err}");
    }
    // Without an engine table a stiffness is required, as always.
    let text = arm_without_stiffness("");
    let text = text.split("[engine.mujoco]").next().unwrap();
    let path = dir.join("none.toml");
    std::fs::write(&path, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_meff"))
        .args(["eval", "--no-verify", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing `stiffness`"));
    std::fs::remove_dir_all(&dir).ok();
}
