//! LAMMPS/LIGGGHTS text dumps (`dump … custom`/`atom` style): the spheres
//! of one snapshot, read by column name.
//!
//! A snapshot is
//!
//! ```text
//! ITEM: TIMESTEP
//! 1000
//! ITEM: NUMBER OF ATOMS
//! 2
//! ITEM: BOX BOUNDS pp pp fm
//! 0 0.1
//! 0 0.1
//! 0 0.2
//! ITEM: ATOMS id type x y z radius mass
//! 1 1 0.05 0.05 0.005 0.005 1.3e-3
//! 2 1 0.05 0.05 0.015 0.005 1.3e-3
//! ```
//!
//! (`ITEM: UNITS` and `ITEM: TIME` sections, which `dump_modify` may add,
//! are read and skipped.) Columns are found by name in any order; others
//! are ignored. Positions are `x y z`, `xu yu zu` (unwrapped) or `xs ys zs`
//! (scaled by the box); the size is `radius` or `diameter`; the mass is
//! `mass`, or `density` times the sphere's volume when there is no `mass`
//! column. A file may hold many snapshots: the last is read, or the one of
//! a given timestep. Every problem is a diagnostic at its `line:col`.

use crate::diag::Diagnostic;
use std::ops::Range;

/// Which snapshot of the file to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The last one in the file.
    Last,
    /// The one of this timestep.
    Step(u64),
}

/// The box of a snapshot (orthogonal).
#[derive(Clone, Debug, PartialEq)]
pub struct BoxBounds {
    /// Lower bounds, dump units.
    pub lo: [f64; 3],
    /// Upper bounds, dump units.
    pub hi: [f64; 3],
    /// Periodic axes (flag `pp`).
    pub periodic: [bool; 3],
    /// The `ITEM: BOX BOUNDS` line, for problems with the box.
    pub span: Range<usize>,
}

/// The spheres of one snapshot, in dump units, file order.
#[derive(Clone, Debug, Default)]
pub struct Atoms {
    /// Atom ids.
    pub id: Vec<i64>,
    /// Centres, 3 per atom (scaled positions already unscaled).
    pub position: Vec<f64>,
    /// Radii.
    pub radius: Vec<f64>,
    /// Masses.
    pub mass: Vec<f64>,
    /// Byte offset of each atom's line.
    pub line: Vec<usize>,
    /// Field index of the `x` column (for pointing at a position).
    pub x_field: usize,
    /// Each atom's speed |(vx, vy, vz)| in dump units, when the dump has
    /// the three velocity columns (empty otherwise).
    pub speed: Vec<f64>,
}

/// A snapshot as read.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// Its timestep.
    pub step: u64,
    /// The box.
    pub bounds: BoxBounds,
    /// `ITEM: UNITS` when the dump says, and where.
    pub units: Option<(String, Range<usize>)>,
    /// The spheres.
    pub atoms: Atoms,
    /// How many snapshots the file holds after this one, and the last
    /// one's timestep.
    pub later: (usize, u64),
}

/// Lines of a text with their byte offsets.
struct Lines<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Lines<'a> {
    /// The next line (without its end) and its offset.
    fn next(&mut self) -> Option<(usize, &'a str)> {
        if self.pos >= self.text.len() {
            return None;
        }
        let start = self.pos;
        let rest = &self.text[start..];
        let len = rest.find('\n').unwrap_or(rest.len());
        self.pos = start + len + 1;
        let line = rest[..len].strip_suffix('\r').unwrap_or(&rest[..len]);
        Some((start, line))
    }

    /// Skips `n` lines; the number skipped (fewer at the end or at an
    /// `ITEM:` line, which is left unread).
    fn skip(&mut self, n: usize) -> usize {
        for k in 0..n {
            let rest = &self.text[self.pos.min(self.text.len())..];
            if rest.is_empty() || rest.starts_with("ITEM:") {
                return k;
            }
            self.pos += rest.find('\n').map_or(rest.len(), |i| i + 1);
        }
        n
    }

    fn peek_item(&self) -> bool {
        self.text[self.pos.min(self.text.len())..].starts_with("ITEM:")
    }
}

/// The span of the `k`-th whitespace-separated field of the line at
/// `start` (its end when there is no such field).
pub fn field_span(text: &str, start: usize, k: usize) -> Range<usize> {
    let line = &text[start..];
    let line = &line[..line.find('\n').unwrap_or(line.len())];
    let mut at = 0;
    let mut i = 0;
    let b = line.as_bytes();
    loop {
        while at < b.len() && b[at].is_ascii_whitespace() {
            at += 1;
        }
        if at >= b.len() {
            let end = start + line.trim_end().len();
            return end..end;
        }
        let s = at;
        while at < b.len() && !b[at].is_ascii_whitespace() {
            at += 1;
        }
        if i == k {
            return start + s..start + at;
        }
        i += 1;
    }
}

fn line_span(start: usize, line: &str) -> Range<usize> {
    start..start + line.len()
}

/// Reads snapshot `which` of `text`; every problem found (at most
/// [`super::MAX_ISSUES`]) otherwise.
pub fn read(text: &str, which: Which) -> Result<Snapshot, Vec<Diagnostic>> {
    let mut lines = Lines { text, pos: 0 };
    // The chosen snapshot's header and where its atom lines start; every
    // snapshot's atom lines are counted (not parsed) on the way.
    let mut chosen: Option<(Header, usize)> = None;
    let mut steps_seen = 0usize;
    let mut first_steps: Vec<u64> = Vec::new();
    let mut units: Option<(String, Range<usize>)> = None;
    // Snapshots after the chosen one, and the last timestep.
    let (mut later, mut last_step) = (0usize, 0u64);
    loop {
        let header = snapshot_header(&mut lines)?;
        let Some(mut h) = header else { break };
        // Units written once apply to the snapshots after them.
        if let Some(u) = h.units.take() {
            units = Some(u);
        }
        h.units = units.clone();
        steps_seen += 1;
        last_step = h.step;
        later += 1;
        if first_steps.len() < 5 {
            first_steps.push(h.step);
        }
        let at = lines.pos;
        let got = lines.skip(h.count);
        if got < h.count {
            return Err(vec![count_mismatch(text, &lines, &h, got)]);
        }
        if !lines.peek_item() && lines.pos < text.len() {
            let (s, l) = lines.next().expect("more text");
            if !l.trim().is_empty() {
                return Err(vec![
                    Diagnostic::new(
                        line_span(s, l),
                        format!(
                            "more atom lines than the {} that `ITEM: NUMBER OF ATOMS` gives",
                            h.count
                        ),
                    )
                    .hint(format!(
                        "the count is at line {}",
                        crate::diag::line_col(text, h.count_span.start).0
                    )),
                ]);
            }
        }
        let wanted = match which {
            Which::Last => true,
            Which::Step(s) => s == h.step && chosen.is_none(),
        };
        if wanted {
            chosen = Some((h, at));
            later = 0;
        }
    }
    let chosen = match chosen {
        Some((h, at)) => {
            let mut lines = Lines { text, pos: at };
            let atoms = atoms(text, &mut lines, &h)?;
            Some(Snapshot {
                step: h.step,
                bounds: h.bounds,
                units: h.units,
                atoms,
                later: (later, last_step),
            })
        }
        None => None,
    };
    match chosen {
        Some(s) => Ok(s),
        None if steps_seen == 0 => Err(vec![
            Diagnostic::new(
                0..0,
                "no snapshot: a LAMMPS dump starts with `ITEM: TIMESTEP`",
            )
            .hint("write it with `dump … custom … id type x y z radius mass`"),
        ]),
        None => {
            let Which::Step(s) = which else {
                unreachable!("the last snapshot is always chosen")
            };
            let list: Vec<String> = first_steps.iter().map(|x| x.to_string()).collect();
            Err(vec![
                Diagnostic::new(0..0, format!("the dump has no snapshot of timestep {s}")).hint(
                    format!(
                        "it has {steps_seen} snapshot{}, timesteps {}{}",
                        if steps_seen == 1 { "" } else { "s" },
                        list.join(", "),
                        if steps_seen > list.len() { ", …" } else { "" }
                    ),
                ),
            ])
        }
    }
}

/// The header of a snapshot: everything before its atom lines.
struct Header {
    step: u64,
    count: usize,
    count_span: Range<usize>,
    bounds: BoxBounds,
    units: Option<(String, Range<usize>)>,
    columns: Columns,
    atoms_span: Range<usize>,
}

/// Field index of each column meeded.
#[derive(Clone, Debug)]
struct Columns {
    id: usize,
    /// Position fields, and whether they are scaled (`xs`).
    pos: [usize; 3],
    scaled: [bool; 3],
    size: usize,
    diameter: bool,
    mass: usize,
    density: bool,
    /// The velocity columns `vx vy vz`, when all three are there.
    vel: Option<[usize; 3]>,
    fields: usize,
}

fn expect_item<'a>(
    lines: &mut Lines<'a>,
    what: &str,
    after: usize,
) -> Result<(usize, &'a str), Vec<Diagnostic>> {
    let named = |l: &str| {
        l.strip_prefix(what)
            .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t']))
    };
    match lines.next() {
        Some((s, l)) if named(l.trim_end()) => Ok((s, l)),
        Some((s, l)) => Err(vec![Diagnostic::new(
            line_span(s, l),
            format!("expected `{what}` here"),
        )]),
        None => Err(vec![Diagnostic::new(
            after..after,
            format!("the dump ends before `{what}`"),
        )]),
    }
}

fn value_line<'a>(
    lines: &mut Lines<'a>,
    after: usize,
    what: &str,
) -> Result<(usize, &'a str), Vec<Diagnostic>> {
    lines.next().ok_or_else(|| {
        vec![Diagnostic::new(
            after..after,
            format!("the dump ends before the {what}"),
        )]
    })
}

/// Reads a snapshot's header; `None` at the end of the text.
fn snapshot_header(lines: &mut Lines) -> Result<Option<Header>, Vec<Diagnostic>> {
    let text = lines.text;
    // Blank lines between snapshots are allowed.
    loop {
        let rest = &text[lines.pos.min(text.len())..];
        let blank = rest.find('\n').map(|i| rest[..i].trim().is_empty());
        match blank {
            Some(true) => {
                lines.next();
            }
            _ if rest.trim().is_empty() => return Ok(None),
            _ => break,
        }
    }
    // `dump_modify units yes` writes `ITEM: UNITS` before the first
    // snapshot, `time yes` `ITEM: TIME` before each.
    let mut units = None;
    let (mut s, mut l) = value_line(lines, text.len(), "`ITEM: TIMESTEP`")?;
    loop {
        let item = l.trim_end();
        if item == "ITEM: UNITS" {
            let (us, u) = value_line(lines, s + l.len(), "units")?;
            units = Some((u.trim().to_string(), field_span(text, us, 0)));
        } else if item == "ITEM: TIME" {
            value_line(lines, s + l.len(), "time")?;
        } else {
            break;
        }
        (s, l) = value_line(lines, s + l.len(), "`ITEM: TIMESTEP`")?;
    }
    if l.trim_end() != "ITEM: TIMESTEP" {
        return Err(vec![
            Diagnostic::new(line_span(s, l), "expected `ITEM: TIMESTEP` here")
                .hint("a LAMMPS dump's snapshot starts with `ITEM: TIMESTEP` and its number"),
        ]);
    }
    let (vs, v) = value_line(lines, s + l.len(), "timestep")?;
    let step = v.trim().parse::<u64>().map_err(|_| {
        vec![Diagnostic::new(
            field_span(text, vs, 0),
            format!("`{}` is not a timestep (a whole number)", v.trim()),
        )]
    })?;
    let (s, l) = value_line(lines, vs + v.len(), "`ITEM: NUMBER OF ATOMS`")?;
    if l.trim_end() != "ITEM: NUMBER OF ATOMS" {
        return Err(vec![Diagnostic::new(
            line_span(s, l),
            "expected `ITEM: NUMBER OF ATOMS` here",
        )]);
    }
    let (cs, c) = value_line(lines, s + l.len(), "number of atoms")?;
    let count_span = field_span(text, cs, 0);
    let count = match c.trim().parse::<u64>() {
        Ok(n) if n as usize <= super::MAX_ROWS && n > 0 => n as usize,
        Ok(0) => {
            return Err(vec![Diagnostic::new(
                count_span,
                "a snapshot without atoms",
            )]);
        }
        Ok(n) => {
            return Err(vec![Diagnostic::new(
                count_span,
                format!(
                    "{n} atoms is more than a scene may have ({})",
                    super::MAX_ROWS
                ),
            )]);
        }
        Err(_) => {
            return Err(vec![Diagnostic::new(
                count_span,
                format!("`{}` is not a number of atoms", c.trim()),
            )]);
        }
    };
    let bounds = box_bounds(lines, cs + c.len())?;
    let (as_, a) = expect_item(lines, "ITEM: ATOMS", bounds.span.end)?;
    let columns = columns(text, as_, a)?;
    Ok(Some(Header {
        step,
        count,
        count_span,
        bounds,
        units,
        columns,
        atoms_span: line_span(as_, a),
    }))
}

/// `ITEM: BOX BOUNDS [flags]` and its three lines.
fn box_bounds(lines: &mut Lines, after: usize) -> Result<BoxBounds, Vec<Diagnostic>> {
    let text = lines.text;
    let (s, l) = expect_item(lines, "ITEM: BOX BOUNDS", after)?;
    let span = line_span(s, l);
    let words: Vec<&str> = l["ITEM: BOX BOUNDS".len()..]
        .split_ascii_whitespace()
        .collect();
    if words
        .iter()
        .any(|w| matches!(*w, "xy" | "xz" | "yz" | "abc" | "origin"))
    {
        return Err(vec![
            Diagnostic::new(span, "a triclinic (tilted) box is not supported")
                .hint("meff reads orthogonal boxes; dump the spheres from an orthogonal box"),
        ]);
    }
    let mut periodic = [false; 3];
    match words.len() {
        0 => {}
        3 => {
            for (k, w) in words.iter().enumerate() {
                let f = field_span(text, s, 3 + k);
                periodic[k] = match *w {
                    "pp" => true,
                    w if w.len() == 2 && w.bytes().all(|b| b"fsm".contains(&b)) => false,
                    w if w.len() == 2 && w.bytes().all(|b| b"pfsm".contains(&b)) => {
                        return Err(vec![
                            Diagnostic::new(
                                f,
                                format!("boundary `{w}` is periodic at one end only"),
                            )
                            .hint("periodic is `pp`; the others are f, s, m at each end"),
                        ]);
                    }
                    _ => {
                        return Err(vec![Diagnostic::new(f, format!("unknown boundary `{w}`"))
                            .hint("each axis is `pp` (periodic) or two of f, s, m (fixed, shrink-wrapped)")]);
                    }
                };
            }
        }
        _ => {
            return Err(vec![Diagnostic::new(
                span,
                "expected three boundary flags (such as `pp pp fm`) or none",
            )]);
        }
    }
    let mut lo = [0.0; 3];
    let mut hi = [0.0; 3];
    let mut end = span.end;
    for k in 0..3 {
        let (ls, ll) = value_line(lines, end, "box bounds")?;
        end = ls + ll.len();
        let fields: Vec<&str> = ll.split_ascii_whitespace().collect();
        if fields.len() == 3 {
            return Err(vec![Diagnostic::new(
                field_span(text, ls, 2),
                "a third number on a bounds line is a triclinic tilt; only orthogonal boxes are supported",
            )]);
        }
        if fields.len() != 2 {
            return Err(vec![Diagnostic::new(
                line_span(ls, ll),
                format!(
                    "expected the {} axis' two bounds `lo hi`",
                    ["x", "y", "z"][k]
                ),
            )]);
        }
        for (j, f) in fields.iter().enumerate() {
            let v = f
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    vec![Diagnostic::new(
                        field_span(text, ls, j),
                        format!("`{f}` is not a finite number"),
                    )]
                })?;
            if j == 0 {
                lo[k] = v;
            } else {
                hi[k] = v;
            }
        }
        if hi[k] <= lo[k] {
            return Err(vec![Diagnostic::new(
                line_span(ls, ll),
                format!(
                    "the box's {} bounds are empty ({} ≥ {})",
                    ["x", "y", "z"][k],
                    lo[k],
                    hi[k]
                ),
            )]);
        }
    }
    Ok(BoxBounds {
        lo,
        hi,
        periodic,
        span,
    })
}

/// The columns named by `ITEM: ATOMS …`.
fn columns(text: &str, start: usize, line: &str) -> Result<Columns, Vec<Diagnostic>> {
    let names: Vec<&str> = line["ITEM: ATOMS".len()..]
        .split_ascii_whitespace()
        .collect();
    let mut issues = Vec::new();
    let mut seen: std::collections::HashMap<&str, usize> = Default::default();
    for (i, n) in names.iter().enumerate() {
        if let Some(first) = seen.get(n) {
            if issues.len() < super::MAX_ISSUES {
                issues.push(
                    Diagnostic::new(
                        field_span(text, start, 2 + i),
                        format!("column `{n}` is named twice"),
                    )
                    .hint(format!("first as column {}", first + 1)),
                );
            }
        } else {
            seen.insert(n, i);
        }
    }
    let find = |n: &str| names.iter().position(|m| *m == n);
    let end = start + line.trim_end().len();
    let one_of =
        |choices: &[&str], what: &str, issues: &mut Vec<Diagnostic>| -> Option<(usize, usize)> {
            let found: Vec<(usize, usize)> = choices
                .iter()
                .enumerate()
                .filter_map(|(c, n)| find(n).map(|i| (c, i)))
                .collect();
            match found.as_slice() {
                [] => {
                    issues.push(
                        Diagnostic::new(
                            end..end,
                            format!("the atoms have no `{}` column", choices[0]),
                        )
                        .hint(format!(
                            "the {what}: one of {}",
                            choices
                                .iter()
                                .map(|c| format!("`{c}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )),
                    );
                    None
                }
                [one] => Some(*one),
                [_, second, ..] if choices[0] == "mass" => {
                    let _ = second;
                    Some(found[0])
                }
                [_, second, ..] => {
                    issues.push(Diagnostic::new(
                        field_span(text, start, 2 + second.1),
                        format!(
                            "columns `{}` and `{}` both give the {what}",
                            choices[found[0].0], choices[second.0]
                        ),
                    ));
                    None
                }
            }
        };
    let id = one_of(&["id"], "atom id", &mut issues);
    let mut pos = [0; 3];
    let mut scaled = [false; 3];
    for (k, a) in ["x", "y", "z"].iter().enumerate() {
        let ch = [a.to_string(), format!("{a}u"), format!("{a}s")];
        let refs: Vec<&str> = ch.iter().map(|s| s.as_str()).collect();
        if let Some((c, i)) = one_of(&refs, "position", &mut issues) {
            pos[k] = i;
            scaled[k] = c == 2;
        }
    }
    let size = one_of(&["radius", "diameter"], "size", &mut issues);
    let mass = one_of(&["mass", "density"], "mass", &mut issues);
    if !issues.is_empty() {
        issues.truncate(super::MAX_ISSUES);
        return Err(issues);
    }
    let (id, size, mass) = (
        id.expect("checked"),
        size.expect("checked"),
        mass.expect("checked"),
    );
    Ok(Columns {
        id: id.1,
        pos,
        scaled,
        size: size.1,
        diameter: size.0 == 1,
        mass: mass.1,
        density: mass.0 == 1,
        vel: match (find("vx"), find("vy"), find("vz")) {
            (Some(x), Some(y), Some(z)) => Some([x, y, z]),
            _ => None,
        },
        fields: names.len(),
    })
}

fn count_mismatch(text: &str, lines: &Lines, h: &Header, got: usize) -> Diagnostic {
    let at = lines.pos.min(text.len());
    Diagnostic::new(
        at..at,
        format!(
            "`ITEM: NUMBER OF ATOMS` says {}, but {} atom line{} follow{}",
            h.count,
            got,
            if got == 1 { "" } else { "s" },
            if got == 1 { "s" } else { "" }
        ),
    )
    .hint(format!(
        "the count is at line {}",
        crate::diag::line_col(text, h.count_span.start).0
    ))
}

/// The atom lines of a snapshot.
fn atoms(text: &str, lines: &mut Lines, h: &Header) -> Result<Atoms, Vec<Diagnostic>> {
    let c = &h.columns;
    // Not more than the text can hold (a count is no reason to allocate).
    let cap = h.count.min(text.len().saturating_sub(lines.pos) / 8 + 1);
    let mut a = Atoms {
        id: Vec::with_capacity(cap),
        position: Vec::with_capacity(3 * cap),
        radius: Vec::with_capacity(cap),
        mass: Vec::with_capacity(cap),
        line: Vec::with_capacity(cap),
        x_field: c.pos[0],
        speed: Vec::with_capacity(if c.vel.is_some() { cap } else { 0 }),
    };
    let mut issues: Vec<Diagnostic> = Vec::new();
    let mut ids: std::collections::HashMap<i64, usize> =
        std::collections::HashMap::with_capacity(cap);
    let b = &h.bounds;
    let mut fields: Vec<&str> = Vec::with_capacity(c.fields);
    for row in 0..h.count {
        if lines.peek_item() || lines.pos >= text.len() {
            return Err(vec![count_mismatch(text, lines, h, row)]);
        }
        let (s, l) = lines.next().expect("checked");
        fields.clear();
        fields.extend(l.split_ascii_whitespace());
        if fields.len() != c.fields {
            issues.push(
                Diagnostic::new(
                    line_span(s, l),
                    format!(
                        "this atom line has {} fields, `ITEM: ATOMS` names {}",
                        fields.len(),
                        c.fields
                    ),
                )
                .hint(format!(
                    "the columns are at line {}",
                    crate::diag::line_col(text, h.atoms_span.start).0
                )),
            );
            if issues.len() >= super::MAX_ISSUES {
                break;
            }
            continue;
        }
        let num = |k: usize, what: &str, issues: &mut Vec<Diagnostic>| -> Option<f64> {
            match fields[k].parse::<f64>() {
                Ok(v) if v.is_finite() => Some(v),
                Ok(_) => {
                    issues.push(Diagnostic::new(
                        field_span(text, s, k),
                        format!("the {what} is {}", fields[k]),
                    ));
                    None
                }
                Err(_) => {
                    issues.push(Diagnostic::new(
                        field_span(text, s, k),
                        format!("`{}` is not a number ({what})", fields[k]),
                    ));
                    None
                }
            }
        };
        let id = match fields[c.id].parse::<i64>() {
            Ok(id) => {
                if let Some(first) = ids.insert(id, s) {
                    issues.push(
                        Diagnostic::new(
                            field_span(text, s, c.id),
                            format!("atom id {id} appears twice"),
                        )
                        .hint(format!(
                            "first at line {}",
                            crate::diag::line_col(text, first).0
                        )),
                    );
                }
                id
            }
            Err(_) => {
                issues.push(Diagnostic::new(
                    field_span(text, s, c.id),
                    format!("`{}` is not an atom id (a whole number)", fields[c.id]),
                ));
                0
            }
        };
        for k in 0..3 {
            let v = num(c.pos[k], "position", &mut issues).unwrap_or(0.0);
            a.position.push(if c.scaled[k] {
                b.lo[k] + v * (b.hi[k] - b.lo[k])
            } else {
                v
            });
        }
        let size_name = if c.diameter { "diameter" } else { "radius" };
        let size = num(c.size, size_name, &mut issues);
        let r = size.map_or(1.0, |v| if c.diameter { 0.5 * v } else { v });
        if let Some(size) = size
            && size <= 0.0
        {
            issues.push(Diagnostic::new(
                field_span(text, s, c.size),
                format!("a {size_name} must be positive, this is {size}"),
            ));
        }
        let mass_name = if c.density { "density" } else { "mass" };
        let m = num(c.mass, mass_name, &mut issues);
        if let Some(m) = m
            && m <= 0.0
        {
            issues.push(Diagnostic::new(
                field_span(text, s, c.mass),
                format!("a {mass_name} must be positive, this is {m}"),
            ));
        }
        let m = m.unwrap_or(1.0);
        let mass = if c.density {
            m * 4.0 / 3.0 * std::f64::consts::PI * r * r * r
        } else {
            m
        };
        a.id.push(id);
        a.radius.push(r);
        a.mass.push(mass);
        a.line.push(s);
        if let Some(v) = c.vel {
            // A velocity that is not a number is no speed (the columns
            // are read for the model checks only).
            let speed = v
                .iter()
                .map(|&k| fields[k].parse::<f64>().unwrap_or(f64::NAN))
                .map(|x| x * x)
                .sum::<f64>()
                .sqrt();
            a.speed.push(speed);
        }
        if issues.len() >= super::MAX_ISSUES {
            break;
        }
    }
    if issues.is_empty() {
        Ok(a)
    } else {
        issues.truncate(super::MAX_ISSUES);
        Err(issues)
    }
}
