//! A program's verdict rests on the person verdict's rule
//! (`analysis::robot::governing`): without joint armature in M the exact
//! mass is a lower bound, so each sample's speed factor is on the larger of
//! it and the rule's m_mov/2 + m_L; with armature, on the exact mass. The
//! workspace map's permissible speeds follow the same rule.

use crate::support::bundled;
use meff::analysis::robot::Governing;
use meff::number::{Round, sig_round};

fn headline(report: &meff::report::Report) -> String {
    meff::render::headline::lines(report, 4)
        .iter()
        .map(|l| l.iter().map(|s| s.text.as_str()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

fn sheets(report: &meff::report::Report) -> [String; 3] {
    let t = meff::render::templates::Templates::load(None).unwrap();
    [
        t.report_html(report, 4).unwrap(),
        t.report_md_files(report, 4, "x").unwrap().0,
        t.report_typ(report, 4).unwrap().0,
    ]
}

fn evaluate(text: &str, extra: &[(&str, &str)]) -> meff::Evaluated {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in extra {
        std::fs::write(dir.path().join(name), body).unwrap();
    }
    let path = dir.path().join("case.toml");
    std::fs::write(&path, text).unwrap();
    crate::support::evaluate_path(&path)
}

fn smaller(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[test]
fn a_program_without_armature_rests_its_factors_on_the_larger_mass() {
    let ev = bundled("ur5-program.toml");
    let p = ev.report.program.as_ref().unwrap();
    assert!(p.exact_is_lower_bound, "the UR5 URDF has no armature");
    // Per sample the verdict's factor is the smaller of the exact and the
    // rule's (the larger mass), so over the program it is the smaller of
    // the two programs' factors.
    let (fv, fe) = (p.factor_verdict.unwrap(), p.factor.unwrap());
    assert_eq!(Some(fv), smaller(p.factor, p.factor_rule));
    assert!(
        fv < fe,
        "the rule's 9.5 kg is above the exact mass: {fv} vs {fe}"
    );
    assert_eq!(p.governing, Governing::RuleOfThumb);
    assert_eq!(p.within, fv >= 1.0);
    assert!(
        !p.within && p.first_over.is_some(),
        "0.70 of its speed: over"
    );
    for q in &p.pairs {
        assert_eq!(q.factor_verdict, smaller(q.factor_exact, q.factor_rule));
        let w = q.worst.as_ref().unwrap();
        let on = match w.governing {
            Governing::Exact => &w.exact,
            Governing::RuleOfThumb => &w.rule,
        };
        assert_eq!(
            Some(on.factor),
            q.factor_verdict,
            "{} · {}",
            q.hazard,
            q.region
        );
    }
    // The headline states the verdict's factor rounded down, the duration
    // factor rounded up, and the exact factor as the lower bound's.
    let h = headline(&ev.report);
    let line = h.lines().find(|l| l.starts_with("Program (")).unwrap();
    let down = |x: f64| meff::number::pretty(&sig_round(x, 3, Round::Down));
    let up = |x: f64| meff::number::pretty(&sig_round(x, 3, Round::Up));
    assert!(
        line.contains(&format!("≤ {} of its speed", down(fv))),
        "{line}"
    );
    assert!(
        line.contains(&format!("durations × {}", up(1.0 / fv))),
        "{line}"
    );
    assert!(line.contains("on the rule mass m_mov/2 + m_L"), "{line}");
    assert!(
        line.contains(&format!("exact mass alone gives factor {}", down(fe))),
        "{line}"
    );
    assert!(!line.contains("within limits by factor"), "{line}");
    for s in sheets(&ev.report) {
        // Typst escapes its markup characters.
        let has = |t: &str| s.contains(t) || s.contains(&meff::render::typ::text(t));
        assert!(has("factor (verdict)"));
        assert!(has("no joint armature"));
        assert!(has("(a lower bound: not the verdict)"));
    }
    // The map: every pose's v_max at most the rule's and the map mass's.
    let m = ev.report.map.as_ref().unwrap();
    assert!(m.exact_is_lower_bound);
    for g in &m.grids {
        for &v in g.max_speed.iter().flatten() {
            assert!(v <= g.rule_speed * (1.0 + 1e-12), "{v} > {}", g.rule_speed);
        }
        assert!(g.min_speed <= g.min_speed_exact);
    }
    // The gripper tip's worst-direction mass is below the rule's: the
    // map's smallest speed is the rule's, under the mass's own.
    assert!(m.grids.iter().any(|g| g.min_speed < g.min_speed_exact));
}

/// A two-link MJCF arm whose joints carry rotor inertia.
const ARM: &str = r#"<mujoco model="arm">
  <worldbody>
    <body name="upper" pos="0 0 0.5">
      <joint name="shoulder" type="hinge" axis="0 1 0" range="-3 3" armature="ARM"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.03" mass="1.5"/>
      <body name="fore" pos="0.4 0 0">
        <joint name="elbow" type="hinge" axis="0 1 0" range="-3 3" armature="ARM"/>
        <geom type="capsule" fromto="0 0 0 0.35 0 0" size="0.025" mass="1"/>
      </body>
    </body>
  </worldbody>
</mujoco>"#;

fn arm_program(armature: bool) -> String {
    format!(
        r#"title = "arm program"
[model]
mjcf = "arm.xml"
armature = {armature}
configuration = {{ shoulder = "0.3 rad", elbow = "0.9 rad" }}

[[contact]]
name = "tip"
body = "fore"
point = ["0.35 m", "0 m", "0 m"]
normal = [0, 0, 1]
normal_frame = "world"
stiffness = "1e5 N/m"

[motion]
interpolation = "linear"
step = "0.05 s"
[[waypoint]]
[[waypoint]]
configuration = {{ shoulder = "1.3 rad", elbow = "0.2 rad" }}
duration = "0.8 s"

[[hazard]]
name = "tip"
body = "fore"
point = ["0.35 m", "0 m", "0 m"]

[[region]]
name = "hand"
mass = "0.6 kg"
stiffness = "75 kN/m"
force_limit = "280 N"

[[region]]
name = "chest"
mass = "40 kg"
stiffness = "25 kN/m"
energy_limit = "1.6 J"
"#
    )
}

fn arm(armature: bool, rotor: &str) -> meff::Evaluated {
    evaluate(
        &arm_program(armature),
        &[("arm.xml", &ARM.replace("ARM", rotor))],
    )
}

#[test]
fn a_program_with_armature_in_its_mass_matrix_rests_on_the_exact_mass() {
    let ev = arm(true, "0.05");
    let p = ev.report.program.as_ref().unwrap();
    assert!(!p.exact_is_lower_bound);
    assert_eq!(p.governing, Governing::Exact);
    // The rule's mass is larger here, yet the verdict ignores it.
    let (fe, fr) = (p.factor.unwrap(), p.factor_rule.unwrap());
    assert!(fr < fe, "rule {fr} vs exact {fe}");
    assert_eq!(p.factor_verdict, p.factor);
    let line = headline(&ev.report);
    assert!(!line.contains("no joint armature"), "{line}");
    for s in sheets(&ev.report) {
        let has = |t: &str| s.contains(t) || s.contains(&meff::render::typ::text(t));
        assert!(has("includes joint armature"));
    }
    // The same arm with its armature left out of M, and an arm whose
    // joints have none: lower bounds, the verdict on the larger mass.
    for ev in [arm(false, "0.05"), arm(true, "0")] {
        let p = ev.report.program.as_ref().unwrap();
        assert!(p.exact_is_lower_bound);
        assert_eq!(p.factor_verdict, smaller(p.factor, p.factor_rule));
        assert_eq!(p.governing, Governing::RuleOfThumb);
        assert!(headline(&ev.report).contains("no joint armature"));
    }
}
