//! The `<body>` tree under `<worldbody>`: body names, bodies and frames,
//! their joints (the reader's part that builds the `Tree`).

use super::*;

impl<'a, 'i> Mjcf<'a, 'i> {
    /// The names the file gives the bodies and joints under `el` (through
    /// frames and includes).
    pub(super) fn body_names(&mut self, el: El<'a, 'i>, depth: usize) -> Result<(), Fail> {
        if depth > MAX_DEPTH {
            return Err(el.err(
                None,
                format!("bodies and frames nest more than {MAX_DEPTH} deep"),
            ));
        }
        for child in self.children(el)? {
            let name = child.node.attribute("name");
            match child.name() {
                "body" | "frame" => {
                    if let (Some(name), "body") = (name, child.name()) {
                        self.named.insert(name);
                    }
                    self.body_names(child, depth + 1)?;
                }
                "joint" | "freejoint" => self.named_joints.extend(name),
                _ => {}
            }
        }
        Ok(())
    }

    /// Bodies under `el` (the world body, a body or a frame), with `frame`
    /// the placement of `el`'s contents in the enclosing body's frame.
    pub(super) fn bodies(
        &mut self,
        el: El<'a, 'i>,
        parent: Option<usize>,
        frame: Frame,
        childclass: Option<&'a str>,
        depth: usize,
    ) -> Result<(), Fail> {
        if depth > MAX_DEPTH {
            return Err(el.err(
                None,
                format!("bodies and frames nest more than {MAX_DEPTH} deep"),
            ));
        }
        for child in self.children(el)? {
            match child.name() {
                "body" => self.body(child, parent, frame, childclass, depth + 1)?,
                "geom" if parent.is_none() => self.world_plane(child, frame, childclass)?,
                "frame" => {
                    let cc = child.node.attribute("childclass").or(childclass);
                    let f = self.frame(child, cc.unwrap_or("main"))?;
                    self.bodies(child, parent, frame.then(&f), cc, depth + 1)?;
                }
                "replicate" | "attach" | "composite" | "flexcomp" => {
                    return Err(child.err(
                        None,
                        format!(
                            "`<{}>` is not supported; expand it into bodies",
                            child.name()
                        ),
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// A plane geom of the world body, kept for the model checks (its
    /// frame composed like any geom's: `pos`, then its orientation, whose
    /// z axis is the plane's normal).
    fn world_plane(
        &mut self,
        el: El<'a, 'i>,
        frame: Frame,
        childclass: Option<&'a str>,
    ) -> Result<(), Fail> {
        let class = childclass.unwrap_or("main");
        let ty = self.attr(el, class, "type").map(|(v, _)| v.trim());
        if ty != Some("plane") {
            return Ok(());
        }
        let placed = frame.then(&self.frame(el, class)?);
        let name = el.node.attribute("name").map_or_else(
            || format!("plane {}", self.planes.len() + 1),
            str::to_string,
        );
        self.planes.push(super::super::Plane {
            name,
            point: placed.pos,
            normal: placed.quat * Vector3::z(),
        });
        Ok(())
    }

    fn body(
        &mut self,
        el: El<'a, 'i>,
        parent: Option<usize>,
        frame: Frame,
        childclass: Option<&'a str>,
        depth: usize,
    ) -> Result<(), Fail> {
        if self.tree.bodies.len() >= MAX_BODIES {
            return Err(el.err(None, format!("more than {MAX_BODIES} bodies")));
        }
        let cc = el.node.attribute("childclass").or(childclass);
        let class = cc.unwrap_or("main");
        let own = self.frame(el, "")?;
        let placed = frame.then(&own);
        let index = self.tree.bodies.len();
        let name = el.node.attribute("name").map_or_else(
            || {
                // `body3`, or `body3_2`… when the file names a body so.
                crate::robot::unique_name(format!("body{}", index + 1), |n| {
                    self.named.contains(n) || self.tree.body_index(n).is_some()
                })
            },
            str::to_string,
        );
        if self.tree.body_index(&name).is_some() {
            return Err(el.err(Some("name"), format!("a second body named `{name}`")));
        }
        // Joints, geoms and the inertial, through nested frames.
        let mut joints = Vec::new();
        let mut ranges = Vec::new();
        let mut geoms: Vec<(El<'a, 'i>, Frame, &'a str)> = Vec::new();
        let mut inertial = None;
        let mut stack = vec![(el, Frame::identity(), class)];
        while let Some((container, f, cls)) = stack.pop() {
            for child in self.children(container)? {
                match child.name() {
                    "joint" | "freejoint" => {
                        let j = self.joint(child, cls, parent)?;
                        ranges.push(self.range(child, cls, j.kind)?);
                        joints.push(j);
                    }
                    "geom" => geoms.push((child, f, cls)),
                    "inertial" => inertial = Some(child),
                    "frame" => {
                        let c = child.node.attribute("childclass").unwrap_or(cls);
                        let inner = self.frame(child, c)?;
                        stack.push((child, f.then(&inner), c));
                    }
                    _ => {}
                }
            }
        }
        // A body welded to the world (no joint on its path to the root)
        // moves with nothing: its mass never enters M. Its mass properties
        // are still computed for the model's total, but one that cannot be
        // (mesh geoms, whose data is never read) is left out with a note.
        // `settotalmass` scales by the total of every body, so there it
        // stays an error.
        let moving = !joints.is_empty() || parent.is_some_and(|p| self.moving[p]);
        let needed = moving || self.compiler.settotalmass > 0.0;
        let none = || MassProps {
            mass: 0.0,
            com: Vector3::zeros(),
            inertia: Matrix3::zeros(),
        };
        let computed = match (self.compiler.from_geom, inertial) {
            (Some(true), _) | (None, None) => self.geom_inertia(&geoms),
            (_, Some(i)) => self.inertial(i),
            (Some(false), None) => Ok(none()),
        }
        .and_then(|p| self.bounded(el, p));
        let props = match computed {
            Ok(p) => p,
            Err(_) if !needed => {
                self.notes.push(format!(
                    "body `{name}` is fixed to the world and its mass cannot be computed \
                     without mesh data: it is left out of the total mass (it never moves, \
                     so M and every effective mass are unaffected)"
                ));
                none()
            }
            Err(e) => return Err(e),
        };
        for j in &joints {
            if matches!(j.kind, JointKind::Free { .. }) && (parent.is_some() || joints.len() > 1) {
                return Err(el.err(
                    None,
                    "a free joint must be the only joint of a body of the world body",
                ));
            }
            if self.joint_index.contains_key(&j.name) {
                return Err(el.err(None, format!("a second joint named `{}`", j.name)));
            }
        }
        let first_joint = self.tree.joints.len();
        self.tree.ranges.resize(first_joint, None);
        self.tree.ranges.extend(ranges);
        for (k, j) in joints.iter_mut().enumerate() {
            if j.name.is_empty() {
                // `joint3`, or `joint3_2`… when the file names a joint so.
                j.name = crate::robot::unique_name(format!("joint{}", first_joint + k + 1), |n| {
                    self.named_joints.contains(n) || self.joint_index.contains_key(n)
                });
            }
            self.joint_index.insert(j.name.clone(), first_joint + k);
        }
        let b = self.tree.push_body(
            Body {
                name,
                parent,
                pos: placed.pos,
                quat: placed.quat,
                mass: props.mass,
                com: props.com,
                inertia: props.inertia,
                joints: Vec::new(),
            },
            joints,
        );
        self.moving.push(moving);
        self.bodies(el, Some(b), Frame::identity(), cc, depth)
    }

    /// A hinge or slide joint's `range` (SI) where it is limited: `limited
    /// = "true"`, or `"auto"` (the default) with the compiler's
    /// `autolimits` (default true) and a `range` given. What a program is
    /// checked against, never used for the mass matrix.
    fn range(
        &self,
        el: El<'a, 'i>,
        class: &str,
        kind: JointKind,
    ) -> Result<Option<[f64; 2]>, Fail> {
        if !matches!(kind, JointKind::Hinge | JointKind::Slide) {
            return Ok(None);
        }
        let Some([lo, hi]) = self.nums::<2>(el, class, "range")? else {
            return Ok(None);
        };
        let limited = match self.attr(el, class, "limited").map(|(v, _)| v.trim()) {
            Some("true") => true,
            Some("false") => false,
            _ => self.compiler.autolimits,
        };
        let scale = |x: f64| {
            if kind == JointKind::Hinge {
                self.angle(x)
            } else {
                x
            }
        };
        Ok(
            (limited && lo.is_finite() && hi.is_finite() && lo < hi)
                .then(|| [scale(lo), scale(hi)]),
        )
    }

    fn joint(&self, el: El<'a, 'i>, class: &str, parent: Option<usize>) -> Result<Joint, Fail> {
        let _ = parent;
        let kind = if el.name() == "freejoint" {
            JointKind::Free {
                local_linear: false,
            }
        } else {
            match self.attr(el, class, "type").map(|(v, _)| v.trim()) {
                None | Some("hinge") => JointKind::Hinge,
                Some("slide") => JointKind::Slide,
                Some("ball") => JointKind::Ball,
                Some("free") => JointKind::Free {
                    local_linear: false,
                },
                Some(other) => {
                    return Err(el.err(
                        Some("type"),
                        format!("unknown joint type `{other}` (hinge, slide, ball or free)"),
                    ));
                }
            }
        };
        let pos = Vector3::from(self.nums::<3>(el, class, "pos")?.unwrap_or_default());
        let axis = Vector3::from(
            self.nums::<3>(el, class, "axis")?
                .unwrap_or([0.0, 0.0, 1.0]),
        );
        let axis = match kind {
            JointKind::Hinge | JointKind::Slide => {
                if axis.norm() < EPS {
                    return Err(el.err(Some("axis"), "the joint axis is too small"));
                }
                axis.normalize()
            }
            _ => Vector3::z(),
        };
        let mut q_ref = self.num(el, class, "ref")?.unwrap_or(0.0);
        if kind == JointKind::Hinge {
            q_ref = self.angle(q_ref);
        }
        let armature = self.num(el, class, "armature")?.unwrap_or(0.0);
        if armature < 0.0 {
            return Err(el.err(Some("armature"), "`armature` cannot be negative"));
        }
        Ok(Joint {
            name: el.node.attribute("name").unwrap_or("").to_string(),
            kind,
            pos: if matches!(kind, JointKind::Free { .. }) {
                Vector3::zeros()
            } else {
                pos
            },
            axis,
            q_ref: if matches!(kind, JointKind::Hinge | JointKind::Slide) {
                q_ref
            } else {
                0.0
            },
            armature,
            qpos_adr: 0,
            dof_adr: 0,
        })
    }
}
