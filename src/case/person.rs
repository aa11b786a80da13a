//! `[[person]]`: a body region of a person that a contact may strike
//! (transient contact as collaborative-robot assessments model it). Every
//! value is the user's: meff ships no standard's table.

use super::read::{Reader, get};
use super::types::{Person, Val};
use crate::diag::Diagnostic;
use crate::units::Dim;
use toml::de::DeValue;

type Node<'i> = toml::Spanned<DeValue<'i>>;

pub(super) const PERSON_KEYS: &[&str] = &[
    "contact",
    "region",
    "mass",
    "stiffness",
    "force_limit",
    "speed",
    "description",
];

impl Reader<'_> {
    pub(super) fn persons(&mut self, node: Option<&Node>, contacts: &[String]) -> Vec<Person> {
        let mut out = Vec::new();
        for (t, span) in self.tables(node, "`[[person]]`") {
            self.keys(t, PERSON_KEYS, "`[[person]]`");
            let contact = self
                .required(t, "contact", "`[[person]]`", &span)
                .and_then(|n| {
                    let name = self.string(n, "`contact`")?;
                    match contacts.iter().position(|c| *c == name) {
                        Some(i) => Some(i),
                        None => {
                            let d = Diagnostic::new(n.span(), format!("no contact named `{name}`"))
                                .maybe_hint(
                                    crate::diag::closest(
                                        &name,
                                        contacts.iter().map(String::as_str),
                                    )
                                    .map(|b| format!("did you mean `{b}`?")),
                                );
                            self.error(d);
                            None
                        }
                    }
                });
            let region = get(t, "region")
                .and_then(|n| self.string(n, "`region`"))
                .unwrap_or_else(|| "body region".into());
            let mut positive =
                |key: &str, dim: Dim, what: &str, required: bool| -> Option<Option<Val>> {
                    let n = match get(t, key) {
                        Some(n) => n,
                        None if required => {
                            self.required(t, key, "`[[person]]`", &span);
                            return None;
                        }
                        None => return Some(None),
                    };
                    let v = self.value(n, dim, what);
                    self.positive(v, what).map(Some)
                };
            let mass = positive("mass", Dim::MASS, "a body region's mass", true);
            let stiffness = positive(
                "stiffness",
                Dim::STIFFNESS,
                "a body region's spring constant",
                true,
            );
            let force_limit = positive("force_limit", Dim::FORCE, "a force limit", false);
            let speed = positive("speed", Dim::LENGTH.per(Dim::TIME), "a speed", false);
            if let (
                Some(contact),
                Some(Some(mass)),
                Some(Some(stiffness)),
                Some(force_limit),
                Some(speed),
            ) = (contact, mass, stiffness, force_limit, speed)
            {
                out.push(Person {
                    contact,
                    region,
                    mass,
                    stiffness,
                    force_limit,
                    speed,
                });
            }
        }
        out
    }
}
