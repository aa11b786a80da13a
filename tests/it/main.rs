//! meff's integration tests: one binary (one crate to build), one folder
//! or file per subject; what they share is in `support`.

mod support;
mod tidy;

/// Bundled books and the mdBook preprocessor.
mod books {
    mod mdbook;
    mod safety;
}

/// The command line: commands, exit statuses, outputs, batches.
mod cli {
    mod batch;
    mod commands;
}

/// Engine settings and engines run beside meff.
mod engines {
    mod rapier;
    mod settings;
}

/// Input formats beside TOML: scenes (NPZ, CSV) and the columnar reader.
mod formats {
    mod columnar;
    mod scene;
}

/// Bad and hostile input, bounded work, reading only where allowed.
mod input {
    mod bad;
    mod bounded_work;
    mod confine;
    mod hostile;
    mod model_checks;
    mod robustness;
    mod sweeps;
}

/// What meff writes: reports, sheets, snapshots, PDF, docs, safety.
mod output {
    mod browser;
    mod docs;
    mod parity;
    #[cfg(feature = "pdf")]
    mod pdf;
    mod pdf_legibility;
    mod reports;
    mod safety;
    mod sheet;
    mod snapshots;
    mod typeset;
}

/// Physics references: closed forms, hand computations, simulations.
mod physics {
    mod claims;
    mod impact;
    mod nearby_origin;
    mod pose;
    mod properties;
    mod references;
    mod stable_step;
    mod symbolic;
    mod verification;
}

/// MJCF and URDF models against MuJoCo and Pinocchio.
mod robots {
    mod batch;
    mod models;
    mod references;
}

/// Large systems: the large path, Lanczos, sparse Delassus products.
mod scale;
