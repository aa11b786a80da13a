//! Number formatting: significant figures, engineering notation outside a
//! readable range, and time in s/ms/µs.

/// Significant figures of every report unless `--digits` says otherwise.
pub const DEFAULT_DIGITS: usize = 4;

/// A digit as a superscript (`2` → `²`); other characters unchanged.
pub fn superscript_char(c: char) -> char {
    const SUP: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    match c {
        '-' => '⁻',
        d => d.to_digit(10).map_or(d, |i| SUP[i as usize]),
    }
}

/// An integer as superscript text: `-6` → `⁻⁶`.
pub fn superscript(n: i32) -> String {
    n.to_string().chars().map(superscript_char).collect()
}

/// Formats `x` with `digits` significant figures: plain decimals for
/// 1e-3 ≤ |x| < 10^digits, otherwise `1.234e-05` style.
pub fn sig(x: f64, digits: usize) -> String {
    let digits = digits.clamp(1, 17);
    if x == 0.0 {
        return "0".into();
    }
    if !x.is_finite() {
        return if x.is_nan() {
            "NaN".into()
        } else if x > 0.0 {
            "∞".into()
        } else {
            "−∞".into()
        };
    }
    // Round first so that 999.96 → 1000 picks the right exponent.
    let rounded: f64 = format!("{:.*e}", digits - 1, x).parse().unwrap_or(x);
    let exp = rounded.abs().log10().floor() as i32;
    if (1e-3..10f64.powi(digits as i32)).contains(&rounded.abs()) {
        let decimals = (digits as i32 - 1 - exp).max(0) as usize;
        format!("{rounded:.decimals$}")
    } else {
        let s = format!("{:.*e}", digits - 1, x);
        // Rust writes 1.234e-5; pad the exponent to two digits.
        match s.split_once('e') {
            Some((m, e)) => {
                let (sign, num) = e.strip_prefix('-').map_or(("", e), |n| ("-", n));
                format!("{m}e{sign}{num:0>2}")
            }
            None => s,
        }
    }
}

/// The readable unit for a time: s, ms or µs, and its factor from s.
pub fn time_unit(t: f64) -> (&'static str, f64) {
    let at = t.abs();
    if at >= 1.0 || at == 0.0 {
        ("s", 1.0)
    } else if at >= 1e-3 {
        ("ms", 1e3)
    } else if at >= 1e-6 {
        ("µs", 1e6)
    } else {
        ("s", 1.0)
    }
}

/// A time with a readable unit: s, ms or µs ([`time_unit`]).
pub fn time(t: f64, digits: usize) -> String {
    let (unit, factor) = time_unit(t);
    format!("{} {unit}", sig(t * factor, digits))
}

/// The largest number of `digits` significant figures that is not above
/// `v` (for a positive `v`; others unchanged): a step limit printed
/// rounded *down*, so that the digits a reader copies are still stable
/// (4.55998 ms prints as 4.559 ms, not 4.560 ms).
pub fn at_most(v: f64, digits: usize) -> f64 {
    if !(v.is_finite() && v > 0.0) {
        return v;
    }
    let digits = digits.clamp(1, 17) as i32;
    let scale = 10f64.powi(v.log10().floor() as i32 + 1 - digits);
    let mut r = (v / scale).floor() * scale;
    // The text printed for r must not read above v either.
    while r > 0.0 && sig(r, digits as usize).parse::<f64>().is_ok_and(|p| p > v) {
        r -= scale;
    }
    r
}

/// The smallest number of `digits` significant figures that is not below
/// `v` (for a positive `v`; others unchanged): an upper bound printed
/// rounded *up*, so that the digits a reader copies still bound
/// (163.142 prints as 163.2 at four figures, not 163.1).
pub fn at_least(v: f64, digits: usize) -> f64 {
    if !(v.is_finite() && v > 0.0) {
        return v;
    }
    let d = digits.clamp(1, 17);
    let scale = 10f64.powi(v.log10().floor() as i32 + 1 - d as i32);
    // The nearest printed value, stepped up until it is not below `v`.
    let mut r = sig(v, d).parse::<f64>().unwrap_or(v);
    while sig(r, d).parse::<f64>().is_ok_and(|p| p < v) {
        r += scale;
    }
    r
}

/// Which way a printed value is rounded: a limit the reader must stay
/// under is rounded down, a bound that must still bound is rounded up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Round {
    /// To the nearest (estimates, inputs, results that are not limits).
    Nearest,
    /// Down: step limits, speed limits, permitted speed factors.
    Down,
    /// Up: upper bounds, durations a program must at least take.
    Up,
}

/// [`sig`], rounded the stated way.
pub fn sig_round(x: f64, digits: usize, round: Round) -> String {
    match round {
        Round::Nearest => sig(x, digits),
        Round::Down => sig(at_most(x, digits), digits),
        Round::Up => sig(at_least(x, digits), digits),
    }
}

/// A step limit as [`time`] prints it, rounded down ([`at_most`]): the
/// printed step is never above the limit it states.
pub fn time_at_most(x: f64, digits: usize) -> String {
    time(at_most(x, digits), digits)
}

/// A number as printed text (`2.000e04`, `-0.5`) as an engineer writes it:
/// `2.000 × 10⁴`, `−0.5` (true minus sign, superscript exponent).
pub fn pretty(s: &str) -> String {
    let (m, rest) = match s.find(['e', 'E']) {
        Some(i) if s[..i].chars().last().is_some_and(|c| c.is_ascii_digit()) => {
            (&s[..i], Some(&s[i + 1..]))
        }
        _ => (s, None),
    };
    let mut out = m.replacen('-', "−", 1);
    if let Some(e) = rest {
        // The exponent ends at the first character that is not part of it
        // (a unit may follow: `2.000e-06 s`).
        let end = e
            .char_indices()
            .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && (c == '-' || c == '+'))))
            .map_or(e.len(), |(i, _)| i);
        let (exp, tail) = e.split_at(end);
        match exp.parse::<i32>() {
            Ok(n) => {
                out.push_str(" × 10");
                out.push_str(&superscript(n));
                out.push_str(tail);
            }
            Err(_) => {
                out.push('e');
                out.push_str(e);
            }
        }
    }
    out
}

/// `x` in scientific notation with `decimals` after the point, as an
/// engineer writes it (`1.5 × 10⁻⁶`, true minus).
pub fn sci(x: f64, decimals: usize) -> String {
    pretty(&format!("{x:.decimals$e}"))
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_limit_is_printed_rounded_down() {
        assert_eq!(sig(at_most(4.55998e-3, 4), 4), "0.004559");
        assert_eq!(sig(at_most(4.5600e-3, 4), 4), "0.004560");
        assert_eq!(sig(at_most(0.09999, 2), 2), "0.099");
        assert_eq!(sig(at_least(163.142, 4), 4), "163.2");
        assert_eq!(sig(at_least(622.3, 4), 4), "622.3");
        assert_eq!(sig(at_least(0.99991, 3), 3), "1.00");
        assert_eq!(sig_round(1.11895, 3, Round::Down), "1.11");
        assert_eq!(sig_round(1.11895, 3, Round::Up), "1.12");
        for v in [1e-9, 3.3333e-4, 0.999999, 1.0, 123.456, 9.99951e7] {
            for d in 1..=6 {
                let printed: f64 = sig(at_most(v, d), d).parse().unwrap();
                assert!(printed <= v, "{v} at {d}: {printed}");
                assert!(
                    printed > v * (1.0 - 2.0 * 10f64.powi(1 - d as i32)),
                    "{v} at {d}"
                );
                let up: f64 = sig(at_least(v, d), d).parse().unwrap();
                assert!(up >= v, "{v} at {d}: {up}");
                assert!(
                    up < v * (1.0 + 2.0 * 10f64.powi(1 - d as i32)),
                    "{v} at {d}"
                );
            }
        }
    }

    use super::*;

    #[test]
    fn significant_figures() {
        assert_eq!(sig(316.227766, 4), "316.2");
        assert_eq!(sig(1.0, 4), "1.000");
        assert_eq!(sig(0.625, 4), "0.6250");
        assert_eq!(sig(1e5, 4), "1.000e05");
        assert_eq!(sig(999.96, 4), "1000");
        assert_eq!(sig(-2.5e-5, 3), "-2.50e-05");
        assert_eq!(time(0.0063245, 4), "6.325 ms");
        assert_eq!(time(0.008, 3), "8.00 ms");
    }
}
