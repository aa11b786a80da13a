//! Notation: how meff writes names, quantities and numbers in LaTeX, below
//! everything that prints (the case reader's symbols, the expression
//! printer, the closed forms, the claims and the report formats share it):
//! quantities and units as typed (`0.10\,\mathrm{m}`), a parameter's symbol
//! from its name (`m_eff` → `m_{\mathrm{eff}}`), the Greek table, which
//! symbols every format typesets alike, numbers (`1.000\times10^{5}`) and
//! names as upright text.

/// A quantity as typed (`"0.10 m"`, `"1e5 N/m"`) in LaTeX.
pub fn latex_quantity(text: &str) -> String {
    let text = text.trim();
    let split = text
        .find(|c: char| c.is_whitespace() || c.is_alphabetic() && c != 'e' && c != 'E')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number = number.trim();
    if !is_decimal(number) {
        return format!("\\mathrm{{{text}}}");
    }
    let num_latex = match number.to_ascii_lowercase().split_once('e') {
        Some((m, e)) => {
            let e = e.trim_start_matches('+');
            if m == "1" {
                format!("10^{{{e}}}")
            } else {
                format!("{m}\\times10^{{{e}}}")
            }
        }
        None => number.to_string(),
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

/// A number in LaTeX: `1.000\times10^{5}`.
pub fn tex_number(x: f64, d: usize) -> String {
    let s = crate::number::sig(x, d);
    match s.split_once('e') {
        Some((m, e)) => {
            let e: i32 = e.parse().unwrap_or(0);
            format!("{m}\\times10^{{{e}}}")
        }
        None => s,
    }
}

/// A time in LaTeX in the sheets' unit: `6.325\,\mathrm{ms}`.
pub fn tex_time(x: f64, d: usize) -> String {
    let t = crate::number::time(x, d);
    match t.rsplit_once(' ') {
        Some((n, u)) => {
            let n = match n.split_once('e') {
                Some((m, e)) => format!("{m}\\times10^{{{}}}", e.parse::<i32>().unwrap_or(0)),
                None => n.to_string(),
            };
            let u = match u {
                "µs" => "\\mu\\mathrm{s}".to_string(),
                u => format!("\\mathrm{{{u}}}"),
            };
            format!("{n}\\,{u}")
        }
        None => t,
    }
}

/// A name (contact, velocity) as upright LaTeX text, with every character
/// LaTeX treats specially escaped.
pub fn tex_text(name: &str) -> String {
    let mut out = String::from("\\mathrm{");
    for c in name.chars() {
        match c {
            '{' | '}' | '_' | '&' | '%' | '#' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '\\' => out.push_str("\\backslash "),
            '^' => out.push_str("\\hat{}"),
            '~' => out.push_str("\\sim "),
            ' ' => out.push_str("\\ "),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out.push('}');
    out
}

/// Whether a number as typed is a plain decimal (`0.10`, `1e5`, `-2.5E-3`):
/// what the exact reader turns into a rational.
fn is_decimal(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let (mantissa, exp_ok) = match lower.split_once('e') {
        Some((m, e)) => (m.to_string(), e.parse::<i32>().is_ok()),
        None => (lower.clone(), true),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((&mantissa, ""));
    let digits = format!("{int}{frac}");
    exp_ok && (digits.is_empty() || digits.parse::<num_bigint::BigInt>().is_ok())
}

/// The Greek letters a name may spell (`theta` → `\theta`); `pi` is not
/// one of them: a parameter `pi` is a name, not the constant.
pub const GREEK: &[&str] = &[
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega",
    "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Phi", "Psi", "Omega",
];

fn latex_base(base: &str) -> String {
    if GREEK.contains(&base) {
        return format!("\\{base}");
    }
    let mut chars = base.chars();
    match (chars.next(), chars.as_str()) {
        (Some(c), "") => c.to_string(),
        (Some(c), rest) if rest.chars().all(|x| matches!(x, 'x' | 'y' | 'z')) => {
            format!("{c}_{{{rest}}}")
        }
        _ => format!("\\mathrm{{{base}}}"),
    }
}

/// The LaTeX symbol for a parameter name: `m1` → `m_{1}`, `theta` →
/// `\theta`, `I_b` → `I_{b}`, `m_eff` → `m_{\mathrm{eff}}`, `Ixx` → `I_{xx}`.
pub fn latex_symbol(name: &str) -> String {
    if let Some((base, sub)) = name.split_once('_') {
        let sub_latex = if sub.chars().count() == 1 || sub.chars().all(|c| c.is_ascii_digit()) {
            sub.to_string()
        } else if GREEK.contains(&sub) {
            format!("\\{sub}")
        } else {
            format!("\\mathrm{{{sub}}}")
        };
        return format!("{}_{{{sub_latex}}}", latex_base(base));
    }
    let digits_at = name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits_at > 0 && digits_at < name.len() {
        let (base, digits) = name.split_at(digits_at);
        return format!("{}_{{{digits}}}", latex_base(base));
    }
    latex_base(name)
}

/// Why a `symbol` a case gives cannot be typeset the same in every format
/// (`None`: it can). A symbol is a small piece of math: letters, digits,
/// primes, sub- and superscripts, non-empty groups, Greek letters and a
/// few commands (`\mathrm{…}` and the like with a word inside, accents
/// over one atom). Anything else — parentheses, `;`, `\\`, `^^`, an empty
/// `\frac{}{}`, an unknown command — would be translated differently, or
/// not at all, by the HTML (MathML), Markdown and PDF (Typst) renderers,
/// so the case is refused at the symbol instead.
pub fn symbol_problem(latex: &str) -> Option<String> {
    if latex.len() > 64 {
        return Some("a symbol is at most 64 bytes".into());
    }
    if latex.trim().is_empty() {
        return Some("a symbol is not empty".into());
    }
    let c: Vec<char> = latex.chars().collect();
    let mut i = 0;
    seq(&c, &mut i, 0, false)
        .err()
        .map(|why| format!("this symbol is not one meff typesets: {why}"))
}

/// Commands that take one word: `\mathrm{eff}`.
const WORD_ARG: &[&str] = &[
    "mathrm",
    "mathit",
    "mathbf",
    "mathsf",
    "mathcal",
    "text",
    "operatorname",
];
/// Accents over one atom: `\hat{x}`.
const ACCENT: &[&str] = &[
    "hat", "bar", "tilde", "dot", "ddot", "vec", "check", "breve", "overline",
];
/// Commands that stand alone besides the Greek letters.
const PLAIN: &[&str] = &[
    "ell",
    "partial",
    "nabla",
    "infty",
    "prime",
    "ast",
    "star",
    "dagger",
    "varepsilon",
    "vartheta",
    "varphi",
    "varrho",
    "varsigma",
    "pi",
];

// A recursive descent over the symbol's characters; `i` moves along `c`.

/// A sequence of atoms with their scripts, up to a closing `}` when `close`.
fn seq(c: &[char], i: &mut usize, depth: usize, close: bool) -> Result<usize, String> {
    if depth > 8 {
        return Err("groups nest too deep".into());
    }
    let mut items = 0;
    while *i < c.len() {
        match c[*i] {
            '}' if close => return Ok(items),
            '}' => return Err("a `}` closes nothing".into()),
            ' ' => *i += 1,
            _ => {
                atom(c, i, depth)?;
                items += 1;
                scripts(c, i, depth)?;
            }
        }
    }
    if close {
        Err("a `{` is not closed".into())
    } else {
        Ok(items)
    }
}
/// The `_`, `^` and `'` after an atom.
fn scripts(c: &[char], i: &mut usize, depth: usize) -> Result<(), String> {
    let mut seen = String::new();
    while *i < c.len() && matches!(c[*i], '_' | '^' | '\'') {
        let op = c[*i];
        *i += 1;
        if op == '\'' {
            continue;
        }
        if seen.contains(op) {
            return Err(format!("a second `{op}` on one atom"));
        }
        seen.push(op);
        while *i < c.len() && c[*i] == ' ' {
            *i += 1;
        }
        if *i >= c.len() || matches!(c[*i], '_' | '^' | '}') {
            return Err(format!("`{op}` needs something after it"));
        }
        atom(c, i, depth)?;
    }
    Ok(())
}
/// A `{…}` group, not empty.
fn group(c: &[char], i: &mut usize, depth: usize) -> Result<(), String> {
    *i += 1;
    if seq(c, i, depth + 1, true)? == 0 {
        return Err("an empty group `{}`".into());
    }
    *i += 1;
    Ok(())
}
/// One atom: a letter or digit, a group, or a command.
fn atom(c: &[char], i: &mut usize, depth: usize) -> Result<(), String> {
    let ch = c[*i];
    if ch == '{' {
        return group(c, i, depth);
    }
    if ch == '\\' {
        return command(c, i, depth);
    }
    if ch.is_alphanumeric() {
        *i += 1;
        return Ok(());
    }
    Err(format!(
        "`{ch}` cannot be typeset the same way in every format"
    ))
}

/// A command after its `\`: a Greek letter, a plain symbol, a word
/// command with its `{word}`, or an accent over one atom.
fn command(c: &[char], i: &mut usize, depth: usize) -> Result<(), String> {
    let start = *i + 1;
    let mut end = start;
    while end < c.len() && c[end].is_ascii_alphabetic() {
        end += 1;
    }
    let name: String = c[start..end].iter().collect();
    *i = end;
    if name.is_empty() {
        return Err("a `\\` that starts no command".into());
    }
    if GREEK.contains(&name.as_str()) || PLAIN.contains(&name.as_str()) {
        return Ok(());
    }
    while *i < c.len() && c[*i] == ' ' {
        *i += 1;
    }
    if WORD_ARG.contains(&name.as_str()) {
        if *i >= c.len() || c[*i] != '{' {
            return Err(format!("`\\{name}` needs a `{{…}}` argument"));
        }
        *i += 1;
        let from = *i;
        while *i < c.len() && c[*i] != '}' {
            let w = c[*i];
            if !(w.is_alphanumeric() || matches!(w, ' ' | ',' | '.' | '-')) {
                return Err(format!(
                    "`\\{name}{{…}}` holds a word (letters, digits, spaces), not `{w}`"
                ));
            }
            *i += 1;
        }
        if *i >= c.len() || *i == from {
            return Err(format!(
                "`\\{name}{{…}}` needs a non-empty, closed argument"
            ));
        }
        *i += 1;
        return Ok(());
    }
    if ACCENT.contains(&name.as_str()) {
        if *i >= c.len() {
            return Err(format!("`\\{name}` needs something to go over"));
        }
        return atom(c, i, depth);
    }
    Err(format!("`\\{name}` is not a command a symbol may use"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn micro_is_written_mu() {
        assert_eq!(super::latex_unit("um"), "\\mathrm{µm}");
        assert_eq!(super::latex_unit("µs"), "\\mathrm{µs}");
        assert_eq!(
            super::latex_unit("kg m^2"),
            "\\mathrm{kg}\\,\\mathrm{m}^{2}"
        );
    }

    #[test]
    fn symbols_that_every_format_typesets_alike() {
        for ok in [
            "r_{c}",
            "m_1",
            "I_{xx}",
            "\\theta_2",
            "m_{\\mathrm{eff}}",
            "\\hat{x}",
            "x'",
            "x''_1",
            "\\ell",
            "k^{2}_{a}",
            "\\mathrm{d} x",
            "ω",
            "\\bar x",
        ] {
            assert_eq!(symbol_problem(ok), None, "{ok}");
        }
        for bad in [
            "(",
            ")",
            "a;b",
            "\\frac{}{}",
            "x^^y",
            "x\\\\",
            "x_",
            "{}",
            "}",
            "{a",
            "\\evil",
            "\\mathrm{\") #panic(\"s}",
            "</math><script>",
            "x^{y}^{z}",
            "",
            "\\mathrm{}",
            "a$b",
            "#x",
        ] {
            assert!(symbol_problem(bad).is_some(), "{bad}");
        }
        // Every symbol meff makes from a name passes.
        for name in [
            "m1", "theta", "theta2", "I_b", "m_eff", "Ixx", "k_alpha", "x",
        ] {
            assert_eq!(symbol_problem(&latex_symbol(name)), None, "{name}");
        }
    }

    #[test]
    fn symbols() {
        assert_eq!(latex_symbol("m1"), "m_{1}");
        assert_eq!(latex_symbol("theta"), "\\theta");
        assert_eq!(latex_symbol("theta2"), "\\theta_{2}");
        assert_eq!(latex_symbol("I_b"), "I_{b}");
        assert_eq!(latex_symbol("m_eff"), "m_{\\mathrm{eff}}");
        assert_eq!(latex_symbol("Ixx"), "I_{xx}");
        assert_eq!(latex_symbol("k"), "k");
        assert_eq!(latex_symbol("mass"), "\\mathrm{mass}");
    }
}
