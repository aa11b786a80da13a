//! One result of a report by name, as books quote it
//! (`{{#meff-value CASE QUANTITY}}`): the names claims use — `m_eff(c)`,
//! `a(c)`, `omega(c)`, `f(c)`, `A(c1, c2)`, `mode_omega(i)`, `mode_f(i)` —
//! and `omega_max`, `stable_dt`, or a parameter's name.

use super::Report;

/// What kind of value, for its unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// kg (the case's display unit for masses applies).
    Mass,
    /// 1/kg.
    InverseMass,
    /// rad/s (the display unit for ω applies).
    Omega,
    /// Hz.
    Frequency,
    /// s (shown in a convenient multiple).
    Time,
    /// A parameter in SI: its unit is given.
    Si,
}

/// A value found in a report: SI number, kind, and (for a parameter) its
/// SI unit text.
#[derive(Clone, Debug)]
pub struct Found {
    /// SI value.
    pub si: f64,
    /// Kind.
    pub kind: Kind,
    /// SI unit text of a parameter (`Kind::Si`).
    pub unit: String,
}

/// The value of `quantity` in `report`, or why there is none.
pub fn lookup(report: &Report, quantity: &str) -> Result<Found, String> {
    let q: String = quantity.chars().filter(|c| !c.is_whitespace()).collect();
    let found = |si: f64, kind: Kind| Found {
        si,
        kind,
        unit: String::new(),
    };
    let contact = |name: &str| {
        report
            .contacts
            .iter()
            .find(|c| c.name == name)
            .ok_or_else(|| {
                let names: Vec<&str> = report
                    .contacts
                    .iter()
                    .map(|c| c.name.as_str())
                    .take(20)
                    .collect();
                format!("unknown contact `{name}` (contacts: {})", names.join(", "))
            })
    };
    let mode = |arg: &str| -> Result<f64, String> {
        let k: usize = arg
            .parse()
            .ok()
            .filter(|k| *k >= 1)
            .ok_or_else(|| format!("`{arg}` is not a mode number (1 is the fastest)"))?;
        report
            .modes
            .get(k - 1)
            .map(|m| m.omega)
            .ok_or_else(|| format!("the case has {} modes", report.modes.len()))
    };
    match q.as_str() {
        "omega_max" => return Ok(found(report.coupled_omega_max, Kind::Omega)),
        "stable_dt" => {
            return report
                .stable_dt
                .coupled
                .map(|t| found(t, Kind::Time))
                .ok_or_else(|| "the case has no stable timestep (nothing moves)".into());
        }
        _ => {}
    }
    if let Some((func, rest)) = q.split_once('(') {
        let Some(args) = rest.strip_suffix(')') else {
            return Err(format!("`{quantity}`: a `)` is missing"));
        };
        if let Some(&(_, which)) = crate::case::ImpactQuantity::ALL
            .iter()
            .find(|(n, _)| *n == func)
        {
            return impact_value(report, which, args);
        }
        let one = |f: &dyn Fn(&super::ContactReport) -> Result<Found, String>| f(contact(args)?);
        return match func {
            "m_eff" => one(&|c| {
                c.m_eff
                    .map(|m| found(m, Kind::Mass))
                    .ok_or_else(|| "the contact is immobile: its effective mass is infinite".into())
            }),
            "a" => one(&|c| Ok(found(c.a, Kind::InverseMass))),
            "omega" => one(&|c| Ok(found(c.omega, Kind::Omega))),
            "f" => one(&|c| Ok(found(c.omega / std::f64::consts::TAU, Kind::Frequency))),
            "mode_omega" => mode(args).map(|w| found(w, Kind::Omega)),
            "mode_f" => mode(args).map(|w| found(w / std::f64::consts::TAU, Kind::Frequency)),
            "A" => {
                let (i, j) = args
                    .split_once(',')
                    .ok_or_else(|| "`A` takes two contacts: A(c1, c2)".to_string())?;
                let (i, j) = (contact(i)?.index, contact(j)?.index);
                // The matrix is in case order when it is printed at all.
                match report
                    .delassus
                    .matrix
                    .as_ref()
                    .and_then(|m| m.get(i))
                    .and_then(|row| row.get(j))
                {
                    Some(v) => Ok(found(*v, Kind::InverseMass)),
                    None => Err("A is not printed for this case (too many contacts)".into()),
                }
            }
            _ => Err(format!(
                "unknown result `{func}`: expected m_eff(c), a(c), omega(c), f(c), A(c1, c2), mode_omega(i), mode_f(i), peak_force(c), duration(c), restitution(c), compression(c), omega_max, stable_dt or a parameter"
            )),
        };
    }
    report
        .inputs
        .iter()
        .find(|p| p.name == q)
        .map(|p| Found {
            si: p.si,
            kind: Kind::Si,
            unit: p.si_unit.clone(),
        })
        .ok_or_else(|| {
            format!(
                "`{quantity}` is neither a result (m_eff(c), a(c), omega(c), f(c), A(c1, c2), mode_omega(i), mode_f(i), omega_max, stable_dt, peak_force(c), duration(c), restitution(c), compression(c)) nor a parameter of the case"
            )
        })
}

/// `peak_force(c)` or `peak_force(impact, c)` (and `duration`,
/// `restitution`, `compression`) from the report's impacts.
fn impact_value(
    report: &Report,
    which: crate::case::ImpactQuantity,
    args: &str,
) -> Result<Found, String> {
    use crate::case::ImpactQuantity as Q;
    let (impact, contact) = match args.split_once(',') {
        Some((i, c)) => (Some(i), c),
        None => (None, args),
    };
    let hits: Vec<_> = report
        .impacts
        .iter()
        .filter(|i| impact.is_none_or(|n| i.name == n))
        .filter_map(|i| i.contacts.iter().find(|c| c.contact == contact))
        .collect();
    let c = match hits[..] {
        [c] => c,
        [] => return Err(format!("no impact involves contact `{contact}`")),
        _ => {
            return Err(format!(
                "contact `{contact}` is in several impacts: name one, {}(impact, {contact})",
                which.name()
            ));
        }
    };
    let (si, kind, unit) = match which {
        Q::PeakForce => (c.peak_force, Kind::Si, "N"),
        Q::Duration => (c.duration, Kind::Time, ""),
        Q::Compression => (c.compression, Kind::Si, "m"),
        Q::Restitution => (
            c.restitution
                .ok_or_else(|| format!("contact `{contact}` rests: it has no restitution"))?,
            Kind::Si,
            "",
        ),
    };
    Ok(Found {
        si,
        kind,
        unit: unit.into(),
    })
}
