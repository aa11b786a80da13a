//! A scene from a LAMMPS/LIGGGHTS dump: the spheres of one snapshot become
//! bodies (solid spheres, I = 2/5 m r²), and the contacts are found — pairs
//! by the cell grid ([`super::grid`]), spheres against planes — with the
//! case's contact law on each. The result is the [`SceneData`] every other
//! reader gives, validated by the same rules.

use super::dump::{self, Which};
use super::grid::{self, Period, Spheres};
use super::{SceneData, WORLD};
use crate::diag::Diagnostic;

/// The contact law every contact of the dump gets (SI). Issue 38's
/// tangential and Hertz keys of `[scene.contact]` join here.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactLaw {
    /// Normal stiffness.
    pub stiffness: f64,
    /// Normal damping, when given.
    pub damping: Option<f64>,
    /// The tangential spring every contact gets, when given.
    pub tangential: Option<TangentialLaw>,
}

/// `contact`'s tangential keys (SI): the stiffness (N/m), or its ratio to
/// the normal one when `ratio`; the damping (N·s/m), when given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TangentialLaw {
    /// k_t, or k_t/k_n when `ratio`.
    pub stiffness: f64,
    /// Whether `stiffness` is a ratio.
    pub ratio: bool,
    /// c_t, when given (else a ratio scales the normal damping).
    pub damping: Option<f64>,
}

/// LAMMPS unit styles (the `units` command), for the dump's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitStyle {
    /// m, kg.
    Si,
    /// cm, g.
    Cgs,
    /// µm, pg.
    Micro,
    /// nm, ag.
    Nano,
    /// Å, g/mol (per atom: dalton).
    Real,
    /// Å, g/mol (per atom: dalton).
    Metal,
}

impl UnitStyle {
    /// The styles by name (`lj` is not one: it has no physical scale).
    pub const NAMES: &[(&str, UnitStyle)] = &[
        ("si", UnitStyle::Si),
        ("cgs", UnitStyle::Cgs),
        ("micro", UnitStyle::Micro),
        ("nano", UnitStyle::Nano),
        ("real", UnitStyle::Real),
        ("metal", UnitStyle::Metal),
    ];

    /// The style named `s`.
    pub fn parse(s: &str) -> Option<UnitStyle> {
        Self::NAMES.iter().find(|(n, _)| *n == s).map(|(_, u)| *u)
    }

    /// Metres per length unit and kilograms per mass unit.
    pub fn scales(self) -> (f64, f64) {
        match self {
            UnitStyle::Si => (1.0, 1.0),
            UnitStyle::Cgs => (1e-2, 1e-3),
            UnitStyle::Micro => (1e-6, 1e-15),
            UnitStyle::Nano => (1e-9, 1e-21),
            UnitStyle::Real | UnitStyle::Metal => (1e-10, 1.660_539_066_60e-27),
        }
    }

    /// Seconds per time unit (LAMMPS `units`: real fs, metal ps).
    pub fn time(self) -> f64 {
        match self {
            UnitStyle::Si | UnitStyle::Cgs => 1.0,
            UnitStyle::Micro => 1e-6,
            UnitStyle::Nano => 1e-9,
            UnitStyle::Real => 1e-15,
            UnitStyle::Metal => 1e-12,
        }
    }
}

/// A wall of the dump's box (on a non-periodic axis).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wall {
    /// x = xlo, normal +x.
    XLo,
    /// x = xhi, normal −x.
    XHi,
    /// y = ylo.
    YLo,
    /// y = yhi.
    YHi,
    /// z = zlo.
    ZLo,
    /// z = zhi.
    ZHi,
}

impl Wall {
    /// The walls by name.
    pub const NAMES: &[(&str, Wall)] = &[
        ("xlo", Wall::XLo),
        ("xhi", Wall::XHi),
        ("ylo", Wall::YLo),
        ("yhi", Wall::YHi),
        ("zlo", Wall::ZLo),
        ("zhi", Wall::ZHi),
    ];

    /// Its name.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, w)| *w == self)
            .expect("listed")
            .0
    }

    fn axis(self) -> usize {
        match self {
            Wall::XLo | Wall::XHi => 0,
            Wall::YLo | Wall::YHi => 1,
            Wall::ZLo | Wall::ZHi => 2,
        }
    }

    fn high(self) -> bool {
        matches!(self, Wall::XHi | Wall::YHi | Wall::ZHi)
    }
}

/// Which walls of the box touch spheres.
#[derive(Clone, Debug, PartialEq)]
pub enum Walls {
    /// Every wall on a non-periodic axis.
    Fixed,
    /// These.
    Listed(Vec<Wall>),
}

/// A plane spheres rest on (SI, unit normal pointing to the spheres' side).
#[derive(Clone, Debug, PartialEq)]
pub struct Plane {
    /// A point of the plane.
    pub point: [f64; 3],
    /// Unit normal.
    pub normal: [f64; 3],
}

/// How to make a scene of a dump.
#[derive(Clone, Debug)]
pub struct DumpOptions {
    /// The snapshot.
    pub which: Which,
    /// The dump's units (`None`: its `ITEM: UNITS`, else SI).
    pub units: Option<UnitStyle>,
    /// Metres per length unit and kilograms per mass unit given as a table
    /// (instead of a style).
    pub scales: Option<(f64, f64)>,
    /// The law of every contact.
    pub law: ContactLaw,
    /// Surfaces closer than this (SI) are in contact.
    pub tolerance: f64,
    /// Box walls.
    pub walls: Walls,
    /// Other planes.
    pub planes: Vec<Plane>,
}

/// A problem making the scene.
#[derive(Debug)]
pub enum DumpError {
    /// The file could not be read.
    File(String),
    /// Problems in the dump, at their place in `text`.
    Dump {
        /// The dump's text.
        text: String,
        /// The problems.
        diagnostics: Vec<Diagnostic>,
    },
    /// A key of the case does not fit the dump (`key`: which).
    Key(&'static str, String),
}

/// A dump's spheres as the model checks read them (SI): kept beside the
/// columns, which a large scene frees before its checks on the model path.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DumpFacts {
    /// Whether the dump's units were declared (`ITEM: UNITS`, or `units`
    /// in `[scene]`): without, its numbers were read as SI.
    pub units_declared: bool,
    /// Each sphere's radius.
    pub radius: Vec<f64>,
    /// Each sphere's speed (m/s) from the dump's `vx vy vz` columns; empty
    /// without them, or when the dump's time unit is not known (`units`
    /// given as a table of length and mass).
    pub speed: Vec<f64>,
    /// The snapshot read: its timestep, how many snapshots the file holds
    /// after it, and the last one's timestep.
    pub snapshot: (u64, usize, u64),
    /// Each wall and plane asked for by name (`walls = [...]`, `planes`),
    /// with how many spheres touch it: a wall nothing touches is a wall
    /// misnamed. The walls of `walls = "fixed"` are not listed.
    pub named_planes: Vec<(String, usize)>,
    /// The contact tolerance `[scene] tolerance` (SI; 0 when not given).
    pub tolerance: f64,
}

impl DumpFacts {
    /// The spheres' radii and the named planes with how many spheres
    /// touch each, units not (yet) said to be declared.
    fn of(radius: Vec<f64>, planes: &[(Plane, String, bool)], touching: &[usize]) -> DumpFacts {
        DumpFacts {
            units_declared: false,
            radius,
            named_planes: planes
                .iter()
                .zip(touching)
                .filter(|((_, _, named), _)| *named)
                .map(|((_, name, _), &k)| (name.clone(), k))
                .collect(),
            ..DumpFacts::default()
        }
    }
}

/// What the dump held, for the report of the reading.
#[derive(Clone, Debug, PartialEq)]
pub struct DumpSummary {
    /// The snapshot's timestep.
    pub step: u64,
    /// Sphere–sphere contacts.
    pub pairs: usize,
    /// Of which across a periodic boundary.
    pub wrapped: usize,
    /// Sphere–plane (and wall) contacts.
    pub planes: usize,
    /// The radii and whether the units were declared.
    pub facts: DumpFacts,
    /// Each contact's overlap of the surfaces (negative: a gap within the
    /// tolerance).
    pub overlap: Vec<f64>,
    /// The near contacts: surfaces apart by at least the tolerance but by
    /// less than [`NEAR_FRACTION`] of the smaller radius (`None` when the
    /// wider search does not fit the periodic box).
    pub near: Option<Near>,
}

/// A gap below this fraction of the smaller radius (of the two spheres,
/// or of the sphere at a wall or plane) is a near contact: one a snapshot
/// of a pile that has not settled leaves open, but that closes as it
/// settles (a radius of 5 mm: 0.5 mm).
pub const NEAR_FRACTION: f64 = 0.1;

/// The near contacts of a dump (`DumpSummary::near`).
#[derive(Clone, Debug, PartialEq)]
pub struct Near {
    /// How many (pairs and spheres at planes).
    pub count: usize,
    /// The scene with them closed (the same law on each), when it is small
    /// enough for the model path (at most `limits::LARGE_PATH_ABOVE`
    /// contacts with them) and there is at least one.
    pub closed: Option<Box<SceneData>>,
}

/// Reads the dump at `path` (at most `max_bytes`) into a scene.
pub fn read(
    path: &std::path::Path,
    opts: &DumpOptions,
    max_bytes: u64,
) -> Result<(SceneData, DumpSummary), DumpError> {
    let text = super::csv::read_text(path, max_bytes).map_err(DumpError::File)?;
    let fail = |text: String, diagnostics: Vec<Diagnostic>| DumpError::Dump { text, diagnostics };
    let snap = match dump::read(&text, opts.which) {
        Ok(s) => s,
        Err(d) => return Err(fail(text, d)),
    };
    let declared = opts.scales.is_some() || opts.units.is_some() || snap.units.is_some();
    // Seconds per time unit, when the units say (a table gives none).
    let time = match (opts.scales, opts.units, &snap.units) {
        (Some(_), _, _) => None,
        (None, Some(u), _) => Some(u.time()),
        (None, None, Some((name, _))) => UnitStyle::parse(name).map(UnitStyle::time),
        (None, None, None) => Some(1.0),
    };
    let (length, mass) = match (opts.scales, opts.units, &snap.units) {
        (Some(s), _, _) => s,
        (None, Some(u), _) => u.scales(),
        (None, None, Some((name, span))) => match UnitStyle::parse(name) {
            Some(u) => u.scales(),
            None => {
                let d = Diagnostic::new(span.clone(), format!("unknown units `{name}`"))
                    .hint(if name == "lj" {
                        "lj units have no physical scale: give `units` in `[scene]` (a table of length and mass) to say what they stand for".to_string()
                    } else {
                        format!("the LAMMPS unit styles meff reads are {}", style_list())
                    });
                return Err(fail(text, vec![d]));
            }
        },
        (None, None, None) => (1.0, 1.0),
    };
    match build(&text, &snap, length, mass, opts, None) {
        Ok((s, mut summary)) => {
            summary.facts.units_declared = declared;
            if let Some(t) = time {
                let v = length / t;
                summary.facts.speed = snap.atoms.speed.iter().map(|x| x * v).collect();
            }
            summary.facts.snapshot = (snap.step, snap.later.0, snap.later.1);
            summary.facts.tolerance = opts.tolerance;
            summary.near = near(&text, &snap, (length, mass), opts, &s);
            Ok((s, summary))
        }
        Err(Built::Dump(d)) => Err(fail(text, d)),
        Err(Built::Key(k, m)) => Err(DumpError::Key(k, m)),
    }
}

/// The unit styles, quoted, for hints.
pub fn style_list() -> String {
    UnitStyle::NAMES
        .iter()
        .map(|(n, _)| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

enum Built {
    Dump(Vec<Diagnostic>),
    Key(&'static str, String),
}

/// The contact range for two surfaces whose smaller radius is `small`:
/// the tolerance, or with `near` (a fraction) the near-contact reach.
fn reach(tolerance: f64, small: f64, near: Option<f64>) -> f64 {
    near.map_or(tolerance, |f| tolerance.max(f * small))
}

/// The near contacts of the snapshot whose scene is `snapshot`: counted by
/// the same cell grid with the wider reach (O(n)); the scene with them
/// closed is built only when it is small enough for the model path.
fn near(
    text: &str,
    snap: &dump::Snapshot,
    (length, mass): (f64, f64),
    opts: &DumpOptions,
    snapshot: &SceneData,
) -> Option<Near> {
    let n = snapshot.mass.len();
    let radius: Vec<f64> = snap.atoms.radius.iter().map(|r| r * length).collect();
    let rmax = radius.iter().copied().fold(0.0, f64::max);
    let b = &snap.bounds;
    let periodic: [Option<Period>; 3] = std::array::from_fn(|k| {
        b.periodic[k].then(|| Period {
            lo: length * b.lo[k],
            len: length * (b.hi[k] - b.lo[k]),
        })
    });
    let spheres = Spheres {
        position: &snapshot.position,
        radius: &radius,
        periodic,
    };
    let wide = reach(opts.tolerance, rmax, Some(NEAR_FRACTION));
    let pairs = grid::pairs(&spheres, wide).ok()?;
    let mut count = 0;
    for &(i, j) in &pairs {
        let (i, j) = (i as usize, j as usize);
        let d: [f64; 3] =
            std::array::from_fn(|k| snapshot.position[3 * i + k] - snapshot.position[3 * j + k]);
        let shift = grid::image_shift(d, &periodic);
        let dist = (0..3)
            .map(|k| (d[k] + shift[k]).powi(2))
            .sum::<f64>()
            .sqrt();
        let gap = dist - radius[i] - radius[j];
        let small = radius[i].min(radius[j]);
        if gap >= opts.tolerance && gap < reach(opts.tolerance, small, Some(NEAR_FRACTION)) {
            count += 1;
        }
    }
    let planes = planes(snap, length, opts).ok()?;
    for i in 0..n {
        for (p, _, _) in &planes {
            let gap = (0..3)
                .map(|k| (snapshot.position[3 * i + k] - p.point[k]) * p.normal[k])
                .sum::<f64>()
                - radius[i];
            if gap >= opts.tolerance && gap < reach(opts.tolerance, radius[i], Some(NEAR_FRACTION))
            {
                count += 1;
            }
        }
    }
    let small = snapshot.body.len() + count <= crate::limits::LARGE_PATH_ABOVE;
    let closed = (count > 0 && small)
        .then(|| build(text, snap, length, mass, opts, Some(NEAR_FRACTION)).ok())
        .flatten()
        .map(|(s, _)| Box::new(s));
    Some(Near { count, closed })
}

/// The planes of the walls asked for and of `opts.planes`, with names.
fn planes(
    snap: &dump::Snapshot,
    length: f64,
    opts: &DumpOptions,
) -> Result<Vec<(Plane, String, bool)>, Built> {
    let b = &snap.bounds;
    let walls: Vec<Wall> = match &opts.walls {
        Walls::Fixed => Wall::NAMES
            .iter()
            .map(|(_, w)| *w)
            .filter(|w| !b.periodic[w.axis()])
            .collect(),
        Walls::Listed(v) => v.clone(),
    };
    let mut out = Vec::new();
    let listed = matches!(opts.walls, Walls::Listed(_));
    for w in walls {
        let k = w.axis();
        if b.periodic[k] {
            return Err(Built::Key(
                "walls",
                format!(
                    "wall `{}` is on the {} axis, which the dump's box makes periodic",
                    w.name(),
                    ["x", "y", "z"][k]
                ),
            ));
        }
        let mut point = [0.0; 3];
        let mut normal = [0.0; 3];
        point[k] = length * if w.high() { b.hi[k] } else { b.lo[k] };
        normal[k] = if w.high() { -1.0 } else { 1.0 };
        out.push((Plane { point, normal }, w.name().to_string(), listed));
    }
    for (i, p) in opts.planes.iter().enumerate() {
        out.push((p.clone(), format!("plane{i}"), true));
    }
    Ok(out)
}

/// The scene of a snapshot: bodies, pair contacts, plane contacts.
fn build(
    text: &str,
    snap: &dump::Snapshot,
    length: f64,
    mass_unit: f64,
    opts: &DumpOptions,
    near: Option<f64>,
) -> Result<(SceneData, DumpSummary), Built> {
    let a = &snap.atoms;
    let n = a.id.len();
    let b = &snap.bounds;
    let periodic: [Option<Period>; 3] = std::array::from_fn(|k| {
        b.periodic[k].then(|| Period {
            lo: length * b.lo[k],
            len: length * (b.hi[k] - b.lo[k]),
        })
    });
    let (mut s, radius) = spheres_as_bodies(a, (length, mass_unit), &periodic);
    let at_atom = |i: usize, message: String| {
        Diagnostic::new(dump::field_span(text, a.line[i], a.x_field), message)
    };
    let spheres = Spheres {
        position: &s.position,
        radius: &radius,
        periodic,
    };
    let rmax = radius.iter().copied().fold(0.0, f64::max);
    let pairs =
        grid::pairs(&spheres, reach(opts.tolerance, rmax, near)).map_err(|e| grid_error(e, b))?;
    let planes = planes(snap, length, opts)?;
    let c_pairs = pairs.len();
    if c_pairs > super::MAX_ROWS {
        return Err(Built::Dump(vec![Diagnostic::new(
            b.span.clone(),
            format!("{c_pairs} contacts are more than a scene may have"),
        )]));
    }
    let mut issues = Vec::new();
    let mut names = Vec::with_capacity(c_pairs);
    let mut image: Vec<f64> = Vec::new();
    let mut overlaps: Vec<f64> = Vec::with_capacity(c_pairs);
    let mut wrapped = 0;
    for &(i, j) in &pairs {
        let (i, j) = (i as usize, j as usize);
        let d: [f64; 3] = std::array::from_fn(|k| s.position[3 * i + k] - s.position[3 * j + k]);
        let shift = grid::image_shift(d, &periodic);
        let d: [f64; 3] = std::array::from_fn(|k| d[k] + shift[k]);
        let dist = d.iter().map(|x| x * x).sum::<f64>().sqrt();
        let gap = dist - radius[i] - radius[j];
        let small = radius[i].min(radius[j]);
        if near.is_some() && gap >= reach(opts.tolerance, small, near) {
            continue;
        }
        if -gap > small || dist == 0.0 {
            if issues.len() < super::MAX_ISSUES {
                issues.push(overlap(text, a, i, j, -gap, small));
            }
            continue;
        }
        let nrm: [f64; 3] = std::array::from_fn(|k| d[k] / dist);
        // On body i's side of the gap's middle: both lever arms are along
        // the normal when `other` is taken at its image.
        for k in 0..3 {
            s.point
                .push(s.position[3 * i + k] - nrm[k] * (radius[i] + 0.5 * gap));
            s.normal.push(nrm[k]);
        }
        if shift.iter().any(|&x| x != 0.0) {
            if image.is_empty() {
                image = vec![0.0; 3 * c_pairs];
            }
            wrapped += 1;
            for k in 0..3 {
                image[3 * s.body.len() + k] = -shift[k];
            }
        }
        s.body.push(i as u32);
        s.other.push(j as u32);
        overlaps.push(-gap);
        names.push(format!("a{}_a{}", a.id[i], a.id[j]));
    }
    let mut touching = vec![0usize; planes.len()];
    // No planes: no work.
    let on_planes = plane_contacts(
        &mut s,
        &radius,
        &planes,
        (opts.tolerance, near),
        (&mut names, &mut issues),
        &at_atom,
        (&a.id, &mut overlaps, &mut touching),
    );
    if !issues.is_empty() {
        return Err(Built::Dump(issues));
    }
    if names.is_empty() {
        return Err(Built::Dump(vec![
            Diagnostic::new(
                b.span.clone(),
                "no two spheres touch, and no sphere touches a plane: the scene has no contacts",
            )
            .hint(no_contact_hint(&radius, &s.mass, b, length)),
        ]));
    }
    let c = names.len();
    if !image.is_empty() {
        image.resize(3 * c, 0.0);
        s.image = Some(image);
    }
    with_law(&mut s, opts, c);
    s.contact_names = Some(names);
    let issues = super::validate(&s, crate::case::types::Space::ThreeD);
    if let Some(i) = issues.first() {
        let row = i.row.unwrap_or(0);
        let atom = match i.table {
            super::Table::Bodies => row,
            super::Table::Contacts => s.body[row.min(s.body.len() - 1)] as usize,
        };
        return Err(Built::Dump(vec![at_atom(
            atom.min(n - 1),
            i.message.clone(),
        )]));
    }
    Ok((
        s,
        DumpSummary {
            step: snap.step,
            pairs: c - on_planes,
            wrapped,
            planes: on_planes,
            facts: DumpFacts::of(radius, &planes, &touching),
            overlap: overlaps,
            near: None,
        },
    ))
}

/// The dump's atoms as solid spheres (SI; positions wrapped into a
/// periodic box), and their radii.
fn spheres_as_bodies(
    a: &dump::Atoms,
    (length, mass_unit): (f64, f64),
    periodic: &[Option<Period>; 3],
) -> (SceneData, Vec<f64>) {
    let n = a.id.len();
    let mut s = SceneData {
        mass: a.mass.iter().map(|m| m * mass_unit).collect(),
        position: (0..3 * n)
            .map(|i| grid::wrap(length * a.position[i], periodic[i % 3]))
            .collect(),
        fixed: vec![false; n],
        body_names: Some(a.id.iter().map(|id| format!("a{id}")).collect()),
        ..SceneData::default()
    };
    let radius: Vec<f64> = a.radius.iter().map(|r| r * length).collect();
    s.inertia = Vec::with_capacity(6 * n);
    for i in 0..n {
        let moment = 0.4 * s.mass[i] * radius[i] * radius[i];
        s.inertia.extend([moment, moment, moment, 0.0, 0.0, 0.0]);
    }
    (s, radius)
}

/// The case's contact law on every one of the `c` contacts.
fn with_law(s: &mut SceneData, opts: &DumpOptions, c: usize) {
    s.stiffness = vec![opts.law.stiffness; c];
    s.damping = opts.law.damping.map(|d| vec![d; c]);
    s.tangential = opts.law.tangential.map(|t| super::TangentialColumns {
        stiffness: vec![t.stiffness; c],
        ratio: t.ratio,
        damping: t.damping.map(|d| vec![d; c]),
    });
}

/// Each sphere against each plane: contacts into `s` and `names`, overlaps
/// past a centre into `issues`; the number of contacts.
#[allow(clippy::too_many_arguments)]
/// What the columns say when no sphere touches another: the median radius
/// against the spacing of the centres in the box, and the median density
/// m/V the radius and mass columns give (a column swapped or in other units
/// shows in one of them).
fn no_contact_hint(radius: &[f64], mass: &[f64], b: &dump::BoxBounds, length: f64) -> String {
    let base = "a contact is an overlap (or a gap below `tolerance` in `[scene]`); walls of the box count with `walls`";
    let n = radius.len();
    if n == 0 {
        return base.to_string();
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let r = median(radius.to_vec());
    let rho = median(
        radius
            .iter()
            .zip(mass)
            .map(|(r, m)| m / (4.0 / 3.0 * std::f64::consts::PI * r.powi(3)))
            .collect(),
    );
    let volume: f64 = (0..3).map(|k| length * (b.hi[k] - b.lo[k])).product();
    let spacing = (volume / n as f64).cbrt();
    format!(
        "{base}. The spheres' median radius is {} m against a spacing of their centres of about {} m (the box's volume per sphere), and their median density m/(4/3 π r³) is {} kg/m³: check the `radius` and `mass` columns (units, or two columns swapped)",
        crate::number::sig(r, 3),
        crate::number::sig(spacing, 3),
        crate::number::sig(rho, 3)
    )
}

fn plane_contacts(
    s: &mut SceneData,
    radius: &[f64],
    planes: &[(Plane, String, bool)],
    (tolerance, near): (f64, Option<f64>),
    (names, issues): (&mut Vec<String>, &mut Vec<Diagnostic>),
    at_atom: &dyn Fn(usize, String) -> Diagnostic,
    (ids, overlaps, touching): (&[i64], &mut Vec<f64>, &mut [usize]),
) -> usize {
    let mut on_planes = 0;
    for i in 0..radius.len() {
        for (k_plane, (p, pname, _)) in planes.iter().enumerate() {
            let x: [f64; 3] = std::array::from_fn(|k| s.position[3 * i + k]);
            let dist: f64 = (0..3).map(|k| (x[k] - p.point[k]) * p.normal[k]).sum();
            let gap = dist - radius[i];
            if gap >= reach(tolerance, radius[i], near) {
                continue;
            }
            if -gap > radius[i] {
                if issues.len() < super::MAX_ISSUES {
                    issues.push(at_atom(
                        i,
                        format!(
                            "atom {} overlaps `{pname}` by {:e} m, more than its radius ({:e} m): its centre is not on the plane's side",
                            ids[i], -gap, radius[i]
                        ),
                    ));
                }
                continue;
            }
            for k in 0..3 {
                s.point.push(x[k] - p.normal[k] * (radius[i] + 0.5 * gap));
                s.normal.push(p.normal[k]);
            }
            s.body.push(i as u32);
            s.other.push(WORLD);
            overlaps.push(-gap);
            names.push(format!("a{}_{pname}", ids[i]));
            on_planes += 1;
            touching[k_plane] += 1;
        }
    }
    on_planes
}

/// The error of a search the grid refused.
fn grid_error(e: grid::GridError, b: &dump::BoxBounds) -> Built {
    match e {
        grid::GridError::BoxTooSmall { axis, len, range } => Built::Dump(vec![Diagnostic::new(
            b.span.clone(),
            format!(
                "the periodic box is {len:e} m long along {}, less than twice the contact range {range:e} m (the largest diameter plus the tolerance): a sphere would touch two images of another",
                ["x", "y", "z"][axis]
            ),
        )]),
        grid::GridError::Budget(limit) => Built::Dump(vec![Diagnostic::new(
            b.span.clone(),
            format!("the contact search would test more than {limit} pairs: the radii spread too widely for one grid"),
        )
        .hint("meff's cell grid is sized by the largest sphere; split the scene or lower the spread of radii")]),
    }
}

/// Two spheres overlapping by more than the smaller radius.
fn overlap(text: &str, a: &dump::Atoms, i: usize, j: usize, by: f64, small: f64) -> Diagnostic {
    Diagnostic::new(
        dump::field_span(text, a.line[j], a.x_field),
        format!(
            "atoms {} and {} overlap by {by:e} m, more than the smaller radius ({small:e} m)",
            a.id[i], a.id[j]
        ),
    )
    .hint(format!(
        "atom {} is at line {}; a contact's overlap is a small fraction of a radius",
        a.id[i],
        crate::diag::line_col(text, a.line[i]).0
    ))
}
