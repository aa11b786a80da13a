//! What makes a set of values a valid case: positive masses, stiffnesses,
//! sizes and speeds, non-negative damping, unit normals and quaternions,
//! non-zero axes, positive-definite matrices.
//!
//! Each rule is stated once ([`Rule::violation`]). The reader applies it to
//! every value at the case's own parameter values, and records it
//! ([`Check`]) for each value that depends on a parameter; then every other
//! point a case is evaluated at — each sweep point (checked when the case
//! is read: an invalid point is an error at the sweep, exit 2) and each
//! claim probe point (an invalid one is skipped) — passes the same checks
//! ([`Case::violation`]).

use super::read::*;
use super::types::*;
use crate::diag::Diagnostic;
use crate::expr::Expr;
use std::ops::Range;

/// A rule over one value or a few.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Above zero: a mass, stiffness, size, inertia, speed, height.
    Positive,
    /// Zero or more: a damping.
    NonNegative,
    /// A vector of length 1 within [`NORMAL_TOLERANCE`]: a normal.
    UnitNormal,
    /// A quaternion `[w, x, y, z]` of length 1 within 10⁻⁶.
    UnitQuaternion,
    /// A vector that is not zero: a rotation's axis.
    NonZero,
    /// A symmetric matrix (row-major, n × n) that is positive definite: a
    /// 3-d inertia tensor, a mass matrix.
    PositiveDefinite,
    /// In (0, [`MAX_TANGENTIAL_RATIO`](super::tangential::MAX_TANGENTIAL_RATIO)]:
    /// a tangential-to-normal ratio.
    TangentialRatio,
}

/// A rule on values that depend on parameters, kept to re-check at other
/// points.
#[derive(Clone, Debug)]
pub struct Check {
    /// The rule.
    pub rule: Rule,
    /// What the values are ("a mass", "a normal").
    pub what: String,
    /// Where they are written.
    pub span: Range<usize>,
    /// The values' expressions.
    pub values: Vec<Expr>,
}

fn length(xs: &[f64]) -> f64 {
    xs.iter().map(|x| x * x).sum::<f64>().sqrt()
}

impl Rule {
    /// What is wrong with the values `xs` (SI) under this rule, if
    /// anything: the one statement of the rule.
    pub fn violation(self, what: &str, xs: &[f64]) -> Option<String> {
        match self {
            Rule::Positive => {
                let x = xs[0];
                (x.is_nan() || x <= 0.0).then(|| format!("{what} must be positive, this is {x}"))
            }
            Rule::NonNegative => {
                let x = xs[0];
                (x.is_nan() || x < 0.0).then(|| format!("{what} cannot be negative, this is {x}"))
            }
            Rule::UnitNormal => {
                let len = length(xs);
                (len.is_nan() || (len - 1.0).abs() > NORMAL_TOLERANCE)
                    .then(|| format!("{what} must be a unit vector, this one has length {len}"))
            }
            Rule::UnitQuaternion => {
                let n = length(xs);
                (n.is_nan() || (n - 1.0).abs() > 1e-6)
                    .then(|| format!("{what} [w, x, y, z] must have length 1, this one has {n}"))
            }
            Rule::NonZero => {
                let n = length(xs);
                (!(n > 0.0 && n.is_finite())).then(|| format!("{what} cannot be zero"))
            }
            Rule::TangentialRatio => {
                let (x, max) = (xs[0], super::tangential::MAX_TANGENTIAL_RATIO);
                (x.is_nan() || x <= 0.0 || x > max)
                    .then(|| format!("{what} must be in (0, {max}], this is {x}"))
            }
            Rule::PositiveDefinite => {
                let n = (xs.len() as f64).sqrt().round() as usize;
                let rows: Vec<&[f64]> = xs.chunks(n.max(1)).collect();
                cholesky_failure(&rows).map(|k| {
                    format!(
                        "{what} is not positive definite (its leading {}×{} block is not)",
                        k + 1,
                        k + 1
                    )
                })
            }
        }
    }
}

impl Reader<'_> {
    /// Applies `rule` to `vals` at the case's values (an error at `span`
    /// when it fails) and records it when they depend on a parameter.
    /// True when the values pass.
    pub(super) fn rule(
        &mut self,
        rule: Rule,
        what: &str,
        vals: &[Val],
        span: Range<usize>,
    ) -> bool {
        let xs: Vec<f64> = vals.iter().map(|v| v.si).collect();
        if let Some(message) = rule.violation(what, &xs) {
            let mut d = Diagnostic::new(span, message);
            match rule {
                Rule::UnitNormal => d = d.hint("a non-unit normal would rescale the gap and change the effective mass; normalise it"),
                Rule::UnitQuaternion => d = d.hint("normalise it (a zero quaternion is no rotation)"),
                _ => {}
            }
            self.error(d);
            return false;
        }
        self.record(rule, what, vals, span);
        true
    }

    /// Records `rule` on `vals` for other points, when they depend on a
    /// parameter (a constant passes everywhere once it passes here).
    pub(super) fn record(&mut self, rule: Rule, what: &str, vals: &[Val], span: Range<usize>) {
        if vals.iter().any(|v| !v.expr.params().is_empty()) {
            self.checks.push(Check {
                rule,
                what: what.to_string(),
                span,
                values: vals.iter().map(|v| v.expr.clone()).collect(),
            });
        }
    }

    /// Checks every sweep point of `case` as the case point was checked:
    /// the first invalid point of a sweep is an error at the sweep, naming
    /// the point, the rule and where the value is written.
    pub(super) fn check_sweeps(&mut self, case: &Case) {
        for sweep in &case.sweeps {
            // Only the checks the swept parameter reaches can change.
            let moved = case.moved_by(sweep.parameter);
            let checks: Vec<&Check> = case
                .checks
                .iter()
                .filter(|c| {
                    c.values
                        .iter()
                        .any(|e| e.params().iter().any(|(n, _)| moved.contains(*n)))
                })
                .collect();
            if checks.is_empty() {
                continue;
            }
            let p = &case.parameters[sweep.parameter];
            let n = sweep.points.max(2);
            for i in 0..n {
                let x = sweep.point(i);
                let overrides = [(sweep.parameter, x)];
                let bad = match Env::with_overrides(case, &overrides) {
                    Ok(env) => violation(checks.iter().copied(), &env),
                    // A value composed from the typed ones cannot be
                    // evaluated: the typed values' own checks say why (an
                    // axis of length zero), else the evaluation's error.
                    Err(e) => Some(
                        Env::parameters_with(case, &overrides, None)
                            .ok()
                            .and_then(|env| violation(checks.iter().copied(), &env))
                            .unwrap_or((None, e.message)),
                    ),
                };
                if let Some((at, why)) = bad {
                    let unit = if p.value.dim.is_none() {
                        String::new()
                    } else {
                        format!(" {}", p.value.dim)
                    };
                    let mut d = Diagnostic::new(
                        sweep.span.clone(),
                        format!(
                            "at sweep point {} of {n} ({} = {x}{unit}) the case is not valid: {why}",
                            i + 1,
                            p.name
                        ),
                    )
                    .hint("sweep over values where the case is valid (the same checks as the case's own values)");
                    if let Some(at) = at {
                        let (line, col) = crate::diag::line_col(self.source, at.start);
                        d = d.hint(format!("the value is written at line {line}, column {col}"));
                    }
                    self.error(d);
                    break;
                }
            }
        }
    }
}

impl Case {
    /// The first check the values at `env` fail: where the value is
    /// written (`None` when no value could be evaluated) and why. Checks on
    /// values `env` leaves out (a probe evaluates only the parameters it
    /// uses) are skipped.
    pub fn violation(&self, env: &Env) -> Option<(Option<Range<usize>>, String)> {
        violation(self.checks.iter(), env)
    }

    /// The names (parameters and derived values) whose value follows
    /// parameter `p`, `p`'s own included.
    pub fn moved_by(&self, p: usize) -> std::collections::HashSet<&str> {
        let mut moved = std::collections::HashSet::new();
        moved.insert(self.parameters[p].name.as_str());
        let named = self
            .param_order
            .iter()
            .map(|&i| (&self.parameters[i].name, &self.parameters[i].value))
            .chain(self.derived.iter().map(|d| (&d.name, &d.value)));
        for (name, value) in named {
            if value.expr.params().iter().any(|(n, _)| moved.contains(*n)) {
                moved.insert(name.as_str());
            }
        }
        moved
    }
}

/// The first of `checks` the values at `env` fail ([`Case::violation`]).
fn violation<'c>(
    checks: impl Iterator<Item = &'c Check>,
    env: &Env,
) -> Option<(Option<Range<usize>>, String)> {
    for c in checks {
        if c.values
            .iter()
            .any(|e| e.params().iter().any(|(n, _)| !env.values.contains_key(*n)))
        {
            continue;
        }
        let mut xs = Vec::with_capacity(c.values.len());
        for e in &c.values {
            match env.eval(e) {
                Ok(v) => xs.push(v.si),
                Err(err) => {
                    return Some((Some(c.span.clone()), format!("{}: {}", c.what, err.message)));
                }
            }
        }
        if let Some(why) = c.rule.violation(&c.what, &xs) {
            return Some((Some(c.span.clone()), why));
        }
    }
    None
}
