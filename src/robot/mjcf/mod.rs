//! MJCF (MuJoCo's XML format) → [`Robot`].
//!
//! What is read, following MuJoCo's compiler (`user_objects.cc`:
//! `ResolveOrientation`, `mjCGeom::GetVolume`/`SetInertia`,
//! `mjCBody::InertiaFromGeom`; `engine_core_smooth.c`: `mj_kinematics1`,
//! `mj_comPos`): `<compiler>` (`angle`, `eulerseq`, `inertiafromgeom`,
//! `inertiagrouprange`, `boundmass`, `boundinertia`, `balanceinertia`,
//! `settotalmass`), `<default>` classes and `childclass`, `<include>`,
//! bodies and `<frame>`s with every orientation form, `<inertial>`,
//! primitive geoms' inertia, joints (hinge, slide, ball, free) with
//! `armature` and `ref`, `<keyframe>` and `<equality>` (connect, weld,
//! joint).

mod body;
mod equality;
mod inertia;

use super::xml::{self, Problem, attr_span, fixed, numbers, tag_span};
use super::{Constraint, Format, MAX_BODIES, Robot};
use crate::diag::{Diagnostic, SourceError};
use crate::kinematics::{Body, Joint, JointKind, Tree};
use nalgebra::{Matrix3, Quaternion, Rotation3, Unit, UnitQuaternion, Vector3};
use roxmltree::{Document, Node};
use std::collections::HashMap;
use std::f64::consts::PI;

/// Deepest `<include>` nesting, and most files.
const MAX_INCLUDE_DEPTH: usize = 8;
const MAX_FILES: usize = 64;
/// Most elements the `<include>`s may stand for in all (each `<include>` is
/// replaced by its file's elements wherever it appears, so a few kilobytes
/// of files including each other several times expand exponentially).
const MAX_EXPANDED: u64 = xml::MAX_NODES as u64;
/// Deepest nesting of bodies, frames and default classes (the walk is
/// recursive; real models nest a few dozen levels).
const MAX_DEPTH: usize = 500;
/// MuJoCo's mjEPS: geoms lighter than this do not count.
const EPS: f64 = 1e-14;

/// Reads an MJCF model (`text` is the main file's content).
pub fn read(
    path: &std::path::Path,
    shown: &str,
    text: String,
    max_bytes: u64,
    confine: Option<&crate::confine::Confine>,
) -> Result<Robot, SourceError> {
    let base = path.parent().map(|p| p.to_path_buf()).unwrap_or_default();
    let mut files: Vec<(String, String)> = vec![(shown.to_string(), text)];
    // By the `file` attribute as written, and by the file it names: one
    // file included under several spellings is read and parsed once.
    let mut include_index: HashMap<String, usize> = HashMap::new();
    let mut by_file: HashMap<std::path::PathBuf, usize> = HashMap::new();
    if let Ok(main) = std::fs::canonicalize(path) {
        by_file.insert(main, 0);
    }
    // Load includes breadth-first (paths relative to the main file).
    let mut depth = vec![0usize];
    let mut i = 0;
    while i < files.len() {
        let found: Vec<(String, std::ops::Range<usize>)> = {
            let doc = xml::parse(&files[i].1).map_err(|p| fail(&files, i, p))?;
            doc.descendants()
                .filter(|n| n.has_tag_name("include"))
                .map(|n| {
                    (
                        n.attribute("file").unwrap_or("").to_string(),
                        attr_span(n, "file"),
                    )
                })
                .collect()
        };
        for (file, span) in found {
            if include_index.contains_key(&file) {
                continue;
            }
            if file.is_empty() {
                return Err(fail(
                    &files,
                    i,
                    Diagnostic::new(span, "`<include>` needs a `file`"),
                ));
            }
            if depth[i] + 1 > MAX_INCLUDE_DEPTH || files.len() >= MAX_FILES {
                return Err(fail(
                    &files,
                    i,
                    Diagnostic::new(span, "too many nested or included files"),
                ));
            }
            let p = base.join(&file);
            let shown_p = crate::diag::escape_controls(&p.display().to_string()).into_owned();
            let cannot = |message: &str| {
                fail(
                    &files,
                    i,
                    Diagnostic::new(span.clone(), format!("cannot include `{file}`: {message}")),
                )
            };
            let opened = crate::confine::admit(confine, &p).map_err(|m| cannot(&m))?;
            if let Some(&known) = std::fs::canonicalize(&opened)
                .ok()
                .and_then(|c| by_file.get(&c))
            {
                include_index.insert(file, known);
                continue;
            }
            let mut text = xml::read_text(&opened, &shown_p, max_bytes).map_err(|e| {
                fail(
                    &files,
                    i,
                    Diagnostic::new(
                        span.clone(),
                        format!(
                            "cannot include `{file}`: {}",
                            e.diagnostics
                                .first()
                                .map(|d| d.message.as_str())
                                .unwrap_or("unreadable")
                        ),
                    ),
                )
            })?;
            if xml::first_element(&text) != Some("mujoco") {
                return Err(cannot(
                    "an included file is MJCF whose root element is `<mujoco>`; this one does not begin with it",
                ));
            }
            xml::tolerate(&mut text);
            if let Ok(c) = std::fs::canonicalize(&opened) {
                by_file.insert(c, files.len());
            }
            include_index.insert(file, files.len());
            files.push((shown_p, text));
            depth.push(depth[i] + 1);
        }
        i += 1;
    }
    let docs: Vec<Document> = files
        .iter()
        .enumerate()
        .map(|(i, (_, t))| xml::parse(t).map_err(|p| fail(&files, i, p)))
        .collect::<Result<_, _>>()?;
    let mut r = Mjcf {
        docs: &docs,
        include_index: &include_index,
        expanded: std::cell::Cell::new(0),
        compiler: Compiler::default(),
        classes: HashMap::new(),
        tree: Tree::default(),
        joint_index: HashMap::new(),
        moving: Vec::new(),
        notes: Vec::new(),
        named: std::collections::HashSet::new(),
        named_joints: std::collections::HashSet::new(),
        planes: Vec::new(),
    };
    let root = docs[0].root_element();
    let run = r.run(root);
    let planes = std::mem::take(&mut r.planes);
    run.map_err(|(file, p)| fail(&files, file, p))
        .map(|(tree, keyframes, constraints, notes)| Robot {
            format: Format::Mjcf,
            path: shown.to_string(),
            name: root.attribute("model").unwrap_or("").to_string(),
            tree,
            keyframes,
            constraints,
            notes,
            sha256: String::new(),
            planes,
        })
}

fn fail(files: &[(String, String)], i: usize, p: Problem) -> SourceError {
    SourceError {
        path: files[i].0.clone(),
        source: files[i].1.clone(),
        diagnostics: vec![p],
    }
}

/// A problem and the file it is in.
type Fail = (usize, Problem);

/// An element and the file it is in.
#[derive(Clone, Copy)]
struct El<'a, 'i> {
    file: usize,
    node: Node<'a, 'i>,
}

impl<'a, 'i> El<'a, 'i> {
    fn name(&self) -> &'a str {
        self.node.tag_name().name()
    }
    fn err(&self, attr: Option<&str>, message: impl Into<String>) -> Fail {
        let span = match attr {
            Some(a) => attr_span(self.node, a),
            None => tag_span(self.node),
        };
        (self.file, Diagnostic::new(span, message))
    }
}

struct Compiler {
    degree: bool,
    eulerseq: [u8; 3],
    /// `inertiafromgeom`: Some(true) always, Some(false) never, None auto.
    from_geom: Option<bool>,
    group_range: [i64; 2],
    boundmass: f64,
    boundinertia: f64,
    balanceinertia: bool,
    settotalmass: f64,
    /// `autolimits`: a `range` limits a joint whose `limited` is `auto`.
    autolimits: bool,
}

impl Default for Compiler {
    fn default() -> Self {
        Compiler {
            degree: true,
            eulerseq: *b"xyz",
            from_geom: None,
            group_range: [0, 5],
            boundmass: 0.0,
            boundinertia: 0.0,
            balanceinertia: false,
            settotalmass: -1.0,
            autolimits: true,
        }
    }
}

/// A default class: its parent and its element defaults.
struct Class<'a, 'i> {
    parent: Option<String>,
    elements: HashMap<&'a str, El<'a, 'i>>,
}

type Parsed = (Tree, Vec<(String, Vec<f64>)>, Vec<Constraint>, Vec<String>);

struct Mjcf<'a, 'i> {
    docs: &'a [Document<'i>],
    include_index: &'a HashMap<String, usize>,
    /// Elements produced by `<include>`s so far ([`MAX_EXPANDED`]).
    expanded: std::cell::Cell<u64>,
    compiler: Compiler,
    classes: HashMap<String, Class<'a, 'i>>,
    tree: Tree,
    joint_index: HashMap<String, usize>,
    /// Per body: whether a joint moves it (it or an ancestor has one).
    moving: Vec<bool>,
    /// What the reader left out, shown in the report.
    notes: Vec<String>,
    /// The names the file gives its bodies: a generated name (`body3`
    /// for an unnamed third body) avoids them.
    named: std::collections::HashSet<&'a str>,
    /// The same for joints (`joint3` for an unnamed third joint).
    named_joints: std::collections::HashSet<&'a str>,
    /// Plane geoms of the world body (for the model checks).
    planes: Vec<super::Plane>,
}

/// A frame: position and orientation relative to the enclosing body.
#[derive(Clone, Copy)]
struct Frame {
    pos: Vector3<f64>,
    quat: UnitQuaternion<f64>,
}

impl Frame {
    fn identity() -> Frame {
        Frame {
            pos: Vector3::zeros(),
            quat: UnitQuaternion::identity(),
        }
    }
    fn then(&self, inner: &Frame) -> Frame {
        Frame {
            pos: self.pos + self.quat * inner.pos,
            quat: self.quat * inner.quat,
        }
    }
}

/// Mass properties in a body frame.
struct MassProps {
    mass: f64,
    com: Vector3<f64>,
    inertia: Matrix3<f64>,
}

impl<'a, 'i> Mjcf<'a, 'i> {
    /// Children of an element with `<include>`s replaced by the included
    /// files' top-level children.
    fn children(&self, el: El<'a, 'i>) -> Result<Vec<El<'a, 'i>>, Fail> {
        self.children_at(el, 0)
    }

    fn children_at(&self, el: El<'a, 'i>, depth: usize) -> Result<Vec<El<'a, 'i>>, Fail> {
        let mut out = Vec::new();
        for node in el.node.children().filter(|n| n.is_element()) {
            let child = El {
                file: el.file,
                node,
            };
            if child.name() == "include" {
                let file = node.attribute("file").unwrap_or("");
                let Some(&fi) = self.include_index.get(file) else {
                    return Err(child.err(Some("file"), "included file not loaded"));
                };
                let root = El {
                    file: fi,
                    node: self.docs[fi].root_element(),
                };
                if root.name() != "mujoco" {
                    return Err(
                        root.err(None, "an included file's root element must be `<mujoco>`")
                    );
                }
                if depth >= MAX_INCLUDE_DEPTH {
                    return Err(child.err(
                        Some("file"),
                        "`<include>` nests too deep (does a file include itself?)",
                    ));
                }
                let included = self.children_at(root, depth + 1)?;
                let total = self.expanded.get() + included.len() as u64;
                if total > MAX_EXPANDED {
                    return Err(child.err(
                        Some("file"),
                        format!(
                            "the `<include>`s expand to more than {MAX_EXPANDED} elements (files included many times over)"
                        ),
                    ));
                }
                self.expanded.set(total);
                out.extend(included);
            } else {
                out.push(child);
            }
        }
        Ok(out)
    }

    fn run(&mut self, root: Node<'a, 'i>) -> Result<Parsed, Fail> {
        let root = El {
            file: 0,
            node: root,
        };
        if root.name() != "mujoco" {
            return Err(root.err(None, "an MJCF file's root element is `<mujoco>`"));
        }
        let top = self.children(root)?;
        for el in &top {
            match el.name() {
                "compiler" => self.compiler(*el)?,
                "default" => self.default_class(*el, None, 0)?,
                _ => {}
            }
        }
        for el in &top {
            if el.name() == "worldbody" {
                self.body_names(*el, 0)?;
            }
        }
        // The scan above expanded the includes once more: it does not
        // count against the limit on expansion.
        self.expanded.set(0);
        for el in &top {
            if el.name() == "worldbody" {
                self.bodies(*el, None, Frame::identity(), None, 0)?;
            }
        }
        if self.tree.bodies.is_empty() {
            return Err(root.err(None, "the model has no bodies"));
        }
        if self.compiler.settotalmass > 0.0 {
            let total = self.tree.total_mass();
            if total > 0.0 {
                let s = self.compiler.settotalmass / total;
                for b in &mut self.tree.bodies {
                    b.mass *= s;
                    b.inertia *= s;
                }
            }
        }
        let mut keyframes = Vec::new();
        let mut constraints = Vec::new();
        for el in &top {
            match el.name() {
                "keyframe" => {
                    for key in self.children(*el)? {
                        if key.name() != "key" {
                            continue;
                        }
                        let name = key.node.attribute("name").unwrap_or("").to_string();
                        let q = match key.node.attribute("qpos") {
                            Some(t) => {
                                let q = numbers(t, attr_span(key.node, "qpos"), "qpos")
                                    .map_err(|p| (key.file, p))?;
                                if q.len() != self.tree.nq {
                                    return Err(key.err(
                                        Some("qpos"),
                                        format!(
                                            "`qpos` must have {} numbers (the model's configuration), found {}",
                                            self.tree.nq,
                                            q.len()
                                        ),
                                    ));
                                }
                                // A ball's or free joint's quaternion must
                                // have a direction (MuJoCo normalises it).
                                for j in &self.tree.joints {
                                    let at = match j.kind {
                                        crate::kinematics::JointKind::Ball => j.qpos_adr,
                                        crate::kinematics::JointKind::Free { .. } => j.qpos_adr + 3,
                                        _ => continue,
                                    };
                                    let norm =
                                        q[at..at + 4].iter().map(|x| x * x).sum::<f64>().sqrt();
                                    if !(norm.is_normal()) {
                                        return Err(key.err(
                                            Some("qpos"),
                                            format!(
                                                "`qpos` gives joint `{}` the quaternion ({}, {}, {}, {}), which has no direction",
                                                j.name, q[at], q[at + 1], q[at + 2], q[at + 3]
                                            ),
                                        ));
                                    }
                                }
                                q
                            }
                            None => self.tree.qpos0.clone(),
                        };
                        keyframes.push((name, q));
                    }
                }
                "equality" => {
                    for eq in self.children(*el)? {
                        if let Some(c) = self.equality(eq)? {
                            constraints.push(c);
                        }
                    }
                }
                "worldbody" | "compiler" | "default" | "option" | "size" | "visual"
                | "statistic" | "asset" | "contact" | "actuator" | "sensor" | "custom"
                | "extension" => {}
                "tendon" => {
                    // Tendons add to M only through their armature.
                    for t in el.node.descendants().filter(|n| n.is_element()) {
                        if let Some(a) = t.attribute("armature")
                            && a.trim().parse::<f64>().is_ok_and(|x| x != 0.0)
                        {
                            return Err((
                                el.file,
                                Diagnostic::new(
                                    attr_span(t, "armature"),
                                    "tendon armature changes the mass matrix and is not supported",
                                ),
                            ));
                        }
                    }
                }
                other => {
                    return Err(el.err(
                        None,
                        format!("`<{other}>` is not supported (it may change the mass model)"),
                    ));
                }
            }
        }
        Ok((
            std::mem::take(&mut self.tree),
            keyframes,
            constraints,
            std::mem::take(&mut self.notes),
        ))
    }

    fn compiler(&mut self, el: El<'a, 'i>) -> Result<(), Fail> {
        let n = el.node;
        let c = &mut self.compiler;
        for a in n.attributes() {
            let v = a.value().trim();
            let bad = |what: &str| el.err(Some(a.name()), format!("`{}` must be {what}", a.name()));
            match a.name() {
                "angle" => {
                    c.degree = match v {
                        "degree" => true,
                        "radian" => false,
                        _ => return Err(bad("`degree` or `radian`")),
                    }
                }
                "eulerseq" => {
                    let b = v.as_bytes();
                    if b.len() != 3 || !b.iter().all(|c| b"xyzXYZ".contains(c)) {
                        return Err(bad("three of x, y, z, X, Y, Z"));
                    }
                    c.eulerseq = [b[0], b[1], b[2]];
                }
                "inertiafromgeom" => {
                    c.from_geom = match v {
                        "true" => Some(true),
                        "false" => Some(false),
                        "auto" => None,
                        _ => return Err(bad("`true`, `false` or `auto`")),
                    }
                }
                "inertiagrouprange" => {
                    let g = fixed::<2>(v, attr_span(n, a.name()), a.name())
                        .map_err(|p| (el.file, p))?;
                    c.group_range = [g[0] as i64, g[1] as i64];
                }
                "boundmass" | "boundinertia" | "settotalmass" => {
                    let x = fixed::<1>(v, attr_span(n, a.name()), a.name())
                        .map_err(|p| (el.file, p))?[0];
                    match a.name() {
                        "boundmass" => c.boundmass = x,
                        "boundinertia" => c.boundinertia = x,
                        _ => c.settotalmass = x,
                    }
                }
                "balanceinertia" => c.balanceinertia = v == "true",
                "autolimits" => c.autolimits = v != "false",
                "coordinate" if v != "local" => {
                    return Err(bad("`local` (global coordinates were removed from MJCF)"));
                }
                "alignfree" if v == "true" => {
                    return Err(el.err(Some("alignfree"), "`alignfree` is not supported"));
                }
                "fusestatic" if v == "true" => {}
                _ => {}
            }
        }
        Ok(())
    }

    fn default_class(
        &mut self,
        el: El<'a, 'i>,
        parent: Option<&str>,
        depth: usize,
    ) -> Result<(), Fail> {
        if depth > MAX_DEPTH {
            return Err(el.err(
                None,
                format!("default classes nest more than {MAX_DEPTH} deep"),
            ));
        }
        let name = match (el.node.attribute("class"), parent) {
            (Some(c), _) => c.to_string(),
            (None, None) => "main".to_string(),
            (None, Some(_)) => return Err(el.err(None, "a nested `<default>` needs a `class`")),
        };
        let mut elements = HashMap::new();
        let mut nested = Vec::new();
        for child in self.children(el)? {
            if child.name() == "default" {
                nested.push(child);
            } else {
                elements.insert(child.name(), child);
            }
        }
        match self.classes.get_mut(&name) {
            Some(existing) => existing.elements.extend(elements),
            None => {
                self.classes.insert(
                    name.clone(),
                    Class {
                        parent: parent.map(str::to_string),
                        elements,
                    },
                );
            }
        }
        for n in nested {
            self.default_class(n, Some(&name), depth + 1)?;
        }
        Ok(())
    }

    /// An attribute of an element, else of its class defaults: the value and
    /// the element it was found on (for errors).
    fn attr(&self, el: El<'a, 'i>, class: &str, name: &str) -> Option<(&'a str, El<'a, 'i>)> {
        if let Some(v) = el.node.attribute(name) {
            return Some((v, el));
        }
        let kind = el.name();
        let mut cls = Some(el.node.attribute("class").unwrap_or(class));
        let mut guard = 0;
        while let Some(c) = cls {
            let class = self.classes.get(c)?;
            if let Some(d) = class.elements.get(kind)
                && let Some(v) = d.node.attribute(name)
            {
                return Some((v, *d));
            }
            cls = class.parent.as_deref();
            guard += 1;
            if guard > 64 {
                return None;
            }
        }
        None
    }

    fn nums<const N: usize>(
        &self,
        el: El<'a, 'i>,
        class: &str,
        name: &str,
    ) -> Result<Option<[f64; N]>, Fail> {
        match self.attr(el, class, name) {
            Some((v, at)) => fixed::<N>(v, attr_span(at.node, name), name)
                .map(Some)
                .map_err(|p| (at.file, p)),
            None => Ok(None),
        }
    }

    fn num(&self, el: El<'a, 'i>, class: &str, name: &str) -> Result<Option<f64>, Fail> {
        Ok(self.nums::<1>(el, class, name)?.map(|[x]| x))
    }

    fn angle(&self, x: f64) -> f64 {
        if self.compiler.degree {
            x / 180.0 * PI
        } else {
            x
        }
    }

    /// The orientation of an element from whichever of its orientation
    /// attributes it has.
    fn orientation(&self, el: El<'a, 'i>, class: &str) -> Result<UnitQuaternion<f64>, Fail> {
        let forms = ["quat", "axisangle", "euler", "xyaxes", "zaxis"];
        let given: Vec<&str> = forms
            .iter()
            .copied()
            .filter(|f| self.attr(el, class, f).is_some())
            .collect();
        if given.len() > 1 {
            return Err(el.err(
                Some(given[1]),
                format!(
                    "give one orientation, not both `{}` and `{}`",
                    given[0], given[1]
                ),
            ));
        }
        let Some(&form) = given.first() else {
            return Ok(UnitQuaternion::identity());
        };
        let tiny = |what: &str| el.err(Some(form), format!("`{form}`: {what} is too small"));
        Ok(match form {
            "quat" => {
                let q = self.nums::<4>(el, class, "quat")?.unwrap_or_default();
                let q = Quaternion::new(q[0], q[1], q[2], q[3]);
                if q.norm() < EPS {
                    return Err(tiny("the quaternion"));
                }
                UnitQuaternion::from_quaternion(q)
            }
            "axisangle" => {
                let a = self.nums::<4>(el, class, "axisangle")?.unwrap_or_default();
                let axis = Vector3::new(a[0], a[1], a[2]);
                let Some(u) = Unit::try_new(axis, EPS) else {
                    return Err(tiny("the axis"));
                };
                UnitQuaternion::from_axis_angle(&u, self.angle(a[3]))
            }
            "euler" => {
                let e = self.nums::<3>(el, class, "euler")?.unwrap_or_default();
                let mut q = UnitQuaternion::identity();
                for (k, &c) in self.compiler.eulerseq.iter().enumerate() {
                    let axis = match c.to_ascii_lowercase() {
                        b'x' => Vector3::x_axis(),
                        b'y' => Vector3::y_axis(),
                        _ => Vector3::z_axis(),
                    };
                    let r = UnitQuaternion::from_axis_angle(&axis, self.angle(e[k]));
                    // Lower case: axes that move with the frame (post-multiply).
                    q = if c.is_ascii_lowercase() { q * r } else { r * q };
                }
                q
            }
            "xyaxes" => {
                let a = self.nums::<6>(el, class, "xyaxes")?.unwrap_or_default();
                let x = Vector3::new(a[0], a[1], a[2]);
                if x.norm() < EPS {
                    return Err(tiny("the x axis"));
                }
                let x = x.normalize();
                let y = Vector3::new(a[3], a[4], a[5]);
                let y = y - x * x.dot(&y);
                if y.norm() < EPS {
                    return Err(tiny("the y axis"));
                }
                let y = y.normalize();
                let z = x.cross(&y).normalize();
                UnitQuaternion::from_rotation_matrix(&Rotation3::from_basis_unchecked(&[x, y, z]))
            }
            _ => {
                let a = self.nums::<3>(el, class, "zaxis")?.unwrap_or_default();
                z_to(Vector3::new(a[0], a[1], a[2])).ok_or_else(|| tiny("the z axis"))?
            }
        })
    }

    /// Position and orientation attributes of an element.
    fn frame(&self, el: El<'a, 'i>, class: &str) -> Result<Frame, Fail> {
        let pos = self.nums::<3>(el, class, "pos")?.unwrap_or_default();
        Ok(Frame {
            pos: Vector3::from(pos),
            quat: self.orientation(el, class)?,
        })
    }
}

/// The minimal rotation taking the z axis to `v` (MuJoCo's `mjuu_z2quat`),
/// `None` for a zero vector.
fn z_to(v: Vector3<f64>) -> Option<UnitQuaternion<f64>> {
    let n = v.norm();
    if n < EPS {
        return None;
    }
    let v = v / n;
    let axis = Vector3::z().cross(&v);
    let s = axis.norm();
    let axis = if s < 1e-10 { Vector3::x() } else { axis / s };
    let angle = s.atan2(v.z);
    Some(UnitQuaternion::from_axis_angle(
        &Unit::new_unchecked(axis),
        angle,
    ))
}
