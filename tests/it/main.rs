//! meff's integration tests: one binary (one crate to build), one folder
//! or file per subject; what they share is in `support`.

mod support;

/// Code structure: files and functions short enough to read, imports
/// that follow the declared layers.
mod layers;
mod tidy;

/// Books: the mdBook preprocessor, and books built from strangers' text.
mod books {
    mod mdbook;
    mod safety;
}

/// The command line: commands, exit statuses, outputs, batches, `diff`
/// between revisions, `watch`.
mod cli {
    mod batch;
    mod commands;
    mod diff;
    mod watch;
}

/// Engine settings against the engines' own numbers, and Rapier run here.
mod engines {
    mod drake_sap;
    mod lines;
    mod rapier;
    mod settings;
}

/// Input formats beside TOML: scenes (NPZ, CSV) and the columnar reader.
mod formats {
    mod columnar;
    mod dump;
    mod dump_inputs;
    mod dump_near;
    mod scene;
    mod scene_tangential;
}

/// Input: bad input located, hostile input bounded, work allowances,
/// reading only where allowed, plausibility checks, sweeps validated like
/// the case point, no panic on random and fuzzed input.
mod input {
    mod bad;
    mod bounded_work;
    mod check_locations;
    mod confine;
    mod description_checks;
    mod hertz_material_mass;
    mod hostile;
    mod inertia_rule;
    mod link_inertia;
    mod model_checks;
    mod model_checks_more;
    mod model_checks_round5;
    mod model_checks_round6;
    mod model_checks_round7;
    mod model_checks_round7a;
    mod model_checks_round7b;
    mod robustness;
    mod sweeps;
    mod tolerance;
}

/// What meff writes: reports and sheets in every format (the same
/// numbers in each), golden snapshots, PDF, the docs' reference, and
/// output safety (nothing in a report runs; all or nothing written).
mod output {
    pub(crate) mod browser;
    mod docs;
    mod hertz_sheet;
    mod notation;
    mod parity;
    #[cfg(feature = "pdf")]
    mod pdf;
    mod pdf_legibility;
    mod printed_once;
    mod reports;
    mod safety;
    mod sheet;
    mod signer48;
    mod signer_texts;
    mod snapshots;
    mod typeset;
}

/// Physics references: closed forms, hand computations, claims, impacts,
/// poses, the stable step, the symbolic engine, verification by simulation.
mod physics {
    mod claims;
    mod impact;
    mod impact_together;
    mod nearby_origin;
    mod pose;
    mod properties;
    mod references;
    mod stable_step;
    mod symbolic;
    mod tangential;
    mod tangential_large;
    mod tangential_steps;
    mod tolerance;
    mod tolerance_band;
    mod tolerance_hertz;
    mod verification;
}

/// MJCF and URDF models: against MuJoCo and Pinocchio, reading them, the
/// compiled batch path.
mod robots {
    mod batch;
    mod cobot;
    mod cobot_more;
    mod models;
    mod program_verdict;
    mod references;
    mod signer_rounding;
    mod sketch;
}

/// Large systems: the large path, Lanczos, sparse Delassus products.
mod scale;
/// The columnar route of a large scene through the pipeline.
mod scene_route;
