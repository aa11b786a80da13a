//! Claims as the report carries them: the claim as written, in LaTeX, its
//! verdict and values; and the sheet's symbols for impact results.

use crate::case::Case;
use serde::Serialize;

/// The sheet's symbol of an impact result at contact `c` (LaTeX).
pub fn impact_symbol(q: crate::case::ImpactQuantity, c: &str) -> String {
    use crate::case::ImpactQuantity as Q;
    match q {
        Q::PeakForce => format!("\\hat{{F}}_{{{c}}}"),
        Q::Duration => format!("\\tau_{{{c}}}"),
        Q::Restitution => format!("e_{{{c}}}"),
        Q::Compression => format!("\\delta_{{\\max,\\,{c}}}"),
    }
}

/// `of = equals` in LaTeX: the quantity in words' symbols, the right-hand
/// side as written.
pub(super) fn claim_latex(case: &Case, claim: &crate::case::Claim) -> String {
    use crate::case::{ClaimRhs, Quantity};
    let name = |i: usize| {
        crate::notation::tex_text(&if i < case.n_contacts() {
            case.contact_name(i)
        } else {
            "?".into()
        })
    };
    let of = match claim.of {
        Quantity::A(i) => format!("a_{{{}}}", name(i)),
        Quantity::MEff(i) => format!("m_{{\\mathrm{{eff}},\\,{}}}", name(i)),
        Quantity::Omega(i) => format!("\\omega_{{{}}}", name(i)),
        Quantity::F(i) => format!("f_{{{}}}", name(i)),
        Quantity::Delassus(i, j) => format!("A_{{{},\\,{}}}", name(i), name(j)),
        Quantity::ModeOmega(k) => format!("\\omega_{{\\mathrm{{mode}}\\,{k}}}"),
        Quantity::ModeF(k) => format!("f_{{\\mathrm{{mode}}\\,{k}}}"),
        Quantity::Impact(q, k, i) => {
            let symbol = impact_symbol(q, &name(i));
            // A contact in several impacts: the claim's impact named too.
            let shared = case
                .impacts
                .iter()
                .filter(|m| m.contacts.contains(&i) || m.resting.contains(&i))
                .count()
                > 1;
            match case.impacts.get(k) {
                Some(m) if shared => {
                    format!("{symbol}^{{({})}}", crate::notation::tex_text(&m.name))
                }
                _ => symbol,
            }
        }
    };
    let symbol_of = |p: &str| {
        case.parameters
            .iter()
            .find(|q| q.name == p)
            .map_or_else(|| crate::notation::latex_symbol(p), |q| q.symbol_latex())
    };
    let rhs = match &claim.rhs {
        ClaimRhs::Expression(e) | ClaimRhs::Literal { expr: e, .. } => {
            crate::expr::print::latex(e, &symbol_of)
        }
    };
    format!("{of} = {rhs}")
}

/// A claim's verdict.
#[derive(Clone, Debug, Serialize)]
pub struct ClaimReport {
    /// `of` as typed.
    pub of: String,
    /// `equals` as typed.
    pub equals: String,
    /// The claim `of = equals` typeset, in LaTeX (parameters as their
    /// report symbols).
    pub latex: String,
    /// `true`/`false`; `null` when undetermined.
    pub passed: Option<bool>,
    /// `passed`, `failed` or `undetermined`.
    pub verdict: &'static str,
    /// `symbolic`, `numeric`, `quantity` or `dimension`.
    pub how: &'static str,
    /// Computed value (SI).
    pub value: Option<f64>,
    /// Claimed value (SI).
    pub expected: Option<f64>,
    /// Absolute tolerance applied (SI).
    pub tolerance: Option<f64>,
    /// The SI unit of `value`, `expected` and `tolerance` (`kg`, `1/kg`,
    /// `rad/s`, `s`, …; empty for a ratio).
    pub unit: &'static str,
    /// Explanation of a failure (short).
    pub message: Option<String>,
    /// Longer evidence, such as the simplified difference.
    pub details: Option<String>,
    /// Parameter values (SI) where the claim fails.
    pub counterexample: Option<Vec<ParameterValue>>,
}

/// A parameter's SI value at some point.
#[derive(Clone, Debug, Serialize)]
pub struct ParameterValue {
    /// Parameter name.
    pub name: String,
    /// SI value.
    pub value: f64,
}

/// Each claim with its verdict, in case order.
pub(super) fn claim_reports(
    case: &Case,
    claims: &[crate::claims::ClaimResult],
) -> Vec<ClaimReport> {
    case.claims
        .iter()
        .zip(claims)
        .map(|(c, r)| ClaimReport {
            of: c.of_text.clone(),
            equals: c.equals_text.clone(),
            latex: claim_latex(case, c),
            passed: match r.verdict {
                crate::claims::Verdict::Passed => Some(true),
                crate::claims::Verdict::Failed => Some(false),
                crate::claims::Verdict::Undetermined => None,
            },
            verdict: match r.verdict {
                crate::claims::Verdict::Passed => "passed",
                crate::claims::Verdict::Failed => "failed",
                crate::claims::Verdict::Undetermined => "undetermined",
            },
            how: r.how.name(),
            value: r.value,
            expected: r.expected,
            tolerance: r.tolerance,
            unit: c.of.unit(),
            message: r.message.clone(),
            details: r.detail.clone(),
            counterexample: r.counterexample.as_ref().map(|pts| {
                pts.iter()
                    .map(|(name, value)| ParameterValue {
                        name: name.clone(),
                        value: *value,
                    })
                    .collect()
            }),
        })
        .collect()
}
