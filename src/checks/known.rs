//! The values a case's words may restate ([`super::description`]): every
//! input typed in the case file, the model's masses and shaped bodies'
//! m/V, a program's sampling, and the report's results by JSON key.

use super::description::{DENSITY, Known, SPEED, stated};
use crate::case::Case;
use crate::units::{Dim, parse_unit};

/// JSON keys of a report whose numbers are masses, frequencies, times or
/// forces (every key of that dimension the JSON has; a key not listed only
/// makes the check warn where it need not).
const KEYS: &[(Dim, &[&str])] = &[
    (
        Dim::MASS,
        &[
            "m_eff",
            "m_eff_with_armature",
            "m_eff_without_armature",
            "m_engine",
            "m_together",
            "mass",
            "masses",
            "naive_mass",
            "rule_mass",
            "payload_mass",
            "moving_mass",
            "reduced_mass",
            "robot_mass",
            "total_mass",
        ],
    ),
    (
        Dim::FREQUENCY,
        &[
            "omega",
            "omega_naive",
            "omega_d",
            "omega_measured",
            "omega_predicted",
            "omega_d_measured",
            "omega_d_predicted",
            "coupled_omega_max",
            "coupled_omega_upper_bound",
            "independent_omega_max",
            "decay_rates",
            "decay_measured",
            "decay_predicted",
            "case_order",
            "min",
            "max",
            "frequency",
        ],
    ),
    (
        Dim::TIME,
        // And every key of `STEP_KEYS`.
        &[
            "duration",
            "time_to_peak",
            "time_to_compression",
            "start",
            "end",
        ],
    ),
    (Dim::FORCE, &["peak_force", "force_limit", "preload"]),
    (DENSITY, &["density"]),
    (
        Dim::LENGTH,
        &[
            "compression",
            "height",
            "overlap",
            "max_overlap",
            "point",
            "points",
            "penetration",
            "width",
        ],
    ),
    (
        SPEED,
        &[
            "speed",
            "approach_speed",
            "rebound_speed",
            "max_speed",
            "max_speed_energy",
            "max_speed_exact",
            "max_speed_force",
            "max_speed_largest",
            "max_speed_rule",
            "max_speed_worst_direction",
            "min_speed",
            "peak_speed",
            "rule_speed",
        ],
    ),
];

/// Subtrees of the JSON that hold matrices or sampled histories.
const SKIP: &[&str] = &["model", "gap_history", "stability", "history", "jacobian"];

/// Keys whose numbers are times that are steps.
const STEP_KEYS: &[&str] = &[
    "dt",
    "dt0",
    "dt_coupled",
    "dt_independent",
    "dt_run_coupled",
    "dt_run_independent",
    "coupled",
    "independent",
    "coupled_damped",
    "independent_damped",
    "guaranteed",
    "governing",
    "step",
];

/// The values a report's JSON holds, by key.
pub fn known_in_json(v: &serde_json::Value) -> Vec<Known> {
    fn walk(v: &serde_json::Value, key: &str, out: &mut Vec<Known>) {
        match v {
            serde_json::Value::Object(m) => {
                // An input: its SI value and unit.
                if let (Some(x), Some(u)) = (
                    m.get("si").and_then(|x| x.as_f64()),
                    m.get("si_unit").and_then(|x| x.as_str()),
                ) && let Ok(unit) = parse_unit(u, false)
                {
                    out.push(Known {
                        value: x,
                        dim: unit.dim,
                        what: m
                            .get("name")
                            .and_then(|n| n.as_str())
                            .unwrap_or("an input")
                            .to_string(),
                        step: true,
                    });
                }
                // Struck contacts' peaks summed (the headline's total).
                if let Some(cs) = m.get("contacts").and_then(|c| c.as_array()) {
                    let sum: f64 = cs
                        .iter()
                        .filter(|c| c.get("role").and_then(|r| r.as_str()) == Some("struck"))
                        .filter_map(|c| c.get("peak_force").and_then(|f| f.as_f64()))
                        .sum();
                    if sum > 0.0 {
                        out.push(Known {
                            value: sum,
                            dim: Dim::FORCE,
                            what: "struck contacts' peaks summed".into(),
                            step: false,
                        });
                    }
                }
                for (k, x) in m {
                    // The matrices (a mass matrix's entries are not all
                    // masses) and sampled histories name no result.
                    if !SKIP.contains(&k.as_str()) {
                        walk(x, k, out);
                    }
                }
            }
            serde_json::Value::Array(a) => {
                for x in a {
                    walk(x, key, out);
                }
            }
            serde_json::Value::Number(n) => {
                let step = STEP_KEYS.contains(&key);
                let dim = KEYS
                    .iter()
                    .find(|(_, ks)| ks.contains(&key))
                    .map(|(d, _)| *d)
                    .or(step.then_some(Dim::TIME));
                if let (Some(x), Some(dim)) = (n.as_f64(), dim) {
                    out.push(Known {
                        value: x,
                        dim,
                        what: key.to_string(),
                        step,
                    });
                }
            }
            serde_json::Value::String(s) if key == "settings" => {
                // An engine's settings written with their units (its
                // step); not the case's own words, which would match
                // themselves.
                for st in stated(s) {
                    out.push(Known {
                        value: st.value,
                        dim: st.dim,
                        what: key.to_string(),
                        step: true,
                    });
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, "", &mut out);
    out
}

/// Body and link masses of the model, and their total.
pub fn known_in_model(case: &Case, model: &crate::model::Model<f64>) -> Vec<Known> {
    let mut masses: Vec<f64> = Vec::new();
    if let crate::model::Kind::Bodies { bodies, .. } = &model.kind {
        masses.extend(bodies.iter().filter_map(|b| b.mass()));
    }
    if let crate::case::Form::Robot(r) = &case.form {
        masses.extend(r.robot.tree.bodies.iter().map(|b| b.mass));
    }
    let total: f64 = masses.iter().sum();
    // Each mass's weight, and the total's, m g (a description may give a
    // part's weight on a scale).
    let weights: Vec<Known> = masses
        .iter()
        .chain([&total])
        .flat_map(|m| {
            // Standard gravity, or a rounded one ("weighs 19.6 N").
            [super::dynamics::GRAVITY, 9.81, 9.8].map(|g| Known {
                value: m * g,
                dim: Dim::FORCE,
                what: "a weight m g".into(),
                step: false,
            })
        })
        .collect();
    let densities = shaped_densities(case, model);
    // MuJoCo's solref time constant is a time the case types without a
    // unit (the settings line cannot carry it).
    let solref = case
        .engines
        .mujoco
        .as_ref()
        .map(|m| m.solref[0])
        .filter(|t| *t > 0.0)
        .map(|t| Known {
            value: t,
            dim: Dim::TIME,
            what: "solref's time constant".into(),
            step: true,
        });
    masses
        .into_iter()
        .map(|m| Known {
            value: m,
            dim: Dim::MASS,
            what: "a body's mass".into(),
            step: false,
        })
        .chain(std::iter::once(Known {
            value: total,
            dim: Dim::MASS,
            what: "the bodies' total mass".into(),
            step: false,
        }))
        .chain(solref)
        .chain(densities)
        .chain(weights)
        .collect()
}

/// Every quantity typed as a value in the case file (any string that is
/// not a title or a description, at any depth: a contact's Hertz `load`, a
/// drop height, an engine setting), and a program's sampling interval and
/// rate: the case's own inputs, which its words may restate.
pub fn known_in_source(case: &Case) -> Vec<Known> {
    fn walk(v: &toml::Value, key: &str, out: &mut Vec<Known>) {
        match v {
            toml::Value::String(s) if key != "description" && key != "title" => {
                for st in stated(s) {
                    out.push(Known {
                        value: st.value,
                        dim: st.dim,
                        what: format!("`{key}` as typed"),
                        step: true,
                    });
                }
            }
            toml::Value::Array(a) => a.iter().for_each(|x| walk(x, key, out)),
            toml::Value::Table(t) => t.iter().for_each(|(k, x)| walk(x, k, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    // The reader has parsed this text already; a failure here only means
    // fewer known values.
    if let Ok(table) = case.source.parse::<toml::Table>() {
        table.iter().for_each(|(k, x)| walk(x, k, &mut out));
    }
    if let Some(m) = &case.motion
        && m.time.len() > 1
    {
        let mut dt: Vec<f64> = m.time.windows(2).map(|w| w[1] - w[0]).collect();
        dt.sort_by(f64::total_cmp);
        let median = dt[dt.len() / 2];
        if median > 0.0 {
            out.push(Known {
                value: median,
                dim: Dim::TIME,
                what: "the program's sampling interval".into(),
                step: true,
            });
            out.push(Known {
                value: 1.0 / median,
                dim: Dim::FREQUENCY,
                what: "the program's sampling rate".into(),
                step: true,
            });
        }
    }
    out
}

/// Every value the case's words may restate: the model's masses, the
/// values typed in the file, and the report's (`json`).
pub fn known(
    case: &Case,
    model: &crate::model::Model<f64>,
    json: Option<serde_json::Value>,
) -> Vec<Known> {
    let mut known = known_in_model(case, model);
    known.extend(known_in_source(case));
    if let Some(v) = json {
        known.extend(known_in_json(&v));
    }
    known
}

/// Each shaped body's m/V.
fn shaped_densities(case: &Case, model: &crate::model::Model<f64>) -> Vec<Known> {
    let (crate::case::Form::Bodies { bodies, .. }, crate::model::Kind::Bodies { bodies: mb, .. }) =
        (&case.form, &model.kind)
    else {
        return Vec::new();
    };
    bodies
        .iter()
        .zip(mb)
        .filter_map(|(b, m)| {
            let s = b.shape.as_ref()?;
            let v = s.kind.volume(&s.size)?;
            Some(Known {
                value: m.mass()? / v,
                dim: DENSITY,
                what: format!("m/V of body {}'s {}", b.name, s.kind.name()),
                step: false,
            })
        })
        .collect()
}
