//! Physics: the seed numbers, closed forms and equivalences of SPEC §1.

use crate::support::{assert_close, bundled, evaluate_str};
#[test]
fn seed_offcentre_and_centre() {
    let off = bundled("offcentre.toml").analysis;
    assert_close(off.contacts[0].m_eff.unwrap(), 1.0, 1e-12);
    assert_close(off.contacts[0].omega, 1e5f64.sqrt(), 1e-12);
    assert_eq!(format!("{:.1}", off.contacts[0].omega), "316.2");
    assert_close(off.contacts[0].naive_mass.unwrap(), 2.0, 1e-15);
    assert_eq!(
        format!("{:.1}", off.contacts[0].omega_naive.unwrap()),
        "223.6"
    );

    let centre = bundled("centre.toml").analysis;
    assert_close(centre.contacts[0].m_eff.unwrap(), 2.0, 1e-12);
    assert_eq!(format!("{:.1}", centre.contacts[0].omega), "223.6");
}

#[test]
fn particles_reduced_mass_and_wall() {
    let an = bundled("particles-and-wall.toml").analysis;
    assert_close(an.contacts[0].m_eff.unwrap(), 1.0, 1e-12);
    assert_close(an.contacts[1].m_eff.unwrap(), 2.0, 1e-12);
    // The naive estimate of the particle pair is the reduced mass: right here.
    assert_close(an.contacts[0].naive_mass.unwrap(), 1.0, 1e-12);
    // Shared particle `left`: a push at the wall moves the gap between them.
    assert_close(an.delassus[(0, 1)], -0.5, 1e-12);
}

#[test]
fn two_corner_block_couples() {
    let ev = bundled("two-corners.toml");
    let an = &ev.analysis;
    let a = &an.delassus;
    assert_close(a[(0, 0)], 0.625, 1e-12);
    assert_close(a[(1, 1)], 0.625, 1e-12);
    assert_close(a[(0, 1)], 0.375, 1e-12);
    assert_close(a[(1, 0)], 0.375, 1e-12);
    assert_eq!(an.modes.len(), 2);
    assert_eq!(format!("{:.1}", an.modes[0].omega), "316.2");
    assert_eq!(format!("{:.1}", an.modes[1].omega), "158.1");
    assert_close(an.independent_omega_max, 250.0, 1e-12);
    // Bouncing mode: both corners together; rocking: opposite.
    assert_eq!(an.modes[0].shape, vec![1.0, 1.0]);
    assert_close(an.modes[1].shape[1], -1.0, 1e-12);
    assert_eq!(
        format!("{:.2}", an.stable_dt.coupled.unwrap() * 1e3),
        "6.32"
    );
    assert_eq!(
        format!("{:.2}", an.stable_dt.independent.unwrap() * 1e3),
        "8.00"
    );
    // Rayleigh bound below; above, the smaller of the trace bound
    // √(Σ k a) = √(1.25e5) and the row-sum bound, which for two symmetric
    // contacts is exact (λ_max = S_11 + |S_12|).
    assert!(an.coupled_omega_max >= an.independent_omega_max);
    assert!(an.coupled_omega_max <= an.coupled_omega_upper_bound * (1.0 + 1e-12));
    let trace: f64 = an
        .contacts
        .iter()
        .map(|r| r.stiffness * r.a)
        .sum::<f64>()
        .sqrt();
    assert_close(trace, (1e5f64 * 1.25).sqrt(), 1e-12);
    assert_eq!(an.coupled_omega_upper_bound_kind, "gershgorin");
    assert_close(an.coupled_omega_upper_bound, an.coupled_omega_max, 1e-12);
}

#[test]
fn box_on_four_corners_matches_hand_computation() {
    let an = bundled("box-3d.toml").analysis;
    // By hand, in the box's own axes (the turn about the vertical cannot
    // matter): corner (sx a/2, sy b/2, -h/2), normal z, so r×n = (sy b/2, -sx a/2, 0)
    // and a_ij = 1/m + y_i y_j / Ixx + x_i x_j / Iyy.
    let (m, a, b, h) = (3.0f64, 0.4f64, 0.2f64, 0.1f64);
    let ixx = m * (b * b + h * h) / 12.0;
    let iyy = m * (a * a + h * h) / 12.0;
    let corners = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)];
    for (i, (sxi, syi)) in corners.iter().enumerate() {
        for (j, (sxj, syj)) in corners.iter().enumerate() {
            let (xi, yi, xj, yj) = (sxi * a / 2.0, syi * b / 2.0, sxj * a / 2.0, syj * b / 2.0);
            let hand = 1.0 / m + yi * yj / ixx + xi * xj / iyy;
            assert_close(an.delassus[(i, j)], hand, 1e-10);
        }
    }
    // Four contacts, three motions (heave, two tilts).
    assert_eq!(an.zero_modes, Some(1));
    assert_eq!(an.modes.len(), 3);
}

#[test]
fn two_bodies_sum_their_terms() {
    let an = bundled("two-bodies-3d.toml").analysis;
    let hand =
        1.0 + 0.02f64.powi(2) / 0.004 + 0.5 + 0.01f64.powi(2) / 0.010 + 0.01f64.powi(2) / 0.020;
    assert_close(an.contacts[0].a, hand, 1e-12);
    assert_close(an.contacts[0].naive_mass.unwrap(), 2.0 / 3.0, 1e-12);
}

#[test]
fn chain_with_pins_equals_generalized_form() {
    let pins = bundled("double-pendulum-pins.toml").analysis;
    let gen_ = bundled("double-pendulum-generalized.toml").analysis;
    assert_eq!(pins.constraint_rows, 4);
    assert_eq!(pins.constraint_rank, 4);
    for i in 0..2 {
        for j in 0..2 {
            assert_close(pins.delassus[(i, j)], gen_.delassus[(i, j)], 1e-10);
        }
    }
    assert!(
        gen_.contacts[0].naive_mass.is_none(),
        "no naive mass in generalized form"
    );
}

#[test]
fn redundant_contacts_count_a_zero_mode() {
    let an = bundled("redundant-contacts.toml").analysis;
    assert_eq!(an.zero_modes, Some(1));
    assert_eq!(an.modes.len(), 2);
}

#[test]
fn damping_ratios_and_damped_timestep() {
    let an = bundled("damped-corners.toml").analysis;
    // ζ_i = c / (2 sqrt(k m_eff)) = 40 / (2 sqrt(1e5 · 1.6)) = 0.05.
    assert_close(an.contacts[0].zeta.unwrap(), 0.05, 1e-12);
    // Equal dashpots on equal springs: C ∝ K, modes decouple with ζ = c ω / (2k).
    let damped = an.damped_modes.as_ref().unwrap();
    assert_eq!(damped.len(), 2);
    for (d, m) in damped.iter().zip(&an.modes) {
        assert_close(d.omega, m.omega, 1e-9);
        assert_close(d.zeta, 40.0 * m.omega / 2e5, 1e-9);
    }
    // Proportional damping: the step map's limit is the closed form of the
    // fastest mode, never above it and at most 10⁻⁶ (+ bisection) below.
    let (w, z) = (damped[0].omega, damped[0].zeta);
    let closed = 2.0 / w * ((1.0 + z * z).sqrt() - z);
    let got = an.stable_dt.coupled_damped.unwrap();
    assert!(
        got <= closed && got >= closed * (1.0 - 2e-6),
        "{got} vs {closed}"
    );
    assert!(an.stable_dt.coupled_damped.unwrap() < an.stable_dt.coupled.unwrap());
}

const PINNED_TWICE: &str = r#"
space = "planar"
[[body]]
name = "wheel"
type = "rigid"
mass = "2 kg"
inertia = "0.02 kg m^2"
[[joint]]
type = "pin"
bodies = ["wheel"]
point = ["0 m", "0 m"]
[[joint]]
type = "pin"
bodies = ["wheel"]
point = ["0 m", "0 m"]
[[contact]]
name = "rim"
body = "wheel"
point = ["0.1 m", "0 m"]
normal = [0, 1]
stiffness = "1e5 N/m"
[[contact]]
name = "hub"
body = "wheel"
point = ["0 m", "0 m"]
normal = [0, 1]
stiffness = "1e5 N/m"
"#;

#[test]
fn redundant_joints_and_immobile_contact() {
    let ev = evaluate_str(PINNED_TWICE);
    let an = &ev.analysis;
    assert_eq!(an.constraint_rows, 4);
    assert_eq!(an.constraint_rank, 2);
    // Only rotation about the pin is left: a = r²/I.
    assert_close(an.contacts[0].a, 0.01 / 0.02, 1e-12);
    // The hub sits on the pin: it cannot move, and nothing divides by zero.
    assert!(an.contacts[1].immobile);
    assert_eq!(an.contacts[1].m_eff, None);
    assert_eq!(an.contacts[1].a, 0.0);
    assert!(an.contacts[1].a_unconstrained > 0.0);
    assert_eq!(an.zero_modes, Some(1));
    let json = meff::render::json(&ev.report);
    assert!(json.contains("\"m_eff\": null"), "{json}");
    assert!(json.contains("\"immobile\": true"), "{json}");
}

/// The seed block with one off-centre contact `c`, for claim tests.
const SEED: &str = r#"
[parameters]
m = "2 kg"
I = "0.020 kg m^2"
r = "0.10 m"
[[body]]
name = "block"
type = "rigid"
mass = "m"
inertia = "I"
[[contact]]
name = "c"
body = "block"
point = ["r", "0 m"]
normal = [0, 1]
stiffness = "1e5 N/m"
"#;

#[test]
fn claims_pass_and_fail_honestly() {
    let ok = bundled("offcentre.toml");
    assert!(ok.report.claims.iter().all(|c| c.passed == Some(true)));
    let bad = evaluate_str(&format!(
        r#"{SEED}[[claim]]
of = "m_eff(c)"
equals = "m*I/(I + r^2)"
[[claim]]
of = "m_eff(c)"
equals = "m*I/(I + 2*m*r^2)"
[[claim]]
of = "omega(c)"
equals = "316.3 rad/s"
[[claim]]
of = "mode_omega(2)"
equals = "1 rad/s"
"#
    ));
    let c = &bad.report.claims;
    assert_eq!(c[0].passed, Some(false));
    assert_eq!(c[0].how, "dimension");
    assert_eq!(c[1].passed, Some(false));
    assert!(c[1].counterexample.is_some());
    assert_eq!(c[2].passed, Some(false), "316.3 is off by more than 0.05");
    assert_eq!(c[3].passed, Some(false), "there is only one mode");
}

#[test]
fn claim_holding_only_at_the_case_point_is_caught_by_probing() {
    // At r = 0.1 m, m = 2 kg, I = 0.02: 1/m + r^2/I = 1 and 10*r*r^... pick a
    // wrong formula that happens to agree at the case point: a = 10 r (1/m).
    let ev = evaluate_str(&format!(
        r#"{SEED}[[claim]]
of = "a(c)"
equals = "20*r/(m*(1 m))"
"#
    ));
    let c = &ev.report.claims[0];
    assert_eq!(c.passed, Some(false), "{c:?}");
    assert!(c.message.as_ref().unwrap().contains("not at another point"));
}
