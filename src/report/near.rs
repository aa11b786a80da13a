//! A dump scene's near contacts: surfaces apart by less than
//! `from_dump::NEAR_FRACTION` of the smaller radius but not within the
//! tolerance. A snapshot of a pile that has not settled leaves them open;
//! they close as it settles, and the step with them closed (the same law)
//! is the one a run of the settling pile needs when it is the shorter.

use serde::Serialize;

/// What the sheet says of the near contacts.
#[derive(Clone, Debug, Serialize)]
pub struct NearReport {
    /// The fraction of the smaller radius below which a gap is near.
    pub fraction: f64,
    /// How many near contacts (pairs, and spheres at walls or planes).
    pub count: usize,
    /// Contacts with them closed (the snapshot's and the near ones).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed_contacts: Option<usize>,
    /// The step to use with them closed (the damped limit with dashpots),
    /// when the scene is small enough for the model path; `null` on the
    /// large route (no second analysis).
    pub closed_dt: Option<f64>,
    /// What sets `closed_dt` (as `stable_dt.governing_by`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed_by: Option<&'static str>,
    /// Whether `closed_dt` is shorter than the snapshot's step, so the
    /// headline's step is it.
    pub governs: bool,
}

/// The near contacts of `case`'s scene, without a closed step yet.
pub fn of_case(case: &crate::case::Case) -> Option<NearReport> {
    let near = case.scene.as_ref()?.near.as_ref()?;
    Some(NearReport {
        fraction: crate::case::scene::from_dump::NEAR_FRACTION,
        count: near.count,
        closed_contacts: near.closed.as_ref().map(|s| s.body.len()),
        closed_dt: None,
        closed_by: None,
        governs: false,
    })
}

impl NearReport {
    /// Sets the step with the near contacts closed, against the
    /// snapshot's `snapshot` step.
    pub fn set_closed(&mut self, dt: Option<f64>, by: Option<&'static str>, snapshot: Option<f64>) {
        self.closed_dt = dt;
        self.closed_by = by;
        self.governs = match (dt, snapshot) {
            (Some(c), Some(s)) => c < s,
            (Some(_), None) => true,
            _ => false,
        };
    }
}
