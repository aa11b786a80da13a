//! Notation: how meff writes names, quantities and numbers in LaTeX, below
//! everything that prints (the case reader's symbols, the expression
//! printer, the closed forms, the claims and the report formats share it):
//! quantities and units as typed (`0.10\,\mathrm{m}`), a parameter's symbol
//! from its name (`m_eff` → `m_{\mathrm{eff}}`), the Greek table, which
//! symbols every format typesets alike, numbers (`1.000\times10^{5}`) and
//! names as upright text; the symbols a sheet reserves and how a case's
//! colliding symbol is marked ([`reserved`]).

pub mod reserved;
pub use reserved::{RESERVED, parameter_symbol};

/// A unit as typeset text: `kg m^2` → `kg·m²`, `kg^-1` → `kg⁻¹`.
pub fn unit_text(unit: &str) -> String {
    let mut out = String::new();
    let mut chars = unit.trim().chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '^' => {
                while let Some(&d) = chars.peek() {
                    if !(d == '-' || d.is_ascii_digit()) {
                        break;
                    }
                    out.push(crate::number::superscript_char(d));
                    chars.next();
                }
            }
            ' ' => {
                if chars.peek().is_some_and(|n| *n != '/' && *n != ' ') && !out.ends_with('/') {
                    out.push('·');
                }
            }
            c => out.push(c),
        }
    }
    out
}

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

/// The Unicode letter of each name in [`GREEK`] (and `pi`), same order.
const GREEK_UNICODE: &[(&str, &str)] = &[
    ("alpha", "α"),
    ("beta", "β"),
    ("gamma", "γ"),
    ("delta", "δ"),
    ("epsilon", "ε"),
    ("zeta", "ζ"),
    ("eta", "η"),
    ("theta", "θ"),
    ("iota", "ι"),
    ("kappa", "κ"),
    ("lambda", "λ"),
    ("mu", "µ"),
    ("nu", "ν"),
    ("xi", "ξ"),
    ("rho", "ρ"),
    ("sigma", "σ"),
    ("tau", "τ"),
    ("upsilon", "υ"),
    ("phi", "φ"),
    ("chi", "χ"),
    ("psi", "ψ"),
    ("omega", "ω"),
    ("Gamma", "Γ"),
    ("Delta", "Δ"),
    ("Theta", "Θ"),
    ("Lambda", "Λ"),
    ("Xi", "Ξ"),
    ("Pi", "Π"),
    ("Sigma", "Σ"),
    ("Phi", "Φ"),
    ("Psi", "Ψ"),
    ("Omega", "Ω"),
    ("pi", "π"),
];

/// A LaTeX line of the kind meff writes (fractions, roots, `\left(`,
/// `\mathrm`, `\hat`, Greek, sub- and superscripts) as plain Unicode for
/// the terminal: `\frac{2}{\omega h}` → `2/(ω h)`, `10^{-3}` → `10⁻³`.
/// Not a LaTeX parser: what it does not know it drops the backslash of.
pub fn tex_plain(latex: &str) -> String {
    let chars: Vec<char> = latex.chars().collect();
    let mut i = 0;
    plain_until(&chars, &mut i, None)
}

/// Reads a `{…}` group (or one character, or one command) at `i`.
fn plain_group(c: &[char], i: &mut usize) -> String {
    while *i < c.len() && c[*i] == ' ' {
        *i += 1;
    }
    match c.get(*i) {
        Some('{') => {
            *i += 1;
            plain_until(c, i, Some('}'))
        }
        Some('\\') => {
            let mut j = *i;
            let s = plain_command(c, &mut j);
            *i = j;
            s
        }
        Some(ch) => {
            *i += 1;
            ch.to_string()
        }
        None => String::new(),
    }
}

/// `x` as it stands next to `/` or `√`: parenthesised unless one term.
fn plain_atom(x: &str) -> String {
    let one_term = |ch: char| {
        ch.is_alphanumeric() || matches!(ch, '.' | '_' | '\u{302}' | '\u{303}' | '\u{304}')
    };
    if x.chars().count() <= 1 || x.chars().all(one_term) {
        x.to_string()
    } else {
        format!("({x})")
    }
}

fn plain_script(x: &str, sup: bool) -> String {
    const SUP: [(char, char); 13] = [
        ('0', '⁰'),
        ('1', '¹'),
        ('2', '²'),
        ('3', '³'),
        ('4', '⁴'),
        ('5', '⁵'),
        ('6', '⁶'),
        ('7', '⁷'),
        ('8', '⁸'),
        ('9', '⁹'),
        ('-', '⁻'),
        ('+', '⁺'),
        ('*', '*'),
    ];
    if sup {
        let mapped: Option<String> = x
            .chars()
            .map(|ch| SUP.iter().find(|(a, _)| *a == ch).map(|(_, b)| *b))
            .collect();
        return mapped.unwrap_or_else(|| format!("^{}", plain_atom(x)));
    }
    format!("_{}", plain_atom(x))
}

fn plain_command(c: &[char], i: &mut usize) -> String {
    *i += 1; // the backslash
    let start = *i;
    while *i < c.len() && c[*i].is_ascii_alphabetic() {
        *i += 1;
    }
    let name: String = c[start..*i].iter().collect();
    if name.is_empty() {
        // `\,` `\;` `\!` `\{` …
        let ch = c.get(*i).copied().unwrap_or(' ');
        *i += 1;
        return match ch {
            ',' | ';' | ':' => " ".into(),
            '!' => String::new(),
            other => other.to_string(),
        };
    }
    match name.as_str() {
        "frac" | "dfrac" | "tfrac" => {
            let a = plain_group(c, i);
            let b = plain_group(c, i);
            format!("{}/{}", plain_atom(&a), plain_atom(&b))
        }
        "sqrt" => format!("√{}", plain_atom(&plain_group(c, i))),
        "hat" => format!("{}\u{302}", plain_group(c, i)),
        "bar" => format!("{}\u{304}", plain_group(c, i)),
        "tilde" => format!("{}\u{303}", plain_group(c, i)),
        "mathrm" | "text" | "mathit" | "operatorname" | "boldsymbol" | "mathbf" => {
            plain_group(c, i)
        }
        "left" | "right" | "big" | "Big" => String::new(),
        "times" => "×".into(),
        "cdot" => "·".into(),
        "approx" => "≈".into(),
        "le" | "leq" => "≤".into(),
        "ge" | "geq" => "≥".into(),
        "infty" => "∞".into(),
        "quad" | "qquad" => "  ".into(),
        "lVert" | "rVert" | "Vert" | "|" => "‖".into(),
        other => GREEK_UNICODE
            .iter()
            .find(|(n, _)| *n == other)
            .map_or_else(|| other.to_string(), |(_, u)| (*u).to_string()),
    }
}

fn plain_until(c: &[char], i: &mut usize, end: Option<char>) -> String {
    let mut out = String::new();
    while *i < c.len() {
        let ch = c[*i];
        if Some(ch) == end {
            *i += 1;
            break;
        }
        match ch {
            '\\' => out.push_str(&plain_command(c, i)),
            '{' => {
                *i += 1;
                out.push_str(&plain_until(c, i, Some('}')));
            }
            '_' | '^' => {
                *i += 1;
                let g = plain_group(c, i);
                out.push_str(&plain_script(&g, ch == '^'));
            }
            _ => {
                out.push(ch);
                *i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod plain_tests {
    use super::tex_plain;

    #[test]
    fn latex_lines_read_as_unicode() {
        assert_eq!(tex_plain("\\frac{2}{\\omega h}"), "2/(ω h)");
        assert_eq!(
            tex_plain("3.380\\times10^{5}\\,\\mathrm{N/m}"),
            "3.380×10⁵ N/m"
        );
        assert_eq!(tex_plain("\\sqrt{k^{*} A_{ii}}"), "√(k* A_ii)");
        assert_eq!(tex_plain("\\hat{A}_{ii}"), "A\u{302}_ii");
        assert_eq!(tex_plain("\\tilde{J}_{1}"), "J\u{303}_1");
        assert_eq!(tex_plain("\\left(1 - d\\right)"), "(1 - d)");
        assert_eq!(tex_plain("10^{-3}"), "10⁻³");
        assert_eq!(
            tex_plain("\\zeta = \\frac{c}{2\\sqrt{k m}}"),
            "ζ = c/(2√(k m))"
        );
    }
}
