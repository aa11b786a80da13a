//! Benchmarks (not tests): the symbolic derivation and the numeric analysis
//! of every bundled case. Run with `cargo bench --bench pipeline`.
//! Target: deriving every bundled case takes < 1 s in total in a
//! release build.

use std::path::PathBuf;

fn main() {
    divan::main();
}

fn bundled() -> Vec<meff::case::Case> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cases");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    paths.iter().map(|p| meff::case::load(p).unwrap()).collect()
}

/// Symbolic derivation (A, closed forms, derivation lines) of all cases.
#[divan::bench(sample_count = 10)]
fn derive_all_bundled_cases(bencher: divan::Bencher) {
    let cases = bundled();
    let systems: Vec<_> = cases
        .iter()
        .map(|c| meff::model::assemble(&meff::model::numeric(c)))
        .collect();
    bencher.bench(|| {
        for (case, system) in cases.iter().zip(&systems) {
            divan::black_box(meff::symbolic::derive(case, system).ok());
        }
    });
}

/// The whole pipeline (analysis, symbolic, claims with probes, report data)
/// of all cases.
#[divan::bench(sample_count = 10)]
fn evaluate_all_bundled_cases(bencher: divan::Bencher) {
    let cases = bundled();
    bencher.bench(|| {
        for case in &cases {
            divan::black_box(meff::evaluate(case.clone()).ok());
        }
    });
}

/// Parsing and validating every case file.
#[divan::bench]
fn load_all_bundled_cases() -> usize {
    bundled().len()
}

/// The time-domain verification of all cases (target: < 10 s
/// in a release build).
#[divan::bench(sample_count = 3)]
fn verify_all_bundled_cases(bencher: divan::Bencher) {
    let cases = bundled();
    let prepared: Vec<_> = cases
        .iter()
        .map(|c| {
            let model = meff::model::numeric(c);
            let an = meff::analysis::analyze(&model).unwrap();
            (model, an)
        })
        .collect();
    bencher.bench(|| {
        for (case, (model, an)) in cases.iter().zip(&prepared) {
            divan::black_box(meff::verify::verify(case, model, an, &|_, _| {}));
        }
    });
}

/// A chain of `n` contacts between `n + 1` particles (a large-system case).
fn chain(n: usize) -> meff::case::Case {
    let mut s = String::from("space = \"line\"\n[parameters]\nk = \"1e5 N/m\"\n");
    for i in 0..=n {
        s.push_str(&format!(
            "[[body]]\nname = \"p{i}\"\ntype = \"particle\"\nmass = \"{} kg\"\n",
            1.0 + (i % 7) as f64 * 0.25
        ));
    }
    for i in 1..=n {
        s.push_str(&format!("[[contact]]\nname = \"c{i}\"\nbody = \"p{i}\"\nother = \"p{}\"\npoint = [\"0 m\"]\nnormal = [1]\nstiffness = \"k\"\n", i - 1));
    }
    meff::case::parse_case("chain.toml", &s).unwrap()
}

/// The large-system path (sparse A, Lanczos, Gershgorin) on 10⁴ contacts.
#[divan::bench(sample_count = 5)]
fn analyze_chain_of_10k_contacts(bencher: divan::Bencher) {
    let case = chain(10_000);
    let model = meff::model::numeric(&case);
    let system = meff::model::assemble(&model);
    bencher.bench(|| {
        divan::black_box(
            meff::analysis::analyze_model(&model, &system, meff::analysis::LargeModes::default())
                .unwrap(),
        )
    });
}

/// The UR5's effective mass at its tool over 10,000 configurations
/// (`robot::probe`, what the Python `Robot.effective_mass` runs): one lane
/// group at a time on one thread, and the whole batch on rayon's pool.
fn ur5_batch() -> (
    meff::robot::probe::Compiled,
    meff::robot::probe::Target,
    Vec<f64>,
) {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/robots/urdf/ur5_robot.urdf");
    let text = std::fs::read_to_string(path).unwrap();
    let robot = meff::robot::Robot::parse("ur5_robot.urdf", &text).unwrap();
    let target = meff::robot::probe::Target {
        body: robot.tree.body_index("tool0").unwrap(),
        point: nalgebra::Vector3::new(0.0, 0.0, 0.05),
        normals: vec![nalgebra::Vector3::z()],
        local: true,
        armature: true,
        constrained: true,
    };
    let qs = (0..60_000)
        .map(|i| ((i * 7919) % 1000) as f64 * 0.006 - 3.0)
        .collect();
    (meff::robot::probe::Compiled::new(robot), target, qs)
}

#[divan::bench(sample_count = 20)]
fn ur5_effective_mass_10k_one_thread(bencher: divan::Bencher) {
    let (compiled, target, qs) = ur5_batch();
    let mut ws = meff::robot::probe::Workspace::default();
    let mut out = [0.0; 4];
    bencher.bench_local(|| {
        for q in qs.chunks(24) {
            compiled.inverse_masses(&mut ws, q, &target, &mut out);
        }
        out[0]
    });
}

#[divan::bench(sample_count = 20)]
fn ur5_effective_mass_10k_parallel(bencher: divan::Bencher) {
    let (compiled, target, qs) = ur5_batch();
    let mut out = vec![0.0; 10_000];
    bencher.bench_local(|| {
        compiled.effective_masses(&qs, &target, &mut out);
        out[0]
    });
}
