//! `[scene]`: bodies and contacts from columnar files (NumPy `.npz`, or a
//! pair of CSV files) instead of TOML tables, for scenes of 10⁵–10⁶ bodies.
//!
//! Input: the `[scene]` table of a case and the files it names (paths
//! relative to the case file). Output: [`SceneData`], columns in SI units,
//! validated by the same rules as `[[body]]` and `[[contact]]` tables
//! (positive masses, symmetric positive-definite inertia, unit normals,
//! positive stiffness, indices in range, unique names). A problem is
//! reported at its place: `file.csv:line:col` for CSV, the array and row
//! for NPZ (at the `file` value of `[scene]`, since a binary file has no
//! lines). The model is built from these columns directly, so no TOML
//! value objects exist for a scene (memory stays proportional to the
//! numbers).

mod csv;
mod validate;
pub use validate::{MAX_ISSUES, validate};
use validate::{not_finite, out_of_range};
pub mod dump;
pub mod from_dump;
pub use from_dump::DumpFacts;

/// Lower-case hex SHA-256 of the file at `path`, read 1 MiB at a time (a
/// scene file the title block names); `None` when it cannot be read.
pub fn file_sha256(path: &std::path::Path) -> Option<String> {
    use sha2::Digest;
    use std::io::Read;
    let mut f = std::fs::File::open(path).ok()?;
    let mut h = sha2::Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match f.read(&mut buf) {
            Ok(0) => break,
            Ok(k) => h.update(&buf[..k]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    Some(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}
pub mod grid;
pub mod npy;
pub mod part;
mod tangential;
pub use tangential::{TangentialColumns, tangential_columns};
pub(crate) mod trajectory;
pub(crate) mod trajectory_npz;

use super::types::Space;
use std::ops::Range;

/// The most bodies, or contacts, a scene may have.
pub const MAX_ROWS: usize = 50_000_000;

/// A body index meaning the fixed world in [`SceneData::other`].
pub const WORLD: u32 = u32::MAX;

/// Validated columns of a scene, SI units.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SceneData {
    /// Mass per body (0 for fixed bodies).
    pub mass: Vec<f64>,
    /// Centre of mass per body, `d` components each.
    pub position: Vec<f64>,
    /// Inertia about the centre of mass: planar one value per body; 3-d six
    /// (`Ixx, Iyy, Izz, Ixy, Ixz, Iyz`) per body, world axes.
    pub inertia: Vec<f64>,
    /// Fixed bodies (part of the world).
    pub fixed: Vec<bool>,
    /// Body names, when the files give them (otherwise `b0`, `b1`, …).
    pub body_names: Option<Vec<String>>,
    /// Body whose gap opens along +normal, per contact.
    pub body: Vec<u32>,
    /// The other body, or [`WORLD`].
    pub other: Vec<u32>,
    /// Contact points, `d` components each.
    pub point: Vec<f64>,
    /// Unit normals, `d` components each.
    pub normal: Vec<f64>,
    /// Stiffness per contact.
    pub stiffness: Vec<f64>,
    /// Damping per contact, when given.
    pub damping: Option<Vec<f64>>,
    /// Contact names, when the files give them (otherwise `c0`, `c1`, …).
    pub contact_names: Option<Vec<String>>,
    /// Per contact, `d` components: where a periodic box has the contact
    /// see `other` — its position plus this shift (a whole number of box
    /// lengths; zero for most). Only dumps with periodic boxes have it.
    pub image: Option<Vec<f64>>,
    /// The contacts' tangential springs (issue 38), when the scene has
    /// them: every contact then has one (docs/case-format.md).
    pub tangential: Option<TangentialColumns>,
}

impl SceneData {
    /// Frees the geometry and mass columns (keeping stiffness and names,
    /// which the report reads) once a model has been built from them and
    /// nothing will build another; `n_bodies` is 0 afterwards.
    pub fn release_geometry(&mut self) {
        for v in [
            &mut self.mass,
            &mut self.position,
            &mut self.inertia,
            &mut self.point,
            &mut self.normal,
        ] {
            *v = Vec::new();
        }
        self.fixed = Vec::new();
        self.body = Vec::new();
        self.other = Vec::new();
        self.damping = None;
        self.image = None;
        self.tangential = None;
    }

    /// Number of bodies.
    pub fn n_bodies(&self) -> usize {
        self.mass.len()
    }

    /// Number of contacts.
    pub fn n_contacts(&self) -> usize {
        self.stiffness.len()
    }

    /// Name of body `i`.
    pub fn body_name(&self, i: usize) -> String {
        match &self.body_names {
            Some(n) => n[i].clone(),
            None => format!("b{i}"),
        }
    }

    /// Name of contact `i`.
    pub fn contact_name(&self, i: usize) -> String {
        match &self.contact_names {
            Some(n) => n[i].clone(),
            None => format!("c{i}"),
        }
    }
}

/// A scene as read: where it came from and its columns.
#[derive(Clone, Debug)]
pub struct Scene {
    /// Span of the `[scene]` table in the case file.
    pub span: Range<usize>,
    /// The files as named in the case (NPZ, or bodies and contacts CSV).
    pub files: Vec<String>,
    /// SHA-256 of each file in `files` (lower-case hex; empty when one
    /// rank of several reads its part: `meff.mpi`).
    pub sha256: Vec<String>,
    /// The columns.
    pub data: SceneData,
    /// What a dump's spheres tell beyond the columns (the model checks
    /// read it; `None` for a scene of columns).
    pub dump: Option<DumpFacts>,
    /// Each contact's overlap (m; negative: a gap), when the scene gives
    /// it: a dump's spheres, an `overlap` column or array. Kept beside the
    /// columns (a large scene frees them before its checks on the model
    /// path): 8 bytes a contact, for the model checks.
    pub overlap: Option<Vec<f64>>,
    /// When `data` is one part of the scene (`meff.mpi`), where its rows
    /// are in the whole scene ([`part::read`]).
    pub part: Option<Box<part::PartMap>>,
    /// A dump's near contacts (gaps below `from_dump::NEAR_FRACTION` of
    /// the smaller radius) and, when small, the scene with them closed.
    pub near: Option<from_dump::Near>,
    /// The `[scene]` table's settings as typed, in file order (the report's
    /// Inputs section for a scene; empty for a scene given in code).
    pub settings: Vec<SceneSetting>,
}

/// One setting of `[scene]` (a key, or a key of an inline table such as
/// `contact.stiffness`), as typed, with its SI value when it is a quantity.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneSetting {
    /// The key: `tolerance`, `contact.stiffness`, `units.length`.
    pub key: String,
    /// The value as typed (the TOML source text).
    pub typed: String,
    /// The SI value, when the setting is a quantity (or a plain number).
    pub si: Option<f64>,
    /// The SI unit of `si` (empty when dimensionless).
    pub si_unit: String,
    /// Where the value is written in the case file.
    pub span: Range<usize>,
}

/// Which table a problem is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// The bodies.
    Bodies,
    /// The contacts.
    Contacts,
}

/// A problem with a row (or the header, `row == None`) of a table.
#[derive(Clone, Debug, PartialEq)]
pub struct Issue {
    /// The table.
    pub table: Table,
    /// Row (0-based, data rows), or `None` for the table as a whole.
    pub row: Option<usize>,
    /// Column or array name.
    pub column: String,
    /// What is wrong.
    pub message: String,
    /// A suggestion.
    pub hint: Option<String>,
}

impl Issue {
    fn new(table: Table, row: Option<usize>, column: &str, message: impl Into<String>) -> Issue {
        Issue {
            table,
            row,
            column: column.to_string(),
            message: message.into(),
            hint: None,
        }
    }

    fn hint(mut self, hint: impl Into<String>) -> Issue {
        self.hint = Some(hint.into());
        self
    }
}

/// Unit scales of a scene's numbers (SI by default).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Units {
    /// Metres per length unit.
    pub length: f64,
    /// Kilograms per mass unit.
    pub mass: f64,
    /// N/m per stiffness unit.
    pub stiffness: f64,
    /// N s/m per damping unit.
    pub damping: f64,
}

impl Default for Units {
    fn default() -> Self {
        Units {
            length: 1.0,
            mass: 1.0,
            stiffness: 1.0,
            damping: 1.0,
        }
    }
}

/// Where the columns come from.
pub enum Source<'a> {
    /// A NumPy archive.
    Npz(&'a std::path::Path),
    /// Bodies and contacts CSV files.
    Csv(&'a std::path::Path, &'a std::path::Path),
}

/// A problem reading a scene: the file could not be read, or problems in
/// it (CSV problems carry the CSV text, so that they show at line:col).
#[derive(Debug)]
pub enum SceneError {
    /// The file could not be read or is not of its format.
    File {
        /// Index into the files (0: NPZ or bodies CSV, 1: contacts CSV).
        file: usize,
        /// What happened.
        message: String,
    },
    /// Problems in an NPZ archive's arrays.
    Npz(Vec<Issue>),
    /// Problems in a text file (CSV), or a foreign file's problems.
    Csv(crate::diag::SourceError),
}

/// Reads and validates a scene. At most `max_bytes` are read from each file
/// (decompressed, for NPZ).
pub fn read(
    source: Source,
    shown: &[String],
    space: Space,
    units: Units,
    max_bytes: u64,
) -> Result<(SceneData, Option<Vec<f64>>), SceneError> {
    match source {
        Source::Npz(path) => {
            let shapes_first = |shapes: &[(String, Vec<usize>)]| shapes_agree(shapes, space);
            let arrays = npy::read_npz(path, max_bytes, MAX_ROWS.saturating_mul(9), &shapes_first)
                .map_err(|message| SceneError::File { file: 0, message })?;
            let mut data = SceneData::default();
            let mut overlap = None;
            let issues = from_arrays(arrays, space, units, (&mut data, &mut overlap), None);
            if !issues.is_empty() {
                return Err(SceneError::Npz(issues));
            }
            let mut issues = validate(&data, space);
            if let Some(row) = overlap.as_ref().and_then(|o: &Vec<f64>| not_finite(o)) {
                issues.push(Issue::new(
                    Table::Contacts,
                    Some(row),
                    "overlap",
                    "the overlap is not a finite number",
                ));
            }
            if !issues.is_empty() {
                return Err(SceneError::Npz(issues));
            }
            Ok((data, overlap))
        }
        Source::Csv(bodies, contacts) => {
            csv::read(bodies, contacts, shown, space, units, max_bytes)
        }
    }
}

/// The first shape problem among the archive's arrays, from their headers
/// alone (the row counts are the `mass` and `stiffness` arrays'). Unknown
/// and missing arrays are left to [`from_arrays`], which says more.
fn shapes_agree(shapes: &[(String, Vec<usize>)], space: Space) -> Result<(), String> {
    let get = |n: &str| shapes.iter().find(|(k, _)| k == n).map(|(_, s)| s);
    let (Some(mass), Some(stiffness)) = (get("mass"), get("stiffness")) else {
        return Ok(());
    };
    let n = mass.first().copied().unwrap_or(0);
    let c = stiffness.first().copied().unwrap_or(0);
    for (name, shape) in shapes {
        if let Some(Err(m)) =
            expected_shape(name, n, c, space.dim()).map(|want| shape_in(name, shape, &want))
        {
            return Err(m);
        }
    }
    Ok(())
}

/// The shapes array `name` may have, for `n` bodies and `c` contacts in
/// `d` dimensions (`None`: not a scene array).
fn expected_shape(name: &str, n: usize, c: usize, d: usize) -> Option<Vec<Vec<usize>>> {
    Some(match name {
        "mass" | "fixed" | "body_name" => vec![vec![n]],
        "position" => vec![vec![n, d]],
        "inertia" if d == 3 => vec![vec![n, 3, 3], vec![n, 3]],
        "inertia" => vec![vec![n]],
        "body" | "other" | "stiffness" | "damping" | "contact_name" | "overlap" => vec![vec![c]],
        "tangential_stiffness" | "tangential_ratio" | "tangential_damping" => vec![vec![c]],
        "point" | "normal" => vec![vec![c, d]],
        _ => return None,
    })
}

/// `Ok` when `shape` is one of `want`, else the message.
fn shape_in(name: &str, shape: &[usize], want: &[Vec<usize>]) -> Result<(), String> {
    if want.iter().any(|w| w == shape) {
        return Ok(());
    }
    let show = |s: &[usize]| {
        format!(
            "({})",
            s.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    Err(format!(
        "array `{name}` has shape {}, expected {}",
        show(shape),
        want.iter()
            .map(|w| show(w))
            .collect::<Vec<_>>()
            .join(" or ")
    ))
}

/// The arrays an NPZ scene may hold, with the file they stand for.
const NPZ_ARRAYS: &[(&str, Table)] = &[
    ("mass", Table::Bodies),
    ("position", Table::Bodies),
    ("inertia", Table::Bodies),
    ("fixed", Table::Bodies),
    ("body_name", Table::Bodies),
    ("body", Table::Contacts),
    ("other", Table::Contacts),
    ("point", Table::Contacts),
    ("normal", Table::Contacts),
    ("stiffness", Table::Contacts),
    ("damping", Table::Contacts),
    ("contact_name", Table::Contacts),
    ("overlap", Table::Contacts),
    ("tangential_stiffness", Table::Contacts),
    ("tangential_ratio", Table::Contacts),
    ("tangential_damping", Table::Contacts),
];

/// Fills `data` (and `overlap`, the optional array) from NPZ arrays
/// (shapes and kinds checked, units applied). Body indices are checked
/// against `bodies` when given (a part of a scene, whose indices are the
/// whole scene's), else against `mass`'s rows.
fn from_arrays(
    arrays: Vec<(String, npy::Array)>,
    space: Space,
    units: Units,
    (data, overlap): (&mut SceneData, &mut Option<Vec<f64>>),
    bodies: Option<usize>,
) -> Vec<Issue> {
    use npy::Data;
    let d = space.dim();
    let mut got = match npz_arrays(arrays, space) {
        Ok(got) => got,
        Err(issues) => return issues,
    };
    let mut issues = Vec::new();
    let n = got["mass"].shape.first().copied().unwrap_or(0);
    let limit = bodies.unwrap_or(n);
    let mut take = |name: &str, table: Table, scale: f64| -> Option<Vec<f64>> {
        let a = got.remove(name)?;
        match a.data {
            Data::Float(v) => Some(v.into_iter().map(|x| x * scale).collect()),
            Data::Int(v) => Some(v.into_iter().map(|x| x as f64 * scale).collect()),
            _ => {
                issues.push(Issue::new(
                    table,
                    None,
                    name,
                    format!("array `{name}` holds {} values, not numbers", a.kind()),
                ));
                None
            }
        }
    };
    let l = units.length;
    data.mass = take("mass", Table::Bodies, units.mass).unwrap_or_default();
    data.position = take("position", Table::Bodies, l).unwrap_or_default();
    let inertia = take("inertia", Table::Bodies, units.mass * l * l).unwrap_or_default();
    data.point = take("point", Table::Contacts, l).unwrap_or_default();
    data.normal = take("normal", Table::Contacts, 1.0).unwrap_or_default();
    data.stiffness = take("stiffness", Table::Contacts, units.stiffness).unwrap_or_default();
    data.damping = take("damping", Table::Contacts, units.damping);
    *overlap = take("overlap", Table::Contacts, l);
    let kt = take("tangential_stiffness", Table::Contacts, units.stiffness);
    let kr = take("tangential_ratio", Table::Contacts, 1.0);
    let ct = take("tangential_damping", Table::Contacts, units.damping);
    match tangential_columns(kt, kr, ct, space) {
        Ok(t) => data.tangential = t,
        Err(i) => issues.push(i),
    }
    let mut index = |name: &str, world_ok: bool| -> Vec<u32> {
        let Some(a) = got.remove(name) else {
            return Vec::new();
        };
        let Data::Int(v) = a.data else {
            issues.push(Issue::new(
                Table::Contacts,
                None,
                name,
                format!("array `{name}` holds {} values, not body indices", a.kind()),
            ));
            return Vec::new();
        };
        let mut out = Vec::with_capacity(v.len());
        for (row, x) in v.into_iter().enumerate() {
            if x == -1 && world_ok {
                out.push(WORLD);
            } else if x >= 0 && (x as usize) < limit {
                out.push(x as u32);
            } else {
                issues.push(out_of_range(row, name, x, limit, world_ok));
                out.push(0);
            }
        }
        out
    };
    data.body = index("body", false);
    data.other = index("other", true);
    data.fixed = match got.remove("fixed").map(|a| a.data) {
        None => vec![false; n],
        Some(Data::Bool(v)) => v,
        Some(Data::Int(v)) => v.into_iter().map(|x| x != 0).collect(),
        Some(_) => {
            issues.push(Issue::new(
                Table::Bodies,
                None,
                "fixed",
                "array `fixed` is not boolean",
            ));
            vec![false; n]
        }
    };
    let mut strings = |name: &str, table: Table| match got.remove(name).map(|a| a.data) {
        None => None,
        Some(Data::Str(v)) => Some(v),
        Some(_) => {
            issues.push(Issue::new(
                table,
                None,
                name,
                format!("array `{name}` does not hold strings"),
            ));
            None
        }
    };
    data.body_names = strings("body_name", Table::Bodies);
    data.contact_names = strings("contact_name", Table::Contacts);
    data.inertia = if d == 3 {
        inertia_components(&inertia, n, &mut issues)
    } else {
        inertia
    };
    issues
}

/// The arrays by name: every one known, present unless optional, of its
/// expected shape (the problems otherwise, and for a line scene).
fn npz_arrays(
    arrays: Vec<(String, npy::Array)>,
    space: Space,
) -> Result<std::collections::HashMap<String, npy::Array>, Vec<Issue>> {
    let shapes: Vec<(String, Vec<usize>)> = arrays
        .iter()
        .map(|(n, a)| (n.clone(), a.shape.clone()))
        .collect();
    let issues = check_arrays(&shapes, space);
    if !issues.is_empty() {
        return Err(issues);
    }
    Ok(arrays.into_iter().collect())
}

/// The archive's arrays by name and shape: every one known, present
/// unless optional, of its expected shape; a line scene refused. The
/// problems, none when the arrays may be decoded.
pub(crate) fn check_arrays(shapes: &[(String, Vec<usize>)], space: Space) -> Vec<Issue> {
    let d = space.dim();
    let known = NPZ_ARRAYS;
    let mut issues = Vec::new();
    for (name, _) in shapes {
        if !known.iter().any(|(k, _)| k == name) {
            let names: Vec<&str> = known.iter().map(|k| k.0).collect();
            issues.push(
                Issue::new(Table::Bodies, None, name, format!("unknown array `{name}`")).hint(
                    match crate::diag::closest(name, names.iter().copied()) {
                        Some(b) => format!("did you mean `{b}`?"),
                        None => format!("the arrays are {}", names.join(", ")),
                    },
                ),
            );
        }
    }
    if space == Space::Line {
        issues.push(Issue::new(
            Table::Bodies,
            None,
            "space",
            "a scene is planar or 3-d",
        ));
        return issues;
    }
    let get = |n: &str| shapes.iter().find(|(k, _)| k == n).map(|(_, s)| s);
    for (name, table) in known {
        let optional = matches!(
            *name,
            "fixed"
                | "body_name"
                | "damping"
                | "overlap"
                | "contact_name"
                | "tangential_stiffness"
                | "tangential_ratio"
                | "tangential_damping"
        );
        if !optional && get(name).is_none() {
            issues.push(Issue::new(
                *table,
                None,
                name,
                format!("the archive has no array `{name}`"),
            ));
        }
    }
    if !issues.is_empty() {
        return issues;
    }
    let n = get("mass").and_then(|s| s.first().copied()).unwrap_or(0);
    let c = get("stiffness")
        .and_then(|s| s.first().copied())
        .unwrap_or(0);
    for (name, table) in known {
        if let Some(shape) = get(name)
            && let Err(m) = shape_in(
                name,
                shape,
                &expected_shape(name, n, c, d).unwrap_or_default(),
            )
        {
            issues.push(Issue::new(*table, None, name, m));
        }
    }
    issues
}

/// 3-d inertias as the six components `Ixx Iyy Izz Ixy Ixz Iyz` per body,
/// from a full symmetric 3×3 tensor (its symmetry checked) or the three
/// principal moments.
fn inertia_components(inertia: &[f64], n: usize, issues: &mut Vec<Issue>) -> Vec<f64> {
    let full = inertia.len() == 9 * n;
    let mut out = Vec::with_capacity(6 * n);
    for b in 0..n {
        if full {
            let t = &inertia[9 * b..9 * b + 9];
            for (i, j) in crate::kinematics::inertia::asymmetries(&[&t[0..3], &t[3..6], &t[6..9]]) {
                issues.push(Issue::new(
                    Table::Bodies,
                    Some(b),
                    "inertia",
                    format!(
                        "the inertia tensor is not symmetric: [{i}][{j}] = {} but [{j}][{i}] = {}",
                        t[3 * i + j],
                        t[3 * j + i]
                    ),
                ));
            }
            out.extend([t[0], t[4], t[8], t[1], t[2], t[5]]);
        } else {
            out.extend([
                inertia[3 * b],
                inertia[3 * b + 1],
                inertia[3 * b + 2],
                0.0,
                0.0,
                0.0,
            ]);
        }
    }
    out
}
