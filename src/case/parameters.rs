//! `[parameters]` and the names of generalized coordinates.

use super::read::*;
use super::types::*;

/// A parameter as written: its name, text and parsed expression, before
/// it is evaluated.
struct Raw {
    name: String,
    name_span: Range<usize>,
    node_span: Range<usize>,
    text: String,
    expr: Expr,
    offset: Option<usize>,
    description: Option<String>,
    symbol: Option<String>,
    /// The tolerance as read, the whole text as typed and where the
    /// tolerance is written in the file.
    tolerance: Option<(super::tolerance::RawTolerance, String, Range<usize>)>,
}

impl Reader<'_> {
    pub(super) fn coordinate_names(&mut self, g: &Node) -> Vec<String> {
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

    pub(super) fn parameters(&mut self, node: Option<&Node>) -> (Vec<Parameter>, Vec<usize>) {
        let Some(node) = node else {
            return (Vec::new(), Vec::new());
        };
        let Some(table) = self.table(node, "`[parameters]`") else {
            return (Vec::new(), Vec::new());
        };
        let raws = self.raw_parameters(table);
        self.check_typeset_alike(&raws);
        let (order, ok) = self.parameter_order(&raws);
        self.evaluate_parameters(raws, order, ok)
    }

    /// Pass 1: names, texts, parsed expressions (`None`: a definition
    /// that could not be read).
    fn raw_parameters(&mut self, table: &DeTable) -> Vec<Option<Raw>> {
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
            self.param_index
                .entry(name.clone())
                .or_insert(self.params.len());
            self.params.push(name.clone());
            let (value_node, description, symbol) = match value.get_ref() {
                DeValue::Table(t) => {
                    self.keys(
                        t,
                        super::read::PARAMETER_KEYS,
                        &format!("parameter `{name}`"),
                    );
                    let desc = get(t, "description").and_then(|n| self.string(n, "`description`"));
                    let sym = get(t, "symbol").and_then(|n| {
                        let s = self.string(n, "`symbol`")?;
                        match crate::notation::symbol_problem(&s) {
                            None => Some(s),
                            Some(why) => {
                                self.error(Diagnostic::new(n.span(), why).hint(
                                    "letters, digits, primes, _{…} and ^{…}, Greek letters, \\mathrm{word}, accents such as \\hat{x}",
                                ));
                                None
                            }
                        }
                    });
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
            let parsed = match value_node.get_ref() {
                DeValue::String(s) if super::tolerance::marker(s).is_some() => {
                    self.tolerant_value(value_node, s, &name)
                }
                _ => self
                    .parse_value(value_node, &format!("parameter `{name}`"), None)
                    .map(|(text, expr, offset)| (text, expr, offset, None)),
            };
            raws.push(parsed.map(|(text, expr, offset, tolerance)| Raw {
                name,
                name_span,
                node_span: value_node.span(),
                text,
                expr,
                offset,
                description,
                symbol,
                tolerance,
            }));
        }
        raws
    }

    /// A parameter's value with a tolerance: the nominal text, its
    /// expression and offset, and the tolerance as read.
    #[allow(clippy::type_complexity)]
    fn tolerant_value(
        &mut self,
        node: &Node,
        s: &str,
        name: &str,
    ) -> Option<(
        String,
        Expr,
        Option<usize>,
        Option<(super::tolerance::RawTolerance, String, Range<usize>)>,
    )> {
        let span = node.span();
        let offset = self.content_offset(&span, s);
        let split = self.split_tolerance(s, &span, offset, name).ok()??;
        let expr = match expr::parse(&split.nominal) {
            Ok(e) => e,
            Err(e) => {
                let d = self.expr_diag(e, &span, offset);
                self.error(d);
                return None;
            }
        };
        let at = offset.map_or(span.clone(), |o| o + split.at.start..o + split.at.end);
        if let Some((p, _)) = expr.params().first() {
            self.error(
                Diagnostic::new(
                    at,
                    format!("parameter `{name}` is computed from `{p}`: a tolerance goes on a parameter given by a value"),
                )
                .hint("put the tolerance on the parameters it is computed from"),
            );
            return None;
        }
        let text = split.nominal.trim().to_string();
        Some((
            text,
            expr,
            offset,
            Some((split.tolerance, s.to_string(), at)),
        ))
    }

    /// Two parameters that typeset alike would make the sheet ambiguous:
    /// an error at both definitions.
    fn check_typeset_alike(&mut self, raws: &[Option<Raw>]) {
        let mut typeset: std::collections::HashMap<String, usize> =
            std::collections::HashMap::new();
        for (i, raw) in raws.iter().enumerate() {
            let Some(raw) = raw else { continue };
            let symbol = raw
                .symbol
                .clone()
                .unwrap_or_else(|| crate::notation::latex_symbol(&raw.name));
            match typeset.entry(symbol) {
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(i);
                }
                std::collections::hash_map::Entry::Occupied(o) => {
                    let Some(first) = raws[*o.get()].as_ref() else {
                        continue;
                    };
                    let shown = o.key().clone();
                    for (here, other) in [(raw, first), (first, raw)] {
                        self.error(
                            Diagnostic::new(
                                here.name_span.clone(),
                                format!(
                                    "`{}` and `{}` are both typeset as {shown}: the report could not tell them apart",
                                    here.name, other.name
                                ),
                            )
                            .hint("give one of them a distinct `symbol`"),
                        );
                    }
                }
            }
        }
    }

    /// Pass 2: dependency order, cycles, unknown names. The definitions in
    /// the order they are evaluated, and which of them can be.
    fn parameter_order(&mut self, raws: &[Option<Raw>]) -> (Vec<usize>, Vec<bool>) {
        let n = raws.len();
        let mut deps: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut ok = vec![true; n];
        for (i, raw) in raws.iter().enumerate() {
            let Some(raw) = raw else {
                ok[i] = false;
                continue;
            };
            for (name, _) in raw.expr.params() {
                if let Some(&j) = self.param_index.get(name) {
                    deps[i].push(j);
                }
            }
            if !self.check_names(&raw.expr, &raw.node_span, raw.offset) {
                ok[i] = false;
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
                                    .map(|&c| self.params[c].as_str())
                                    .collect();
                                let span = raws[dep].as_ref().map_or(0..0, |r| r.name_span.clone());
                                self.error(
                                    Diagnostic::new(
                                        span,
                                        format!(
                                            "parameter `{}` depends on itself: {}",
                                            self.params[dep],
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
        (order, ok)
    }

    /// Pass 3: evaluate in order, moving each definition into its
    /// parameter (a case may define 10⁶ of them: no copies); the
    /// parameters and their order of evaluation.
    fn evaluate_parameters(
        &mut self,
        mut raws: Vec<Option<Raw>>,
        order: Vec<usize>,
        ok: Vec<bool>,
    ) -> (Vec<Parameter>, Vec<usize>) {
        let n = raws.len();
        let mut built: Vec<Option<Parameter>> = (0..n).map(|_| None).collect();
        for &i in &order {
            if !ok[i] {
                continue;
            }
            let Some(raw) = raws[i].take() else { continue };
            match self.env.eval(&raw.expr) {
                Ok(v) => {
                    let dim = v.dim.unwrap_or(Dim::NONE);
                    self.env
                        .values
                        .insert(raw.name.clone(), Value::new(v.si, dim));
                    self.param_defs
                        .insert(raw.name.clone(), raw.node_span.clone());
                    let tolerance = match &raw.tolerance {
                        Some((t, written, at)) => {
                            match self.evaluate_tolerance(
                                t,
                                &raw.name,
                                v.si,
                                dim,
                                written,
                                at.clone(),
                            ) {
                                Some(t) => Some(t),
                                None => continue,
                            }
                        }
                        None => None,
                    };
                    built[i] = Some(Parameter {
                        name: raw.name,
                        name_span: raw.name_span,
                        value: Val {
                            text: raw.text,
                            expr: raw.expr,
                            span: raw.node_span,
                            si: v.si,
                            dim,
                        },
                        description: raw.description,
                        symbol: raw.symbol,
                        tolerance,
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
        for (i, p) in built.into_iter().enumerate() {
            if let Some(p) = p {
                index_of[i] = params.len();
                params.push(p);
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
}
