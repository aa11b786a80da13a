//! `[display]` and `[verify]` settings.

use super::read::*;
use super::types::*;

impl Reader<'_> {
    pub(super) fn display(&mut self, node: &Node) -> Display {
        let mut out = Display::default();
        let Some(t) = self.table(node, "`[display]`") else {
            return out;
        };
        self.keys(t, super::read::DISPLAY_KEYS, "`[display]`");
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

    pub(super) fn verify(&mut self, node: &Node) -> Option<Verify> {
        let t = self.table(node, "`[verify]`")?;
        self.keys(t, super::read::VERIFY_KEYS, "`[verify]`");
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
            v.periods = self.integer(n, "`periods`", 1..=1_000);
        }
        if let Some(n) = get(t, "levels") {
            v.levels = self.integer(n, "`levels`", 1..=12);
        }
        Some(v)
    }
}
