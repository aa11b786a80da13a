//! Quantities and dimensions.
//!
//! Input: unit strings as a user types them (`"kg m^2"`, `"N s/m"`, `"deg"`).
//! Output: a [`Unit`]: an exact scale factor to SI and a [`Dim`] (exponents of
//! kg, m, s). Angles are dimensionless (SI), so `rad` has scale 1 and `deg`
//! scale π/180.
//!
//! Grammar (the case format (docs/case-format.md)): factors separated by spaces or `·` (and `*` when the
//! caller allows it), each a unit word with an optional integer power `^2`,
//! `^-1`; at most one `/`, after which every factor is in the denominator.
//! A unit word is a base unit (`m g s N Pa J W Hz rad deg in ft lb lbf`)
//! optionally preceded by an SI prefix (`G M k c m u µ n`) where the base
//! takes prefixes.
//!
//! This module knows nothing about expressions, parameters or physics fields.

use std::fmt;

/// Exponents of the SI base dimensions meff needs: mass, length, time.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Dim(pub [i8; 3]);

impl Dim {
    /// Dimensionless.
    pub const NONE: Dim = Dim([0, 0, 0]);
    /// kg
    pub const MASS: Dim = Dim([1, 0, 0]);
    /// m
    pub const LENGTH: Dim = Dim([0, 1, 0]);
    /// s
    pub const TIME: Dim = Dim([0, 0, 1]);
    /// kg m²
    pub const INERTIA: Dim = Dim([1, 2, 0]);
    /// N/m = kg s⁻²
    pub const STIFFNESS: Dim = Dim([1, 0, -2]);
    /// N s/m = kg s⁻¹
    pub const DAMPING: Dim = Dim([1, 0, -1]);
    /// N = kg m s⁻²
    pub const FORCE: Dim = Dim([1, 1, -2]);
    /// N s = kg m s⁻¹
    pub const IMPULSE: Dim = Dim([1, 1, -1]);
    /// 1/kg
    pub const INVERSE_MASS: Dim = Dim([-1, 0, 0]);
    /// rad/s
    pub const FREQUENCY: Dim = Dim([0, 0, -1]);

    /// Product of two dimensions (exponents saturate; see
    /// [`Dim::checked_times`] where the input is arbitrary).
    pub fn times(self, other: Dim) -> Dim {
        Dim(std::array::from_fn(|i| {
            self.0[i].saturating_add(other.0[i])
        }))
    }

    /// Quotient of two dimensions (exponents saturate).
    pub fn per(self, other: Dim) -> Dim {
        Dim(std::array::from_fn(|i| {
            self.0[i].saturating_sub(other.0[i])
        }))
    }

    /// Product; `None` when an exponent leaves the representable range.
    pub fn checked_times(self, other: Dim) -> Option<Dim> {
        let mut out = [0i8; 3];
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.0[i].checked_add(other.0[i])?;
        }
        Some(Dim(out))
    }

    /// Quotient; `None` when an exponent leaves the representable range.
    pub fn checked_per(self, other: Dim) -> Option<Dim> {
        let mut out = [0i8; 3];
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.0[i].checked_sub(other.0[i])?;
        }
        Some(Dim(out))
    }

    /// Integer power; `None` on overflow of the exponent range.
    pub fn powi(self, p: i32) -> Option<Dim> {
        let mut out = [0i8; 3];
        for (o, &e) in out.iter_mut().zip(&self.0) {
            *o = i8::try_from(i32::from(e).checked_mul(p)?).ok()?;
        }
        Some(Dim(out))
    }

    /// Square root, when every exponent is even.
    pub fn sqrt(self) -> Option<Dim> {
        if self.0.iter().all(|e| e % 2 == 0) {
            Some(Dim(self.0.map(|e| e / 2)))
        } else {
            None
        }
    }

    /// True for a dimensionless quantity.
    pub fn is_none(self) -> bool {
        self == Dim::NONE
    }
}

impl fmt::Display for Dim {
    /// Writes the dimension in SI base units, `kg m^2 s^-2`, or `1` when
    /// dimensionless. Common named combinations are used where they match.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let named = match *self {
            Dim::NONE => Some("1 (dimensionless)"),
            Dim::FORCE => Some("N"),
            Dim::STIFFNESS => Some("N/m"),
            Dim::DAMPING => Some("N s/m"),
            Dim::IMPULSE => Some("N s"),
            Dim::INERTIA => Some("kg m^2"),
            Dim::FREQUENCY => Some("1/s"),
            _ => None,
        };
        if let Some(name) = named {
            return f.write_str(name);
        }
        let names = ["kg", "m", "s"];
        let mut first = true;
        for (name, &e) in names.iter().zip(&self.0) {
            if e == 0 {
                continue;
            }
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            if e == 1 {
                write!(f, "{name}")?;
            } else {
                write!(f, "{name}^{e}")?;
            }
        }
        Ok(())
    }
}

/// An exact scale factor `num/den · 10^pow10 · π^pi`, so that the symbolic
/// engine can keep unit conversions exact; [`Scale::to_f64`] for numbers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Scale {
    /// Numerator of the rational part.
    pub num: i64,
    /// Denominator of the rational part (positive).
    pub den: i64,
    /// Power of ten.
    pub pow10: i32,
    /// Power of π (degrees carry π/180).
    pub pi: i32,
}

impl Scale {
    /// The identity scale.
    pub const ONE: Scale = Scale {
        num: 1,
        den: 1,
        pow10: 0,
        pi: 0,
    };

    /// The scale as a floating-point number.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
            * 10f64.powi(self.pow10)
            * std::f64::consts::PI.powi(self.pi)
    }

    fn mul(self, other: Scale) -> Option<Scale> {
        let num = self.num.checked_mul(other.num)?;
        let den = self.den.checked_mul(other.den)?;
        let g = gcd(num.unsigned_abs(), den.unsigned_abs()).max(1) as i64;
        Some(Scale {
            num: num / g,
            den: den / g,
            pow10: self.pow10 + other.pow10,
            pi: self.pi + other.pi,
        })
    }

    fn powi(self, p: i32) -> Option<Scale> {
        let (num, den) = if p >= 0 {
            (self.num, self.den)
        } else {
            (self.den, self.num)
        };
        let e = p.unsigned_abs();
        let mut n = num.checked_pow(e)?;
        let mut d = den.checked_pow(e)?;
        if d < 0 {
            n = -n;
            d = -d;
        }
        Some(Scale {
            num: n,
            den: d,
            pow10: self.pow10.checked_mul(p)?,
            pi: self.pi.checked_mul(p)?,
        })
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A parsed unit: its text as typed, exact scale to SI and dimension.
#[derive(Clone, PartialEq, Debug)]
pub struct Unit {
    /// The unit as the user typed it (trimmed).
    pub text: String,
    /// Factor that converts a number in this unit to SI.
    pub scale: Scale,
    /// Dimension.
    pub dim: Dim,
}

/// Why a unit string was rejected, with the byte range inside the string.
#[derive(Clone, PartialEq, Debug)]
pub struct UnitError {
    /// Byte range of the offending part of the unit string.
    pub span: std::ops::Range<usize>,
    /// What is wrong.
    pub message: String,
    /// A suggestion, if there is one.
    pub hint: Option<String>,
}

struct BaseUnit {
    name: &'static str,
    scale: Scale,
    dim: Dim,
    prefixable: bool,
}

const fn s(num: i64, den: i64, pow10: i32, pi: i32) -> Scale {
    Scale {
        num,
        den,
        pow10,
        pi,
    }
}

const BASE_UNITS: &[BaseUnit] = &[
    BaseUnit {
        name: "m",
        scale: Scale::ONE,
        dim: Dim::LENGTH,
        prefixable: true,
    },
    BaseUnit {
        name: "g",
        scale: s(1, 1, -3, 0),
        dim: Dim::MASS,
        prefixable: true,
    },
    BaseUnit {
        name: "s",
        scale: Scale::ONE,
        dim: Dim::TIME,
        prefixable: true,
    },
    BaseUnit {
        name: "N",
        scale: Scale::ONE,
        dim: Dim::FORCE,
        prefixable: true,
    },
    BaseUnit {
        name: "Pa",
        scale: Scale::ONE,
        dim: Dim([1, -1, -2]),
        prefixable: true,
    },
    BaseUnit {
        name: "J",
        scale: Scale::ONE,
        dim: Dim([1, 2, -2]),
        prefixable: true,
    },
    BaseUnit {
        name: "W",
        scale: Scale::ONE,
        dim: Dim([1, 2, -3]),
        prefixable: true,
    },
    BaseUnit {
        name: "Hz",
        scale: Scale::ONE,
        dim: Dim::FREQUENCY,
        prefixable: true,
    },
    // Revolutions per minute: cycles per minute, like Hz a frequency in
    // cycles (an angular-frequency claim in rpm is converted with 2π).
    BaseUnit {
        name: "rpm",
        scale: s(1, 60, 0, 0),
        dim: Dim::FREQUENCY,
        prefixable: false,
    },
    BaseUnit {
        name: "min",
        scale: s(60, 1, 0, 0),
        dim: Dim::TIME,
        prefixable: false,
    },
    BaseUnit {
        name: "rad",
        scale: Scale::ONE,
        dim: Dim::NONE,
        prefixable: true,
    },
    BaseUnit {
        name: "deg",
        scale: s(1, 180, 0, 1),
        dim: Dim::NONE,
        prefixable: false,
    },
    BaseUnit {
        name: "in",
        scale: s(254, 1, -4, 0),
        dim: Dim::LENGTH,
        prefixable: false,
    },
    BaseUnit {
        name: "ft",
        scale: s(3048, 1, -4, 0),
        dim: Dim::LENGTH,
        prefixable: false,
    },
    BaseUnit {
        name: "lb",
        scale: s(45_359_237, 1, -8, 0),
        dim: Dim::MASS,
        prefixable: false,
    },
    BaseUnit {
        name: "lbf",
        scale: s(44_482_216_152_605, 1, -13, 0),
        dim: Dim::FORCE,
        prefixable: false,
    },
];

const PREFIXES: &[(&str, i32)] = &[
    ("G", 9),
    ("M", 6),
    ("k", 3),
    ("c", -2),
    ("m", -3),
    ("u", -6),
    ("µ", -6),
    ("μ", -6),
    ("n", -9),
];

/// Looks up one unit word such as `kg`, `mm`, `kHz` or `deg`.
pub fn unit_word(word: &str) -> Option<(Scale, Dim)> {
    if let Some(base) = BASE_UNITS.iter().find(|b| b.name == word) {
        return Some((base.scale, base.dim));
    }
    for &(prefix, pow10) in PREFIXES {
        if let Some(rest) = word.strip_prefix(prefix)
            && let Some(base) = BASE_UNITS.iter().find(|b| b.name == rest && b.prefixable)
        {
            let scale = Scale {
                pow10: base.scale.pow10 + pow10,
                ..base.scale
            };
            return Some((scale, base.dim));
        }
    }
    None
}

/// True when `word` names a unit (with or without prefix).
pub fn is_unit_word(word: &str) -> bool {
    unit_word(word).is_some()
}

/// Parses a whole unit string. `star_joins` lets `*` separate factors too
/// (allowed when a value is one literal alone, the case format (docs/case-format.md)).
pub fn parse_unit(text: &str, star_joins: bool) -> Result<Unit, UnitError> {
    let mut scale = Scale::ONE;
    let mut dim = Dim::NONE;
    let mut denominator = false;
    let mut any = false;
    let bytes: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    let err = |span: std::ops::Range<usize>, message: String, hint: Option<String>| UnitError {
        span,
        message,
        hint,
    };
    // `1/kg`: a leading one and a slash put everything in the denominator.
    let mut leading_one = false;
    if let Some(rest) = text.trim_start().strip_prefix('1')
        && rest.trim_start().starts_with('/')
    {
        leading_one = true;
        while i < bytes.len() && bytes[i].1 != '/' {
            i += 1;
        }
    }
    while i < bytes.len() {
        let (pos, ch) = bytes[i];
        if ch.is_whitespace() || ch == '·' || (star_joins && ch == '*') {
            i += 1;
            continue;
        }
        if ch == '/' {
            if denominator {
                return Err(err(
                    pos..pos + 1,
                    "a unit may have only one `/`".into(),
                    Some("everything after the first `/` is already in the denominator".into()),
                ));
            }
            if !any && !leading_one {
                return Err(err(
                    pos..pos + 1,
                    "a unit cannot start with `/`".into(),
                    Some("write `1/s` or `s^-1`".into()),
                ));
            }
            denominator = true;
            i += 1;
            continue;
        }
        if !is_word_char(ch) {
            return Err(err(
                pos..pos + ch.len_utf8(),
                format!("unexpected `{ch}` in a unit"),
                None,
            ));
        }
        let start = pos;
        while i < bytes.len() && is_word_char(bytes[i].1) {
            i += 1;
        }
        let end = bytes.get(i).map_or(text.len(), |b| b.0);
        let word = &text[start..end];
        let Some((word_scale, word_dim)) = unit_word(word) else {
            return Err(err(
                start..end,
                format!("unknown unit `{word}`"),
                unknown_unit_hint(word),
            ));
        };
        let mut power: i32 = 1;
        if i < bytes.len() && bytes[i].1 == '^' {
            let caret = bytes[i].0;
            i += 1;
            let num_start = bytes.get(i).map_or(text.len(), |b| b.0);
            if i < bytes.len() && (bytes[i].1 == '-' || bytes[i].1 == '+') {
                i += 1;
            }
            while i < bytes.len() && bytes[i].1.is_ascii_digit() {
                i += 1;
            }
            let num_end = bytes.get(i).map_or(text.len(), |b| b.0);
            power = text[num_start..num_end].parse().map_err(|_| {
                err(
                    caret..num_end.max(caret + 1),
                    "a unit power must be an integer such as `^2` or `^-1`".into(),
                    None,
                )
            })?;
        }
        if denominator {
            power = -power;
        }
        let overflow = || err(start..end, "unit power out of range".into(), None);
        dim = dim
            .checked_times(word_dim.powi(power).ok_or_else(overflow)?)
            .ok_or_else(overflow)?;
        scale = scale
            .mul(word_scale.powi(power).ok_or_else(overflow)?)
            .ok_or_else(overflow)?;
        any = true;
    }
    if !any {
        return Err(err(0..text.len(), "empty unit".into(), None));
    }
    if text.trim_end().ends_with('/') {
        let end = text.trim_end().len();
        return Err(err(
            end - 1..end,
            "missing denominator after `/`".into(),
            None,
        ));
    }
    Ok(Unit {
        text: text.trim().to_string(),
        scale,
        dim,
    })
}

/// Characters that may appear in a unit word (letters, including µ and μ).
pub fn is_word_char(ch: char) -> bool {
    ch.is_alphabetic() || ch == '_'
}

/// A "did you mean" for an unknown unit word: a product written without a
/// space (`Nm`), or the closest known unit.
pub fn unknown_unit_hint(word: &str) -> Option<String> {
    // Units spelled out in words.
    const SPELLED: &[(&str, &str)] = &[
        ("degree", "deg"),
        ("radian", "rad"),
        ("second", "s"),
        ("meter", "m"),
        ("metre", "m"),
        ("gram", "g"),
        ("kilogram", "kg"),
        ("newton", "N"),
        ("hertz", "Hz"),
        ("inch", "in"),
        ("foot", "ft"),
        ("feet", "ft"),
        ("pound", "lb"),
        ("minute", "min"),
    ];
    let lower = word.to_lowercase();
    let singular = lower
        .strip_suffix("es")
        .filter(|s| s.ends_with("inch"))
        .unwrap_or(lower.strip_suffix('s').unwrap_or(&lower));
    if let Some((_, unit)) = SPELLED.iter().find(|(name, _)| *name == singular) {
        return Some(format!("did you mean `{unit}`?"));
    }
    let known: Vec<&str> = BASE_UNITS
        .iter()
        .map(|b| b.name)
        .chain(["kg", "mm", "cm", "ms", "kN", "MPa", "GPa", "kHz", "mrad"])
        .collect();
    let nearest = crate::diag::closest(word, known.iter().copied());
    let split = (1..word.len())
        .filter(|&i| word.is_char_boundary(i))
        .find_map(|i| {
            let (a, b) = word.split_at(i);
            (is_unit_word(a) && is_unit_word(b))
                .then(|| format!("`{a} {b}` (units in a product are separated by spaces)"))
        });
    match (nearest, split) {
        (Some(best), Some(product)) => Some(format!("did you mean `{best}`, or {product}?")),
        (None, Some(product)) => Some(format!("did you mean {product}?")),
        (Some(best), None) => Some(format!("did you mean `{best}`?")),
        (None, None) => Some("known units: m, g, s, min, N, Pa, J, W, Hz, rpm, rad, deg, in, ft, lb, lbf with prefixes G M k c m u n".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn si(text: &str) -> (f64, Dim) {
        let u = parse_unit(text, false).unwrap();
        (u.scale.to_f64(), u.dim)
    }

    #[test]
    fn common_units() {
        assert_eq!(si("kg"), (1.0, Dim::MASS));
        assert_eq!(si("kg m^2"), (1.0, Dim::INERTIA));
        assert_eq!(si("kg·m^2"), (1.0, Dim::INERTIA));
        assert_eq!(si("N/m"), (1.0, Dim::STIFFNESS));
        assert_eq!(si("N s/m"), (1.0, Dim::DAMPING));
        assert_eq!(si("W/m s"), (1.0, Dim([1, 1, -4])));
        let (mm, d) = si("mm");
        assert!((mm - 1e-3).abs() < 1e-18 && d == Dim::LENGTH);
        let (deg, d) = si("deg");
        assert!((deg - std::f64::consts::PI / 180.0).abs() < 1e-17 && d == Dim::NONE);
        let (g, _) = si("g");
        assert!((g - 1e-3).abs() < 1e-18);
        let (inch, _) = si("in");
        assert!((inch - 0.0254).abs() < 1e-17);
        assert_eq!(si("s^-2"), (1.0, Dim([0, 0, -2])));
        assert!(parse_unit("kg*m^2", true).is_ok());
        assert!(parse_unit("kg*m^2", false).is_err());
    }

    #[test]
    fn errors() {
        let e = parse_unit("kg Nm", false).unwrap_err();
        assert_eq!(e.span, 3..5);
        assert!(e.hint.unwrap().contains("N m"));
        assert!(parse_unit("N/m/s", false).is_err());
        assert!(parse_unit("m^x", false).is_err());
        assert!(parse_unit("mim", false).is_err());
    }
}
