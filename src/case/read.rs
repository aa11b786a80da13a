//! Reading a spanned TOML tree into a [`Case`], collecting every problem.

use super::scene_table::FileAccess;
use super::types::*;
use crate::diag::SourceError;
pub(super) use crate::diag::{Diagnostic, closest};
pub(super) use crate::expr::{self, Expr, ExprError, ExprKind, Value};
pub use crate::linalg::cholesky_failure;
pub(super) use crate::units::{self, Dim};
pub(super) use std::ops::Range;
use toml::Spanned;
pub(super) use toml::de::{DeTable, DeValue};

pub(super) type Node<'i> = Spanned<DeValue<'i>>;

/// The most problems reported for one file.
pub const MAX_DIAGNOSTICS: usize = 100;

/// Relative tolerance on the length of a normal (the case format (docs/case-format.md)).
pub const NORMAL_TOLERANCE: f64 = 1e-9;

/// The largest case file read by default (1 GiB: a 10⁶-contact case fits).
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

pub(super) struct Reader<'s> {
    pub(super) source: &'s str,
    pub(super) diags: Vec<Diagnostic>,
    pub(super) env: Env,
    pub(super) params: Vec<String>,
    /// Parameter names → index in `params` (a case may define 10⁶).
    pub(super) param_index: std::collections::HashMap<String, usize>,
    pub(super) coords: Vec<String>,
    /// Every body name declared, valid or not, so that a bad body does not
    /// also make each contact naming it an error.
    pub(super) declared_bodies: std::collections::HashSet<String>,
    /// Every contact name declared, valid or not, so that a claim on a
    /// contact with an error is not reported again as "unknown contact".
    pub(super) declared_contacts: std::collections::HashSet<String>,
    /// Span of each parameter's value, for errors at the definition.
    pub(super) param_defs: std::collections::HashMap<String, Range<usize>>,
    /// Parameters already reported as used with the wrong dimension.
    pub(super) misused_params: std::collections::HashSet<String>,
    /// Valid bodies by name (lookups are by hash: cases have up to 10⁵ bodies).
    pub(super) body_index: std::collections::HashMap<String, usize>,
    /// How `[scene]` files are read (`None`: they are not).
    pub(super) files: Option<FileAccess>,
    /// A problem in another file (a scene's CSV), shown in that file.
    pub(super) foreign: Option<SourceError>,
    /// The run of body and contact tables to read into columns
    /// (`columnar.rs`), when the file takes that path.
    pub(super) columnar: Option<super::columnar::Run>,
    /// The case has an `[engine.*]` table: a contact may leave out its
    /// stiffness and take the engine's.
    pub(super) engine_present: bool,
    /// Columns given in memory (`case_from_columns`), taken as the
    /// case's `[scene]`.
    pub(super) given_scene: Option<super::scene::SceneData>,
    /// Impacts read: name, struck and resting contacts (for claims).
    pub(super) impact_index: Vec<(String, Vec<usize>, Vec<usize>)>,
    /// Values named once for the compositions that use them (`pose.rs`).
    pub(super) derived: Vec<Derived>,
    /// A value already named: (span, hash of its text) → its name.
    pub(super) named: std::collections::HashMap<(usize, usize, u64), String>,
    /// Rules on values that depend on parameters (`rules.rs`).
    pub(super) checks: Vec<super::rules::Check>,
    /// Every body angle as typed (planar `angle`, `rpy`, `axis_angle`).
    pub(super) angles: Vec<Val>,
}

impl<'s> Reader<'s> {
    /// A reader of `source`, with nothing read yet.
    pub(super) fn new(source: &'s str, files: Option<FileAccess>) -> Reader<'s> {
        Reader {
            source,
            diags: Vec::new(),
            env: Env::default(),
            params: Vec::new(),
            param_index: Default::default(),
            coords: Vec::new(),
            declared_bodies: Default::default(),
            declared_contacts: Default::default(),
            param_defs: Default::default(),
            misused_params: Default::default(),
            body_index: Default::default(),
            files,
            foreign: None,
            columnar: None,
            engine_present: false,
            impact_index: Vec::new(),
            given_scene: None,
            derived: Vec::new(),
            named: Default::default(),
            checks: Vec::new(),
            angles: Vec::new(),
        }
    }
}

/// A TOML integer or float as a number (`None` for anything else).
pub(super) fn toml_number(node: &Node) -> Option<f64> {
    match node.get_ref() {
        DeValue::Integer(i) => i.as_str().replace('_', "").parse::<f64>().ok(),
        DeValue::Float(f) => f.as_str().replace('_', "").parse::<f64>().ok(),
        _ => None,
    }
}

pub(super) fn get<'t, 'i>(table: &'t DeTable<'i>, key: &str) -> Option<&'t Node<'i>> {
    table
        .iter()
        .find(|(k, _)| k.get_ref() == key)
        .map(|(_, v)| v)
}

/// Every table of a case file and the keys it accepts (the reader refuses
/// others; `docs/case-format.md` documents each, which a test checks).
pub const KEYS: &[(&str, &[&str])] = &[
    ("the case file", ROOT_KEYS),
    ("[parameters] table", PARAMETER_KEYS),
    ("[[body]]", BODY_KEYS),
    ("[[contact]]", CONTACT_KEYS),
    ("[[contact]] (generalized)", CONTACT_GENERALIZED_KEYS),
    ("[[contact]] (model)", CONTACT_MODEL_KEYS),
    ("[model]", super::robot_table::MODEL_KEYS),
    ("[[person]]", super::person::PERSON_KEYS),
    ("[[impact]]", super::impact::IMPACT_KEYS),
    ("[motion]", super::motion::MOTION_KEYS),
    ("[[waypoint]]", super::motion::WAYPOINT_KEYS),
    ("[[hazard]]", super::motion::HAZARD_KEYS),
    ("[[region]]", super::motion::REGION_KEYS),
    ("[map]", super::map::MAP_KEYS),
    ("[[payload]]", super::payload::PAYLOAD_KEYS),
    ("[[joint]]", JOINT_KEYS),
    ("[generalized]", GENERALIZED_KEYS),
    ("a coordinate", COORDINATE_KEYS),
    ("[[constraint]]", CONSTRAINT_KEYS),
    ("[[claim]]", CLAIM_KEYS),
    ("[[sweep]]", SWEEP_KEYS),
    ("[verify]", VERIFY_KEYS),
    ("[display]", DISPLAY_KEYS),
    ("[document]", super::document::DOCUMENT_KEYS),
    ("[revision]", super::previous::REVISION_KEYS),
    ("[analysis]", ANALYSIS_KEYS),
    ("[scene]", super::scene_table::SCENE_KEYS),
    ("[engine.mujoco]", super::engine_table::MUJOCO_KEYS),
    ("[engine.box2d]", super::engine_table::BOX2D_KEYS),
    ("[engine.bullet]", super::engine_table::BULLET_KEYS),
    ("[engine.drake]", super::engine_table::DRAKE_KEYS),
    ("[engine.rapier]", super::engine_table::RAPIER_KEYS),
    ("[scene] units", super::scene_table::SCENE_UNIT_KEYS),
    ("[scene] contact", super::dump_table::DUMP_CONTACT_KEYS),
    ("[scene] planes", super::dump_table::PLANE_KEYS),
];

pub(super) const PARAMETER_KEYS: &[&str] = &["value", "description", "symbol"];
pub(super) const BODY_KEYS: &[&str] = &[
    "name",
    "type",
    "mass",
    "inertia",
    "shape",
    "orientation",
    "angle",
    "position",
    "description",
];
pub(super) const CONTACT_KEYS: &[&str] = &[
    "name",
    "body",
    "other",
    "frame",
    "point",
    "normal",
    "stiffness",
    "damping",
    "description",
    "tangential_stiffness",
    "tangential_ratio",
    "tangential_damping",
    "tangent",
    "law",
    "modulus",
    "radius",
    "hertz_coefficient",
    "overlap",
    "load",
    "impact_speed",
    "shear_modulus",
    "material",
    "other_material",
    "mindlin",
];
pub(super) const CONTACT_MODEL_KEYS: &[&str] = &[
    "name",
    "body",
    "other",
    "point",
    "normal",
    "frame",
    "normal_frame",
    "stiffness",
    "damping",
    "description",
];
pub(super) const CONTACT_GENERALIZED_KEYS: &[&str] =
    &["name", "jacobian", "stiffness", "damping", "description"];
pub(super) const JOINT_KEYS: &[&str] = &["type", "bodies", "point", "name", "description"];
pub(super) const GENERALIZED_KEYS: &[&str] = &["coordinates", "mass_matrix"];
pub(super) const COORDINATE_KEYS: &[&str] = &["name", "unit", "description"];
pub(super) const CONSTRAINT_KEYS: &[&str] = &["jacobian", "name", "description"];
pub(super) const CLAIM_KEYS: &[&str] = &["of", "equals", "rel_tol", "description"];
pub(super) const SWEEP_KEYS: &[&str] = &["parameter", "from", "to", "points", "plot"];
pub(super) const VERIFY_KEYS: &[&str] = &[
    "impulse",
    "compression",
    "periods",
    "levels",
    "preload",
    "dt0",
];
pub(super) const DISPLAY_KEYS: &[&str] = &["omega", "mass", "time"];
pub(super) const ANALYSIS_KEYS: &[&str] = &["modes", "path"];

pub(super) const ROOT_KEYS: &[&str] = &[
    "title",
    "description",
    "space",
    "parameters",
    "body",
    "contact",
    "joint",
    "generalized",
    "constraint",
    "claim",
    "sweep",
    "verify",
    "analysis",
    "display",
    "scene",
    "model",
    "person",
    "impact",
    "engine",
    "document",
    "revision",
    "motion",
    "waypoint",
    "hazard",
    "region",
    "payload",
    "map",
];

impl Reader<'_> {
    pub(super) fn error(&mut self, d: Diagnostic) {
        // Bounded: a file with a million bad lines gets the first ones.
        if self.diags.len() < MAX_DIAGNOSTICS {
            self.diags.push(d);
        } else if self.diags.len() == MAX_DIAGNOSTICS {
            self.diags.push(Diagnostic::new(
                d.span,
                format!("more than {MAX_DIAGNOSTICS} problems; the rest are not reported"),
            ));
        }
    }

    /// Unknown keys are errors with a "did you mean" hint.
    pub(super) fn keys(&mut self, table: &DeTable, allowed: &[&str], what: &str) {
        for (k, _) in table.iter() {
            let key = k.get_ref().as_ref();
            if !allowed.contains(&key) {
                let d = Diagnostic::new(k.span(), format!("unknown key `{key}` in {what}"));
                let d = match closest(key, allowed.iter().copied()) {
                    Some(best) => d.hint(format!("did you mean `{best}`?")),
                    None => d.hint(format!("expected one of: {}", allowed.join(", "))),
                };
                self.error(d);
            }
        }
    }

    pub(super) fn required<'t, 'i>(
        &mut self,
        table: &'t DeTable<'i>,
        key: &str,
        what: &str,
        span: &Range<usize>,
    ) -> Option<&'t Node<'i>> {
        let node = get(table, key);
        if node.is_none() {
            self.error(Diagnostic::new(
                header(span),
                format!("{what} is missing `{key}`"),
            ));
        }
        node
    }

    /// A string naming one of `choices` (its first `shown` spellings are
    /// the ones hints offer; the rest are accepted aliases). An unknown one
    /// is reported at the value — "unknown {what} `…`", the closest
    /// spelling, the list — and gives `None`. `key` names the key in the
    /// hint, `what` the value in the message.
    pub(super) fn choice<V: Copy>(
        &mut self,
        node: &Node,
        (key, what): (&str, &str),
        choices: &[(&str, V)],
        shown: usize,
    ) -> Option<V> {
        let s = self.string(node, &format!("`{key}`"))?;
        if let Some((_, v)) = choices.iter().find(|(name, _)| *name == s) {
            return Some(*v);
        }
        let names = || choices[..shown].iter().map(|(n, _)| *n);
        let list = names()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", ");
        let d = Diagnostic::new(node.span(), format!("unknown {what} `{s}`"))
            .maybe_hint(closest(&s, names()).map(|b| format!("did you mean `{b}`?")))
            .hint(format!("{key} is one of {list}"));
        self.error(d);
        None
    }

    pub(super) fn string(&mut self, node: &Node, what: &str) -> Option<String> {
        match node.get_ref() {
            DeValue::String(s) => Some(s.to_string()),
            other => {
                self.error(Diagnostic::new(
                    node.span(),
                    format!("{what} must be a string, found {}", other.type_str()),
                ));
                None
            }
        }
    }

    pub(super) fn table<'t, 'i>(
        &mut self,
        node: &'t Node<'i>,
        what: &str,
    ) -> Option<&'t DeTable<'i>> {
        match node.get_ref() {
            DeValue::Table(t) => Some(t),
            other => {
                self.error(Diagnostic::new(
                    node.span(),
                    format!("{what} must be a table, found {}", other.type_str()),
                ));
                None
            }
        }
    }

    pub(super) fn array<'t, 'i>(
        &mut self,
        node: &'t Node<'i>,
        what: &str,
    ) -> Option<&'t [Node<'i>]> {
        match node.get_ref() {
            DeValue::Array(a) => Some(a),
            other => {
                self.error(Diagnostic::new(
                    node.span(),
                    format!("{what} must be an array, found {}", other.type_str()),
                ));
                None
            }
        }
    }

    pub(super) fn integer(
        &mut self,
        node: &Node,
        what: &str,
        range: std::ops::RangeInclusive<i64>,
    ) -> Option<usize> {
        let value = match node.get_ref() {
            DeValue::Integer(i) => {
                i64::from_str_radix(&i.as_str().replace('_', ""), i.radix()).ok()
            }
            _ => None,
        };
        match value {
            Some(v) if range.contains(&v) => Some(v as usize),
            _ => {
                self.error(Diagnostic::new(
                    node.span(),
                    format!(
                        "{what} must be an integer from {} to {}",
                        range.start(),
                        range.end()
                    ),
                ));
                None
            }
        }
    }

    pub(super) fn float(&mut self, node: &Node, what: &str) -> Option<f64> {
        match toml_number(node) {
            Some(v) if v.is_finite() && v > 0.0 => Some(v),
            _ => {
                self.error(Diagnostic::new(
                    node.span(),
                    format!("{what} must be a positive number"),
                ));
                None
            }
        }
    }

    /// Byte offset of a string value's content in the file, when the content
    /// appears there verbatim (no escapes), so expression errors can point
    /// inside the string.
    pub(super) fn content_offset(&self, span: &Range<usize>, content: &str) -> Option<usize> {
        let raw = self.source.get(span.clone())?;
        for quote in ["\"\"\"", "'''", "\"", "'"] {
            if raw.starts_with(quote) && raw.len() >= 2 * quote.len() {
                let inner = &raw[quote.len()..raw.len() - quote.len()];
                return (inner == content).then_some(span.start + quote.len());
            }
        }
        None
    }

    pub(super) fn expr_diag(
        &self,
        e: ExprError,
        span: &Range<usize>,
        offset: Option<usize>,
    ) -> Diagnostic {
        let span = match offset {
            Some(o) => o + e.span.start..o + e.span.end,
            None => span.clone(),
        };
        let mut d = Diagnostic::new(span, e.message);
        d.hints = e.hints;
        d
    }

    /// Parses a value node (string, or a number where allowed) into an
    /// expression, with its file span and content offset.
    pub(super) fn parse_value(
        &mut self,
        node: &Node,
        what: &str,
        dim: Option<Dim>,
    ) -> Option<(String, Expr, Option<usize>)> {
        let span = node.span();
        let (text, offset) = match node.get_ref() {
            DeValue::String(s) => {
                let offset = self.content_offset(&span, s);
                if let Some(m) = super::tolerance::marker(s) {
                    let at = offset.map_or(span.clone(), |o| o + m.start..o + m.end);
                    self.error(
                        Diagnostic::new(at, format!("{what}: a tolerance is written on a `[parameters]` value, not here"))
                            .hint("define a parameter with the tolerance (`x = \"2 kg ± 5 %\"`) and use its name here"),
                    );
                    return None;
                }
                (s.to_string(), offset)
            }
            DeValue::Integer(_) | DeValue::Float(_) => {
                let raw = match node.get_ref() {
                    DeValue::Integer(i) => i.as_str().replace('_', ""),
                    DeValue::Float(f) => f.as_str().replace('_', ""),
                    _ => unreachable!(),
                };
                let parsed = raw.parse::<f64>();
                if parsed.as_ref().is_ok_and(|v| !v.is_finite()) {
                    self.error(Diagnostic::new(
                        span,
                        format!("{what} must be a finite number, this is `{raw}`"),
                    ));
                    return None;
                }
                let zero = parsed.is_ok_and(|v| v == 0.0);
                if let Some(d) = dim
                    && !d.is_none()
                    && !zero
                {
                    self.error(
                        Diagnostic::new(span, format!("{what} needs a unit ({d}); bare numbers are only for dimensionless values"))
                            .hint(format!("write it as a string with a unit, such as \"{raw} {}\"", example_unit(d))),
                    );
                    return None;
                }
                (raw, Some(span.start))
            }
            other => {
                self.error(Diagnostic::new(
                    span,
                    format!(
                        "{what} must be a string such as \"2 kg\", found {}",
                        other.type_str()
                    ),
                ));
                return None;
            }
        };
        match expr::parse(&text) {
            Ok(e) => Some((text, e, offset)),
            Err(e) => {
                let d = self.expr_diag(e, &span, offset);
                self.error(d);
                None
            }
        }
    }

    /// Checks the names an expression uses against the parameters.
    pub(super) fn check_names(
        &mut self,
        e: &Expr,
        span: &Range<usize>,
        offset: Option<usize>,
    ) -> bool {
        let mut ok = true;
        for (name, name_span) in e.params() {
            if self.param_index.contains_key(name) {
                continue;
            }
            let err = ExprError::new(name_span, format!("unknown parameter `{name}`"));
            let mut d = self.expr_diag(err, span, offset);
            if self.coords.iter().any(|c| c == name) {
                d = d.hint("coordinate names stand for velocities; give the configuration as a parameter (such as q1 = \"30 deg\")");
            } else if let Some(best) = closest(name, self.params.iter().map(String::as_str)) {
                d = d.hint(format!("did you mean `{best}`?"));
            } else if self.params.is_empty() {
                d = d.hint("define it under [parameters]");
            } else {
                let list: Vec<&str> = self.params.iter().take(12).map(String::as_str).collect();
                let more = if self.params.len() > 12 { ", …" } else { "" };
                d = d.hint(format!("parameters: {}{more}", list.join(", ")));
            }
            self.error(d);
            ok = false;
        }
        ok
    }

    /// A physical value of dimension `dim`.
    pub(super) fn value(&mut self, node: &Node, dim: Dim, what: &str) -> Option<Val> {
        let span = node.span();
        let (text, e, offset) = self.parse_value(node, what, Some(dim))?;
        if !self.check_names(&e, &span, offset) {
            return None;
        }
        // A parameter that was declared but is itself invalid has already
        // been reported; do not report every use of it again.
        if e.params()
            .iter()
            .any(|(name, _)| !self.env.values.contains_key(*name))
        {
            return None;
        }
        let v = match self.env.eval(&e) {
            Ok(v) => v,
            Err(err) => {
                let d = self.expr_diag(err, &span, offset);
                self.error(d);
                return None;
            }
        };
        // "1/60 s" is read as 1/(60 s); when that has the wrong dimension and
        // (1/60) s the right one, the latter is what was meant.
        if !v.fits(dim)
            && let Some(alt) = unit_on_fraction(&e)
            && let Ok(w) = self.env.eval(&alt)
            && w.fits(dim)
        {
            return Some(Val {
                text,
                expr: alt,
                span,
                si: w.si,
                dim,
            });
        }
        if !v.fits(dim) {
            let got = v.dim.unwrap_or(Dim::NONE);
            // The value is one parameter: the mistake is in its definition.
            let single = match &e.kind {
                ExprKind::Param(name) => Some(name.clone()),
                ExprKind::Neg(inner) => match &inner.kind {
                    ExprKind::Param(name) => Some(name.clone()),
                    _ => None,
                },
                _ => None,
            };
            if let Some(name) = single
                && let Some(def) = self.param_defs.get(&name).cloned()
            {
                if self.misused_params.insert(name.clone()) {
                    let (line, col) = crate::diag::line_col(self.source, span.start);
                    self.error(
                        Diagnostic::new(
                            def,
                            format!("parameter `{name}` is in {got}, but it is used as {what}, which must be in {dim}"),
                        )
                        .hint(format!("used at line {line}, column {col}"))
                        .hint(format!(
                            "expected a {} such as \"1 {}\"",
                            dim_name(dim),
                            example_unit(dim)
                        )),
                    );
                }
                return None;
            }
            self.error(
                Diagnostic::new(
                    span.clone(),
                    format!("{what} must be in {dim}, but this is in {got}"),
                )
                .hint(format!(
                    "expected a {} such as \"1 {}\"",
                    dim_name(dim),
                    example_unit(dim)
                )),
            );
            return None;
        }
        Some(Val {
            text,
            expr: e,
            span,
            si: v.si,
            dim,
        })
    }

    pub(super) fn positive(&mut self, v: Option<Val>, what: &str) -> Option<Val> {
        let v = v?;
        let span = v.span.clone();
        self.rule(
            super::rules::Rule::Positive,
            what,
            std::slice::from_ref(&v),
            span,
        )
        .then_some(v)
    }

    /// A list of exactly `n` values of dimension `dim`.
    pub(super) fn vector(
        &mut self,
        node: &Node,
        n: usize,
        dim: Dim,
        what: &str,
    ) -> Option<Vec<Val>> {
        let items = self.array(node, what)?;
        if items.len() != n {
            self.error(Diagnostic::new(
                node.span(),
                format!(
                    "{what} must have {n} component{}, found {}",
                    if n == 1 { "" } else { "s" },
                    items.len()
                ),
            ));
            return None;
        }
        let vals: Vec<Option<Val>> = items
            .iter()
            .map(|item| self.value(item, dim, what))
            .collect();
        vals.into_iter().collect()
    }
}

/// `a / (b unit)` → `(a unit) / b`: the reading of `1/60 s` as a time.
pub(super) fn unit_on_fraction(e: &crate::expr::Expr) -> Option<crate::expr::Expr> {
    use crate::expr::{BinOp, Expr, ExprKind};
    let ExprKind::Binary(BinOp::Div, l, r) = &e.kind else {
        return None;
    };
    let (ExprKind::Number(a), ExprKind::Quantity(b, unit)) = (&l.kind, &r.kind) else {
        return None;
    };
    Some(Expr {
        kind: ExprKind::Binary(
            BinOp::Div,
            Box::new(Expr {
                kind: ExprKind::Quantity(a.clone(), unit.clone()),
                span: l.span.clone(),
            }),
            Box::new(Expr {
                kind: ExprKind::Number(b.clone()),
                span: r.span.clone(),
            }),
        ),
        span: e.span.clone(),
    })
}

/// The span of a table's first line (its header), for "missing key" errors.
pub(super) fn header(span: &Range<usize>) -> Range<usize> {
    span.start..span.start
}

pub(super) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

pub(super) fn zero_val(dim: Dim) -> Val {
    Val {
        text: "0".into(),
        expr: expr::parse("0").expect("literal zero parses"),
        span: 0..0,
        si: 0.0,
        dim,
    }
}

pub(super) fn example_unit(d: Dim) -> String {
    match d {
        Dim::MASS => "kg".into(),
        Dim::LENGTH => "m".into(),
        Dim::INERTIA => "kg m^2".into(),
        Dim::STIFFNESS => "N/m".into(),
        Dim::DAMPING => "N s/m".into(),
        Dim::FORCE => "N".into(),
        Dim::IMPULSE => "N s".into(),
        Dim::TIME => "s".into(),
        other => other.to_string(),
    }
}

pub(super) fn dim_name(d: Dim) -> &'static str {
    match d {
        Dim::MASS => "mass",
        Dim::LENGTH => "length",
        Dim::INERTIA => "moment of inertia",
        Dim::STIFFNESS => "stiffness",
        Dim::DAMPING => "damping coefficient",
        Dim::FORCE => "force",
        Dim::IMPULSE => "impulse",
        Dim::TIME => "time",
        Dim::NONE => "dimensionless number",
        _ => "quantity",
    }
}

/// For a claim written as one literal (`"316.2 rad/s"`, `"1 kg"`), half a
/// unit in the last written place, in SI: the precision the writer meant.
pub(super) fn literal_half_ulp(e: &Expr) -> Option<f64> {
    let e = match &e.kind {
        ExprKind::Neg(inner) => inner,
        _ => e,
    };
    let (number, scale) = match &e.kind {
        ExprKind::Quantity(n, u) => (n, u.scale.to_f64()),
        ExprKind::Number(n) => (n, 1.0),
        _ => return None,
    };
    let text = number.text.to_ascii_lowercase();
    let (mantissa, exp) = match text.split_once('e') {
        Some((m, e)) => (m.to_string(), e.parse::<i32>().unwrap_or(0)),
        None => (text.clone(), 0),
    };
    let decimals = mantissa.split_once('.').map_or(0, |(_, f)| f.len() as i32);
    Some(0.5 * 10f64.powi(exp - decimals) * scale)
}
