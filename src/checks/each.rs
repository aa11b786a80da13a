//! One rule over many items on every core, with a serial loop's warnings
//! in a serial loop's order (the columnar route's checks and the springs'
//! rule): a leaf below every rule that uses it.

use super::{Checks, MAX_WARNINGS};

/// Items tested at a time by one thread in [`each`].
const EACH_MIN: usize = 1 << 12;

/// `for i in 0..n { rule(i, out) }` on every core, with the same
/// warnings in the same order whatever the thread count: a first pass in
/// parallel counts each item's warnings without forming them, a second in
/// item order runs `rule` again on the items that warn while warnings are
/// still listed (the first [`MAX_WARNINGS`]), and counts the rest.
pub(super) fn each(n: usize, out: &mut Checks, rule: impl Fn(usize, &mut Checks) + Sync) {
    use rayon::prelude::*;
    let count = |i: usize| {
        let mut c = Checks::counting();
        rule(i, &mut c);
        c.found
    };
    if out.full() {
        out.found += (0..n)
            .into_par_iter()
            .with_min_len(EACH_MIN)
            .map(count)
            .sum::<usize>();
        return;
    }
    let hits: Vec<(usize, usize)> = (0..n)
        .into_par_iter()
        .with_min_len(EACH_MIN)
        .filter_map(|i| Some((i, count(i))).filter(|h| h.1 > 0))
        .collect();
    for (i, found) in hits {
        if out.full() {
            out.found += found;
        } else {
            rule(i, out);
        }
    }
    debug_assert!(out.warnings.len() <= MAX_WARNINGS);
}
