//! meff: the effective mass a normal contact sees in a multibody system.
//!
//! A normal gap `g` with rate `ġ = J v` in a system with mass matrix `M`
//! sees the inverse inertia `a = J M⁻¹ Jᵀ`; several contacts are coupled by
//! the Delassus matrix `A = J M⁻¹ Jᵀ`, whose penalty modes (eigenvalues of
//! `K^½ A K^½`) set the stable explicit timestep.
//!
//! # Steps
//!
//! 1. [`case`]: TOML text → a validated [`case::Case`] (units and dimensions
//!    checked, every problem reported with its span, see [`diag`]).
//! 2. [`model`]: case → [`model::Model<T>`] for any scalar `T`, and
//!    [`model::assemble`] → M, J, G.
//! 3. [`symbolic`]: the same assembly over exact rational functions of the
//!    parameters: closed forms and derivation lines.
//! 4. [`analysis`]: Delassus matrix, effective masses, coupled modes,
//!    bounds, stable timesteps, damping; [`claims`] checks claims against
//!    both.
//! 5. [`verify`]: an independent simulator checks the analysis (impulse
//!    test, free vibration, timestep convergence, stability).
//! 6. [`report`]: results → the serializable [`report::Report`].
//! 7. [`render`]: report → text, Markdown, JSON. [`output`] writes files.
//!
//! [`pipeline::evaluate_with`] runs these steps for one case.
//!
//! ```
//! let case = meff::case::parse_case("seed.toml", r#"
//! [parameters]
//! m = "2 kg"
//! I = "0.020 kg m^2"
//! [[body]]
//! name = "block"
//! type = "rigid"
//! mass = "m"
//! inertia = "I"
//! [[contact]]
//! name = "offcentre"
//! body = "block"
//! point = ["0.10 m", "0 m"]
//! normal = [0, 1]
//! stiffness = "1e5 N/m"
//! "#).unwrap();
//! let result = meff::evaluate(case).unwrap();
//! let contact = &result.analysis.contacts[0];
//! assert!((contact.m_eff.unwrap() - 1.0).abs() < 1e-12); // half the block's 2 kg
//! assert!((contact.omega - 316.227766).abs() < 1e-5);
//! ```
#![warn(missing_docs)]
// Index loops mirror the matrix formulas they implement.
#![allow(clippy::needless_range_loop)]

pub mod analysis;
pub mod batch;
pub mod case;
pub mod checks;
pub mod claims;
pub mod confine;
pub mod control;
pub mod diag;

pub mod engines;
pub mod expr;
pub mod fuzz;
pub mod hertz;
pub mod hugepages;
pub mod kinematics;
pub mod limits;
pub mod linalg;
pub mod mdbook;
pub mod model;
pub mod notation;
pub mod number;
pub mod output;
pub mod pipeline;
pub mod render;
pub mod report;
pub mod revision;
pub mod robot;
pub mod starter;
pub mod symbolic;
pub mod timing;
pub mod tolerance;
pub mod units;
pub mod verify;
pub mod watch;

pub use pipeline::{
    COLUMNS_ABOVE, Error, Evaluated, Options, evaluate, evaluate_on_model_path, evaluate_with,
};
