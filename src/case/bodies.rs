//! `[[body]]`, `[[joint]]` and `[[contact]]` tables.

use super::hertz::ContactLaw;
use super::read::*;
use super::types::*;

impl Reader<'_> {
    pub(super) fn tables<'t, 'i>(
        &mut self,
        node: Option<&'t Node<'i>>,
        what: &str,
    ) -> Vec<(&'t DeTable<'i>, Range<usize>)> {
        let Some(node) = node else { return Vec::new() };
        let Some(items) = self.array(node, what) else {
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|item| self.table(item, what).map(|t| (t, item.span())))
            .collect()
    }

    pub(super) fn name(
        &mut self,
        table: &DeTable,
        what: &str,
        span: &Range<usize>,
        seen: &mut std::collections::HashSet<String>,
    ) -> Option<String> {
        let node = self.required(table, "name", what, span)?;
        let name = self.string(node, "`name`")?;
        if name.is_empty() {
            self.error(Diagnostic::new(node.span(), "a name cannot be empty"));
            return None;
        }
        if name == "world" {
            self.error(Diagnostic::new(
                node.span(),
                "`world` is reserved for the fixed world",
            ));
            return None;
        }
        if seen.contains(&name) {
            self.error(
                Diagnostic::new(node.span(), format!("duplicate name `{name}`"))
                    .hint("names must be unique"),
            );
            return None;
        }
        seen.insert(name.clone());
        Some(name)
    }

    pub(super) fn bodies(&mut self, node: Option<&Node>, space: Space) -> Vec<Body> {
        let mut seen = std::collections::HashSet::new();
        let mut bodies = Vec::new();
        for (t, span) in self.tables(node, "`[[body]]`") {
            bodies.extend(self.body(t, span, space, &mut seen));
        }
        bodies
    }

    /// One `[[body]]` table (`seen`: the names so far).
    pub(super) fn body(
        &mut self,
        t: &DeTable,
        span: Range<usize>,
        space: Space,
        seen: &mut std::collections::HashSet<String>,
    ) -> Option<Body> {
        self.keys(t, super::read::BODY_KEYS, "`[[body]]`");
        let name = self.name(t, "`[[body]]`", &span, seen);
        self.declared_bodies.extend(name.clone());
        let what = format!("body `{}`", name.as_deref().unwrap_or("?"));
        let kind_node = self.required(t, "type", &what, &span);
        let kind_text = kind_node.and_then(|n| {
            self.choice(
                n,
                ("type", "body type"),
                &[
                    ("particle", "particle"),
                    ("rigid", "rigid"),
                    ("fixed", "fixed"),
                ],
                3,
            )
        });
        let position = match get(t, "position") {
            Some(p) => self.vector(p, space.dim(), Dim::LENGTH, "a position"),
            None => Some(vec![zero_val(Dim::LENGTH); space.dim()]),
        };
        let rotation = self.rotation(t, space);
        let mass = |r: &mut Self| {
            let m = r.required(t, "mass", &what, &span)?;
            let v = r.value(m, Dim::MASS, "a mass");
            r.positive(v, "a mass")
        };
        let mut shape: Option<super::pose::ShapeGeom> = None;
        let kind = match kind_text {
            Some("particle") => {
                if let Some(n) = get(t, "inertia") {
                    self.error(
                        Diagnostic::new(n.span(), "a particle has no inertia")
                            .hint("use type = \"rigid\" for a body that rotates"),
                    );
                }
                for key in ["shape", "orientation", "angle"] {
                    if let Some(n) = get(t, key) {
                        self.error(
                            Diagnostic::new(n.span(), format!("a particle has no `{key}`")).hint(
                                "use type = \"rigid\" for a body with a shape or an orientation",
                            ),
                        );
                    }
                }
                mass(self).map(|mass| BodyKind::Particle { mass })
            }
            Some("rigid") => {
                if space == Space::Line {
                    self.error(
                        Diagnostic::new(
                            kind_node.map_or(span.clone(), |n| n.span()),
                            "rigid bodies need space = \"planar\" or \"3d\"",
                        )
                        .hint("in `line` space only particles and fixed bodies exist"),
                    );
                    None
                } else {
                    let mass = mass(self);
                    let inertia = match (get(t, "inertia"), get(t, "shape")) {
                        (Some(i), Some(sh)) => {
                            self.error(
                                Diagnostic::new(sh.span(), "`inertia` and `shape` are exclusive")
                                    .hint(format!(
                                        "the inertia is given at line {}; remove one of them",
                                        crate::diag::line_col(self.source, i.span().start).0
                                    )),
                            );
                            None
                        }
                        (None, Some(sh)) => mass.as_ref().and_then(|m| {
                            let (i, g) = self.shape(sh, m, space)?;
                            shape = Some(g);
                            Some(i)
                        }),
                        _ => self
                            .required(t, "inertia", &what, &span)
                            .and_then(|n| self.inertia(n, space)),
                    };
                    let inertia = match (inertia, &rotation) {
                        (Some(i), Some(Some(r))) => {
                            let at = get(t, "orientation").map_or(span.clone(), |n| n.span());
                            self.rotate_inertia(i, r, at)
                        }
                        (i, _) => i,
                    };
                    match (mass, inertia) {
                        (Some(mass), Some(inertia)) => Some(BodyKind::Rigid { mass, inertia }),
                        _ => None,
                    }
                }
            }
            Some("fixed") => {
                for key in ["mass", "inertia", "shape"] {
                    if let Some(n) = get(t, key) {
                        self.error(Diagnostic::new(
                            n.span(),
                            format!("a fixed body has no `{key}`"),
                        ));
                    }
                }
                Some(BodyKind::Fixed)
            }
            _ => None,
        };
        match (name, kind, position, rotation) {
            (Some(name), Some(kind), Some(position), Some(rotation)) => Some(Body {
                name,
                span,
                kind,
                position,
                rotation,
                shape,
                description: get(t, "description").and_then(|n| self.string(n, "`description`")),
            }),
            _ => None,
        }
    }

    pub(super) fn inertia(&mut self, node: &Node, space: Space) -> Option<InertiaVal> {
        if space == Space::Planar {
            let v = self.value(node, Dim::INERTIA, "an inertia");
            return self.positive(v, "an inertia").map(InertiaVal::Scalar);
        }
        let items = self.array(node, "a 3-d inertia")?;
        let hint =
            "a 3-d inertia is [Ixx, Iyy, Izz] or a symmetric 3×3 [[..], [..], [..]] in world axes";
        if items.len() != 3 {
            self.error(
                Diagnostic::new(node.span(), "a 3-d inertia must have 3 entries").hint(hint),
            );
            return None;
        }
        if items
            .iter()
            .all(|i| matches!(i.get_ref(), DeValue::Array(_)))
        {
            let rows: Vec<Option<Vec<Val>>> = items
                .iter()
                .map(|row| self.vector(row, 3, Dim::INERTIA, "an inertia"))
                .collect();
            let rows: Vec<Vec<Val>> = rows.into_iter().collect::<Option<_>>()?;
            let m: [[f64; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| rows[i][j].si));
            if let Some(&(i, j)) = crate::kinematics::inertia::asymmetries(&m).first() {
                self.error(Diagnostic::new(
                    rows[i][j].span.start..rows[j][i].span.end.max(rows[i][j].span.end),
                    format!("the inertia tensor is not symmetric: entry ({},{}) is {} but ({},{}) is {}", i + 1, j + 1, m[i][j], j + 1, i + 1, m[j][i]),
                ));
                return None;
            }
            if let Some(k) = cholesky_failure(&m) {
                self.error(
                    Diagnostic::new(node.span(), format!("the inertia tensor is not positive definite (its leading {}×{} block is not)", k + 1, k + 1))
                        .hint("principal moments must be positive and satisfy the triangle inequality"),
                );
                return None;
            }
            let flat: Vec<Val> = rows.iter().flatten().cloned().collect();
            self.record(
                super::rules::Rule::PositiveDefinite,
                "the inertia tensor",
                &flat,
                node.span(),
            );
            let mut it = rows.into_iter().map(|r| <[Val; 3]>::try_from(r).ok());
            let rows: [[Val; 3]; 3] = [it.next()??, it.next()??, it.next()??];
            return Some(InertiaVal::Full(rows));
        }
        let v = self.vector(node, 3, Dim::INERTIA, "an inertia")?;
        let mut out = Vec::new();
        for x in v {
            out.push(self.positive(Some(x), "a principal inertia")?);
        }
        Some(InertiaVal::Diagonal(out.try_into().ok()?))
    }

    pub(super) fn body_ref(&mut self, node: &Node, body_names: &[String]) -> Option<Option<usize>> {
        let name = self.string(node, "a body name")?;
        if name == "world" {
            return Some(None);
        }
        match self.body_index.get(&name).copied() {
            Some(i) => Some(Some(i)),
            None if self.declared_bodies.contains(&name) => None,
            None => {
                let d = Diagnostic::new(node.span(), format!("unknown body `{name}`"))
                    .maybe_hint(
                        closest(&name, self.declared_bodies.iter().map(String::as_str))
                            .map(|b| format!("did you mean `{b}`?")),
                    )
                    .maybe_hint(
                        (!body_names.is_empty() && body_names.len() <= 20)
                            .then(|| format!("bodies: {}", body_names.join(", "))),
                    );
                self.error(d);
                None
            }
        }
    }

    pub(super) fn joints(
        &mut self,
        node: Option<&Node>,
        bodies: &[Body],
        space: Space,
    ) -> Vec<Joint> {
        let names: Vec<String> = bodies.iter().map(|b| b.name.clone()).collect();
        let mut joints = Vec::new();
        for (t, span) in self.tables(node, "`[[joint]]`") {
            self.keys(t, super::read::JOINT_KEYS, "`[[joint]]`");
            if let Some(n) = self.required(t, "type", "`[[joint]]`", &span)
                && let Some(kind) = self.string(n, "`type`")
                && kind != "pin"
                && kind != "ball"
            {
                self.error(Diagnostic::new(n.span(), format!("unknown joint type `{kind}`")).hint("joint types: \"pin\" (planar) or \"ball\" (3-d); both keep two points together"));
            }
            let point = self
                .required(t, "point", "`[[joint]]`", &span)
                .and_then(|n| self.vector(n, space.dim(), Dim::LENGTH, "a joint point"));
            let Some(bnode) = self.required(t, "bodies", "`[[joint]]`", &span) else {
                continue;
            };
            let Some(items) = self.array(bnode, "`bodies`") else {
                continue;
            };
            if items.is_empty() || items.len() > 2 {
                self.error(
                    Diagnostic::new(
                        bnode.span(),
                        "a joint connects one body to the world or two bodies",
                    )
                    .hint("bodies = [\"a\", \"b\"] or [\"a\"]"),
                );
                continue;
            }
            let refs: Vec<Option<Option<usize>>> =
                items.iter().map(|i| self.body_ref(i, &names)).collect();
            let (Some(a), Some(point)) = (refs[0], point) else {
                continue;
            };
            let b = refs.get(1).copied().unwrap_or(Some(None));
            let Some(b) = b else { continue };
            let movable =
                |i: Option<usize>| i.is_some_and(|i| !matches!(bodies[i].kind, BodyKind::Fixed));
            let (body, other) = match (a, b) {
                (Some(x), y) if movable(Some(x)) => (x, y.filter(|&y| movable(Some(y)))),
                (x, Some(y)) if movable(Some(y)) => (y, x.filter(|&x| movable(Some(x)))),
                _ => {
                    self.error(Diagnostic::new(
                        bnode.span(),
                        "a joint between fixed bodies constrains nothing",
                    ));
                    continue;
                }
            };
            if Some(body) == other {
                self.error(Diagnostic::new(
                    bnode.span(),
                    "a joint needs two different bodies",
                ));
                continue;
            }
            let description = get(t, "description").and_then(|n| self.string(n, "`description`"));
            joints.push(Joint {
                span,
                body,
                other,
                point,
                description,
            });
        }
        joints
    }

    pub(super) fn contacts(
        &mut self,
        node: Option<&Node>,
        form: &Form,
        body_names: &[String],
        space: Space,
    ) -> Vec<Contact> {
        let mut seen = std::collections::HashSet::new();
        let mut contacts = Vec::new();
        let tables = self.tables(node, "`[[contact]]`");
        if tables.is_empty() && node.is_none() {
            self.error(
                Diagnostic::new(0..0, "the case has no `[[contact]]`")
                    .hint("add at least one contact"),
            );
        }
        let fixed: Vec<bool> = match form {
            Form::Bodies { bodies, .. } => bodies
                .iter()
                .map(|b| matches!(b.kind, BodyKind::Fixed))
                .collect(),
            _ => Vec::new(),
        };
        for (t, span) in tables {
            contacts.extend(self.contact(t, span, form, &fixed, body_names, space, &mut seen));
        }
        contacts
    }

    /// One `[[contact]]` table (`fixed`: which bodies of a body-form case
    /// are fixed; `seen`: the names so far).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn contact(
        &mut self,
        t: &DeTable,
        span: Range<usize>,
        form: &Form,
        fixed: &[bool],
        body_names: &[String],
        space: Space,
        seen: &mut std::collections::HashSet<String>,
    ) -> Option<Contact> {
        let allowed: &[&str] = match form {
            Form::Generalized { .. } => super::read::CONTACT_GENERALIZED_KEYS,
            Form::Robot(_) => super::read::CONTACT_MODEL_KEYS,
            Form::Bodies { .. } => super::read::CONTACT_KEYS,
        };
        self.keys(t, allowed, "`[[contact]]`");
        let name = self.name(t, "`[[contact]]`", &span, seen);
        self.declared_contacts.extend(name.clone());
        let what = format!("contact `{}`", name.as_deref().unwrap_or("?"));
        let law = match form {
            Form::Bodies { .. } => self.contact_law(t, &what),
            _ => Some((ContactLaw::Linear, None, None)),
        };
        let hertz = matches!(law, Some((ContactLaw::Hertz(_), ..)) | None);
        let (law, hertz_k, mindlin) = law.unwrap_or((ContactLaw::Linear, None, None));
        let from_engine = self.engine_present && get(t, "stiffness").is_none() && !hertz;
        let stiffness = match hertz_k {
            Some(k) => Some(k),
            None if hertz => None,
            None => self.contact_stiffness(t, &span, &what, from_engine),
        };
        let damping = get(t, "damping").and_then(|n| self.value(n, Dim::DAMPING, "a damping"));
        if let Some(d) = &damping {
            let span = d.span.clone();
            self.rule(
                super::rules::Rule::NonNegative,
                "a damping",
                std::slice::from_ref(d),
                span,
            );
        }
        let geometry = match form {
            Form::Robot(robot) => self.link_geometry(t, &span, &what, robot),
            Form::Generalized { coordinates, .. } => {
                self.jacobian_geometry(t, &span, &what, coordinates)
            }
            Form::Bodies { .. } => {
                self.point_geometry(t, &span, &what, form, fixed, body_names, space)
            }
        };
        let tangential = self.tangential(t, &what, form, geometry.as_ref(), space, mindlin);
        match (name, geometry, stiffness) {
            (Some(name), Some(geometry), Some(stiffness)) => Some(Contact {
                name,
                span,
                geometry,
                stiffness,
                damping,
                from_engine,
                body_frame: matches!(form, Form::Bodies { .. })
                    && get(t, "frame")
                        .is_some_and(|n| matches!(n.get_ref(), DeValue::String(s) if s == "body")),
                tangential,
                law,
                description: get(t, "description").and_then(|n| self.string(n, "`description`")),
            }),
            _ => None,
        }
    }

    /// A contact's stiffness: its `stiffness`, or with an `[engine.*]`
    /// table and none given (`from_engine`) the engine's spring (filled in
    /// before the analysis; a placeholder until then).
    fn contact_stiffness(
        &mut self,
        t: &DeTable,
        span: &Range<usize>,
        what: &str,
        from_engine: bool,
    ) -> Option<Val> {
        if from_engine {
            crate::expr::parse("1 N/m").ok().map(|expr| Val {
                text: "the engine's".into(),
                expr,
                span: header(span),
                si: 1.0,
                dim: Dim::STIFFNESS,
            })
        } else {
            let stiffness = self
                .required(t, "stiffness", what, span)
                .and_then(|n| self.value(n, Dim::STIFFNESS, "a stiffness"));
            self.positive(stiffness, "a stiffness")
        }
    }

    /// A `[model]` case's contact: on a link or a body written in the case,
    /// point and normal in the body's frame or the world's.
    fn link_geometry(
        &mut self,
        t: &DeTable,
        span: &Range<usize>,
        what: &str,
        robot: &RobotForm,
    ) -> Option<ContactGeometry> {
        let body = self
            .required(t, "body", what, span)
            .and_then(|n| self.model_body(n, robot).map(|b| (b, n.span())));
        let other = match get(t, "other") {
            Some(n) => self.model_body(n, robot),
            None => Some(None),
        };
        let frame_key = |this: &mut Self, key: &str, default: bool| match get(t, key) {
            None => Some(default),
            Some(n) => match this.string(n, &format!("`{key}`")).as_deref() {
                Some("body") => Some(false),
                Some("world") => Some(true),
                Some(other) => {
                    this.error(
                        Diagnostic::new(n.span(), format!("unknown frame `{other}`")).hint(
                            "`body` (the default: point and normal in the body's frame) or `world`",
                        ),
                    );
                    None
                }
                None => None,
            },
        };
        let world = frame_key(self, "frame", false);
        // A point on the link with the normal of what it touches
        // (a floor): `normal_frame = "world"`.
        let normal_world = frame_key(self, "normal_frame", world.unwrap_or(false));
        let point = self
            .required(t, "point", what, span)
            .and_then(|n| self.vector(n, 3, Dim::LENGTH, "a contact point"));
        let normal = self
            .required(t, "normal", what, span)
            .and_then(|n| self.unit_normal(n, 3));
        let world = world.zip(normal_world);
        match (body, other, world, point, normal) {
            (Some((None, bspan)), ..) => {
                self.error(
                    Diagnostic::new(bspan, "`body` cannot be the world")
                        .hint("name the moving body here and use `other` for the second body"),
                );
                None
            }
            (
                Some((Some(b), bspan)),
                Some(other),
                Some((world, normal_world)),
                Some(point),
                Some(normal),
            ) => {
                let fixed = |s: Option<Side>| match s {
                    None => true,
                    Some(Side::Case(i)) => {
                        matches!(robot.bodies[i].kind, BodyKind::Fixed)
                    }
                    Some(Side::Model(_)) => false,
                };
                if other == Some(b) {
                    self.error(Diagnostic::new(
                        bspan,
                        "a contact needs two different bodies",
                    ));
                    None
                } else if fixed(Some(b)) && fixed(other) {
                    self.error(
                        Diagnostic::new(bspan, "this contact joins two fixed bodies (or a fixed body and the world): its gap cannot move")
                            .hint("put the contact on a movable body"),
                    );
                    None
                } else {
                    Some(ContactGeometry::Link {
                        body: b,
                        other,
                        world,
                        normal_world,
                        point,
                        normal,
                    })
                }
            }
            _ => None,
        }
    }

    /// A generalized-coordinates case's contact: its Jacobian row, one
    /// entry per coordinate.
    fn jacobian_geometry(
        &mut self,
        t: &DeTable,
        span: &Range<usize>,
        what: &str,
        coordinates: &[Coordinate],
    ) -> Option<ContactGeometry> {
        let n = coordinates.len();
        self.required(t, "jacobian", what, span).and_then(|node| {
            let items = self.array(node, "`jacobian`")?;
            if items.len() != n {
                self.error(Diagnostic::new(
                    node.span(),
                    format!(
                        "`jacobian` must have one entry per coordinate ({n}), found {}",
                        items.len()
                    ),
                ));
                return None;
            }
            let row: Vec<Option<Val>> = items
                .iter()
                .zip(coordinates)
                .map(|(item, c)| {
                    self.value(
                        item,
                        Dim::LENGTH.per(c.dim),
                        &format!("a Jacobian entry for `{}`", c.name),
                    )
                })
                .collect();
            row.into_iter()
                .collect::<Option<Vec<_>>>()
                .map(ContactGeometry::Jacobian)
        })
    }

    /// A bodies case's contact: a point and a normal, in the world's axes
    /// or the body's (`frame = "body"`, turned into the world's here).
    #[allow(clippy::too_many_arguments)]
    fn point_geometry(
        &mut self,
        t: &DeTable,
        span: &Range<usize>,
        what: &str,
        form: &Form,
        fixed: &[bool],
        body_names: &[String],
        space: Space,
    ) -> Option<ContactGeometry> {
        let body = self
            .required(t, "body", what, span)
            .and_then(|n| self.body_ref(n, body_names).map(|b| (b, n.span())));
        let other = match get(t, "other") {
            Some(n) => self.body_ref(n, body_names),
            None => Some(None),
        };
        let point = self
            .required(t, "point", what, span)
            .and_then(|n| self.vector(n, space.dim(), Dim::LENGTH, "a contact point"));
        let normal = self
            .required(t, "normal", what, span)
            .and_then(|n| self.unit_normal(n, space.dim()));
        // `frame = "body"`: point and normal in the body's axes,
        // the point relative to its centre of mass.
        let in_body = match get(t, "frame") {
            None => Some(false),
            Some(n) => match self.string(n, "`frame`").as_deref() {
                Some("world") => Some(false),
                Some("body") => Some(true),
                Some(other) => {
                    self.error(
                        Diagnostic::new(n.span(), format!("unknown frame `{other}`"))
                            .hint("`world` (the default) or `body` (the body's axes, from its centre of mass)"),
                    );
                    None
                }
                None => None,
            },
        };
        let (point, normal) = match (in_body, &body, point, normal, form) {
            (Some(true), Some((Some(b), _)), Some(p), Some(n), Form::Bodies { bodies, .. })
                if bodies.get(*b).is_some() =>
            {
                let bd = &bodies[*b];
                let (pos, rot) = (bd.position.clone(), bd.rotation.clone());
                let d = space.dim();
                (
                    self.body_to_world(&p, Some(&pos), rot.as_ref(), d, Dim::LENGTH),
                    self.body_to_world(&n, None, rot.as_ref(), d, Dim::NONE),
                )
            }
            (None, ..) => (None, None),
            // A body-frame contact whose body is not held as a
            // table (the columnar reader keeps bodies as columns):
            // a problem here sends that reader's file down the
            // ordinary path, which composes the pose.
            (Some(true), Some((Some(_), bspan)), Some(_), Some(_), Form::Bodies { .. }) => {
                self.error(Diagnostic::new(
                    bspan.clone(),
                    "a body-frame contact needs its body's pose, which is not read here",
                ));
                (None, None)
            }
            (_, _, p, n, _) => (p, n),
        };
        match (body, other, point, normal) {
            (Some((Some(b), bspan)), Some(other), Some(point), Some(normal)) => {
                let fixed = |i: Option<usize>| i.is_none_or(|i| fixed[i]);
                if fixed(Some(b)) && fixed(other) {
                    self.error(
                        Diagnostic::new(bspan, "this contact joins two fixed bodies (or a fixed body and the world): its gap cannot move")
                            .hint("put the contact on a movable body"),
                    );
                    None
                } else if other == Some(b) {
                    self.error(Diagnostic::new(
                        bspan,
                        "a contact needs two different bodies",
                    ));
                    None
                } else {
                    Some(ContactGeometry::Point {
                        body: b,
                        other,
                        point,
                        normal,
                    })
                }
            }
            (Some((None, bspan)), ..) => {
                self.error(
                    Diagnostic::new(bspan, "`body` cannot be the world")
                        .hint("name the movable body here and use `other` for the second body"),
                );
                None
            }
            _ => None,
        }
    }

    /// A unit normal of `d` components.
    fn unit_normal(&mut self, n: &Node, d: usize) -> Option<Vec<Val>> {
        let v = self.vector(n, d, Dim::NONE, "a normal component")?;
        self.rule(super::rules::Rule::UnitNormal, "a normal", &v, n.span())
            .then_some(v)
    }
}
