//! One deterministic allowance of numeric work per evaluation, for the work
//! whose amount the input sets without a fixed bound of its own: impact
//! responses (their steps and matrix exponentials), at the case point, at
//! every sweep point and at every claim probe.
//!
//! Work is counted, not timed, so the same case always gets the same
//! answer: a unit is about a nanosecond on the reference machine (a step
//! of an impact with `n` contacts costs 4 (2n)² + 400, a matrix exponential
//! 110 (2n)² + 2,000, a sweep point's dense analysis c³: measured, see
//! `impact::step_cost` and `analysis::point_cost`). [`scope`] sets the allowance for the calling thread while an
//! evaluation runs ([`crate::evaluate`] gives it [`CASE_WORK`]); once it is
//! spent, [`charge`] says no and the solvers stop with a stated reason
//! (an impact "not solved: the work allowed was spent", a sweep's
//! remaining points left out with a note). Outside a scope nothing is
//! counted (each impact still has its own step limit).
//!
//! Identical impact inputs are solved once per scope ([`cached`]): a sweep
//! over a parameter that does not reach an impact's contacts, springs,
//! dashpots or speed re-uses the case point's response.

use std::cell::RefCell;
use std::collections::HashMap;

/// The work allowed in one evaluation (units as in the module
/// documentation): about 3 s on one core of the reference machine,
/// leaving the rest of the 10 s any input under 1 MB may take to
/// everything else.
pub const CASE_WORK: u64 = 3_000_000_000;

struct Allowance {
    left: u64,
    spent: bool,
    /// Solved impacts by the bits of their inputs.
    cache: HashMap<Vec<u64>, Box<dyn std::any::Any>>,
}

thread_local! {
    static LEFT: RefCell<Option<Allowance>> = const { RefCell::new(None) };
}

/// Runs `f` with an allowance of `units` for this thread (the previous one
/// restored afterwards).
pub fn scope<R>(units: u64, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Allowance>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            LEFT.with_borrow_mut(|l| *l = previous);
        }
    }
    let fresh = Allowance {
        left: units,
        spent: false,
        cache: HashMap::new(),
    };
    let previous = LEFT.with_borrow_mut(|l| l.replace(fresh));
    let _restore = Restore(previous);
    f()
}

/// Takes `units` from this thread's allowance: false (and the allowance
/// marked spent) when they are not there. Always true outside a scope.
pub fn charge(units: u64) -> bool {
    LEFT.with_borrow_mut(|l| match l {
        None => true,
        Some(a) if a.left >= units => {
            a.left -= units;
            true
        }
        Some(a) => {
            a.left = 0;
            a.spent = true;
            false
        }
    })
}

/// What is left of this thread's allowance (`None` outside a scope).
pub fn left() -> Option<u64> {
    LEFT.with_borrow(|l| l.as_ref().map(|a| a.left))
}

/// Whether this thread's allowance has run out.
pub fn spent() -> bool {
    LEFT.with_borrow(|l| l.as_ref().is_some_and(|a| a.spent))
}

/// The result for inputs whose bits are `key`, computed by `f` only the
/// first time in this scope (outside a scope: every time).
pub fn cached<T: Clone + 'static>(key: Vec<u64>, f: impl FnOnce() -> T) -> T {
    let hit = LEFT.with_borrow(|l| {
        l.as_ref()
            .and_then(|a| a.cache.get(&key))
            .and_then(|v| v.downcast_ref::<T>())
            .cloned()
    });
    if let Some(v) = hit {
        return v;
    }
    let v = f();
    LEFT.with_borrow_mut(|l| {
        if let Some(a) = l {
            a.cache.insert(key, Box::new(v.clone()));
        }
    });
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_allowance_runs_out_and_is_restored() {
        assert!(charge(u64::MAX), "outside a scope nothing is counted");
        scope(10, || {
            assert!(charge(6));
            assert!(!spent());
            assert!(!charge(6));
            assert!(spent());
            assert!(!charge(1));
            scope(5, || assert!(charge(5)));
            assert!(spent(), "the outer allowance is back");
        });
        assert!(!spent());
    }

    #[test]
    fn cached_computes_once_per_scope() {
        let mut calls = 0;
        scope(1, || {
            for _ in 0..3 {
                let v = cached(vec![1, 2], || {
                    calls += 1;
                    7.5f64
                });
                assert_eq!(v, 7.5);
            }
        });
        assert_eq!(calls, 1);
    }
}
