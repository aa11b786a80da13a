//! `[scene]` with `dump`: a LAMMPS/LIGGGHTS dump, the contact law, the
//! snapshot, the walls and planes spheres touch. The dump itself is read by
//! [`super::scene::from_dump`].

use super::read::{Reader, get};
use super::rules::Rule;
use super::scene::Scene;
use super::scene::dump::Which;
use super::scene::from_dump::{
    self, ContactLaw, DumpError, DumpOptions, Plane, TangentialLaw, UnitStyle, Wall, Walls,
};
use super::types::Space;
use crate::diag::{Diagnostic, SourceError};
use crate::units::Dim;
use toml::de::{DeTable, DeValue};

type Node<'i> = toml::Spanned<DeValue<'i>>;

/// Keys of `[scene] contact` (the law of every contact a dump gives).
pub(super) const DUMP_CONTACT_KEYS: &[&str] = &[
    "stiffness",
    "damping",
    "tangential_stiffness",
    "tangential_ratio",
    "tangential_damping",
];
/// Keys of each `[[scene.planes]]` entry.
pub(super) const PLANE_KEYS: &[&str] = &["point", "normal"];

impl Reader<'_> {
    /// Reads a `dump` scene: its keys, then the dump.
    pub(super) fn dump_scene(
        &mut self,
        t: &DeTable,
        dump: &Node,
        span: std::ops::Range<usize>,
        space: Space,
        settings: Vec<super::scene::SceneSetting>,
    ) -> Option<Scene> {
        for key in ["file", "bodies", "contacts"] {
            if let Some(n) = get(t, key) {
                self.error(Diagnostic::new(
                    n.span(),
                    format!("`{key}` cannot be used with `dump`"),
                ));
                return None;
            }
        }
        let file = self.string(dump, "`dump`")?;
        if space != Space::ThreeD {
            self.error(
                Diagnostic::new(dump.span(), "a dump's spheres make a 3-d scene")
                    .hint("write `space = \"3d\"`"),
            );
            return None;
        }
        let opts = self.dump_options(t, &span)?;
        let Some(access) = self.files.clone() else {
            self.error(Diagnostic::new(
                dump.span(),
                "scene files are read only for a case file on disk",
            ));
            return None;
        };
        let path = match access.resolve(&file) {
            Ok(p) => p,
            Err(message) => {
                self.error(Diagnostic::new(
                    dump.span(),
                    format!("cannot read `{file}`: {message}"),
                ));
                return None;
            }
        };
        match from_dump::read(&path, &opts, access.max_bytes) {
            Ok((data, summary)) => Some(Scene {
                span,
                files: vec![file],
                sha256: vec![super::scene::file_sha256(&path).unwrap_or_default()],
                data,
                dump: Some(summary.facts),
                overlap: Some(summary.overlap),
                part: None,
                near: summary.near,
                settings,
            }),
            Err(DumpError::File(message)) => {
                self.error(Diagnostic::new(
                    dump.span(),
                    format!("cannot read `{file}`: {message}"),
                ));
                None
            }
            Err(DumpError::Dump { text, diagnostics }) => {
                let shown = access.base.join(&file).display().to_string();
                self.foreign = Some(SourceError {
                    path: crate::diag::escape_controls(&shown).into_owned(),
                    source: text,
                    diagnostics,
                });
                None
            }
            Err(DumpError::Key(key, message)) => {
                let at = get(t, key).map_or(dump.span(), |n| n.span());
                self.error(Diagnostic::new(at, message));
                None
            }
        }
    }

    /// Every key of a dump scene but `dump`.
    fn dump_options(&mut self, t: &DeTable, span: &std::ops::Range<usize>) -> Option<DumpOptions> {
        let which = match get(t, "timestep") {
            Some(n) => Which::Step(self.integer(n, "`timestep`", 0..=i64::MAX)? as u64),
            None => Which::Last,
        };
        let law = self.required(t, "contact", "a `dump` scene", span)?;
        let law = self.dump_contact_law(law)?;
        let tolerance = match get(t, "tolerance") {
            Some(n) => {
                let v = self.value(n, Dim::LENGTH, "the contact tolerance")?;
                if !self.rule(
                    Rule::NonNegative,
                    "the contact tolerance",
                    std::slice::from_ref(&v),
                    v.span.clone(),
                ) {
                    return None;
                }
                v.si
            }
            None => 0.0,
        };
        let walls = match get(t, "walls") {
            None => Walls::Listed(Vec::new()),
            Some(n) => self.walls(n)?,
        };
        let planes = match get(t, "planes") {
            None => Vec::new(),
            Some(n) => self.planes(n)?,
        };
        let (units, scales) = match get(t, "units") {
            None => (None, None),
            Some(n) if matches!(n.get_ref(), DeValue::String(_)) => {
                let u = self.choice(
                    n,
                    ("units", "LAMMPS unit style"),
                    UnitStyle::NAMES,
                    UnitStyle::NAMES.len(),
                )?;
                (Some(u), None)
            }
            Some(n) => {
                if let DeValue::Table(ut) = n.get_ref() {
                    for key in ["stiffness", "damping"] {
                        if let Some(k) = get(ut, key) {
                            self.error(
                                Diagnostic::new(k.span(), format!("a dump has no {key} column: `units` gives its length and mass"))
                                    .hint("the contact law's values carry their own units"),
                            );
                            return None;
                        }
                    }
                }
                let u = self.scene_units(n)?;
                (None, Some((u.length, u.mass)))
            }
        };
        Some(DumpOptions {
            which,
            units,
            scales,
            law,
            tolerance,
            walls,
            planes,
        })
    }

    /// `contact = { stiffness = …, damping = … }`. Issue 38's tangential
    /// and Hertz keys are read here too.
    fn dump_contact_law(&mut self, node: &Node) -> Option<ContactLaw> {
        let lt = self.table(node, "`contact`")?;
        self.keys(lt, DUMP_CONTACT_KEYS, "`contact` of `[scene]`");
        let k = self.required(lt, "stiffness", "`contact`", &node.span())?;
        let k = self.value(k, Dim::STIFFNESS, "the contact stiffness");
        let stiffness = self.positive(k, "the contact stiffness")?.si;
        let damping = match get(lt, "damping") {
            Some(n) => {
                let v = self.value(n, Dim::DAMPING, "the contact damping")?;
                if !self.rule(
                    Rule::NonNegative,
                    "the contact damping",
                    std::slice::from_ref(&v),
                    v.span.clone(),
                ) {
                    return None;
                }
                Some(v.si)
            }
            None => None,
        };
        let tangential = self.dump_tangential_law(lt)?;
        Some(ContactLaw {
            stiffness,
            damping,
            tangential,
        })
    }

    /// `contact`'s tangential keys, as `[[contact]]` reads them: the
    /// stiffness (N/m) or its ratio in (0, 10], the damping (N·s/m);
    /// `Some(None)` without them, `None` after an error.
    fn dump_tangential_law(&mut self, lt: &DeTable) -> Option<Option<TangentialLaw>> {
        let (ks, kr) = (get(lt, "tangential_stiffness"), get(lt, "tangential_ratio"));
        let cd = get(lt, "tangential_damping");
        let (stiffness, ratio) = match (ks, kr) {
            (Some(_), Some(r)) => {
                self.error(
                    Diagnostic::new(
                        r.span(),
                        "`contact` gives both `tangential_stiffness` and `tangential_ratio`",
                    )
                    .hint("give one: the tangential stiffness in N/m, or its ratio to `stiffness`"),
                );
                return None;
            }
            (None, None) => {
                if let Some(n) = cd {
                    self.error(
                        Diagnostic::new(n.span(), "a tangential damping needs a tangential spring")
                            .hint("add `tangential_stiffness = \"… N/m\"` or `tangential_ratio = 0.8`"),
                    );
                    return None;
                }
                return Some(None);
            }
            (Some(n), None) => {
                let v = self.value(n, Dim::STIFFNESS, "a tangential stiffness");
                (self.positive(v, "a tangential stiffness")?.si, false)
            }
            (None, Some(n)) => {
                let v = self.value(n, Dim::NONE, "a tangential ratio")?;
                let span = v.span.clone();
                if !self.rule(
                    Rule::TangentialRatio,
                    "a tangential ratio",
                    std::slice::from_ref(&v),
                    span,
                ) {
                    return None;
                }
                (v.si, true)
            }
        };
        let damping = match cd {
            Some(n) => {
                let v = self.value(n, Dim::DAMPING, "a tangential damping")?;
                let span = v.span.clone();
                if !self.rule(
                    Rule::NonNegative,
                    "a tangential damping",
                    std::slice::from_ref(&v),
                    span,
                ) {
                    return None;
                }
                Some(v.si)
            }
            None => None,
        };
        Some(Some(TangentialLaw {
            stiffness,
            ratio,
            damping,
        }))
    }

    /// `walls = "fixed"` or a list of `xlo` … `zhi`.
    fn walls(&mut self, node: &Node) -> Option<Walls> {
        if let DeValue::String(s) = node.get_ref()
            && s == "fixed"
        {
            return Some(Walls::Fixed);
        }
        let items = match node.get_ref() {
            DeValue::Array(a) => a,
            _ => {
                self.error(
                    Diagnostic::new(node.span(), "`walls` is \"fixed\" or a list of walls").hint(
                        "walls = [\"zlo\"], or \"fixed\" for every wall on a non-periodic axis",
                    ),
                );
                return None;
            }
        };
        let mut out = Vec::new();
        for item in items {
            let w = self.choice(item, ("walls", "wall"), Wall::NAMES, Wall::NAMES.len())?;
            if out.contains(&w) {
                self.error(Diagnostic::new(
                    item.span(),
                    format!("wall `{}` is listed twice", w.name()),
                ));
                return None;
            }
            out.push(w);
        }
        Some(Walls::Listed(out))
    }

    /// `planes = [{ point = […], normal = […] }, …]`.
    fn planes(&mut self, node: &Node) -> Option<Vec<Plane>> {
        let items = self.array(node, "`planes`")?;
        let mut out = Vec::new();
        for item in items {
            let pt = self.table(item, "a plane")?;
            self.keys(pt, PLANE_KEYS, "a plane");
            let p = self.required(pt, "point", "a plane", &item.span())?;
            let p = self.vector(p, 3, Dim::LENGTH, "a plane's point")?;
            let nn = self.required(pt, "normal", "a plane", &item.span())?;
            let nv = self.vector(nn, 3, Dim::NONE, "a plane's normal")?;
            if !self.rule(Rule::UnitNormal, "a plane's normal", &nv, nn.span()) {
                return None;
            }
            let len = nv.iter().map(|v| v.si * v.si).sum::<f64>().sqrt();
            out.push(Plane {
                point: std::array::from_fn(|k| p[k].si),
                normal: std::array::from_fn(|k| nv[k].si / len),
            });
        }
        Some(out)
    }
}
