//! A result quantity's value in an analysis (what claims and tolerances
//! read).

use super::Analysis;

/// The value of a result quantity in an analysis.
pub fn value_of(q: &crate::case::Quantity, an: &Analysis) -> Result<f64, String> {
    use crate::case::Quantity;
    match q {
        Quantity::A(i) => Ok(an.contact(*i).a),
        Quantity::MEff(i) => an
            .contact(*i)
            .m_eff
            .ok_or_else(|| "the contact is immobile: its effective mass is infinite".to_string()),
        Quantity::Omega(i) => Ok(an.contact(*i).omega),
        Quantity::Delassus(i, j) => Ok(an.a(*i, *j)),
        Quantity::ModeOmega(k) => an
            .modes
            .get(k - 1)
            .map(|m| m.omega)
            .ok_or_else(|| format!("there are only {} nonzero modes", an.modes.len())),
        Quantity::F(i) => value_of(&Quantity::Omega(*i), an).map(|w| w / std::f64::consts::TAU),
        Quantity::ModeF(k) => {
            value_of(&Quantity::ModeOmega(*k), an).map(|w| w / std::f64::consts::TAU)
        }
        Quantity::Impact(which, i, c) => an
            .impacts
            .get(*i)
            .ok_or_else(|| "the impact was not solved".to_string())
            .and_then(|r| r.value(*which, *c)),
    }
}
