//! The large path's two shared kernels: its fixed work size and its sum of
//! products (below `local_csr`, `lanczos` and `large`, which all use them).

/// Rows per parallel work item (fixed, so sums do not depend on threads).
pub(crate) const CHUNK: usize = 8192;

/// A sum of products in four interleaved partial sums (a fixed order, so
/// the same bits everywhere; independent additions, so it vectorises).
#[inline]
pub(crate) fn dot4(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..4 {
            acc[k] += x[k] * y[k];
        }
    }
    let mut tail = 0.0;
    for (x, y) in ra.iter().zip(rb) {
        tail += x * y;
    }
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}
