//! Phase timings on standard error, when `MEFF_TIMINGS` is set (for
//! benchmarks: `benches/scale.py` reads them). Costs one check otherwise.

use std::sync::OnceLock;
use std::time::Instant;

fn start() -> Option<Instant> {
    static START: OnceLock<Option<Instant>> = OnceLock::new();
    *START.get_or_init(|| std::env::var_os("MEFF_TIMINGS").map(|_| Instant::now()))
}

/// Marks the end of a phase: prints `meff-timing <name> <seconds since start>`.
pub fn mark(name: &str) {
    if let Some(t0) = start() {
        eprintln!("meff-timing {name} {:.6}", t0.elapsed().as_secs_f64());
    }
}

/// Prints a detail line when timings are on.
pub fn detail(text: &str) {
    if start().is_some() {
        eprintln!("meff-timing-detail {text}");
    }
}
