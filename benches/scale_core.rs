//! The large path's core on a scene NPZ, for the 10⁷-body measurement of
//! issue 41: read the columns → S straight from them
//! (`analysis::scene_large`) → the fastest modes by Lanczos, then the
//! same values again from a second, independent start vector, and the
//! Gershgorin and trace bounds (no other solver fits in memory there).
//! Prints one JSON line: times, peak resident memory at each stage, ω.
//!
//! Usage: cargo bench --bench scale_core -- /tmp/meff-scale/p3d_10000000.scene.npz [3d|planar]
//! (benches/results/scale.md has the figures).

use meff::analysis::large::{Start, fastest_modes_from};
use meff::analysis::scene_large;
use meff::case::Space;
use meff::case::scene::{Source, Units, read};
use std::time::Instant;

/// Current and peak resident memory, MiB.
fn rss() -> (f64, f64) {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let f = |k: &str| {
        s.lines()
            .find_map(|l| l.strip_prefix(k))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    };
    (f("VmRSS:"), f("VmHWM:"))
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let Some(path) = args.first() else {
        eprintln!("usage: scale_core SCENE.npz [3d|planar]");
        std::process::exit(2);
    };
    let space = match args.get(1).map(String::as_str) {
        Some("planar") => Space::Planar,
        _ => Space::ThreeD,
    };
    let t0 = Instant::now();
    let mut marks = Vec::new();
    let mut mark = |name: &str| {
        let (now, peak) = rss();
        // On stderr as it happens too: a run stopped part way keeps them.
        eprintln!(
            "{name} {:.2} s, {now:.0} MiB, peak {peak:.0} MiB",
            t0.elapsed().as_secs_f64()
        );
        marks.push(format!(
            "\"{name}\": [{:.2}, {now:.0}, {peak:.0}]",
            t0.elapsed().as_secs_f64()
        ));
    };
    let (data, _overlap) = read(
        Source::Npz(std::path::Path::new(path)),
        &[],
        space,
        Units::default(),
        u64::MAX,
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    mark("read");
    let (n, c) = (data.n_bodies(), data.n_contacts());
    let mut data = data;
    let cp = scene_large::coupled_releasing(&mut data, space).unwrap_or_else(|e| panic!("{e:?}"));
    drop(data);
    mark("coupled");
    let (modes, info) = fastest_modes_from(&cp, 6, false, Start::Golden);
    mark("lanczos");
    let (check, check_info) = fastest_modes_from(&cp, 6, false, Start::SilverValuesOnly);
    mark("lanczos-second-start");
    let trace: f64 = cp
        .diag
        .iter()
        .zip(&cp.sqrt_k)
        .map(|(a, s)| a * s * s)
        .sum::<f64>()
        .sqrt();
    let w: Vec<f64> = modes.iter().map(|m| m.omega).collect();
    let w2: Vec<f64> = check.iter().map(|m| m.omega).collect();
    let diff = w
        .iter()
        .zip(&w2)
        .map(|(a, b)| ((a - b) / a).abs())
        .fold(0.0, f64::max);
    println!(
        "{{\"bodies\": {n}, \"contacts\": {c}, \"stored\": {}, \"nnz\": {}, \"steps\": [{}, {}], \
         \"omega\": {w:?}, \"omega_second_start\": {w2:?}, \"max_rel_diff\": {diff:e}, \
         \"gershgorin_omega\": {}, \"trace_omega\": {trace}, \"max_value_error\": {}, {}}}",
        info.stored,
        info.nnz,
        info.lanczos_steps,
        check_info.lanczos_steps,
        info.gershgorin_omega,
        info.max_value_error,
        marks.join(", ")
    );
}
