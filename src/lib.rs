//! meff: the effective mass a normal contact sees in a multibody system.
#![warn(missing_docs)]

pub mod diag;
pub mod expr;
pub mod units;
