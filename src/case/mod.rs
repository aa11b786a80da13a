//! Case files: TOML text → a validated [`Case`].
//!
//! Input: the text of a case file (docs/case-format.md). Output: a [`Case`] whose every
//! physical value is a [`Val`]: the expression as typed, its byte span in the
//! file, its SI value at the case's parameter values and its dimension.
//! On bad input, a [`SourceError`](crate::diag::SourceError) with every
//! problem found (not only the first).
//!
//! Steps: parse TOML into a spanned tree (`toml::de::DeTable`); read
//! `[parameters]` and evaluate them in dependency order (cycles are errors);
//! read bodies, contacts, joints or the `[generalized]` form, claims, sweeps
//! and `[verify]`, checking each value's dimension and range as it is read.
//!
//! This is the only module that knows TOML.

mod bodies;
mod claims;
mod columnar;
mod document;
mod dump_table;
mod engine_settings;
mod engine_table;
mod generalized;
mod hertz;
pub use hertz::{ContactLaw, HertzInputs, HertzLaw};
mod hertz_material;
pub use hertz_material::{Counterpart, Material, MaterialInputs, Materials};
mod impact;
mod load;
mod map;
mod motion;
mod waypoints;
pub use map::{MAX_MAP_POINTS, WorkspaceMap};
pub use motion::{
    AngleUnit, Hazard, Interpolation, Motion, Program, RangeWarning, Region, SERIES_POINTS,
    SeriesMode, Velocities, central_difference,
};
mod payload;
pub use impact::{MAX_IMPACT_CONTACTS, STANDARD_GRAVITY};
pub use payload::Payload;
mod orientation;
mod parameters;
mod person;
mod previous;
pub use previous::{Previous, REVISION_KEYS};
pub mod pose;
mod read;
mod robot_table;
pub mod rules;
pub mod scene;
mod scene_table;
mod settings;
pub mod tangential;
pub use tangential::{Tangential, TangentialValue};
mod top;
pub use crate::linalg::cholesky_failure;
pub use read::NORMAL_TOLERANCE;
mod quantity;
mod tolerance;
pub use tolerance::{MAX_PERCENT, Tolerance, ToleranceKind, corner};
mod types;

pub use document::{DOCUMENT_KEYS, Document};
pub use engine_settings::*;
pub use load::{
    case_from_columns, load, load_confined, load_limited, load_part, parse_case,
    parse_case_ordinary, parse_case_with, read_bounded,
};
pub use read::{KEYS, MAX_INPUT_BYTES};
pub use scene_table::FileAccess;
pub use types::*;
