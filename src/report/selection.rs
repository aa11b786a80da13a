//! Which contacts a report lists one by one (`--contacts all|none|worst:N`).

/// Positions of the `n` of `0..c` with the highest `omega(i)`, highest
/// first, ties by position.
pub fn fastest_by(c: usize, omega: impl Fn(usize) -> f64, n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..c).collect();
    let by = |x: &usize, y: &usize| omega(*y).total_cmp(&omega(*x)).then(x.cmp(y));
    if n < c {
        order.select_nth_unstable_by(n, by);
        order.truncate(n);
    }
    order.sort_by(by);
    order
}

/// Which contacts a document lists one by one (`--contacts`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContactSelection {
    /// Every contact.
    All,
    /// None: the summary only.
    None,
    /// The `N` contacts with the highest independent ω (the ones that
    /// limit the independent timestep), fastest first, ties by position.
    Worst(usize),
}

impl ContactSelection {
    /// How many the default `worst:N` lists.
    pub const DEFAULT_WORST: usize = 20;

    /// The default: every contact on the dense path, the
    /// [`DEFAULT_WORST`](Self::DEFAULT_WORST) fastest on the large-system
    /// path.
    pub fn default_for(large: bool) -> ContactSelection {
        if large {
            ContactSelection::Worst(Self::DEFAULT_WORST)
        } else {
            ContactSelection::All
        }
    }
}

impl std::fmt::Display for ContactSelection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ContactSelection::All => f.write_str("all"),
            ContactSelection::None => f.write_str("none"),
            ContactSelection::Worst(n) => write!(f, "worst:{n}"),
        }
    }
}

impl std::str::FromStr for ContactSelection {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "all" => Ok(ContactSelection::All),
            "none" => Ok(ContactSelection::None),
            _ => s
                .strip_prefix("worst:")
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|&n| n > 0)
                .map(ContactSelection::Worst)
                .ok_or_else(|| format!("`{s}` is not all, none or worst:N with N ≥ 1")),
        }
    }
}
