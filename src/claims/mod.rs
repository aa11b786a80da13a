//! The claims stage: checking a case's `[[claim]]`s against the analysis
//! and, where the symbolic engine can decide, its derivation
//! ([`symbolic`](mod@symbolic): the exact comparison). It sits above both,
//! which never import each other.
//!
//! A quantity claim (`"316.2 rad/s"`) is compared with the computed value to
//! the precision written, or to `rel_tol`. An expression claim is checked for
//! dimension, then compared at the case's parameter values and at
//! [`PROBES`] further points where every independent parameter is scaled by
//! a seeded random factor in [0.5, 2]; the model is rebuilt and re-analysed
//! at each point. (A symbolic check comes first when the symbolic engine
//! can decide; see the `how` field.)

use crate::analysis::{Analysis, value_of};
use crate::case::{Case, Claim, ClaimRhs, Env, Quantity};
use crate::model;

pub mod symbolic;

pub use symbolic::claim_verdict;

/// Probe points beyond the case point for expression claims.
pub const PROBES: usize = 8;

/// Default relative tolerance of an expression claim.
pub const DEFAULT_REL_TOL: f64 = 1e-9;

/// The outcome of a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Holds.
    Passed,
    /// Does not hold.
    Failed,
    /// Could not be decided.
    Undetermined,
}

/// How a claim was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Canonical forms compared.
    Symbolic,
    /// Compared at the case point and probe points.
    Numeric,
    /// A quantity compared with the computed number.
    Quantity,
    /// The dimensions differ.
    Dimension,
}

impl Method {
    /// Name used in JSON and reports.
    pub fn name(self) -> &'static str {
        match self {
            Method::Symbolic => "symbolic",
            Method::Numeric => "numeric",
            Method::Quantity => "quantity",
            Method::Dimension => "dimension",
        }
    }
}

/// The result of checking one claim.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimResult {
    /// Verdict.
    pub verdict: Verdict,
    /// Method.
    pub how: Method,
    /// The computed value at the case point (SI), when there is one.
    pub value: Option<f64>,
    /// The claimed value at the case point (SI).
    pub expected: Option<f64>,
    /// Tolerance applied (absolute, SI).
    pub tolerance: Option<f64>,
    /// Why it failed or could not be decided: one short sentence.
    pub message: Option<String>,
    /// Longer evidence (a simplified difference), for `--verbose` and JSON.
    pub detail: Option<String>,
    /// Parameter values (SI) where it fails, for a failed expression claim.
    pub counterexample: Option<Vec<(String, f64)>>,
}

/// Checks every claim of a case against its analysis.
///
/// `symbolic` holds, per claim, what the symbolic engine found (`None` where
/// it could not decide or did not run).
///
/// `digits` is the significant figures of the numbers in the messages
/// (the reports' own, 4 unless `--digits`).
pub fn check(
    case: &Case,
    an: &Analysis,
    symbolic: &[Option<SymbolicVerdict>],
    digits: usize,
) -> Vec<ClaimResult> {
    if case.claims.is_empty() {
        return Vec::new();
    }
    let env = Env::of_case(case);
    case.claims
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let r = check_one(
                case,
                &env,
                an,
                c,
                i as u64,
                symbolic.get(i).cloned().flatten(),
                digits,
            );
            two_pi_hint(c, r)
        })
        .collect()
}

/// What the symbolic engine says about an expression claim.
#[derive(Clone, Debug, PartialEq)]
pub enum SymbolicVerdict {
    /// Both sides have the same canonical form.
    Equal,
    /// The canonical difference is not zero.
    Differs {
        /// The simplified difference, as text.
        difference: String,
        /// True when the difference contains opaque atoms (trigonometric
        /// and other functions), so that it may still be zero by an
        /// identity the canonical form does not know: probing decides.
        opaque: bool,
    },
}

fn close(value: f64, expected: f64, rel: f64) -> bool {
    (value - expected).abs() <= rel * value.abs().max(expected.abs())
}

/// How a claim about a frequency is read: an angular frequency (`omega`,
/// `mode_omega`) claimed in cycles per time (Hz, rpm, without an explicit
/// 2π) is multiplied by 2π; a frequency in cycles (`f`, `mode_f`) claimed
/// in radians per time (a unit with `rad` in it, without an explicit π) is
/// divided by 2π. A bare `1/s` (`sqrt(k/m)`) is not converted: for `f` it
/// is Hz, so a hand formula that forgot its 2π fails. Returns the factor
/// and, when it is not 1, a note.
fn cycle_conversion(case: &Case, claim: &Claim, rhs: &crate::expr::Expr) -> (f64, Option<String>) {
    let Some(angular) = claim.of.angular() else {
        return (1.0, None);
    };
    let power = |word: fn(&str) -> bool| {
        let mut memo = std::collections::HashMap::new();
        unit_power(rhs, case, word, &mut memo, 0)
    };
    let cycles = power(|w| w.ends_with("Hz") || w == "rpm");
    let radians = power(|w| w == "rad");
    let mut explicit_pi = false;
    rhs.visit(&mut |e| explicit_pi |= matches!(e.kind, crate::expr::ExprKind::Pi));
    let tau = std::f64::consts::TAU;
    match (angular, cycles, radians, explicit_pi) {
        (true, 1, _, false) => (
            tau,
            Some(
                "the claim is in cycles per time (Hz or rpm): compared as 2π × its value in rad/s"
                    .into(),
            ),
        ),
        (false, 0, 1, false) => (
            1.0 / tau,
            Some("the claim is in rad per time: compared as its value / 2π in Hz".into()),
        ),
        _ => (1.0, None),
    }
}

/// A failed claim on a frequency whose claimed value is 2π times the
/// computed one, or 1/2π of it: say so (a forgotten or extra 2π, or ω
/// claimed as f).
fn two_pi_hint(claim: &Claim, mut r: ClaimResult) -> ClaimResult {
    let (Some(angular), Verdict::Failed, Some(value), Some(claimed)) =
        (claim.of.angular(), r.verdict, r.value, r.expected)
    else {
        return r;
    };
    let tau = std::f64::consts::TAU;
    let hint = if close(claimed, value * tau, 1e-3) {
        Some(if angular {
            "the claimed value is 2π × the computed one: a 2π too many?"
        } else {
            "the claimed value is 2π × the computed one: the angular frequency ω = 2π f, claimed as f (a 1/(2π) forgotten)?"
        })
    } else if close(claimed, value / tau, 1e-3) {
        Some(if angular {
            "the claimed value is the computed one / 2π: the frequency f = ω/2π, claimed as ω (a 2π forgotten)?"
        } else {
            "the claimed value is the computed one / 2π: a 2π too many?"
        })
    } else {
        None
    };
    if let Some(h) = hint {
        r.message = Some(match r.message.take() {
            Some(m) => format!("{m}; {h}"),
            None => h.to_string(),
        });
    }
    r
}

/// The power of the unit words `word` picks (Hz and rpm, or rad) in an
/// expression's unit, following parameters to their definitions.
fn unit_power(
    e: &crate::expr::Expr,
    case: &Case,
    word: fn(&str) -> bool,
    memo: &mut std::collections::HashMap<String, i32>,
    depth: usize,
) -> i32 {
    use crate::expr::{BinOp, ExprKind};
    if depth > 200 {
        return 0;
    }
    match &e.kind {
        ExprKind::Quantity(_, unit) => unit_words(&unit.text, word),
        ExprKind::Number(_) | ExprKind::Pi | ExprKind::Call(..) => 0,
        ExprKind::Neg(a) => unit_power(a, case, word, memo, depth + 1),
        ExprKind::Param(name) => {
            if let Some(&c) = memo.get(name) {
                return c;
            }
            let c = case
                .parameters
                .iter()
                .find(|p| &p.name == name)
                .map_or(0, |p| {
                    unit_power(&p.value.expr, case, word, memo, depth + 1)
                });
            memo.insert(name.clone(), c);
            c
        }
        ExprKind::Binary(op, a, b) => {
            let x = unit_power(a, case, word, memo, depth + 1);
            match op {
                BinOp::Add | BinOp::Sub => x,
                BinOp::Mul => x + unit_power(b, case, word, memo, depth + 1),
                BinOp::Div => x - unit_power(b, case, word, memo, depth + 1),
                BinOp::Pow => match &b.kind {
                    ExprKind::Number(n) if n.value.fract() == 0.0 && n.value.abs() < 16.0 => {
                        x * n.value as i32
                    }
                    _ => 0,
                },
            }
        }
    }
}

/// Power of the words `word` picks in a unit as typed (`Hz`, `kHz`, `rpm`;
/// `rad`), with their powers; in the denominator negative.
fn unit_words(text: &str, word: fn(&str) -> bool) -> i32 {
    let (num, den) = text.split_once('/').unwrap_or((text, ""));
    let count = |part: &str| -> i32 {
        part.split(|c: char| c.is_whitespace() || c == '·' || c == '*')
            .filter(|w| !w.is_empty())
            .map(|w| {
                let (w, pow) = w
                    .split_once('^')
                    .map_or((w, 1), |(a, b)| (a, b.parse().unwrap_or(1)));
                if word(w) { pow } else { 0 }
            })
            .sum()
    };
    count(num) - count(den)
}

/// The relative precision an expression was written to: half a unit in the
/// last place of its least precise decimal literal (integers are exact).
fn written_precision(e: &crate::expr::Expr) -> f64 {
    use crate::expr::ExprKind;
    let mut rel: f64 = 0.0;
    e.visit(&mut |n| {
        let number = match &n.kind {
            ExprKind::Number(x) | ExprKind::Quantity(x, _) => x,
            _ => return,
        };
        let text = number.text.to_ascii_lowercase();
        if !text.contains('.') && !text.contains('e') {
            return;
        }
        let (mantissa, exp) = match text.split_once('e') {
            Some((m, e)) => (m.to_string(), e.parse::<i32>().unwrap_or(0)),
            None => (text.clone(), 0),
        };
        let decimals = mantissa.split_once('.').map_or(0, |(_, f)| f.len() as i32);
        let half = 0.5 * 10f64.powi(exp - decimals);
        if number.value != 0.0 {
            rel = rel.max(half / number.value.abs());
        }
    });
    rel
}

/// A number with a true minus sign (U+2212), as the reports print it.
fn signed(x: f64, digits: usize) -> String {
    let s = crate::number::sig(x, digits);
    match s.strip_prefix('-') {
        Some(rest) => format!("−{rest}"),
        None if x > 0.0 => format!("+{s}"),
        None => s,
    }
}

/// `claimed 0.7553 1/kg, computed 0.6846 1/kg (−9.357 %)`: the report's
/// significant figures, more only where the two would otherwise print
/// alike (a near miss still shows where they differ).
fn mismatch(claim: &Claim, computed: f64, claimed: f64, digits: usize) -> String {
    let unit = claim.of.unit();
    let mut d = digits.max(1);
    while d < 12 && crate::number::sig(claimed, d) == crate::number::sig(computed, d) {
        d += 1;
    }
    let diff = if claimed != 0.0 {
        format!(
            "{} %",
            signed(100.0 * (computed - claimed) / claimed.abs(), digits.max(1))
        )
    } else {
        "claimed 0".to_string()
    };
    let show = |x: f64| crate::number::sig(x, d).replace('-', "−");
    format!(
        "claimed {} {unit}, computed {} {unit} ({diff})",
        show(claimed),
        show(computed)
    )
}

fn check_one(
    case: &Case,
    env: &Env,
    an: &Analysis,
    claim: &Claim,
    seed: u64,
    symbolic: Option<SymbolicVerdict>,
    digits: usize,
) -> ClaimResult {
    let rhs_expr = match &claim.rhs {
        ClaimRhs::Expression(e) | ClaimRhs::Literal { expr: e, .. } => e,
    };
    let base = ClaimResult {
        verdict: Verdict::Failed,
        how: Method::Numeric,
        value: None,
        expected: None,
        tolerance: None,
        message: None,
        detail: None,
        counterexample: None,
    };
    let expected = match claimed_side(env, claim, rhs_expr, &base) {
        Ok(v) => v,
        Err(done) => return *done,
    };
    let (factor, conversion) = cycle_conversion(case, claim, rhs_expr);
    let claimed = expected.si * factor;
    let value = match value_of(&claim.of, an) {
        Ok(v) => v,
        Err(msg) => {
            return ClaimResult {
                expected: Some(claimed),
                message: Some(msg),
                ..base
            };
        }
    };
    // A value: one literal, or an expression without parameters (then it
    // is the same number everywhere), compared to the precision written.
    let constant = match &claim.rhs {
        ClaimRhs::Literal { half_ulp, .. } => Some(half_ulp * factor.abs()),
        ClaimRhs::Expression(e) if e.params().is_empty() => {
            Some(written_precision(e).max(DEFAULT_REL_TOL) * claimed.abs())
        }
        ClaimRhs::Expression(_) => None,
    };
    if let Some(half_ulp) = constant {
        return value_verdict(claim, (value, claimed), half_ulp, conversion, digits, base);
    }
    let rel = claim.rel_tol.unwrap_or(DEFAULT_REL_TOL);
    let numeric = ClaimResult {
        value: Some(value),
        expected: Some(claimed),
        tolerance: Some(rel * value.abs().max(claimed.abs())),
        ..base
    };
    let at_case = Comparison {
        value,
        expected: claimed,
        rel,
        factor,
        digits,
    };
    let numeric = probe_claim(case, claim, numeric, at_case, seed);
    // A converted claim is decided by probing (the canonical forms know
    // nothing of cycles).
    let symbolic = if factor == 1.0 { symbolic } else { None };
    let symbolic = match symbolic {
        // A claim given a `rel_tol` is an approximation: the probes within
        // it decide, and a difference that simplifies is shown, not failed.
        Some(SymbolicVerdict::Differs { difference, .. })
            if claim.rel_tol.is_some() && numeric.verdict == Verdict::Passed =>
        {
            return approximation(numeric, &difference);
        }
        other => other,
    };
    with_symbolic(case, numeric, symbolic, conversion)
}

/// A claim with a `rel_tol` that holds within it at the case's values and
/// every probe point, though it is not an identity.
fn approximation(numeric: ClaimResult, difference: &str) -> ClaimResult {
    let within = "within `rel_tol` at the case's values and at every probe point";
    let message = if difference.chars().count() <= 80 {
        format!("{within}; not an identity: the difference simplifies to {difference}")
    } else {
        format!("{within}; not an identity (see details)")
    };
    ClaimResult {
        message: Some(match &numeric.message {
            Some(m) => format!("{m}; {message}"),
            None => message,
        }),
        detail: Some(format!("difference (computed − claimed): {difference}")),
        ..numeric
    }
}

/// The claimed side at the case point, checked for dimension; or the
/// result that ends the check (not dimensionally consistent, cannot be
/// evaluated, the wrong dimension).
fn claimed_side(
    env: &Env,
    claim: &Claim,
    rhs_expr: &crate::expr::Expr,
    base: &ClaimResult,
) -> Result<crate::expr::Value, Box<ClaimResult>> {
    let base = base.clone();
    let expected = match env.eval(rhs_expr) {
        Ok(v) => v,
        Err(e) if e.message.contains("dimension") => {
            return Err(Box::new(ClaimResult {
                how: Method::Dimension,
                message: Some(format!(
                    "the claimed expression is not dimensionally consistent: {}",
                    e.message
                )),
                ..base
            }));
        }
        Err(e) => {
            return Err(Box::new(ClaimResult {
                verdict: Verdict::Undetermined,
                message: Some(format!(
                    "the claimed expression cannot be evaluated: {}",
                    e.message
                )),
                ..base
            }));
        }
    };
    let want = claim.of.dim();
    if !expected.fits(want) {
        let got = expected.dim.unwrap_or_default();
        return Err(Box::new(ClaimResult {
            how: Method::Dimension,
            expected: Some(expected.si),
            message: Some(format!(
                "dimension mismatch: {} is in {want}, the claim is in {got}",
                claim.of_text
            )),
            ..base
        }));
    }
    Ok(expected)
}

/// A claim of a value (one literal, or an expression without parameters)
/// compared to the precision written (`half_ulp`) or `rel_tol`.
fn value_verdict(
    claim: &Claim,
    (value, claimed): (f64, f64),
    half_ulp: f64,
    conversion: Option<String>,
    digits: usize,
    base: ClaimResult,
) -> ClaimResult {
    let tol = match claim.rel_tol {
        Some(r) => r * claimed.abs(),
        None => half_ulp,
    };
    let passed = (value - claimed).abs() <= tol * (1.0 + 1e-12);
    let given = if claim.rel_tol.is_some() {
        "given by `rel_tol`"
    } else {
        "the claim is written to"
    };
    ClaimResult {
        verdict: if passed {
            Verdict::Passed
        } else {
            Verdict::Failed
        },
        how: Method::Quantity,
        value: Some(value),
        expected: Some(claimed),
        tolerance: Some(tol),
        message: if passed {
            conversion
        } else {
            Some(format!(
                "{}, beyond the ±{} {} {given}",
                mismatch(claim, value, claimed, digits),
                crate::number::sig(tol, 2),
                claim.of.unit()
            ))
        },
        ..base
    }
}

/// The probed result with the symbolic verdict where it decides: equal
/// forms pass; a difference that simplifies fails, shown with it; an
/// opaque one only explains a numeric failure.
fn with_symbolic(
    case: &Case,
    numeric: ClaimResult,
    symbolic: Option<SymbolicVerdict>,
    conversion: Option<String>,
) -> ClaimResult {
    match symbolic {
        Some(SymbolicVerdict::Equal) => ClaimResult {
            verdict: Verdict::Passed,
            how: Method::Symbolic,
            message: None,
            counterexample: None,
            ..numeric
        },
        Some(SymbolicVerdict::Differs {
            difference,
            opaque: false,
        }) => {
            let short = difference.chars().count() <= 80;
            ClaimResult {
                verdict: Verdict::Failed,
                how: Method::Symbolic,
                message: Some(match (&numeric.message, short) {
                    (Some(m), true) => format!("{m}; the difference simplifies to {difference}"),
                    (Some(m), false) => m.clone(),
                    (None, true) => format!(
                        "it matches at the probe points, but the difference simplifies to {difference}, not 0"
                    ),
                    (None, false) => "it matches at the probe points, but the difference does not simplify to 0 (see details)".into(),
                }),
                detail: Some(format!("difference (computed − claimed): {difference}")),
                counterexample: numeric.counterexample.clone().or_else(|| {
                    Some(
                        case.parameters
                            .iter()
                            .zip(crate::model::used_parameters(case))
                            .filter(|(_, u)| *u)
                            .map(|(p, _)| (p.name.clone(), p.value.si))
                            .collect(),
                    )
                }),
                ..numeric
            }
        }
        Some(SymbolicVerdict::Differs {
            difference,
            opaque: true,
        }) if numeric.verdict == Verdict::Failed => ClaimResult {
            detail: Some(format!("difference (computed − claimed): {difference}")),
            ..numeric
        },
        _ => ClaimResult {
            message: numeric.message.clone().or(conversion),
            ..numeric
        },
    }
}

/// A claim compared at the case point: computed and claimed values, the
/// relative tolerance, and the factor the claimed side is converted by.
struct Comparison {
    value: f64,
    expected: f64,
    rel: f64,
    factor: f64,
    digits: usize,
}

/// Compares at the case point, then at seeded probe points.
fn probe_claim(
    case: &Case,
    claim: &Claim,
    result: ClaimResult,
    at_case: Comparison,
    seed: u64,
) -> ClaimResult {
    let Comparison {
        value,
        expected,
        rel,
        factor,
        digits,
    } = at_case;
    // Only the parameters the model or the claim use are probed and shown.
    let used = crate::model::used_parameters(case);
    let shown = |value: &dyn Fn(&crate::case::Parameter) -> f64| -> Vec<(String, f64)> {
        case.parameters
            .iter()
            .zip(&used)
            .filter(|(_, u)| **u)
            .map(|(p, _)| (p.name.clone(), value(p)))
            .collect()
    };
    if !close(value, expected, rel) {
        return ClaimResult {
            message: Some(format!(
                "at the case's values: {}",
                mismatch(claim, value, expected, digits)
            )),
            counterexample: Some(shown(&|p| p.value.si)),
            ..result
        };
    }
    let independent: Vec<usize> = (0..case.parameters.len())
        .filter(|&i| used[i] && case.parameters[i].value.expr.params().is_empty())
        .collect();
    let mut rng = SplitMix(0x6d65_6666 ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut probed = 0;
    for _ in 0..PROBES {
        let overrides: Vec<(usize, f64)> = independent
            .iter()
            .map(|&i| (i, probe_value(case, i, &used, rng.unit())))
            .collect();
        let Some((v, e, env)) = probe(case, claim, &overrides, &used) else {
            continue;
        };
        let e = e * factor;
        probed += 1;
        if !close(v, e, rel) {
            return ClaimResult {
                message: Some(format!(
                    "holds at the case's values but not at another point: {}",
                    mismatch(claim, v, e, digits)
                )),
                counterexample: Some(shown(&|p| env.values[&p.name].si)),
                ..result
            };
        }
    }
    let message = if crate::control::spent() && probed < PROBES {
        Some(format!(
            "checked at the case's values and {probed} of {PROBES} probe points: the evaluation's work allowance for impacts, sweeps and claim probes was spent"
        ))
    } else {
        (probed == 0)
            .then(|| "checked at the case's values only (no probe point gave a valid model)".into())
    };
    ClaimResult {
        verdict: Verdict::Passed,
        message,
        ..result
    }
}

/// Parameter `i`'s value at a probe point, from `u` uniform in [0, 1): its
/// own value times 0.5–2; a parameter whose value is 0 (a tilt, an
/// offset) would stay 0 that way and a claim that holds only there would
/// pass, so it takes both signs at a scale the case gives: the far end of
/// its tolerance, else the largest parameter of the same dimension the
/// model uses, else one SI unit (1 rad for an angle).
fn probe_value(case: &Case, i: usize, used: &[bool], u: f64) -> f64 {
    let p = &case.parameters[i];
    if p.value.si != 0.0 {
        return p.value.si * (0.5 + 1.5 * u);
    }
    let from_tolerance = p
        .tolerance
        .as_ref()
        .map(|t| t.lo.abs().max(t.hi.abs()))
        .filter(|s| s.is_finite() && *s > 0.0);
    let alike = || {
        case.parameters
            .iter()
            .zip(used)
            .filter(|(q, u)| **u && q.value.dim == p.value.dim)
            .map(|(q, _)| q.value.si.abs())
            .filter(|s| s.is_finite() && *s > 0.0)
            .reduce(f64::max)
    };
    let scale = from_tolerance.or_else(alike).unwrap_or(1.0);
    scale * (2.0 * u - 1.0)
}

fn probe(
    case: &Case,
    claim: &Claim,
    overrides: &[(usize, f64)],
    used: &[bool],
) -> Option<(f64, f64, Env)> {
    let env = Env::with_overrides_of(case, overrides, Some(used)).ok()?;
    // A probe point is a case point: the same checks, else skipped.
    if case.violation(&env).is_some() {
        return None;
    }
    let (m, laws) = model::build_at(case, &env)?;
    let impacts: Vec<usize> = match claim.of {
        Quantity::Impact(_, i, _) => vec![i],
        _ => Vec::new(),
    };
    let an = crate::analysis::analyze_for(case, &m, &laws, &impacts).ok()?;
    let value = value_of(&claim.of, &an).ok()?;
    let rhs = match &claim.rhs {
        ClaimRhs::Expression(e) | ClaimRhs::Literal { expr: e, .. } => e,
    };
    let expected = env.eval(rhs).ok()?.si;
    Some((value, expected, env))
}

/// A small seeded generator (SplitMix64) so probe points are reproducible.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}
