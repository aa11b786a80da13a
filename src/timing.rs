//! Phase timings on standard error, when `MEFF_TIMINGS` is set (for
//! benchmarks: `benches/scale.py` reads them). Costs one check otherwise.

use std::sync::OnceLock;
use std::time::Instant;

fn start() -> Option<Instant> {
    static START: OnceLock<Option<Instant>> = OnceLock::new();
    *START.get_or_init(|| std::env::var_os("MEFF_TIMINGS").map(|_| Instant::now()))
}

/// Marks the end of a phase: prints `meff-timing <name> <seconds since
/// start> <resident MiB> <peak resident MiB> <CPU seconds>` (the memory
/// columns read from `/proc/self/status`, 0 where that does not exist;
/// the CPU time, user and system, of every thread of the process so far:
/// a phase's CPU over its wall time says how many cores it kept busy).
pub fn mark(name: &str) {
    if let Some(t0) = start() {
        let (rss, peak) = resident();
        eprintln!(
            "meff-timing {name} {:.6} {rss:.1} {peak:.1} {:.3}",
            t0.elapsed().as_secs_f64(),
            cpu_seconds()
        );
    }
}

/// User and system CPU time of the process so far, in seconds (0 where
/// `getrusage` fails, and off Linux).
#[cfg(not(target_os = "linux"))]
fn cpu_seconds() -> f64 {
    0.0
}

/// User and system CPU time of the process so far, in seconds (0 where
/// `getrusage` fails, and off Linux).
#[cfg(target_os = "linux")]
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage writes the struct it is given and nothing else.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        (libc::getrusage(libc::RUSAGE_SELF, &mut usage) == 0).then_some(usage)
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    usage.map_or(0.0, |u| secs(u.ru_utime) + secs(u.ru_stime))
}

/// Current and peak resident set in MiB (Linux), or zeros.
fn resident() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |key: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// Prints a detail line when timings are on.
pub fn detail(text: &str) {
    if start().is_some() {
        eprintln!("meff-timing-detail {text}");
    }
}
