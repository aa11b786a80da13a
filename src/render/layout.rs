//! Breaking long display equations so that nothing is cut off.
//!
//! MathML in today's browsers has no automatic line breaking, and a
//! scrollbar in a signed, printed report hides the final value. So meff
//! lays long equations out itself, as a careful hand derivation (or
//! LaTeX's `align`) does:
//!
//! * a chain `a = X = Y = 1.23` puts each right-hand side that does not fit
//!   beside the previous one on its own line, aligned at `=`;
//! * a right-hand side wider than the line breaks before a top-level `+` or
//!   `−`, continuation lines indented;
//! * a fraction wider than the line stacks its numerator and denominator,
//!   each broken the same way.
//!
//! Widths are estimated from the LaTeX in units of the math font's em
//! (letters ≈ 0.55 em, scripts at 70 %, nested fractions at 80 %), on the
//! safe side. [`WIDTH`] fits an A4 page with 14 mm margins at the report's
//! math size; the browser test checks that no element overflows at A4 and
//! desktop widths.

/// Width, in em of the math font, that a display line may take.
pub const WIDTH: f64 = 34.0;

/// One token of the LaTeX subset meff writes: a character, a command with
/// its name, or a braced group.
#[derive(Debug)]
pub(crate) enum Tok<'a> {
    Char(char),
    Cmd(&'a str),
    Group(Vec<Tok<'a>>),
}

pub(crate) fn tokens(s: &str) -> Vec<Tok<'_>> {
    let mut pos = 0;
    parse_seq(s, &mut pos, 0)
}

fn parse_seq<'a>(s: &'a str, pos: &mut usize, depth: usize) -> Vec<Tok<'a>> {
    let mut out = Vec::new();
    let bytes = s.as_bytes();
    while *pos < s.len() {
        let c = s[*pos..].chars().next().unwrap_or(' ');
        match c {
            '{' => {
                *pos += 1;
                // Deep nesting is measured as one wide group.
                if depth > 64 {
                    let rest = &s[*pos..];
                    let end = rest.find('}').map_or(s.len(), |i| *pos + i + 1);
                    out.push(Tok::Group(
                        s[*pos..end.min(s.len())].chars().map(Tok::Char).collect(),
                    ));
                    *pos = end;
                    continue;
                }
                out.push(Tok::Group(parse_seq(s, pos, depth + 1)));
            }
            '}' => {
                *pos += 1;
                if depth > 0 {
                    return out;
                }
            }
            '\\' => {
                let start = *pos + 1;
                let mut end = start;
                while end < s.len() && bytes[end].is_ascii_alphabetic() {
                    end += 1;
                }
                if end == start && end < s.len() {
                    // `\,`, `\\`, `\{`: one character.
                    end += s[end..].chars().next().map_or(1, char::len_utf8);
                }
                out.push(Tok::Cmd(&s[start..end]));
                *pos = end;
            }
            _ => {
                out.push(Tok::Char(c));
                *pos += c.len_utf8();
            }
        }
    }
    out
}

const FUNCTIONS: &[&str] = &[
    "sin", "cos", "tan", "exp", "ln", "log", "arcsin", "arccos", "arctan", "max", "min", "det",
];

/// Estimated width of a token sequence, in em; `scale` shrinks scripts and
/// nested fractions.
fn width_of(toks: &[Tok<'_>], scale: f64) -> f64 {
    let mut w = 0.0;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i] {
            Tok::Char(c) => {
                w += scale
                    * match c {
                        ' ' | '&' => 0.0,
                        '+' | '-' | '=' | '<' | '>' | '−' | '·' | '×' => 1.3,
                        '(' | ')' | '|' | '[' | ']' | ',' | '.' | ';' | ':' | '/' => 0.4,
                        '0'..='9' => 0.5,
                        _ => 0.75,
                    }
            }
            Tok::Group(g) => w += width_of(g, scale),
            Tok::Cmd(name) => {
                let name = *name;
                let arg_at = |k: usize, scale: f64| match toks.get(i + k) {
                    Some(Tok::Group(g)) => width_of(g, scale),
                    Some(t) => width_of(std::slice::from_ref(t), scale),
                    None => 0.0,
                };
                let arg = |k: usize| arg_at(k, scale);
                match name {
                    "frac" | "dfrac" | "tfrac" => {
                        // A fraction on the main line has its parts at full
                        // size (marked by a scale just below 1); fractions
                        // inside fractions are set at script size.
                        let inner = if scale >= 1.0 { 0.9999 } else { scale * 0.71 };
                        let (n, d) = (arg_at(1, inner), arg_at(2, inner));
                        w += n.max(d) + 0.4 * scale;
                        i += 2;
                    }
                    "sqrt" => {
                        w += arg(1) + 0.9 * scale;
                        i += 1;
                    }
                    "mathrm" | "mathsf" | "mathit" | "mathbf" | "text" | "operatorname"
                    | "boxed" => {
                        w += arg(1) + if name == "boxed" { 0.6 } else { 0.0 };
                        i += 1;
                    }
                    "left" | "right" | "big" | "Big" | "bigl" | "bigr" => {
                        w += 0.55 * scale;
                        i += 1;
                    }
                    "," => w += 0.17 * scale,
                    ":" | ">" => w += 0.22 * scale,
                    ";" => w += 0.28 * scale,
                    "quad" => w += scale,
                    "qquad" => w += 2.0 * scale,
                    "\\" | "begin" | "end" => {}
                    "times" | "cdot" | "le" | "ge" | "approx" | "neq" | "pm" | "to" => {
                        w += 1.3 * scale;
                    }
                    f if FUNCTIONS.contains(&f) => w += (0.5 * f.len() as f64 + 0.2) * scale,
                    _ => w += 0.65 * scale,
                }
            }
        }
        // Scripts (`^x`, `_x`) after a token are set smaller.
        i += 1;
        while let Some(Tok::Char('^' | '_')) = toks.get(i) {
            if let Some(t) = toks.get(i + 1) {
                w += width_of(std::slice::from_ref(t), scale * 0.7);
            }
            i += 2;
        }
    }
    w
}

/// Estimated width of a LaTeX string, in em of the math font.
pub fn width(latex: &str) -> f64 {
    width_of(&tokens(latex), 1.0)
}

/// Top-level byte offsets in `s` (outside braces and `\left…\right`)
/// where `pred` holds for the character there.
fn top_level(s: &str, mut pred: impl FnMut(usize, char) -> bool) -> Vec<usize> {
    let mut out = Vec::new();
    let mut depth: i64 = 0;
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                let rest = &s[i + 1..];
                if rest.starts_with("left") && !rest[4..].starts_with(|c: char| c.is_alphabetic()) {
                    depth += 1;
                } else if rest.starts_with("right")
                    && !rest[5..].starts_with(|c: char| c.is_alphabetic())
                {
                    depth -= 1;
                } else if rest.starts_with("begin{") {
                    depth += 1;
                } else if rest.starts_with("end{") {
                    depth -= 1;
                }
                // Skip the command name or escaped character.
                if let Some((_, n)) = chars.next()
                    && n.is_ascii_alphabetic()
                {
                    while chars.peek().is_some_and(|(_, c)| c.is_ascii_alphabetic()) {
                        chars.next();
                    }
                }
            }
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 && pred(i, c) => out.push(i),
            _ => {}
        }
    }
    out
}

/// The parts of a chain `a = b = c` (split at top-level `=`).
fn chain_parts(s: &str) -> Vec<&str> {
    let cuts = top_level(s, |_, c| c == '=');
    let mut parts = Vec::new();
    let mut start = 0;
    for c in cuts {
        parts.push(s[start..c].trim());
        start = c + 1;
    }
    parts.push(s[start..].trim());
    parts
}

/// The terms of a sum, each with its leading sign (`"+ x"`, `"- y"`; the
/// first term as written). Splits before top-level binary `+` and `-`.
fn terms(s: &str) -> Vec<&str> {
    let bytes = s.as_bytes();
    let cuts = top_level(s, |i, c| {
        if !(c == '+' || c == '-') || i == 0 {
            return false;
        }
        // Binary: something other than an operator, `{`, `(` or `^`/`_`
        // before it (ignoring spaces).
        let before = s[..i].trim_end();
        !before.is_empty()
            && !before.ends_with(['+', '-', '=', '(', '{', '^', '_', ','])
            && !before.ends_with("\\left(")
            && !before.ends_with("\\times")
            && bytes[i - 1] == b' '
    });
    let mut out = Vec::new();
    let mut start = 0;
    for c in cuts {
        let t = s[start..c].trim();
        if !t.is_empty() {
            out.push(t);
        }
        start = c;
    }
    let t = s[start..].trim();
    if !t.is_empty() {
        out.push(t);
    }
    out
}

/// `\frac{N}{D}` spanning the whole string: (N, D).
fn whole_fraction(s: &str) -> Option<(&str, &str)> {
    let rest = s.trim().strip_prefix("\\frac")?;
    let (n, rest) = braced(rest)?;
    let (d, rest) = braced(rest)?;
    rest.trim().is_empty().then_some((n, d))
}

/// The contents of a leading `{…}` group and what follows it.
fn braced(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start();
    if !s.starts_with('{') {
        return None;
    }
    let mut depth = 0;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some((&s[1..i], &s[i + 1..]));
                }
            }
            _ => {}
        }
    }
    None
}

/// Lines of a sum that fit `room` em: terms joined while they fit,
/// continuation lines starting with their sign.
fn break_sum(s: &str, room: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut used = 0.0;
    for t in terms(s) {
        let w = width(t) + 0.3;
        if !current.is_empty() && used + w > room {
            lines.push(std::mem::take(&mut current));
            used = 0.0;
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(t);
        used += w;
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

/// A right-hand side laid out to fit `room` em: returned as LaTeX rows
/// (the first to follow `=`, the others continuation rows).
fn fit(s: &str, room: f64) -> Vec<String> {
    if width(s) <= room {
        return vec![s.to_string()];
    }
    if let Some((n, d)) = whole_fraction(s) {
        // Stack the numerator and denominator, each broken to fit.
        let stack = |part: &str| -> String {
            let rows = fit(part, room - 1.0);
            if rows.len() == 1 {
                return rows[0].clone();
            }
            aligned_rows(&rows.iter().map(|r| (false, r.clone())).collect::<Vec<_>>())
        };
        return vec![format!("\\frac{{{}}}{{{}}}", stack(n), stack(d))];
    }
    let lines = break_sum(s, room - 1.0);
    if lines.len() > 1 {
        return lines;
    }
    // A factor times a parenthesised sum: `12\,\left(a + b + …\right)`
    // breaks inside the parentheses.
    if let Some((factor, inner)) = factor_times_sum(s) {
        let lines = break_sum(inner, room - 1.5 - width(factor));
        if lines.len() > 1 {
            let last = lines.len() - 1;
            return lines
                .into_iter()
                .enumerate()
                .map(|(i, l)| match i {
                    0 => format!("{factor}\\bigl({l}"),
                    _ if i == last => format!("{l}\\bigr)"),
                    _ => l,
                })
                .collect();
        }
    }
    vec![s.to_string()]
}

/// `factor \left( inner \right)` spanning the whole string, where the
/// factor has no top-level sign: (factor, inner).
fn factor_times_sum(s: &str) -> Option<(&str, &str)> {
    let s = s.trim();
    let body = s.strip_suffix("\\right)")?;
    // The `\left(` matching the final `\right)`: the last top-level one.
    let mut depth = 0i64;
    let mut open_at = None;
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"\\left") {
            if depth == 0 {
                open_at = Some(i);
            }
            depth += 1;
            i += 5;
        } else if bytes[i..].starts_with(b"\\right") {
            depth -= 1;
            i += 6;
        } else {
            i += 1;
        }
    }
    let at = open_at?;
    if depth != 1 {
        return None;
    }
    let factor = &body[..at];
    let inner = body[at..].strip_prefix("\\left(")?;
    if factor.trim().is_empty() || terms(factor).len() > 1 {
        return None;
    }
    Some((factor.trim_end(), inner))
}

/// Most nesting of `{`, `(` and `[` a formula may have before it is shown
/// as its source (the converters recurse per level; meff's own formulas
/// stay far below).
pub const MAX_DEPTH: usize = 64;

/// True when `latex` nests braces, parentheses or brackets deeper than
/// [`MAX_DEPTH`].
pub fn too_deep(latex: &str) -> bool {
    // A stack of open groups: `{`, `(`, `[` and `\left…`; a closer pops only
    // its own kind (`\left]` opens, whatever the delimiter), so a formula
    // cannot hide depth behind unbalanced closers.
    let bytes = latex.as_bytes();
    let mut stack: Vec<u8> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"\\left") {
            stack.push(b'L');
            i += 6; // the delimiter after `\left` is part of it
        } else if rest.starts_with(b"\\right") {
            if stack.last() == Some(&b'L') {
                stack.pop();
            }
            i += 7;
        } else {
            match bytes[i] {
                b'\\' => i += 1, // an escaped character is not a group
                b'{' | b'(' | b'[' => stack.push(bytes[i]),
                c @ (b'}' | b')' | b']') => {
                    let open = match c {
                        b'}' => b'{',
                        b')' => b'(',
                        _ => b'[',
                    };
                    if stack.last() == Some(&open) {
                        stack.pop();
                    }
                }
                _ => {}
            }
            i += 1;
        }
        if stack.len() > MAX_DEPTH {
            return true;
        }
    }
    false
}

/// A display equation laid out to fit [`WIDTH`]: a chain `lhs = r1 = r2 …`
/// becomes an `aligned` block when it is too wide; short equations are
/// returned unchanged.
pub fn display(latex: &str) -> String {
    display_in(latex, WIDTH)
}

/// [`display`] for a given width in em.
pub fn display_in(latex: &str, room: f64) -> String {
    if too_deep(latex) {
        return latex.to_string();
    }
    if width(latex) <= room || latex.contains("\\begin{") {
        return latex.to_string();
    }
    let parts = chain_parts(latex);
    let (lhs, rhs) = match parts.split_first() {
        Some((l, r)) if !r.is_empty() => (*l, r),
        _ => {
            // Not a chain: break the expression itself.
            let rows = fit(latex, room);
            if rows.len() == 1 {
                return rows[0].clone();
            }
            return aligned_rows(&rows.iter().map(|r| (false, r.clone())).collect::<Vec<_>>());
        }
    };
    let lhs_w = width(lhs) + 1.3;
    let room_right = (room - lhs_w).max(room * 0.6);
    // (starts a new `=` row, content)
    let mut rows: Vec<(bool, String)> = Vec::new();
    let mut used = f64::INFINITY;
    for part in rhs {
        let w = width(part) + 1.3;
        if used + w <= room_right {
            if let Some(last) = rows.last_mut() {
                last.1.push_str(" = ");
                last.1.push_str(part);
            }
            used += w;
            continue;
        }
        let fitted = fit(part, room_right);
        used = if fitted.len() == 1 { w } else { f64::INFINITY };
        for (i, r) in fitted.into_iter().enumerate() {
            rows.push((i == 0, r));
        }
    }
    let mut out = String::from("\\begin{aligned}");
    for (i, (eq, r)) in rows.iter().enumerate() {
        if i > 0 {
            out.push_str(" \\\\ ");
        }
        if i == 0 {
            out.push_str(lhs);
        }
        if *eq {
            out.push_str(" &= ");
        } else {
            out.push_str(" &\\quad ");
        }
        out.push_str(r);
    }
    out.push_str("\\end{aligned}");
    out
}

fn aligned_rows(rows: &[(bool, String)]) -> String {
    let body: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, (_, r))| {
            if i == 0 {
                format!("& {r}")
            } else {
                format!("&\\quad {r}")
            }
        })
        .collect();
    format!("\\begin{{aligned}}{}\\end{{aligned}}", body.join(" \\\\ "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_grow_with_content_and_shrink_in_scripts() {
        assert!(width("m") < width("m_{1}"));
        assert!(width("x^{2}") < width("x2"));
        let f = width("\\frac{a + b + c}{d}");
        assert!(f < width("a + b + c + d"), "{f}");
        assert!(width("\\cos\\left(q_{1}\\right)") > width("q_{1}"));
    }

    #[test]
    fn terms_split_at_binary_signs_only() {
        assert_eq!(
            terms("-a + b^{-1} - \\frac{c - d}{e}"),
            vec!["-a", "+ b^{-1}", "- \\frac{c - d}{e}"]
        );
        assert_eq!(
            terms("x \\left(1 + y\\right) + 2"),
            vec!["x \\left(1 + y\\right)", "+ 2"]
        );
    }

    #[test]
    fn short_equations_are_unchanged() {
        assert_eq!(display("a = \\frac{1}{m}"), "a = \\frac{1}{m}");
    }

    #[test]
    fn long_chains_break_at_equals_and_signs() {
        let long: Vec<String> = (1..40).map(|i| format!("m_{{{i}}}")).collect();
        let sum = long.join(" + ");
        let eq = format!("a = J = {sum} = 1.5\\,\\mathrm{{kg}}");
        let out = display(&eq);
        assert!(out.starts_with("\\begin{aligned}a &= J"), "{out}");
        // Every row fits.
        for row in out
            .trim_start_matches("\\begin{aligned}")
            .trim_end_matches("\\end{aligned}")
            .split(" \\\\ ")
        {
            assert!(width(row) <= WIDTH + 1.0, "{row}: {}", width(row));
        }
        // Nothing is lost.
        for i in 1..40 {
            assert!(out.contains(&format!("m_{{{i}}}")), "{i}");
        }
        assert!(
            out.ends_with("&= 1.5\\,\\mathrm{kg}\\end{aligned}"),
            "{out}"
        );
    }

    #[test]
    fn wide_fractions_stack_their_parts() {
        let long: Vec<String> = (1..30).map(|i| format!("m_{{{i}}}")).collect();
        let f = format!("\\frac{{{}}}{{{}}}", long.join(" + "), long.join(" - "));
        let out = display(&format!("m = {f}"));
        assert!(out.contains("\\frac{\\begin{aligned}"), "{out}");
        assert!(out.contains("}{\\begin{aligned}"), "{out}");
    }
}

pub use crate::notation::tex_text;

#[cfg(test)]
mod more_tests {
    use super::*;

    #[test]
    fn a_factor_times_a_long_sum_breaks_inside_the_parentheses() {
        let long: Vec<String> = (1..40).map(|i| format!("m_{{{i}}}")).collect();
        let s = format!("12\\,\\left({}\\right)", long.join(" + "));
        let rows = fit(&s, 30.0);
        assert!(rows.len() > 1, "{rows:?}");
        assert!(rows[0].starts_with("12\\,\\bigl(m_{1}"), "{}", rows[0]);
        assert!(rows.last().unwrap().ends_with("\\bigr)"));
        for r in &rows {
            assert!(width(r) < 31.0, "{r}");
        }
    }
}
