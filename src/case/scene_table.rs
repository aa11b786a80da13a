//! The `[scene]` table: which files hold the bodies and contacts, in which
//! units. The files themselves are read by [`super::scene`].

use super::read::{Reader, get};
use super::scene::{self, Scene, SceneError, SceneSetting, Source, Units};
use super::types::Space;
use crate::diag::Diagnostic;
use crate::units::Dim;
use toml::de::{DeTable, DeValue};

type Node<'i> = toml::Spanned<DeValue<'i>>;

pub(super) const SCENE_KEYS: &[&str] = &[
    "file",
    "bodies",
    "contacts",
    "units",
    "dump",
    "timestep",
    "contact",
    "tolerance",
    "walls",
    "planes",
];
/// The keys only a `dump` scene has.
const DUMP_ONLY_KEYS: &[&str] = &["timestep", "contact", "tolerance", "walls", "planes"];
pub(super) const SCENE_UNIT_KEYS: &[&str] = &["length", "mass", "stiffness", "damping"];

/// Where the files a case names (scene tables, models) are looked for,
/// which may be read, and how much of them.
#[derive(Clone, Debug)]
pub struct FileAccess {
    /// Directory that relative paths in `[scene]` start from.
    pub base: std::path::PathBuf,
    /// Most bytes read from one file (decompressed for NPZ).
    pub max_bytes: u64,
    /// The directory trees files may be read from (`None`: anywhere).
    pub confine: Option<crate::confine::Confine>,
    /// Read only this part of an NPZ scene (`meff.mpi`; [`scene::part`]).
    pub part: Option<scene::part::PartRequest>,
}

impl FileAccess {
    /// Files relative to `base`, read anywhere, at most `max_bytes` each.
    pub fn new(base: impl Into<std::path::PathBuf>, max_bytes: u64) -> FileAccess {
        FileAccess {
            base: base.into(),
            max_bytes,
            confine: None,
            part: None,
        }
    }

    /// The path to open for `file` as a case names it (relative to
    /// `base`), or why it may not be read.
    pub fn resolve(&self, file: &str) -> Result<std::path::PathBuf, String> {
        crate::confine::admit(self.confine.as_ref(), &self.base.join(file))
    }
}

impl Reader<'_> {
    /// Reads `[scene]` and the files it names.
    pub(super) fn scene(&mut self, node: &Node, space: Space) -> Option<Scene> {
        let t: &DeTable = self.table(node, "`[scene]`")?;
        self.keys(t, SCENE_KEYS, "`[scene]`");
        let span = node.span();
        let settings = self.scene_settings(t);
        if let Some(d) = get(t, "dump") {
            return self.dump_scene(t, d, span, space, settings);
        }
        for key in DUMP_ONLY_KEYS {
            if let Some(n) = get(t, key) {
                self.error(
                    Diagnostic::new(n.span(), format!("`{key}` is a key of a `dump` scene"))
                        .hint("`[scene]` with `dump = \"run.dump\"` reads a LAMMPS dump; `file`, `bodies` and `contacts` give bodies and contacts as columns"),
                );
                return None;
            }
        }
        let units = match get(t, "units") {
            Some(n) => self.scene_units(n)?,
            None => Units::default(),
        };
        let mut path_of = |key: &str| {
            get(t, key).and_then(|n| self.string(n, &format!("`{key}`")).map(|s| (s, n.span())))
        };
        let file = path_of("file");
        let bodies = path_of("bodies");
        let contacts = path_of("contacts");
        let named: Vec<(String, std::ops::Range<usize>)> = match (file, bodies, contacts) {
            (Some(f), None, None) => vec![f],
            (None, Some(b), Some(c)) => vec![b, c],
            _ => {
                self.error(
                    Diagnostic::new(span.start..span.start, "`[scene]` names either `file` (an .npz archive) or both `bodies` and `contacts` (CSV files)")
                        .hint("file = \"pile.npz\", or bodies = \"b.csv\" and contacts = \"c.csv\""),
                );
                return None;
            }
        };
        let Some(access) = self.files.clone() else {
            self.error(
                Diagnostic::new(
                    named[0].1.clone(),
                    "scene files are read only for a case file on disk",
                )
                .hint(
                    "run meff on the case file (or on `-` from the directory the paths start from)",
                ),
            );
            return None;
        };
        let mut paths: Vec<std::path::PathBuf> = Vec::with_capacity(named.len());
        for (p, span) in &named {
            match access.resolve(p) {
                Ok(path) => paths.push(path),
                Err(message) => {
                    self.error(Diagnostic::new(
                        span.clone(),
                        format!("cannot read `{p}`: {message}"),
                    ));
                    return None;
                }
            }
        }
        let shown: Vec<String> = named
            .iter()
            .map(|(p, _)| access.base.join(p))
            .collect::<Vec<_>>()
            .iter()
            .map(|p| crate::diag::escape_controls(&p.display().to_string()).into_owned())
            .collect();
        let source = if paths.len() == 1 {
            Source::Npz(&paths[0])
        } else {
            Source::Csv(&paths[0], &paths[1])
        };
        let read = match (access.part, &source) {
            (Some(request), Source::Npz(path)) => {
                scene::part::read(path, space, units, access.max_bytes, request)
                    .map(|(data, map)| (data, None, Some(Box::new(map))))
            }
            _ => scene::read(source, &shown, space, units, access.max_bytes)
                .map(|(d, overlap)| (d, overlap, None)),
        };
        match read {
            Ok((data, overlap, part)) => Some(Scene {
                span,
                files: named.into_iter().map(|(p, _)| p).collect(),
                sha256: if access.part.is_some() {
                    Vec::new()
                } else {
                    paths
                        .iter()
                        .map(|p| scene::file_sha256(p).unwrap_or_default())
                        .collect()
                },
                data,
                dump: None,
                overlap,
                part,
                near: None,
                settings,
            }),
            Err(SceneError::File { file, message }) => {
                self.error(Diagnostic::new(
                    named[file].1.clone(),
                    format!("cannot read `{}`: {message}", named[file].0),
                ));
                None
            }
            Err(SceneError::Npz(issues)) => {
                for i in issues {
                    let at = match i.row {
                        Some(r) => format!("array `{}`, row {r}", npz_array(&i)),
                        None => format!("array `{}`", npz_array(&i)),
                    };
                    let d = Diagnostic::new(
                        named[0].1.clone(),
                        format!("`{}`, {at}: {}", named[0].0, i.message),
                    )
                    .maybe_hint(i.hint);
                    self.error(d);
                }
                None
            }
            Err(SceneError::Csv(e)) => {
                self.foreign = Some(e);
                None
            }
        }
    }

    pub(super) fn scene_units(&mut self, node: &Node) -> Option<Units> {
        let t = self.table(node, "`units`")?;
        self.keys(t, SCENE_UNIT_KEYS, "`units`");
        let mut u = Units::default();
        for (key, dim) in [
            ("length", Dim::LENGTH),
            ("mass", Dim::MASS),
            ("stiffness", Dim::STIFFNESS),
            ("damping", Dim::DAMPING),
        ] {
            let Some(n) = get(t, key) else { continue };
            let text = self.string(n, &format!("`{key}`"))?;
            match crate::units::parse_unit(&text, true) {
                Ok(unit) if unit.dim == dim => {
                    let s = unit.scale.to_f64();
                    match key {
                        "length" => u.length = s,
                        "mass" => u.mass = s,
                        "stiffness" => u.stiffness = s,
                        _ => u.damping = s,
                    }
                }
                Ok(unit) => {
                    self.error(Diagnostic::new(
                        n.span(),
                        format!("`{text}` is a unit of {}, not of {key}", unit.dim),
                    ));
                    return None;
                }
                Err(e) => {
                    self.error(Diagnostic::new(
                        n.span(),
                        format!("`{text}`: {}", e.message),
                    ));
                    return None;
                }
            }
        }
        Some(u)
    }
}

/// The NPZ array a column belongs to.
fn npz_array(i: &scene::Issue) -> &str {
    match i.column.as_str() {
        "x" | "y" | "z" => "position",
        "I" | "Ixx" | "Iyy" | "Izz" | "Ixy" | "Ixz" | "Iyz" => "inertia",
        "px" | "py" | "pz" => "point",
        "nx" | "ny" | "nz" => "normal",
        "k" => "stiffness",
        "c" => "damping",
        "name" if i.table == scene::Table::Bodies => "body_name",
        "name" => "contact_name",
        other => other,
    }
}

impl Reader<'_> {
    /// The settings of `[scene]` as typed, in file order: each key, and
    /// each key of an inline table (`contact.stiffness`, `units.length`)
    /// with its SI value when it is a quantity. Lists (`walls`, `planes`)
    /// and file names are kept as typed. Read before the files, after the
    /// keys are checked; reports nothing (the readers report bad values).
    fn scene_settings(&self, t: &DeTable) -> Vec<SceneSetting> {
        let mut out = Vec::new();
        self.settings_of(t, "", &mut out);
        out.sort_by_key(|s| s.span.start);
        out
    }

    fn settings_of(&self, t: &DeTable, prefix: &str, out: &mut Vec<SceneSetting>) {
        for (k, node) in t.iter() {
            let key = format!("{prefix}{}", k.get_ref());
            if let DeValue::Table(inner) = node.get_ref() {
                self.settings_of(inner, &format!("{key}."), out);
                continue;
            }
            let span = node.span();
            let typed = self
                .source
                .get(span.clone())
                .unwrap_or("")
                .trim()
                .to_string();
            // Names, snapshot numbers, lists and unit words are as typed.
            let quantity = !matches!(
                k.get_ref().as_ref(),
                "dump" | "file" | "bodies" | "contacts" | "timestep" | "walls"
            ) && !key.starts_with("units");
            let value = match node.get_ref() {
                DeValue::String(s) if quantity => self.quantity(s),
                DeValue::Integer(_) | DeValue::Float(_) if quantity => self.quantity(&typed),
                _ => None,
            };
            out.push(SceneSetting {
                key,
                typed,
                si: value.map(|v| v.si),
                si_unit: value
                    .and_then(|v| v.dim)
                    .filter(|d| !d.is_none())
                    .map_or_else(String::new, |d| d.to_string()),
                span,
            });
        }
    }

    /// A typed value's SI value, or `None` when it is not a quantity.
    fn quantity(&self, text: &str) -> Option<crate::expr::Value> {
        let e = crate::expr::parse(text.replace('_', "").as_str()).ok()?;
        self.env.eval(&e).ok().filter(|v| v.si.is_finite())
    }
}
