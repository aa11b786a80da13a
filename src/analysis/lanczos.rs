//! The fastest modes of the large path's `S` by the Lanczos recurrence
//! without re-orthogonalisation (Cullum and Willoughby's method).
//!
//! The three-term recurrence `β_j v_{j+1} = S v_j − α_j v_j − β_{j−1} v_{j−1}`
//! needs three vectors, whatever the number of steps: memory O(c), and a
//! step is one pass over S plus two light passes over the vectors. In
//! floating point the Lanczos vectors lose orthogonality as Ritz values
//! converge, and the tridiagonal `T_m` then holds extra copies of converged
//! eigenvalues ("ghosts") and, transiently, spurious values. Neither
//! misleads once they are recognised (Cullum and Willoughby, *Lanczos
//! Algorithms for Large Symmetric Eigenvalue Computations*, 1985):
//!
//! - copies of one eigenvalue are eigenvalues of `T_m` that agree to
//!   [`MERGE`]`·θ_max`: one value is reported;
//! - a simple eigenvalue of `T_m` that is also an eigenvalue of `T̂_m`
//!   (`T_m` without its first row and column) is spurious: it does not
//!   belong to S. It is passed over only below a value already accepted,
//!   and only while unconverged: a genuine top value whose eigenvector
//!   barely meets the start vector can look spurious too, and passing it
//!   over would make ω_max a lower mode's.
//!
//! A remaining Ritz value θ is converged when its Ritz estimate
//! `β_m |s_m|` (s its unit eigenvector of `T_m`) is at most
//! [`TOLERANCE`]`·θ_max`. Paige's analysis of the finite-precision
//! recurrence shows that a Ritz value with a small estimate lies that
//! close to an eigenvalue of S, loss of orthogonality or not; it is the
//! same test ARPACK applies. When mode shapes are wanted, the recurrence is
//! run a second time from the same start (the same bits: fixed start vector,
//! fixed summation order) to form the Ritz vectors `y = V s`, and each
//! mode's true residual `|S y − θ y| / |y|` is measured with one more
//! product and reported instead of the estimate.
//!
//! `T_m`'s eigenvalues are found one at a time from the top by bisection on
//! Sturm counts (O(m) a count), its eigenvectors by inverse iteration, so a
//! convergence check costs O(m) per value and no dense m×m matrix is formed.
//! Why not ARPACK or thick restart: full re-orthogonalisation against a
//! basis cost twice the product per step (benches/results/scale.md before
//! this solver), and the plain recurrence needs as many products as the
//! restarted one on the packings measured, at a third of the step time.
//!
//! Known limit: a single-vector Krylov method sees one direction of an
//! eigenspace, so an exactly repeated eigenvalue is reported once; the
//! listed modes are the fastest *distinct* values. ω_max and the stable
//! timestep do not depend on multiplicity.

use super::Mode;
use super::coupled::{Coupled, LargeInfo};
use super::kernels::{CHUNK, dot4};
use super::local_csr::LocalCsr;
use rayon::prelude::*;

/// Relative Ritz estimate (or residual) below which a value counts as
/// converged.
pub const TOLERANCE: f64 = 1e-10;
/// Most steps of the recurrence before giving up on convergence.
pub const MAX_STEPS: usize = 6000;

/// The products one run may take, in stored entries of S times products:
/// this much, plus [`PRODUCT_WORK_PER_CONTACT`] per row. Beyond it the
/// recurrence stops and the unconverged values give way to the Gershgorin
/// bound, so a dense S (a pile of 1,000 bodies with 200,000 contacts at
/// their centres: 1.6·10⁸ entries, 0.35 s a product) cannot take its
/// 6,000 steps (35 minutes); 1.5–7 s of products at the 2-core
/// machine's 2–6.5·10⁸ entries a second (a pile of 1,000 bodies with
/// 200,000 contacts with the world in random directions: 15.4 s with
/// 2·10⁹, 75 steps). The packings of benches/results/scale.md (150–450
/// steps of S with about 10 stored entries a row) stay inside it.
pub const PRODUCT_WORK: u64 = 1_000_000_000;

/// See [`PRODUCT_WORK`]: the part that grows with the input.
pub const PRODUCT_WORK_PER_CONTACT: u64 = 5_000;

/// The most steps of a run over `stored` entries and `rows` rows (the
/// replay for mode shapes counted as a second pass), at least 16.
pub fn step_bound(stored: usize, rows: usize, shapes: bool) -> usize {
    step_bound_for(stored, rows, shapes)
}

/// [`step_bound`] with the allowance of `units` rows: a contact with
/// tangential springs counts its rows squared (three rows, each coupled
/// to three times the rows a normal row is), so that S over every row
/// gets as many steps as the normal rows' S does (`large_rows.rs`).
fn step_bound_for(stored: usize, units: usize, shapes: bool) -> usize {
    let work = PRODUCT_WORK.saturating_add(PRODUCT_WORK_PER_CONTACT.saturating_mul(units as u64));
    let per_step = (stored as u64)
        .max(1)
        .saturating_mul(if shapes { 2 } else { 1 });
    usize::try_from(work / per_step)
        .unwrap_or(MAX_STEPS)
        .clamp(16, MAX_STEPS)
}
/// Eigenvalues of `T_m` within this fraction of θ_max are one value (copies
/// of a converged eigenvalue), and a simple eigenvalue this close to one of
/// `T̂_m` is spurious.
pub const MERGE: f64 = 1e-12;

/// The recurrence's state: `v_{j−1}`, `v_j`, a work vector and `β_{j−1}`.
/// The Lanczos vectors are kept as computed, `u_j = β_j v_j`, with their
/// scales `1/β_j`: the products and updates take the scale as a factor,
/// so no pass over memory only divides a vector by its norm.
struct Recurrence {
    prev: Vec<f64>,
    prev_scale: f64,
    v: Vec<f64>,
    scale: f64,
    w: Vec<f64>,
    beta: f64,
    /// Time spent in products (for `MEFF_TIMINGS`).
    product_time: std::time::Duration,
}

impl Recurrence {
    /// The deterministic start vector (every component nonzero), unit.
    fn new(c: usize) -> Recurrence {
        Recurrence::from_phase(c, 0.618_033_988_749_894_9)
    }

    /// The start vector `1 + ½ frac(i·phase)`, unit.
    fn from_phase(c: usize, phase: f64) -> Recurrence {
        let mut v: Vec<f64> = (0..c)
            .map(|i| 1.0 + 0.5 * ((i as f64) * phase).fract())
            .collect();
        let n = dot(&v, &v).sqrt();
        v.iter_mut().for_each(|x| *x /= n);
        Recurrence {
            prev: vec![0.0; c],
            prev_scale: 0.0,
            v,
            scale: 1.0,
            w: vec![0.0; c],
            beta: 0.0,
            product_time: std::time::Duration::ZERO,
        }
    }

    /// The unit Lanczos vector `v_j`, as (stored vector, its scale).
    fn unit(&self) -> (&[f64], f64) {
        (&self.v, self.scale)
    }

    /// One step: `w = S v − β prev`, `α = vᵀ w`, `w −= α v`; returns
    /// `(α, |w|)`. [`advance`](Self::advance) then makes `w/|w|` the next v.
    fn step(&mut self, s: &LocalCsr) -> (f64, f64) {
        let t0 = std::time::Instant::now();
        let alpha = s.mul_sub_dot(
            &self.v,
            self.scale,
            &self.prev,
            self.beta * self.prev_scale,
            &mut self.w,
        );
        self.product_time += t0.elapsed();
        let norm2 = axpy_norm2(&mut self.w, alpha * self.scale, &self.v);
        (alpha, norm2.sqrt())
    }

    /// `prev ← v`, `v ← w` with scale `1/β`.
    fn advance(&mut self, beta: f64) {
        std::mem::swap(&mut self.prev, &mut self.v);
        std::mem::swap(&mut self.v, &mut self.w);
        self.prev_scale = self.scale;
        self.scale = 1.0 / beta;
        self.beta = beta;
    }
}

/// `w −= a v`, returning `|w|²` (fixed chunks, so the same bits anywhere).
fn axpy_norm2(w: &mut [f64], a: f64, v: &[f64]) -> f64 {
    w.par_chunks_mut(CHUNK)
        .zip(v.par_chunks(CHUNK))
        .map(|(ws, vs)| {
            for (o, x) in ws.iter_mut().zip(vs) {
                *o -= a * x;
            }
            dot4(ws, ws)
        })
        .collect::<Vec<f64>>()
        .iter()
        .sum()
}

/// A dot product summed in fixed chunks (same bits on any thread count).
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.par_chunks(CHUNK)
        .zip(b.par_chunks(CHUNK))
        .map(|(x, y)| dot4(x, y))
        .collect::<Vec<f64>>()
        .iter()
        .sum()
}

/// A symmetric tridiagonal matrix: diagonal `a`, off-diagonal `b`
/// (`b.len() == a.len() − 1`, all `b > 0` for an unreduced Lanczos matrix).
#[derive(Clone, Copy)]
pub struct Tridiagonal<'a> {
    /// Diagonal.
    pub a: &'a [f64],
    /// Off-diagonal.
    pub b: &'a [f64],
}

impl Tridiagonal<'_> {
    fn n(&self) -> usize {
        self.a.len()
    }

    /// Gershgorin interval containing every eigenvalue.
    fn bounds(&self) -> (f64, f64) {
        let n = self.n();
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for i in 0..n {
            let r = if i > 0 { self.b[i - 1].abs() } else { 0.0 }
                + if i + 1 < n { self.b[i].abs() } else { 0.0 };
            lo = lo.min(self.a[i] - r);
            hi = hi.max(self.a[i] + r);
        }
        (lo, hi)
    }

    /// Smallest pivot magnitude in Sturm counts (LAPACK's PIVMIN).
    fn pivmin(&self) -> f64 {
        let e2 = self.b.iter().fold(1.0f64, |m, x| m.max(x * x));
        f64::MIN_POSITIVE * e2
    }

    /// Number of eigenvalues below `x` (the negative pivots of `T − xI`).
    pub fn count_below(&self, x: f64) -> usize {
        let pivmin = self.pivmin();
        let mut count = 0;
        let mut q = 1.0;
        for i in 0..self.n() {
            let off = if i > 0 {
                self.b[i - 1] * self.b[i - 1] / q
            } else {
                0.0
            };
            q = self.a[i] - x - off;
            if q.abs() < pivmin {
                q = -pivmin;
            }
            if q < 0.0 {
                count += 1;
            }
        }
        count
    }

    /// The k-th largest eigenvalue (k from 1), by bisection to the last bits.
    pub fn kth_largest(&self, k: usize, (mut lo, mut hi): (f64, f64)) -> f64 {
        let target = self.n() - k; // eigenvalues below it
        let pad = (hi - lo).abs().max(hi.abs()) * f64::EPSILON * 4.0 + self.pivmin();
        lo -= pad;
        hi += pad;
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if self.count_below(mid) > target {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        0.5 * (lo + hi)
    }

    /// A unit eigenvector for the eigenvalue `theta`, by inverse iteration
    /// on `T − θI` factored with partial pivoting.
    pub fn eigenvector(&self, theta: f64) -> Vec<f64> {
        let n = self.n();
        let (lo, hi) = self.bounds();
        let tiny = f64::EPSILON * lo.abs().max(hi.abs()).max(f64::MIN_POSITIVE);
        let lu = TriLu::new(*self, theta, tiny);
        let mut x: Vec<f64> = (0..n)
            .map(|i| 1.0 + 0.5 * ((i as f64) * 0.754_877_666_246_692_7).fract())
            .collect();
        for _ in 0..3 {
            lu.solve(&mut x);
            let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
            if !(norm.is_finite() && norm > 0.0) {
                break;
            }
            x.iter_mut().for_each(|v| *v /= norm);
        }
        x
    }
}

/// `T − θI = P L U` for a tridiagonal T (U has two superdiagonals).
struct TriLu {
    u0: Vec<f64>,
    u1: Vec<f64>,
    u2: Vec<f64>,
    l: Vec<f64>,
    swap: Vec<bool>,
}

impl TriLu {
    fn new(t: Tridiagonal<'_>, theta: f64, tiny: f64) -> TriLu {
        let n = t.n();
        let mut f = TriLu {
            u0: vec![0.0; n],
            u1: vec![0.0; n],
            u2: vec![0.0; n],
            l: vec![0.0; n],
            swap: vec![false; n],
        };
        let nonzero = |d: f64| if d == 0.0 { tiny } else { d };
        // Row k being pivoted: entries at columns k, k+1, k+2.
        let (mut d, mut s1, mut s2) = (t.a[0] - theta, t.b.first().copied().unwrap_or(0.0), 0.0);
        for k in 0..n {
            if k + 1 == n {
                f.u0[k] = nonzero(d);
                break;
            }
            let (sb, dn) = (t.b[k], t.a[k + 1] - theta);
            let sn = t.b.get(k + 1).copied().unwrap_or(0.0);
            if d.abs() >= sb.abs() {
                let piv = nonzero(d);
                let m = sb / piv;
                (f.u0[k], f.u1[k], f.u2[k], f.l[k]) = (piv, s1, s2, m);
                (d, s1, s2) = (dn - m * s1, sn - m * s2, 0.0);
            } else {
                let m = d / sb;
                (f.u0[k], f.u1[k], f.u2[k], f.l[k], f.swap[k]) = (sb, dn, sn, m, true);
                (d, s1, s2) = (s1 - m * dn, s2 - m * sn, 0.0);
            }
        }
        f
    }

    /// Solves `(T − θI) x = b` in place.
    fn solve(&self, x: &mut [f64]) {
        let n = x.len();
        for k in 0..n.saturating_sub(1) {
            if self.swap[k] {
                x.swap(k, k + 1);
            }
            x[k + 1] -= self.l[k] * x[k];
        }
        for k in (0..n).rev() {
            let mut v = x[k];
            if k + 1 < n {
                v -= self.u1[k] * x[k + 1];
            }
            if k + 2 < n {
                v -= self.u2[k] * x[k + 2];
            }
            x[k] = v / self.u0[k];
        }
    }
}

/// A distinct Ritz value of `T_m` (copies merged), its Ritz estimate,
/// whether Cullum and Willoughby's test calls it spurious, and the bound on
/// its distance to an eigenvalue of S that convergence is judged by (see
/// [`set_bounds`]).
#[derive(Clone, Copy, Debug)]
struct Ritz {
    theta: f64,
    estimate: f64,
    spurious: bool,
    bound: f64,
}

/// Sets each value's error bound. For mode shapes it is the Ritz estimate
/// `e` (the residual of the Ritz vector). For values alone it is
/// `min(e, e²/δ)` (Kato and Temple: a Ritz value with residual e and the
/// rest of the spectrum at least δ away is within e²/δ of its eigenvalue),
/// δ the distance to the nearest other Ritz value in the list less that
/// value's own estimate: the interval where its eigenvalue lies. Spurious
/// values and ghosts still forming count as neighbours, which only makes δ
/// smaller, and the last value of the list (whose lower neighbour is not
/// known) keeps `e`. An eigenvalue converges about twice as fast as its
/// vector, so this saves steps without loosening what a value means.
fn set_bounds(ritz: &mut [Ritz], values_only: bool) {
    let n = ritz.len();
    let bounds: Vec<f64> = (0..n)
        .map(|i| {
            let e = ritz[i].estimate;
            if !values_only || i + 1 == n {
                return e;
            }
            let gap = |k: usize| (ritz[i].theta - ritz[k].theta).abs() - ritz[k].estimate;
            let delta = if i > 0 {
                gap(i - 1).min(gap(i + 1))
            } else {
                gap(i + 1)
            };
            if delta > e { e.min(e * e / delta) } else { e }
        })
        .collect();
    for (r, b) in ritz.iter_mut().zip(bounds) {
        r.bound = b;
    }
}

/// The largest distinct Ritz values of `T`, from the top, until `want` of
/// them are not spurious; each with its Ritz estimate `β_m |s_m|` (and
/// that as its bound). Also the largest eigenvalue of T.
fn ritz_values(t: Tridiagonal<'_>, beta_m: f64, want: usize) -> (Vec<Ritz>, f64) {
    let n = t.n();
    let bounds = t.bounds();
    let top = t.kth_largest(1, bounds);
    let tol = MERGE * top.abs().max(f64::MIN_POSITIVE);
    let hat = Tridiagonal {
        a: &t.a[1.min(n)..],
        b: &t.b[1.min(t.b.len())..],
    };
    let mut out: Vec<Ritz> = Vec::new();
    let mut k = 1;
    while k <= n && out.iter().filter(|r| !r.spurious).count() < want {
        let theta = if k == 1 {
            top
        } else {
            t.kth_largest(k, bounds)
        };
        let (below, upto) = (t.count_below(theta - tol), t.count_below(theta + tol));
        let copies = upto.saturating_sub(below).max(1);
        // Skip every copy of this value (those above θ were counted before).
        k = (n - below).max(k) + 1;
        let spurious =
            copies == 1 && n > 1 && hat.count_below(theta + tol) > hat.count_below(theta - tol);
        let s = t.eigenvector(theta);
        let estimate = (beta_m * s[n - 1]).abs();
        out.push(Ritz {
            theta,
            estimate,
            spurious,
            bound: estimate,
        });
    }
    (out, top)
}

/// The converged modes among `ritz`, from the top (at most `want`).
///
/// A value with a small Ritz estimate lies that close to an eigenvalue of
/// S (Paige), whatever the spurious test says, so a value whose bound is
/// small is accepted (once: two accepted values closer than their bounds
/// are one). An
/// unconverged value ends the list — unless the test calls it spurious and
/// a converged value was already accepted above it: so the largest Ritz
/// value is never passed over, and ω_max is never a lower mode's. Values
/// at the round-off level of θ_max are zero modes, as on the dense path.
fn accepted(ritz: &[Ritz], top: f64, want: usize) -> Vec<Ritz> {
    let mut out: Vec<Ritz> = Vec::new();
    for r in ritz {
        if out.len() == want || r.theta <= super::ZERO_MODE_RATIO * top {
            break;
        }
        if r.bound <= TOLERANCE * top {
            let same = out
                .last()
                .is_some_and(|p| p.theta - r.theta <= p.bound + r.bound + MERGE * top);
            if !same {
                out.push(*r);
            }
        } else if !r.spurious || out.is_empty() {
            break;
        }
    }
    out
}

/// The fastest `want` modes of `S = K^½ A K^½` (only converged ones, with
/// their shapes when `shapes`), and facts about the run.
pub fn fastest_modes(cp: &Coupled, want: usize, shapes: bool) -> (Vec<Mode>, LargeInfo) {
    fastest_modes_from(cp, want, shapes, Start::Golden)
}

/// The start vector of a Lanczos run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// `1 + ½ frac(i·0.618…)`: the one every report uses.
    Golden,
    /// `1 + ½ frac(i·0.414…)` (√2 − 1): a second, independent start, for
    /// checking the values of a run on the same matrix (the scale
    /// benchmark at 10⁷ bodies, where no other solver fits in memory).
    SilverValuesOnly,
}

/// [`fastest_modes`] from the start vector `start` (mode shapes only from
/// [`Start::Golden`]: the replay that forms them starts there).
pub fn fastest_modes_from(
    cp: &Coupled,
    want: usize,
    shapes: bool,
    start: Start,
) -> (Vec<Mode>, LargeInfo) {
    fastest_modes_allowing(cp, want, shapes, start, cp.s.rows(), true)
}

/// The fastest mode of S over every contact row, with its shape: ω_max
/// sets the step with the tangential springs (2/ω_max) and the shape says
/// which rows set it; nothing else over every row is read from this run.
/// So the recurrence stops at the first check where that one mode has
/// converged (its Ritz estimate, the residual of its vector, at most
/// [`TOLERANCE`]`·θ_max`), where seeking six modes ran on until the
/// sixth had, 391 steps instead of 148 at 10⁵ spheres
/// (benches/results/dem.md). The shape needs one replay of the recurrence
/// and one product for its true residual: 2·steps products in all. The
/// top value is still never passed over for a lower one ([`accepted`]).
///
/// The step allowance is that of `units` rows ([`step_bound_for`]: Σ over
/// contacts of their rows squared) for the recurrence itself; the replay
/// that forms the shape is not counted against it (counting it gave this
/// run a third of the normal rows' steps, at 10⁵ spheres 345 against their
/// 1,031), so the work stays within twice the allowance.
pub fn fastest_mode_over_rows(cp: &Coupled, units: usize) -> (Vec<Mode>, LargeInfo) {
    fastest_modes_allowing(cp, 1, true, Start::Golden, units, false)
}

/// `replay_counted`: whether the shapes' replay counts against the step
/// allowance ([`step_bound_for`]).
fn fastest_modes_allowing(
    cp: &Coupled,
    want: usize,
    shapes: bool,
    start: Start,
    units: usize,
    replay_counted: bool,
) -> (Vec<Mode>, LargeInfo) {
    let shapes = shapes && start == Start::Golden;
    let s = &cp.s;
    let c = s.rows();
    let gershgorin = cp.gershgorin();
    crate::timing::mark("gershgorin");
    let mut info = LargeInfo {
        lanczos_steps: 0,
        products: 0,
        modes_requested: want,
        modes_converged: 0,
        gershgorin_omega: gershgorin.sqrt(),
        max_residual: 0.0,
        max_value_error: 0.0,
        residual_kind: "estimate",
        nnz: s.nnz(),
        stored: s.stored(),
    };
    if c == 0 || gershgorin == 0.0 {
        return (Vec::new(), info);
    }
    let want = want.min(c).max(1);
    let max_steps = step_bound_for(s.stored(), units.max(c), shapes && replay_counted);
    let t0 = std::time::Instant::now();
    let mut rec = match start {
        Start::Golden => Recurrence::new(c),
        Start::SilverValuesOnly => Recurrence::from_phase(c, std::f64::consts::SQRT_2 - 1.0),
    };
    let (mut alpha, mut beta) = (Vec::new(), Vec::new());
    let (mut ritz, mut top);
    let mut next_check = want.max(8);
    loop {
        let (a, b) = rec.step(s);
        alpha.push(a);
        let m = alpha.len();
        // β ≈ 0: the Krylov space is invariant and T's values are exact.
        let breakdown = b <= 1e-14 * gershgorin;
        // A cancelled evaluation stops here (its numbers are discarded).
        let last = breakdown
            || m >= max_steps
            || m >= c.saturating_mul(4).max(64)
            || crate::control::cancelled();
        if m >= next_check || last {
            let t = Tridiagonal {
                a: &alpha,
                b: &beta,
            };
            // One value more than asked: the lowest one's neighbour below.
            (ritz, top) = ritz_values(t, if breakdown { 0.0 } else { b }, want + 1);
            set_bounds(&mut ritz, !shapes);
            // Checks cost O(m) a value: space them as m grows.
            next_check = m + (m / 32).max(4);
            let n_conv = accepted(&ritz, top, want).len();
            // Fewer distinct values than asked for count as all of them
            // only once T can no longer be small by chance.
            let genuine = ritz.iter().filter(|r| !r.spurious).count();
            let few = n_conv > 0 && n_conv >= genuine && (breakdown || m >= 4 * want + 32);
            if n_conv >= want || few || last {
                break;
            }
        }
        beta.push(b);
        rec.advance(b);
    }
    let steps = alpha.len();
    let t_first = t0.elapsed();
    let product_time = rec.product_time;
    let modes_found = accepted(&ritz, top, want);
    let n_conv = modes_found.len();
    info.lanczos_steps = steps;
    info.products = steps;
    info.modes_converged = n_conv;
    info.max_residual = modes_found
        .iter()
        .map(|r| r.estimate / top)
        .fold(0.0, f64::max);
    info.max_value_error = modes_found
        .iter()
        .map(|r| r.bound / top)
        .fold(0.0, f64::max);
    let thetas: Vec<f64> = modes_found.iter().map(|r| r.theta).collect();
    let modes: Vec<Mode> = if shapes && n_conv > 0 {
        let t = Tridiagonal {
            a: &alpha,
            b: &beta[..steps - 1],
        };
        let vectors = ritz_vectors(s, t, &thetas);
        info.products += steps - 1;
        let (mut worst, mut worst_value) = (0.0f64, 0.0f64);
        let modes = modes_found
            .iter()
            .zip(vectors)
            .map(|(r, y)| {
                let theta = r.theta;
                let res = residual(s, &y, theta) / top;
                worst = worst.max(res);
                // |θ − λ| ≤ |S y − θ y| for a unit y: the measured residual
                // bounds the value too, rigorously.
                worst_value = worst_value.max(res.min(r.bound / top));
                info.products += 1;
                // Rows of S back to contacts, then K^-½.
                let mut raw = vec![0.0; y.len()];
                for (r, x) in y.iter().enumerate() {
                    let i = cp.contact_of(r);
                    raw[i] = x / cp.sqrt_k[i];
                }
                Mode {
                    omega: theta.sqrt(),
                    shape: super::modes::normalise_shape(&raw),
                }
            })
            .collect();
        info.max_residual = worst;
        info.max_value_error = worst_value;
        info.residual_kind = "true";
        modes
    } else {
        thetas
            .iter()
            .map(|&theta| Mode {
                omega: theta.sqrt(),
                shape: Vec::new(),
            })
            .collect()
    };
    crate::timing::detail(&format!(
        "lanczos steps={steps} products={} product_s={:.4} first_pass_s={:.4} total_s={:.4} converged={n_conv}",
        info.products,
        product_time.as_secs_f64(),
        t_first.as_secs_f64(),
        t0.elapsed().as_secs_f64()
    ));
    (modes, info)
}

/// Unit Ritz vectors `V s / |V s|` for the eigenvalues `thetas` of `t`:
/// the recurrence is replayed from the same start (the same bits), adding
/// `s_j v_j` to each vector as `v_j` comes.
fn ritz_vectors(s: &LocalCsr, t: Tridiagonal<'_>, thetas: &[f64]) -> Vec<Vec<f64>> {
    let c = s.rows();
    let m = t.n();
    let coef: Vec<Vec<f64>> = thetas.iter().map(|&th| t.eigenvector(th)).collect();
    let mut acc: Vec<Vec<f64>> = vec![vec![0.0; c]; thetas.len()];
    let mut rec = Recurrence::new(c);
    for j in 0..m {
        let (v, scale) = rec.unit();
        acc.par_iter_mut().zip(&coef).for_each(|(y, cf)| {
            let a = cf[j] * scale;
            for (o, x) in y.iter_mut().zip(v) {
                *o += a * x;
            }
        });
        if j + 1 < m {
            let (_, b) = rec.step(s);
            rec.advance(b);
        }
    }
    for y in &mut acc {
        let n = dot(y, y).sqrt();
        if n > 0.0 {
            y.iter_mut().for_each(|x| *x /= n);
        }
    }
    acc
}

/// `|S y − θ y|` for a unit y.
fn residual(s: &LocalCsr, y: &[f64], theta: f64) -> f64 {
    let mut w = vec![0.0; y.len()];
    s.mul_sub_dot(y, 1.0, y, theta, &mut w);
    dot(&w, &w).sqrt()
}

#[cfg(test)]
mod tests;
