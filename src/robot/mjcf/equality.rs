//! `<equality>`: connect, weld and joint constraints as MuJoCo
//! instantiates them (`mj_setConst`, `mj_instantiateEquality`).

use super::{El, Fail, Mjcf};
use crate::kinematics::JointKind;
use crate::robot::Constraint;
use crate::robot::xml::{attr_span, numbers};
use nalgebra::Vector3;

impl<'a, 'i> Mjcf<'a, 'i> {
    pub(super) fn equality(&self, el: El<'a, 'i>) -> Result<Option<Constraint>, Fail> {
        let class = "main";
        if self
            .attr(el, class, "active")
            .is_some_and(|(v, _)| v.trim() == "false")
        {
            return Ok(None);
        }
        let name = el.node.attribute("name").unwrap_or(el.name()).to_string();
        let body = |attr: &str| -> Result<Option<usize>, Fail> {
            match el.node.attribute(attr) {
                None if attr == "body2" => Ok(None),
                None => Err(el.err(None, format!("`<{}>` needs `{attr}`", el.name()))),
                Some("world") => Ok(None),
                Some(n) => self
                    .tree
                    .body_index(n)
                    .map(Some)
                    .ok_or_else(|| el.err(Some(attr), format!("no body named `{n}`"))),
            }
        };
        Ok(Some(match el.name() {
            "connect" | "weld" => {
                if el.node.attribute("site1").is_some() {
                    return Err(el.err(
                        Some("site1"),
                        "site-based equalities are not supported; name the bodies",
                    ));
                }
                let Some(body1) = body("body1")? else {
                    return Err(el.err(Some("body1"), "`body1` cannot be the world"));
                };
                let body2 = body("body2")?;
                if el.name() == "connect" {
                    let anchor = self
                        .nums::<3>(el, class, "anchor")?
                        .ok_or_else(|| el.err(None, "`<connect>` needs `anchor`"))?;
                    // body2's point at the reference configuration.
                    let kin = self.tree.kinematics(&self.tree.qpos0);
                    let here = self.tree.place(&kin, body1, &Vector3::from(anchor));
                    let anchor2 = match body2 {
                        Some(b2) => kin.xrot[b2].transpose() * (here - kin.xpos[b2]),
                        None => kin.world(&here),
                    };
                    Constraint::Connect {
                        name,
                        body1,
                        body2,
                        anchor: Vector3::from(anchor),
                        anchor2,
                    }
                } else {
                    // MuJoCo (`mj_setConst`): the anchor is in body2's frame;
                    // its place in body1's frame is taken at the reference
                    // configuration, unless `relpose` gives it.
                    let anchor2 =
                        Vector3::from(self.nums::<3>(el, class, "anchor")?.unwrap_or_default());
                    let relpose = self.nums::<7>(el, class, "relpose")?;
                    let anchor1 = match relpose {
                        Some(r) if r[3..].iter().any(|x| *x != 0.0) => {
                            Vector3::new(r[0], r[1], r[2])
                        }
                        _ => {
                            let kin = self.tree.kinematics(&self.tree.qpos0);
                            let here = match body2 {
                                Some(b2) => self.tree.place(&kin, b2, &anchor2),
                                None => kin.local(&anchor2),
                            };
                            kin.xrot[body1].transpose() * (here - kin.xpos[body1])
                        }
                    };
                    let rotation = self.num(el, class, "torquescale")?.unwrap_or(1.0) != 0.0;
                    Constraint::Weld {
                        name,
                        body1,
                        body2,
                        anchor1,
                        anchor2,
                        rotation,
                    }
                }
            }
            "joint" => {
                let joint = |attr: &str| -> Result<Option<usize>, Fail> {
                    match el.node.attribute(attr) {
                        None => Ok(None),
                        Some(n) => self
                            .joint_index
                            .get(n)
                            .copied()
                            .map(Some)
                            .ok_or_else(|| el.err(Some(attr), format!("no joint named `{n}`"))),
                    }
                };
                let Some(joint1) = joint("joint1")? else {
                    return Err(el.err(None, "`<joint>` equality needs `joint1`"));
                };
                let joint2 = joint("joint2")?;
                for j in [Some(joint1), joint2].into_iter().flatten() {
                    if !matches!(
                        self.tree.joints[j].kind,
                        JointKind::Hinge | JointKind::Slide
                    ) {
                        return Err(el.err(None, "joint equalities couple hinge and slide joints"));
                    }
                }
                let coef = match el.node.attribute("polycoef") {
                    Some(t) => numbers(t, attr_span(el.node, "polycoef"), "polycoef")
                        .map_err(|p| (el.file, p))?,
                    None => vec![0.0, 1.0, 0.0, 0.0, 0.0],
                };
                if coef.len() > 5 {
                    return Err(el.err(Some("polycoef"), "`polycoef` has at most 5 numbers"));
                }
                Constraint::Joint {
                    name,
                    joint1,
                    joint2,
                    coef,
                }
            }
            other => {
                return Err(el.err(
                    None,
                    format!("`<{other}>` equality constraints are not supported"),
                ));
            }
        }))
    }
}
