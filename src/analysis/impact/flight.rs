//! Free flight between contacts of an impact: nothing pushes, every
//! penetration rate is constant.

use nalgebra::DVector;

/// Free flight (no contact pushes): moves every penetration on to just
/// before the next closing (δ̇ constant), in whole steps `h` so that the
/// event search stays on the step grid; returns the time skipped.
pub(super) fn skip_free_flight(x: &mut DVector<f64>, n: usize, h: f64) -> f64 {
    let jump = (0..n)
        .filter(|&i| x[n + i] > 0.0)
        .map(|i| (-x[i] / x[n + i]).max(0.0))
        .fold(f64::INFINITY, f64::min);
    if jump > h {
        let skip = (jump / h).floor() * h;
        for i in 0..n {
            x[i] += x[n + i] * skip;
        }
        return skip;
    }
    0.0
}
