//! Symbolic assembly and the exact Delassus matrix, with the derivation
//! lines a report shows.

use super::named::{NamedQuantity, SymForm, name_quantities, substituted_values};
use super::poly::{Poly, Q, gcd};
use super::{Converter, Frac, Printer, Readable, Symbols, Unsupported, symbols_of};
use crate::case::{Case, Val};
use crate::linalg::row_space_basis;
use crate::model::{self, SparseRow, System};
use nalgebra::DMatrix;
use num_traits::One;

/// Above this many generalized velocities a system with constraints (or a
/// dense generalized mass matrix) is not eliminated symbolically.
pub const MAX_DOFS: usize = 12;
/// Above this many contacts no symbolic Delassus matrix is formed.
pub const MAX_CONTACTS: usize = 8;
/// Largest number of polynomial terms (numerator + denominator) allowed in
/// any entry before the symbolic path gives up.
pub const TERM_BUDGET: usize = 2000;
/// Work units (coefficient operations) one derivation may spend.
pub const WORK_BUDGET: u64 = 2_500_000;

/// The derivation for one contact.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ContactDerivation {
    /// Contact name.
    pub name: String,
    /// Nonzero Jacobian entries: (dof name, entry).
    pub jacobian: Vec<(String, SymForm)>,
    /// `a` in readable form (a sum of simple terms where the denominator
    /// allows).
    pub a: SymForm,
    /// `a` as one fraction.
    pub a_fraction: SymForm,
    /// `m_eff = 1/a` as one fraction (`None` when a = 0).
    pub m_eff: Option<SymForm>,
    /// `a` with every parameter replaced by its value and unit.
    pub a_substituted: SymForm,
}

/// Everything the symbolic engine derived for a case.
#[derive(Clone, Debug)]
pub struct Derivation {
    /// The atoms (parameters, π, function calls).
    pub symbols: Symbols,
    /// A over the parameters as the case names them.
    pub delassus: Vec<Vec<Frac>>,
    /// A with derived parameters replaced by their definitions (over the
    /// independent parameters): what claims are compared with.
    pub expanded: Vec<Vec<Frac>>,
    /// The definitions of the parameters the case uses (by name).
    pub definitions: Vec<(String, crate::expr::Expr)>,
    /// Derived parameters expanded into independent ones (reused by claims
    /// and sensitivities, so a long chain of definitions is expanded once).
    pub expansions: std::collections::HashMap<String, Frac>,
    /// Stiffness of each contact, expanded.
    pub stiffness_expanded: Vec<Frac>,
    /// Readable forms of A (row-major).
    pub delassus_forms: Vec<Vec<SymForm>>,
    /// Per contact.
    pub contacts: Vec<ContactDerivation>,
    /// Mass matrix entries (dense; only for up to [`MAX_DOFS`] velocities).
    pub mass: Option<Vec<Vec<SymForm>>>,
    /// Dof names.
    pub dofs: Vec<String>,
    /// Named intermediate quantities the LaTeX forms use.
    pub quantities: Vec<NamedQuantity>,
    /// Per contact with a tangential spring, in case order: its tangent
    /// rows' closed forms, from the same assembly over every row.
    pub tangential: Vec<TangentialDerivation>,
    /// The quantities typed as numbers that the forms keep as symbols
    /// (ℓ₁ = 0.02 m): the sheet's "where" line.
    pub given: Vec<super::GivenQuantity>,
    /// Each used parameter's LaTeX symbol as the sheet prints it.
    pub symbol_names: Vec<(String, String)>,
}

/// The closed forms of one contact's tangent rows.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TangentialDerivation {
    /// Contact index.
    pub contact: usize,
    /// Per tangent row: `m_t = 1/A_tt` as one fraction (`None` when A_tt = 0).
    pub m_t: Vec<Option<SymForm>>,
    /// Per tangent row: `m_t / m_n = A_nn / A_tt` (`None` when either is 0).
    pub m_t_over_m_n: Vec<Option<SymForm>>,
    /// Per tangent row: `m_t / m_n` exactly (for tests and claims).
    #[serde(skip)]
    pub ratio: Vec<Option<Frac>>,
}

/// Derives A and the per-contact forms for a case. `numeric` is the numeric
/// system, used to pick a set of independent constraint rows.
pub fn derive(case: &Case, numeric: &System<f64>) -> Result<Derivation, Unsupported> {
    if matches!(case.form, crate::case::Form::Robot(_)) {
        return Err(Unsupported(
            "M(q) of a model read from MJCF or URDF is evaluated numerically at the configuration"
                .into(),
        ));
    }
    // The size limit first: it is what stops a large case of either kind.
    let c = case.n_contacts();
    if c > MAX_CONTACTS {
        return Err(Unsupported(format!(
            "{c} contacts (the symbolic limit is {MAX_CONTACTS})"
        )));
    }
    if case.scene.is_some() {
        return Err(Unsupported(
            "the bodies and contacts are numbers from a scene file: there are no symbols to keep"
                .into(),
        ));
    }
    // Typed quantities kept as symbols (ℓ₁ = 0.02 m); where that grows
    // past the budget, the forms with them as constants.
    let attempt = |given: bool| {
        super::poly::with_budget(WORK_BUDGET, || {
            super::with_pythagoras(|| derive_within_budget(case, numeric, given))
        })
        .unwrap_or_else(|| {
            Err(Unsupported(
                "the expressions grew too large for the symbolic engine".into(),
            ))
        })
    };
    attempt(true).or_else(|_| attempt(false))
}

fn derive_within_budget(
    case: &Case,
    numeric: &System<f64>,
    given: bool,
) -> Result<Derivation, Unsupported> {
    check_size(numeric)?;
    let (mut symbols, definitions) = symbols_of(case);
    let independent_rows = independent_constraints(numeric);
    let mut expansions = std::collections::HashMap::new();
    let mut build =
        |expand: bool, symbols: &mut Symbols| -> Result<(System<Frac>, Vec<Frac>), Unsupported> {
            let mut conv = Converter::new(symbols, &definitions, expand);
            conv.given = given;
            let model = model::build(case, &mut |v: &Val| conv.convert(&v.expr))?;
            let stiffness = model.contacts.iter().map(|c| c.stiffness.clone()).collect();
            if expand {
                expansions = std::mem::take(&mut conv.memo);
            }
            Ok((model::assemble(&model), stiffness))
        };
    let (system, _) = build(false, &mut symbols)?;
    let tangential_a =
        tangential_delassus(case, &definitions, &mut symbols, &independent_rows, given)?;
    let (system_expanded, stiffness_expanded) = build(true, &mut symbols)?;
    let tidy = |a: Vec<Vec<Frac>>, symbols: &Symbols| -> Vec<Vec<Frac>> {
        a.iter()
            .map(|row| row.iter().map(|f| super::reduce_trig(f, symbols)).collect())
            .collect()
    };
    let delassus = tidy(exact_delassus(&system, &independent_rows)?, &symbols);
    let expanded = tidy(
        exact_delassus(&system_expanded, &independent_rows)?,
        &symbols,
    );
    // Readable forms first: they may add angle atoms (sin(q1 - q2)).
    let read = |f: &Frac, symbols: &mut Symbols| super::readable(f, symbols);
    let delassus_read: Vec<Vec<Readable>> = delassus
        .iter()
        .map(|row| row.iter().map(|f| read(f, &mut symbols)).collect())
        .collect();
    let jacobian_read: Vec<Vec<(String, Readable)>> = system
        .jacobian
        .iter()
        .take(case.contacts.len())
        .map(|row| {
            row.iter()
                .map(|(j, v)| (system.dofs[*j].name(), read(v, &mut symbols)))
                .collect()
        })
        .collect();
    let mass_read: Option<Vec<Vec<Readable>>> = (system.n_dofs() <= MAX_DOFS).then(|| {
        system
            .dense_mass()
            .iter()
            .map(|row| row.iter().map(|f| read(f, &mut symbols)).collect())
            .collect()
    });
    let tangential_read = tangential_read(tangential_a, &mut symbols);
    // Parameters as the sheet prints them (marked where they collide).
    let overrides: Vec<(String, String)> = (case.parameters.iter())
        .filter(|p| symbols.param(&p.name).is_some())
        .map(|p| (p.name.clone(), p.symbol_latex()))
        .collect();
    let read = (delassus_read.iter().flatten())
        .chain(mass_read.iter().flatten().flatten())
        .chain(jacobian_read.iter().flatten().map(|(_, r)| r))
        .chain(tangential_read.iter().flat_map(|(_, rows)| {
            rows.iter()
                .flat_map(|(m, q, _)| [m.as_ref(), q.as_ref()])
                .flatten()
        }));
    let exact = (expanded.iter().flatten()).chain(&stiffness_expanded);
    let given = super::given::name_used(&symbols, read, exact);
    let names = Printer::names(&symbols, &overrides).with_given(&given);
    let values = substituted_values(case, &symbols);
    let substituted = Printer::values(&symbols, &values).with_given(&given);
    let quantities = name_quantities(case, &symbols, &names, &substituted, &delassus_read);
    // LaTeX uses the names; the text forms stay self-contained (meff's
    // parser reads them back).
    let named = names.clone().with_named(
        quantities
            .iter()
            .map(|q| (q.poly.clone(), q.name.clone(), q.symbol.clone()))
            .collect(),
    );
    let substituted_named = substituted.clone().with_named(
        quantities
            .iter()
            .map(|q| {
                let n = crate::number::sig(q.value, crate::number::DEFAULT_DIGITS);
                let tex = crate::notation::tex_number(q.value, crate::number::DEFAULT_DIGITS);
                (q.poly.clone(), n, tex)
            })
            .collect(),
    );
    let form = |p: &Printer, r: &Readable| SymForm {
        text: p.readable_text(r),
        latex: p.readable_latex(r),
    };
    let form2 = |p: &Printer, latex: &Printer, r: &Readable| SymForm {
        text: p.readable_text(r),
        latex: latex.readable_latex(r),
    };
    let contacts = case
        .contacts
        .iter()
        .enumerate()
        .map(|(i, contact)| {
            let a = &delassus_read[i][i];
            ContactDerivation {
                name: contact.name.clone(),
                jacobian: jacobian_read[i]
                    .iter()
                    .map(|(name, v)| (name.clone(), form(&names, v)))
                    .collect(),
                a: form2(&names, &named, a),
                a_fraction: single_fraction(&names, &named, a),
                m_eff: a.recip().map(|m| single_fraction(&names, &named, &m)),
                a_substituted: form2(&substituted, &substituted_named, a),
            }
        })
        .collect();
    let delassus_forms = delassus_read
        .iter()
        .map(|row| row.iter().map(|f| form2(&names, &named, f)).collect())
        .collect();
    let mass = mass_read.map(|m| {
        m.iter()
            .map(|row| row.iter().map(|f| form(&names, f)).collect())
            .collect()
    });
    let tangential = tangential_forms(tangential_read, &names, &named);
    Ok(Derivation {
        given,
        symbol_names: overrides,
        tangential,
        quantities,
        definitions,
        expansions,
        dofs: system.dofs.iter().map(|d| d.name()).collect(),
        symbols,
        delassus,
        expanded,
        stiffness_expanded,
        delassus_forms,
        contacts,
        mass,
    })
}

/// A over every row (normal and tangential, [`ContactRows::all_rows`](model::ContactRows::all_rows))
/// with which contact and direction each row is, when the case has
/// tangential springs: the same assembly as the normal rows'.
#[allow(clippy::type_complexity)]
fn tangential_delassus(
    case: &Case,
    definitions: &[(String, crate::expr::Expr)],
    symbols: &mut Symbols,
    independent: &[usize],
    given: bool,
) -> Result<Option<(Vec<Vec<Frac>>, Vec<model::RowOf>)>, Unsupported> {
    if !case.contacts.iter().any(|c| c.tangential.is_some()) {
        return Ok(None);
    }
    let mut conv = Converter::new(symbols, definitions, false);
    conv.given = given;
    let model = model::build(case, &mut |v: &Val| conv.convert(&v.expr))?;
    let (rows, of) = model::ContactRows::new(&model).all_rows();
    let mut system = model::assemble_without_contacts(&model);
    system.jacobian = rows;
    let a = exact_delassus(&system, independent)?;
    let a = a
        .iter()
        .map(|row| row.iter().map(|f| super::reduce_trig(f, symbols)).collect())
        .collect();
    Ok(Some((a, of)))
}

/// The tangent rows of one contact, read: per row `m_t` and `m_t/m_n`
/// (readable), and `m_t/m_n` exactly.
type TangentRead = (
    usize,
    Vec<(Option<Readable>, Option<Readable>, Option<Frac>)>,
);

/// The tangent rows' readable forms: `m_t = 1/A_tt` and `m_t/m_n = A_nn/A_tt`.
fn tangential_read(
    a: Option<(Vec<Vec<Frac>>, Vec<model::RowOf>)>,
    symbols: &mut Symbols,
) -> Vec<TangentRead> {
    let Some((a, of)) = a else {
        return Vec::new();
    };
    let mut out: Vec<TangentRead> = Vec::new();
    let mut normal_row = 0;
    for (i, r) in of.iter().enumerate() {
        match r.direction {
            model::Direction::Normal => normal_row = i,
            model::Direction::Tangent(_) => {
                if out.last().is_none_or(|t| t.0 != r.contact) {
                    out.push((r.contact, Vec::new()));
                }
                let (att, ann) = (&a[i][i], &a[normal_row][normal_row]);
                let m_t = super::readable(att, symbols).recip();
                let ratio = (!att.is_zero() && !ann.is_zero()).then(|| ann.clone() / att.clone());
                let ratio_read = ratio.as_ref().map(|q| super::readable(q, symbols));
                out.last_mut()
                    .expect("pushed above")
                    .1
                    .push((m_t, ratio_read, ratio));
            }
        }
    }
    out
}

/// The tangent rows' closed forms, printed.
fn tangential_forms(
    read: Vec<TangentRead>,
    names: &Printer,
    named: &Printer,
) -> Vec<TangentialDerivation> {
    read.into_iter()
        .map(|(contact, rows)| TangentialDerivation {
            contact,
            m_t: rows
                .iter()
                .map(|(m, _, _)| m.as_ref().map(|m| single_fraction(names, named, m)))
                .collect(),
            m_t_over_m_n: rows
                .iter()
                .map(|(_, r, _)| r.as_ref().map(|r| single_fraction(names, named, r)))
                .collect(),
            ratio: rows.into_iter().map(|(_, _, q)| q).collect(),
        })
        .collect()
}

/// A fraction printed as `num/den` even when the denominator is a monomial.
fn single_fraction(p: &Printer, named: &Printer, r: &Readable) -> SymForm {
    if r.den.len() > 1 || r.num.len() <= 1 {
        return SymForm {
            text: p.readable_text(r),
            latex: named.readable_latex(r),
        };
    }
    let part = |q: &super::poly::Poly| Readable {
        num: q.clone(),
        den: Poly::one(),
    };
    let (num, den) = (part(&r.num), part(&r.den));
    let wrap = |s: String| {
        if r.den.len() == 1 && !s.contains('*') {
            s
        } else {
            format!("({s})")
        }
    };
    SymForm {
        text: format!(
            "({})/{}",
            p.readable_text(&num),
            wrap(p.readable_text(&den))
        ),
        latex: format!(
            "\\frac{{{}}}{{{}}}",
            named.readable_latex(&num),
            named.readable_latex(&den)
        ),
    }
}

/// Rows of G that are independent (greedy, in order), by the numeric rank.
fn independent_constraints(system: &System<f64>) -> Vec<usize> {
    let n = system.n_dofs();
    let mut kept: Vec<usize> = Vec::new();
    for (r, _) in system.constraints.iter().enumerate() {
        let trial: Vec<usize> = kept.iter().copied().chain([r]).collect();
        let g = DMatrix::from_fn(trial.len(), n, |i, j| {
            system.constraints[trial[i]]
                .iter()
                .find(|(c, _)| *c == j)
                .map_or(0.0, |(_, v)| *v)
        });
        if row_space_basis(&g).nrows() == trial.len() {
            kept.push(r);
        }
    }
    kept
}

fn budget(f: Frac) -> Result<Frac, Unsupported> {
    if f.size() > TERM_BUDGET || super::poly::exhausted() {
        return Err(Unsupported(format!(
            "an expression grew beyond {TERM_BUDGET} terms"
        )));
    }
    Ok(f)
}

fn dense_row(row: &SparseRow<Frac>, n: usize) -> Vec<Frac> {
    let mut out = vec![Frac::zero(); n];
    for (j, v) in row {
        out[*j] = v.clone();
    }
    out
}

/// The lcm of the denominators in a row (monomials combine by maximum
/// exponents; otherwise through a gcd).
fn row_lcm(row: &[Frac]) -> Poly {
    let mut l = Poly::one();
    for f in row {
        let d = f.den();
        if d.as_constant().is_some() {
            continue;
        }
        l = if l.len() == 1 && d.len() == 1 {
            let (a, _) = l.leading().expect("nonzero");
            let (b, _) = d.leading().expect("nonzero");
            let n = a.len().max(b.len());
            let m: Vec<u32> = (0..n)
                .map(|i| {
                    a.get(i)
                        .copied()
                        .unwrap_or(0)
                        .max(b.get(i).copied().unwrap_or(0))
                })
                .collect();
            Poly::from_term(m, Q::one())
        } else {
            let g = gcd(&l, d);
            l.mul(&d.div_exact(&g).unwrap_or_else(|| d.clone()))
        };
    }
    l
}

/// Minus the Schur complement of the leading `lead × lead` block of `k`,
/// by fraction-free (Bareiss) elimination: rows are first scaled to
/// polynomials, every division in the elimination is exact, and only the
/// final entries are put in canonical form. The leading principal minors
/// must not vanish (true for the KKT matrices built here: M is positive
/// definite and the constraint rows are independent).
fn neg_schur(k: &[Vec<Frac>], lead: usize) -> Result<Vec<Vec<Frac>>, Unsupported> {
    let n = k.len();
    let scales: Vec<Poly> = k.iter().map(|row| row_lcm(row)).collect();
    let mut p: Vec<Vec<Poly>> = k
        .iter()
        .zip(&scales)
        .map(|(row, l)| over_common_denominator(row, l))
        .collect();
    let mut prev = Poly::one();
    for step in 0..lead {
        if p[step][step].is_zero() {
            return Err(Unsupported("a vanishing pivot in the elimination".into()));
        }
        let pivot = p[step][step].clone();
        for i in step + 1..n {
            for j in step + 1..n {
                let t = pivot.mul(&p[i][j]).sub(&p[i][step].mul(&p[step][j]));
                p[i][j] = t
                    .div_exact(&prev)
                    .ok_or_else(|| Unsupported("an inexact division in the elimination".into()))?;
                if super::poly::exhausted() {
                    return Err(Unsupported(
                        "the expressions grew too large for the symbolic engine".into(),
                    ));
                }
            }
            p[i][step] = Poly::zero();
        }
        prev = pivot;
    }
    let m = n - lead;
    let mut out = vec![vec![Frac::zero(); m]; m];
    for a in 0..m {
        let den = prev.mul(&scales[lead + a]);
        for b in 0..m {
            out[a][b] = budget(Frac::new(p[lead + a][lead + b].neg(), den.clone()))?;
        }
    }
    // The exact result is symmetric; keep the upper triangle's form.
    for a in 0..m {
        for b in 0..a {
            out[a][b] = out[b][a].clone();
        }
    }
    Ok(out)
}

/// The numerators of `row` over the common denominator `l` (a multiple of
/// every entry's denominator).
fn over_common_denominator(row: &[Frac], l: &Poly) -> Vec<Poly> {
    row.iter()
        .map(|f| {
            if f.is_zero() {
                Poly::zero()
            } else {
                f.num().mul(
                    &l.div_exact(f.den())
                        .expect("the lcm is a multiple of each denominator"),
                )
            }
        })
        .collect()
}

/// Largest dense block inverted by cofactors.
const COFACTOR_LIMIT: usize = 6;

/// Adjugate and determinant of a small dense block whose entries are
/// polynomials, by cofactor expansion over column subsets (only products
/// and sums, each reduced by Pythagoras as it is formed): a rigid body's
/// rotated inertia tensor has a determinant that collapses to
/// `m³ Ixx Iyy Izz` this way, where fraction-free elimination would carry
/// degree-18 trigonometric polynomials. `None` for larger blocks, rational
/// entries or a vanishing determinant.
fn small_inverse(b: &model::MassBlock<Frac>) -> Option<(Vec<Vec<Poly>>, Poly)> {
    let n = b.size;
    if n > COFACTOR_LIMIT {
        return None;
    }
    let mut m = vec![vec![Poly::zero(); n]; n];
    for r in 0..n {
        for c in 0..n {
            let f = &b.matrix[r * n + c];
            let d = f.den().as_constant()?;
            m[r][c] = f.num().scale(&d.recip());
        }
    }
    let reduce = super::frac::reduce_registered;
    // det of the rows `rows` (in order) and the columns in `mask`.
    let minors = |rows: &[usize]| -> std::collections::HashMap<u32, Poly> {
        let mut memo: std::collections::HashMap<u32, Poly> = std::collections::HashMap::new();
        memo.insert(0, Poly::one());
        for size in 1..=rows.len() {
            let row = rows[rows.len() - size];
            for mask in 0u32..(1 << n) {
                if mask.count_ones() as usize != size {
                    continue;
                }
                let mut sum = Poly::zero();
                let mut below = 0;
                for col in 0..n {
                    if mask & (1 << col) == 0 {
                        continue;
                    }
                    if !m[row][col].is_zero()
                        && let Some(sub) = memo.get(&(mask & !(1 << col)))
                        && !sub.is_zero()
                    {
                        let t = m[row][col].mul(sub);
                        sum = if below % 2 == 0 {
                            sum.add(&t)
                        } else {
                            sum.sub(&t)
                        };
                    }
                    below += 1;
                }
                memo.insert(mask, reduce(&sum));
            }
        }
        memo
    };
    let all: Vec<usize> = (0..n).collect();
    let full = (1u32 << n) - 1;
    let det = minors(&all).remove(&full)?;
    if det.is_zero() || super::poly::exhausted() {
        return None;
    }
    let mut adj = vec![vec![Poly::zero(); n]; n];
    for i in 0..n {
        let rows: Vec<usize> = (0..n).filter(|&r| r != i).collect();
        let memo = minors(&rows);
        for jcol in 0..n {
            let c = memo.get(&(full & !(1 << jcol)))?;
            // adj(B)[j][i] = (−1)^(i+j) · minor(i, j)
            adj[jcol][i] = if (i + jcol) % 2 == 0 {
                c.clone()
            } else {
                c.neg()
            };
        }
    }
    (!super::poly::exhausted()).then_some((adj, det))
}

/// The most velocities a system may have for the symbolic engine to build
/// it at all (each entry of M and J becomes a rational function).
pub const MAX_SYMBOLIC_DOFS: usize = 600;

/// Refuses, before anything symbolic is built, systems whose size alone
/// puts them beyond the symbolic limits (the numeric system tells).
fn check_size(numeric: &System<f64>) -> Result<(), Unsupported> {
    let n = numeric.n_dofs();
    if n > MAX_SYMBOLIC_DOFS {
        return Err(Unsupported(format!(
            "{n} generalized velocities (the symbolic limit is {MAX_SYMBOLIC_DOFS})"
        )));
    }
    if !numeric.constraints.is_empty() && n > MAX_DOFS {
        return Err(Unsupported(format!(
            "{n} generalized velocities with constraints (the symbolic limit is {MAX_DOFS})"
        )));
    }
    for b in &numeric.mass {
        let diagonal =
            (0..b.size).all(|i| (0..b.size).all(|j| i == j || b.matrix[i * b.size + j] == 0.0));
        if b.size > MAX_DOFS && !diagonal {
            return Err(Unsupported(format!(
                "a dense mass block of {} velocities (the symbolic limit is {MAX_DOFS})",
                b.size
            )));
        }
    }
    Ok(())
}

fn is_diagonal(b: &crate::model::MassBlock<Frac>) -> bool {
    (0..b.size).all(|i| (0..b.size).all(|j| i == j || b.matrix[i * b.size + j].is_zero()))
}

/// The exact A. Without constraints, body by body: a diagonal block adds
/// `Σ_k J_ik J_jk / M_kk`, a full block minus the Schur complement of
/// `[[M_b, J_bᵀ], [J_b, 0]]`. With the independent constraint rows G, minus
/// the Schur complement of the leading (n+g) block of
/// `[[M, Gᵀ, Jᵀ], [G, 0, 0], [J, 0, 0]]`, which is
/// `J M⁻¹ Jᵀ − J M⁻¹ Gᵀ (G M⁻¹ Gᵀ)⁻¹ G M⁻¹ Jᵀ`.
fn exact_delassus(
    system: &System<Frac>,
    independent: &[usize],
) -> Result<Vec<Vec<Frac>>, Unsupported> {
    let n = system.n_dofs();
    let c = system.jacobian.len();
    let j: Vec<Vec<Frac>> = system.jacobian.iter().map(|r| dense_row(r, n)).collect();
    if !independent.is_empty() {
        if n > MAX_DOFS {
            return Err(Unsupported(format!(
                "{n} generalized velocities with constraints (the symbolic limit is {MAX_DOFS})"
            )));
        }
        let g: Vec<Vec<Frac>> = independent
            .iter()
            .map(|&r| dense_row(&system.constraints[r], n))
            .collect();
        let size = n + g.len() + c;
        let mut k = vec![vec![Frac::zero(); size]; size];
        for b in &system.mass {
            for r in 0..b.size {
                for col in 0..b.size {
                    k[b.offset + r][b.offset + col] = b.matrix[r * b.size + col].clone();
                }
            }
        }
        for (row, rhs) in g.iter().chain(&j).enumerate() {
            for col in 0..n {
                k[n + row][col] = rhs[col].clone();
                k[col][n + row] = rhs[col].clone();
            }
        }
        let s = neg_schur(&k, n + g.len())?;
        return Ok(s);
    }
    let mut a = vec![vec![Frac::zero(); c]; c];
    for b in &system.mass {
        let range = b.offset..b.offset + b.size;
        let touching: Vec<usize> = (0..c)
            .filter(|&i| range.clone().any(|d| !j[i][d].is_zero()))
            .collect();
        if touching.is_empty() {
            continue;
        }
        if b.size > MAX_DOFS {
            return Err(Unsupported(format!(
                "a dense mass block of {} velocities (the symbolic limit is {MAX_DOFS})",
                b.size
            )));
        }
        if is_diagonal(b) {
            for (x, &p) in touching.iter().enumerate() {
                for &q in &touching[x..] {
                    let mut sum = a[p][q].clone();
                    for d in range.clone() {
                        if !j[p][d].is_zero() && !j[q][d].is_zero() {
                            sum = budget(
                                sum + j[p][d].clone() * j[q][d].clone()
                                    / b.matrix[(d - b.offset) * (b.size + 1)].clone(),
                            )?;
                        }
                    }
                    a[p][q] = sum.clone();
                    a[q][p] = sum;
                }
            }
            continue;
        }
        if let Some((adj, det)) = small_inverse(b) {
            // A = J adj(B) Jᵀ / det(B): no divisions until the end, so
            // Pythagoras can act on every intermediate product.
            // The Jacobian entries over a common denominator, so that the
            // numerator J adj(B) Jᵀ is summed as a polynomial.
            let rows: Vec<(Vec<Poly>, Poly)> = touching
                .iter()
                .map(|&p| {
                    let entries = &j[p][b.offset..b.offset + b.size];
                    let l = row_lcm(entries);
                    let nums = over_common_denominator(entries, &l);
                    (nums, l)
                })
                .collect();
            for x in 0..touching.len() {
                for y in x..touching.len() {
                    let (p, q) = (touching[x], touching[y]);
                    let mut sum = Poly::zero();
                    for r in 0..b.size {
                        if rows[x].0[r].is_zero() {
                            continue;
                        }
                        let mut inner = Poly::zero();
                        for col in 0..b.size {
                            if !rows[y].0[col].is_zero() && !adj[r][col].is_zero() {
                                inner = inner.add(&adj[r][col].mul(&rows[y].0[col]));
                            }
                        }
                        sum = sum.add(&super::frac::reduce_registered(&rows[x].0[r].mul(&inner)));
                    }
                    if super::poly::exhausted() {
                        return Err(Unsupported(
                            "the expressions grew too large for the symbolic engine".into(),
                        ));
                    }
                    let den = det.mul(&rows[x].1).mul(&rows[y].1);
                    let add = budget(Frac::new(sum, den))?;
                    a[p][q] = budget(a[p][q].clone() + add)?;
                    a[q][p] = a[p][q].clone();
                }
            }
            continue;
        }
        let t = touching.len();
        let size = b.size + t;
        let mut k = vec![vec![Frac::zero(); size]; size];
        for r in 0..b.size {
            for col in 0..b.size {
                k[r][col] = b.matrix[r * b.size + col].clone();
            }
        }
        for (x, &p) in touching.iter().enumerate() {
            for d in 0..b.size {
                k[b.size + x][d] = j[p][b.offset + d].clone();
                k[d][b.size + x] = j[p][b.offset + d].clone();
            }
        }
        let s = neg_schur(&k, b.size)?;
        for (x, &p) in touching.iter().enumerate() {
            for (y, &q) in touching.iter().enumerate() {
                a[p][q] = budget(a[p][q].clone() + s[x][y].clone())?;
            }
        }
    }
    Ok(a)
}
