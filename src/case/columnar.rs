//! Large `[[body]]` and `[[contact]]` arrays read one table at a time
//! straight into columns (the `[scene]` representation), so that a
//! generated case of 10⁵ bodies is read in a few times its size rather than
//! ~19× (the whole TOML tree at once, plus a [`Val`] — text, expression,
//! span — for each of its millions of numbers).
//!
//! 1. [`find_run`] finds the run of `[[body]]`/`[[contact]]` tables. It
//!    starts at a `[[body]]` or `[[contact]]` line before which the text
//!    parses as TOML on its own (so the line is at the top level, not
//!    inside a string or an array), and every line of it is blank, a
//!    comment, one of those two headers, or a one-line `key = value` whose
//!    value is a plain string, a number or a one-line array of those, so
//!    none can open a multi-line string or array; it ends at the next other
//!    header.
//! 2. The rest of the file, before and after the run, is parsed as usual
//!    and its spans are moved back to their places in the file.
//! 3. Each table of the run is parsed alone, its spans moved to its place
//!    in the file, and read by the ordinary [`Reader::body`] and
//!    [`Reader::contact`]: the same checks, in the same words. Its SI
//!    values then go into the columns and the table is dropped.
//!
//! Only files with more contacts than the dense limit take this path
//! (large systems get no closed forms and show no value as typed, so
//! nothing a scene lacks is missed). What it does not cover sends the whole
//! file down the ordinary path:
//! a run with any other kind of line, values that depend on parameters,
//! particles, full inertia tensors, damping on some contacts only, joints,
//! `[model]`, `[scene]`, `[generalized]`, engines, persons — and any
//! diagnostic at all, so that a faulty file is reported exactly as before.
//! Downstream the case is a scene's: the same model, the same numbers
//! (tested: identical reports either way).

use super::read::*;
use super::scene::{Scene, SceneData, WORLD};
use super::types::*;
use toml::Spanned;

/// Files smaller than this take the ordinary path without being scanned.
pub const MIN_BYTES: usize = 256 << 10;

/// One `[[body]]` or `[[contact]]` table of the run: bytes `start..end`.
#[derive(Clone, Debug)]
pub(super) struct Piece {
    start: usize,
    end: usize,
    contact: bool,
}

/// The run of body and contact tables: bytes `start..end` of the file.
#[derive(Clone, Debug)]
pub(super) struct Run {
    start: usize,
    end: usize,
    tables: Vec<Piece>,
}

fn is_run_header(t: &str) -> Option<bool> {
    match t {
        "[[body]]" => Some(false),
        "[[contact]]" => Some(true),
        _ => None,
    }
}

/// The run of simple body and contact tables, if the file has one.
pub(super) fn find_run(source: &str) -> Option<Run> {
    let mut at = 0;
    let mut start = None;
    for line in source.split_inclusive('\n') {
        if is_run_header(line.trim()).is_some() {
            start = Some(at);
            break;
        }
        at += line.len();
    }
    let start = start?;
    // The header is at the top level only if what precedes it is whole.
    DeTable::parse(&source[..start]).ok()?;
    let mut tables: Vec<Piece> = Vec::new();
    let mut end = source.len();
    let mut at = start;
    for line in source[start..].split_inclusive('\n') {
        let t = line.trim();
        if let Some(contact) = is_run_header(t) {
            if let Some(last) = tables.last_mut() {
                last.end = at;
            }
            tables.push(Piece {
                start: at,
                end: source.len(),
                contact,
            });
        } else if t.starts_with('[') {
            end = at;
            break;
        } else if !(t.is_empty() || t.starts_with('#') || simple_line(t)) {
            return None;
        }
        at += line.len();
    }
    if let Some(last) = tables.last_mut() {
        last.end = end;
    }
    Some(Run { start, end, tables })
}

/// `key = value` on one line, a bare key and a plain value, then at most a
/// comment.
fn simple_line(t: &str) -> bool {
    let Some((key, rest)) = t.split_once('=') else {
        return false;
    };
    let key = key.trim();
    if key.is_empty()
        || !key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return false;
    }
    match simple_value(rest.trim_start()) {
        Some(rest) => {
            let rest = rest.trim_start();
            rest.is_empty() || rest.starts_with('#')
        }
        None => false,
    }
}

/// One plain value at the start of `v` (a one-line array of plain scalars,
/// or a scalar); the text after it.
fn simple_value(v: &str) -> Option<&str> {
    let Some(mut r) = v.strip_prefix('[') else {
        return simple_scalar(v);
    };
    loop {
        r = r.trim_start();
        if let Some(rest) = r.strip_prefix(']') {
            return Some(rest);
        }
        r = simple_scalar(r)?.trim_start();
        match r.strip_prefix(',') {
            Some(rest) => r = rest,
            None => return r.strip_prefix(']'),
        }
    }
}

/// A basic string without escapes, or a bare token (number, boolean): the
/// TOML parse of the table judges whether it is valid; here it only must
/// not open anything that spans lines.
fn simple_scalar(v: &str) -> Option<&str> {
    if let Some(r) = v.strip_prefix('"') {
        if r.starts_with("\"\"") {
            return None; // `"""`: a multi-line string
        }
        let close = r.find(['"', '\\'])?;
        return (r.as_bytes()[close] == b'"').then(|| &r[close + 1..]);
    }
    let len = v
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || b"_.+-:".contains(b))
        .count();
    (len > 0).then(|| &v[len..])
}

/// Moves every span by `f`.
fn shift_value<'i>(
    v: Spanned<DeValue<'i>>,
    f: &impl Fn(Range<usize>) -> Range<usize>,
) -> Spanned<DeValue<'i>> {
    let span = f(v.span());
    let inner = match v.into_inner() {
        DeValue::Array(mut a) => {
            for item in a.iter_mut() {
                let taken = std::mem::replace(item, Spanned::new(0..0, DeValue::Boolean(false)));
                *item = shift_value(taken, f);
            }
            DeValue::Array(a)
        }
        DeValue::Table(t) => DeValue::Table(shift_table(t, f)),
        other => other,
    };
    Spanned::new(span, inner)
}

/// Moves every span of a table (keys included) by `f`.
fn shift_table<'i>(t: DeTable<'i>, f: &impl Fn(Range<usize>) -> Range<usize>) -> DeTable<'i> {
    t.into_iter()
        .map(|(k, v)| {
            let ks = f(k.span());
            (Spanned::new(ks, k.into_inner()), shift_value(v, f))
        })
        .collect()
}

/// The table of one piece, with spans in the file, and its span.
fn piece_table<'s>(source: &'s str, piece: &Piece) -> Option<(DeTable<'s>, Range<usize>)> {
    let root = DeTable::parse(&source[piece.start..piece.end])
        .ok()?
        .into_inner();
    if root.len() != 1 {
        return None;
    }
    let base = piece.start;
    let root = shift_table(root, &|r: Range<usize>| r.start + base..r.end + base);
    let (_, value) = root.into_iter().next()?;
    let DeValue::Array(mut items) = value.into_inner() else {
        return None;
    };
    if items.len() != 1 {
        return None;
    }
    let first = items.iter_mut().next()?;
    let item = std::mem::replace(first, Spanned::new(0..0, DeValue::Boolean(false)));
    let span = item.span();
    match item.into_inner() {
        DeValue::Table(t) => Some((t, span)),
        _ => None,
    }
}

/// A value that is a number or a quantity literal (no parameters, π or
/// functions): its SI value does not depend on the case's parameters.
fn literal(v: &Val) -> Option<f64> {
    fn lit(e: &crate::expr::Expr) -> bool {
        match &e.kind {
            ExprKind::Number(_) | ExprKind::Quantity(..) => true,
            ExprKind::Neg(x) => lit(x),
            _ => false,
        }
    }
    lit(&v.expr).then_some(v.si)
}

/// Keys of the rest of the file that this path does not cover.
const NOT_COVERED: &[&str] = &[
    "body",
    "contact",
    "joint",
    "model",
    "scene",
    "generalized",
    "constraint",
    "engine",
    "person",
    "impact",
];

/// Reads a large case through its run of body and contact tables;
/// `None` when the ordinary path must read it (see the module text).
pub(super) fn read(path: &str, source: &str) -> Option<Case> {
    let run = find_run(source)?;
    crate::timing::mark("columnar-run");
    // Only cases for the large-system path: there no closed forms are
    // derived and no value is shown as typed, so nothing a scene lacks is
    // missed.
    if run.tables.iter().filter(|p| p.contact).count() <= crate::limits::DENSE_CONTACT_LIMIT {
        return None;
    }
    let mut rest = String::with_capacity(source.len() - (run.end - run.start));
    rest.push_str(&source[..run.start]);
    rest.push_str(&source[run.end..]);
    let root = DeTable::parse(&rest).ok()?.into_inner();
    let (at, by) = (run.start, run.end - run.start);
    let root = shift_table(root, &|r: Range<usize>| {
        let s = if r.start >= at { r.start + by } else { r.start };
        let e = if r.end > at { r.end + by } else { r.end };
        s..e
    });
    if NOT_COVERED.iter().any(|k| get(&root, k).is_some()) {
        return None;
    }
    let mut r = Reader::new(source, None);
    r.columnar = Some(run);
    let case = r.case(path, &root, 0..source.len());
    // A columnar scene that gives up makes `case` None.
    (r.diags.is_empty() && r.foreign.is_none())
        .then_some(case)
        .flatten()
}

impl Reader<'_> {
    /// The run's bodies and contacts as a scene; `None` when the ordinary
    /// path must read the file.
    pub(super) fn columnar_scene(&mut self, run: &Run, space: Space) -> Option<Scene> {
        if space == Space::Line {
            return None;
        }
        let d = space.dim();
        let source = self.source;
        let mut data = SceneData::default();
        let mut body_names = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for piece in run.tables.iter().filter(|p| !p.contact) {
            let (t, span) = piece_table(source, piece)?;
            let b = self.body(&t, span, space, &mut seen)?;
            let fixed = match &b.kind {
                BodyKind::Fixed => {
                    data.mass.push(0.0);
                    data.inertia
                        .extend(std::iter::repeat_n(0.0, if d == 3 { 6 } else { 1 }));
                    true
                }
                BodyKind::Rigid { mass, inertia } => {
                    data.mass.push(literal(mass)?);
                    match inertia {
                        InertiaVal::Diagonal(v) if d == 3 => {
                            for x in v {
                                data.inertia.push(literal(x)?);
                            }
                            data.inertia.extend([0.0; 3]);
                        }
                        InertiaVal::Scalar(v) if d == 2 => data.inertia.push(literal(v)?),
                        _ => return None,
                    }
                    false
                }
                BodyKind::Particle { .. } => return None,
            };
            for x in &b.position {
                data.position.push(literal(x)?);
            }
            data.fixed.push(fixed);
            body_names.push(b.name);
        }
        crate::timing::mark("columnar-bodies");
        self.body_index = body_names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i))
            .collect();
        // The contact reader asks only whether a body is fixed (`data.fixed`).
        let form = Form::Bodies {
            bodies: Vec::new(),
            joints: Vec::new(),
        };
        let mut contact_names = Vec::new();
        let mut damping = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for piece in run.tables.iter().filter(|p| p.contact) {
            let (t, span) = piece_table(source, piece)?;
            let c = self.contact(&t, span, &form, &data.fixed, &body_names, space, &mut seen)?;
            let ContactGeometry::Point {
                body,
                other,
                point,
                normal,
            } = &c.geometry
            else {
                return None;
            };
            data.body.push(u32::try_from(*body).ok()?);
            data.other.push(match other {
                Some(o) => u32::try_from(*o).ok().filter(|&o| o != WORLD)?,
                None => WORLD,
            });
            if point.len() != d || normal.len() != d {
                return None;
            }
            for x in point {
                data.point.push(literal(x)?);
            }
            for x in normal {
                data.normal.push(literal(x)?);
            }
            data.stiffness.push(literal(&c.stiffness)?);
            // Damping on every contact or on none (a scene's column).
            match &c.damping {
                Some(v) if damping.len() == contact_names.len() => damping.push(literal(v)?),
                None if damping.is_empty() => {}
                _ => return None,
            }
            contact_names.push(c.name);
        }
        crate::timing::mark("columnar-contacts");
        if contact_names.is_empty() {
            return None;
        }
        data.damping = (!damping.is_empty()).then_some(damping);
        data.body_names = Some(body_names);
        data.contact_names = Some(contact_names);
        Some(Scene {
            span: run.start..run.start,
            files: Vec::new(),
            sha256: Vec::new(),
            data,
            dump: None,
            overlap: None,
            part: None,
            near: None,
            settings: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_simple_one_line_values_make_a_run() {
        for ok in [
            "mass = \"2 kg\"",
            "normal = [0.6, -0.8, 0] # unit",
            "name = \"\"",
            "x = -1.5e-3",
            "a = []",
        ] {
            assert!(simple_line(ok), "{ok}");
        }
        for not in [
            "a = \"\"\"",
            "a = \"x\\\"y\"",
            "a = 'x'",
            "a = [",
            "a = {x = 1}",
            "a.b = 1",
            "a = [[1, 2]]",
            "\"a\" = 1",
            "a = \"open",
        ] {
            assert!(!simple_line(not), "{not}");
        }
    }

    #[test]
    fn a_header_inside_a_string_starts_no_run() {
        let s = "description = \"\"\"\n[[body]]\nname = \"b\"\n\"\"\"\n[[contact]]\nname = \"c\"\n";
        // The first header-looking line is inside the string: the text
        // before it does not parse, so there is no run.
        assert!(find_run(s).is_none());
        let s = "title = \"t\"\n[[body]]\nname = \"b\"\n\n[[contact]]\nname = \"c\"\n[verify]\nperiods = 3\n";
        let run = find_run(s).unwrap();
        assert_eq!(
            &s[run.start..run.end],
            "[[body]]\nname = \"b\"\n\n[[contact]]\nname = \"c\"\n"
        );
        assert_eq!(run.tables.len(), 2);
        assert!(run.tables[1].contact);
    }
}
