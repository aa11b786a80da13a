//! `[map]` of a `[model]` case (issue 40): a workspace map, the
//! permissible speed of every `[[hazard]]` point against each of its
//! `[[region]]`s over a grid of two joints, the other joints at the case's
//! configuration. The physics is `analysis::workspace`.

use super::motion::{AngleUnit, Hazard, Region, movable};
use super::read::{Reader, get, header};
use super::types::RobotForm;
use crate::diag::Diagnostic;
use crate::kinematics::JointKind;
use crate::units::Dim;
use std::ops::Range;
use toml::de::{DeTable, DeValue};

type Node<'i> = toml::Spanned<DeValue<'i>>;

pub(super) const MAP_KEYS: &[&str] =
    &["joints", "from", "to", "points", "direction", "description"];

/// The most grid points along one joint (the map is also a table).
pub const MAX_MAP_POINTS: usize = 25;

/// A workspace map: the grid and what is checked on it.
#[derive(Clone, Debug)]
pub struct WorkspaceMap {
    /// Span of `[map]`.
    pub span: Range<usize>,
    /// The two swept joints (indices into the tree's joints).
    pub joints: [usize; 2],
    /// The grid values of each joint (SI: rad or m), evenly spaced.
    pub axes: [Vec<f64>; 2],
    /// The contact's direction in world axes (unit), when given; without
    /// it, the worst direction (the largest mass of the point's ellipsoid).
    pub direction: Option<[f64; 3]>,
    /// The configuration every grid point starts from (the case's).
    pub base: Vec<f64>,
    /// Hazard points (the case's `[[hazard]]`s).
    pub hazards: Vec<Hazard>,
    /// Body regions (the case's `[[region]]`s).
    pub regions: Vec<Region>,
    /// Description as given.
    pub description: String,
}

impl Reader<'_> {
    /// `[map]`, with the case's hazards and regions already read.
    pub(super) fn map(
        &mut self,
        node: &Node,
        r: &RobotForm,
        hazards: Vec<Hazard>,
        regions: Vec<Region>,
    ) -> Option<WorkspaceMap> {
        let t: &DeTable = self.table(node, "`[map]`")?;
        self.keys(t, MAP_KEYS, "`[map]`");
        let span = node.span();
        let tree = &r.robot.tree;
        let movable = movable(r, AngleUnit::Rad);
        let joints: Option<Vec<usize>> =
            self.required(t, "joints", "`[map]`", &span).and_then(|n| {
                let items = self.array(n, "`joints`")?;
                if items.len() != 2 {
                    self.error(Diagnostic::new(
                        n.span(),
                        format!("a map sweeps two joints, found {}", items.len()),
                    ));
                    return None;
                }
                let mut out = Vec::new();
                for item in items {
                    let name = self.string(item, "a joint name")?;
                    match movable.iter().find(|(_, c)| c.name == name) {
                        Some((j, _)) => out.push(*j),
                        None => {
                            let d = Diagnostic::new(
                                item.span(),
                                format!("the model has no hinge or slide joint `{name}`"),
                            )
                            .maybe_hint(
                                crate::diag::closest(
                                    &name,
                                    movable.iter().map(|(_, c)| c.name.as_str()),
                                )
                                .map(|c| format!("did you mean `{c}`?")),
                            );
                            self.error(d);
                            return None;
                        }
                    }
                }
                if out[0] == out[1] {
                    self.error(Diagnostic::new(
                        n.span(),
                        "a map sweeps two different joints",
                    ));
                    return None;
                }
                Some(out)
            });
        let joints = joints?;
        let dims: Vec<Dim> = joints
            .iter()
            .map(|&j| match tree.joints[j].kind {
                JointKind::Slide => Dim::LENGTH,
                _ => Dim::NONE,
            })
            .collect();
        let ends = |this: &mut Self, key: &str| -> Option<Vec<f64>> {
            let n = this.required(t, key, "`[map]`", &span)?;
            let items = this.array(n, &format!("`{key}`"))?;
            if items.len() != 2 {
                this.error(Diagnostic::new(
                    n.span(),
                    format!(
                        "`{key}` gives one value per joint (2), found {}",
                        items.len()
                    ),
                ));
                return None;
            }
            let v: Option<Vec<f64>> = items
                .iter()
                .zip(&dims)
                .map(|(item, &d)| this.value(item, d, "a joint value").map(|v| v.si))
                .collect();
            v
        };
        let from = ends(self, "from");
        let to = ends(self, "to");
        let points = self.map_points(t);
        let direction = match get(t, "direction") {
            None => Some(None),
            Some(n) => self
                .vector(n, 3, Dim::NONE, "a contact direction (world axes)")
                .and_then(|v| {
                    let d = [v[0].si, v[1].si, v[2].si];
                    let norm = d.iter().map(|x| x * x).sum::<f64>().sqrt();
                    if norm > 0.0 && norm.is_finite() {
                        Some(Some(d.map(|x| x / norm)))
                    } else {
                        self.error(Diagnostic::new(n.span(), "the direction has no length"));
                        None
                    }
                }),
        };
        let description = get(t, "description")
            .and_then(|n| self.string(n, "`description`"))
            .unwrap_or_default();
        let (from, to, points, direction) = (from?, to?, points?, direction?);
        let axis = |k: usize| -> Vec<f64> {
            let n = points[k];
            (0..n)
                .map(|i| from[k] + (to[k] - from[k]) * i as f64 / (n - 1) as f64)
                .collect()
        };
        for k in 0..2 {
            if from[k] == to[k] {
                self.error(
                    Diagnostic::new(
                        header(&span),
                        "a map's `from` and `to` are equal for a joint",
                    )
                    .hint("give each joint a range to sweep"),
                );
                return None;
            }
        }
        Some(WorkspaceMap {
            span,
            joints: [joints[0], joints[1]],
            axes: [axis(0), axis(1)],
            direction,
            base: r.configuration_with(|v| v.si),
            hazards,
            regions,
            description,
        })
    }

    /// `points`: one count for both joints or one per joint (default 11).
    fn map_points(&mut self, t: &DeTable) -> Option<[usize; 2]> {
        match get(t, "points") {
            None => Some([11, 11]),
            Some(n) => match n.get_ref() {
                DeValue::Array(items) if items.len() == 2 => {
                    let a = self.integer(&items[0], "`points`", 2..=MAX_MAP_POINTS as i64);
                    let b = self.integer(&items[1], "`points`", 2..=MAX_MAP_POINTS as i64);
                    a.zip(b).map(|(a, b)| [a, b])
                }
                DeValue::Array(_) => {
                    self.error(Diagnostic::new(
                        n.span(),
                        "`points` is one count for both joints or one per joint",
                    ));
                    None
                }
                _ => self
                    .integer(n, "`points`", 2..=MAX_MAP_POINTS as i64)
                    .map(|k| [k, k]),
            },
        }
    }
}
