//! `[engine.<name>]`: a simulator's contact settings, to be translated
//! through the exact effective mass (`src/engines/`). Each table is read
//! into the engine's own parameters with the engine's defaults filled in;
//! values with units are `Val`s like every other value of a case.

pub(super) use super::engine_settings::*;
use super::read::{Reader, get, toml_number};
use super::types::Val;
use crate::diag::Diagnostic;
use crate::units::Dim;
use toml::de::{DeTable, DeValue};

type Node<'i> = toml::Spanned<DeValue<'i>>;

/// The keys each `[engine.<name>]` table accepts ([`Engine::table_keys`]).
pub(super) const MUJOCO_KEYS: &[&str] =
    &["timestep", "solref", "solimp", "integrator", "penetration"];
pub(super) const BOX2D_KEYS: &[&str] = &[
    "timestep",
    "substeps",
    "contact_hertz",
    "contact_damping_ratio",
];
pub(super) const BULLET_KEYS: &[&str] = &["timestep", "erp", "cfm", "stiffness", "damping"];
pub(super) const DRAKE_KEYS: &[&str] = &[
    "timestep",
    "stiffness",
    "dissipation",
    "relaxation_time",
    "near_rigid_threshold",
    "approximation",
    "preload",
];
pub(super) const RAPIER_KEYS: &[&str] = &[
    "timestep",
    "substeps",
    "contact_natural_frequency",
    "contact_damping_ratio",
];

impl Reader<'_> {
    pub(super) fn engines(&mut self, node: &Node) -> Engines {
        let mut out = Engines::default();
        let Some(t) = self.table(node, "`[engine]`") else {
            return out;
        };
        self.keys(t, ENGINE_NAMES, "`[engine]`");
        for (key, value) in t.iter() {
            let what = format!("`[engine.{}]`", key.get_ref());
            let Some(e) = self.table(value, &what) else {
                continue;
            };
            let Some(engine) = Engine::parse(key.get_ref().as_ref()) else {
                continue;
            };
            out.spans.push((engine, value.span()));
            match engine {
                Engine::Mujoco => out.mujoco = Some(self.mujoco(e, &what)),
                Engine::Box2d => out.box2d = Some(self.box2d(e, &what)),
                Engine::Bullet => out.bullet = Some(self.bullet(e, &what)),
                Engine::Drake => out.drake = Some(self.drake(e, &what, value.span())),
                Engine::Rapier => out.rapier = Some(self.rapier(e, &what)),
            }
        }
        out
    }

    /// A positive time, or the default.
    fn step(&mut self, t: &DeTable, default: Val) -> Val {
        get(t, "timestep")
            .and_then(|n| {
                let v = self.value(n, Dim::TIME, "a timestep");
                self.positive(v, "a timestep")
            })
            .unwrap_or(default)
    }

    /// A positive value of a dimension, or the default.
    fn positive_or(&mut self, t: &DeTable, key: &str, dim: Dim, what: &str, default: Val) -> Val {
        get(t, key)
            .and_then(|n| {
                let v = self.value(n, dim, what);
                self.positive(v, what)
            })
            .unwrap_or(default)
    }

    /// A frequency: a value with a unit, or a bare number in Hz as the
    /// engines' APIs take it.
    fn hertz(&mut self, t: &DeTable, key: &str, default: Val) -> Val {
        if let Some(n) = get(t, key)
            && toml_number(n).is_some()
        {
            return match self.real(n, &format!("`{key}`"), 0.0..=f64::INFINITY) {
                Some(x) if x > 0.0 => {
                    // Written back in scientific notation (`{x}` would print
                    // 1e64 as 65 digits, past the literal limit).
                    let text = format!("{x:e} Hz");
                    match crate::expr::parse(&text)
                        .ok()
                        .and_then(|e| crate::expr::eval(&e, &|_| None).ok().map(|v| (e, v.si)))
                        .filter(|(_, si)| si.is_normal())
                    {
                        Some((expr, si)) => Val {
                            text,
                            expr,
                            span: n.span(),
                            si,
                            dim: Dim::FREQUENCY,
                        },
                        None => {
                            self.error(Diagnostic::new(
                                n.span(),
                                format!("`{key}` is out of range (a frequency in Hz, normal 64-bit magnitude)"),
                            ));
                            default
                        }
                    }
                }
                Some(_) => {
                    self.error(Diagnostic::new(
                        n.span(),
                        format!("`{key}` must be positive"),
                    ));
                    default
                }
                None => default,
            };
        }
        self.positive_or(t, key, Dim::FREQUENCY, "a frequency", default)
    }

    /// A finite number (any sign) in `range`.
    fn real(
        &mut self,
        node: &Node,
        what: &str,
        range: std::ops::RangeInclusive<f64>,
    ) -> Option<f64> {
        match toml_number(node) {
            Some(v) if v.is_finite() && range.contains(&v) => Some(v),
            _ => {
                let (a, b) = (range.start(), range.end());
                let text = if b.is_infinite() {
                    format!("{what} must be a number ≥ {a}")
                } else {
                    format!("{what} must be a number from {a} to {b}")
                };
                self.error(Diagnostic::new(node.span(), text));
                None
            }
        }
    }

    /// A fixed-length array of finite numbers.
    fn reals<const N: usize>(&mut self, node: &Node, what: &str) -> Option<[f64; N]> {
        let items = match node.get_ref() {
            DeValue::Array(a) if a.len() == N => a,
            _ => {
                self.error(Diagnostic::new(
                    node.span(),
                    format!("{what} must be an array of {N} numbers"),
                ));
                return None;
            }
        };
        let mut out = [0.0; N];
        for (i, item) in items.iter().enumerate() {
            match toml_number(item) {
                Some(v) if v.is_finite() => out[i] = v,
                _ => {
                    self.error(Diagnostic::new(
                        item.span(),
                        format!("{what} must be an array of {N} numbers"),
                    ));
                    return None;
                }
            }
        }
        Some(out)
    }

    fn mujoco(&mut self, t: &DeTable, what: &str) -> MujocoSettings {
        self.keys(t, MUJOCO_KEYS, what);
        let d = MujocoSettings::defaults();
        let timestep = self.step(t, d.timestep);
        let mut solref = d.solref;
        if let Some(n) = get(t, "solref")
            && let Some(r) = self.reals::<2>(n, "`solref`")
        {
            if (r[0] > 0.0) != (r[1] > 0.0) || r[0] == 0.0 {
                self.error(
                    Diagnostic::new(n.span(), "`solref` mixes its two forms")
                        .hint("both positive: (timeconst, dampratio); both negative: (−stiffness, −damping); MuJoCo replaces a mix with its default"),
                );
            } else {
                solref = r;
            }
        }
        let mut solimp = d.solimp;
        if let Some(n) = get(t, "solimp")
            && let Some(s) = self.reals::<5>(n, "`solimp`")
        {
            let unit = |x: f64| (0.0001..=0.9999).contains(&x);
            if !unit(s[0]) || !unit(s[1]) || !unit(s[3]) || s[2] < 0.0 || s[4] < 1.0 {
                self.error(
                    Diagnostic::new(n.span(), "`solimp` is out of MuJoCo's range")
                        .hint("dmin, dmax and midpoint from 0.0001 to 0.9999, width ≥ 0, power ≥ 1 (MuJoCo clamps them; meff asks for the values it would use)"),
                );
            } else {
                solimp = s;
            }
        }
        let integrator = match get(t, "integrator") {
            None => d.integrator,
            Some(n) => match self.string(n, "`integrator`").as_deref() {
                None => d.integrator,
                Some("Euler" | "implicit" | "implicitfast") => MujocoIntegrator::Euler,
                Some("RK4") => MujocoIntegrator::Rk4,
                Some(other) => {
                    self.error(
                        Diagnostic::new(
                            n.span(),
                            format!("meff does not predict MuJoCo's `{other}` integrator"),
                        )
                        .hint("one of: Euler, implicit, implicitfast, RK4"),
                    );
                    d.integrator
                }
            },
        };
        let penetration =
            get(t, "penetration").and_then(|n| self.value(n, Dim::LENGTH, "a penetration"));
        MujocoSettings {
            timestep,
            solref,
            solimp,
            integrator,
            penetration,
        }
    }

    fn box2d(&mut self, t: &DeTable, what: &str) -> Box2dSettings {
        self.keys(t, BOX2D_KEYS, what);
        let d = Box2dSettings::defaults();
        Box2dSettings {
            timestep: self.step(t, d.timestep),
            substeps: get(t, "substeps")
                .and_then(|n| self.integer(n, "`substeps`", 1..=1000))
                .unwrap_or(d.substeps),
            contact_hertz: self.hertz(t, "contact_hertz", d.contact_hertz),
            contact_damping_ratio: get(t, "contact_damping_ratio")
                .and_then(|n| self.real(n, "`contact_damping_ratio`", 0.0..=f64::INFINITY))
                .unwrap_or(d.contact_damping_ratio),
        }
    }

    fn bullet(&mut self, t: &DeTable, what: &str) -> BulletSettings {
        self.keys(t, BULLET_KEYS, what);
        let d = BulletSettings::defaults();
        let timestep = self.step(t, d.timestep);
        let erp = get(t, "erp")
            .and_then(|n| self.real(n, "`erp`", 0.0..=1.0))
            .unwrap_or(d.erp);
        let cfm = get(t, "cfm")
            .and_then(|n| self.real(n, "`cfm`", 0.0..=f64::INFINITY))
            .unwrap_or(d.cfm);
        let stiffness = get(t, "stiffness").and_then(|n| {
            let v = self.value(n, Dim::STIFFNESS, "a stiffness");
            self.positive(v, "a stiffness")
        });
        let damping = get(t, "damping").and_then(|n| self.value(n, Dim::DAMPING, "a damping"));
        let spring = match (stiffness, damping) {
            (Some(k), Some(c)) => Some((k, c)),
            (Some(k), None) => Some((k, default_val("0 N s/m", Dim::DAMPING))),
            (None, Some(c)) => {
                self.error(Diagnostic::new(
                    c.span.clone(),
                    "a contact damping needs a contact stiffness beside it (Bullet uses the pair or ERP and CFM)",
                ));
                None
            }
            (None, None) => None,
        };
        if spring.is_some() && (get(t, "erp").is_some() || get(t, "cfm").is_some()) {
            let n = get(t, "erp").or(get(t, "cfm")).expect("one is there");
            self.error(
                Diagnostic::new(n.span(), "give either `erp`/`cfm` or `stiffness`/`damping`")
                    .hint("Bullet computes ERP and CFM from a contact stiffness and damping when they are set"),
            );
        }
        BulletSettings {
            timestep,
            erp,
            cfm,
            spring,
        }
    }

    fn drake(&mut self, t: &DeTable, what: &str, span: std::ops::Range<usize>) -> DrakeSettings {
        self.keys(t, DRAKE_KEYS, what);
        // The stiffness has no default: a placeholder stands where it is
        // missing or wrong (the error stands; nothing is translated).
        let d = DrakeSettings::defaults(default_val("1 N/m", Dim::STIFFNESS));
        let approximation = match get(t, "approximation") {
            None => d.approximation,
            Some(n) => match self.string(n, "`approximation`").as_deref() {
                None => d.approximation,
                Some(name) => DrakeApproximation::parse(name).unwrap_or_else(|| {
                    self.error(
                        Diagnostic::new(
                            n.span(),
                            format!("unknown discrete contact approximation `{name}`"),
                        )
                        .hint(format!("one of: {}", DrakeApproximation::names())),
                    );
                    d.approximation
                }),
            },
        };
        let stiffness = match get(t, "stiffness") {
            Some(n) => {
                let v = self.value(n, Dim::STIFFNESS, "a stiffness");
                self.positive(v, "a stiffness")
            }
            None => {
                self.error(
                    Diagnostic::new(super::read::header(&span), format!("{what} needs `stiffness`"))
                        .hint("Drake's point_contact_stiffness (the combined value of the two geometries)"),
                );
                None
            }
        }
        .unwrap_or(d.stiffness);
        let dissipation = get(t, "dissipation")
            .and_then(|n| self.value(n, DISSIPATION, "a dissipation"))
            .unwrap_or(d.dissipation);
        let relaxation_time = get(t, "relaxation_time")
            .and_then(|n| self.value(n, Dim::TIME, "a relaxation time"))
            .unwrap_or(d.relaxation_time);
        DrakeSettings {
            timestep: self.step(t, d.timestep),
            stiffness,
            dissipation,
            relaxation_time,
            near_rigid_threshold: get(t, "near_rigid_threshold")
                .and_then(|n| self.real(n, "`near_rigid_threshold`", 0.0..=f64::INFINITY))
                .unwrap_or(d.near_rigid_threshold),
            approximation,
            preload: get(t, "preload").and_then(|n| {
                let v = self.value(n, Dim::FORCE, "a preload");
                self.positive(v, "a preload")
            }),
        }
    }

    fn rapier(&mut self, t: &DeTable, what: &str) -> RapierSettings {
        self.keys(t, RAPIER_KEYS, what);
        let d = RapierSettings::defaults();
        RapierSettings {
            timestep: self.step(t, d.timestep),
            substeps: get(t, "substeps")
                .and_then(|n| self.integer(n, "`substeps`", 1..=1000))
                .unwrap_or(d.substeps),
            contact_natural_frequency: self.hertz(
                t,
                "contact_natural_frequency",
                d.contact_natural_frequency,
            ),
            contact_damping_ratio: get(t, "contact_damping_ratio")
                .and_then(|n| self.real(n, "`contact_damping_ratio`", 0.0..=f64::INFINITY))
                .unwrap_or(d.contact_damping_ratio),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::engine_settings::{ENGINE_NAMES, Engine};

    /// Every engine's table is in the list of tables and keys the docs
    /// test reads, and its key parses back.
    #[test]
    fn every_engine_is_listed() {
        for e in Engine::ALL {
            assert_eq!(Engine::parse(e.key()), Some(e));
            let table = format!("[engine.{}]", e.key());
            let listed = super::super::read::KEYS
                .iter()
                .find(|(t, _)| *t == table)
                .unwrap_or_else(|| panic!("{table} is not in case::KEYS"));
            assert_eq!(listed.1, e.table_keys());
        }
        assert_eq!(
            ENGINE_NAMES,
            ["mujoco", "box2d", "bullet", "drake", "rapier"]
        );
    }
}
