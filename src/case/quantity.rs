//! What a claim, a sweep or a plot names: a quantity of the results
//! (`m_eff(c)`, `peak_force(i, c)`, …) and a claim's two sides.

use crate::expr::Expr;
use crate::units::Dim;
use std::ops::Range;

/// What an impact result measures at one contact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImpactQuantity {
    /// `peak_force(c)`.
    PeakForce,
    /// `duration(c)`: until the force first returns to zero.
    Duration,
    /// `restitution(c)`: rebound over approach speed.
    Restitution,
    /// `compression(c)`: the largest penetration.
    Compression,
}

impl ImpactQuantity {
    /// Every one, with its name in claims.
    pub const ALL: [(&'static str, ImpactQuantity); 4] = [
        ("peak_force", ImpactQuantity::PeakForce),
        ("duration", ImpactQuantity::Duration),
        ("restitution", ImpactQuantity::Restitution),
        ("compression", ImpactQuantity::Compression),
    ];

    /// Its name in claims.
    pub fn name(self) -> &'static str {
        match self {
            ImpactQuantity::PeakForce => "peak_force",
            ImpactQuantity::Duration => "duration",
            ImpactQuantity::Restitution => "restitution",
            ImpactQuantity::Compression => "compression",
        }
    }
}

/// A result a claim or sweep can refer to (the case format (docs/case-format.md), `of`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Quantity {
    /// `a(c)`: inverse effective mass.
    A(usize),
    /// `m_eff(c)`.
    MEff(usize),
    /// `omega(c)`: single-contact penalty frequency.
    Omega(usize),
    /// `A(c1, c2)`: a Delassus matrix entry.
    Delassus(usize, usize),
    /// `mode_omega(i)`: the i-th fastest coupled mode (1-based).
    ModeOmega(usize),
    /// `f(c)`: `omega(c)` in cycles per second, ω/2π.
    F(usize),
    /// `mode_f(i)`: `mode_omega(i)` in cycles per second.
    ModeF(usize),
    /// `peak_force(c)`, `duration(c)`, `restitution(c)`, `compression(c)`:
    /// an impact's result at a contact (impact index, contact index).
    Impact(ImpactQuantity, usize, usize),
}

impl Quantity {
    /// Dimension of the quantity.
    pub fn dim(&self) -> Dim {
        match self {
            Quantity::A(_) | Quantity::Delassus(..) => Dim::INVERSE_MASS,
            Quantity::MEff(_) => Dim::MASS,
            Quantity::Omega(_) | Quantity::ModeOmega(_) | Quantity::F(_) | Quantity::ModeF(_) => {
                Dim::FREQUENCY
            }
            Quantity::Impact(q, ..) => match q {
                ImpactQuantity::PeakForce => Dim::FORCE,
                ImpactQuantity::Duration => Dim::TIME,
                ImpactQuantity::Restitution => Dim::NONE,
                ImpactQuantity::Compression => Dim::LENGTH,
            },
        }
    }

    /// SI unit text for display.
    pub fn unit(&self) -> &'static str {
        match self {
            Quantity::A(_) | Quantity::Delassus(..) => "1/kg",
            Quantity::MEff(_) => "kg",
            Quantity::Omega(_) | Quantity::ModeOmega(_) => "rad/s",
            Quantity::F(_) | Quantity::ModeF(_) => "Hz",
            Quantity::Impact(q, ..) => match q {
                ImpactQuantity::PeakForce => "N",
                ImpactQuantity::Duration => "s",
                ImpactQuantity::Restitution => "",
                ImpactQuantity::Compression => "m",
            },
        }
    }

    /// True for an angular frequency (rad/s), false for a frequency in
    /// cycles (Hz), `None` for other quantities.
    pub fn angular(&self) -> Option<bool> {
        match self {
            Quantity::Omega(_) | Quantity::ModeOmega(_) => Some(true),
            Quantity::F(_) | Quantity::ModeF(_) => Some(false),
            _ => None,
        }
    }
}

/// The right-hand side of a claim.
#[derive(Clone, Debug)]
pub enum ClaimRhs {
    /// An expression over the parameters (symbolic or probed check).
    Expression(Expr),
    /// A quantity literal alone, compared numerically.
    Literal {
        /// The expression (a literal).
        expr: Expr,
        /// Significant decimals as written, giving the default tolerance:
        /// half a unit in the last written place, in SI.
        half_ulp: f64,
    },
}

/// A hand derivation to check.
#[derive(Clone, Debug)]
pub struct Claim {
    /// `of` as typed.
    pub of_text: String,
    /// What is claimed about.
    pub of: Quantity,
    /// `equals` as typed.
    pub equals_text: String,
    /// Span of `equals` in the file.
    pub equals_span: Range<usize>,
    /// Parsed right-hand side.
    pub rhs: ClaimRhs,
    /// Optional relative tolerance.
    pub rel_tol: Option<f64>,
}
