//! Damped modes: each excited alone and its damped frequency and decay
//! rate measured.

use super::*;

/// Runs each mode that the dashpots do not couple to others with its
/// dashpots, and compares damped frequency and decay with the analysis'
/// damped modes.
pub(super) fn damped_runs(run: &mut Run) -> Vec<DampedRun> {
    let an = run.an;
    let damping: Vec<f64> = an
        .contacts
        .iter()
        .map(|r| r.damping.unwrap_or(0.0))
        .collect();
    if damping.iter().all(|&d| d == 0.0) {
        return Vec::new();
    }
    let Some(damped_modes) = an.damped_modes.as_ref() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, mode) in an.modes.iter().enumerate().take(MAX_MODES) {
        let s = &mode.shape;
        let what = format!("damped mode {}", k + 1);
        let Some(mu) = uncoupled(an, &damping, s) else {
            run.skip(
                "damped_frequency",
                what,
                "skipped: the dashpots couple this mode to others (damping not proportional), so impulses cannot excite one damped mode alone; the damped response to an impulse checks the damped modes together instead".into(),
            );
            continue;
        };
        // The analysis' damped mode with this undamped frequency.
        let zeta_here = mu / (2.0 * mode.omega);
        let Some(dm) = damped_modes.iter().min_by(|a, b| {
            let da = (a.omega - mode.omega).abs() + (a.zeta - zeta_here).abs() * mode.omega;
            let db = (b.omega - mode.omega).abs() + (b.zeta - zeta_here).abs() * mode.omega;
            da.total_cmp(&db)
        }) else {
            continue;
        };
        let (omega, zeta) = (dm.omega, dm.zeta);
        let overdamped = zeta >= 1.0;
        let omega_d = (!overdamped).then(|| omega * (1.0 - zeta * zeta).sqrt());
        let decay = slowest_decay(omega, zeta);
        let h_damped = an
            .stable_dt
            .coupled_damped
            .unwrap_or(run.h_stable)
            .min(run.h_stable);
        let h = (std::f64::consts::TAU / omega / STEPS_PER_PERIOD).min(0.5 * h_damped);
        // Until the envelope has fallen by 10⁶ (round-off beyond), or the
        // case's number of periods.
        let t_end = (run.settings.periods as f64 * std::f64::consts::TAU / omega)
            .min(5.0 * std::f64::consts::LN_10 / decay.max(f64::MIN_POSITIVE));
        let t_end = if overdamped {
            5.0 * std::f64::consts::LN_10 / decay
        } else {
            t_end
        };
        let steps = match run.budget.take(t_end / h) {
            Ok(n) => n,
            Err(why) => {
                run.skip("damped_frequency", what, why);
                continue;
            }
        };
        let mut sim = (run.damped)();
        let amplitude = run.settings.compression;
        excite(sim.as_mut(), an, k, amplitude);
        // Fitted only while the mode is four decades above round-off and
        // above what finite motion leaks into the other modes.
        let m: Decay = measure_decay(
            sim.as_mut(),
            pivot_of(s),
            h,
            steps,
            amplitude * DECAY_FLOOR,
            !overdamped,
        );
        match (omega_d, m.omega_d) {
            (Some(p), Some(x)) => {
                let phase = verlet_phase_error(omega, h);
                run.check(numeric_check(
                    "damped_frequency",
                    format!("damped ω√(1−ζ²) of mode {} (ζ = {zeta:.3})", k + 1),
                    p,
                    x,
                    4.0 * phase + zeta * omega * h + MEASUREMENT_FLOOR,
                    format!("the integrator's phase error at Δt = {} is about (ωΔt)²/24 = {} (four times that), the dashpot force taken at the start of each step adds up to ζωΔt = {}, plus {}", crate::number::time(h, crate::number::DEFAULT_DIGITS), crate::number::sci(phase, 1), crate::number::sci(zeta * omega * h, 1), crate::number::sci(MEASUREMENT_FLOOR, 0)),
                ));
            }
            (Some(_), None) => run.skip(
                "damped_frequency",
                format!("damped ω of mode {} (ζ = {zeta:.3})", k + 1),
                "not measured: the motion decays below round-off before three zero crossings (heavily damped); the decay rate is checked instead".into(),
            ),
            (None, _) => run.skip(
                "damped_frequency",
                format!("damped ω of mode {} (ζ = {zeta:.3})", k + 1),
                "none to measure: the mode is overdamped (ζ ≥ 1) and does not oscillate; its slowest decay rate is checked instead".into(),
            ),
        }
        check_decay(
            run,
            k,
            DecayFit {
                omega,
                zeta,
                decay,
                h,
                t_end,
                measured: m.sigma,
            },
        );
        out.push(DampedRun {
            mode: k + 1,
            zeta,
            omega_d_predicted: omega_d,
            omega_d_measured: m.omega_d,
            decay_predicted: decay,
            decay_measured: m.sigma,
        });
    }
    out
}

/// What the decay-rate check of one damped mode compares.
struct DecayFit {
    omega: f64,
    zeta: f64,
    /// Predicted (slowest) decay rate.
    decay: f64,
    /// Simulation step.
    h: f64,
    /// Length of the record.
    t_end: f64,
    measured: Option<f64>,
}

/// The decay-rate check of damped mode `k` (0-based): ζω, or the slowest
/// rate ω(ζ − √(ζ²−1)) when overdamped; not checked near critical damping.
fn check_decay(run: &mut Run, k: usize, fit: DecayFit) {
    let DecayFit {
        omega,
        zeta,
        decay,
        h,
        t_end,
        measured,
    } = fit;
    let overdamped = zeta >= 1.0;
    let near_critical = (zeta - 1.0).abs() < 0.1;
    let decay_what = if overdamped {
        format!(
            "slowest decay rate ω(ζ − √(ζ²−1)) of mode {} (ζ = {zeta:.3})",
            k + 1
        )
    } else {
        format!("decay rate ζω of mode {} (ζ = {zeta:.3})", k + 1)
    };
    match measured {
        _ if near_critical => run.skip(
            "decay_rate",
            decay_what,
            "not checked: near critical damping (|ζ − 1| < 0.1) the response is close to (A + Bt)·e^(−ωt), which has no single decay rate to fit".into(),
        ),
        Some(x) => {
            // Peaks are sampled once per step: their logarithms carry
            // about (ωh)² of noise, spread over the decay observed; the
            // dashpot taken at the start of each step shifts the rate by
            // O(ωh); an overdamped record still holds a trace of the
            // fast exponential.
            let span = (decay * t_end).max(1e-12);
            let tolerance = 1e-3
                + omega * h
                + 10.0 * (omega * h).powi(2) / span
                + if overdamped { 1e-2 } else { 0.0 };
            run.check(numeric_check(
                "decay_rate",
                decay_what,
                decay,
                x,
                tolerance,
                if overdamped {
                    "a straight line through the logarithm of |gap| over the later half of the record, where the slow exponential dominates; the explicit dashpot shifts the rate by O(ωΔt)".into()
                } else {
                    "a straight line through the logarithms of the gap's peaks; the explicit dashpot shifts the rate by O(ωΔt), sampling the peaks once per step adds about (ωΔt)² of noise over the decay observed".into()
                },
            ));
        }
        None => run.skip(
            "decay_rate",
            decay_what,
            "not measured: too few peaks above round-off to fit".into(),
        ),
    }
}

/// Relative error allowed between the simulated and the analytic damped
/// response (RK4 at 200 steps per fastest period errs by about 10⁻⁷; the
/// rest is margin), plus the finite-motion geometry term.
const RESPONSE_TOLERANCE: f64 = 1e-4;

/// Dashpots not proportional to the springs: their damped modes cannot be
/// excited one at a time, so the response to an impulse at the fastest
/// mode's pivot contact is compared with the analytic response of the
/// damped gap equations `g̈ + A C ġ + A K g = 0`, `e^{Ft} (0, A[:, i] P)`
/// with `F = [[0, I], [−AK, −AC]]` — the sum of the analysis' damped
/// modes. The simulator knows nothing of A: a wrong damped mode shows as a
/// wrong response.
pub(super) fn damped_response(run: &mut Run) {
    let an = run.an;
    let c = an.contacts.len();
    let damping: Vec<f64> = an
        .contacts
        .iter()
        .map(|r| r.damping.unwrap_or(0.0))
        .collect();
    let Some(damped_modes) = an.damped_modes.as_ref() else {
        return;
    };
    if c == 0 || an.modes.is_empty() || damping.iter().all(|&d| d == 0.0) {
        return;
    }
    let i = pivot_of(&an.modes[0].shape);
    let p = run.settings.impulse.get(i).copied().unwrap_or(0.0);
    let name = run.case.contact_name(i).into_owned();
    let what = format!("gaps after an impulse at {name} against the analytic damped response");
    if an.contacts[i].immobile || p <= 0.0 {
        return;
    }
    // Time scales from the analysis' damped modes.
    let fastest = damped_modes.iter().map(|m| m.omega).fold(0.0f64, f64::max);
    let slowest_decay = damped_modes
        .iter()
        .map(|m| slowest_decay(m.omega, m.zeta))
        .filter(|d| *d > 0.0)
        .fold(f64::INFINITY, f64::min);
    let slowest = damped_modes
        .iter()
        .map(|m| m.omega)
        .filter(|w| *w > 0.0)
        .fold(f64::INFINITY, f64::min);
    if !(fastest > 0.0 && fastest.is_finite() && slowest.is_finite()) {
        return;
    }
    let h = (std::f64::consts::TAU / fastest / STEPS_PER_PERIOD).min(0.5 * run.h_stable);
    // Five periods of the slowest mode, or until the slowest decay has
    // taken off three decades.
    let t_end = (5.0 * std::f64::consts::TAU / slowest)
        .min(3.0 * std::f64::consts::LN_10 / slowest_decay.max(f64::MIN_POSITIVE));
    let steps = match run.budget.take(t_end / h) {
        Ok(n) => n.max(1),
        Err(why) => {
            run.skip("damped_response", what, why);
            return;
        }
    };
    let k: Vec<f64> = an.contacts.iter().map(|r| r.stiffness).collect();
    let mut f = nalgebra::DMatrix::<f64>::zeros(2 * c, 2 * c);
    for r in 0..c {
        f[(r, c + r)] = 1.0;
        for s in 0..c {
            f[(c + r, s)] = -an.a(r, s) * k[s];
            f[(c + r, c + s)] = -an.a(r, s) * damping[s];
        }
    }
    // Sampled every `every` steps with the exact propagator over that time.
    let every = 10usize;
    let propagator = (f * (h * every as f64)).exp();
    let mut x = nalgebra::DVector::<f64>::zeros(2 * c);
    for r in 0..c {
        x[c + r] = an.a(r, i) * p;
    }
    let mut sim = (run.damped)();
    let g0 = sim.gaps();
    sim.impulse(i, p);
    let (mut worst, mut largest) = (0.0f64, 0.0f64);
    for n in 1..=steps {
        if sim.stopped() {
            break;
        }
        sim.step(h, Integrator::Rk4);
        if n % every == 0 {
            x = &propagator * &x;
            for (r, g) in sim.gaps().iter().enumerate() {
                let predicted = x[r];
                worst = worst.max((g - g0[r] - predicted).abs());
                largest = largest.max(predicted.abs());
            }
        }
    }
    if largest.is_nan() || largest <= 0.0 {
        run.skip(
            "damped_response",
            what,
            "not measured: the run ended before the first sample".into(),
        );
        return;
    }
    let rel = worst / largest;
    let amplitude = largest;
    let tolerance = RESPONSE_TOLERANCE + geometric_term(run, amplitude);
    let why = format!(
        "the dashpots are {}: the gaps of an RK4 run ({} a step, over {}) against e^(Ft)(0, A[:, i]P), F = [[0, I], [−AK, −AC]]; the largest difference relative to the largest gap, allowed {} (integration) plus the finite-motion geometry",
        if proportional(an, &damping) {
            "proportional to the springs"
        } else {
            "not proportional to the springs (the damped modes couple)"
        },
        crate::number::time(h, 3),
        crate::number::time(steps as f64 * h, 3),
        crate::number::sig(RESPONSE_TOLERANCE, 1)
    );
    run.check(Check {
        check: "damped_response",
        what,
        predicted: None,
        measured: None,
        rel_error: Some(rel),
        tolerance: Some(tolerance),
        agrees: Some(rel.is_finite() && rel <= tolerance),
        why,
    });
}

/// The envelope's decay rate of a damped mode (1/s): `ζω`, or the slower
/// rate `ω(ζ − √(ζ²−1))` of an overdamped pair.
fn slowest_decay(omega: f64, zeta: f64) -> f64 {
    if zeta >= 1.0 {
        omega * (zeta - (zeta * zeta - 1.0).sqrt())
    } else {
        zeta * omega
    }
}

/// True when `A C` maps every undamped mode shape onto itself.
fn proportional(an: &Analysis, damping: &[f64]) -> bool {
    an.modes
        .iter()
        .all(|mode| uncoupled(an, damping, &mode.shape).is_some())
}

/// `μ` with `A C s = μ s` when the dashpots do not couple the mode of shape
/// `s` to others (to 10⁻⁶); `None` when they do.
fn uncoupled(an: &Analysis, damping: &[f64], s: &[f64]) -> Option<f64> {
    let c = an.contacts.len();
    let r: Vec<f64> = (0..c)
        .map(|i| (0..c).map(|j| an.a(i, j) * damping[j] * s[j]).sum())
        .collect();
    let ss: f64 = s.iter().map(|x| x * x).sum();
    let mu = s.iter().zip(&r).map(|(a, b)| a * b).sum::<f64>() / ss;
    let resid = r
        .iter()
        .zip(s)
        .map(|(ri, si)| (ri - mu * si).powi(2))
        .sum::<f64>()
        .sqrt();
    let norm = r.iter().map(|x| x * x).sum::<f64>().sqrt();
    (resid <= 1e-6 * norm).then_some(mu)
}

/// Relative distance from the damped limit of the two runs that show it:
/// bounded just below, growing just above.
const DAMPED_LIMIT_MARGIN: f64 = 0.02;

/// The step the sheet tells the user to use with dashpots, simulated: the
/// simulator with its dashpots, by symplectic Euler (the dashpot force at
/// the step's start velocity, the integrator the limit is for), every mode
/// kicked, stays bounded at 0.98 × the step; when the step is the step
/// map's exact limit, a run at 1.02 × it grows a hundredfold three times
/// over (its length from the map's spectral radius there).
pub(super) fn damped_stability(run: &mut Run) {
    let an = run.an;
    // Over every row (tangential springs, a Hertz impact's peak) the step
    // is simulated on the system of every row (rows.rs).
    if an.tangential.is_some() || an.hertz_peak.is_some() {
        return;
    }
    let Some((h_lim, how)) = an.stable_dt.governing else {
        return;
    };
    let exact = match how {
        crate::analysis::Governing::DampedStepMap => true,
        crate::analysis::Governing::DampedEnergyBound => false,
        crate::analysis::Governing::CoupledMode | crate::analysis::Governing::UpperBound => {
            return;
        }
    };
    if an.modes.is_empty() || an.delassus.nrows() != an.contacts.len() {
        return;
    }
    let amplitude = run.settings.compression;
    let kick = |sim: &mut dyn Simulator| {
        // Every mode, with unequal weights: no motion is left out by a
        // symmetry of the kick.
        let n = an.modes.len() as f64;
        for k in 0..an.modes.len() {
            excite(sim, an, k, amplitude * (1.0 + 0.37 * k as f64) / n);
        }
    };
    let simulate = |h: f64, steps: usize| -> bool {
        let mut sim = (run.damped)();
        kick(sim.as_mut());
        for _ in 0..steps {
            if sim.stopped() {
                break;
            }
            sim.step(h, Integrator::SymplecticEuler);
            let g = sim.gaps().iter().fold(0.0f64, |m, g| m.max(g.abs()));
            if g.is_nan() || g > 100.0 * amplitude {
                return true;
            }
        }
        false
    };
    let below = (1.0 - DAMPED_LIMIT_MARGIN) * h_lim;
    let what_below = format!(
        "symplectic Euler with the dashpots at 0.98 × the step to use, Δt = {}, stays bounded",
        crate::number::time(below, 4)
    );
    let above = (1.0 + DAMPED_LIMIT_MARGIN) * h_lim;
    let k: Vec<f64> = an.contacts.iter().map(|c| c.stiffness).collect();
    let c: Vec<f64> = an
        .contacts
        .iter()
        .map(|c| c.damping.unwrap_or(0.0))
        .collect();
    let growth = exact
        .then(|| crate::analysis::stable::step_map_radius(&an.delassus, &k, &c, above))
        .flatten()
        .filter(|&r| r > 1.0);
    let grow_steps = growth.map(|r| (3.0 * 100f64.ln() / r.ln()).ceil().max(100.0));
    const BOUNDED_STEPS: f64 = 2000.0;
    if let Err(why) = run.budget.take(BOUNDED_STEPS + grow_steps.unwrap_or(0.0)) {
        run.skip("damped_stability", what_below, why);
        return;
    }
    let blew_up = simulate(below, BOUNDED_STEPS as usize);
    run.check(Check {
        check: "damped_stability",
        what: what_below,
        predicted: None,
        measured: None,
        rel_error: None,
        tolerance: None,
        agrees: Some(!blew_up),
        why: if exact {
            "below the step map's limit every motion of the damped system decays".into()
        } else {
            "the energy bound makes a norm of the state that never grows at this step".into()
        },
    });
    let (Some(r), Some(n)) = (growth, grow_steps) else {
        return;
    };
    let hundredfold = super::steps_to_grow(r, 100.0);
    let diverged = simulate(above, n as usize);
    run.check(Check {
        check: "damped_stability",
        what: format!(
            "symplectic Euler with the dashpots at 1.02 × the step to use, Δt = {}, diverges",
            crate::number::time(above, 4)
        ),
        predicted: None,
        measured: None,
        rel_error: None,
        tolerance: None,
        agrees: Some(diverged),
        why: format!(
            "there the step map's spectral radius is {r:.5}: the fastest-growing motion grows 100-fold in {hundredfold:.0} steps; {n:.0} steps were run"
        ),
    });
}
