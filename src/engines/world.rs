//! One world-wide soft-contact setting (Box2D's `contact_hertz` and
//! `contact_damping_ratio`, Rapier's `contact_natural_frequency`): the
//! engine has one frequency and one damping ratio for every contact, so
//! per-contact settings that give each contact the case's k and c cannot
//! all be used at once. This finds the one setting that misses the
//! contacts' targets least (the geometric middle of the extremes: the
//! worst ratio is then the smallest possible) and, where the engine caps
//! the frequency at 1/8 of the substep rate, how many substeps reach it.

use serde::Serialize;

/// The one world-wide setting that does best.
#[derive(Clone, Debug, Serialize)]
pub struct WorldSetting {
    /// Whether the contacts' own settings differ (more than 0.1 %): then
    /// no single setting gives every contact the case's k and c.
    pub differ: bool,
    /// The setting, as `(name, value)`: frequency (Hz, as written, where a
    /// contact against the world runs at twice it) and damping ratio.
    pub settings: Vec<(String, String)>,
    /// The frequency (Hz, as written).
    pub hertz: f64,
    /// The damping ratio.
    pub damping_ratio: f64,
    /// The largest factor by which a contact's frequency misses its own
    /// target with this setting (1: every contact exact).
    pub frequency_miss: f64,
    /// The largest factor by which a contact's damping ratio misses its own.
    pub damping_miss: f64,
    /// Where the setting is above the engine's cap (1/8 of the substep
    /// rate): the fewest substeps per step that reach it; `None` when
    /// reachable or the engine has no cap.
    pub substeps_needed: Option<usize>,
    /// Where a contact's own frequency is above the cap: the fewest
    /// substeps that reach the highest one.
    pub substeps_for_all: Option<usize>,
}

/// The geometric middle of the smallest and largest of `v` and the
/// largest factor any value is from it.
fn middle(v: &[f64]) -> (f64, f64) {
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(0.0f64, f64::max);
    let mid = (lo * hi).sqrt();
    (mid, (hi / lo).sqrt())
}

/// `hz` and `ratio` per contact (as written), the settings' names, the
/// engine's step and the cap factor (the frequency may be at most
/// `cap_fraction` of the substep rate; `None`: no cap).
pub fn world_setting(
    hz: &[f64],
    ratio: &[f64],
    keys: (&str, &str),
    timestep: f64,
    substeps: usize,
    cap_fraction: Option<f64>,
    num: impl Fn(f64) -> String,
) -> Option<WorldSetting> {
    if hz.is_empty() || hz.iter().chain(ratio).any(|x| !x.is_finite() || *x <= 0.0) {
        return None;
    }
    let (f, f_miss) = middle(hz);
    let (z, z_miss) = middle(ratio);
    let differ = f_miss > 1.0005 || z_miss > 1.0005;
    // At most `cap_fraction` of the substep rate n/timestep: n ≥ f·timestep/cap_fraction.
    let need = |f: f64| {
        cap_fraction.and_then(|c| {
            let n = (f * timestep / c - 1e-9).ceil().max(1.0) as usize;
            (n > substeps).then_some(n)
        })
    };
    let top = hz.iter().copied().fold(0.0f64, f64::max);
    Some(WorldSetting {
        differ,
        settings: vec![
            (keys.0.to_string(), format!("{} Hz", num(f))),
            (keys.1.to_string(), num(z)),
        ],
        hertz: f,
        damping_ratio: z,
        frequency_miss: f_miss,
        damping_miss: z_miss,
        substeps_needed: need(f),
        substeps_for_all: need(top),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_setting_misses_both_ends_by_the_same_factor() {
        // Box2D stack: 22.07 Hz for the crate, 161.2 and 163.9 Hz for the
        // box, at 60 Hz with 4 substeps (cap 30 Hz).
        let w = world_setting(
            &[22.0708, 22.0708, 161.245, 163.942],
            &[0.0693375, 0.0693375, 0.253284, 0.257519],
            ("contact_hertz", "contact_damping_ratio"),
            1.0 / 60.0,
            4,
            Some(0.125),
            |x| format!("{x:.4}"),
        )
        .unwrap();
        assert!(w.differ);
        assert!((w.hertz - (22.0708f64 * 163.942).sqrt()).abs() < 1e-9);
        assert!((w.frequency_miss - (163.942f64 / 22.0708).sqrt()).abs() < 1e-9);
        // 60.15 Hz needs 8 × 60.15 / 60 → 9 substeps; 163.9 Hz needs 22.
        assert_eq!(w.substeps_needed, Some(9));
        assert_eq!(w.substeps_for_all, Some(22));
        // Equal targets: one setting is exact, and reachable.
        let w = world_setting(
            &[20.0, 20.0],
            &[0.1, 0.1],
            ("f", "z"),
            0.001,
            1,
            Some(0.125),
            |x| x.to_string(),
        )
        .unwrap();
        assert!(!w.differ && w.substeps_needed.is_none() && w.frequency_miss == 1.0);
    }
}
