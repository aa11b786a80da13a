//! A histogram of a large scene's per-contact values for the sheet.

use serde::Serialize;

/// A histogram with equal bins.
#[derive(Clone, Debug, Serialize)]
pub struct Histogram {
    /// Bin edges (one more than counts).
    pub edges: Vec<f64>,
    /// Counts per bin.
    pub counts: Vec<usize>,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Mean.
    pub mean: f64,
}

/// Bins for a histogram.
pub const HISTOGRAM_BINS: usize = 20;

/// A histogram of the finite values.
pub fn histogram(values: &[f64]) -> Histogram {
    let v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    let (min, max) = v
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
            (a.min(*x), b.max(*x))
        });
    if v.is_empty() {
        return Histogram {
            edges: Vec::new(),
            counts: Vec::new(),
            min: 0.0,
            max: 0.0,
            mean: 0.0,
        };
    }
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    let span = if max > min { max - min } else { 1.0 };
    let edges: Vec<f64> = (0..=HISTOGRAM_BINS)
        .map(|k| min + span * k as f64 / HISTOGRAM_BINS as f64)
        .collect();
    let mut counts = vec![0usize; HISTOGRAM_BINS];
    for x in &v {
        let k = (((x - min) / span) * HISTOGRAM_BINS as f64).floor() as usize;
        counts[k.min(HISTOGRAM_BINS - 1)] += 1;
    }
    Histogram {
        edges,
        counts,
        min,
        max,
        mean,
    }
}
