//! Impacts (`[[impact]]`): the closed forms of one contact in
//! every damping regime against an independent integration; coupled
//! impacts against an independent integration of the same piecewise-linear
//! system in contact space with a hand-built A; claims, sweeps, drops and
//! the located errors.

use crate::support::{assert_close, evaluate_str, root};
use meff::analysis::impact::{Single, respond, single};
use nalgebra::DMatrix;

/// Independent integration of δ̈ = −A f, f_i = max(0, kδ + cδ̇) while
/// δ > 0: classical RK4 at a fixed small step, with the force switched by
/// the state at each stage (no event location: the step is small enough
/// that the switching error, O(h), stays below the tolerance asked), from
/// δ = 0 and approach speeds `v`. Returns per contact: peak force, first
/// release time, largest δ, final separation speed.
#[allow(clippy::needless_range_loop)]
fn integrate(a: &DMatrix<f64>, k: &[f64], c: &[f64], v: &[f64], h: f64) -> Vec<[f64; 4]> {
    let n = k.len();
    let force = |x: &[f64], i: usize| {
        if x[i] > 0.0 || (x[i] == 0.0 && x[n + i] > 0.0) {
            (k[i] * x[i] + c[i] * x[n + i]).max(0.0)
        } else {
            0.0
        }
    };
    let deriv = |x: &[f64]| -> Vec<f64> {
        let mut d = vec![0.0; 2 * n];
        for i in 0..n {
            d[i] = x[n + i];
            d[n + i] = -(0..n).map(|j| a[(i, j)] * force(x, j)).sum::<f64>();
        }
        d
    };
    let mut x = vec![0.0; 2 * n];
    x[n..].copy_from_slice(v);
    let mut out: Vec<[f64; 4]> = vec![[0.0, f64::NAN, 0.0, 0.0]; n];
    let mut closed: Vec<bool> = v.iter().map(|&s| s > 0.0).collect();
    let mut t = 0.0;
    for i in 0..n {
        out[i][0] = force(&x, i);
    }
    for _ in 0..50_000_000u64 {
        let k1 = deriv(&x);
        let y: Vec<f64> = (0..2 * n).map(|j| x[j] + 0.5 * h * k1[j]).collect();
        let k2 = deriv(&y);
        let y: Vec<f64> = (0..2 * n).map(|j| x[j] + 0.5 * h * k2[j]).collect();
        let k3 = deriv(&y);
        let y: Vec<f64> = (0..2 * n).map(|j| x[j] + h * k3[j]).collect();
        let k4 = deriv(&y);
        let prev = x.clone();
        for j in 0..2 * n {
            x[j] += h / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]);
        }
        t += h;
        for i in 0..n {
            let f = force(&x, i);
            out[i][0] = out[i][0].max(f);
            out[i][2] = out[i][2].max(x[i]);
            let now = x[i] > 0.0 && k[i] * x[i] + c[i] * x[n + i] > 0.0;
            if closed[i] && !now && out[i][1].is_nan() {
                // Release between the samples: interpolate the switching
                // function linearly.
                let s0 = prev[i].min(k[i] * prev[i] + c[i] * prev[n + i]);
                let s1 = x[i].min(k[i] * x[i] + c[i] * x[n + i]);
                out[i][1] = t - h * s1 / (s1 - s0);
            }
            closed[i] = now;
        }
        if !closed.iter().any(|&b| b) && (0..n).all(|i| x[n + i] <= 0.0) {
            break;
        }
    }
    for i in 0..n {
        out[i][3] = -x[n + i];
    }
    out
}

fn check_single(m: f64, k: f64, c: f64, v: f64, tol: f64) -> Single {
    let s = single(m, k, c, v);
    let a = DMatrix::from_element(1, 1, 1.0 / m);
    let h = s.duration / 200_000.0;
    let r = integrate(&a, &[k], &[c], &[v], h)[0];
    assert_close(s.peak_force, r[0], tol);
    assert_close(s.duration, r[1], tol);
    assert_close(s.compression, r[2], tol);
    assert_close(s.rebound_speed, r[3], tol);
    // The exact solver (the one the reports use beside the closed form)
    // agrees to round-off.
    let e = respond(&a, &[k], &[c], &[v]).unwrap();
    let ec = &e.contacts[0];
    assert_close(s.peak_force, ec.peak_force, 1e-9);
    assert_close(
        s.time_to_peak.max(1e-300),
        ec.time_to_peak.max(1e-300),
        1e-7,
    );
    assert_close(s.duration, ec.duration, 1e-9);
    assert_close(s.compression, ec.compression, 1e-9);
    assert_close(s.rebound_speed, ec.rebound_speed, 1e-9);
    assert!(e.error < 1e-9, "error estimate {}", e.error);
    s
}

#[test]
fn single_contact_closed_forms_in_every_regime() {
    let (m, k, v): (f64, f64, f64) = (1.4606741573033712, 2e5, 3.13);
    let crit = 2.0 * (k * m).sqrt();
    for zeta in [
        0.0, 0.02, 0.2, 0.45, 0.5, 0.55, 0.8, 0.999_999, 1.0, 1.000_001, 1.6, 7.0,
    ] {
        let s = check_single(m, k, zeta * crit, v, 2e-5);
        if zeta == 0.0 {
            // F = v√(k m), π/ω, v/ω, e = 1.
            let w = (k / m).sqrt();
            assert_close(s.peak_force, v * (k * m).sqrt(), 1e-15);
            assert_close(s.duration, std::f64::consts::PI / w, 1e-15);
            assert_close(s.compression, v / w, 1e-15);
            assert_eq!(s.restitution, 1.0);
        }
        if zeta >= 0.5 {
            assert_close(s.peak_force, zeta * crit * v, 1e-15);
            assert_eq!(s.time_to_peak, 0.0);
        }
        if zeta == 1.0 {
            // Critical: the force ends at 2/ω, e = e⁻².
            assert_close(s.restitution, (-2.0f64).exp(), 1e-15);
            assert_close(s.duration * (k / m).sqrt(), 2.0, 1e-15);
        }
    }
}

#[test]
fn theta_is_continuous_through_critical_damping() {
    use meff::analysis::impact::theta;
    for d in [1e-3, 1e-4, 2e-5, 1e-5, 5e-6, 1e-7] {
        let below = theta(1.0 - d);
        let above = theta(1.0 + d);
        assert!(below > 1.0 && above < 1.0, "{below} {above}");
        assert_close(below, 1.0 + d / 3.0, 2.0 * d * d);
        assert_close(above, 1.0 - d / 3.0, 2.0 * d * d);
    }
    // Both sides of the series' edge agree with the direct quotients.
    let direct = |z: f64| {
        let s = (1.0f64 - z * z).sqrt();
        s.atan2(z) / s
    };
    assert_close(theta(1.0 - 1.1e-5), direct(1.0 - 1.1e-5), 1e-10);
    assert_close(theta(1.0 - 0.9e-5), direct(1.0 - 0.9e-5), 1e-10);
}

/// A rod of mass m, length l (planar, I = m l²/12) lying on two end
/// contacts: A by hand.
fn rod_a(m: f64, l: f64, x: &[f64]) -> DMatrix<f64> {
    let i = m * l * l / 12.0;
    DMatrix::from_fn(x.len(), x.len(), |p, q| 1.0 / m + x[p] * x[q] / i)
}

#[test]
fn coupled_impacts_match_an_independent_integration() {
    let (m, l) = (3.0, 0.8);
    // Both ends struck, different springs and dashpots.
    let a = rod_a(m, l, &[-0.4, 0.4]);
    let (k, c, v) = ([1e5, 3e5], [20.0, 0.0], [1.5, 1.5]);
    let e = respond(&a, &k, &c, &v).unwrap();
    let t = e.contacts.iter().map(|c| c.duration).fold(0.0, f64::max);
    let r = integrate(&a, &k, &c, &v, t / 400_000.0);
    for (p, q) in e.contacts.iter().zip(&r) {
        assert_close(p.peak_force, q[0], 1e-4);
        assert_close(p.duration, q[1], 1e-4);
        assert_close(p.compression, q[2], 1e-4);
        assert!(
            (p.rebound_speed - q[3]).abs() < 1e-4 * 1.5,
            "{} {}",
            p.rebound_speed,
            q[3]
        );
    }
    assert!(e.error < 1e-9);
    // Struck at one end while resting on a contact off the other end.
    let a = rod_a(m, l, &[0.4, -0.3]);
    let (k, c, v) = ([2e5, 5e4], [0.0, 15.0], [2.0, 0.0]);
    let e = respond(&a, &k, &c, &v).unwrap();
    let r = integrate(&a, &k, &c, &v, 1e-8);
    for (p, q) in e.contacts.iter().zip(&r) {
        assert_close(p.peak_force, q[0], 1e-4);
        assert_close(p.compression, q[2], 1e-4);
        assert!((p.rebound_speed - q[3]).abs() < 1e-4 * 2.0);
    }
    assert!(
        e.contacts[1].start > 0.0,
        "the resting contact closes after the strike"
    );
}

#[test]
fn a_flat_landing_on_two_equal_contacts_is_one_spring_of_twice_the_stiffness() {
    // Symmetric: the rod translates; each contact carries k δ with
    // δ_max = v/√(2k/m), so F̂ = v √(k m / 2).
    let (m, l, k, v) = (3.0, 0.8, 1e5, 1.2);
    let a = rod_a(m, l, &[-0.4, 0.4]);
    let e = respond(&a, &[k, k], &[0.0, 0.0], &[v, v]).unwrap();
    for c in &e.contacts {
        assert_close(c.peak_force, v * (k * m / 2.0).sqrt(), 1e-9);
        assert_close(
            c.duration,
            std::f64::consts::PI / (2.0 * k / m).sqrt(),
            1e-9,
        );
        assert_close(c.rebound_speed, v, 1e-9);
    }
}

const DROP: &str = r#"title = "tote"
space = "3d"
[parameters]
m = "8 kg"
a = "400 mm"
b = "300 mm"
c = "200 mm"
k = "2e5 N/m"
h = "0.5 m"
[[body]]
name = "tote"
type = "rigid"
mass = "m"
shape = { box = ["a", "b", "c"] }
position = ["0 m", "0 m", "c/2"]
[[contact]]
name = "corner"
body = "tote"
frame = "body"
point = ["a/2", "b/2", "-c/2"]
normal = [0, 0, 1]
stiffness = "k"
damping = "40 N s/m"
[[contact]]
name = "edge"
body = "tote"
frame = "body"
point = ["a/2", "-b/2", "-c/2"]
normal = [0, 0, 1]
stiffness = "k"
"#;

#[test]
fn a_drop_reports_the_closed_forms_and_the_naive_estimate_beside() {
    let text = format!("{DROP}[[impact]]\ncontact = \"corner\"\ndrop = \"h\"\n");
    let ev = evaluate_str(&text);
    let r = &ev.report.impacts[0];
    let v = (2.0 * 9.80665 * 0.5f64).sqrt();
    assert_close(r.speed, v, 1e-15);
    assert_eq!(r.method, "closed form");
    let me = ev.report.contacts[0].m_eff.unwrap();
    let s = single(me, 2e5, 40.0, v);
    let row = &r.contacts[0];
    assert_close(row.peak_force, s.peak_force, 1e-12);
    assert_close(row.duration, s.duration, 1e-12);
    assert_close(row.restitution.unwrap(), s.restitution, 1e-12);
    assert!(
        r.integration
            .as_ref()
            .unwrap()
            .closed_form_difference
            .unwrap()
            < 1e-9
    );
    let naive = row.naive.as_ref().unwrap();
    assert_close(naive.mass, 8.0, 1e-15);
    assert!(
        naive.peak_force > row.peak_force,
        "the total mass overstates the force"
    );
}

#[test]
fn impact_claims_pass_with_the_right_number_and_fail_with_a_wrong_one() {
    let right = format!(
        "{DROP}[[impact]]\ncontacts = [\"corner\", \"edge\"]\nspeed = \"1 m/s\"\n\
         [[claim]]\nof = \"duration(edge)\"\nequals = \"1 s\"\n"
    );
    let ev = evaluate_str(&right);
    let d = ev.report.impacts[0].contacts[1].duration;
    assert!(ev.report.claims[0].passed == Some(false));
    let claim = format!(
        "{DROP}[[impact]]\ncontacts = [\"corner\", \"edge\"]\nspeed = \"1 m/s\"\n\
         [[claim]]\nof = \"duration(edge)\"\nequals = \"{d:.12e} s\"\nrel_tol = 1e-9\n"
    );
    assert_eq!(evaluate_str(&claim).report.claims[0].passed, Some(true));
    // An undamped single contact: F = v√(k m_eff), as an expression over
    // the parameters, probed at other parameter values.
    let expr = format!(
        "{}[[impact]]\ncontact = \"edge\"\ndrop = \"h\"\n[[claim]]\nof = \"peak_force(edge)\"\n\
         equals = \"sqrt(2*9.80665 m/s^2*h)*sqrt(k/(1/m + 3*b^2/(m*(b^2 + c^2)) + 3*a^2/(m*(a^2 + c^2))))\"\n",
        DROP
    );
    let ev = evaluate_str(&expr);
    assert_eq!(
        ev.report.claims[0].passed,
        Some(true),
        "{:?}",
        ev.report.claims[0]
    );
    assert_eq!(ev.report.claims[0].how, "numeric");
    let wrong = expr.replace("3*a^2", "2*a^2");
    assert_eq!(evaluate_str(&wrong).report.claims[0].passed, Some(false));
}

#[test]
fn a_sweep_over_the_drop_height_scales_the_force_with_its_root() {
    let text = format!(
        "{DROP}[[impact]]\ncontact = \"edge\"\ndrop = \"h\"\n\
         [[sweep]]\nparameter = \"h\"\nfrom = \"0.1 m\"\nto = \"0.9 m\"\npoints = 5\nplot = [\"peak_force(edge)\"]\n"
    );
    let ev = evaluate_str(&text);
    let s = &ev.report.sweeps[0];
    let f0 = s.series[0].values[0].unwrap();
    for (x, f) in s.x.iter().zip(&s.series[0].values) {
        assert_close(f.unwrap() / f0, (x / 0.1).sqrt(), 1e-12);
    }
}

fn error_of(text: &str) -> String {
    match meff::case::parse_case("test.toml", text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn impact_mistakes_are_located() {
    let cases = [
        (
            "[[impact]]\ncontact = \"cornr\"\nspeed = \"1 m/s\"\n",
            "no contact named `cornr`",
        ),
        ("[[impact]]\ncontact = \"corner\"\n", "missing `speed`"),
        (
            "[[impact]]\ncontact = \"corner\"\nspeed = \"1 m\"\n",
            "must be in m s^-1",
        ),
        (
            "[[impact]]\ncontact = \"corner\"\nspeed = \"1 m/s\"\ndrop = \"1 m\"\n",
            "not both",
        ),
        (
            "[[impact]]\ncontact = \"corner\"\nspeed = \"-1 m/s\"\n",
            "positive",
        ),
        (
            "[[impact]]\ncontact = \"corner\"\nspeed = \"1 m/s\"\ngravity = \"9.8 m/s^2\"\n",
            "goes with `drop`",
        ),
        (
            "[[impact]]\ncontacts = [\"corner\", \"corner\"]\nspeed = \"1 m/s\"\n",
            "listed twice",
        ),
        (
            "[[impact]]\ncontact = \"corner\"\nresting = [\"corner\"]\nspeed = \"1 m/s\"\n",
            "both struck and resting",
        ),
        (
            "[[claim]]\nof = \"peak_force(corner)\"\nequals = \"1 N\"\n",
            "no `[[impact]]`",
        ),
        (
            "[[impact]]\ncontact = \"corner\"\nspeed = \"1 m/s\"\n[[impact]]\nname = \"again\"\ncontact = \"corner\"\nspeed = \"2 m/s\"\n[[claim]]\nof = \"peak_force(corner)\"\nequals = \"1 N\"\n",
            "in 2 impacts",
        ),
        (
            "[[impact]]\ncontact = \"corner\"\nresting = [\"edge\"]\nspeed = \"1 m/s\"\n[[claim]]\nof = \"restitution(edge)\"\nequals = \"1\"\n",
            "rests in this impact",
        ),
        (
            "[[impact]]\ncontact = \"corner\"\nspeed = \"1 m/s\"\nsped = 2\n",
            "did you mean `speed`",
        ),
    ];
    for (extra, want) in cases {
        let e = error_of(&format!("{DROP}{extra}"));
        assert!(e.contains(want), "{want:?} not in:\n{e}");
        assert!(e.contains("test.toml:"), "not located:\n{e}");
    }
    // Two impacts on one contact: naming the impact resolves it.
    let ok = format!(
        "{DROP}[[impact]]\ncontact = \"corner\"\nspeed = \"1 m/s\"\n[[impact]]\nname = \"fast\"\ncontact = \"corner\"\nspeed = \"2 m/s\"\n\
         [[claim]]\nof = \"peak_force(fast, corner)\"\nequals = \"1 N\"\n"
    );
    let ev = evaluate_str(&ok);
    assert_close(
        ev.report.claims[0].value.unwrap(),
        2.0 * ev.report.impacts[0].contacts[0].peak_force,
        1e-12,
    );
}

#[test]
fn books_quote_impact_results() {
    let text = format!("{DROP}[[impact]]\nname = \"drop\"\ncontact = \"corner\"\ndrop = \"h\"\n");
    let ev = evaluate_str(&text);
    let f = meff::report::value::lookup(&ev.report, "peak_force(corner)").unwrap();
    assert_eq!(f.si, ev.report.impacts[0].contacts[0].peak_force);
    assert_eq!(f.unit, "N");
    let e = meff::report::value::lookup(&ev.report, "restitution(drop, corner)").unwrap();
    assert_eq!(Some(e.si), ev.report.impacts[0].contacts[0].restitution);
    assert!(meff::report::value::lookup(&ev.report, "duration(edge)").is_err());
}

/// The box of `tests/impact/mujoco_drop.py` on one corner, or flat on an
/// edge's two corners, with the linear law MuJoCo applied (from its own
/// A and R), struck at the speed of the run.
fn mujoco_case(run: &serde_json::Value, edge: bool) -> String {
    let law = &run["law"];
    let (k, c) = (law["k"].as_f64().unwrap(), law["c"].as_f64().unwrap());
    let corner = |name: &str, y: &str| {
        format!(
            "[[contact]]\nname = \"{name}\"\nbody = \"box\"\nframe = \"body\"\npoint = [\"0.2 m\", \"{y}\", \"-0.1 m\"]\n\
             normal = [0, 0, 1]\nstiffness = \"{k:.17e} N/m\"\ndamping = \"{c:.17e} N s/m\"\n"
        )
    };
    let mut text = "title = \"MuJoCo drop\"\nspace = \"3d\"\n[[body]]\nname = \"box\"\ntype = \"rigid\"\nmass = \"8 kg\"\n\
                    shape = { box = [\"400 mm\", \"300 mm\", \"200 mm\"] }\nposition = [\"0 m\", \"0 m\", \"0.1 m\"]\n"
        .to_string();
    text += &corner("a", "0.15 m");
    if edge {
        text += &corner("b", "-0.15 m");
    }
    let v = run["speed"].as_f64().unwrap();
    text += &format!(
        "[[impact]]\ncontacts = [{}]\nspeed = \"{v} m/s\"\n",
        if edge { "\"a\", \"b\"" } else { "\"a\"" }
    );
    text
}

#[test]
fn a_box_dropped_on_a_corner_and_on_an_edge_agrees_with_mujoco() {
    let fixture: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/impact/mujoco_drop.json")).unwrap(),
    )
    .unwrap();
    for (key, edge) in [("corner", false), ("edge", true)] {
        let run = &fixture[key];
        let ev = evaluate_str(&mujoco_case(run, edge));
        // MuJoCo's own A is the exact one (one free body): the same as meff's.
        let a = run["law"]["A"][0][0].as_f64().unwrap();
        assert_close(ev.report.contacts[0].a, a, 1e-9);
        let imp = &ev.report.impacts[0];
        for (j, c) in imp.contacts.iter().enumerate() {
            let m = |q: &str| run[q][j].as_f64().unwrap();
            // MuJoCo integrates the box as it turns (10⁻³ rad) with 2 µs
            // steps and sees a force only at whole steps: 0.03 % apart at
            // most; 10⁻³ asked.
            assert_close(c.peak_force, m("peak_force"), 1e-3);
            assert_close(c.duration, m("duration"), 1e-3);
            assert_close(c.compression, m("compression"), 1e-3);
            assert_close(c.rebound_speed, m("rebound_speed"), 1e-3);
            assert_close(c.time_to_peak, m("time_to_peak"), 1e-3);
        }
    }
}

#[test]
fn a_body_trapped_between_contacts_is_reported_in_bounded_time() {
    // A particle touching two walls: struck at one, it bounces between
    // them for ever. The solver stops at its limit and says why.
    let a = DMatrix::from_row_slice(2, 2, &[1.0, -1.0, -1.0, 1.0]);
    let r = respond(&a, &[1e5, 1e5], &[0.0, 0.0], &[1.0, 0.0]);
    assert!(
        matches!(r, Err(meff::analysis::impact::ImpactError::NotEnded(_))),
        "{r:?}"
    );
}

#[test]
fn a_contact_that_closes_again_is_said_to() {
    // The double pendulum's tip struck while its elbow rests: the tip is
    // pushed back onto its wall and closes a second time, with a larger
    // force than the first; the sheet says so.
    let text = std::fs::read_to_string(root().join("cases/double-pendulum-pins.toml")).unwrap()
        + "\n[[impact]]\ncontact = \"tip\"\nresting = [\"elbow\"]\nspeed = \"0.5 m/s\"\n";
    let ev = evaluate_str(&text);
    let tip = &ev.report.impacts[0].contacts[0];
    assert_eq!(tip.closings, 2);
    assert!(
        tip.time_to_peak > tip.duration,
        "the peak is in the second closing"
    );
    let words = meff::render::impact::method(&ev.report.impacts[0], 4);
    assert!(words.contains("tip closes 2 times"), "{words}");
}
