//! The case's words against its numbers: a mass, frequency, time, force or
//! density (against a shaped body's m/V)
//! written in the title, the description, an impact's, a contact's or a
//! parameter's description (a number and a unit the crate's unit parser reads) must
//! match an input or a computed result of that dimension to the digits it
//! was written with. A description that says "the corner sees 2.1 kg"
//! when the corner sees 1.46 kg is a sheet that contradicts itself.
//!
//! Conservative by construction: only quantities whose whole unit parses
//! and whose dimension is one of the four; not numbers that are part of a
//! fraction, a range, a product (`400 × 300 mm`) or a code span; not
//! numbers qualified as approximate (`about`, `~`, `≈`, `below`, …); and a
//! match with any input, any computed value of the dimension (for a
//! frequency also `ω/2π`, for a time also a period `2π/ω`) is enough.

use super::{Checks, at};
use crate::case::Case;
use crate::units::{Dim, parse_unit};

/// The rule's name.
pub const RULE: &str = "description_contradicts_result";

/// kg/m³: a density the words state is held against the shaped bodies'
/// m/V (not in a scene's words: a scene's bodies have no shape).
pub(super) const DENSITY: Dim = Dim([1, -3, 0]);

/// m/s.
pub(super) const SPEED: Dim = Dim([0, 1, -1]);

/// The dimensions checked (lengths and speeds not in a scene's words:
/// [`stated_in`]).
const DIMS: [(Dim, &str); 7] = [
    (Dim::MASS, "mass"),
    (Dim::FREQUENCY, "frequency"),
    (Dim::TIME, "time"),
    (Dim::FORCE, "force"),
    (DENSITY, "density"),
    (Dim::LENGTH, "length"),
    (SPEED, "speed"),
];

/// Words before a number that make it approximate or a bound.
const HEDGES: &[&str] = &[
    "about",
    "around",
    "approximately",
    "roughly",
    "nearly",
    "almost",
    "some",
    "over",
    "under",
    "below",
    "above",
    "beyond",
    "least",
    "most",
    "than",
    "within",
    "order",
    "few",
    "~",
    "≈",
    "<",
    ">",
    "≤",
    "≥",
    "±",
];

/// A value the case's words may name: an input or a computed result.
#[derive(Clone, Debug, PartialEq)]
pub struct Known {
    /// SI value.
    pub value: f64,
    /// Its dimension.
    pub dim: Dim,
    /// What it is (a JSON key or an input's name).
    pub what: String,
    /// A time a sentence about the step may name: a stable step, an
    /// engine's step, or an input.
    pub step: bool,
}

/// A quantity found in text.
#[derive(Clone, Debug, PartialEq)]
pub struct Stated {
    /// Byte range in the text (number and unit).
    pub span: std::ops::Range<usize>,
    /// SI value.
    pub value: f64,
    /// Half a unit of the last digit written, SI.
    pub precision: f64,
    /// Its dimension.
    pub dim: Dim,
    /// A time in a sentence about the step (`stable`, `step`, `Δt`): it
    /// is held against the steps and the inputs only.
    pub step: bool,
    /// A length in a sentence about a drop or a fall (`falls`, `height`):
    /// the only lengths the check reads (a sentence's other lengths are
    /// sizes and distances of things the case need not hold: a ball's
    /// diameter, a part of the model file).
    pub drop: bool,
}

/// Words that make a length in their sentence a drop height.
const DROP_WORDS: &[&str] = &["drop", "fall", "fell", "height", "lifted", "raised"];

/// Speeds written in words (SI m/s each).
const WORD_SPEEDS: &[(&str, f64)] = &[("km/h", 1.0 / 3.6), ("mph", 0.44704)];

/// Words that make a time in their sentence a step.
const STEP_WORDS: &[&str] = &["stable", "step", "Δt", "dt ="];

fn is_unit_char(c: char) -> bool {
    c.is_alphabetic() || c == '/' || c == '^' || c == '-' || c.is_ascii_digit() || c == '·'
}

/// A number written from `b[i]`: its digits, how many after the point,
/// its power of ten, and where it ends.
struct Number {
    digits: String,
    decimals: Option<usize>,
    exponent: i32,
    end: usize,
}

fn number(b: &[(usize, char)], i: usize) -> Number {
    let mut j = i;
    let mut digits = String::new();
    let mut decimals: Option<usize> = None;
    while j < b.len() {
        let ch = b[j].1;
        if ch.is_ascii_digit() {
            digits.push(ch);
            if let Some(d) = decimals.as_mut() {
                *d += 1;
            }
            j += 1;
        } else if ch == ','
            && decimals.is_none()
            && (1..=3).all(|k| b.get(j + k).is_some_and(|x| x.1.is_ascii_digit()))
            && !b.get(j + 4).is_some_and(|x| x.1.is_ascii_digit())
        {
            j += 1;
        } else if ch == '.'
            && decimals.is_none()
            && b.get(j + 1).is_some_and(|x| x.1.is_ascii_digit())
        {
            decimals = Some(0);
            j += 1;
        } else {
            break;
        }
    }
    let mut exponent = 0i32;
    if j < b.len()
        && matches!(b[j].1, 'e' | 'E')
        && let Some(k) = (j + 1..b.len().min(j + 6))
            .find(|&k| !b[k].1.is_ascii_digit() && b[k].1 != '-' && b[k].1 != '+')
        && k > j + 1
    {
        let t: String = b[j + 1..k].iter().map(|x| x.1).collect();
        if let Ok(e) = t.parse::<i32>() {
            exponent = e;
            j = k;
        }
    }
    Number {
        digits,
        decimals,
        exponent,
        end: j,
    }
}

/// The unit written from `b[k]`: the longest run of words that parses
/// as one unit (`N s/m`, `rad/s`), and where it ends.
fn unit_at(text: &str, b: &[(usize, char)], k: usize) -> Option<((f64, Dim), usize)> {
    // Speeds written in words the case's units do not take (an input in
    // km/h is an error; a sentence may say it).
    for (word, scale) in WORD_SPEEDS {
        let n = word.chars().count();
        let end = k + n;
        let here: String = b[k.min(b.len())..end.min(b.len())]
            .iter()
            .map(|x| x.1)
            .collect();
        if here == *word && b.get(end).is_none_or(|x| !is_unit_char(x.1)) {
            return Some(((*scale, SPEED), end));
        }
    }
    let mut end = k;
    let mut unit_end = k;
    let mut unit = None;
    loop {
        let mut w = end;
        while w < b.len() && is_unit_char(b[w].1) {
            w += 1;
        }
        if w == end {
            break;
        }
        let upto = b.get(w).map_or(text.len(), |x| x.0);
        let candidate = text[b[k].0..upto].trim_end_matches(['-', '/']);
        match parse_unit(candidate, false) {
            Ok(u) => {
                unit = Some(u);
                unit_end = w;
            }
            Err(_) => break,
        }
        end = w;
        while end < b.len() && b[end].1 == ' ' {
            end += 1;
        }
        if end >= b.len() || !is_unit_char(b[end].1) {
            break;
        }
        // English words that are also units do not extend one.
        let next: String = b[end..]
            .iter()
            .take_while(|x| is_unit_char(x.1))
            .map(|x| x.1)
            .collect();
        if ["in", "min"].contains(&next.as_str()) {
            break;
        }
    }
    unit.map(|u: crate::units::Unit| ((u.scale.to_f64(), u.dim), unit_end))
}

/// Whether the word before `pos` makes the number approximate.
fn hedged(text: &str, pos: usize) -> bool {
    let before = text[..pos].trim_end().to_lowercase();
    HEDGES.iter().any(|h| {
        before.ends_with(h)
            && before[..before.len() - h.len()]
                .chars()
                .last()
                .is_none_or(|c| !c.is_alphanumeric())
    })
}

/// The quantities of the four dimensions written in `text`.
pub fn stated(text: &str) -> Vec<Stated> {
    let b: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut in_code = false;
    let mut i = 0;
    while i < b.len() {
        let (pos, c) = b[i];
        if c == '`' {
            in_code = !in_code;
            i += 1;
            continue;
        }
        let prev = if i > 0 { Some(b[i - 1].1) } else { None };
        let boundary = prev.is_none_or(|p| {
            !(p.is_alphanumeric()
                || matches!(
                    p,
                    '.' | ',' | '/' | '^' | '_' | '-' | '−' | '–' | '×' | '*' | '[' | '='
                ))
        });
        if in_code || !c.is_ascii_digit() || !boundary {
            i += 1;
            continue;
        }
        // The last factor of a product or the end of a range (`400 × 300 ×
        // 200 mm`, `3 – 4 kg`): not one quantity either.
        let mut back = i;
        while back > 0 && matches!(b[back - 1].1, ' ' | '\u{a0}' | '\u{2009}') {
            back -= 1;
        }
        if back < i && back > 0 && matches!(b[back - 1].1, '×' | '*' | '–' | '−' | 'x') {
            i += 1;
            continue;
        }
        let start = i;
        let Number {
            digits,
            decimals,
            exponent,
            end: j,
        } = number(&b, i);
        // Followed by a product, a range or a fraction: not one quantity.
        let mut k = j;
        while k < b.len() && (b[k].1 == ' ' || b[k].1 == '\u{a0}' || b[k].1 == '\u{2009}') {
            k += 1;
        }
        if k < b.len() && matches!(b[k].1, '×' | '*' | '/' | '–' | '-' | '−' | ':' | '%' | 'x')
        {
            i = j.max(i + 1);
            continue;
        }
        let Some(((scale, udim), unit_end)) = unit_at(text, &b, k) else {
            i = j.max(i + 1);
            continue;
        };
        // A unit word glued to a longer word ("kgs") or a superscript
        // power ("s²", "kg⁻¹") the parser did not read: not this unit.
        let after = b.get(unit_end).map(|x| x.1);
        if after.is_some_and(|a| a.is_alphanumeric() || "⁻¹²³⁴".contains(a)) {
            i = unit_end;
            continue;
        }
        // A number glued to `m` is a product with the mass m (`(2m)`).
        let glued_m = k == j && &text[b[k].0..b.get(unit_end).map_or(text.len(), |x| x.0)] == "m";
        if !glued_m && DIMS.iter().any(|(d, _)| *d == udim) {
            let hedged = hedged(text, pos);
            if let (false, Ok(m)) = (hedged, digits.parse::<f64>()) {
                let d = decimals.unwrap_or(0) as i32;
                // Integers: their trailing zeros are not all significant.
                let trailing = if decimals.is_none() {
                    digits.len() - digits.trim_end_matches('0').len()
                } else {
                    0
                } as i32;
                let value = m * 10f64.powi(exponent - d) * scale;
                let precision = 0.5 * 10f64.powi(exponent - d + trailing) * scale;
                let span_end = b.get(unit_end).map_or(text.len(), |x| x.0);
                let sentence = [". ", "; ", "\n\n"]
                    .iter()
                    .filter_map(|e| text[..pos].rfind(e).map(|p| p + e.len()))
                    .max()
                    .map_or(&text[..pos], |p| &text[p..pos]);
                // A drop word among the five words before the number or
                // the word after its unit ("falls 80 cm", "a drop of 0.8
                // m", "80 cm drop"; not "a 30 mm ball … dropped").
                let before: Vec<&str> = sentence.split_whitespace().rev().take(5).collect();
                let after = text[span_end..].split_whitespace().next().unwrap_or("");
                let drop = before.iter().chain([&after]).any(|w| {
                    let w = w.to_lowercase();
                    DROP_WORDS.iter().any(|d| w.starts_with(d))
                });
                let step = udim == Dim::TIME
                    && STEP_WORDS
                        .iter()
                        .any(|w| sentence.to_lowercase().contains(&w.to_lowercase()));
                out.push(Stated {
                    span: b[start].0..span_end,
                    value,
                    precision,
                    dim: udim,
                    step,
                    drop,
                });
            }
        }
        i = unit_end.max(i + 1);
    }
    out
}

/// The quantities of `text` this case's check reads: a scene's words'
/// densities are not (its bodies have no shape to hold them against, and
/// a large scene's route must not change for them); nor its lengths
/// and speeds (a scene's geometry is its files').
fn stated_in(case: &Case, text: &str) -> Vec<Stated> {
    let mut s = stated(text);
    if case.scene.is_some() {
        s.retain(|x| ![DENSITY, Dim::LENGTH, SPEED].contains(&x.dim));
    }
    s.retain(|x| x.dim != Dim::LENGTH || x.drop);
    s
}

/// Whether the case's words state any quantity this check reads (the
/// caller gathers the known values only then).
pub fn any_stated(case: &Case) -> bool {
    texts(case)
        .iter()
        .any(|(_, t)| !stated_in(case, t).is_empty())
}

/// Whether `s` matches one of `known` of its dimension to the digits
/// written.
fn matches(s: &Stated, known: &[Known]) -> bool {
    let tol = s.precision * (1.0 + 1e-9) + 1e-12 * s.value.abs();
    let two_pi = 2.0 * std::f64::consts::PI;
    let usable = |k: &&Known| k.dim == s.dim && (k.step || !s.step);
    known.iter().filter(usable).any(|k| {
        let v = k.value.abs();
        let candidates: &[f64] = if s.dim == Dim::FREQUENCY {
            &[v, v / two_pi]
        } else {
            &[v]
        };
        candidates.iter().any(|c| (c - s.value.abs()).abs() <= tol)
    }) || (s.dim == Dim::TIME
        && !s.step
        && known
            .iter()
            .filter(|k| k.dim == Dim::FREQUENCY && k.value > 0.0)
            .any(|k| {
                let period = two_pi / k.value;
                (period - s.value).abs() <= tol
            }))
}

/// The nearest known value of a dimension, for the message.
fn nearest<'a>(s: &Stated, known: &'a [Known]) -> Option<&'a Known> {
    known
        .iter()
        .filter(|k| k.dim == s.dim && (k.step || !s.step) && k.value.is_finite() && k.value != 0.0)
        .min_by(|a, b| {
            let da = (a.value.abs() / s.value.abs()).ln().abs();
            let db = (b.value.abs() / s.value.abs()).ln().abs();
            da.total_cmp(&db)
        })
}

/// The texts of a case a signer reads as statements, with the place each
/// is written in the case file (searched for in the source).
pub(super) fn texts(case: &Case) -> Vec<(String, &str)> {
    let mut out = vec![
        ("title".to_string(), case.title.as_str()),
        ("description".to_string(), case.description.as_str()),
    ];
    for imp in &case.impacts {
        out.push((
            format!("impact {}: description", imp.name),
            imp.description.as_str(),
        ));
    }
    for c in &case.contacts {
        if let Some(d) = &c.description {
            out.push((format!("contact {}: description", c.name), d.as_str()));
        }
    }
    for p in &case.parameters {
        if let Some(d) = &p.description {
            out.push((format!("parameter {}: description", p.name), d.as_str()));
        }
    }
    out
}

/// Warns for each quantity in the case's words that matches no input and
/// no computed result.
pub fn check(case: &Case, known: &[Known], out: &mut Checks) {
    let dim_word = |d: Dim| DIMS.iter().find(|(x, _)| *x == d).map_or("value", |x| x.1);
    for (input, text) in texts(case) {
        for s in stated_in(case, text) {
            // A density is held against shaped bodies only.
            let held = s.dim != DENSITY || known.iter().any(|k| k.dim == DENSITY);
            if !held || matches(&s, known) {
                continue;
            }
            let written = &text[s.span.clone()];
            // Where it is written: the first place in the file with that
            // text (the case's own words, so it is there).
            // (within the text itself where the file holds it verbatim).
            let location = match (case.source.find(text), case.source.find(written)) {
                (Some(t), _) if !text.is_empty() => at(case, &(t + s.span.start..t + s.span.end)),
                (_, Some(p)) => at(case, &(p..p + written.len())),
                _ => at(case, &(0..0)),
            };
            let near = nearest(&s, known).map_or_else(String::new, |k| {
                format!(
                    "; the nearest is {} ({})",
                    super::with_unit(k.value.abs(), s.dim),
                    k.what
                )
            });
            out.warn(
                RULE,
                input.clone(),
                location,
                format!(
                    "the text states {written}, but no input and no computed {} of the case is {} to the digits written{near}",
                    dim_word(s.dim),
                    super::with_unit(s.value, s.dim)
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Vec<(f64, Dim)> {
        stated(text).iter().map(|s| (s.value, s.dim)).collect()
    }

    #[test]
    fn reads_quantities_a_sentence_states() {
        assert_eq!(
            values("That corner sees 1.46 kg of the 8 kg"),
            vec![(1.46, Dim::MASS), (8.0, Dim::MASS)]
        );
        assert_eq!(values("a 50 g part"), vec![(0.05, Dim::MASS)]);
        assert_eq!(values("expects 250 rad/s."), vec![(250.0, Dim::FREQUENCY)]);
        assert_eq!(values("stable at 8 ms"), vec![(0.008, Dim::TIME)]);
        assert_eq!(
            values("peaks summing to 2,788 N"),
            vec![(2788.0, Dim::FORCE)]
        );
        let s = stated("sees 1.46 kg");
        assert!((s[0].precision - 0.005).abs() < 1e-15);
        let s = stated("250 rad/s");
        assert!((s[0].precision - 5.0).abs() < 1e-12);
    }

    #[test]
    fn leaves_out_what_is_not_one_quantity() {
        for t in [
            "400 × 300 × 200 mm",
            "a step of 1/240 s",
            "40 N s/m",
            "A = 0.7075 kg⁻¹",
            "about 3 kg",
            "below 5 ms",
            "`2 kg`",
            "26 % too large",
            "9.81 m/s²",
            "1.5 kgs",
            "3-4 kg",
            "x2 kg",
        ] {
            assert_eq!(values(t), vec![], "{t}");
        }
    }
}
