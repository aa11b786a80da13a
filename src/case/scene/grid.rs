//! Sphere–sphere contacts by a cell grid: O(N) time for packings, memory
//! proportional to the spheres (at most 2N + 1 cells), minimum image on
//! periodic axes.

/// A periodic axis: its lower bound and length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Period {
    /// Lower bound.
    pub lo: f64,
    /// Length.
    pub len: f64,
}

/// Spheres to search: centres (3 each, inside the box on periodic axes),
/// radii, and the periodic axes.
pub struct Spheres<'a> {
    /// Centres.
    pub position: &'a [f64],
    /// Radii.
    pub radius: &'a [f64],
    /// Periodic axes.
    pub periodic: [Option<Period>; 3],
}

/// Why the search stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum GridError {
    /// A periodic box shorter than twice the contact range: a sphere would
    /// touch two images of another.
    BoxTooSmall {
        /// Axis 0–2.
        axis: usize,
        /// The box length.
        len: f64,
        /// The contact range (largest diameter plus tolerance).
        range: f64,
    },
    /// More candidate pairs than the budget (radii spread too widely for
    /// one cell size).
    Budget(u64),
}

/// `x` wrapped into the box on periodic axes.
pub fn wrap(x: f64, p: Option<Period>) -> f64 {
    match p {
        Some(p) => {
            let w = p.lo + (x - p.lo).rem_euclid(p.len);
            // rem_euclid may round up to len itself.
            if w >= p.lo + p.len { p.lo } else { w }
        }
        None => x,
    }
}

/// The shift (a whole number of box lengths on periodic axes) that takes
/// `d = a − b` to its minimum image.
pub fn image_shift(d: [f64; 3], periodic: &[Option<Period>; 3]) -> [f64; 3] {
    std::array::from_fn(|k| match periodic[k] {
        Some(p) => -(d[k] / p.len).round() * p.len,
        None => 0.0,
    })
}

/// The candidate-pair budget for `n` spheres.
pub fn budget(n: usize) -> u64 {
    500 * n as u64 + 10_000_000
}

/// Every pair `(a, b)`, `a < b`, whose surfaces are closer than `tol`
/// (overlapping, touching or within `tol`), by minimum image; sorted.
pub fn pairs(s: &Spheres, tol: f64) -> Result<Vec<(u32, u32)>, GridError> {
    let n = s.radius.len();
    if n < 2 {
        return Ok(Vec::new());
    }
    let rmax = s.radius.iter().copied().fold(0.0, f64::max);
    let range = 2.0 * rmax + tol;
    let mut lo = [0.0; 3];
    let mut extent = [0.0; 3];
    for k in 0..3 {
        match s.periodic[k] {
            Some(p) => {
                if p.len < 2.0 * range {
                    return Err(GridError::BoxTooSmall {
                        axis: k,
                        len: p.len,
                        range,
                    });
                }
                lo[k] = p.lo;
                extent[k] = p.len;
            }
            None => {
                let (mut a, mut b) = (f64::INFINITY, f64::NEG_INFINITY);
                for i in 0..n {
                    a = a.min(s.position[3 * i + k]);
                    b = b.max(s.position[3 * i + k]);
                }
                lo[k] = a;
                extent[k] = b - a;
            }
        }
    }
    // Cells at least `range` wide; coarser while there are more than 2N.
    let mut size = range.max(f64::MIN_POSITIVE);
    let dims = loop {
        // A non-finite extent (coordinates near the range of f64) is one cell.
        let dims: [usize; 3] = std::array::from_fn(|k| {
            let q = (extent[k] / size).floor();
            if q.is_finite() {
                (q as usize).clamp(1, 1 << 20)
            } else {
                1
            }
        });
        if dims.iter().map(|&d| d as u128).product::<u128>() <= 2 * n as u128 + 1 {
            break dims;
        }
        size *= 1.5;
    };
    let cell_of = |i: usize| -> usize {
        let mut c = 0;
        for k in (0..3).rev() {
            let w = extent[k] / dims[k] as f64;
            let x = ((s.position[3 * i + k] - lo[k]) / w).floor();
            let x = if x.is_finite() && x > 0.0 {
                (x as usize).min(dims[k] - 1)
            } else {
                0
            };
            c = c * dims[k] + x;
        }
        c
    };
    let cells = dims[0] * dims[1] * dims[2];
    // Counting sort of the spheres by cell.
    let mut start = vec![0u32; cells + 1];
    let mut cell = Vec::with_capacity(n);
    for i in 0..n {
        let c = cell_of(i);
        cell.push(c as u32);
        start[c + 1] += 1;
    }
    for c in 0..cells {
        start[c + 1] += start[c];
    }
    let mut order = vec![0u32; n];
    let mut fill = start.clone();
    for (i, &c) in cell.iter().enumerate() {
        order[fill[c as usize] as usize] = i as u32;
        fill[c as usize] += 1;
    }
    drop(fill);
    let mut out = Vec::new();
    let mut tested = 0u64;
    let limit = budget(n);
    let mut near: Vec<usize> = Vec::with_capacity(27);
    for c in 0..cells {
        let (a0, a1) = (start[c] as usize, start[c + 1] as usize);
        if a0 == a1 {
            continue;
        }
        neighbours(c, &dims, &s.periodic, &mut near);
        for &i in &order[a0..a1] {
            let i = i as usize;
            for &nc in &near {
                let cand = &order[start[nc] as usize..start[nc + 1] as usize];
                tested += cand.len() as u64;
                for &j in cand {
                    let j = j as usize;
                    if j > i && touching(s, i, j, tol) {
                        out.push((i as u32, j as u32));
                    }
                }
            }
            if tested > limit {
                return Err(GridError::Budget(limit));
            }
        }
    }
    out.sort_unstable();
    Ok(out)
}

/// Whether spheres `i` and `j` are within `tol` of touching.
fn touching(s: &Spheres, i: usize, j: usize, tol: f64) -> bool {
    let d: [f64; 3] = std::array::from_fn(|k| s.position[3 * i + k] - s.position[3 * j + k]);
    let shift = image_shift(d, &s.periodic);
    let r = s.radius[i] + s.radius[j] + tol;
    let d2: f64 = (0..3).map(|k| (d[k] + shift[k]).powi(2)).sum();
    d2 < r * r
}

/// The distinct cells around cell `c` (itself included), wrapping on
/// periodic axes.
fn neighbours(c: usize, dims: &[usize; 3], periodic: &[Option<Period>; 3], out: &mut Vec<usize>) {
    out.clear();
    let idx = [
        c % dims[0],
        (c / dims[0]) % dims[1],
        c / (dims[0] * dims[1]),
    ];
    for dz in -1i64..=1 {
        for dy in -1i64..=1 {
            for dx in -1i64..=1 {
                let mut at = [0usize; 3];
                let mut ok = true;
                for (k, dk) in [dx, dy, dz].into_iter().enumerate() {
                    let v = idx[k] as i64 + dk;
                    let m = dims[k] as i64;
                    at[k] = if (0..m).contains(&v) {
                        v as usize
                    } else if periodic[k].is_some() {
                        v.rem_euclid(m) as usize
                    } else {
                        ok = false;
                        0
                    };
                }
                if ok {
                    let cell = at[0] + dims[0] * (at[1] + dims[1] * at[2]);
                    if !out.contains(&cell) {
                        out.push(cell);
                    }
                }
            }
        }
    }
}

/// Every touching pair by testing all of them (for tests: O(N²)).
pub fn brute_force(s: &Spheres, tol: f64) -> Vec<(u32, u32)> {
    let n = s.radius.len();
    let mut out = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if touching(s, i, j, tol) {
                out.push((i as u32, j as u32));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seeded pseudo-random number in [0, 1).
    fn lcg(state: &mut u64) -> f64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*state >> 11) as f64 / (1u64 << 53) as f64
    }

    fn random_spheres(n: usize, seed: u64, box_len: f64) -> (Vec<f64>, Vec<f64>) {
        let mut st = seed;
        let pos = (0..3 * n).map(|_| box_len * lcg(&mut st)).collect();
        let rad = (0..n).map(|_| 0.05 + 0.03 * lcg(&mut st)).collect();
        (pos, rad)
    }

    #[test]
    fn the_grid_finds_what_a_brute_force_search_finds() {
        for (seed, periodic, tol) in [
            (1u64, [false; 3], 0.0),
            (2, [true, true, false], 0.0),
            (3, [true; 3], 0.01),
            (4, [false, true, false], 0.02),
        ] {
            let (pos, rad) = random_spheres(400, seed, 1.0);
            let per = periodic.map(|p| p.then_some(Period { lo: 0.0, len: 1.0 }));
            let s = Spheres {
                position: &pos,
                radius: &rad,
                periodic: per,
            };
            let grid = pairs(&s, tol).unwrap();
            let brute = brute_force(&s, tol);
            assert!(brute.len() > 100, "{}", brute.len());
            assert_eq!(grid, brute, "seed {seed}");
            if periodic.iter().any(|&p| p) {
                // Some pairs touch only across the boundary.
                let across = grid.iter().any(|&(i, j)| {
                    let (i, j) = (i as usize, j as usize);
                    (0..3).any(|k| (pos[3 * i + k] - pos[3 * j + k]).abs() > 0.5)
                });
                assert!(across, "seed {seed}");
            }
        }
    }

    #[test]
    fn a_small_periodic_box_is_refused_and_clustered_radii_stay_in_budget() {
        let pos = [0.1, 0.1, 0.1, 0.3, 0.1, 0.1];
        let rad = [0.1, 0.1];
        let s = Spheres {
            position: &pos,
            radius: &rad,
            periodic: [Some(Period { lo: 0.0, len: 0.3 }), None, None],
        };
        assert!(matches!(
            pairs(&s, 0.0),
            Err(GridError::BoxTooSmall { axis: 0, .. })
        ));
        // One huge sphere among many tiny ones: the cells are sized by the
        // huge one and the budget stops the search.
        let n = 30_000;
        let mut st = 7;
        let mut pos: Vec<f64> = (0..3 * n).map(|_| 0.01 * lcg(&mut st)).collect();
        pos.extend([5.0, 5.0, 5.0]);
        let mut rad = vec![1e-5; n];
        rad.push(1.0);
        let s = Spheres {
            position: &pos,
            radius: &rad,
            periodic: [None; 3],
        };
        assert_eq!(pairs(&s, 0.0), Err(GridError::Budget(budget(n + 1))));
    }
}
