//! `[engine.*]`: engine settings through the exact Delassus matrix, checked
//! against the engines' own simulations (MuJoCo 4.0, PyBullet 3.2.7:
//! tests/engines/measure.py, fixtures in tests/engines/measured.json),
//! against the engines' own constraint numbers, and by round trips through
//! the inverse settings; a case without stiffness takes the engine's spring.

use crate::support::{assert_close, cli, evaluate_path, root};
use meff::engines::EngineReport;
use serde_json::Value;
use std::path::PathBuf;

fn dir() -> PathBuf {
    root().join("tests/engines")
}

fn fixture() -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir().join("measured.json")).unwrap()).unwrap()
}

/// Evaluates a system's case (tests/engines/<system>.toml) with `table`
/// appended, in place (the arm's model file is beside it).
fn engine(system: &str, table: &str) -> EngineReport {
    let base = std::fs::read_to_string(dir().join(format!("{system}.toml"))).unwrap();
    let text = format!("{base}\n{table}");
    let path = dir().join(format!("{system}.toml"));
    let access = meff::case::FileAccess::new(dir(), meff::case::MAX_INPUT_BYTES);
    let case = meff::case::parse_case_with(path.to_str().unwrap(), &text, Some(access))
        .unwrap_or_else(|e| panic!("{e}"));
    let ev = meff::evaluate(case).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ev.report.engines.len(), 1);
    ev.report.engines[0].clone()
}

fn nums(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Measured poles as (ω_n, ζ), fastest first.
fn measured(poles: &Value) -> Vec<(f64, f64)> {
    poles
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let (wd, s) = (p["omega_d"].as_f64().unwrap(), p["sigma"].as_f64().unwrap());
            let w = wd.hypot(s);
            (w, s / w)
        })
        .collect()
}

/// Asserts that each measured mode matches meff's at-step prediction to
/// `tol` in ω and ζ; returns the worst relative difference. PyBullet and
/// Drake are held to 2 %: for the lightly damped arm the fit of the
/// measured motion itself moves ζ by up to 2 % with its number of spare
/// poles (PyBullet) or leaves a 2 % residual (Drake SAP); every other run
/// agrees to better than 1 %.
#[track_caller]
fn matches_at_step(e: &EngineReport, run: &Value, what: &str, tol: f64) -> f64 {
    let m = measured(&run["poles"]);
    assert_eq!(m.len(), e.modes.len(), "{what}");
    let mut worst: f64 = 0.0;
    for (k, (w, z)) in m.iter().enumerate() {
        let step = e.modes[k].at_step.unwrap();
        let err = ((step.omega - w) / w)
            .abs()
            .max(((step.zeta - z) / z).abs());
        worst = worst.max(err);
        assert!(
            err < tol,
            "{what} mode {k}: at step {step:?}, measured ({w}, {z}), fit residual {}",
            run["residual"]
        );
    }
    worst
}

const SYSTEMS: [&str; 3] = ["offset-block", "two-corner", "arm"];

#[test]
fn mujoco_rings_as_meff_predicts() {
    let f = fixture();
    let mut worst_step: f64 = 0.0;
    for (setting, s) in f["settings"].as_object().unwrap() {
        let solref = nums(&s["solref"]);
        let solimp = nums(&s["solimp"]);
        let table = format!(
            "[engine.mujoco]\ntimestep = \"{} s\"\nsolref = [{:?}, {:?}]\nsolimp = [{}]\n",
            s["timestep"],
            solref[0],
            solref[1],
            solimp
                .iter()
                .map(|x| format!("{x:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        for system in SYSTEMS {
            let e = engine(system, &table);
            let run = &f["systems"][system][setting.as_str()];
            let what = format!("{system} {setting}");
            // MuJoCo's own constraint numbers at the start of the run: its
            // A (from its J and M), its invweight0 estimate, K, B, d.
            let facts = &run["mujoco"];
            let a = &facts["A"];
            for (i, c) in e.contacts.iter().enumerate() {
                assert_close(1.0 / c.m_eff, a[i][i].as_f64().unwrap(), 2e-4);
                let diag = facts["diagA"][i].as_f64().unwrap();
                assert_close(1.0 / c.m_engine.unwrap(), diag, 1e-9);
            }
            // The modes MuJoCo's motion shows, against meff's prediction at
            // MuJoCo's step (semi-implicit Euler with MuJoCo's R from its
            // estimate); and the continuous modes where ωh is small.
            worst_step = worst_step.max(matches_at_step(&e, run, &what, 5e-3));
            let m = measured(&run["poles"]);
            for (k, (w, z)) in m.iter().enumerate() {
                let exact = e.modes[k].exact;
                if exact.omega * e.step < 0.2 {
                    assert_close(exact.omega, *w, 0.02);
                    assert_close(exact.zeta, *z, 0.02);
                }
            }
        }
    }
    eprintln!("MuJoCo: worst relative difference at the step {worst_step:.2e}");
}

#[test]
fn pybullet_rings_as_meff_predicts() {
    let f = fixture();
    let b = &f["pybullet"];
    for (setting, s) in b["settings"].as_object().unwrap() {
        let h = s["timestep"].as_f64().unwrap();
        let table = match s.get("k") {
            Some(k) => format!(
                "[engine.bullet]\ntimestep = \"{h:?} s\"\nstiffness = \"{:?} N/m\"\ndamping = \"{:?} N s/m\"\n",
                k.as_f64().unwrap(),
                s["c"].as_f64().unwrap()
            ),
            None => format!(
                "[engine.bullet]\ntimestep = \"{h:?} s\"\nerp = {:?}\ncfm = {:?}\n",
                s["erp"].as_f64().unwrap(),
                s["cfm"].as_f64().unwrap()
            ),
        };
        for system in SYSTEMS {
            let e = engine(system, &table);
            let what = format!("{system} {setting}");
            matches_at_step(&e, &b["systems"][system][setting.as_str()], &what, 0.02);
        }
    }
}

#[test]
fn drake_rings_as_meff_predicts() {
    let f = fixture();
    let d = &f["drake"];
    let preload = d["preload"].as_f64().unwrap();
    for (setting, s) in d["settings"].as_object().unwrap() {
        let h = s["timestep"].as_f64().unwrap();
        let k = s["k"].as_f64().unwrap();
        let table = match s["approximation"].as_str().unwrap() {
            "sap" => format!(
                "[engine.drake]\ntimestep = \"{h:?} s\"\napproximation = \"sap\"\nstiffness = \"{k:?} N/m\"\nrelaxation_time = \"{:?} s\"\n",
                s["tau"].as_f64().unwrap()
            ),
            a => format!(
                "[engine.drake]\ntimestep = \"{h:?} s\"\napproximation = \"{a}\"\nstiffness = \"{k:?} N/m\"\ndissipation = \"{:?} s/m\"\npreload = \"{preload:?} N\"\n",
                s["d"].as_f64().unwrap()
            ),
        };
        for system in SYSTEMS {
            let e = engine(system, &table);
            let what = format!("{system} {setting}");
            matches_at_step(&e, &d["systems"][system][setting.as_str()], &what, 0.02);
        }
    }
}

#[test]
fn mujocos_estimate_is_far_off_for_the_arm_away_from_its_reference_pose() {
    let e = engine("arm", "[engine.mujoco]\n");
    let c = &e.contacts[0];
    // invweight0 is taken with the arm straight (qpos0): it sees the tip as
    // several times heavier than it is at the case's pose.
    assert!(c.a_error.unwrap() < -0.5, "{c:?}");
    assert!(c.m_engine.unwrap() > 2.0 * c.m_eff, "{c:?}");
}

/// Reads a setting's value text as a number (first number in it).
fn number(text: &str) -> f64 {
    text.trim_start_matches('[')
        .split([' ', ',', ']'])
        .find(|s| !s.is_empty())
        .unwrap()
        .parse()
        .unwrap()
}

fn setting<'a>(c: &'a meff::engines::EngineContact, name: &str) -> &'a str {
    &c.inverse.iter().find(|(n, _)| n == name).unwrap().1
}

#[test]
fn inverse_settings_give_the_case_stiffness_and_damping_back() {
    // offset-block: k = 2e4 N/m, c = 20 N s/m on the exact m_eff.
    let target = |e: &EngineReport| {
        let m = e.contacts[0].m_eff;
        let w = (2e4 / m).sqrt();
        (w, 20.0 / (2.0 * (2e4 * m).sqrt()))
    };
    let check = |table: String| {
        let e = engine("offset-block", &table);
        let (w, z) = target(&e);
        let got = e.contacts[0].exact.unwrap();
        assert_close(got.omega, w, 1e-4);
        assert_close(got.zeta, z, 1e-4);
    };
    let e = engine("offset-block", "[engine.mujoco]\ntimestep = \"1 ms\"\n");
    let c = &e.contacts[0];
    let std = setting(c, "solref");
    let (tc, dr) = (number(std), number(std.split(',').nth(1).unwrap()));
    check(format!(
        "[engine.mujoco]\ntimestep = \"1 ms\"\nsolref = [{tc}, {dr}]\n"
    ));
    let direct = setting(c, "solref (direct)");
    let (k, b) = (number(direct), number(direct.split(',').nth(1).unwrap()));
    check(format!(
        "[engine.mujoco]\ntimestep = \"1 ms\"\nsolref = [{k}, {b}]\n"
    ));

    let e = engine("offset-block", "[engine.bullet]\n");
    let c = &e.contacts[0];
    let (erp, cfm) = (number(setting(c, "erp")), number(setting(c, "cfm")));
    check(format!("[engine.bullet]\nerp = {erp}\ncfm = {cfm}\n"));

    let e = engine("offset-block", "[engine.rapier]\n");
    let c = &e.contacts[0];
    let (f, z) = (
        number(setting(c, "contact_natural_frequency")),
        number(setting(c, "contact_damping_ratio")),
    );
    check(format!(
        "[engine.rapier]\ncontact_natural_frequency = \"{f} Hz\"\ncontact_damping_ratio = {z}\n"
    ));

    let e = engine(
        "offset-block",
        "[engine.drake]\nstiffness = \"1 N/m\"\napproximation = \"sap\"\nnear_rigid_threshold = 0\n",
    );
    let c = &e.contacts[0];
    let tau = number(setting(c, "relaxation_time"));
    check(format!(
        "[engine.drake]\nstiffness = \"2e4 N/m\"\nrelaxation_time = \"{tau} s\"\napproximation = \"sap\"\nnear_rigid_threshold = 0\n"
    ));
}

#[test]
fn engine_formulas_match_their_sources() {
    // Bullet/ODE: k = erp/(h cfm), c = (1 − erp)/cfm.
    let e = engine(
        "offset-block",
        "[engine.bullet]\ntimestep = \"1 ms\"\nerp = 0.2\ncfm = 1e-4\n",
    );
    assert_close(e.contacts[0].k.unwrap(), 0.2 / (1e-3 * 1e-4), 1e-12);
    assert_close(e.contacts[0].c.unwrap(), 0.8 / 1e-4, 1e-12);
    // cfm = 0: rigid, no spring, a note on the Baumgarte decay.
    let e = engine("offset-block", "[engine.bullet]\n");
    assert!(e.contacts[0].k.is_none() && e.modes.is_empty());
    assert!(e.notes[0].contains("rigid"), "{:?}", e.notes);
    // Box2D: hertz capped at an eighth of the substep rate, doubled
    // against the world; spring m̂ ω², dashpot 2ζ m̂ ω on the point's mass.
    let e = engine(
        "offset-block",
        "[engine.box2d]\ntimestep = \"1/60 s\"\nsubsteps = 4\ncontact_hertz = \"100 Hz\"\ncontact_damping_ratio = 0.5\n",
    );
    let cap: f64 = 0.125 * 240.0;
    let w = 2.0 * std::f64::consts::PI * 2.0 * cap;
    let c = &e.contacts[0];
    assert_close(c.intended.unwrap().omega, w, 1e-12);
    assert_close(c.k.unwrap(), c.m_engine.unwrap() * w * w, 1e-12);
    assert_close(c.c.unwrap(), 2.0 * 0.5 * c.m_engine.unwrap() * w, 1e-12);
    assert!(
        e.notes.iter().any(|n| n.contains("eighth")),
        "{:?}",
        e.notes
    );
    // For a free body the point's own mass is the exact one: Box2D's
    // frequency is what it says.
    assert_close(c.exact.unwrap().omega, w, 1e-9);
    // MuJoCo, standard solref: what it intends is ω = d·√K = (d/d_w)/(τ ζ_r),
    // ζ = ζ_r (exact when its estimate of A_ii is).
    let e = engine(
        "two-corner",
        "[engine.mujoco]\nsolref = [0.05, 0.3]\nsolimp = [0.95, 0.95, 0.001, 0.5, 2]\n",
    );
    let i = e.contacts[0].intended.unwrap();
    assert_close(i.omega, 1.0 / (0.05 * 0.3), 1e-12);
    assert_close(i.zeta, 0.3, 1e-12);
    // refsafe: a time constant below 2·timestep is raised.
    let e = engine(
        "offset-block",
        "[engine.mujoco]\ntimestep = \"10 ms\"\nsolref = [0.01, 1]\n",
    );
    assert!(e.notes[0].contains("refsafe"), "{:?}", e.notes);
    // Drake SAP near rigid: the stiffness saturates at 4π²/(β² w h (h + τ)),
    // w Drake's own estimate ‖W_ii‖_F/3 (tests/it/engines/drake_sap.rs
    // checks it against the block written out by hand), not A_ii.
    let e = engine(
        "offset-block",
        "[engine.drake]\nstiffness = \"1e9 N/m\"\napproximation = \"sap\"\ntimestep = \"1 ms\"\n",
    );
    let c = &e.contacts[0];
    let w = 1.0 / c.m_engine.unwrap();
    assert!(
        (w - 1.0 / c.m_eff).abs() > 0.05 / c.m_eff,
        "w {w} against A_ii {}",
        1.0 / c.m_eff
    );
    assert_close(
        c.k.unwrap(),
        4.0 * std::f64::consts::PI.powi(2) / (w * 1e-6),
        1e-9,
    );
    assert!(
        e.notes.iter().any(|n| n.contains("near rigid")),
        "{:?}",
        e.notes
    );
}

#[test]
fn coupled_modes_are_those_of_the_law_with_the_full_delassus_matrix() {
    // Two feet, Bullet springs: the coupled modes are √eig(K^½ A K^½) with
    // light damping, not the contacts' own frequencies.
    let e = engine(
        "two-corner",
        "[engine.bullet]\nstiffness = \"2e4 N/m\"\ndamping = \"0 N s/m\"\n",
    );
    let ev = evaluate_path(&dir().join("two-corner.toml"));
    let modes: Vec<f64> = ev.analysis.modes.iter().map(|m| m.omega).collect();
    for (k, m) in e.modes.iter().enumerate() {
        assert_close(m.exact.omega, modes[k], 1e-9);
        assert!(m.exact.zeta.abs() < 1e-9);
    }
    // Implicit Euler damps numerically: the step's ζ is positive.
    assert!(e.modes[0].at_step.unwrap().zeta > 0.01);
    assert!(e.stable == Some(true));
}

#[test]
fn an_immobile_contact_is_said_to_be_so_in_every_output() {
    // The constraint holds contact `c`: no engine setting moves it, no
    // number stands in for its mass.
    let case = r#"[generalized]
coordinates = [{ name = "a", unit = "m" }, { name = "b", unit = "m" }]
mass_matrix = [["1 kg", "0 kg"], ["0 kg", "2 kg"]]
[[constraint]]
jacobian = [1, 0]
[[contact]]
name = "c"
jacobian = [1, 0]
stiffness = "1e5 N/m"
[[contact]]
name = "d"
jacobian = [0, 1]
stiffness = "1e5 N/m"
[engine.mujoco]
[engine.box2d]
[engine.bullet]
erp = 0.2
cfm = 1e-4
"#;
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("held.toml");
    std::fs::write(&path, case).unwrap();
    let out = tmp.path().join("out");
    let run = cli(["report", "--no-verify", "--format", "md,html,json", "-o"])
        .arg(&out)
        .arg(&path)
        .output();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let md = std::fs::read_to_string(out.join("held.md")).unwrap();
    let html = std::fs::read_to_string(out.join("held.html")).unwrap();
    for text in [&md, &html] {
        assert!(text.contains("∞ (immobile)"), "no immobile mark");
        assert!(!text.contains("NaN"), "a NaN reached the report");
    }
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("held.json")).unwrap()).unwrap();
    for e in json["engines"].as_array().unwrap() {
        let c = &e["contacts"][0];
        assert!(c["m_eff"].is_null() && c["k"].is_null(), "{c}");
        assert!(c["inverse"][0][1].as_str().unwrap().contains("immobile"));
    }
}

/// The bundled MuJoCo arm with its contact's `stiffness` (and `damping`)
/// left out, the model path made absolute.
fn arm_without_stiffness(extra: &str) -> String {
    let text = std::fs::read_to_string(root().join("cases/engine-mujoco-arm.toml")).unwrap();
    let models = root().join("cases/models/");
    text.lines()
        .filter(|l| !l.starts_with("stiffness = ") && !l.starts_with("damping = "))
        .map(|l| l.replace("\"models/", &format!("\"{}", models.display())))
        .collect::<Vec<_>>()
        .join("\n")
        + extra
}

#[test]
fn an_engine_case_without_stiffness_is_analysed_with_the_engines_spring() {
    let dir = crate::support::scratch("trust-arm");
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
    let dir = crate::support::scratch("trust-engine");
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
        let out = cli(["eval", "--no-verify", path.to_str().unwrap()]).output();
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
    cli(["eval", "--no-verify", path.to_str().unwrap()]).refuses("missing `stiffness`");
    std::fs::remove_dir_all(&dir).ok();
}
