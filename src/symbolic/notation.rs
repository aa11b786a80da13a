//! Quantities and units as typed, written as LaTeX (`0.10\,\mathrm{m}`):
//! the notation the closed forms, the parameter table and the printer
//! share.

/// A quantity as typed (`"0.10 m"`, `"1e5 N/m"`) in LaTeX.
pub fn latex_quantity(text: &str) -> String {
    let text = text.trim();
    let split = text
        .find(|c: char| c.is_whitespace() || c.is_alphabetic() && c != 'e' && c != 'E')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number = number.trim();
    let num_latex = match super::decimal(number) {
        Some(_) => match number.to_ascii_lowercase().split_once('e') {
            Some((m, e)) => {
                let e = e.trim_start_matches('+');
                if m == "1" {
                    format!("10^{{{e}}}")
                } else {
                    format!("{m}\\times10^{{{e}}}")
                }
            }
            None => number.to_string(),
        },
        None => return format!("\\mathrm{{{text}}}"),
    };
    let unit = unit.trim();
    if unit.is_empty() {
        return num_latex;
    }
    if unit == "deg" {
        return format!("{num_latex}^{{\\circ}}");
    }
    format!("{num_latex}\\,{}", latex_unit(unit))
}

/// A unit string in LaTeX: `kg m^2` → `\mathrm{kg}\,\mathrm{m}^{2}`.
pub fn latex_unit(unit: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let mut chars = unit.chars().peekable();
    let flush = |word: &mut String, out: &mut String| {
        if !word.is_empty() {
            if !out.is_empty() && !out.ends_with('/') {
                out.push_str("\\,");
            }
            let w = if word == "deg" {
                "{}^{\\circ}".to_string()
            } else {
                // `u` as the micro prefix is written µ (`um` → µm).
                let micro = word.len() > 1
                    && word.starts_with('u')
                    && ["m", "s", "g", "N", "Pa", "J", "W", "Hz", "rad"].contains(&&word[1..]);
                let w = if micro {
                    format!("µ{}", &word[1..])
                } else {
                    word.clone()
                };
                format!("\\mathrm{{{w}}}")
            };
            out.push_str(&w);
            word.clear();
        }
    };
    while let Some(ch) = chars.next() {
        match ch {
            '^' => {
                flush(&mut word, &mut out);
                let mut exp = String::new();
                while let Some(&d) = chars.peek() {
                    if d.is_ascii_digit() || (exp.is_empty() && (d == '-' || d == '+')) {
                        exp.push(d);
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push_str(&format!("^{{{exp}}}"));
            }
            '/' => {
                flush(&mut word, &mut out);
                out.push('/');
            }
            c if c.is_whitespace() || c == '·' || c == '*' => flush(&mut word, &mut out),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut out);
    out
}

#[cfg(test)]
mod unit_tests {
    #[test]
    fn micro_is_written_mu() {
        assert_eq!(super::latex_unit("um"), "\\mathrm{µm}");
        assert_eq!(super::latex_unit("µs"), "\\mathrm{µs}");
        assert_eq!(
            super::latex_unit("kg m^2"),
            "\\mathrm{kg}\\,\\mathrm{m}^{2}"
        );
    }
}
