//! The model of a case at one point of its parameters (a sweep's, a claim
//! probe's, a tolerance box's): every value through the point's
//! environment, and the Hertz laws derived again there from their inputs
//! (`case::HertzInputs::derive`), so a tolerance or a sweep of E*, R*,
//! an overlap or a load reaches the linearised stiffnesses.

use super::{Model, Scaled, build};
use crate::case::{Case, Env, HertzLaw};

/// The Hertz laws of a case at a point: (contact index, law there).
pub type LawsAt = Vec<(usize, HertzLaw)>;

/// The model of `case` at the values of `env`, with its Hertz laws there
/// ((contact index, law)); `None` where a value or a law has none.
pub fn build_at(case: &Case, env: &Env) -> Option<(Model<f64>, LawsAt)> {
    let mut model = build(case, &mut |v| env.si(v)).ok()?;
    let laws = case.hertz_laws_at(&mut |v| env.si(v).ok())?;
    with_laws(&mut model, &laws);
    Some((model, laws))
}

/// Sets each Hertz contact's normal stiffness (and Mindlin's tangential
/// one, where the law gives it) to the law's.
pub fn with_laws(model: &mut Model<f64>, laws: &[(usize, HertzLaw)]) {
    for (i, law) in laws {
        let Some(c) = model.contacts.get_mut(*i) else {
            continue;
        };
        c.stiffness = law.stiffness;
        if let (Some(t), Some(kt)) = (c.tangential.as_mut(), law.tangential_stiffness) {
            t.stiffness = Scaled::Absolute(kt);
        }
    }
}
