//! Reading a spanned TOML tree into a [`Case`], collecting every problem.

use super::types::*;
use crate::diag::{Diagnostic, SourceError, closest};
use crate::expr::{self, Expr, ExprError, ExprKind, Value};
use crate::units::{self, Dim};
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

type Node<'i> = Spanned<DeValue<'i>>;

/// Relative tolerance on the length of a normal (SPEC §2).
pub const NORMAL_TOLERANCE: f64 = 1e-9;

/// Reads and validates a case file.
pub fn load(path: &std::path::Path) -> Result<Case, crate::Error> {
    let source = std::fs::read_to_string(path).map_err(|e| crate::Error::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    parse_case(&path.display().to_string(), &source).map_err(crate::Error::Input)
}

/// Validates the text of a case file; `path` is used in messages only.
pub fn parse_case(path: &str, source: &str) -> Result<Case, SourceError> {
    let fail = |diagnostics| SourceError {
        path: path.to_string(),
        source: source.to_string(),
        diagnostics,
    };
    let root = match DeTable::parse(source) {
        Ok(root) => root,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            let msg = e.message().trim().to_string();
            return Err(fail(vec![Diagnostic::new(
                span,
                format!("invalid TOML: {msg}"),
            )]));
        }
    };
    let mut r = Reader {
        source,
        diags: Vec::new(),
        env: Env::default(),
        params: Vec::new(),
        coords: Vec::new(),
        declared_bodies: Default::default(),
        body_index: Default::default(),
    };
    let case = r.case(path, root.get_ref(), root.span());
    if r.diags.is_empty()
        && let Some(case) = case
    {
        Ok(case)
    } else {
        if r.diags.is_empty() {
            r.diags
                .push(Diagnostic::new(0..0, "the case could not be read"));
        }
        Err(fail(r.diags))
    }
}

struct Reader<'s> {
    source: &'s str,
    diags: Vec<Diagnostic>,
    env: Env,
    params: Vec<String>,
    coords: Vec<String>,
    /// Every body name declared, valid or not, so that a bad body does not
    /// also make each contact naming it an error.
    declared_bodies: std::collections::HashSet<String>,
    /// Valid bodies by name (lookups are by hash: cases have up to 10⁵ bodies).
    body_index: std::collections::HashMap<String, usize>,
}

fn get<'t, 'i>(table: &'t DeTable<'i>, key: &str) -> Option<&'t Node<'i>> {
    table
        .iter()
        .find(|(k, _)| k.get_ref() == key)
        .map(|(_, v)| v)
}

const ROOT_KEYS: &[&str] = &[
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
];

impl Reader<'_> {
    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Unknown keys are errors with a "did you mean" hint.
    fn keys(&mut self, table: &DeTable, allowed: &[&str], what: &str) {
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

    fn required<'t, 'i>(
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

    fn string(&mut self, node: &Node, what: &str) -> Option<String> {
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

    fn table<'t, 'i>(&mut self, node: &'t Node<'i>, what: &str) -> Option<&'t DeTable<'i>> {
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

    fn array<'t, 'i>(&mut self, node: &'t Node<'i>, what: &str) -> Option<&'t [Node<'i>]> {
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

    fn integer(
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

    fn float(&mut self, node: &Node, what: &str) -> Option<f64> {
        let value = match node.get_ref() {
            DeValue::Integer(i) => i.as_str().replace('_', "").parse::<f64>().ok(),
            DeValue::Float(f) => f.as_str().replace('_', "").parse::<f64>().ok(),
            _ => None,
        };
        match value {
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
    fn content_offset(&self, span: &Range<usize>, content: &str) -> Option<usize> {
        let raw = self.source.get(span.clone())?;
        for quote in ["\"\"\"", "'''", "\"", "'"] {
            if raw.starts_with(quote) && raw.len() >= 2 * quote.len() {
                let inner = &raw[quote.len()..raw.len() - quote.len()];
                return (inner == content).then_some(span.start + quote.len());
            }
        }
        None
    }

    fn expr_diag(&self, e: ExprError, span: &Range<usize>, offset: Option<usize>) -> Diagnostic {
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
    fn parse_value(
        &mut self,
        node: &Node,
        what: &str,
        dim: Option<Dim>,
    ) -> Option<(String, Expr, Option<usize>)> {
        let span = node.span();
        let (text, offset) = match node.get_ref() {
            DeValue::String(s) => {
                let offset = self.content_offset(&span, s);
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
    fn check_names(&mut self, e: &Expr, span: &Range<usize>, offset: Option<usize>) -> bool {
        let mut ok = true;
        for (name, name_span) in e.params() {
            if self.params.iter().any(|p| p == name) {
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
                d = d.hint(format!("parameters: {}", self.params.join(", ")));
            }
            self.error(d);
            ok = false;
        }
        ok
    }

    /// A physical value of dimension `dim`.
    fn value(&mut self, node: &Node, dim: Dim, what: &str) -> Option<Val> {
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
        if !v.fits(dim) {
            let got = v.dim.unwrap_or(Dim::NONE);
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

    fn positive(&mut self, v: Option<Val>, what: &str) -> Option<Val> {
        let v = v?;
        if v.si > 0.0 {
            return Some(v);
        }
        self.error(Diagnostic::new(
            v.span.clone(),
            format!("{what} must be positive, this is {}", v.si),
        ));
        None
    }

    /// A list of exactly `n` values of dimension `dim`.
    fn vector(&mut self, node: &Node, n: usize, dim: Dim, what: &str) -> Option<Vec<Val>> {
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

    fn case(&mut self, path: &str, root: &DeTable, _root_span: Range<usize>) -> Option<Case> {
        self.keys(root, ROOT_KEYS, "the case file");
        let title = match get(root, "title") {
            Some(n) => self.string(n, "`title`").unwrap_or_default(),
            None => std::path::Path::new(path)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
        };
        let description = get(root, "description")
            .and_then(|n| self.string(n, "`description`"))
            .unwrap_or_default();
        let space = match get(root, "space") {
            None => Space::Planar,
            Some(node) => {
                let s = self.string(node, "`space`").unwrap_or_default();
                match s.as_str() {
                    "line" => Space::Line,
                    "planar" => Space::Planar,
                    "3d" | "3-d" | "3D" => Space::ThreeD,
                    _ => {
                        let d = Diagnostic::new(node.span(), format!("unknown space `{s}`"))
                            .maybe_hint(
                                closest(&s, ["line", "planar", "3d"])
                                    .map(|b| format!("did you mean `{b}`?")),
                            )
                            .hint("space is one of \"line\", \"planar\", \"3d\"");
                        self.error(d);
                        Space::Planar
                    }
                }
            }
        };

        let generalized = get(root, "generalized");
        if let Some(g) = generalized {
            self.coords = self.coordinate_names(g);
        }
        let (parameters, param_order) = self.parameters(get(root, "parameters"));

        let mut body_names = Vec::new();
        let form = if let Some(g) = generalized {
            for key in ["body", "joint"] {
                if let Some(n) = get(root, key) {
                    self.error(
                        Diagnostic::new(
                            header(&n.span()),
                            format!("`[[{key}]]` cannot be used with `[generalized]`"),
                        )
                        .hint("a case is written either with bodies or in generalized coordinates"),
                    );
                }
            }
            self.generalized(g, get(root, "constraint"))
        } else {
            if let Some(n) = get(root, "constraint") {
                self.error(
                    Diagnostic::new(
                        header(&n.span()),
                        "`[[constraint]]` rows belong to the `[generalized]` form",
                    )
                    .hint("between bodies, use `[[joint]]`"),
                );
            }
            let bodies = self.bodies(get(root, "body"), space);
            body_names = bodies.iter().map(|b| b.name.clone()).collect();
            self.body_index = body_names
                .iter()
                .enumerate()
                .map(|(i, n)| (n.clone(), i))
                .collect();
            let joints = self.joints(get(root, "joint"), &bodies, space);
            Some(Form::Bodies { bodies, joints })
        };
        let form = form?;
        let contacts = self.contacts(get(root, "contact"), &form, &body_names, space);
        let contact_names: Vec<String> = contacts.iter().map(|c| c.name.clone()).collect();
        let claims = self.claims(get(root, "claim"), &contact_names);
        let sweeps = self.sweeps(get(root, "sweep"), &parameters, &contact_names);
        let verify = get(root, "verify").and_then(|n| self.verify(n));
        let display = get(root, "display").map_or_else(Display::default, |n| self.display(n));
        let large_modes = get(root, "analysis").and_then(|n| {
            let t = self.table(n, "`[analysis]`")?;
            self.keys(t, &["modes"], "`[analysis]`");
            get(t, "modes").and_then(|m| self.integer(m, "`modes`", 1..=100))
        });
        Some(Case {
            path: path.to_string(),
            source: self.source.to_string(),
            title,
            description,
            space,
            parameters,
            param_order,
            form,
            contacts,
            claims,
            sweeps,
            verify,
            large_modes,
            display,
        })
    }

    fn coordinate_names(&mut self, g: &Node) -> Vec<String> {
        let Some(DeValue::Table(t)) = Some(g.get_ref()) else {
            return Vec::new();
        };
        let Some(DeValue::Array(items)) = get(t, "coordinates").map(|n| n.get_ref()) else {
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|item| match item.get_ref() {
                DeValue::Table(c) => get(c, "name")
                    .and_then(|n| n.get_ref().as_str())
                    .map(str::to_string),
                _ => None,
            })
            .collect()
    }

    fn parameters(&mut self, node: Option<&Node>) -> (Vec<Parameter>, Vec<usize>) {
        let Some(node) = node else {
            return (Vec::new(), Vec::new());
        };
        let Some(table) = self.table(node, "`[parameters]`") else {
            return (Vec::new(), Vec::new());
        };
        // Pass 1: names, texts, parsed expressions.
        struct Raw {
            name: String,
            name_span: Range<usize>,
            node_span: Range<usize>,
            text: String,
            expr: Expr,
            offset: Option<usize>,
            description: Option<String>,
            symbol: Option<String>,
        }
        let mut raws: Vec<Option<Raw>> = Vec::new();
        for (key, value) in table.iter() {
            let name = key.get_ref().to_string();
            let name_span = key.span();
            if !is_identifier(&name) {
                self.error(
                    Diagnostic::new(
                        name_span.clone(),
                        format!("`{name}` cannot be a parameter name"),
                    )
                    .hint("a name starts with a letter and has letters, digits and `_` only"),
                );
            } else if name == "pi" || expr::Func::from_name(&name).is_some() {
                self.error(Diagnostic::new(
                    name_span.clone(),
                    format!("`{name}` is reserved (a constant or function)"),
                ));
            } else if self.coords.contains(&name) {
                self.error(Diagnostic::new(
                    name_span.clone(),
                    format!("`{name}` is already a coordinate name"),
                ));
            }
            self.params.push(name.clone());
            let (value_node, description, symbol) = match value.get_ref() {
                DeValue::Table(t) => {
                    self.keys(
                        t,
                        &["value", "description", "symbol"],
                        &format!("parameter `{name}`"),
                    );
                    let desc = get(t, "description").and_then(|n| self.string(n, "`description`"));
                    let sym = get(t, "symbol").and_then(|n| self.string(n, "`symbol`"));
                    let Some(v) =
                        self.required(t, "value", &format!("parameter `{name}`"), &value.span())
                    else {
                        raws.push(None);
                        continue;
                    };
                    (v, desc, sym)
                }
                _ => (value, None, None),
            };
            let parsed = self.parse_value(value_node, &format!("parameter `{name}`"), None);
            raws.push(parsed.map(|(text, expr, offset)| Raw {
                name,
                name_span,
                node_span: value_node.span(),
                text,
                expr,
                offset,
                description,
                symbol,
            }));
        }
        // Pass 2: dependency order, cycles, unknown names.
        let names: Vec<String> = self.params.clone();
        let n = raws.len();
        let mut deps: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut ok = vec![true; n];
        for (i, raw) in raws.iter().enumerate() {
            let Some(raw) = raw else {
                ok[i] = false;
                continue;
            };
            if !self.check_names(&raw.expr, &raw.node_span, raw.offset) {
                ok[i] = false;
            }
            for (name, _) in raw.expr.params() {
                if let Some(j) = names.iter().position(|p| p == name) {
                    deps[i].push(j);
                }
            }
        }
        let mut order = Vec::new();
        let mut state = vec![0u8; n]; // 0 new, 1 visiting, 2 done
        let mut reported_cycle = vec![false; n];
        for start in 0..n {
            let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
            if state[start] != 0 {
                continue;
            }
            state[start] = 1;
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                if *next < deps[node].len() {
                    let dep = deps[node][*next];
                    *next += 1;
                    match state[dep] {
                        0 => {
                            state[dep] = 1;
                            stack.push((dep, 0));
                        }
                        1 => {
                            let pos = stack.iter().position(|&(s, _)| s == dep).unwrap_or(0);
                            let cycle: Vec<usize> = stack[pos..].iter().map(|&(s, _)| s).collect();
                            for &c in &cycle {
                                ok[c] = false;
                            }
                            if !reported_cycle[dep] {
                                reported_cycle[dep] = true;
                                let chain: Vec<&str> = cycle
                                    .iter()
                                    .chain([&dep])
                                    .map(|&c| names[c].as_str())
                                    .collect();
                                let span = raws[dep].as_ref().map_or(0..0, |r| r.name_span.clone());
                                self.error(
                                    Diagnostic::new(
                                        span,
                                        format!(
                                            "parameter `{}` depends on itself: {}",
                                            names[dep],
                                            chain.join(" → ")
                                        ),
                                    )
                                    .hint("define one of them by a value"),
                                );
                            }
                        }
                        _ => {}
                    }
                } else {
                    state[node] = 2;
                    order.push(node);
                    stack.pop();
                    if deps[node].iter().any(|&d| !ok[d]) {
                        ok[node] = false;
                    }
                }
            }
        }
        // Pass 3: evaluate in order.
        let mut values: Vec<Option<Val>> = vec![None; n];
        for &i in &order {
            let Some(raw) = &raws[i] else { continue };
            if !ok[i] {
                continue;
            }
            match self.env.eval(&raw.expr) {
                Ok(v) => {
                    let dim = v.dim.unwrap_or(Dim::NONE);
                    self.env
                        .values
                        .insert(raw.name.clone(), Value::new(v.si, dim));
                    values[i] = Some(Val {
                        text: raw.text.clone(),
                        expr: raw.expr.clone(),
                        span: raw.node_span.clone(),
                        si: v.si,
                        dim,
                    });
                }
                Err(e) => {
                    let d = self.expr_diag(e, &raw.node_span, raw.offset);
                    self.error(d);
                }
            }
        }
        let mut params = Vec::new();
        let mut index_of = vec![usize::MAX; n];
        for (i, (raw, val)) in raws.into_iter().zip(values).enumerate() {
            if let (Some(raw), Some(value)) = (raw, val) {
                index_of[i] = params.len();
                params.push(Parameter {
                    name: raw.name,
                    name_span: raw.name_span,
                    value,
                    description: raw.description,
                    symbol: raw.symbol,
                });
            }
        }
        let param_order = order
            .into_iter()
            .filter(|&i| index_of[i] != usize::MAX)
            .map(|i| index_of[i])
            .collect();
        // Duplicate names cannot occur: TOML rejects duplicate keys.
        (params, param_order)
    }

    fn tables<'t, 'i>(
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

    fn name(
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

    fn bodies(&mut self, node: Option<&Node>, space: Space) -> Vec<Body> {
        let mut seen = std::collections::HashSet::new();
        let mut bodies = Vec::new();
        for (t, span) in self.tables(node, "`[[body]]`") {
            self.keys(
                t,
                &["name", "type", "mass", "inertia", "position", "description"],
                "`[[body]]`",
            );
            let name = self.name(t, "`[[body]]`", &span, &mut seen);
            self.declared_bodies.extend(name.clone());
            let what = format!("body `{}`", name.as_deref().unwrap_or("?"));
            let kind_node = self.required(t, "type", &what, &span);
            let kind_text = kind_node.and_then(|n| self.string(n, "`type`"));
            let position = match get(t, "position") {
                Some(p) => self.vector(p, space.dim(), Dim::LENGTH, "a position"),
                None => Some(vec![zero_val(Dim::LENGTH); space.dim()]),
            };
            let mass = |r: &mut Self| {
                let m = r.required(t, "mass", &what, &span)?;
                let v = r.value(m, Dim::MASS, "a mass");
                r.positive(v, "a mass")
            };
            let kind = match kind_text.as_deref() {
                Some("particle") => {
                    if let Some(n) = get(t, "inertia") {
                        self.error(
                            Diagnostic::new(n.span(), "a particle has no inertia")
                                .hint("use type = \"rigid\" for a body that rotates"),
                        );
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
                        let inertia = self
                            .required(t, "inertia", &what, &span)
                            .and_then(|n| self.inertia(n, space));
                        match (mass, inertia) {
                            (Some(mass), Some(inertia)) => Some(BodyKind::Rigid { mass, inertia }),
                            _ => None,
                        }
                    }
                }
                Some("fixed") => {
                    for key in ["mass", "inertia"] {
                        if let Some(n) = get(t, key) {
                            self.error(Diagnostic::new(
                                n.span(),
                                format!("a fixed body has no `{key}`"),
                            ));
                        }
                    }
                    Some(BodyKind::Fixed)
                }
                Some(other) => {
                    let d = Diagnostic::new(
                        kind_node.map_or(span.clone(), |n| n.span()),
                        format!("unknown body type `{other}`"),
                    )
                    .maybe_hint(
                        closest(other, ["particle", "rigid", "fixed"])
                            .map(|b| format!("did you mean `{b}`?")),
                    )
                    .hint("type is one of \"particle\", \"rigid\", \"fixed\"");
                    self.error(d);
                    None
                }
                None => None,
            };
            if let (Some(name), Some(kind), Some(position)) = (name, kind, position) {
                bodies.push(Body {
                    name,
                    span,
                    kind,
                    position,
                });
            }
        }
        bodies
    }

    fn inertia(&mut self, node: &Node, space: Space) -> Option<InertiaVal> {
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
            for i in 0..3 {
                for j in i + 1..3 {
                    let scale = m[i][j].abs().max(m[j][i].abs()).max(f64::MIN_POSITIVE);
                    if (m[i][j] - m[j][i]).abs() > 1e-12 * scale {
                        self.error(Diagnostic::new(
                            rows[i][j].span.start..rows[j][i].span.end.max(rows[i][j].span.end),
                            format!("the inertia tensor is not symmetric: entry ({},{}) is {} but ({},{}) is {}", i + 1, j + 1, m[i][j], j + 1, i + 1, m[j][i]),
                        ));
                        return None;
                    }
                }
            }
            if let Some(k) = cholesky_failure(&m.iter().map(|r| r.to_vec()).collect::<Vec<_>>()) {
                self.error(
                    Diagnostic::new(node.span(), format!("the inertia tensor is not positive definite (its leading {}×{} block is not)", k + 1, k + 1))
                        .hint("principal moments must be positive and satisfy the triangle inequality"),
                );
                return None;
            }
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

    fn body_ref(&mut self, node: &Node, body_names: &[String]) -> Option<Option<usize>> {
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

    fn joints(&mut self, node: Option<&Node>, bodies: &[Body], space: Space) -> Vec<Joint> {
        let names: Vec<String> = bodies.iter().map(|b| b.name.clone()).collect();
        let mut joints = Vec::new();
        for (t, span) in self.tables(node, "`[[joint]]`") {
            self.keys(t, &["type", "bodies", "point", "name"], "`[[joint]]`");
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
            joints.push(Joint {
                span,
                body,
                other,
                point,
            });
        }
        joints
    }

    fn contacts(
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
        for (t, span) in tables {
            let generalized = matches!(form, Form::Generalized { .. });
            let allowed: &[&str] = if generalized {
                &["name", "jacobian", "stiffness", "damping", "description"]
            } else {
                &[
                    "name",
                    "body",
                    "other",
                    "point",
                    "normal",
                    "stiffness",
                    "damping",
                    "description",
                ]
            };
            self.keys(t, allowed, "`[[contact]]`");
            let name = self.name(t, "`[[contact]]`", &span, &mut seen);
            let what = format!("contact `{}`", name.as_deref().unwrap_or("?"));
            let stiffness = self
                .required(t, "stiffness", &what, &span)
                .and_then(|n| self.value(n, Dim::STIFFNESS, "a stiffness"));
            let stiffness = self.positive(stiffness, "a stiffness");
            let damping = get(t, "damping").and_then(|n| self.value(n, Dim::DAMPING, "a damping"));
            if let Some(d) = &damping
                && d.si < 0.0
            {
                self.error(Diagnostic::new(
                    d.span.clone(),
                    format!("a damping cannot be negative, this is {}", d.si),
                ));
            }
            let geometry = match form {
                Form::Generalized { coordinates, .. } => {
                    let n = coordinates.len();
                    self.required(t, "jacobian", &what, &span).and_then(|node| {
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
                Form::Bodies { bodies, .. } => {
                    let body = self
                        .required(t, "body", &what, &span)
                        .and_then(|n| self.body_ref(n, body_names).map(|b| (b, n.span())));
                    let other = match get(t, "other") {
                        Some(n) => self.body_ref(n, body_names),
                        None => Some(None),
                    };
                    let point = self
                        .required(t, "point", &what, &span)
                        .and_then(|n| self.vector(n, space.dim(), Dim::LENGTH, "a contact point"));
                    let normal = self.required(t, "normal", &what, &span).and_then(|n| {
                        let v = self.vector(n, space.dim(), Dim::NONE, "a normal component")?;
                        let len = v.iter().map(|x| x.si * x.si).sum::<f64>().sqrt();
                        if (len - 1.0).abs() > NORMAL_TOLERANCE {
                            self.error(
                                Diagnostic::new(n.span(), format!("a normal must be a unit vector, this one has length {len}"))
                                    .hint("a non-unit normal would rescale the gap and change the effective mass; normalise it"),
                            );
                            return None;
                        }
                        Some(v)
                    });
                    match (body, other, point, normal) {
                        (Some((Some(b), bspan)), Some(other), Some(point), Some(normal)) => {
                            let fixed = |i: Option<usize>| {
                                i.is_none_or(|i| matches!(bodies[i].kind, BodyKind::Fixed))
                            };
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
                            self.error(Diagnostic::new(bspan, "`body` cannot be the world").hint(
                                "name the movable body here and use `other` for the second body",
                            ));
                            None
                        }
                        _ => None,
                    }
                }
            };
            if let (Some(name), Some(geometry), Some(stiffness)) = (name, geometry, stiffness) {
                contacts.push(Contact {
                    name,
                    span,
                    geometry,
                    stiffness,
                    damping,
                });
            }
        }
        contacts
    }

    fn generalized(&mut self, node: &Node, constraints: Option<&Node>) -> Option<Form> {
        let t = self.table(node, "`[generalized]`")?;
        let span = node.span();
        self.keys(t, &["coordinates", "mass_matrix"], "`[generalized]`");
        let mut coordinates = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let cnode = self.required(t, "coordinates", "`[generalized]`", &span)?;
        let items = self.array(cnode, "`coordinates`")?;
        if items.is_empty() {
            self.error(Diagnostic::new(
                cnode.span(),
                "at least one coordinate is needed",
            ));
            return None;
        }
        for item in items {
            let Some(ct) = self.table(item, "a coordinate") else {
                continue;
            };
            self.keys(ct, &["name", "unit", "description"], "a coordinate");
            let Some(name) = self.name(ct, "a coordinate", &item.span(), &mut seen) else {
                continue;
            };
            let Some(unode) =
                self.required(ct, "unit", &format!("coordinate `{name}`"), &item.span())
            else {
                continue;
            };
            let Some(unit_text) = self.string(unode, "`unit`") else {
                continue;
            };
            match units::parse_unit(&unit_text, true) {
                Ok(u) if u.scale.to_f64() == 1.0 => coordinates.push(Coordinate {
                    name,
                    unit: u.text,
                    dim: u.dim,
                }),
                Ok(_) => self.error(
                    Diagnostic::new(
                        unode.span(),
                        format!("coordinate unit `{unit_text}` is not a coherent SI unit"),
                    )
                    .hint("use m or rad; give the mass matrix and Jacobian in matching SI units"),
                ),
                Err(e) => {
                    let offset = self.content_offset(&unode.span(), &unit_text);
                    let err = ExprError {
                        span: e.span,
                        message: e.message,
                        hints: e.hint.into_iter().collect(),
                    };
                    let d = self.expr_diag(err, &unode.span(), offset);
                    self.error(d);
                }
            }
        }
        let n = coordinates.len();
        if n != items.len() {
            return None;
        }
        let mnode = self.required(t, "mass_matrix", "`[generalized]`", &span)?;
        let rows = self.array(mnode, "`mass_matrix`")?;
        if rows.len() != n {
            self.error(Diagnostic::new(
                mnode.span(),
                format!(
                    "`mass_matrix` must have {n} rows (one per coordinate), found {}",
                    rows.len()
                ),
            ));
            return None;
        }
        let mut mass_matrix = Vec::new();
        let mut ok = true;
        for (i, row) in rows.iter().enumerate() {
            let Some(items) = self.array(row, "a mass matrix row") else {
                ok = false;
                continue;
            };
            if items.len() != n {
                self.error(Diagnostic::new(
                    row.span(),
                    format!(
                        "mass matrix row {} must have {n} entries, found {}",
                        i + 1,
                        items.len()
                    ),
                ));
                ok = false;
                continue;
            }
            let vals: Vec<Option<Val>> = items
                .iter()
                .enumerate()
                .map(|(j, item)| {
                    let dim = Dim::INERTIA.per(coordinates[i].dim).per(coordinates[j].dim);
                    self.value(
                        item,
                        dim,
                        &format!("M[{}][{}]", coordinates[i].name, coordinates[j].name),
                    )
                })
                .collect();
            match vals.into_iter().collect::<Option<Vec<_>>>() {
                Some(r) => mass_matrix.push(r),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        // Symmetry and positive definiteness, at the case's parameter values.
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (mass_matrix[i][j].si, mass_matrix[j][i].si);
                let scale = a.abs().max(b.abs()).max(f64::MIN_POSITIVE);
                if (a - b).abs() > 1e-12 * scale {
                    self.error(
                        Diagnostic::new(
                            mass_matrix[j][i].span.clone(),
                            format!(
                                "the mass matrix is not symmetric: M[{ci}][{cj}] = {a} but M[{cj}][{ci}] = {b}",
                                ci = coordinates[i].name,
                                cj = coordinates[j].name
                            ),
                        )
                        .hint("a mass matrix is symmetric: write the same entry on both sides of the diagonal"),
                    );
                    return None;
                }
            }
        }
        let m: Vec<Vec<f64>> = mass_matrix
            .iter()
            .map(|r| r.iter().map(|v| v.si).collect())
            .collect();
        if let Some(k) = cholesky_failure(&m) {
            let names: Vec<&str> = coordinates[..=k].iter().map(|c| c.name.as_str()).collect();
            let msg = if k == 0 || m[k][k] <= 0.0 {
                format!(
                    "the mass matrix is not positive definite: M[{c}][{c}] = {} is not positive",
                    m[k][k],
                    c = coordinates[k].name
                )
            } else {
                format!(
                    "the mass matrix is not positive definite over the coordinates ({})",
                    names.join(", ")
                )
            };
            self.error(
                Diagnostic::new(mnode.span(), msg)
                    .hint("kinetic energy must be positive for every motion; check the coupling terms of these coordinates"),
            );
            return None;
        }
        let mut rows_g = Vec::new();
        for (ct, cspan) in self.tables(constraints, "`[[constraint]]`") {
            self.keys(ct, &["jacobian", "name", "description"], "`[[constraint]]`");
            let Some(jn) = self.required(ct, "jacobian", "`[[constraint]]`", &cspan) else {
                continue;
            };
            let Some(items) = self.array(jn, "`jacobian`") else {
                continue;
            };
            if items.len() != n {
                self.error(Diagnostic::new(
                    jn.span(),
                    format!(
                        "a constraint row must have one entry per coordinate ({n}), found {}",
                        items.len()
                    ),
                ));
                continue;
            }
            // Each G_kj u_j must share one dimension: parse freely, then compare.
            let mut row = Vec::new();
            let mut common: Option<Dim> = None;
            let mut good = true;
            for (item, c) in items.iter().zip(&coordinates) {
                let Some((text, e, offset)) = self.parse_value(item, "a constraint entry", None)
                else {
                    good = false;
                    continue;
                };
                if !self.check_names(&e, &item.span(), offset) {
                    good = false;
                    continue;
                }
                match self.env.eval(&e) {
                    Ok(v) => {
                        let dim = v.dim.map(|d| d.times(c.dim));
                        if let (Some(d), Some(cd)) = (dim, common)
                            && d != cd
                        {
                            self.error(Diagnostic::new(item.span(), format!("constraint entries must give one rate dimension: this entry times its coordinate is {d}, an earlier one {cd}")));
                            good = false;
                        }
                        common = common.or(dim);
                        row.push(Val {
                            text,
                            expr: e,
                            span: item.span(),
                            si: v.si,
                            dim: v.dim.unwrap_or(Dim::NONE),
                        });
                    }
                    Err(err) => {
                        let d = self.expr_diag(err, &item.span(), offset);
                        self.error(d);
                        good = false;
                    }
                }
            }
            if good {
                rows_g.push(row);
            }
        }
        Some(Form::Generalized {
            coordinates,
            mass_matrix,
            constraints: rows_g,
        })
    }

    fn quantity_ref(&mut self, node: &Node, contacts: &[String]) -> Option<(String, Quantity)> {
        let text = self.string(node, "`of`")?;
        let span = node.span();
        let offset = self.content_offset(&span, &text);
        let at = |r: Range<usize>| match offset {
            Some(o) => o + r.start..o + r.end,
            None => span.clone(),
        };
        let bad = |r: &mut Self, msg: String| {
            r.error(
                Diagnostic::new(span.clone(), msg)
                    .hint("expected a(c), m_eff(c), omega(c), A(c1, c2) or mode_omega(i)"),
            );
            None
        };
        let trimmed = text.trim();
        let Some(open) = trimmed.find('(') else {
            return bad(self, format!("`{trimmed}` is not a result meff computes"));
        };
        if !trimmed.ends_with(')') {
            return bad(self, format!("missing `)` in `{trimmed}`"));
        }
        let func = trimmed[..open].trim();
        let lead = text.len() - text.trim_start().len();
        let args_start = lead + open + 1;
        let args: Vec<(String, Range<usize>)> = {
            let inner = &trimmed[open + 1..trimmed.len() - 1];
            let mut out = Vec::new();
            let mut pos = args_start;
            for part in inner.split(',') {
                let t = part.trim();
                let s = pos + (part.len() - part.trim_start().len());
                out.push((t.to_string(), s..s + t.len()));
                pos += part.len() + 1;
            }
            out
        };
        let contact = |r: &mut Self, i: usize| -> Option<usize> {
            let (name, range) = args.get(i)?;
            match contacts.iter().position(|c| c == name) {
                Some(k) => Some(k),
                None => {
                    let d = Diagnostic::new(at(range.clone()), format!("unknown contact `{name}`"))
                        .maybe_hint(
                            closest(name, contacts.iter().map(String::as_str))
                                .map(|b| format!("did you mean `{b}`?")),
                        )
                        .maybe_hint(
                            (!contacts.is_empty() && contacts.len() <= 20)
                                .then(|| format!("contacts: {}", contacts.join(", "))),
                        );
                    r.error(d);
                    None
                }
            }
        };
        let want = match func {
            "A" => 2,
            "a" | "m_eff" | "omega" | "mode_omega" => 1,
            _ => {
                let d = Diagnostic::new(at(lead..lead + open), format!("unknown result `{func}`"))
                    .maybe_hint(
                        closest(func, ["a", "m_eff", "omega", "A", "mode_omega"])
                            .map(|b| format!("did you mean `{b}`?")),
                    )
                    .hint("expected a(c), m_eff(c), omega(c), A(c1, c2) or mode_omega(i)");
                self.error(d);
                return None;
            }
        };
        if args.len() != want {
            return bad(
                self,
                format!(
                    "`{func}` takes {want} argument{}",
                    if want == 1 { "" } else { "s" }
                ),
            );
        }
        let q = match func {
            "a" => Quantity::A(contact(self, 0)?),
            "m_eff" => Quantity::MEff(contact(self, 0)?),
            "omega" => Quantity::Omega(contact(self, 0)?),
            "A" => {
                let i = contact(self, 0);
                let j = contact(self, 1);
                Quantity::Delassus(i?, j?)
            }
            _ => match args[0].0.parse::<usize>() {
                Ok(i) if i >= 1 => Quantity::ModeOmega(i),
                _ => {
                    self.error(Diagnostic::new(
                        at(args[0].1.clone()),
                        "a mode number is an integer from 1 (the fastest mode)",
                    ));
                    return None;
                }
            },
        };
        Some((trimmed.to_string(), q))
    }

    fn claims(&mut self, node: Option<&Node>, contacts: &[String]) -> Vec<Claim> {
        let mut claims = Vec::new();
        for (t, span) in self.tables(node, "`[[claim]]`") {
            self.keys(
                t,
                &["of", "equals", "rel_tol", "description"],
                "`[[claim]]`",
            );
            let of = self
                .required(t, "of", "`[[claim]]`", &span)
                .and_then(|n| self.quantity_ref(n, contacts));
            let rel_tol = get(t, "rel_tol").and_then(|n| self.float(n, "`rel_tol`"));
            let Some(enode) = self.required(t, "equals", "`[[claim]]`", &span) else {
                continue;
            };
            let Some((text, e, offset)) = self.parse_value(enode, "`equals`", None) else {
                continue;
            };
            if !self.check_names(&e, &enode.span(), offset) {
                continue;
            }
            let rhs = match literal_half_ulp(&e) {
                Some(half_ulp) => ClaimRhs::Literal { expr: e, half_ulp },
                None => ClaimRhs::Expression(e),
            };
            if let Some((of_text, of)) = of {
                claims.push(Claim {
                    of_text,
                    of,
                    equals_text: text,
                    equals_span: enode.span(),
                    rhs,
                    rel_tol,
                });
            }
        }
        claims
    }

    fn sweeps(
        &mut self,
        node: Option<&Node>,
        params: &[Parameter],
        contacts: &[String],
    ) -> Vec<Sweep> {
        let mut sweeps = Vec::new();
        for (t, span) in self.tables(node, "`[[sweep]]`") {
            self.keys(
                t,
                &["parameter", "from", "to", "points", "plot"],
                "`[[sweep]]`",
            );
            let parameter = self
                .required(t, "parameter", "`[[sweep]]`", &span)
                .and_then(|n| {
                    let name = self.string(n, "`parameter`")?;
                    let idx = params.iter().position(|p| p.name == name);
                    if idx.is_none() {
                        let d = Diagnostic::new(n.span(), format!("unknown parameter `{name}`"))
                            .maybe_hint(
                                closest(&name, params.iter().map(|p| p.name.as_str()))
                                    .map(|b| format!("did you mean `{b}`?")),
                            );
                        self.error(d);
                    }
                    idx
                });
            let Some(parameter) = parameter else { continue };
            let dim = params[parameter].value.dim;
            let from = self
                .required(t, "from", "`[[sweep]]`", &span)
                .and_then(|n| self.value(n, dim, "`from`"));
            let to = self
                .required(t, "to", "`[[sweep]]`", &span)
                .and_then(|n| self.value(n, dim, "`to`"));
            let points = match get(t, "points") {
                Some(n) => self.integer(n, "`points`", 2..=10_001),
                None => Some(41),
            };
            let mut plot = Vec::new();
            if let Some(pn) = self.required(t, "plot", "`[[sweep]]`", &span)
                && let Some(items) = self.array(pn, "`plot`")
            {
                for item in items {
                    if let Some(q) = self.quantity_ref(item, contacts) {
                        plot.push(q);
                    }
                }
            }
            if let (Some(from), Some(to), Some(points)) = (from, to, points) {
                sweeps.push(Sweep {
                    parameter,
                    from,
                    to,
                    points,
                    plot,
                });
            }
        }
        sweeps
    }

    fn display(&mut self, node: &Node) -> Display {
        let mut out = Display::default();
        let Some(t) = self.table(node, "`[display]`") else {
            return out;
        };
        self.keys(t, &["omega", "mass", "time"], "`[display]`");
        for key in ["omega", "mass", "time"] {
            let Some(n) = get(t, key) else { continue };
            let Some(text) = self.string(n, &format!("`{key}`")) else {
                continue;
            };
            let found = DISPLAY_UNITS
                .iter()
                .find(|(q, u, _)| *q == key && *u == text);
            match found {
                Some((_, u, f)) => {
                    let choice = UnitChoice {
                        unit: if *u == "us" {
                            "µs".to_string()
                        } else {
                            u.to_string()
                        },
                        factor: *f,
                    };
                    match key {
                        "omega" => out.omega = choice,
                        "mass" => out.mass = choice,
                        _ => out.time = Some(choice),
                    }
                }
                None => {
                    let known: Vec<&str> = DISPLAY_UNITS
                        .iter()
                        .filter(|(q, _, _)| *q == key)
                        .map(|(_, u, _)| *u)
                        .collect();
                    self.error(
                        Diagnostic::new(
                            n.span(),
                            format!("unknown display unit `{text}` for {key}"),
                        )
                        .hint(format!("one of: {}", known.join(", "))),
                    );
                }
            }
        }
        out
    }

    fn verify(&mut self, node: &Node) -> Option<Verify> {
        let t = self.table(node, "`[verify]`")?;
        self.keys(
            t,
            &[
                "impulse",
                "compression",
                "periods",
                "levels",
                "preload",
                "dt0",
            ],
            "`[verify]`",
        );
        let mut v = Verify::default();
        if let Some(n) = get(t, "impulse") {
            let x = self.value(n, Dim::IMPULSE, "an impulse");
            v.impulse = self.positive(x, "an impulse");
        }
        if let Some(n) = get(t, "compression") {
            let x = self.value(n, Dim::LENGTH, "a compression");
            v.compression = self.positive(x, "a compression");
        }
        if let Some(n) = get(t, "preload") {
            let x = self.value(n, Dim::FORCE, "a preload");
            v.preload = self.positive(x, "a preload");
        }
        if let Some(n) = get(t, "dt0") {
            let x = self.value(n, Dim::TIME, "a timestep");
            v.dt0 = self.positive(x, "a timestep");
        }
        if let Some(n) = get(t, "periods") {
            v.periods = self.integer(n, "`periods`", 1..=100_000);
        }
        if let Some(n) = get(t, "levels") {
            v.levels = self.integer(n, "`levels`", 1..=20);
        }
        Some(v)
    }
}

/// The span of a table's first line (its header), for "missing key" errors.
fn header(span: &Range<usize>) -> Range<usize> {
    span.start..span.start
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

fn zero_val(dim: Dim) -> Val {
    Val {
        text: "0".into(),
        expr: expr::parse("0").expect("literal zero parses"),
        span: 0..0,
        si: 0.0,
        dim,
    }
}

fn example_unit(d: Dim) -> String {
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

fn dim_name(d: Dim) -> &'static str {
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

/// Index of the first pivot at which a Cholesky factorisation fails, if any:
/// the leading (k+1)×(k+1) block is then not positive definite.
pub fn cholesky_failure(m: &[Vec<f64>]) -> Option<usize> {
    let n = m.len();
    let mut l = vec![vec![0.0; n]; n];
    let scale = (0..n).map(|i| m[i][i].abs()).fold(0.0, f64::max);
    for j in 0..n {
        let mut d = m[j][j];
        for k in 0..j {
            d -= l[j][k] * l[j][k];
        }
        if d.is_nan() || d <= 1e-14 * scale {
            return Some(j);
        }
        let d = d.sqrt();
        l[j][j] = d;
        for i in j + 1..n {
            let mut s = m[i][j];
            for k in 0..j {
                s -= l[i][k] * l[j][k];
            }
            l[i][j] = s / d;
        }
    }
    None
}

/// For a claim written as one literal (`"316.2 rad/s"`, `"1 kg"`), half a
/// unit in the last written place, in SI: the precision the writer meant.
fn literal_half_ulp(e: &Expr) -> Option<f64> {
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
