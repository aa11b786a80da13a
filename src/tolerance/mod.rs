//! Results bounded over the inputs' tolerances (`"2 kg ± 5 %"`,
//! `"[0.08 m, 0.12 m]"`, `case::Tolerance`).
//!
//! Two bounds for each tracked result (m_eff and ω per contact, the coupled
//! ω_max, the step to use, the guaranteed step, each impact's peak force,
//! each person's permissible speed):
//!
//! - **Corners** (exact evaluations of the model): the smallest and largest
//!   value over the 2ⁿ corners of the box of the n toleranced parameters
//!   (the nominal point included). Up to
//!   [`TOLERANCE_CORNER_PARAMETERS`](crate::limits::TOLERANCE_CORNER_PARAMETERS)
//!   parameters every corner; above, the corners of that many parameters
//!   with the largest effect (their one-at-a-time swing), the others at
//!   their nominal values and their first-order effect added to both ends
//!   (then not a guaranteed bound: the report says so). The corners bound
//!   a result that is monotone in each parameter over its tolerance; where
//!   a parameter's two ends move a result the same way (checked one at a
//!   time) it is not, an extreme may lie inside the box: a scan of that
//!   parameter finds the interior extremes, refined by golden section,
//!   which join the grid of levels, and the report says so.
//! - **First order** (GUM-style linear propagation, worst case, not a
//!   statistical uncertainty): `q₀ ± Σ_p |∂q/∂p| Δp`, with `∂q/∂p` from the
//!   exact elasticities of the symbolic derivation for m_eff and ω
//!   (`symbolic::sensitivities`), else a central difference of the model
//!   at ±10⁻³ of the half-width.
//!
//! The driver of a result is the parameter whose tolerance alone moves it
//! most (exact, one at a time). Where the corner the first-order estimate
//! names as the worst differs from the exact worst corner the result says
//! so. Sweeps get a band: the smallest and largest value over the box of
//! the other toleranced parameters at each sweep point ([`band`]), found
//! by the same search ([`search::explore`], one rule for every bound:
//! corners, and interior extremes of a scan refined by golden section
//! where a value is not monotone).

mod band;
mod search;
pub use band::bands;
pub use search::bound;

use crate::analysis::{self, Analysis};
use crate::case::{Case, Env, ImpactQuantity, Quantity};
use crate::model;
use crate::number::Round;
use crate::symbolic::Sensitivity;
use serde::Serialize;

/// Most contacts whose m_eff and ω are bounded one by one (the global
/// results are bounded whatever the size).
pub const MAX_CONTACTS: usize = 16;

/// A result a tolerance moves (a closed set).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tracked {
    /// m_eff of a contact.
    MEff(usize),
    /// ω of a contact.
    Omega(usize),
    /// The fastest coupled mode.
    OmegaMax,
    /// The step the sheet says to use (`stable_dt.governing`).
    StepToUse,
    /// The guaranteed step from bounds (`stable_dt.guaranteed`).
    Guaranteed,
    /// An impact's largest peak force over its struck contacts.
    PeakForce(usize),
    /// A `[[person]]`'s permissible speed with the exact m_eff.
    PersonSpeed(usize),
    /// A `[[person]]`'s peak force at its speed with the exact m_eff.
    PersonForce(usize),
}

impl Tracked {
    /// The stable identifier (as `meff diff` names results).
    pub fn id(self, case: &Case) -> String {
        match self {
            Tracked::MEff(c) => format!("m_eff({})", case.contact_name(c)),
            Tracked::Omega(c) => format!("omega({})", case.contact_name(c)),
            Tracked::OmegaMax => "omega_max".into(),
            Tracked::StepToUse => "dt_to_use".into(),
            Tracked::Guaranteed => "dt_guaranteed".into(),
            Tracked::PeakForce(i) => format!("peak_force({})", case.impacts[i].name),
            Tracked::PersonSpeed(p) => format!(
                "max_speed({}, {})",
                case.contact_name(case.persons[p].contact),
                case.persons[p].region
            ),
            Tracked::PersonForce(p) => format!(
                "person_peak_force({}, {})",
                case.contact_name(case.persons[p].contact),
                case.persons[p].region
            ),
        }
    }

    /// In words, for the sheet.
    pub fn label(self, case: &Case) -> String {
        match self {
            Tracked::MEff(c) => format!("m_eff of {}", case.contact_name(c)),
            Tracked::Omega(c) => format!("ω of {}", case.contact_name(c)),
            Tracked::OmegaMax if hertz_impact(case) => {
                "coupled ω_max (at the Hertz impact's peak)".into()
            }
            Tracked::StepToUse if hertz_impact(case) => {
                "step to use (at the Hertz impact's peak)".into()
            }
            Tracked::OmegaMax => "coupled ω_max".into(),
            Tracked::StepToUse => "step to use".into(),
            Tracked::Guaranteed => "guaranteed step".into(),
            Tracked::PeakForce(i) => format!("peak force, impact {}", case.impacts[i].name),
            Tracked::PersonSpeed(p) => format!(
                "permissible speed, {} at {}",
                case.persons[p].region,
                case.contact_name(case.persons[p].contact)
            ),
            Tracked::PersonForce(p) => format!(
                "peak force on the {} at {}",
                case.persons[p].region,
                case.contact_name(case.persons[p].contact)
            ),
        }
    }

    /// SI unit.
    pub fn unit(self) -> &'static str {
        match self {
            Tracked::MEff(_) => "kg",
            Tracked::Omega(_) | Tracked::OmegaMax => "rad/s",
            Tracked::StepToUse | Tracked::Guaranteed => "s",
            Tracked::PeakForce(_) | Tracked::PersonForce(_) => "N",
            Tracked::PersonSpeed(_) => "m/s",
        }
    }

    /// True for a step limit (printed rounded down, in the sheet's time
    /// unit).
    pub fn is_step(self) -> bool {
        self.kind() == Kind::Step
    }

    /// How its printed values are rounded ([`Kind`]).
    pub fn kind(self) -> Kind {
        match self {
            Tracked::StepToUse | Tracked::Guaranteed => Kind::Step,
            Tracked::PersonSpeed(_) => Kind::Limit,
            Tracked::MEff(_)
            | Tracked::Omega(_)
            | Tracked::OmegaMax
            | Tracked::PeakForce(_)
            | Tracked::PersonForce(_) => Kind::Value,
        }
    }

    /// Its value in an analysis at a point (`persons`: the permissible
    /// speed and the peak force there).
    fn value(self, case: &Case, an: &Analysis, persons: &[PersonAt]) -> Option<f64> {
        let x = match self {
            Tracked::MEff(c) => an.contacts.get(c)?.m_eff,
            Tracked::Omega(c) => an.contacts.get(c).map(|r| r.omega),
            // The sheet's governing one: over every row, at the peak of a
            // Hertz impact where the step to use holds there.
            Tracked::OmegaMax => Some(analysis::hertz_contacts::governing_omega_max(an)),
            // The sheet's own step (`stable_dt.governing`): over every row
            // with tangential springs, and at the peak of a Hertz impact.
            Tracked::StepToUse => an.stable_dt.governing.map(|(h, _)| h),
            Tracked::Guaranteed => an.stable_dt.guaranteed,
            Tracked::PeakForce(i) => {
                let r = an.impacts.get(i)?;
                case.impacts[i]
                    .contacts
                    .iter()
                    .filter_map(|&c| r.value(ImpactQuantity::PeakForce, c).ok())
                    .reduce(f64::max)
            }
            Tracked::PersonSpeed(p) => persons.get(p)?.max_speed,
            Tracked::PersonForce(p) => persons.get(p)?.peak_force,
        };
        x.filter(|v| v.is_finite())
    }
}

/// Whether a Hertz contact of `case` has an impact speed: the step to use
/// and ω_max are then those at the impact's peak.
fn hertz_impact(case: &Case) -> bool {
    case.hertz_laws()
        .iter()
        .any(|(_, h)| h.impact_speed.is_some())
}

/// One toleranced input, as the sheet lists it.
#[derive(Clone, Debug, Serialize)]
pub struct InputBound {
    /// Parameter name.
    pub parameter: String,
    /// As typed.
    pub written: String,
    /// How the tolerance is written.
    pub kind: crate::case::ToleranceKind,
    /// Nominal value (SI).
    pub nominal: f64,
    /// Lower end (SI).
    pub lo: f64,
    /// Upper end (SI).
    pub hi: f64,
    /// SI unit (empty: dimensionless).
    pub unit: String,
    /// The unit the sheet prints the values in: `deg` for an angle typed
    /// in degrees, `rad` for one typed in radians, `dimensionless` for
    /// another number without a unit, else the SI unit.
    pub shown_unit: String,
    /// The values times this are in `shown_unit` (180/π for degrees).
    pub shown_scale: f64,
}

/// Which end of its tolerance a parameter is at (a closed set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// The low end.
    Lo,
    /// The high end.
    Hi,
    /// Inside the tolerance: the extreme of a scan, for a result that is
    /// not monotone in the parameter.
    Inside,
}

/// One parameter of a corner.
#[derive(Clone, Debug, Serialize)]
pub struct CornerEnd {
    /// Parameter name.
    pub parameter: String,
    /// Which end.
    pub end: End,
    /// The parameter's value there (SI).
    pub value: f64,
}

/// What a bounded result is, for how its printed values are rounded (a
/// closed set; the one rule every place that prints a bound follows: the
/// Tolerances table in every format, the summary, the change list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A step limit: every value rounded down, in the sheet's time unit.
    Step,
    /// A permitted quantity (a person's speed limit): every value rounded
    /// down, so that the digits a reader copies are still permitted.
    Limit,
    /// A result bounded both ways (a mass, a frequency, a force): the
    /// interval printed outward (its low ends down, its high ends up, so
    /// the printed interval still holds the computed one), the nominal
    /// value to the nearest.
    Value,
}

/// Which value of a bound is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// The value at the nominal inputs.
    Nominal,
    /// A low end (exact or first order).
    Low,
    /// A high end (exact or first order).
    High,
}

impl Kind {
    /// How a value of this kind in `column` is rounded.
    pub fn round(self, column: Column) -> Round {
        match (self, column) {
            (Kind::Step | Kind::Limit, _) => Round::Down,
            (Kind::Value, Column::Nominal) => Round::Nearest,
            (Kind::Value, Column::Low) => Round::Down,
            (Kind::Value, Column::High) => Round::Up,
        }
    }
}

/// How each value of a bound is printed (`Kind::round`), for the
/// templates' `round=` argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Rounding {
    /// The nominal value.
    pub nominal: Round,
    /// The low ends (exact and first order).
    pub lo: Round,
    /// The high ends (exact and first order).
    pub hi: Round,
}

impl From<Kind> for Rounding {
    fn from(k: Kind) -> Rounding {
        Rounding {
            nominal: k.round(Column::Nominal),
            lo: k.round(Column::Low),
            hi: k.round(Column::High),
        }
    }
}

/// A result bounded over the tolerances.
#[derive(Clone, Debug, Serialize)]
pub struct Bound {
    /// Stable identifier (`m_eff(c)`, `omega_max`, `dt_to_use`, …).
    pub id: String,
    /// In words.
    pub quantity: String,
    /// SI unit.
    pub unit: &'static str,
    /// A step limit: printed rounded down, in the sheet's time unit.
    pub step: bool,
    /// What it is, for how it is printed.
    pub kind: Kind,
    /// How its nominal value and its ends are printed (from `kind`).
    pub round: Rounding,
    /// At the nominal inputs.
    pub nominal: f64,
    /// Smallest over the corners evaluated.
    pub lo: f64,
    /// Largest over the corners evaluated.
    pub hi: f64,
    /// First order, `nominal − Σ|∂q/∂p|Δp`.
    pub first_order_lo: f64,
    /// First order, `nominal + Σ|∂q/∂p|Δp`.
    pub first_order_hi: f64,
    /// How far the first-order interval's ends are from the exact ones,
    /// at most, relative to the nominal value ([`Bound::gap`]; `None`
    /// where the nominal value is 0, which gives no scale).
    pub first_order_gap: Option<f64>,
    /// Where ∂q/∂p comes from: `exact_elasticities` or
    /// `central_differences`.
    pub derivatives: &'static str,
    /// The parameter whose tolerance alone moves the result most.
    pub driver: Option<String>,
    /// The corner of the smallest value: each parameter at `lo` or `hi`.
    pub lo_corner: Vec<CornerEnd>,
    /// The corner of the largest value.
    pub hi_corner: Vec<CornerEnd>,
    /// What a reader must know (the first-order worst corner is not the
    /// exact one; a parameter the result is not monotone in).
    pub notes: Vec<String>,
    /// The result's closed form (plain text), when the symbolic derivation
    /// gave one: with a monotone result, the interval is this form at
    /// `lo_corner` and `hi_corner`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed_form: Option<String>,
}

impl Bound {
    /// True when no parameter's two ends move the result the same way.
    pub fn monotone(&self) -> bool {
        !self.notes.iter().any(|n| n.starts_with("not monotone"))
    }

    /// Sets the closed form; with a monotone result, a note saying the
    /// interval is that form at its two corners.
    pub fn set_closed_form(&mut self, form: String) {
        if self.monotone() {
            self.notes.push(format!(
                "{} = {form} in closed form; monotone in each toleranced parameter over its tolerance, so the interval is this form at two corners: lowest at {}, highest at {}",
                self.id,
                Bound::corner_words(&self.lo_corner),
                Bound::corner_words(&self.hi_corner)
            ));
        }
        self.closed_form = Some(form);
    }

    /// A corner in words: `r high, m low`.
    pub fn corner_words(corner: &[CornerEnd]) -> String {
        corner
            .iter()
            .map(|c| match c.end {
                End::Hi => format!("{} high", c.parameter),
                End::Lo => format!("{} low", c.parameter),
                End::Inside => format!(
                    "{} = {} (inside)",
                    c.parameter,
                    crate::number::sig(c.value, crate::number::DEFAULT_DIGITS)
                ),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The first-order interval's largest distance from the exact one,
    /// relative to the nominal value ([`GAP_DEFINITION`]):
    /// max(|first-order low − exact low|, |first-order high − exact high|)
    /// / |nominal|; `None` where the nominal value is 0 (or not finite),
    /// which gives no scale.
    pub fn gap(&self) -> Option<f64> {
        let d = (self.first_order_lo - self.lo)
            .abs()
            .max((self.first_order_hi - self.hi).abs());
        let g = d / self.nominal.abs();
        (self.nominal != 0.0 && g.is_finite()).then_some(g)
    }
}

/// What the Tolerances table's "first order off (%)" column is, as every
/// format prints it beside the table.
pub const GAP_DEFINITION: &str = "First order off (%): the larger of |first-order low − exact low| and |first-order high − exact high|, as a percentage of |nominal| (how far the first-order interval's ends are from the exact ones, on the scale of the result); — where the nominal value is 0, which gives no scale.";

/// How the Tolerances table's numbers are rounded ([`Kind::round`]), as
/// every format prints it beside the table.
pub const ROUNDING_NOTE: &str = "Rounding: a step or a permitted speed is printed rounded down in every column (the digits copied stay stable or permitted); any other result's low ends are rounded down and its high ends up (the printed interval holds the computed one), its nominal value to the nearest. The summary and the change list print each value the same way.";

/// The notes printed beside the results table, in order.
pub const TABLE_NOTES: [&str; 2] = [GAP_DEFINITION, ROUNDING_NOTE];

/// How the corners were chosen (a closed set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Every corner of the box.
    AllCorners,
    /// The corners of the parameters of largest effect, the others'
    /// first-order effect added.
    LargestEffect,
}

/// The tolerance section's results.
#[derive(Clone, Debug, Serialize)]
pub struct Tolerances {
    /// The toleranced inputs.
    pub inputs: Vec<InputBound>,
    /// How the corners were chosen.
    pub method: Method,
    /// The parameters whose corners were evaluated.
    pub corner_parameters: Vec<String>,
    /// Corners evaluated (2^k).
    pub corners: usize,
    /// Corners whose evaluation failed (an invalid point, the work
    /// allowance spent); left out of the bounds.
    pub failed: usize,
    /// What the results table's columns mean and how they are rounded
    /// ([`TABLE_NOTES`]), printed beside the table.
    pub definitions: Vec<&'static str>,
    /// The bounded results.
    pub results: Vec<Bound>,
    /// What a reader must know about the method.
    pub notes: Vec<String>,
}

/// The tracked results of a case, in sheet order.
pub fn tracked(case: &Case, an: &Analysis) -> Vec<Tracked> {
    let mut out = Vec::new();
    for c in 0..an.contacts.len().min(MAX_CONTACTS) {
        out.push(Tracked::MEff(c));
        out.push(Tracked::Omega(c));
    }
    out.push(Tracked::OmegaMax);
    out.push(Tracked::StepToUse);
    out.push(Tracked::Guaranteed);
    out.extend((0..case.impacts.len()).map(Tracked::PeakForce));
    out.extend((0..case.persons.len()).map(Tracked::PersonSpeed));
    out.extend(
        (0..case.persons.len())
            .filter(|&p| case.persons[p].speed.is_some())
            .map(Tracked::PersonForce),
    );
    out
}

/// A person's results at a point of the box.
#[derive(Clone, Copy, Default)]
struct PersonAt {
    max_speed: Option<f64>,
    peak_force: Option<f64>,
}

/// Every tracked result at a point of the box (`None`: the point is not a
/// valid case, or its analysis failed).
pub fn values_at(
    case: &Case,
    overrides: &[(usize, f64)],
    tracked: &[Tracked],
) -> Option<Vec<Option<f64>>> {
    let env = Env::with_overrides(case, overrides).ok()?;
    if case.violation(&env).is_some() {
        return None;
    }
    let (m, laws) = model::build_at(case, &env)?;
    let impacts: Vec<usize> = (0..case.impacts.len()).collect();
    let an = analysis::analyze_for(case, &m, &laws, &impacts).ok()?;
    let persons: Vec<PersonAt> = case
        .persons
        .iter()
        .map(|p| {
            let si = |v: &crate::case::Val| env.si(v).ok();
            let at = || {
                let m_r = an.contacts.get(p.contact)?.m_eff?;
                let f = p.force_limit.as_ref().and_then(si);
                let v = p.speed.as_ref().and_then(si);
                let t = analysis::robot::transient(m_r, si(&p.mass)?, si(&p.stiffness)?, v, f);
                Some(PersonAt {
                    max_speed: t.max_speed,
                    peak_force: t.peak_force,
                })
            };
            at().unwrap_or_default()
        })
        .collect();
    Some(
        tracked
            .iter()
            .map(|t| t.value(case, &an, &persons))
            .collect(),
    )
}

/// ∂q/∂p of every tracked result for parameter `p`: exact from the
/// elasticities for m_eff and ω when the derivation gave them, else a
/// central difference. The second value: true when exact.
pub(super) fn derivatives(
    case: &Case,
    p: usize,
    tracked: &[Tracked],
    nominal: &[Option<f64>],
    exact: Option<&[Sensitivity]>,
) -> Vec<(Option<f64>, bool)> {
    let par = &case.parameters[p];
    let t = par.tolerance.as_ref().expect("toleranced");
    let h = 1e-3 * t.half_width();
    let x0 = par.value.si;
    let up = values_at(case, &[(p, x0 + h)], tracked);
    let down = values_at(case, &[(p, x0 - h)], tracked);
    tracked
        .iter()
        .enumerate()
        .map(|(k, tr)| {
            let elasticity = |c: usize, of_m: bool| {
                let list = exact?;
                let name = case.contact_name(c);
                if x0 == 0.0 {
                    return None;
                }
                let e = list
                    .iter()
                    .find(|s| s.contact == name && s.parameter == par.name)
                    .map_or(Some(0.0), |s| if of_m { s.m_eff } else { s.omega })?;
                Some(e * nominal[k]? / x0)
            };
            let from_exact = match *tr {
                Tracked::MEff(c) => elasticity(c, true),
                Tracked::Omega(c) => elasticity(c, false),
                _ => None,
            };
            match from_exact {
                Some(d) => (Some(d), true),
                None => {
                    let fd = match (&up, &down) {
                        (Some(u), Some(d)) => match (u[k], d[k]) {
                            (Some(a), Some(b)) => Some((a - b) / (2.0 * h)),
                            _ => None,
                        },
                        _ => None,
                    };
                    (fd, false)
                }
            }
        })
        .collect()
}

/// The value of a sweep's quantity in an analysis (the sweep's own rule).
pub(crate) fn sweep_value(q: &Quantity, an: &Analysis) -> Option<f64> {
    analysis::value_of(q, an).ok()
}
