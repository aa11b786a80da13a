//! `[[impact]]`: contacts that close at a speed — given, or from a drop
//! height under gravity (`v = √(2 g h)`, composed as a case expression so
//! that the closed forms and sweeps see it as typed).

use super::read::{Reader, get, header};
use super::types::{Impact, Val};
use crate::diag::Diagnostic;
use crate::units::Dim;
use std::ops::Range;
use toml::de::DeValue;

type Node<'i> = toml::Spanned<DeValue<'i>>;

pub(super) const IMPACT_KEYS: &[&str] = &[
    "name",
    "contact",
    "contacts",
    "resting",
    "speed",
    "drop",
    "gravity",
    "description",
];

/// Standard gravity, the default of `gravity`.
pub const STANDARD_GRAVITY: &str = "9.80665 m/s^2";

/// The most contacts one impact may involve (struck and resting): the
/// response is a dense 2n × 2n linear system per set of closed contacts.
pub const MAX_IMPACT_CONTACTS: usize = 16;

impl Reader<'_> {
    /// The contacts a list (or one name) names, each at most once.
    fn impact_contacts(
        &mut self,
        node: &Node,
        what: &str,
        contacts: &[String],
        many: bool,
    ) -> Option<Vec<(usize, Range<usize>)>> {
        let items: Vec<&Node> = if many {
            self.array(node, &format!("`{what}`"))?.iter().collect()
        } else {
            vec![node]
        };
        let mut out: Vec<(usize, Range<usize>)> = Vec::new();
        let mut ok = true;
        for item in items {
            let Some(name) = self.string(item, &format!("`{what}`")) else {
                ok = false;
                continue;
            };
            match contacts.iter().position(|c| *c == name) {
                Some(i) if out.iter().any(|(j, _)| *j == i) => {
                    self.error(Diagnostic::new(
                        item.span(),
                        format!("contact `{name}` is listed twice"),
                    ));
                    ok = false;
                }
                Some(i) => out.push((i, item.span())),
                None if self.declared_contacts.contains(&name) => ok = false,
                None => {
                    let d = Diagnostic::new(item.span(), format!("no contact named `{name}`"))
                        .maybe_hint(
                            crate::diag::closest(&name, contacts.iter().map(String::as_str))
                                .map(|b| format!("did you mean `{b}`?")),
                        );
                    self.error(d);
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }

    pub(super) fn impacts(&mut self, node: Option<&Node>, contacts: &[String]) -> Vec<Impact> {
        let mut out: Vec<Impact> = Vec::new();
        for (t, span) in self.tables(node, "`[[impact]]`") {
            self.keys(t, IMPACT_KEYS, "`[[impact]]`");
            let what = "`[[impact]]`";
            let struck = match (get(t, "contact"), get(t, "contacts")) {
                (Some(_), Some(n)) => {
                    self.error(
                        Diagnostic::new(n.span(), "give `contact` or `contacts`, not both")
                            .hint("`contacts = [\"a\", \"b\"]` strikes several together"),
                    );
                    None
                }
                (Some(n), None) => self.impact_contacts(n, "contact", contacts, false),
                (None, Some(n)) => match self.impact_contacts(n, "contacts", contacts, true) {
                    Some(v) if v.is_empty() => {
                        self.error(Diagnostic::new(n.span(), "`contacts` is empty"));
                        None
                    }
                    v => v,
                },
                (None, None) => {
                    self.error(
                        Diagnostic::new(header(&span), format!("{what} is missing `contact`"))
                            .hint("name the struck contact: `contact = \"corner\"`"),
                    );
                    None
                }
            };
            let resting = match get(t, "resting") {
                Some(n) => self.impact_contacts(n, "resting", contacts, true),
                None => Some(Vec::new()),
            };
            if let (Some(s), Some(r)) = (&struck, &resting) {
                for (i, at) in r {
                    if s.iter().any(|(j, _)| j == i) {
                        self.error(Diagnostic::new(
                            at.clone(),
                            format!("contact `{}` is both struck and resting", contacts[*i]),
                        ));
                    }
                }
                if s.len() + r.len() > MAX_IMPACT_CONTACTS {
                    self.error(Diagnostic::new(
                        header(&span),
                        format!(
                            "an impact involves at most {MAX_IMPACT_CONTACTS} contacts ({} here)",
                            s.len() + r.len()
                        ),
                    ));
                }
            }
            let speed = self.impact_speed(t, &span);
            let name = match get(t, "name") {
                Some(n) => self.string(n, "`name`").map(|s| (s, n.span())),
                None => struck.as_ref().map(|s| {
                    let joined = s
                        .iter()
                        .map(|(i, _)| contacts[*i].as_str())
                        .collect::<Vec<_>>()
                        .join("+");
                    (joined, header(&span))
                }),
            };
            if let Some((n, at)) = &name
                && out.iter().any(|i| &i.name == n)
            {
                self.error(
                    Diagnostic::new(at.clone(), format!("a second impact named `{n}`"))
                        .hint("give each `[[impact]]` its own `name`"),
                );
                continue;
            }
            let description = get(t, "description")
                .and_then(|n| self.string(n, "`description`"))
                .unwrap_or_default();
            if let (Some(struck), Some(resting), Some((speed, drop)), Some((name, _))) =
                (struck, resting, speed, name)
            {
                out.push(Impact {
                    name,
                    contacts: struck.into_iter().map(|(i, _)| i).collect(),
                    resting: resting.into_iter().map(|(i, _)| i).collect(),
                    speed,
                    drop,
                    description,
                });
            }
        }
        out
    }

    /// `speed`, or `drop` (with `gravity`) turned into `sqrt(2*g*h)`.
    #[allow(clippy::type_complexity)]
    fn impact_speed(
        &mut self,
        t: &toml::de::DeTable,
        span: &Range<usize>,
    ) -> Option<(Val, Option<(Val, Val)>)> {
        let speed_dim = Dim::LENGTH.per(Dim::TIME);
        match (get(t, "speed"), get(t, "drop")) {
            (Some(_), Some(n)) => {
                self.error(
                    Diagnostic::new(n.span(), "give `speed` or `drop`, not both")
                        .hint("`drop` is a height: the speed is then √(2 g h)"),
                );
                None
            }
            (Some(n), None) => {
                if let Some(g) = get(t, "gravity") {
                    self.error(
                        Diagnostic::new(g.span(), "`gravity` goes with `drop`")
                            .hint("with `speed` given, gravity plays no part"),
                    );
                }
                let v = self.value(n, speed_dim, "an approach speed");
                Some((self.positive(v, "an approach speed")?, None))
            }
            (None, Some(n)) => {
                let h = self.value(n, Dim::LENGTH, "a drop height");
                let h = self.positive(h, "a drop height");
                let g = match get(t, "gravity") {
                    Some(g) => {
                        let v = self.value(g, Dim::LENGTH.per(Dim::TIME).per(Dim::TIME), "gravity");
                        self.positive(v, "gravity")
                    }
                    None => self.composed(
                        STANDARD_GRAVITY.into(),
                        n.span(),
                        Dim::LENGTH.per(Dim::TIME).per(Dim::TIME),
                    ),
                };
                let (h, g) = (h?, g?);
                let text = format!("sqrt(2*({})*({}))", g.text, h.text);
                let v = self.composed(text, n.span(), speed_dim)?;
                Some((v, Some((h, g))))
            }
            (None, None) => {
                self.error(
                    Diagnostic::new(header(span), "`[[impact]]` is missing `speed`")
                        .hint("give `speed = \"1.2 m/s\"` or a drop height `drop = \"0.8 m\"`"),
                );
                None
            }
        }
    }
}
