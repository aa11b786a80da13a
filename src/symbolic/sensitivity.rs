//! Sensitivities: the elasticities `∂ln m_eff/∂ln p` and `∂ln ω/∂ln p` of
//! every contact with respect to every independent parameter.
//!
//! Values come from differentiating the closed forms and evaluating the
//! derivatives numerically (chain rule through function atoms, no
//! canonicalisation, so this is cheap even for long expressions). The
//! simplified closed form of the elasticity is added when it fits in a
//! small work budget.

use super::eval_poly;
use super::poly::{Poly, with_budget};
use super::{Atom, Converter, Derivation, Frac, SymForm, Symbols, poly_derivative};
use crate::case::Case;
use crate::expr::Func;

/// Work budget for one simplified elasticity form.
pub const FORM_BUDGET: u64 = 20_000;

/// One contact's sensitivity to one parameter.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Sensitivity {
    /// Contact name.
    pub contact: String,
    /// Parameter name.
    pub parameter: String,
    /// `∂ln m_eff/∂ln p` at the case point; `None` where p's nominal
    /// value is 0 ([`ZERO_NOMINAL`]).
    pub m_eff: Option<f64>,
    /// `∂ln ω/∂ln p` at the case point; `None` where p's nominal value
    /// is 0.
    pub omega: Option<f64>,
    /// `∂ln m_eff/∂ln p` in closed form, when it simplifies within budget.
    pub m_eff_symbolic: Option<SymForm>,
}

/// The atoms `f` depends on, directly or through the arguments of function
/// atoms.
fn dependencies(f: &Frac, symbols: &Symbols) -> std::collections::BTreeSet<usize> {
    let mut out = std::collections::BTreeSet::new();
    let mut stack = f.vars();
    while let Some(v) = stack.pop() {
        if out.insert(v)
            && let Atom::Call(_, arg) = &symbols.atoms()[v]
        {
            stack.extend(arg.vars());
        }
    }
    out
}

/// `d poly / d atom p` at the case point, through the chain rule.
fn poly_rate(poly: &Poly, p: usize, symbols: &Symbols, rates: &mut Vec<Option<f64>>) -> f64 {
    let values = symbols.values();
    let mut total = 0.0;
    for v in poly.vars() {
        let r = atom_rate(v, p, symbols, rates);
        if r != 0.0 {
            total += eval_poly(&poly_derivative(poly, v), values) * r;
        }
    }
    total
}

/// `d f / d atom p` at the case point.
fn frac_rate(f: &Frac, p: usize, symbols: &Symbols, rates: &mut Vec<Option<f64>>) -> f64 {
    let values = symbols.values();
    let (n, d) = (eval_poly(f.num(), values), eval_poly(f.den(), values));
    let dn = poly_rate(f.num(), p, symbols, rates);
    let dd = poly_rate(f.den(), p, symbols, rates);
    (dn * d - n * dd) / (d * d)
}

/// `d atom v / d atom p` at the case point (memoised in `rates`).
fn atom_rate(v: usize, p: usize, symbols: &Symbols, rates: &mut Vec<Option<f64>>) -> f64 {
    if v == p {
        return 1.0;
    }
    if let Some(Some(r)) = rates.get(v) {
        return *r;
    }
    let r = match &symbols.atoms()[v] {
        Atom::Param(_) | Atom::Pi | Atom::Given(..) => 0.0,
        Atom::Call(func, arg) => {
            let du = frac_rate(arg, p, symbols, rates);
            if du == 0.0 {
                0.0
            } else {
                let u = symbols.eval(arg);
                let dfdu = match func {
                    Func::Sin => u.cos(),
                    Func::Cos => -u.sin(),
                    Func::Tan => 1.0 + u.tan().powi(2),
                    Func::Exp => u.exp(),
                    Func::Ln => 1.0 / u,
                    Func::Sqrt => 0.5 / u.sqrt(),
                    Func::Log10 => 1.0 / (u * std::f64::consts::LN_10),
                    Func::Asin => 1.0 / (1.0 - u * u).sqrt(),
                    Func::Acos => -1.0 / (1.0 - u * u).sqrt(),
                    Func::Atan => 1.0 / (1.0 + u * u),
                    Func::Abs => u.signum(),
                };
                dfdu * du
            }
        }
    };
    if rates.len() <= v {
        rates.resize(v + 1, None);
    }
    rates[v] = Some(r);
    r
}

/// The derivative of `f` with respect to atom `p` as a closed form,
/// following the chain rule through function atoms whose arguments depend on
/// `p` (new atoms such as `sin u` for `d cos u` are interned as needed).
pub fn derivative(f: &Frac, p: usize, conv: &mut Converter) -> Frac {
    let mut total = f.derivative(p);
    for v in f.vars() {
        let Atom::Call(func, arg) = conv.symbols.atoms()[v].clone() else {
            continue;
        };
        if !arg.vars().contains(&p) {
            continue;
        }
        let du = derivative(&arg, p, conv);
        let atom = Frac::var(v);
        let d_atom = match func {
            Func::Sin => conv.call(Func::Cos, arg.clone()),
            Func::Cos => -conv.call(Func::Sin, arg.clone()),
            Func::Tan => Frac::int(1) + atom.clone() * atom.clone(),
            Func::Exp => atom.clone(),
            Func::Ln => Frac::int(1) / arg.clone(),
            Func::Sqrt => Frac::int(1) / (Frac::int(2) * atom.clone()),
            Func::Log10 => {
                let ln10 = conv.call(Func::Ln, Frac::int(10));
                Frac::int(1) / (arg.clone() * ln10)
            }
            Func::Asin | Func::Acos => {
                let root = conv.call(Func::Sqrt, Frac::int(1) - arg.clone() * arg.clone());
                let d = Frac::int(1) / root;
                if func == Func::Asin { d } else { -d }
            }
            Func::Atan => Frac::int(1) / (Frac::int(1) + arg.clone() * arg.clone()),
            Func::Abs => atom.clone() / arg.clone(),
        };
        total = total + f.derivative(v) * d_atom * du;
    }
    total
}

/// Elasticities for every contact and independent parameter.
pub fn sensitivities(case: &Case, d: &Derivation) -> Vec<Sensitivity> {
    let by_name: std::collections::HashMap<&str, &crate::case::Parameter> = case
        .parameters
        .iter()
        .map(|p| (p.name.as_str(), p))
        .collect();
    let mut out = Vec::new();
    for (i, contact) in case.contacts.iter().enumerate() {
        let a = &d.expanded[i][i];
        let k = &d.stiffness_expanded[i];
        if a.is_zero() {
            continue;
        }
        // Only parameters that a or k depend on (others have zero
        // elasticities; a case may define thousands of parameters), in file
        // order (atoms of parameters are registered in file order).
        let mut deps = dependencies(a, &d.symbols);
        deps.extend(dependencies(k, &d.symbols));
        for &v in &deps {
            let Atom::Param(name) = &d.symbols.atoms()[v] else {
                continue;
            };
            let Some(param) = by_name.get(name.as_str()) else {
                continue;
            };
            if !param.value.expr.params().is_empty() {
                continue;
            }
            let pv = param.value.si;
            let mut rates = Vec::new();
            let eps_a = pv * frac_rate(a, v, &d.symbols, &mut rates) / d.symbols.eval(a);
            let eps_k = pv * frac_rate(k, v, &d.symbols, &mut rates) / d.symbols.eval(k);
            let derived = with_budget(FORM_BUDGET, || {
                let mut symbols = d.symbols.clone();
                let mut conv = Converter::new(&mut symbols, &d.definitions, true);
                conv.memo = d.expansions.clone();
                let da = derivative(a, v, &mut conv);
                let eps = -(Frac::var(v) * da / a.clone());
                let eps = super::reduce_trig(&eps, conv.symbols);
                (eps, symbols)
            });
            // The printed form is searched in its own budget.
            let form = derived.map(|(eps, mut symbols)| {
                let r = super::readable(&eps, &mut symbols);
                // Parameters as the sheet prints them, typed quantities by
                // their symbols.
                let printer = super::Printer::names(&symbols, &d.symbol_names).with_given(&d.given);
                SymForm {
                    text: printer.readable_text(&r),
                    latex: printer.readable_latex(&r),
                }
            });
            out.push(Sensitivity {
                contact: contact.name.clone(),
                parameter: param.name.clone(),
                m_eff: (pv != 0.0).then(|| clean(-eps_a)),
                omega: (pv != 0.0).then(|| clean(0.5 * (eps_k + eps_a))),
                m_eff_symbolic: form,
            });
        }
        if let crate::case::ContactLaw::Hertz(h) = &contact.law {
            with_hertz_law(case, h, &contact.name, &mut out);
        }
    }
    out
}

/// A Hertz contact's stiffness is a number in the closed forms (derived
/// from the law's inputs at each point, `case::HertzInputs::derive`): its
/// elasticity to each independent parameter the law uses,
/// `∂ln k/∂ln p`, by a central difference of the law at p(1 ± 10⁻⁶),
/// joins `∂ln ω/∂ln p = ½(∂ln k/∂ln p − ∂ln A_ii/∂ln p)`; a parameter only
/// the law uses gets its own row (m_eff does not depend on it).
fn with_hertz_law(
    case: &Case,
    h: &crate::case::HertzLaw,
    contact: &str,
    out: &mut Vec<Sensitivity>,
) {
    use crate::case::Env;
    let k_at = |p: usize, x: f64| {
        let env = Env::with_overrides(case, &[(p, x)]).ok()?;
        h.at(&mut |v| env.si(v).ok()).map(|l| l.stiffness)
    };
    for (p, param) in case.parameters.iter().enumerate() {
        let pv = param.value.si;
        if !param.value.expr.params().is_empty() || pv == 0.0 {
            continue;
        }
        let dx = 1e-6 * pv.abs();
        let Some((up, down)) = k_at(p, pv + dx).zip(k_at(p, pv - dx)) else {
            continue;
        };
        let eps_k = clean(pv * (up - down) / (2.0 * dx) / h.stiffness);
        if eps_k.abs() < 1e-9 {
            continue;
        }
        match out
            .iter_mut()
            .find(|s| s.contact == contact && s.parameter == param.name)
        {
            Some(s) => s.omega = s.omega.map(|w| clean(w + 0.5 * eps_k)),
            None => out.push(Sensitivity {
                contact: contact.to_string(),
                parameter: param.name.clone(),
                m_eff: Some(0.0),
                omega: Some(0.5 * eps_k),
                m_eff_symbolic: None,
            }),
        }
    }
}

/// Why a parameter at a nominal value of 0 has no elasticity (the sheets
/// print "—" and this).
pub const ZERO_NOMINAL: &str = "—: the parameter's nominal value is 0, where an elasticity ∂ln q/∂ln p = (p/q) ∂q/∂p is 0 whatever q's dependence on p, so it says nothing; a tolerance on such a parameter is searched over its interval (see Tolerances).";

/// Round-off residue is not a sensitivity.
fn clean(x: f64) -> f64 {
    if x.abs() < 1e-14 { 0.0 } else { x }
}
