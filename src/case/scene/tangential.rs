//! A scene's tangential springs (issue 38): the columns, how they combine,
//! and the rule each value obeys (docs/case-format.md).

use super::{Issue, Table};
use crate::case::types::Space;

/// The tangential springs of a scene's contacts, per contact (SI): one row
/// per tangent, along the basis [`crate::case::tangential::tangent_basis`] gives the
/// contact's normal (the `[[contact]]` rule, no given tangent).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TangentialColumns {
    /// Per contact: the tangential stiffness (N/m), or its ratio to the
    /// normal stiffness when `ratio`.
    pub stiffness: Vec<f64>,
    /// Whether `stiffness` holds ratios, in (0, 10].
    pub ratio: bool,
    /// Per contact: the tangential damping (N·s/m). Without it a ratio
    /// also scales the normal damping, as in `[[contact]]`.
    pub damping: Option<Vec<f64>>,
}

impl TangentialColumns {
    /// The column (or array) name of the stiffness.
    pub fn stiffness_column(&self) -> &'static str {
        if self.ratio {
            "tangential_ratio"
        } else {
            "tangential_stiffness"
        }
    }
}

/// The tangential columns of a scene from its stiffness, ratio and damping
/// columns (any may be absent), or the problem with them: both a stiffness
/// and a ratio, a damping without either, tangents in a `line` case.
pub fn tangential_columns(
    stiffness: Option<Vec<f64>>,
    ratio: Option<Vec<f64>>,
    damping: Option<Vec<f64>>,
    space: Space,
) -> Result<Option<TangentialColumns>, Issue> {
    let issue = |column: &str, message: &str| Issue::new(Table::Contacts, None, column, message);
    let t = match (stiffness, ratio, damping) {
        (None, None, None) => return Ok(None),
        (Some(_), Some(_), _) => {
            return Err(issue(
                "tangential_ratio",
                "both `tangential_stiffness` and `tangential_ratio` are given",
            )
            .hint("give one: the tangential stiffness, or its ratio to the normal one"));
        }
        (None, None, Some(_)) => {
            return Err(issue(
                "tangential_damping",
                "a tangential damping needs a tangential spring",
            )
            .hint("add a `tangential_stiffness` or `tangential_ratio` column"));
        }
        (Some(k), None, c) => TangentialColumns {
            stiffness: k,
            ratio: false,
            damping: c,
        },
        (None, Some(r), c) => TangentialColumns {
            stiffness: r,
            ratio: true,
            damping: c,
        },
    };
    if space == Space::Line {
        return Err(issue(
            t.stiffness_column(),
            "a `line` case has no tangent direction: tangential springs need a planar or 3-d case",
        ));
    }
    Ok(Some(t))
}

/// Contact `c`'s tangential spring: a ratio in (0, 10] (as
/// `tangential_ratio` of `[[contact]]`), a stiffness positive, a damping
/// not negative.
pub(super) fn validate(t: &TangentialColumns, c: usize, push: &mut impl FnMut(Issue)) {
    use crate::case::tangential::MAX_TANGENTIAL_RATIO;
    let k = t.stiffness[c];
    if t.ratio && !(k > 0.0 && k <= MAX_TANGENTIAL_RATIO) {
        push(
            Issue::new(
                Table::Contacts,
                Some(c),
                "tangential_ratio",
                format!("a tangential ratio must be in (0, {MAX_TANGENTIAL_RATIO}], this is {k}"),
            )
            .hint("k_t/k_n: 2/7 to 1 for most contact laws"),
        );
    }
    let positive = k.is_normal() && k > 0.0;
    if !t.ratio && !positive {
        push(Issue::new(
            Table::Contacts,
            Some(c),
            "tangential_stiffness",
            format!("a tangential stiffness must be positive, this is {k}"),
        ));
    }
    if let Some(dv) = &t.damping
        && !(dv[c].is_finite() && dv[c] >= 0.0)
    {
        push(Issue::new(
            Table::Contacts,
            Some(c),
            "tangential_damping",
            format!("a tangential damping cannot be negative, this is {}", dv[c]),
        ));
    }
}
