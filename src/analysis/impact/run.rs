//! An `[[impact]]` of a model solved with the analysis' A: the inputs
//! gathered per impact, the closed forms for one contact, the response
//! (once per identical inputs: `control::cached`), and the one check that
//! the results are representable.

use super::{ImpactError, Response, Single, respond_with, single};
use nalgebra::DMatrix;

/// An `[[impact]]`'s results.
#[derive(Clone, Debug, PartialEq)]
pub struct ImpactResult {
    /// Approach speed (m/s).
    pub speed: f64,
    /// Contacts involved: the struck ones, then the resting ones.
    pub contacts: Vec<usize>,
    /// How many of `contacts` are struck.
    pub struck: usize,
    /// Spring and dashpot (0 for none) per contact involved.
    pub stiffness_damping: Vec<(f64, f64)>,
    /// 1/A_cc per contact involved (`None`: immobile).
    pub m_eff: Vec<Option<f64>>,
    /// Per struck contact, its row of A over the struck contacts (empty
    /// with one struck contact).
    pub a_struck: Vec<Vec<f64>>,
    /// Per struck contact, `1/Σ_j A_cj` over the struck contacts: the mass
    /// it acts with when the struck contacts push with equal forces
    /// (`None`: one struck contact, or the sum is not positive).
    pub m_together: Vec<Option<f64>>,
    /// The struck contacts push alike — at least two, none resting, the
    /// same spring and dashpot, and equal sums of their rows of A over
    /// them — so their forces are equal at every instant and each
    /// responds as one contact of mass `m_together`.
    pub alike: bool,
    /// The response of the piecewise-linear system.
    pub response: Result<Response, ImpactError>,
    /// The closed forms, for one struck contact with none resting.
    pub closed_form: Option<Single>,
}

impl ImpactResult {
    /// The first result that overflowed (an infinite peak force, say), as
    /// words for the message; `None` when every result is finite or NaN
    /// (undefined). The one check of the impact results' range: run keeps
    /// such a result as [`ImpactError::Overflow`], and the evaluation
    /// turns it into an error at the impact's speed.
    pub fn overflow(&self) -> Option<String> {
        let bad = |x: f64| x.is_infinite();
        if let Some(s) = &self.closed_form {
            let fields = [
                ("the peak force", s.peak_force),
                ("the duration", s.duration),
                ("the time to the peak force", s.time_to_peak),
                ("the largest penetration", s.compression),
                ("the rebound speed", s.rebound_speed),
                ("ω = √(k/m)", s.omega),
                ("the damping ratio", s.zeta),
            ];
            if let Some((what, x)) = fields.iter().find(|(_, x)| bad(*x)) {
                return Some(format!("{what} ({x})"));
            }
        }
        if let Ok(r) = &self.response {
            for cr in &r.contacts {
                let fields = [
                    ("the peak force", cr.peak_force),
                    ("the duration", cr.duration),
                    ("the largest penetration", cr.compression),
                    ("the rebound speed", cr.rebound_speed),
                ];
                if let Some((what, x)) = fields.iter().find(|(_, x)| bad(*x)) {
                    return Some(format!("{what} ({x})"));
                }
            }
            if bad(r.end) {
                return Some("the end time".into());
            }
        }
        None
    }

    /// A result at contact `c` (case index), SI: the closed form's where
    /// there is one, else the response's.
    pub fn value(&self, q: crate::case::ImpactQuantity, c: usize) -> Result<f64, String> {
        use crate::case::ImpactQuantity as Q;
        let Some(k) = self.contacts.iter().position(|&i| i == c) else {
            return Err("the contact is not in this impact".into());
        };
        if let Err(e @ ImpactError::Overflow(_)) = &self.response {
            return Err(e.to_string());
        }
        if let Some(s) = &self.closed_form {
            return Ok(match q {
                Q::PeakForce => s.peak_force,
                Q::Duration => s.duration,
                Q::Restitution => s.restitution,
                Q::Compression => s.compression,
            });
        }
        let r = self.response.as_ref().map_err(|e| e.to_string())?;
        let cr = &r.contacts[k];
        Ok(match q {
            Q::PeakForce => cr.peak_force,
            Q::Duration => cr.duration,
            Q::Restitution if k < self.struck => cr.rebound_speed / self.speed,
            Q::Restitution => return Err("a resting contact has no restitution".into()),
            Q::Compression => cr.compression,
        })
    }
}

/// Solves the impacts of `model` with the Delassus entries of `an`: every
/// one, or those `wanted` (indices; the others are [`ImpactError::NotAsked`]).
pub fn run(
    model: &crate::model::Model<f64>,
    an: &crate::analysis::Analysis,
    check: bool,
    wanted: Option<&[usize]>,
) -> Vec<ImpactResult> {
    model
        .impacts
        .iter()
        .enumerate()
        .map(|(index, spec)| {
            let contacts: Vec<usize> = spec.contacts.iter().chain(&spec.resting).copied().collect();
            let n = contacts.len();
            let a = DMatrix::from_fn(n, n, |i, j| an.a(contacts[i], contacts[j]));
            let k: Vec<f64> = contacts
                .iter()
                .map(|&i| model.contacts[i].stiffness)
                .collect();
            let c: Vec<f64> = contacts
                .iter()
                .map(|&i| model.contacts[i].damping.unwrap_or(0.0))
                .collect();
            let v: Vec<f64> = (0..n)
                .map(|i| {
                    if i < spec.contacts.len() {
                        spec.speed
                    } else {
                        0.0
                    }
                })
                .collect();
            let closed_form = (n == 1 && a[(0, 0)] > 0.0)
                .then(|| single(1.0 / a[(0, 0)], k[0], c[0], spec.speed));
            // One contact: the closed forms are the results, the solve only
            // their check, which sweeps and probes (no check) skip.
            let response = if wanted.is_some_and(|w| !w.contains(&index)) {
                Err(ImpactError::NotAsked)
            } else if closed_form.is_some() && !check {
                Err(ImpactError::ClosedForm)
            } else {
                let key: Vec<u64> = std::iter::once(u64::from(check))
                    .chain(a.iter().chain(&k).chain(&c).chain(&v).map(|x| x.to_bits()))
                    .collect();
                crate::control::cached(key, || respond_with(&a, &k, &c, &v, check))
            };
            let ns = spec.contacts.len();
            let a_struck: Vec<Vec<f64>> = if ns > 1 {
                (0..ns)
                    .map(|i| (0..ns).map(|j| a[(i, j)]).collect())
                    .collect()
            } else {
                Vec::new()
            };
            let sums: Vec<f64> = a_struck.iter().map(|r| r.iter().sum()).collect();
            let m_together = sums.iter().map(|&s| (s > 0.0).then(|| 1.0 / s)).collect();
            let same = |x: &[f64]| {
                let scale = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
                x.iter().all(|v| (v - x[0]).abs() <= 1e-9 * scale)
            };
            let alike = ns > 1
                && n == ns
                && same(&sums)
                && same(&k)
                && same(&c)
                && sums.iter().all(|&s| s > 0.0);
            let mut result = ImpactResult {
                a_struck,
                m_together,
                alike,
                speed: spec.speed,
                contacts,
                struck: spec.contacts.len(),
                stiffness_damping: k.iter().copied().zip(c.iter().copied()).collect(),
                m_eff: (0..n)
                    .map(|i| (a[(i, i)] > 0.0).then(|| 1.0 / a[(i, i)]))
                    .collect(),
                response,
                closed_form,
            };
            if let Some(what) = result.overflow() {
                result.response = Err(ImpactError::Overflow(what));
            }
            result
        })
        .collect()
}
