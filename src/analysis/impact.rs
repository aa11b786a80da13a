//! Impacts (`[[impact]]`): contacts that close at a speed, with the linear
//! penalty law of the case — a spring `k` and, where given, a dashpot `c` —
//! and the rule that a closed contact pushes, never pulls:
//! `f = max(0, kδ + cδ̇)` while the penetration `δ > 0`, else 0.
//!
//! In contact space the response needs only the Delassus matrix: with the
//! contact forces `f` the penetrations obey `δ̈ = −A f` (A = J M⁻¹ Jᵀ of the
//! contacts involved, constraints included), so nothing else of the model
//! enters. Gravity does not act during the contact (a drop only sets the
//! speed), and J is the case's (small displacements), as everywhere else.
//!
//! One contact alone has closed forms ([`single`]). Several contacts — a
//! body landing on two corners, or struck while resting on others — are
//! solved by [`respond`]: between events the system is linear and is
//! advanced by its exact propagator `exp(L τ)` (a matrix exponential, no
//! truncation error); an event is a contact closing or releasing (the
//! force or the penetration crossing zero), found by bisection on the exact
//! solution to a few units in the last place of the time; peaks of force
//! and penetration are the zeros of their derivatives, found the same way.
//! The one remaining error is round-off (and an event two crossings of
//! which fall in one step, which the step — a fiftieth of the fastest time
//! scale — makes unlikely): [`Response::error`] measures it by solving again
//! with half the step.

use nalgebra::{DMatrix, DVector};
use std::collections::HashMap;
use std::f64::consts::PI;

/// Closed-form response of one contact of effective mass `m` struck at
/// speed `v` (the Kelvin–Voigt contact starting at δ = 0, δ̇ = v).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Single {
    /// Effective mass used (kg).
    pub mass: f64,
    /// Approach speed (m/s).
    pub speed: f64,
    /// ω = √(k/m) (rad/s).
    pub omega: f64,
    /// Damping ratio ζ = c/(2√(k m)).
    pub zeta: f64,
    /// `undamped`, `underdamped`, `critically damped` or `overdamped`.
    pub regime: &'static str,
    /// Θ(ζ): the contact lasts 2Θ/ω and compresses for Θ/ω
    /// (arccos ζ/√(1−ζ²); 1 at ζ = 1; arcosh ζ/√(ζ²−1) above).
    pub theta: f64,
    /// Peak force (N).
    pub peak_force: f64,
    /// Time of the peak force from first touch (s).
    pub time_to_peak: f64,
    /// Until the force returns to zero (s).
    pub duration: f64,
    /// Largest penetration (m).
    pub compression: f64,
    /// Time of the largest penetration (s).
    pub time_to_compression: f64,
    /// Separation speed when the force returns to zero (m/s).
    pub rebound_speed: f64,
    /// Rebound over approach speed.
    pub restitution: f64,
}

/// Θ(ζ) = arccos ζ/√(1−ζ²) (ζ < 1), 1 (ζ = 1), arcosh ζ/√(ζ²−1) (ζ > 1):
/// one function, analytic through ζ = 1 (a series there, where both
/// quotients are 0/0).
pub fn theta(zeta: f64) -> f64 {
    let d = zeta - 1.0;
    if d.abs() < 1e-5 {
        // Θ = 1 − d/3 + 2d²/15 − 2d³/35 + … (d = ζ − 1).
        return 1.0 - d / 3.0 + 2.0 * d * d / 15.0 - 2.0 * d * d * d / 35.0;
    }
    if zeta < 1.0 {
        let s = ((1.0 - zeta) * (1.0 + zeta)).sqrt();
        s.atan2(zeta) / s
    } else {
        // ln(ζ + q) = ln ζ + ln(1 + q/ζ), q = √((ζ−1)(ζ+1)) ≈ ζ where the
        // product would overflow.
        let q = if zeta > 1e150 {
            zeta
        } else {
            ((zeta - 1.0) * (zeta + 1.0)).sqrt()
        };
        (zeta.ln() + (q / zeta).ln_1p()) / q
    }
}

/// The closed forms of one contact: mass `m`, spring `k`, dashpot `c`
/// (0 for none), approach speed `v` > 0.
pub fn single(m: f64, k: f64, c: f64, v: f64) -> Single {
    let omega = (k / m).sqrt();
    // √k √m: k m alone overflows (or underflows) long before the ratio.
    let zeta = c / (2.0 * k.sqrt() * m.sqrt());
    let th = theta(zeta);
    let regime = if c == 0.0 {
        "undamped"
    } else if zeta < 1.0 {
        "underdamped"
    } else if zeta == 1.0 {
        "critically damped"
    } else {
        "overdamped"
    };
    // The force m(ω²δ + 2ζωδ̇) = (m v ω/s) e^{−ζωt} sin(ω_d t + φ) with
    // cos φ = 1 − 2ζ², sin φ = 2ζs peaks where ω_d t + φ = arccos ζ, after
    // t = 0 only while arccos ζ > φ = 2 arcsin ζ, i.e. ζ < 1/2; from ζ = 1/2
    // on it is largest at first touch, c v.
    let (peak_force, time_to_peak) = if c == 0.0 {
        (v * k.sqrt() * m.sqrt(), 0.5 * PI / omega)
    } else if zeta < 0.5 {
        let s = (1.0 - zeta * zeta).sqrt();
        let t = (s.atan2(zeta) - 2.0 * zeta.asin()) / (omega * s);
        (m * v * omega * (-zeta * omega * t).exp(), t)
    } else {
        (c * v, 0.0)
    };
    let restitution = (-2.0 * zeta * th).exp();
    Single {
        mass: m,
        speed: v,
        omega,
        zeta,
        regime,
        theta: th,
        peak_force,
        time_to_peak,
        duration: 2.0 * th / omega,
        compression: v / omega * (-zeta * th).exp(),
        time_to_compression: th / omega,
        rebound_speed: restitution * v,
        restitution,
    }
}

/// One contact's part in a (coupled) impact response.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ContactResponse {
    /// Largest force (N).
    pub peak_force: f64,
    /// Its time (s).
    pub time_to_peak: f64,
    /// When the contact first closed (s; 0 for a struck contact).
    pub start: f64,
    /// Length of the first closed interval, until the force first returns
    /// to zero (s).
    pub duration: f64,
    /// Largest penetration (m).
    pub compression: f64,
    /// Its time (s).
    pub time_to_compression: f64,
    /// Separation speed once every contact has opened for good (m/s;
    /// negative when the contact still closes).
    pub rebound_speed: f64,
    /// How many times the contact closed (1 unless it bounces).
    pub closings: usize,
}

/// The response of contacts struck together.
#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    /// Per contact, in the order given.
    pub contacts: Vec<ContactResponse>,
    /// Time when every contact is open and separating (s).
    pub end: f64,
    /// Contacts closing or releasing.
    pub events: usize,
    /// The step between checks for events (s).
    pub step: f64,
    /// Force history: times and, per contact, forces.
    pub history: History,
    /// Largest difference to a solution with half the step, relative to
    /// each quantity's own scale (the round-off and event location left).
    pub error: f64,
}

/// Sampled forces, for plots.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct History {
    /// Times (s).
    pub t: Vec<f64>,
    /// `force[i][k]`: contact i at `t[k]` (N).
    pub force: Vec<Vec<f64>>,
}

/// Why an impact has no response.
#[derive(Clone, Debug, PartialEq)]
pub enum ImpactError {
    /// A struck contact cannot move (a = 0).
    Immobile(usize),
    /// The contacts did not all open within the solver's step or event
    /// limit.
    NotEnded(Progress),
    /// The evaluation's work allowance ([`crate::control`]) was spent.
    OverBudget(Progress),
    /// The evaluation was cancelled (Ctrl-C in Python).
    Cancelled,
    /// The inputs (A k, A c) or a result overflow 64-bit floating point:
    /// what overflowed.
    Overflow(String),
    /// Not integrated: one contact at a sweep point or probe, where the
    /// closed forms are the results.
    ClosedForm,
    /// Not solved: no quantity read at this sweep point or probe is this
    /// impact's.
    NotAsked,
}

/// How far a solve that stopped got.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Steps taken.
    pub steps: usize,
    /// Closings and releases.
    pub events: usize,
    /// Time reached (s).
    pub time: f64,
    /// The step (s).
    pub step: f64,
}

impl std::fmt::Display for ImpactError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImpactError::Immobile(_) => {
                write!(
                    f,
                    "the contact is immobile: nothing moves when it is struck"
                )
            }
            ImpactError::NotEnded(p) => write!(
                f,
                "the contacts had not all separated for good after {} steps of {:.3e} s ({:.3e} s) and {} closings and releases, the solver's limit ({MAX_STEPS} steps or {MAX_EVENTS} closings and releases): a body trapped between contacts bounces on, or the motion is far slower than the fastest time scale",
                p.steps, p.step, p.time, p.events
            ),
            ImpactError::OverBudget(p) => write!(
                f,
                "not solved: the evaluation's work allowance for impacts, sweeps and claim probes was spent ({} steps of {:.3e} s taken here, up to {:.3e} s; {} closings and releases)",
                p.steps, p.step, p.time, p.events
            ),
            ImpactError::Cancelled => write!(f, "not solved: the evaluation was cancelled"),
            ImpactError::NotAsked => write!(f, "not solved: not asked for here"),
            ImpactError::ClosedForm => {
                write!(f, "not integrated: the closed forms are the results")
            }
            ImpactError::Overflow(what) => {
                write!(f, "{what} is outside what 64-bit floating point represents")
            }
        }
    }
}

/// The most steps of one response (at the coarser of the two steps; the
/// check at half the step may take twice as many); beyond it the impact
/// is reported as not ended. A contact phase takes about 160 steps, a
/// stiff resting contact under a soft struck one (ω 100 times apart)
/// 16,000: the bound leaves room for those and keeps a solve that never
/// ends (a body trapped between contacts, bouncing for ever) to a few
/// seconds.
pub const MAX_STEPS: usize = 100_000;

/// The most contact events (closings and releases) of one response.
pub const MAX_EVENTS: usize = 10_000;

/// Steps per fastest time scale.
const STEPS_PER_SCALE: f64 = 50.0;

/// The most samples kept for the force history.
const MAX_SAMPLES: usize = 600;

/// Solves the impact of the contacts of `a` (their Delassus block), springs
/// `k`, dashpots `c`, starting open at δ = 0 with approach speeds `v`
/// (0 for a resting contact), with the error estimate (a second solve at
/// half the step).
pub fn respond(a: &DMatrix<f64>, k: &[f64], c: &[f64], v: &[f64]) -> Result<Response, ImpactError> {
    respond_with(a, k, c, v, true)
}

/// As [`respond`]; without `check` the error estimate is not made
/// (`Response::error` is NaN): sweeps and claim probes, which re-solve at
/// every point and report no error, solve once.
pub fn respond_with(
    a: &DMatrix<f64>,
    k: &[f64],
    c: &[f64],
    v: &[f64],
    check: bool,
) -> Result<Response, ImpactError> {
    let n = k.len();
    for i in 0..n {
        if v[i] > 0.0 && (a[(i, i)] <= 0.0 || a[(i, i)].is_nan()) {
            return Err(ImpactError::Immobile(i));
        }
    }
    // The fastest rate of the system with every contact closed.
    let all = Solver::new(a, k, c, 1.0, 0);
    let full = all.matrix(&vec![true; n]);
    if full.iter().any(|x| !x.is_finite()) || v.iter().any(|x| !x.is_finite()) {
        return Err(ImpactError::Overflow(
            "a product of the contacts' A and their springs or dashpots".into(),
        ));
    }
    let h = 1.0 / (STEPS_PER_SCALE * fastest_rate(full, a, k, c));
    if !h.is_normal() {
        return Err(ImpactError::Overflow("the step 1/(50 |λ|max)".into()));
    }
    let fine = Solver::new(a, k, c, h, MAX_STEPS).run(v)?;
    if !check {
        return Ok(Response {
            error: f64::NAN,
            ..fine
        });
    }
    let check = Solver::new(a, k, c, h / 2.0, 2 * MAX_STEPS).run(v)?;
    let rel = |x: f64, y: f64, scale: f64| {
        if scale > 0.0 {
            (x - y).abs() / scale
        } else {
            0.0
        }
    };
    let mut error = 0.0f64;
    let fmax = fine
        .contacts
        .iter()
        .map(|r| r.peak_force)
        .fold(0.0f64, f64::max);
    let vmax = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    for (p, q) in fine.contacts.iter().zip(&check.contacts) {
        error = error
            .max(rel(p.peak_force, q.peak_force, fmax))
            .max(rel(p.duration, q.duration, fine.end))
            .max(rel(
                p.compression,
                q.compression,
                p.compression.max(q.compression),
            ))
            .max(rel(p.rebound_speed, q.rebound_speed, vmax));
    }
    Ok(Response { error, ..fine })
}

/// The largest |λ| of `l` (L with every contact closed), from the bounded
/// eigenvalues ([`super::eig`]); where they cannot be had, the norm bound
/// [`rate_bound`] (never smaller, so the step stays safe, only shorter).
fn fastest_rate(l: DMatrix<f64>, a: &DMatrix<f64>, k: &[f64], c: &[f64]) -> f64 {
    let z = crate::linalg::eig::complex_eigenvalues(l);
    if z.iter().any(|z| !z.re.is_finite() || !z.im.is_finite()) {
        return rate_bound(a, k, c);
    }
    z.iter()
        .map(|z| z.norm())
        .fold(0.0f64, f64::max)
        .max(f64::MIN_POSITIVE)
}

/// An upper bound on the spectral radius of L (every contact closed): the
/// ∞-norm of `D L D⁻¹`, D = diag(ω₀ I, I), ω₀² = maxᵢ Σⱼ |aᵢⱼ| kⱼ — that is
/// max(ω₀, maxᵢ Σⱼ |aᵢⱼ|(kⱼ/ω₀ + cⱼ)), within a factor of about 2 of the
/// fastest rate of an undamped system.
pub fn rate_bound(a: &DMatrix<f64>, k: &[f64], c: &[f64]) -> f64 {
    let n = k.len();
    let row = |i: usize, w: &[f64]| (0..n).map(|j| a[(i, j)].abs() * w[j]).sum::<f64>();
    let w0 = (0..n).map(|i| row(i, k)).fold(0.0f64, f64::max).sqrt();
    let lower = (0..n)
        .map(|i| {
            let springs = if w0 > 0.0 { row(i, k) / w0 } else { 0.0 };
            springs + row(i, c)
        })
        .fold(0.0f64, f64::max);
    w0.max(lower).max(f64::MIN_POSITIVE)
}

/// Work units ([`crate::control`]) of one step with `n` contacts (a product of
/// the 2n × 2n propagator with the state, and its bookkeeping). Units are
/// about nanoseconds on the reference machine: measured by
/// `calibrate::units_per_second` (2 µs a matrix exponential at n = 1,
/// 115 µs at n = 16; 0.18 µs a step at n = 2).
fn step_cost(n: usize) -> u64 {
    (16 * n * n) as u64 + 400
}

/// Work units of one matrix exponential of order 2n (see [`step_cost`]).
fn exp_cost(n: usize) -> u64 {
    110 * (4 * n * n) as u64 + 2_000
}

struct Solver<'a> {
    a: &'a DMatrix<f64>,
    k: &'a [f64],
    c: &'a [f64],
    h: f64,
    /// Most steps.
    max_steps: usize,
    /// exp(L h) per active set.
    steps: HashMap<Vec<bool>, DMatrix<f64>>,
}

/// A trajectory piece's end: state and active set.
type State = DVector<f64>;

impl<'a> Solver<'a> {
    fn new(a: &'a DMatrix<f64>, k: &'a [f64], c: &'a [f64], h: f64, max_steps: usize) -> Self {
        Solver {
            a,
            k,
            c,
            h,
            max_steps,
            steps: HashMap::new(),
        }
    }

    fn n(&self) -> usize {
        self.k.len()
    }

    /// L of ẋ = L x, x = (δ, δ̇), with the contacts of `active` pushing.
    fn matrix(&self, active: &[bool]) -> DMatrix<f64> {
        let n = self.n();
        let mut l = DMatrix::zeros(2 * n, 2 * n);
        for i in 0..n {
            l[(i, n + i)] = 1.0;
            for j in 0..n {
                if active[j] {
                    l[(n + i, j)] = -self.a[(i, j)] * self.k[j];
                    l[(n + i, n + j)] = -self.a[(i, j)] * self.c[j];
                }
            }
        }
        l
    }

    fn step_matrix(&mut self, active: &[bool]) -> &DMatrix<f64> {
        if !self.steps.contains_key(active) {
            crate::control::charge(exp_cost(self.n()));
            let e = (self.matrix(active) * self.h).exp();
            self.steps.insert(active.to_vec(), e);
        }
        &self.steps[active]
    }

    fn advance(&self, active: &[bool], x: &State, tau: f64) -> State {
        // Spent shows at the next step of `run`.
        crate::control::charge(exp_cost(self.n()));
        (self.matrix(active) * tau).exp() * x
    }

    fn force(&self, x: &State, i: usize) -> f64 {
        self.k[i] * x[i] + self.c[i] * x[self.n() + i]
    }

    /// min(δ, kδ + cδ̇): positive exactly when the contact pushes.
    fn closed(&self, x: &State, i: usize) -> f64 {
        x[i].min(self.force(x, i))
    }

    /// δ̈ with the contacts of `active` pushing.
    fn accel(&self, active: &[bool], x: &State) -> DVector<f64> {
        let n = self.n();
        let f = DVector::from_fn(n, |j, _| if active[j] { self.force(x, j) } else { 0.0 });
        -(self.a * f)
    }

    /// ḟ of contact i, given δ̈ (`acc`).
    fn rate(&self, x: &State, acc: &DVector<f64>, i: usize) -> f64 {
        self.k[i] * x[self.n() + i] + self.c[i] * acc[i]
    }

    /// ḟ of contact i.
    fn force_rate(&self, active: &[bool], x: &State, i: usize) -> f64 {
        self.rate(x, &self.accel(active, x), i)
    }

    fn inconsistent(&self, active: &[bool], x: &State) -> bool {
        (0..self.n()).any(|i| {
            let s = self.closed(x, i);
            if active[i] { s <= 0.0 } else { s > 0.0 }
        })
    }

    /// The time in (0, tau] where `pred` first turns true on the exact
    /// solution from `x` (true at `tau`, false at 0).
    fn bisect(&self, active: &[bool], x: &State, tau: f64, pred: impl Fn(&State) -> bool) -> f64 {
        let (mut lo, mut hi) = (0.0, tau);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if pred(&self.advance(active, x, mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi
    }

    fn run(mut self, v: &[f64]) -> Result<Response, ImpactError> {
        let n = self.n();
        let mut x = DVector::zeros(2 * n);
        for i in 0..n {
            x[n + i] = v[i];
        }
        let mut active: Vec<bool> = v.iter().map(|&s| s > 0.0).collect();
        let (mut out, mut history) = self.at_first_touch(&x, &active);
        let mut t = 0.0;
        let mut events = 0;
        let mut steps = 0usize;
        let h = self.h;
        loop {
            // Ended: nothing pushes and nothing approaches.
            if !active.iter().any(|&b| b) && (0..n).all(|i| x[n + i] <= 0.0) {
                break;
            }
            if !active.iter().any(|&b| b) {
                t += skip_free_flight(&mut x, n, h);
            }
            steps += 1;
            let progress = Progress {
                steps,
                events,
                time: t,
                step: h,
            };
            if steps > self.max_steps || events > MAX_EVENTS {
                return Err(ImpactError::NotEnded(progress));
            }
            if !crate::control::charge(step_cost(n)) || crate::control::spent() {
                return Err(ImpactError::OverBudget(progress));
            }
            if crate::control::cancelled() {
                return Err(ImpactError::Cancelled);
            }
            let mut next = self.step_matrix(&active) * &x;
            let mut tau = h;
            let event = self.inconsistent(&active, &next);
            if event {
                tau = self.bisect(&active, &x, h, |y| self.inconsistent(&active, y));
                next = self.advance(&active, &x, tau);
            }
            self.peaks_inside(&active, &x, &next, tau, t, &mut out);
            t += tau;
            x = next;
            self.peaks_at_end(&active, &x, t, &mut out);
            if event {
                events += 1;
                self.switch_contacts(&mut active, &x, t, &mut out);
            }
            history.t.push(t);
            for i in 0..n {
                history.force[i].push(if active[i] {
                    self.force(&x, i).max(0.0)
                } else {
                    0.0
                });
            }
        }
        for (i, r) in out.iter_mut().enumerate() {
            r.rebound_speed = -x[n + i];
            if r.start.is_nan() {
                r.start = 0.0;
                r.duration = 0.0;
                r.closings = 0;
            }
        }
        Ok(Response {
            contacts: out,
            end: t,
            events,
            step: h,
            history: decimate(history),
            error: 0.0,
        })
    }

    /// The per-contact results and the force history at t = 0, when the
    /// struck contacts touch.
    fn at_first_touch(&self, x: &State, active: &[bool]) -> (Vec<ContactResponse>, History) {
        let n = self.n();
        let out = (0..n)
            .map(|i| ContactResponse {
                peak_force: if active[i] {
                    self.force(x, i).max(0.0)
                } else {
                    0.0
                },
                time_to_peak: 0.0,
                start: if active[i] { 0.0 } else { f64::NAN },
                duration: f64::NAN,
                compression: 0.0,
                time_to_compression: 0.0,
                rebound_speed: f64::NAN,
                closings: usize::from(active[i]),
            })
            .collect();
        let history = History {
            t: vec![0.0],
            force: (0..n)
                .map(|i| {
                    vec![if active[i] {
                        self.force(x, i).max(0.0)
                    } else {
                        0.0
                    }]
                })
                .collect(),
        };
        (out, history)
    }

    /// Peaks of force and penetration inside the piece from `x` to `next`
    /// (length `tau`, starting at `t`): zeros of their rates going from +
    /// to −, located by bisection.
    fn peaks_inside(
        &self,
        active: &[bool],
        x: &State,
        next: &State,
        tau: f64,
        t: f64,
        out: &mut [ContactResponse],
    ) {
        let n = self.n();
        let (acc0, acc1) = (self.accel(active, x), self.accel(active, next));
        for i in 0..n {
            if !active[i] {
                continue;
            }
            let r0 = self.rate(x, &acc0, i);
            let r1 = self.rate(next, &acc1, i);
            if r0 > 0.0 && r1 <= 0.0 {
                let s = self.bisect(active, x, tau, |y| self.force_rate(active, y, i) <= 0.0);
                let y = self.advance(active, x, s);
                let f = self.force(&y, i);
                if f > out[i].peak_force {
                    out[i].peak_force = f;
                    out[i].time_to_peak = t + s;
                }
            }
        }
        for i in 0..n {
            if x[n + i] > 0.0 && next[n + i] <= 0.0 {
                let s = self.bisect(active, x, tau, |y| y[n + i] <= 0.0);
                let y = self.advance(active, x, s);
                if y[i] > out[i].compression {
                    out[i].compression = y[i];
                    out[i].time_to_compression = t + s;
                }
            }
        }
    }

    /// Force and penetration at the end of a piece, time `t`.
    fn peaks_at_end(&self, active: &[bool], x: &State, t: f64, out: &mut [ContactResponse]) {
        for (i, r) in out.iter_mut().enumerate() {
            if active[i] {
                let f = self.force(x, i);
                if f > r.peak_force {
                    r.peak_force = f;
                    r.time_to_peak = t;
                }
            }
            if x[i] > r.compression {
                r.compression = x[i];
                r.time_to_compression = t;
            }
        }
    }

    /// At an event: contacts that closed start pushing (a first closing
    /// starts the contact's duration), contacts that opened stop (a first
    /// opening ends it).
    fn switch_contacts(&self, active: &mut [bool], x: &State, t: f64, out: &mut [ContactResponse]) {
        for (i, r) in out.iter_mut().enumerate() {
            let now = self.closed(x, i) > 0.0;
            if now == active[i] {
                continue;
            }
            if now {
                r.closings += 1;
                if r.start.is_nan() {
                    r.start = t;
                }
                let f = self.force(x, i);
                if f > r.peak_force {
                    r.peak_force = f;
                    r.time_to_peak = t;
                }
            } else if r.duration.is_nan() {
                r.duration = t - r.start;
            }
            active[i] = now;
        }
    }
}

/// At most [`MAX_SAMPLES`] samples, evenly taken (first and last kept).
fn decimate(h: History) -> History {
    let len = h.t.len();
    if len <= MAX_SAMPLES {
        return h;
    }
    let pick: Vec<usize> = (0..MAX_SAMPLES)
        .map(|j| j * (len - 1) / (MAX_SAMPLES - 1))
        .collect();
    History {
        t: pick.iter().map(|&j| h.t[j]).collect(),
        force: h
            .force
            .iter()
            .map(|f| pick.iter().map(|&j| f[j]).collect())
            .collect(),
    }
}

/// Sampled force of the closed form, for the naive curve of a plot: the
/// same solver on one contact.
pub fn single_history(m: f64, k: f64, c: f64, v: f64) -> History {
    // One run at the step `respond` takes; no error check (a plot).
    let omega = (k / m).sqrt();
    let rate = omega.max(c / m);
    // No plot from numbers beyond floating point (and no matrix
    // exponential of an infinite matrix, which would not return).
    if !(rate.is_normal() && (k / m).is_finite() && (1.0 / m).is_finite()) {
        return History::default();
    }
    let a = DMatrix::from_element(1, 1, 1.0 / m);
    Solver::new(&a, &[k], &[c], 1.0 / (STEPS_PER_SCALE * rate), MAX_STEPS)
        .run(&[v])
        .map(|r| r.history)
        .unwrap_or_default()
}

mod flight;
mod run;
use flight::skip_free_flight;
pub use run::{ImpactResult, run};

#[cfg(test)]
mod calibrate {
    use super::*;

    /// Prints work units per second of impact solves (run by hand:
    /// `cargo test --lib calibrate -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn units_per_second() {
        for n in [1usize, 2, 4, 8, 16] {
            let a = DMatrix::from_fn(n, n, |i, j| {
                if i == j {
                    2.0
                } else {
                    0.3 / (1.0 + (i + j) as f64)
                }
            });
            let k: Vec<f64> = (0..n).map(|i| 1e5 * (1.0 + i as f64)).collect();
            let c: Vec<f64> = (0..n).map(|i| 10.0 * i as f64).collect();
            let v: Vec<f64> = (0..n).map(|i| if i % 2 == 0 { 1.0 } else { 0.0 }).collect();
            let t = std::time::Instant::now();
            let total = 1u64 << 50;
            let mut reps = 0;
            let left = crate::control::work_scope(total, || {
                while t.elapsed().as_secs_f64() < 1.0 {
                    let _ = respond_with(&a, &k, &c, &v, false);
                    reps += 1;
                }
                crate::control::left().unwrap()
            });
            let used = total - left;
            let secs = t.elapsed().as_secs_f64();
            eprintln!("n={n}: {reps} solves, {:.3e} units/s", used as f64 / secs);
        }
        // A solve that runs to its step limit (a pinched block).
        let a = DMatrix::from_row_slice(2, 2, &[2.0, -2.0, -2.0, 2.0]);
        let t = std::time::Instant::now();
        let total = 1u64 << 50;
        let left = crate::control::work_scope(total, || {
            let _ = respond_with(&a, &[1e4, 1e4], &[0.0, 0.0], &[1.0, 0.0], true);
            crate::control::left().unwrap()
        });
        let secs = t.elapsed().as_secs_f64();
        eprintln!(
            "pinched: {secs:.3} s, {:.3e} units/s",
            (total - left) as f64 / secs
        );
    }
}
