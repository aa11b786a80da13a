//! The headline's pieces: segments, the numbers' rounding (limits down,
//! upper bounds up) and the tolerance box's deciding bound; shared by
//! `headline.rs` and `headline_person.rs`.

use crate::number::{pretty, sig, time};
use crate::report::Report;
use serde::Serialize;

/// A piece of a headline line.
#[derive(Clone, Debug, Serialize)]
pub struct Segment {
    /// Plain text.
    pub text: String,
    /// Set in bold.
    pub strong: bool,
}

pub(super) fn plain(s: impl Into<String>) -> Segment {
    Segment {
        text: s.into(),
        strong: false,
    }
}

pub(super) fn strong(s: impl Into<String>) -> Segment {
    Segment {
        text: s.into(),
        strong: true,
    }
}

/// A time in the sheet's display unit.
pub(super) fn t(report: &Report, x: f64, d: usize) -> String {
    match &report.display.time {
        Some(u) => format!("{} {}", pretty(&sig(x * u.factor, d)), u.unit),
        None => pretty(&time(x, d)),
    }
}

/// A step limit as [`t`] prints it, rounded down (`number::at_most`) in
/// the unit shown: the digits a reader copies never exceed the limit.
pub(super) fn t_at_most(report: &Report, x: f64, d: usize) -> String {
    match &report.display.time {
        Some(u) => format!(
            "{} {}",
            pretty(&sig(crate::number::at_most(x * u.factor, d), d)),
            u.unit
        ),
        None => pretty(&time(crate::number::at_most(x, d), d)),
    }
}

pub(super) fn n(x: f64, d: usize) -> String {
    pretty(&sig(x, d))
}

/// A limit (a permitted speed or speed factor): rounded down.
pub(super) fn down(x: f64, d: usize) -> String {
    pretty(&crate::number::sig_round(x, d, crate::number::Round::Down))
}

/// A value that must not read low (a peak force set against its limit,
/// an upper bound, a duration a program must at least take): rounded up.
pub(super) fn up(x: f64, d: usize) -> String {
    pretty(&crate::number::sig_round(x, d, crate::number::Round::Up))
}

/// With tolerances, the bound of the result `id` (`tolerance::Tracked::id`).
pub(super) fn bound<'a>(report: &'a Report, id: &str) -> Option<&'a crate::tolerance::Bound> {
    report
        .tolerances
        .as_ref()?
        .results
        .iter()
        .find(|b| b.id == id)
}

/// Where the box decides: the bound in bold, the nominal value in brackets
/// after it (`largest`: the highest value decides, else the lowest).
pub(super) fn decided(
    b: &crate::tolerance::Bound,
    largest: bool,
    unit: &str,
    d: usize,
) -> [Segment; 2] {
    let (x, which) = if largest {
        (b.hi, "largest")
    } else {
        (b.lo, "smallest")
    };
    [
        // The deciding bound rounded the safe way: up when the largest
        // decides (a force), down when the smallest does (a speed limit).
        strong(format!(
            "{} {unit}",
            if largest { up(x, d) } else { down(x, d) }
        )),
        // The nominal value by its kind's rule (a limit down).
        plain(format!(
            ", the {which} over the inputs' tolerances (nominal {} {unit}",
            pretty(&crate::number::sig_round(b.nominal, d, b.round.nominal))
        )),
    ]
}

/// "name = value", or "name ≤ value" for a setting given as a limit.
pub fn setting_text(name: &str, value: &str) -> String {
    if value.starts_with('≤') {
        format!("{name} {value}")
    } else {
        format!("{name} = {value}")
    }
}
