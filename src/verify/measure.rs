//! Measurements on simulated runs: exciting one mode, timing zero
//! crossings of a gap (cubic Hermite interpolation between steps), the
//! decay of its peaks, and relative errors.

use super::sim::{Integrator, Simulator};
use crate::analysis::Analysis;

pub(super) fn rel_error(predicted: &[f64], measured: &[f64]) -> f64 {
    let scale = predicted.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if scale == 0.0 {
        return 0.0;
    }
    predicted
        .iter()
        .zip(measured)
        .map(|(p, m)| (p - m).abs())
        .fold(0.0, f64::max)
        / scale
}

/// Excites mode `k` alone with gap amplitude `amplitude`: impulses
/// `P = α K s` make the initial gap rates `α ω² s`.
pub(super) fn excite(sim: &mut dyn Simulator, an: &Analysis, k: usize, amplitude: f64) {
    let mode = &an.modes[k];
    let alpha = amplitude / mode.omega;
    for (i, s) in mode.shape.iter().enumerate() {
        if *s != 0.0 {
            sim.impulse(i, -alpha * an.contacts[i].stiffness * s);
        }
    }
}

/// Runs `steps` steps and measures the angular frequency of gap `pivot`
/// from its zero crossings (cubic Hermite interpolation between steps).
pub(super) fn measure(
    sim: &mut dyn Simulator,
    pivot: usize,
    h: f64,
    steps: usize,
    integrator: Integrator,
) -> Option<f64> {
    measure_recording(sim, pivot, h, steps, integrator, None)
}

/// [`measure`], also recording (t, gap) for the first `record.1` steps.
pub(super) fn measure_recording(
    sim: &mut dyn Simulator,
    pivot: usize,
    h: f64,
    steps: usize,
    integrator: Integrator,
    mut record: Option<(&mut Vec<(f64, f64)>, usize)>,
) -> Option<f64> {
    let mut t = 0.0;
    let (mut y0, mut d0) = (sim.gaps()[pivot], sim.gap_rates()[pivot]);
    let mut crossings: Vec<f64> = Vec::new();
    for _ in 0..steps {
        if sim.stopped() {
            break;
        }
        sim.step(h, integrator);
        let (y1, d1) = (sim.gaps()[pivot], sim.gap_rates()[pivot]);
        if (y0 < 0.0 && y1 >= 0.0) || (y0 > 0.0 && y1 <= 0.0) {
            crossings.push(t + h * hermite_root(y0, d0 * h, y1, d1 * h));
        }
        if let Some((history, n)) = record.as_mut()
            && history.len() < *n
        {
            history.push((t + h, y1));
        }
        t += h;
        (y0, d0) = (y1, d1);
    }
    // Skip the start (the excitation begins at a zero of the gap).
    let cs: Vec<f64> = crossings.into_iter().filter(|&c| c > h * 0.5).collect();
    if cs.len() < 3 {
        return None;
    }
    let span = cs[cs.len() - 1] - cs[0];
    Some(std::f64::consts::PI * (cs.len() - 1) as f64 / span)
}

/// Root in [0, 1] of the cubic Hermite interpolant with values y0, y1 and
/// scaled slopes m0, m1 (Newton from the linear guess).
fn hermite_root(y0: f64, m0: f64, y1: f64, m1: f64) -> f64 {
    let f = |s: f64| {
        let (s2, s3) = (s * s, s * s * s);
        (2.0 * s3 - 3.0 * s2 + 1.0) * y0
            + (s3 - 2.0 * s2 + s) * m0
            + (-2.0 * s3 + 3.0 * s2) * y1
            + (s3 - s2) * m1
    };
    let df = |s: f64| {
        let s2 = s * s;
        (6.0 * s2 - 6.0 * s) * y0
            + (3.0 * s2 - 4.0 * s + 1.0) * m0
            + (-6.0 * s2 + 6.0 * s) * y1
            + (3.0 * s2 - 2.0 * s) * m1
    };
    let mut s = if y0 != y1 { y0 / (y0 - y1) } else { 0.5 };
    for _ in 0..20 {
        let d = df(s);
        if d == 0.0 {
            break;
        }
        let next = (s - f(s) / d).clamp(0.0, 1.0);
        if (next - s).abs() < 1e-15 {
            s = next;
            break;
        }
        s = next;
    }
    s
}

pub(super) fn pivot_of(shape: &[f64]) -> usize {
    shape.iter().position(|&x| x == 1.0).unwrap_or(0)
}

/// What a damped run shows: the damped frequency (from zero crossings) and
/// the decay rate (from the peaks of |gap| between crossings, a
/// least-squares line through their logarithms).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Decay {
    /// Damped angular frequency (rad/s), when at least three crossings
    /// were seen.
    pub omega_d: Option<f64>,
    /// Decay rate σ of the envelope e^(−σt) (1/s), when it could be fitted.
    pub sigma: Option<f64>,
}

/// Runs a damped free vibration of gap `pivot` until its envelope has
/// decayed by `drop` (or `steps` steps) and measures frequency and decay.
/// Peaks below `floor` (round-off of the gap) are not used.
pub(super) fn measure_decay(
    sim: &mut dyn Simulator,
    pivot: usize,
    h: f64,
    steps: usize,
    floor: f64,
    oscillating: bool,
) -> Decay {
    let mut t = 0.0;
    let (mut y0, mut d0) = (sim.gaps()[pivot], sim.gap_rates()[pivot]);
    let mut crossings: Vec<f64> = Vec::new();
    let mut peaks: Vec<(f64, f64)> = Vec::new();
    let mut samples: Vec<(f64, f64)> = Vec::new();
    let mut best = (0.0, 0.0);
    for _ in 0..steps {
        if sim.stopped() {
            break;
        }
        sim.step(h, Integrator::VelocityVerlet);
        let (y1, d1) = (sim.gaps()[pivot], sim.gap_rates()[pivot]);
        t += h;
        if y1.abs() > best.1 {
            best = (t, y1.abs());
        }
        if (y0 < 0.0 && y1 >= 0.0) || (y0 > 0.0 && y1 <= 0.0) {
            crossings.push(t - h + h * hermite_root(y0, d0 * h, y1, d1 * h));
            if best.1 > floor {
                peaks.push(best);
            }
            best = (0.0, 0.0);
        }
        if y1.abs() > floor {
            samples.push((t, y1.abs()));
        }
        (y0, d0) = (y1, d1);
        if y1.abs() < floor
            && t > 10.0 * h
            && (!oscillating || peaks.len() >= 3)
            && samples.len() > 10
        {
            break;
        }
    }
    let cs: Vec<f64> = crossings.into_iter().filter(|&c| c > h * 0.5).collect();
    let omega_d = (cs.len() >= 3)
        .then(|| std::f64::consts::PI * (cs.len() - 1) as f64 / (cs[cs.len() - 1] - cs[0]));
    // Oscillating: the envelope through the peaks (the first half-cycle,
    // still building up from the impulse, left out). Not oscillating: the
    // late half of the record, where the slowest exponential dominates.
    let sigma = if oscillating {
        (peaks.len() >= 4)
            .then(|| fit_log_slope(&peaks[1..]))
            .flatten()
            .map(|s| -s)
    } else {
        fit_log_slope(&samples[samples.len() / 2..]).map(|s| -s)
    };
    Decay { omega_d, sigma }
}

/// Least-squares slope of ln y against t.
fn fit_log_slope(points: &[(f64, f64)]) -> Option<f64> {
    if points.len() < 3 {
        return None;
    }
    let n = points.len() as f64;
    let (st, sy) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), (t, y)| (a + t, b + y.ln()));
    let (mt, my) = (st / n, sy / n);
    let (mut num, mut den) = (0.0, 0.0);
    for (t, y) in points {
        num += (t - mt) * (y.ln() - my);
        den += (t - mt) * (t - mt);
    }
    (den > 0.0).then(|| num / den)
}
