//! Tolerances on `[parameters]` values: `"2 kg ± 5 %"`, `"1e5 N/m ± 2e4
//! N/m"` (also `+-` and `+/-`) and ranges `"[0.08 m, 0.12 m]"` (the
//! nominal value is the midpoint). Every tolerance is symmetric about the
//! nominal value the case is evaluated at; [`Tolerance::lo`] and
//! [`Tolerance::hi`] are the ends of the admissible interval in SI.
//!
//! A tolerance is written only on a `[parameters]` value given by a value
//! (not computed from other parameters); anywhere else it is an error at
//! its marker ([`marker`]). Whether every value in the interval gives a
//! valid case is checked at the box's corners with the case's own rules
//! (`rules.rs`: masses, stiffnesses, sizes must stay positive, …).

use super::read::*;
use super::types::{Case, Env};
use crate::diag::Diagnostic;
use crate::expr::{self, Expr};
use std::ops::Range;

/// The percentage a tolerance must stay below: at 100 % the interval
/// reaches zero.
pub const MAX_PERCENT: f64 = 100.0;

/// How a tolerance was written (a closed set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToleranceKind {
    /// `± 5 %`: relative to the nominal value.
    Percent,
    /// `± 2e4 N/m`: absolute, in the value's unit.
    PlusMinus,
    /// `[lo, hi]`: the nominal value is the midpoint.
    Range,
}

/// A parameter's admissible interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Tolerance {
    /// How it was written.
    pub kind: ToleranceKind,
    /// The whole value as typed, tolerance included.
    pub written: String,
    /// Lower end (SI).
    pub lo: f64,
    /// Upper end (SI).
    pub hi: f64,
    /// Where the tolerance is written in the file.
    pub span: Range<usize>,
}

impl Tolerance {
    /// Half the width of the interval (SI).
    pub fn half_width(&self) -> f64 {
        0.5 * (self.hi - self.lo)
    }
}

/// A tolerance as read, before it is evaluated.
pub(super) enum RawTolerance {
    /// `± p %`.
    Percent(f64),
    /// `± expr`, its content offset.
    PlusMinus(Expr, Option<usize>),
    /// `[lo, hi]`, with their content offsets.
    Range([(Expr, Option<usize>); 2]),
}

/// A value's text split at its tolerance.
pub(super) struct Split {
    /// The text the nominal value is parsed from (for a range, the
    /// midpoint `(lo + hi)/2` written over the same byte positions).
    pub nominal: String,
    /// The tolerance part.
    pub tolerance: RawTolerance,
    /// Byte range of the tolerance in the value's text.
    pub at: Range<usize>,
}

/// The byte range of a tolerance marker (`±`, `+/-`, `+-`) in `text`, or
/// of a range's opening bracket.
pub fn marker(text: &str) -> Option<Range<usize>> {
    for m in ["±", "+/-", "+-"] {
        if let Some(i) = text.find(m) {
            return Some(i..i + m.len());
        }
    }
    let t = text.trim_start();
    t.starts_with('[').then(|| {
        let i = text.len() - t.len();
        i..i + 1
    })
}

/// A percentage: a number followed by `%`.
fn percent(text: &str) -> Option<f64> {
    let t = text.trim().strip_suffix('%')?;
    t.trim().parse::<f64>().ok()
}

impl Reader<'_> {
    /// Splits a parameter's text at its tolerance and parses both parts
    /// (errors located in the file; `None` when a part cannot be read).
    /// `Ok(None)`: no tolerance.
    pub(super) fn split_tolerance(
        &mut self,
        text: &str,
        span: &Range<usize>,
        offset: Option<usize>,
        name: &str,
    ) -> Result<Option<Split>, ()> {
        let Some(m) = marker(text) else {
            return Ok(None);
        };
        let at = |r: Range<usize>| match offset {
            Some(o) => o + r.start..o + r.end,
            None => span.clone(),
        };
        let parse = |this: &mut Self, from: usize, to: usize| -> Option<(Expr, Option<usize>)> {
            let piece = &text[from..to];
            match expr::parse(piece) {
                Ok(e) => Some((e, offset.map(|o| o + from))),
                Err(e) => {
                    let d = this.expr_diag(e, span, offset.map(|o| o + from));
                    this.error(d);
                    None
                }
            }
        };
        if &text[m.clone()] == "[" {
            let t = text.trim_end();
            let (Some(close), Some(comma)) = (t.strip_suffix(']').map(str::len), text.find(','))
            else {
                self.error(
                    Diagnostic::new(at(m.start..text.len()), format!("parameter `{name}`: a range is written `[low, high]`, such as \"[0.08 m, 0.12 m]\"")),
                );
                return Err(());
            };
            if comma > close || text[comma + 1..close].contains(',') {
                self.error(Diagnostic::new(
                    at(m.start..text.len()),
                    format!("parameter `{name}`: a range has two ends, `[low, high]`"),
                ));
                return Err(());
            }
            let lo = parse(self, m.end, comma);
            let hi = parse(self, comma + 1, close);
            let (Some(lo), Some(hi)) = (lo, hi) else {
                return Err(());
            };
            // The midpoint over the same byte positions: `(lo + hi)/2`.
            let mut nominal: String = text[..close + 1].to_string();
            nominal.replace_range(m.clone(), "(");
            nominal.replace_range(comma..comma + 1, "+");
            nominal.replace_range(close..close + 1, ")");
            nominal.push_str("/2");
            return Ok(Some(Split {
                nominal,
                tolerance: RawTolerance::Range([lo, hi]),
                at: m.start..text.len(),
            }));
        }
        let tol_text = &text[m.end..];
        let tolerance = if tol_text.trim_end().ends_with('%') {
            match percent(tol_text) {
                Some(p) => RawTolerance::Percent(p),
                None => {
                    self.error(Diagnostic::new(
                        at(m.end..text.len()),
                        format!("parameter `{name}`: a percentage is a number followed by `%`, such as \"± 5 %\""),
                    ));
                    return Err(());
                }
            }
        } else {
            let Some((e, o)) = parse(self, m.end, text.len()) else {
                return Err(());
            };
            RawTolerance::PlusMinus(e, o)
        };
        Ok(Some(Split {
            nominal: text[..m.start].to_string(),
            tolerance,
            at: m.start..text.len(),
        }))
    }

    /// Evaluates a tolerance about the nominal value `v` (SI, dimension
    /// `dim`): its interval, or a located error.
    pub(super) fn evaluate_tolerance(
        &mut self,
        raw: &RawTolerance,
        name: &str,
        v: f64,
        dim: Dim,
        written: &str,
        span: Range<usize>,
    ) -> Option<Tolerance> {
        let unit = |d: Dim| {
            if d.is_none() {
                "no unit".to_string()
            } else {
                d.to_string()
            }
        };
        let fail = |this: &mut Self, message: String, hint: &str| {
            this.error(
                Diagnostic::new(span.clone(), format!("parameter `{name}`: {message}"))
                    .hint(hint.to_string()),
            );
            None
        };
        let (kind, lo, hi) = match raw {
            RawTolerance::Percent(p) => {
                if p.is_nan() || *p <= 0.0 || *p >= MAX_PERCENT {
                    return fail(
                        self,
                        format!("a tolerance of {p} % is not above 0 % and below {MAX_PERCENT} %"),
                        "a relative tolerance is above 0 % and below 100 % (at 100 % the value could be zero); give a range for anything wider",
                    );
                }
                if v == 0.0 {
                    return fail(
                        self,
                        "a percentage of a zero value is no interval".to_string(),
                        "give the tolerance in the value's unit (\"0 m ± 1 mm\") or a range",
                    );
                }
                let h = v.abs() * p / 100.0;
                (ToleranceKind::Percent, v - h, v + h)
            }
            RawTolerance::PlusMinus(e, o) => {
                let t = self.tolerance_value(e, *o, &span, name)?;
                if t.dim.is_some_and(|d| d != dim) {
                    return fail(
                        self,
                        format!(
                            "the tolerance is in {} but the value in {}",
                            unit(t.dim.unwrap_or(Dim::NONE)),
                            unit(dim)
                        ),
                        "write the tolerance in a unit of the value's dimension",
                    );
                }
                if t.si.is_nan() || t.si <= 0.0 || !t.si.is_finite() {
                    return fail(
                        self,
                        format!("a tolerance of ± {} has no width", t.si),
                        "a tolerance is above zero",
                    );
                }
                (ToleranceKind::PlusMinus, v - t.si, v + t.si)
            }
            RawTolerance::Range([(a, oa), (b, ob)]) => {
                let lo = self.tolerance_value(a, *oa, &span, name)?;
                let hi = self.tolerance_value(b, *ob, &span, name)?;
                for end in [&lo, &hi] {
                    if end.dim.is_some_and(|d| d != dim) {
                        return fail(
                            self,
                            format!(
                                "the range's ends are in {} and {}",
                                unit(lo.dim.unwrap_or(dim)),
                                unit(hi.dim.unwrap_or(dim))
                            ),
                            "write both ends in units of the same dimension",
                        );
                    }
                }
                if lo.si.is_nan() || hi.si.is_nan() || lo.si >= hi.si {
                    return fail(
                        self,
                        format!(
                            "the range [{}, {}] (SI) is {}",
                            lo.si,
                            hi.si,
                            if lo.si == hi.si {
                                "of zero width"
                            } else {
                                "reversed: its low end is above its high end"
                            }
                        ),
                        "write `[low, high]` with low < high",
                    );
                }
                (ToleranceKind::Range, lo.si, hi.si)
            }
        };
        if !(lo.is_finite() && hi.is_finite()) {
            return fail(
                self,
                "the interval is outside what 64-bit floating point represents".to_string(),
                "check the magnitudes",
            );
        }
        Some(Tolerance {
            kind,
            written: written.to_string(),
            lo,
            hi,
            span,
        })
    }

    /// A tolerance's own value: a constant (no parameter names).
    fn tolerance_value(
        &mut self,
        e: &Expr,
        offset: Option<usize>,
        span: &Range<usize>,
        name: &str,
    ) -> Option<crate::expr::Value> {
        if let Some((p, at)) = e.params().first() {
            let at = offset.map_or(span.clone(), |o| o + at.start..o + at.end);
            self.error(
                Diagnostic::new(
                    at,
                    format!(
                        "parameter `{name}`: a tolerance is a value, not an expression of `{p}`"
                    ),
                )
                .hint("write the tolerance's value with its unit"),
            );
            return None;
        }
        match crate::case::Env::default().eval(e) {
            Ok(v) => Some(v),
            Err(err) => {
                let d = self.expr_diag(err, span, offset);
                self.error(d);
                None
            }
        }
    }
}

/// The corners of the box over the parameters `with` (indices into the
/// case's parameters), as overrides: corner `b` takes parameter `with[j]`
/// at its high end when bit `j` of `b` is set.
pub fn corner(case: &Case, with: &[usize], b: usize) -> Vec<(usize, f64)> {
    with.iter()
        .enumerate()
        .filter_map(|(j, &p)| {
            let t = case.parameters[p].tolerance.as_ref()?;
            Some((p, if b >> j & 1 == 1 { t.hi } else { t.lo }))
        })
        .collect()
}

impl Case {
    /// The parameters that carry a tolerance, in case order.
    pub fn toleranced(&self) -> Vec<usize> {
        (0..self.parameters.len())
            .filter(|&i| self.parameters[i].tolerance.is_some())
            .collect()
    }
}

impl Reader<'_> {
    /// Checks that the case is valid across its tolerances, with the same
    /// rules as at its own values: every corner of the box up to
    /// [`crate::limits::TOLERANCE_CORNER_PARAMETERS`] parameters; above,
    /// each end one at a time and the all-low and all-high corners. The
    /// first invalid point is an error at the tolerance of the parameter
    /// that reaches the failing value.
    pub(super) fn check_tolerances(&mut self, case: &Case) {
        let with = case.toleranced();
        if with.is_empty() {
            return;
        }
        let n = with.len();
        let points: Vec<Vec<(usize, f64)>> = if n <= crate::limits::TOLERANCE_CORNER_PARAMETERS {
            (0..1usize << n).map(|b| corner(case, &with, b)).collect()
        } else {
            let mut v: Vec<Vec<(usize, f64)>> = Vec::new();
            for &p in &with {
                let t = case.parameters[p].tolerance.as_ref().expect("toleranced");
                v.push(vec![(p, t.lo)]);
                v.push(vec![(p, t.hi)]);
            }
            v.push(corner(case, &with, 0));
            v.push(corner(case, &with, usize::MAX));
            v
        };
        for point in points {
            let bad = match Env::with_overrides(case, &point) {
                Ok(env) => case.violation(&env),
                Err(e) => Some((None, e.message)),
            };
            let Some((at, why)) = bad else { continue };
            // Blame the first moved parameter whose end alone fails, else
            // the first one moved.
            let alone = point.iter().find(|(p, x)| {
                Env::with_overrides(case, &[(*p, *x)])
                    .map_or(true, |env| case.violation(&env).is_some())
            });
            let (p, x) = *alone.unwrap_or(&point[0]);
            let param = &case.parameters[p];
            let t = param.tolerance.as_ref().expect("toleranced");
            let unit = if param.value.dim.is_none() {
                String::new()
            } else {
                format!(" {}", param.value.dim)
            };
            let shown: Vec<String> = point
                .iter()
                .map(|(q, y)| {
                    format!(
                        "{} = {}",
                        case.parameters[*q].name,
                        crate::number::sig(*y, 6)
                    )
                })
                .collect();
            let mut d = Diagnostic::new(
                t.span.clone(),
                format!(
                    "parameter `{}`: its tolerance reaches {}{unit}, where the case is not valid ({}): {why}",
                    param.name,
                    crate::number::sig(x, 6),
                    shown.join(", ")
                ),
            )
            .hint("every value within a tolerance must give a valid case: masses, stiffnesses and sizes stay positive, normals unit vectors, …");
            if let Some(at) = at {
                let (line, col) = crate::diag::line_col(self.source, at.start);
                d = d.hint(format!("the value is written at line {line}, column {col}"));
            }
            self.error(d);
            return;
        }
    }
}
