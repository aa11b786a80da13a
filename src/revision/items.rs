//! The named items of one meff JSON document: each quantity's stable
//! identifier (the key a diff matches on), its label in the sheet's words
//! and its [`Kind`] (how the sheet prints it).

use super::{Item, Kind};
use serde_json::Value;
use std::collections::BTreeMap;

/// One item of a document: its value, label and kind.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The value.
    pub item: Item,
    /// In the sheet's words.
    pub label: String,
    /// How the sheet prints it.
    pub kind: Kind,
}

/// The named items of one document: (group, identifier) → entry.
pub type Items = BTreeMap<(u8, String), Entry>;

/// Group keys: verdicts, inputs, results (the order they are listed in).
pub const VERDICT: u8 = 0;
const INPUT: u8 = 1;
const RESULT: u8 = 2;

/// Collects a document's items.
struct Put<'a>(&'a mut Items);

impl Put<'_> {
    fn text(&mut self, group: u8, id: String, label: String, s: &str) {
        let entry = Entry {
            item: Item::Text(s.to_string()),
            label,
            kind: Kind::Text,
        };
        self.0.insert((group, id), entry);
    }

    fn num(&mut self, id: String, label: String, v: &Value, unit: &'static str, kind: Kind) {
        self.num_in(RESULT, id, label, v, unit, kind);
    }

    fn num_in(
        &mut self,
        group: u8,
        id: String,
        label: String,
        v: &Value,
        unit: &'static str,
        kind: Kind,
    ) {
        if let Some(value) = v.as_f64() {
            let entry = Entry {
                item: Item::Number { value, unit },
                label,
                kind,
            };
            self.0.insert((group, id), entry);
        }
    }
}

/// A name as the quantity syntax writes it: quoted when it holds a space,
/// comma, parenthesis or quote (`peak_force("on an edge", corner)`).
pub fn arg(name: &str) -> String {
    if name.is_empty()
        || name
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '"' | '\\'))
    {
        format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        name.to_string()
    }
}

/// The named items of one document.
pub fn items(doc: &Value, which: &str) -> Result<Items, String> {
    if !doc.is_object() || doc.get("contacts").is_none() || doc.get("stable_dt").is_none() {
        return Err(format!(
            "the {which} document is not meff's JSON (no `contacts` and `stable_dt`)"
        ));
    }
    let mut out = Items::new();
    let mut put = Put(&mut out);
    inputs(doc, &mut put);
    contacts(doc, &mut put);
    steps(doc, &mut put);
    tolerances(doc, &mut put);
    impacts(doc, &mut put);
    verdicts(doc, &mut put);
    engines(doc, &mut put);
    persons(doc, &mut put);
    Ok(out)
}

fn array(v: &Value) -> impl Iterator<Item = &Value> {
    v.as_array().into_iter().flatten()
}

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

fn inputs(doc: &Value, put: &mut Put) {
    for p in array(&doc["inputs"]) {
        let name = str_of(&p["name"]).to_string();
        // The value as typed tells a changed expression; the SI value, a
        // changed number behind the same text (a parameter it uses).
        put.text(
            INPUT,
            name.clone(),
            format!("input {name}, as typed"),
            str_of(&p["value"]),
        );
        put.num_in(
            INPUT,
            format!("{name} (SI)"),
            format!("input {name}, SI value"),
            &p["si"],
            unit_of(str_of(&p["si_unit"])),
            Kind::Input,
        );
    }
}

/// The SI units meff writes, as static strings (unknown ones print as
/// "SI").
fn unit_of(s: &str) -> &'static str {
    const KNOWN: [&str; 16] = [
        "", "kg", "m", "s", "N", "N/m", "N s/m", "kg m^2", "rad", "rad/s", "1/s", "Hz", "m/s",
        "m/s^2", "J", "1/kg",
    ];
    KNOWN.iter().find(|k| **k == s).copied().unwrap_or("SI")
}

fn contacts(doc: &Value, put: &mut Put) {
    for c in array(&doc["contacts"]) {
        let name = str_of(&c["name"]);
        let n = arg(name);
        for (key, id, words, unit) in [
            ("m_eff", "m_eff", "effective mass m_eff", "kg"),
            ("a", "a", "inverse effective mass a", "1/kg"),
            ("omega", "omega", "ω", "rad/s"),
            ("stiffness", "k", "stiffness k", "N/m"),
            ("damping", "c", "damping c", "N s/m"),
            ("naive_mass", "naive_mass", "naive mass", "kg"),
        ] {
            put.num(
                format!("{id}({n})"),
                format!("{words} of {name}"),
                &c[key],
                unit,
                Kind::Value,
            );
        }
    }
    let names: Vec<String> = array(&doc["delassus"]["contacts"])
        .map(|v| str_of(v).to_string())
        .collect();
    for (i, row) in array(&doc["delassus"]["matrix"]).enumerate() {
        for (j, v) in array(row).enumerate() {
            let (Some(p), Some(q)) = (names.get(i), names.get(j)) else {
                continue;
            };
            // One entry per unordered pair, named in sorted order.
            if p <= q {
                put.num(
                    format!("A({}, {})", arg(p), arg(q)),
                    format!("Delassus entry A of {p} and {q}"),
                    v,
                    "1/kg",
                    Kind::Value,
                );
            }
        }
    }
    for (i, m) in array(&doc["modes"]).enumerate() {
        let r = i + 1;
        let words = format!("ω of coupled mode {r} (1 the fastest)");
        put.num(
            format!("mode_omega({r})"),
            words,
            &m["omega"],
            "rad/s",
            Kind::Value,
        );
    }
    for (i, m) in array(&doc["damped_modes"]).enumerate() {
        let r = i + 1;
        let words = format!("damping ratio ζ of damped mode {r}");
        put.num(
            format!("mode_zeta({r})"),
            words,
            &m["zeta"],
            "",
            Kind::Value,
        );
    }
}

fn steps(doc: &Value, put: &mut Put) {
    for (key, id, words, kind) in [
        (
            "coupled_omega_max",
            "omega_max",
            "coupled ω_max",
            Kind::Value,
        ),
        (
            "independent_omega_max",
            "independent_omega_max",
            "independent estimate max_i ω_i",
            Kind::Value,
        ),
        (
            "coupled_omega_upper_bound",
            "omega_max_upper_bound",
            "upper bound on ω_max",
            Kind::UpperBound,
        ),
    ] {
        put.num(id.into(), words.into(), &doc[key], "rad/s", kind);
    }
    // A Hertz sheet's governing fastest mode (its step is `stable_dt`).
    put.num(
        "omega_max at the Hertz impact's peak".into(),
        "coupled ω_max at the Hertz impact's peak".into(),
        &doc["hertz_states"]["at_peak"]["omega_max"],
        "rad/s",
        Kind::Value,
    );
    let Some(dt) = doc["stable_dt"].as_object() else {
        return;
    };
    for (key, v) in dt {
        match (key.as_str(), v) {
            ("governing", v) => {
                put.num("stable_dt".into(), "step to use".into(), v, "s", Kind::Step)
            }
            ("governing_by", Value::String(s)) => put.text(
                VERDICT,
                "what sets the step to use".into(),
                "what sets the step to use".into(),
                s,
            ),
            ("independent_over_coupled" | "governing_corners", _) => {}
            (k, v) => put.num(format!("stable_dt.{k}"), step_words(k), v, "s", Kind::Step),
        }
    }
}

/// A `stable_dt` key in the sheet's words.
fn step_words(key: &str) -> String {
    match key {
        "coupled" => "stable step 2/ω_max (coupled)".into(),
        "independent" => "step from the independent estimate 2/max_i ω_i".into(),
        "guaranteed" => {
            "guaranteed step (from bounds on ω_max; with tolerances the smallest over the box)"
                .into()
        }
        "coupled_damped" => "stable step with the dashpots (coupled)".into(),
        "independent_damped" => "step with the dashpots, one contact at a time".into(),
        "nominal_governing" => "step to use at the nominal inputs".into(),
        "nominal_guaranteed" => "guaranteed step at the nominal inputs".into(),
        k => format!("step ({})", k.replace('_', " ")),
    }
}

/// Results bounded over tolerances: each end by the result's id, labelled
/// with the sheet's words, printed as the Tolerances table prints it.
fn tolerances(doc: &Value, put: &mut Put) {
    for b in array(&doc["tolerances"]["results"]) {
        let id = str_of(&b["id"]);
        let words = match str_of(&b["quantity"]) {
            "" => id,
            q => q,
        };
        let unit = unit_of(str_of(&b["unit"]));
        // The document's own rule (`tolerance::Kind`); an older document
        // without it: a step or a speed limit down, else outward.
        let kind = match (str_of(&b["kind"]), b["step"].as_bool()) {
            ("step", _) | ("", Some(true)) => "step",
            ("limit", _) => "limit",
            ("", _) if id.starts_with("max_speed(") => "limit",
            _ => "value",
        };
        for (key, end, bound) in [
            ("lo", "lowest", Kind::LowerBound),
            ("hi", "highest", Kind::UpperBound),
        ] {
            let kind = match kind {
                "step" => Kind::Step,
                "limit" => Kind::Limit,
                _ => bound,
            };
            put.num(
                format!("{id} {end} over the tolerances"),
                format!("{words}, {end} over the tolerances"),
                &b[key],
                unit,
                kind,
            );
        }
    }
}

fn impacts(doc: &Value, put: &mut Put) {
    for imp in array(&doc["impacts"]) {
        let name = str_of(&imp["name"]);
        let i = arg(name);
        for c in array(&imp["contacts"]) {
            if str_of(&c["role"]) != "struck" {
                continue;
            }
            let contact = str_of(&c["contact"]);
            let n = arg(contact);
            for (key, words, unit, kind) in [
                ("peak_force", "peak force", "N", Kind::Value),
                ("duration", "contact duration", "s", Kind::Time),
                ("compression", "compression", "m", Kind::Value),
                ("restitution", "coefficient of restitution", "", Kind::Value),
            ] {
                put.num(
                    format!("{key}({i}, {n})"),
                    format!("{words}, impact {name} at {contact}"),
                    &c[key],
                    unit,
                    kind,
                );
            }
        }
    }
}

fn verdicts(doc: &Value, put: &mut Put) {
    for c in array(&doc["claims"]) {
        let (of, equals) = (str_of(&c["of"]), str_of(&c["equals"]));
        put.text(
            VERDICT,
            format!("claim {of} = {equals}"),
            format!("claim: {of} equals {equals}"),
            str_of(&c["verdict"]),
        );
    }
    if let Some(agrees) = doc["verification"]["verdict"]["agrees"].as_bool() {
        let v = if agrees { "agrees" } else { "disagrees" };
        let words = "verification by simulation".to_string();
        put.text(VERDICT, "verification".into(), words, v);
    }
    for w in array(&doc["model_checks"]) {
        let id = format!(
            "model check {} ({})",
            str_of(&w["rule"]),
            str_of(&w["input"])
        );
        let words = format!(
            "model check {} on {}",
            str_of(&w["rule"]).replace('_', " "),
            str_of(&w["input"])
        );
        put.text(VERDICT, id, words, "warns");
    }
}

fn engines(doc: &Value, put: &mut Put) {
    for e in array(&doc["engines"]) {
        let name = str_of(&e["name"]).to_string();
        if let Some(stable) = e["stable"].as_bool() {
            let v = if stable { "stable" } else { "unstable" };
            let words = format!("engine {name}: its step");
            put.text(VERDICT, format!("{name} step"), words, v);
        }
        for c in array(&e["contacts"]) {
            let contact = str_of(&c["name"]);
            let n = arg(contact);
            for (key, words, unit) in [
                ("k", "stiffness k", "N/m"),
                ("c", "damping c", "N s/m"),
                ("m_engine", "mass the engine takes", "kg"),
            ] {
                put.num(
                    format!("{name} {key}({n})"),
                    format!("engine {name}: {words} of {contact}"),
                    &c[key],
                    unit,
                    Kind::Value,
                );
            }
        }
    }
}

fn persons(doc: &Value, put: &mut Put) {
    for p in array(&doc["persons"]) {
        let at = format!("{} at {}", str_of(&p["region"]), str_of(&p["contact"]));
        let limit = p["force_limit"].as_f64();
        for (side, taken) in [("exact", "exact m_eff"), ("rule_of_thumb", "rule of thumb")] {
            let r = &p[side];
            // As the person table prints them: the speed at the limit
            // down, the peak force set against the limit up.
            for (key, words, unit, kind) in [
                ("robot_mass", "robot mass", "kg", Kind::Value),
                ("peak_force", "peak force", "N", Kind::UpperBound),
                ("max_speed", "speed at the force limit", "m/s", Kind::Limit),
            ] {
                put.num(
                    format!("person {at}: {side} {key}"),
                    format!("person, {at}: {words} ({taken})"),
                    &r[key],
                    unit,
                    kind,
                );
            }
            if side == "exact"
                && let (Some(f), Some(limit)) = (r["peak_force"].as_f64(), limit)
            {
                let v = if f <= limit {
                    "within its force limit"
                } else {
                    "over its force limit"
                };
                put.text(
                    VERDICT,
                    format!("person {at}"),
                    format!("person, {at}: force against its limit"),
                    v,
                );
            }
        }
    }
}
