//! `[[impact]]` results as the report carries them: per contact the
//! response with the exact effective mass, and beside it the same contact
//! alone with the naive (total) mass.

use crate::analysis::impact::{ContactResponse, History, ImpactResult, Single, single};
use crate::case::Case;
use serde::Serialize;

/// One impact.
#[derive(Clone, Debug, Serialize)]
pub struct ImpactReport {
    /// Name (`name`, else the struck contacts joined by `+`).
    pub name: String,
    /// Words from the case.
    pub description: String,
    /// Approach speed (m/s).
    pub speed: f64,
    /// Drop height and gravity, when the speed comes from a fall.
    pub drop: Option<DropReport>,
    /// `closed form` (one struck contact, none resting) or `piecewise
    /// linear` (the exact solution between events).
    pub method: &'static str,
    /// Per contact: struck ones first, then resting ones.
    pub contacts: Vec<ImpactContactReport>,
    /// The closed forms with the exact m_eff (one struck contact alone).
    pub closed_form: Option<Single>,
    /// How the piecewise-linear solution went (also run beside a closed
    /// form, as its check).
    pub integration: Option<IntegrationReport>,
    /// The struck contacts push alike (at least two, none resting, the
    /// same spring and dashpot, equal row sums of A over them): their
    /// forces are equal and each acts with `m_together`.
    pub alike: bool,
    /// Why there are no results (an immobile contact, no end in time).
    pub error: Option<String>,
    /// Why the closed forms of one contact are unchecked (their check by
    /// integration stopped: steps, time reached).
    pub check_note: Option<String>,
    /// Force histories for the plot (not in the JSON).
    #[serde(skip)]
    pub history: History,
    /// The naive estimate's history, one struck contact alone.
    #[serde(skip)]
    pub naive_history: Option<History>,
}

/// `drop` and `gravity`.
#[derive(Clone, Debug, Serialize)]
pub struct DropReport {
    /// Height (m).
    pub height: f64,
    /// Gravity (m/s²).
    pub gravity: f64,
}

/// One contact's results in an impact (SI).
#[derive(Clone, Debug, Serialize)]
pub struct ImpactContactReport {
    /// Contact name.
    pub contact: String,
    /// `struck` or `resting`.
    pub role: &'static str,
    /// Approach speed (0 when resting).
    pub approach_speed: f64,
    /// The mass the contact sees alone, 1/A_cc (kg).
    pub m_eff: Option<f64>,
    /// Struck with others: `1/Σ_j A_cj` over the struck contacts, the mass
    /// it acts with when they push with equal forces (kg).
    pub m_together: Option<f64>,
    /// Struck with others: its row of A over the struck contacts (1/kg),
    /// the terms of that sum.
    pub a_struck: Vec<f64>,
    /// Largest force (N).
    pub peak_force: f64,
    /// Its time from the first touch (s).
    pub time_to_peak: f64,
    /// When the contact first closed (s).
    pub start: f64,
    /// Until the force first returns to zero (s).
    pub duration: f64,
    /// Largest penetration (m).
    pub compression: f64,
    /// Separation speed at the end (m/s).
    pub rebound_speed: f64,
    /// Rebound over approach speed (struck contacts).
    pub restitution: Option<f64>,
    /// Times the contact closed.
    pub closings: usize,
    /// The naive estimate: the contact struck with its share of the naive
    /// (total) mass — the body's total mass over the number of contacts
    /// of this impact struck on the same pair of bodies (a tote landing
    /// on two corners: 4 kg each of 8 kg); `null` when resting or when
    /// the contact has no naive mass.
    pub naive: Option<Single>,
}

/// The piecewise-linear solution's bookkeeping.
#[derive(Clone, Debug, Serialize)]
pub struct IntegrationReport {
    /// `exact between events (matrix exponential)`.
    pub method: &'static str,
    /// Step between event checks (s).
    pub step: f64,
    /// Contacts closing or releasing.
    pub events: usize,
    /// When every contact is open and separating (s).
    pub end: f64,
    /// Largest relative difference to the solution with half the step.
    pub error_estimate: f64,
    /// Largest relative difference to the closed form (one contact alone).
    pub closed_form_difference: Option<f64>,
}

/// The report's impacts from the analysis.
pub fn impacts(case: &Case, results: &[ImpactResult], naive: &[Option<f64>]) -> Vec<ImpactReport> {
    case.impacts
        .iter()
        .zip(results)
        .map(|(imp, r)| {
            let name_of = |i: usize| case.contact_name(i).into_owned();
            // Struck contacts sharing the same pair of bodies share its mass.
            let pair = |i: usize| match &case.contacts[i].geometry {
                crate::case::ContactGeometry::Point { body, other, .. } => Some((*body, *other)),
                _ => None,
            };
            let struck_pairs: Vec<_> = r.contacts[..r.struck].iter().map(|&i| pair(i)).collect();
            let share = |i: usize| match pair(i) {
                Some(p) => struck_pairs
                    .iter()
                    .filter(|q| **q == Some(p))
                    .count()
                    .max(1) as f64,
                None => 1.0,
            };
            let closed = r.closed_form.clone();
            let (responses, integration, error, check_note, history) = responses(r, &closed);
            let contacts: Vec<ImpactContactReport> = r
                .contacts
                .iter()
                .zip(&responses)
                .enumerate()
                .map(|(k, (&i, cr))| {
                    let struck = k < r.struck;
                    let m_naive = naive.get(i).copied().flatten().map(|m| m / share(i));
                    let (kk, cc) = r.stiffness_damping[k];
                    let mut row = ImpactContactReport {
                        contact: name_of(i),
                        role: if struck { "struck" } else { "resting" },
                        approach_speed: if struck { r.speed } else { 0.0 },
                        m_eff: r.m_eff[k],
                        m_together: r.m_together.get(k).copied().flatten(),
                        a_struck: r.a_struck.get(k).cloned().unwrap_or_default(),
                        peak_force: cr.peak_force,
                        time_to_peak: cr.time_to_peak,
                        start: cr.start,
                        duration: cr.duration,
                        compression: cr.compression,
                        rebound_speed: cr.rebound_speed,
                        restitution: struck.then(|| cr.rebound_speed / r.speed),
                        closings: cr.closings,
                        naive: m_naive
                            .filter(|m| struck && *m > 0.0)
                            .map(|m| single(m, kk, cc, r.speed)),
                    };
                    // One contact alone: the closed forms are the results;
                    // the integration is their check.
                    if let Some(s) = &closed {
                        row.peak_force = s.peak_force;
                        row.time_to_peak = s.time_to_peak;
                        row.duration = s.duration;
                        row.compression = s.compression;
                        row.rebound_speed = s.rebound_speed;
                        row.restitution = Some(s.restitution);
                    }
                    row
                })
                .collect();
            let naive_history = match (&closed, contacts.first()) {
                (Some(_), Some(ImpactContactReport { naive: Some(s), .. })) => {
                    Some(crate::analysis::impact::single_history(
                        s.mass,
                        r.stiffness_damping[0].0,
                        r.stiffness_damping[0].1,
                        s.speed,
                    ))
                }
                _ => None,
            };
            ImpactReport {
                name: imp.name.clone(),
                description: imp.description.clone(),
                speed: r.speed,
                drop: imp.drop.as_ref().map(|(h, g)| DropReport {
                    height: h.si,
                    gravity: g.si,
                }),
                method: if closed.is_some() {
                    "closed form"
                } else {
                    "piecewise linear"
                },
                contacts,
                closed_form: closed,
                integration,
                alike: r.alike,
                error,
                check_note,
                history,
                naive_history,
            }
        })
        .collect()
}

/// What one impact's response gives: per-contact results, the
/// integration's account, an error or a note on its check, the force
/// history.
type Responses = (
    Vec<ContactResponse>,
    Option<IntegrationReport>,
    Option<String>,
    Option<String>,
    History,
);

/// The response as reported: the integration's, or for one contact the
/// closed forms whether or not their check by integration ran to its end.
fn responses(r: &ImpactResult, closed: &Option<crate::analysis::impact::Single>) -> Responses {
    match (&r.response, closed) {
        (Ok(resp), _) => {
            let difference = closed.as_ref().map(|s| {
                let c = &resp.contacts[0];
                [
                    (c.peak_force - s.peak_force).abs() / s.peak_force,
                    (c.duration - s.duration).abs() / s.duration,
                    (c.compression - s.compression).abs() / s.compression,
                    (c.rebound_speed - s.rebound_speed).abs() / s.speed,
                ]
                .into_iter()
                .fold(0.0f64, f64::max)
            });
            let integration = IntegrationReport {
                method: "exact between events (matrix exponential)",
                step: resp.step,
                events: resp.events,
                end: resp.end,
                error_estimate: resp.error,
                closed_form_difference: difference,
            };
            let h = resp.history.clone();
            (resp.contacts.clone(), Some(integration), None, None, h)
        }
        (Err(e), Some(s)) => {
            let one = ContactResponse {
                peak_force: s.peak_force,
                time_to_peak: s.time_to_peak,
                start: 0.0,
                duration: s.duration,
                compression: s.compression,
                time_to_compression: s.time_to_compression,
                rebound_speed: s.rebound_speed,
                closings: 1,
            };
            (
                vec![one],
                None,
                None,
                Some(e.to_string()),
                History::default(),
            )
        }
        (Err(e), None) => (
            Vec::new(),
            None,
            Some(e.to_string()),
            None,
            History::default(),
        ),
    }
}
