//! `[[claim]]` and `[[sweep]]` tables and the quantities they name.

use super::read::*;
use super::types::*;

/// The most sweep points of one case, all sweeps together.
pub const MAX_SWEEP_POINTS: usize = 100_000;

impl Reader<'_> {
    pub(super) fn quantity_ref(
        &mut self,
        node: &Node,
        contacts: &[String],
    ) -> Option<(String, Quantity)> {
        let text = self.string(node, "`of`")?;
        let span = node.span();
        let offset = self.content_offset(&span, &text);
        let at = |r: Range<usize>| match offset {
            Some(o) => o + r.start..o + r.end,
            None => span.clone(),
        };
        let bad = |r: &mut Self, msg: String| {
            r.error(Diagnostic::new(span.clone(), msg).hint(
                "expected a(c), m_eff(c), omega(c), f(c), A(c1, c2), mode_omega(i), mode_f(i), or an impact's peak_force(c), duration(c), restitution(c), compression(c)",
            ));
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
                // Declared but invalid: its own error says why; no cascade.
                None if r.declared_contacts.contains(name) => None,
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
        if let Some(&(_, which)) = ImpactQuantity::ALL.iter().find(|(n, _)| *n == func) {
            return self
                .impact_quantity_ref(which, &args, contacts, &at, &span)
                .map(|q| (trimmed.to_string(), q));
        }
        let want = match func {
            "A" => 2,
            "a" | "m_eff" | "omega" | "f" | "mode_omega" | "mode_f" => 1,
            _ => {
                let d = Diagnostic::new(at(lead..lead + open), format!("unknown result `{func}`"))
                    .maybe_hint(
                        closest(func, ["a", "m_eff", "omega", "f", "A", "mode_omega", "mode_f", "peak_force", "duration", "restitution", "compression"])
                            .map(|b| format!("did you mean `{b}`?")),
                    )
                    .hint("expected a(c), m_eff(c), omega(c), f(c), A(c1, c2), mode_omega(i), mode_f(i), or an impact's peak_force(c), duration(c), restitution(c), compression(c)");
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
            "f" => Quantity::F(contact(self, 0)?),
            "A" => {
                let i = contact(self, 0);
                let j = contact(self, 1);
                Quantity::Delassus(i?, j?)
            }
            _ => match args[0].0.parse::<usize>() {
                Ok(i) if i >= 1 && func == "mode_f" => Quantity::ModeF(i),
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

    /// `peak_force(c)` or `peak_force(impact, c)` (and `duration`,
    /// `restitution`, `compression`): `c` struck or resting in exactly one
    /// impact, or in the one named.
    fn impact_quantity_ref(
        &mut self,
        which: ImpactQuantity,
        args: &[(String, Range<usize>)],
        contacts: &[String],
        at: &dyn Fn(Range<usize>) -> Range<usize>,
        span: &Range<usize>,
    ) -> Option<Quantity> {
        let func = which.name();
        let (impact_arg, contact_arg) = match args {
            [c] => (None, c),
            [i, c] => (Some(i), c),
            _ => {
                self.error(Diagnostic::new(
                    span.clone(),
                    format!("`{func}` takes a contact, or an impact and a contact: {func}(c) or {func}(impact, c)"),
                ));
                return None;
            }
        };
        if self.impact_index.is_empty() {
            self.error(
                Diagnostic::new(
                    span.clone(),
                    format!("`{func}` is an impact's result, and the case has no `[[impact]]`"),
                )
                .hint("add `[[impact]]` with `contact` and `speed` (or `drop`)"),
            );
            return None;
        }
        let (name, range) = contact_arg;
        let Some(c) = contacts.iter().position(|x| x == name) else {
            if !self.declared_contacts.contains(name) {
                let d = Diagnostic::new(at(range.clone()), format!("unknown contact `{name}`"))
                    .maybe_hint(
                        closest(name, contacts.iter().map(String::as_str))
                            .map(|b| format!("did you mean `{b}`?")),
                    );
                self.error(d);
            }
            return None;
        };
        let involves =
            |(_, s, r): &(String, Vec<usize>, Vec<usize>)| s.contains(&c) || r.contains(&c);
        let found: Vec<usize> = match impact_arg {
            Some((iname, irange)) => {
                match self.impact_index.iter().position(|(n, ..)| n == iname) {
                    Some(i) if involves(&self.impact_index[i]) => vec![i],
                    Some(_) => {
                        self.error(Diagnostic::new(
                            at(range.clone()),
                            format!("contact `{name}` is not in impact `{iname}`"),
                        ));
                        return None;
                    }
                    None => {
                        let names: Vec<String> =
                            self.impact_index.iter().map(|(n, ..)| n.clone()).collect();
                        let d = Diagnostic::new(
                            at(irange.clone()),
                            format!("no impact named `{iname}`"),
                        )
                        .maybe_hint(
                            closest(iname, names.iter().map(String::as_str))
                                .map(|b| format!("did you mean `{b}`?")),
                        )
                        .hint(format!("impacts: {}", names.join(", ")));
                        self.error(d);
                        return None;
                    }
                }
            }
            None => (0..self.impact_index.len())
                .filter(|&i| involves(&self.impact_index[i]))
                .collect(),
        };
        match found[..] {
            [i] => {
                if which == ImpactQuantity::Restitution && !self.impact_index[i].1.contains(&c) {
                    self.error(Diagnostic::new(
                        at(range.clone()),
                        format!("contact `{name}` rests in this impact: it has no approach speed to restore"),
                    ));
                    return None;
                }
                Some(Quantity::Impact(which, i, c))
            }
            [] => {
                self.error(Diagnostic::new(
                    at(range.clone()),
                    format!("no `[[impact]]` involves contact `{name}`"),
                ));
                None
            }
            _ => {
                let names: Vec<String> = found
                    .iter()
                    .map(|&i| format!("`{}`", self.impact_index[i].0))
                    .collect();
                self.error(
                    Diagnostic::new(
                        at(range.clone()),
                        format!("contact `{name}` is in {} impacts", found.len()),
                    )
                    .hint(format!(
                        "name the impact: {func}(impact, {name}) with impact one of {}",
                        names.join(", ")
                    )),
                );
                None
            }
        }
    }

    pub(super) fn claims(&mut self, node: Option<&Node>, contacts: &[String]) -> Vec<Claim> {
        let mut claims = Vec::new();
        for (t, span) in self.tables(node, "`[[claim]]`") {
            self.keys(t, super::read::CLAIM_KEYS, "`[[claim]]`");
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

    pub(super) fn sweeps(
        &mut self,
        node: Option<&Node>,
        params: &[Parameter],
        contacts: &[String],
    ) -> Vec<Sweep> {
        let mut sweeps = Vec::new();
        let mut total_points = 0;
        for (t, span) in self.tables(node, "`[[sweep]]`") {
            self.keys(t, super::read::SWEEP_KEYS, "`[[sweep]]`");
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
            if let Some(n) = points {
                total_points += n;
                if total_points > MAX_SWEEP_POINTS {
                    self.error(Diagnostic::new(
                        header(&span),
                        format!(
                            "the sweeps of this case have more than {MAX_SWEEP_POINTS} points in all (each point is a full analysis)"
                        ),
                    ));
                    continue;
                }
            }
            if let (Some(from), Some(to), Some(points)) = (from, to, points) {
                sweeps.push(Sweep {
                    span: header(&span),
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
}
