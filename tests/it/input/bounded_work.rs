//! Bounded work and representable results: every eigen-decomposition goes through the bounded module; an
//! impact returns (or stops with its numbers) whatever the stiffnesses, and
//! Ctrl-C stops it; impacts, sweep points and claim probes draw on one
//! work allowance; the sketch is drawn at any finite coordinates; results
//! that overflow are errors at the input value, not a printed ∞.

use crate::support::{assert_close, evaluate_str, meff, root, scratch};
use meff::analysis::impact::{ImpactError, respond};
use nalgebra::DMatrix;
use std::time::{Duration, Instant};

/// SplitMix64 in [0, 1): reproducible random stiffnesses.
fn uniform(state: &mut u64) -> f64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
}

/// A 0.5 kg block pinched between two fingers: two contacts at one place
/// with opposite normals (A singular: the first-order matrix has a Jordan
/// block at zero, which kept nalgebra's unbounded Schur iteration busy for
/// ever at some stiffnesses).
fn pinched_block(k1: f64, k2: f64, damping: Option<f64>) -> String {
    let c = damping.map_or(String::new(), |c| format!("damping = \"{c:e} N s/m\"\n"));
    format!(
        r#"title = "pinched"
space = "3d"
[[body]]
name = "block"
type = "rigid"
mass = "0.5 kg"
inertia = ["1e-4 kg m^2", "1e-4 kg m^2", "1e-4 kg m^2"]
position = ["0 m", "0 m", "0 m"]
[[contact]]
name = "left"
body = "block"
point = ["0 m", "0 m", "0 m"]
normal = [1, 0, 0]
stiffness = "{k1:e} N/m"
{c}[[contact]]
name = "right"
body = "block"
point = ["0 m", "0 m", "0 m"]
normal = [-1, 0, 0]
stiffness = "{k2:e} N/m"
{c}[[impact]]
contacts = ["left"]
resting = ["right"]
speed = "1 m/s"
"#
    )
}

#[test]
fn pinched_blocks_and_walled_particles_return_at_random_stiffnesses() {
    // Two of these stiffnesses never returned before (3168.13 and 1346.62
    // N/m on both fingers); the rest are random over seven decades.
    let mut state = 42u64;
    let mut ks: Vec<(f64, f64)> = vec![
        (3_168.130_248_558_762_6, 3_168.130_248_558_762_6),
        (1_346.617_465_266_905_4, 1_346.617_465_266_905_4),
    ];
    for i in 0..60 {
        let k1 = 10f64.powf(2.0 + 7.0 * uniform(&mut state));
        let k2 = if i % 2 == 0 {
            k1
        } else {
            10f64.powf(2.0 + 7.0 * uniform(&mut state))
        };
        ks.push((k1, k2));
    }
    let m = 0.5;
    for (n, &(k1, k2)) in ks.iter().enumerate() {
        // Contact space: the block (A = [[2, −2], [−2, 2]] 1/kg) and a
        // particle between two walls (the same A), struck on one contact,
        // on both, with and without dashpots.
        let a = DMatrix::from_row_slice(2, 2, &[1.0 / m, -1.0 / m, -1.0 / m, 1.0 / m]);
        for (c, v) in [
            ([0.0, 0.0], [1.0, 0.0]),
            ([0.0, 0.0], [1.0, 1.0]),
            ([3.0, 0.5], [1.0, 0.0]),
        ] {
            let r = respond(&a, &[k1, k2], &c, &v);
            // Bounded work, counted: the solver's steps (the run and its
            // half-step check) stay within its limit whatever k.
            let steps = match &r {
                Ok(resp) => (resp.end / resp.step).round() as usize,
                Err(ImpactError::NotEnded(p)) => p.steps,
                Err(_) => 0,
            };
            assert!(
                steps <= 2 * meff::analysis::impact::MAX_STEPS,
                "k = {k1}, {k2}: {steps} steps"
            );
            // The fingers' relative approach never reverses without
            // damping: the impact does not end, and says so with numbers.
            if let Err(e) = &r {
                assert!(
                    matches!(e, ImpactError::NotEnded(p) if p.steps > 0 && p.time > 0.0),
                    "{e}"
                );
                assert!(e.to_string().contains("steps of"), "{e}");
            }
        }
        // The whole pipeline, a few of them (verification included).
        if n < 6 {
            let ev = evaluate_str(&pinched_block(k1, k2, None));
            assert_eq!(ev.analysis.impacts.len(), 1);
        }
    }
}

#[test]
fn the_impact_step_falls_back_to_a_norm_bound_that_is_never_smaller() {
    // The bound on the fastest rate is at least the true spectral radius
    // (computed here independently from the 2×2 eigenproblem of the
    // undamped pair, ω² = eigenvalues of K^½ A K^½).
    let mut state = 7u64;
    for _ in 0..200 {
        let (m1, m2) = (0.1 + uniform(&mut state), 0.1 + uniform(&mut state));
        let off = (uniform(&mut state) - 0.5) * 2.0 * (1.0 / m1).min(1.0 / m2);
        let a = DMatrix::from_row_slice(2, 2, &[1.0 / m1, off, off, 1.0 / m2]);
        let k = [
            10f64.powf(2.0 + 6.0 * uniform(&mut state)),
            10f64.powf(2.0 + 6.0 * uniform(&mut state)),
        ];
        let s = DMatrix::from_fn(2, 2, |i, j| k[i].sqrt() * a[(i, j)] * k[j].sqrt());
        let (p, q) = (
            s[(0, 0)] + s[(1, 1)],
            s[(0, 0)] * s[(1, 1)] - s[(0, 1)] * s[(1, 0)],
        );
        let top = 0.5 * (p + (p * p - 4.0 * q).max(0.0).sqrt());
        let bound = meff::analysis::impact::rate_bound(&a, &k, &[0.0, 0.0]);
        assert!(
            bound >= top.sqrt() * (1.0 - 1e-12),
            "{bound} < {}",
            top.sqrt()
        );
        assert!(
            bound <= 2.0 * top.sqrt() * 1.0001 + 1e-9,
            "{bound} vs {}",
            top.sqrt()
        );
    }
}

#[test]
fn ctrl_c_stops_an_impact_inside_its_step_loop() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    // The pinched block runs to its step limit (200,000 steps with the
    // check); a set flag stops it at its first step.
    let a = DMatrix::from_row_slice(2, 2, &[2.0, -2.0, -2.0, 2.0]);
    let flag = Arc::new(AtomicBool::new(true));
    let t = Instant::now();
    let r = meff::control::cancel_scope(Some(flag), || {
        respond(&a, &[1e4, 1e4], &[0.0, 0.0], &[1.0, 0.0])
    });
    assert_eq!(r.unwrap_err(), ImpactError::Cancelled);
    assert!(t.elapsed() < Duration::from_millis(500));
}

/// Source files under `dir` (recursively), with their text.
fn sources(dir: &std::path::Path, out: &mut Vec<(std::path::PathBuf, String)>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push((p.clone(), std::fs::read_to_string(&p).unwrap()));
        }
    }
}

#[test]
fn no_unbounded_decomposition_outside_the_bounded_module() {
    // nalgebra's iterations without a bound (max_niter 0): every call goes
    // through src/linalg/eig.rs, which bounds them.
    const FORBIDDEN: [&str; 10] = [
        "SymmetricEigen::new(",
        ".symmetric_eigen()",
        ".symmetric_eigenvalues()",
        ".complex_eigenvalues()",
        ".eigenvalues()",
        ".schur()",
        "Schur::new(",
        ".svd(",
        "SVD::new(",
        ".pseudo_inverse(",
    ];
    let mut files = Vec::new();
    sources(&root().join("src"), &mut files);
    sources(&root().join("python/src"), &mut files);
    assert!(files.len() > 50, "{} files", files.len());
    let mut found = Vec::new();
    for (path, text) in &files {
        if path.ends_with("src/linalg/eig.rs") {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for f in FORBIDDEN {
                if code.contains(f) {
                    found.push(format!("{}:{}: {f}", path.display(), n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "unbounded decompositions: {found:#?}");
}

/// A particle on a floor (one contact along z) striking it at `speed`.
fn ball_on_floor(title: &str, mass: &str, stiffness: &str, damping: &str, speed: &str) -> String {
    format!(
        r#"title = "{title}"
space = "3d"
[[body]]
name = "ball"
type = "particle"
mass = "{mass}"
position = ["0 m", "0 m", "0 m"]
[[contact]]
name = "floor"
body = "ball"
point = ["0 m", "0 m", "0 m"]
normal = [0, 0, 1]
stiffness = "{stiffness}"
damping = "{damping}"
[[impact]]
contact = "floor"
speed = "{speed}"
"#
    )
}

#[test]
fn a_single_overdamped_contact_gives_its_closed_forms_and_the_checks_numbers() {
    // ζ ≈ 10⁷: the check by integration meets its step limit (the force
    // creeps at round-off level on the slow mode), the closed forms are
    // still the results, and the sheet says how far the check got.
    let (m, k) = (0.7f64, 3e4f64);
    let c = 1e7 * 2.0 * (k * m).sqrt();
    let source = ball_on_floor(
        "overdamped",
        &format!("{m} kg"),
        &format!("{k} N/m"),
        &format!("{c:e} N s/m"),
        "1 m/s",
    );
    let ev = evaluate_str(&source);
    let imp = &ev.report.impacts[0];
    let s = meff::analysis::impact::single(m, k, c, 1.0);
    assert!(imp.error.is_none(), "{:?}", imp.error);
    assert_eq!(imp.contacts.len(), 1);
    assert_eq!(imp.contacts[0].peak_force, s.peak_force);
    assert_eq!(imp.contacts[0].duration, s.duration);
    if imp.integration.is_none() {
        let note = imp.check_note.as_deref().unwrap();
        assert!(note.contains("steps of"), "{note}");
        let method = meff::render::impact::method(imp, 4);
        assert!(
            method.contains("did not finish") && !method.contains("for ever"),
            "{method}"
        );
    }
}

#[test]
fn the_damped_step_is_stable_arithmetic() {
    use meff::analysis::dt_damped;
    // (2/ω)(√(1+ζ²) − ζ) with ω = 316 rad/s (k = 1e5 N/m, m = 1 kg) and
    // ζ = c/(2√(km)): at c = 1e12 N s/m the truth is 2m/c = 2e-12 s
    // (the difference cancelled to 0 s), at 1e300 it is 2e-300 s (ζ²
    // overflowed to ∞).
    let omega = 1e5f64.sqrt();
    for c in [1e3, 1e12, 1e300] {
        let zeta = c / (2.0 * 1e5f64.sqrt());
        let dt = dt_damped(omega, zeta).unwrap();
        // Series of 2/(ω(√(1+ζ²)+ζ)) for large ζ: (1/(ωζ))(1 − 1/(4ζ²)).
        let truth = if zeta > 1e4 {
            1.0 / (omega * zeta)
        } else {
            2.0 / omega * ((1.0 + zeta * zeta).sqrt() - zeta)
        };
        assert_close(dt, truth, 1e-9);
    }
    assert_close(dt_damped(omega, 0.0).unwrap(), 2.0 / omega, 1e-15);
}

#[test]
fn an_overflowing_impact_or_person_is_an_error_at_its_value() {
    let ball_damped = |speed: &str, damping: &str, extra: &str| {
        ball_on_floor("fast", "1 kg", "1e5 N/m", damping, speed) + extra
    };
    let ball = |speed: &str, extra: &str| ball_damped(speed, "1e12 N s/m", extra);
    let dir = scratch("bounded-overflow");
    let cases = [
        ("speed", ball("1e300 m/s", ""), "speed = \"1e300 m/s\""),
        (
            "drop",
            // √(2 g h) = 4e150 m/s, times c: beyond 1.8e308 N.
            ball_damped("1 m/s", "1e200 N s/m", "")
                .replace("speed = \"1 m/s\"", "drop = \"1e300 m\""),
            "drop = \"1e300 m\"",
        ),
        (
            "person",
            ball(
                "1 m/s",
                "[[person]]\ncontact = \"floor\"\nmass = \"1e300 kg\"\nstiffness = \"1e300 N/m\"\nspeed = \"1e300 m/s\"\n",
            ),
            "speed = \"1e300 m/s\"",
        ),
    ];
    for (name, source, at) in cases {
        let path = dir.join(format!("{name}.toml"));
        std::fs::write(&path, &source).unwrap();
        let out = meff(["eval", path.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains("outside what 64-bit floating point represents"),
            "{err}"
        );
        let line = source.lines().position(|l| l.contains(at)).unwrap() + 1;
        assert!(
            err.contains(&format!("{name}.toml:{line}:")),
            "{name}: {err}"
        );
        assert!(!String::from_utf8_lossy(&out.stdout).contains('∞'));
    }
    // In range: the same case at 1 m/s gives finite numbers.
    let ev = evaluate_str(&ball("1 m/s", ""));
    assert!(ev.report.impacts[0].contacts[0].peak_force.is_finite());
}

#[test]
fn the_sketch_is_drawn_at_any_finite_coordinates() {
    let case = |pos: &str, mass: &str, inertia: &str| {
        format!(
            r#"title = "far"
space = "3d"
[[body]]
name = "a"
type = "rigid"
mass = "{mass}"
inertia = ["{inertia}", "{inertia}", "{inertia}"]
position = ["{pos}", "0 m", "0 m"]
[[body]]
name = "b"
type = "particle"
mass = "{mass}"
position = ["-{pos}", "0 m", "0 m"]
[[contact]]
name = "c"
body = "b"
point = ["-{pos}", "0 m", "0 m"]
normal = [1, 0, 0]
stiffness = "1e5 N/m"
[[contact]]
name = "d"
body = "a"
other = "b"
point = ["{pos}", "0 m", "0 m"]
normal = [1, 0, 0]
stiffness = "1e5 N/m"
"#
        )
    };
    let dir = scratch("bounded-sketch");
    let members = [
        ("far", case("1e308 m", "1 kg", "1 kg m^2")),
        ("tiny", case("1e-300 m", "1 kg", "1e-300 kg m^2")),
        ("heavy", case("1 m", "1e300 kg", "1e300 kg m^2")),
        ("zero", case("0 m", "1 kg", "1 kg m^2")),
    ];
    for (name, source) in members {
        let path = dir.join(format!("{name}.toml"));
        std::fs::write(&path, &source).unwrap();
        let out_dir = dir.join(name);
        let out = meff([
            "report",
            path.to_str().unwrap(),
            "-o",
            out_dir.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(101), "{name} panicked: {err}");
        if out.status.success() {
            let html = std::fs::read_to_string(out_dir.join(format!("{name}.html"))).unwrap();
            let start = html.find("<svg class=\"sketch\"").expect("a sketch");
            let svg = &html[start..start + html[start..].find("</svg>").unwrap()];
            assert!(
                !svg.contains("NaN") && !svg.contains("inf"),
                "{name}: {svg}"
            );
        } else {
            assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        }
    }
}

#[test]
fn impacts_sweeps_and_probes_share_one_work_allowance() {
    // The bundled tote case with two 10,001-point sweeps, one over the
    // drop of the two-contact impact (a solve at every point: more than
    // the allowance) and one of the single contact's closed forms.
    let source = std::fs::read_to_string(root().join("cases/tote-drop.toml"))
        .unwrap()
        .replace("points = 10\n", "points = 10001\n")
        + "\n[[sweep]]\nparameter = \"h\"\nfrom = \"0.2 m\"\nto = \"2 m\"\npoints = 10001\nplot = [\"peak_force(on an edge, corner)\"]\n";
    // Bounded by the work allowance, not timed: the sweep's note below
    // says where it ended (3.2 s of CPU from the command line).
    let ev = evaluate_str(&source);
    let sweeps = &ev.report.sweeps;
    assert_eq!(sweeps.len(), 2);
    // Closed forms: every point.
    assert!(sweeps[0].series[0].values.iter().all(Option::is_some));
    assert!(sweeps[0].note.is_none());
    // Solved impacts: the allowance ends the sweep, and the sheet says so.
    let note = sweeps[1].note.as_deref().expect("a note");
    let missing = sweeps[1].series[0]
        .values
        .iter()
        .filter(|v| v.is_none())
        .count();
    assert!(
        missing > 0 && note.starts_with(&format!("{missing} of the 10001 points")),
        "{note}"
    );
    // Deterministic: counted, not timed.
    let again = evaluate_str(&source);
    assert_eq!(again.report.sweeps[1].note, sweeps[1].note);
}

#[test]
fn a_sweep_that_does_not_reach_an_impact_reuses_its_response() {
    // A parameter no impact input depends on: the impact's inputs are the
    // same bits at every point, so 10,001 points cost one solve (else the
    // allowance would end the sweep, as above) and every point has it.
    let source = std::fs::read_to_string(root().join("cases/tote-drop.toml"))
        .unwrap()
        .replace("[parameters]\n", "[parameters]\nx = { value = \"1 m\" }\n")
        + "\n[[sweep]]\nparameter = \"x\"\nfrom = \"0 m\"\nto = \"1 m\"\npoints = 10001\nplot = [\"peak_force(on an edge, corner)\"]\n";
    // No wall clock: the work allowance is the deterministic measure, and
    // 10,001 solves would exhaust it (the note says so).
    let ev = evaluate_str(&source);
    let s = ev.report.sweeps.last().unwrap();
    assert!(s.note.is_none(), "{:?}", s.note);
    let v = &s.series[0].values;
    assert!(v.iter().all(|x| *x == v[0] && x.is_some()), "{:?}", &v[..3]);
}

#[test]
fn many_impacts_that_never_end_stop_at_the_allowance() {
    // 100 copies of the pinched block's impact, each running to its step
    // limit (about 50 ms each): the allowance ends them, each later one
    // says why, and a claim's probes (drawn from the same allowance) say
    // they were cut short.
    // (The fastest mode is probed: the symbolic engine does not decide it.)
    let mut source = pinched_block(3e4, 3e4, None).replace("mass = \"0.5 kg\"", "mass = \"m\"")
        + "[parameters]\nm = { value = \"0.5 kg\" }\n[[claim]]\nof = \"mode_omega(1)\"\nequals = \"sqrt(2 * 3e4 N/m / m)\"\n";
    for i in 0..100 {
        source.push_str(&format!(
            "[[impact]]\nname = \"again {i}\"\ncontacts = [\"left\"]\nresting = [\"right\"]\nspeed = \"{} m/s\"\n",
            1.0 + i as f64
        ));
    }
    // Bounded by the allowance (the later impacts say so below), not timed.
    let ev = evaluate_str(&source);
    let over = ev
        .analysis
        .impacts
        .iter()
        .filter(|r| matches!(r.response, Err(ImpactError::OverBudget(_))))
        .count();
    assert!(over > 0, "the allowance was reached");
    let last = ev.report.impacts.last().unwrap();
    assert!(
        last.error
            .as_deref()
            .is_some_and(|e| e.contains("work allowance")),
        "{:?}",
        last.error
    );
    let claim = &ev.claims[0];
    assert!(
        claim
            .message
            .as_deref()
            .is_some_and(|m| m.contains("work allowance")),
        "{claim:?}"
    );
}

#[test]
fn the_lanczos_steps_are_bounded_by_the_work_of_their_products() {
    use meff::analysis::lanczos::{MAX_STEPS, step_bound};
    // The measured packings (about 10 stored entries a row) keep the
    // steps they took (benches/results/scale.md: 156 at 299,280 rows with
    // shapes, 453 at 510,833 values only).
    assert!(step_bound(10 * 299_280, 299_280, true) >= 156 * 2);
    assert!(step_bound(10 * 510_833, 510_833, false) >= 453);
    assert!(step_bound(1, 1, false) == MAX_STEPS);
    // A pile of 1,000 bodies with 200,000 contacts at their centres: S
    // holds ~1.6·10⁸ entries; its 6,000 steps would take half an hour.
    let dense = step_bound(160_000_000, 200_000, true);
    assert!((16..=16).contains(&dense), "{dense}");
    // Monotone in the work per step.
    assert!(step_bound(1_000_000, 1000, false) >= step_bound(2_000_000, 1000, false));
    assert!(step_bound(1_000_000, 1000, false) >= step_bound(1_000_000, 1000, true));
}
