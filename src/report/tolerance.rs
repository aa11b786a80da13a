//! The tolerance results attached to a report (`tolerance::bound`).

use super::Report;

impl Report {
    /// Attaches the tolerance results; the step to use becomes the
    /// smallest over the corners (a step stable for every admissible
    /// input the corners reach), the nominal one kept beside it.
    pub fn set_tolerances(&mut self, t: Option<crate::tolerance::Tolerances>) {
        if let Some(t) = &t
            && let Some(step) = t.results.iter().find(|b| b.id == "dt_to_use")
            && let Some(h) = self.stable_dt.governing
        {
            self.stable_dt.nominal_governing = Some(h);
            self.stable_dt.governing = Some(h.min(step.lo));
            self.stable_dt.governing_corners = Some(t.corners);
        }
        if let Some(t) = &t
            && let Some(step) = t.results.iter().find(|b| b.id == "dt_guaranteed")
            && let Some(h) = self.stable_dt.guaranteed
        {
            self.stable_dt.nominal_guaranteed = Some(h);
            self.stable_dt.guaranteed = Some(h.min(step.lo));
        }
        let mut t = t;
        if let Some(t) = t.as_mut() {
            for b in &mut t.results {
                if let Some(f) = self
                    .symbolic
                    .contacts
                    .iter()
                    .find(|d| b.id == format!("m_eff({})", d.name))
                    .and_then(|d| d.m_eff.as_ref())
                {
                    b.set_closed_form(f.text.clone());
                }
            }
        }
        self.tolerances = t;
    }
}
