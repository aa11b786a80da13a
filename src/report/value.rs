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
    let call = call(quantity)?;
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
    if let Some((func, args)) = call {
        let func = func.as_str();
        if let Some(&(_, which)) = crate::case::ImpactQuantity::ALL
            .iter()
            .find(|(n, _)| *n == func)
        {
            return impact_value(report, which, &args);
        }
        let single = || match &args[..] {
            [a] => Ok(a.as_str()),
            _ => Err(format!("`{func}` takes one argument, {func}(x)")),
        };
        let one =
            |f: &dyn Fn(&super::ContactReport) -> Result<Found, String>| f(contact(single()?)?);
        return match func {
            "m_eff" => one(&|c| {
                c.m_eff
                    .map(|m| found(m, Kind::Mass))
                    .ok_or_else(|| "the contact is immobile: its effective mass is infinite".into())
            }),
            "a" => one(&|c| Ok(found(c.a, Kind::InverseMass))),
            "omega" => one(&|c| Ok(found(c.omega, Kind::Omega))),
            "f" => one(&|c| Ok(found(c.omega / std::f64::consts::TAU, Kind::Frequency))),
            "mode_omega" => mode(single()?).map(|w| found(w, Kind::Omega)),
            "mode_f" => mode(single()?).map(|w| found(w / std::f64::consts::TAU, Kind::Frequency)),
            "A" => {
                let [i, j] = &args[..] else {
                    return Err("`A` takes two contacts: A(c1, c2)".to_string());
                };
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
    args: &[String],
) -> Result<Found, String> {
    use crate::case::ImpactQuantity as Q;
    let (impact, contact) = match args {
        [i, c] => (Some(i.as_str()), c.as_str()),
        [c] => (None, c.as_str()),
        _ => {
            return Err(format!(
                "`{}` takes a contact, or an impact and a contact: {}(\"impact\", \"contact\")",
                which.name(),
                which.name()
            ));
        }
    };
    if let Some(n) = impact
        && !report.impacts.iter().any(|i| i.name == n)
    {
        let names: Vec<&str> = report
            .impacts
            .iter()
            .map(|i| i.name.as_str())
            .take(20)
            .collect();
        return Err(format!(
            "unknown impact `{n}` (impacts: {})",
            names.join(", ")
        ));
    }
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
                "contact `{contact}` is in several impacts: name one, {}(\"impact\", \"{contact}\")",
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

/// `func(arg, …)` split into the function's name and its arguments, or
/// `None` for a bare name. An argument is a name as written, white space
/// around it dropped (`peak_force(on a corner, corner)`, as claims write
/// it), or a double-quoted string kept exactly, for a name that holds a
/// `,`, a parenthesis, a quote or `}}` — `peak_force("on an edge", corner)`
/// — with `\"` and `\\` for a quote and a backslash.
fn call(quantity: &str) -> Result<Option<(String, Vec<String>)>, String> {
    let q = quantity.trim();
    let Some(open) = q.find('(') else {
        return Ok(None);
    };
    let func: String = q[..open].chars().filter(|c| !c.is_whitespace()).collect();
    let mut args = Vec::new();
    let mut arg = String::new();
    let mut quoted_arg = false;
    let mut chars = q[open + 1..].chars();
    loop {
        let Some(c) = chars.next() else {
            return Err(format!("`{quantity}`: a `)` is missing"));
        };
        match c {
            '"' if arg.trim().is_empty() && !quoted_arg => {
                arg = read_quoted(&mut chars).ok_or_else(|| {
                    format!("`{quantity}`: a quoted name is not closed with `\"`")
                })?;
                quoted_arg = true;
            }
            ',' | ')' => {
                let a = std::mem::take(&mut arg);
                args.push(if quoted_arg { a } else { a.trim().to_string() });
                quoted_arg = false;
                if c == ')' {
                    break;
                }
            }
            c if quoted_arg && c.is_whitespace() => {}
            c if quoted_arg => {
                return Err(format!(
                    "`{quantity}`: `{c}` after a quoted name (a `,` or `)` comes next)"
                ));
            }
            c => arg.push(c),
        }
    }
    if !chars.as_str().trim().is_empty() {
        return Err(format!(
            "`{quantity}`: `{}` after the `)`",
            chars.as_str().trim()
        ));
    }
    Ok(Some((func, args)))
}

/// The body of a double-quoted string after its opening quote, up to and
/// without its closing quote (`\"` and `\\` escaped); `None` if unclosed.
fn read_quoted(chars: &mut std::str::Chars<'_>) -> Option<String> {
    let mut out = String::new();
    loop {
        match chars.next()? {
            '"' => return Some(out),
            '\\' => out.push(chars.next()?),
            c => out.push(c),
        }
    }
}

/// A directive's words: split at white space, a double-quoted word kept
/// whole (`"my cases/a.toml"`, with `\"` and `\\`).
pub fn words(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some((w, r)) = first_word(rest)? {
        out.push(w);
        rest = r;
    }
    Ok(out)
}

/// The first word of `text` (see [`words`]) and the text after it.
pub fn first_word(text: &str) -> Result<Option<(String, &str)>, String> {
    let t = text.trim_start();
    if t.is_empty() {
        return Ok(None);
    }
    if let Some(body) = t.strip_prefix('"') {
        let mut chars = body.chars();
        let w =
            read_quoted(&mut chars).ok_or_else(|| format!("a quoted word is not closed: `{t}`"))?;
        return Ok(Some((w, chars.as_str())));
    }
    let end = t.find(char::is_whitespace).unwrap_or(t.len());
    Ok(Some((t[..end].to_string(), &t[end..])))
}

#[cfg(test)]
mod tests {
    use super::call;

    #[test]
    fn quoted_names_keep_their_spaces() {
        let (f, a) = call("peak_force(\"on an edge\", corner)").unwrap().unwrap();
        assert_eq!(
            (f.as_str(), a),
            (
                "peak_force",
                vec!["on an edge".to_string(), "corner".into()]
            )
        );
        let (_, a) = call(" m_eff ( \"a \\\"b\\\" c\" ) ").unwrap().unwrap();
        assert_eq!(a, vec!["a \"b\" c".to_string()]);
        let (_, a) = call("A( c 1 ,c2)").unwrap().unwrap();
        assert_eq!(a, vec!["c 1".to_string(), "c2".into()]);
        let (_, a) = call("m_eff(\"x, (y)\")").unwrap().unwrap();
        assert_eq!(a, vec!["x, (y)".to_string()]);
        assert!(call("stable_dt").unwrap().is_none());
        for bad in ["m_eff(\"open", "m_eff(a", "m_eff(\"a\" b)", "m_eff(a) x"] {
            assert!(call(bad).is_err(), "{bad}");
        }
        assert_eq!(
            super::words(" \"my cases/a.toml\" summary ").unwrap(),
            vec!["my cases/a.toml".to_string(), "summary".into()]
        );
    }
}
