//! What signer 48 found wrong or misleading on five sheets, as classes:
//! a person verdict names the contact type it covers and, where the robot
//! model has no armature, rests on the larger (rule-of-thumb) mass; a step
//! map's round-off eigenvalues are no modes; first-order rates are headed
//! in 1/s; a substep is called one; a world-wide engine setting is stated
//! as one; a generalized case's verification says what it covers; a mass
//! ratio divides by the mass it names.

use crate::support::{bundled, root, verified};
use meff::analysis::robot::Governing;

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

/// Evaluates `text` in a temporary folder with the bundled models and
/// `extra` files beside it.
fn beside_models(text: &str, extra: &[(&str, &str)]) -> meff::Evaluated {
    let dir = tempfile::tempdir().unwrap();
    let models = root().join("cases/models");
    let text = text.replace("\"models/", &format!("\"{}/", models.display()));
    for (name, body) in extra {
        std::fs::write(dir.path().join(name), body).unwrap();
    }
    let path = dir.path().join("case.toml");
    std::fs::write(&path, text).unwrap();
    crate::support::evaluate_path(&path)
}

#[test]
fn a_person_verdict_without_armature_rests_on_the_larger_mass_and_names_its_contact_type() {
    let ev = bundled("ur5-tool.toml");
    let p = &ev.report.persons[0];
    assert!(p.exact_is_lower_bound, "the UR5 URDF has no armature");
    assert_eq!(p.governing, Governing::RuleOfThumb);
    let (ex, rule) = (p.exact.as_ref().unwrap(), p.rule_of_thumb.as_ref().unwrap());
    // The rule's mass gives the larger force and the smaller speed.
    assert!(rule.peak_force.unwrap() > ex.peak_force.unwrap());
    assert!(rule.max_speed.unwrap() < ex.max_speed.unwrap());
    let h = headline(&ev.report);
    let line = h
        .lines()
        .find(|l| l.starts_with("Contact with a person"))
        .unwrap();
    assert!(
        line.contains("transient") && line.contains("clamped contact is not covered"),
        "{line}"
    );
    let force = meff::number::sig_round(rule.peak_force.unwrap(), 4, meff::number::Round::Up);
    let speed = meff::number::sig_round(rule.max_speed.unwrap(), 4, meff::number::Round::Down);
    assert!(line.contains(&format!("peak force {force} N")), "{line}");
    assert!(line.contains(&format!("speed limit {speed} m/s")), "{line}");
    assert!(line.contains("lower bound"), "{line}");
    // The case's limit is the hand's transient one, as the Annex A table
    // bundled with meff gives it (twice the quasi-static 140 N).
    assert_eq!(p.force_limit, Some(280.0));
    for s in sheets(&ev.report) {
        assert!(s.contains("Contact type"), "{s}");
        assert!(s.contains("no joint armature"));
    }
    // A model whose URDF gives no armature, read with armature asked for:
    // still a lower bound.
    let text = std::fs::read_to_string(root().join("cases/ur5-tool.toml")).unwrap();
    let asked = text.replace("[model]\n", "[model]\narmature = true\n");
    assert_ne!(asked, text);
    let ev = beside_models(&asked, &[]);
    assert_eq!(ev.report.persons[0].governing, Governing::RuleOfThumb);
}

/// A two-link MJCF arm whose joints carry rotor inertia.
const ARM: &str = r#"<mujoco model="arm">
  <worldbody>
    <body name="upper" pos="0 0 0.5">
      <joint name="shoulder" type="hinge" axis="0 1 0" armature="0.05"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.03" mass="1.5"/>
      <body name="fore" pos="0.4 0 0">
        <joint name="elbow" type="hinge" axis="0 1 0" armature="0.05"/>
        <geom type="capsule" fromto="0 0 0 0.35 0 0" size="0.025" mass="1"/>
      </body>
    </body>
  </worldbody>
</mujoco>"#;

fn arm_case(armature: bool) -> String {
    format!(
        "title = \"arm\"\n[model]\nmjcf = \"arm.xml\"\narmature = {armature}\nconfiguration = {{ shoulder = \"0.3 rad\", elbow = \"0.9 rad\" }}\n\n[[contact]]\nname = \"tip\"\nbody = \"fore\"\npoint = [\"0.35 m\", \"0 m\", \"0 m\"]\nframe = \"body\"\nnormal = [0, 0, 1]\nnormal_frame = \"world\"\nstiffness = \"1e5 N/m\"\n\n[[person]]\ncontact = \"tip\"\nregion = \"hand\"\nmass = \"0.6 kg\"\nstiffness = \"75 kN/m\"\nforce_limit = \"280 N\"\nspeed = \"0.25 m/s\"\n"
    )
}

#[test]
fn a_model_with_armature_in_its_mass_matrix_rests_the_verdict_on_the_exact_mass() {
    let ev = beside_models(&arm_case(true), &[("arm.xml", ARM)]);
    let p = &ev.report.persons[0];
    assert!(!p.exact_is_lower_bound);
    assert_eq!(p.governing, Governing::Exact);
    let line = headline(&ev.report);
    assert!(line.contains("with the exact m_eff"), "{line}");
    assert!(!line.contains("no joint armature"), "{line}");
    // The same arm with its armature left out of M: a lower bound again.
    let ev = beside_models(&arm_case(false), &[("arm.xml", ARM)]);
    assert!(ev.report.persons[0].exact_is_lower_bound);
}

#[test]
fn a_person_struck_by_free_bodies_rests_on_the_exact_mass() {
    // Bodies, not a robot model: the exact m_eff is exact, not a bound.
    let ev = bundled("offcentre-tolerance.toml");
    for p in &ev.report.persons {
        assert!(!p.exact_is_lower_bound);
        assert_eq!(p.governing, Governing::Exact);
    }
    assert!(headline(&ev.report).contains("transient"));
}

#[test]
fn round_off_of_a_substep_map_is_no_mode() {
    // Box2D's substep map has a defective zero eigenvalue; its round-off
    // split (|z| ≈ 1.4e-9) read as ln z / h was listed as 4893 rad/s.
    for case in ["engine-box2d-stack.toml", "engine-rapier-ball.toml"] {
        let ev = bundled(case);
        for e in &ev.report.engines {
            for p in &e.step_modes {
                let z = (-p.omega * p.zeta * e.step).exp();
                assert!(
                    z > meff::engines::law::ROUNDOFF_EIGENVALUE,
                    "{case} {}: mode {p:?} keeps {z:e} of itself in a step",
                    e.name
                );
            }
        }
    }
    let ev = bundled("engine-box2d-stack.toml");
    let e = &ev.report.engines[0];
    // The signer's own map: the slowest rate 8.174 /s stays.
    let slowest = e
        .step_modes
        .iter()
        .map(|p| p.omega)
        .fold(f64::INFINITY, f64::min);
    assert!((slowest - 8.174).abs() < 5e-3, "{slowest}");
}

#[test]
fn an_engine_with_one_world_setting_says_so_and_counts_the_substeps() {
    let ev = bundled("engine-box2d-stack.toml");
    let e = &ev.report.engines[0];
    let w = e.world_setting.as_ref().unwrap();
    assert!(w.differ);
    // Targets 22.07 Hz (crate, written at half) to 163.9 Hz (box): the
    // box's needs 8 × 163.9 Hz × (1/60 s) → 22 substeps.
    assert_eq!(w.substeps_for_all, Some(22));
    assert!(
        (w.hertz - (22.0708f64 * 163.942).sqrt()).abs() < 0.01,
        "{}",
        w.hertz
    );
    let h = headline(&ev.report);
    assert!(h.contains("for the whole world: no single setting"), "{h}");
    assert!(h.contains("reachable from 22 substeps"), "{h}");
    // The substep is called one, with the step beside it.
    assert!(
        h.contains("substep 4.167 ms (its step 16.67 ms in 4 substeps)"),
        "{h}"
    );
    // Heads over first-order rates say 1/s, not rad/s.
    for s in sheets(&ev.report) {
        assert!(s.contains("settling rate at the step (1/s)"), "{s}");
    }
    // One contact: one setting serves it.
    let ev = bundled("engine-rapier-ball.toml");
    if let Some(w) = ev.report.engines[0].world_setting.as_ref() {
        assert!(!w.differ || ev.report.contacts.len() > 1);
    }
}

#[test]
fn a_generalized_verification_says_it_checks_the_typed_rows_not_their_derivation() {
    let g = verified("double-pendulum-generalized.toml");
    for s in sheets(&g.report) {
        assert!(s.contains("rows as typed"), "{s}");
        assert!(s.contains("stands in for whatever holds the contacts closed"));
    }
    let pins = verified("double-pendulum-pins.toml");
    for s in sheets(&pins.report) {
        assert!(!s.contains("rows as typed"));
    }
}

#[test]
fn a_mass_ratio_divides_by_the_mass_it_names() {
    use meff::report::NaiveKind;
    // Two bodies of 1 and 2 kg: the naive mass is their reduced mass.
    let ev = bundled("two-bodies-3d.toml");
    let c = &ev.report.contacts[0];
    assert_eq!(c.naive_kind, Some(NaiveKind::Reduced));
    assert!((c.naive_mass.unwrap() - 2.0 / 3.0).abs() < 1e-12);
    let ratio = c.m_eff.unwrap() / c.naive_mass.unwrap();
    assert!((ratio - 0.92879).abs() < 1e-4, "{ratio}");
    for s in sheets(&ev.report) {
        assert!(s.contains("of the reduced mass of the two bodies"), "{s}");
        assert!(!s.contains("of the total mass:"));
    }
    // One body against the world: its total mass.
    let one = bundled("offcentre.toml");
    let c = &one.report.contacts[0];
    assert_eq!(c.naive_kind, Some(NaiveKind::Total));
    assert_eq!(c.naive_mass, Some(2.0));
    assert!((c.mass_ratio.unwrap() - 0.5).abs() < 1e-12);
    for s in sheets(&one.report) {
        assert!(s.contains("of the total mass:"), "{s}");
    }
}
