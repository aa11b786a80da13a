//! Dense linear algebra below every stage that needs it (the readers'
//! inertia checks, the robot probes, the analysis, the symbolic
//! derivation, the verification):
//!
//! - [`cholesky`](mod@cholesky): the one Cholesky recurrence, on numbers or lanes of
//!   numbers (nalgebra's decompositions need scalars and allocate per call
//!   on dynamic sizes): the large-system path's 6 × 6 blocks (10⁵–10⁶ of
//!   them), the robot batch path (four configurations per lane group) and
//!   the positive-definiteness check of every reader;
//! - [`eig`]: every eigen- and singular-value decomposition, bounded;
//! - [`rows`]: an orthonormal basis of a set of constraint rows;
//! - [`response`](mod@response): the constrained response `R P Rᵀ` of a dense mass
//!   matrix, for the contact rows `R` (the analysis of a `[model]` case,
//!   the robot probes and the engines' inputs).

use nalgebra::SimdRealField;

pub mod cholesky;
pub mod eig;
pub mod response;
pub mod rows;

pub use cholesky::{cholesky, cholesky_failure, cholesky_in_place, forward};
pub use response::{IMMOBILE_RATIO, response};
pub use rows::{CONSTRAINT_RANK_TOLERANCE, row_space_basis};

/// The number types: `f64`, or lanes of `f64` evaluated together
/// (`simba`'s `WideF64x4`: four configurations per operation, the batch
/// path of [`crate::robot::probe`]). Code written for it branches on its
/// inputs' structure, never on the numbers, so every lane follows the same
/// path.
pub trait Real: SimdRealField<Element = f64> + Copy {}

impl<T: SimdRealField<Element = f64> + Copy> Real for T {}
