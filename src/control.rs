//! How far an evaluation may go, for the calling thread: the caller's
//! request to stop (the Python package's Ctrl-C, a book's time budget) and
//! one deterministic allowance of numeric work.
//!
//! The caller hands its stop flag in once (`pipeline::Options::cancel`);
//! the pipeline installs it here with the evaluation's allowance
//! ([`CASE_WORK`]), and every stage reads it here, however deep it runs:
//! the verification's simulations at every step, a sweep before every
//! point, the impact solver and the large path's Lanczos recurrence at
//! every step (the products inside a step run on rayon's pool; the
//! recurrence itself runs on the calling thread). Work whose rayon tasks
//! must stop too take the flag itself ([`stop_flag`]).
//!
//! Each setting is installed by a guard ([`stop_on`], [`allow`]) and the
//! previous one is back when the guard drops, on a return and on a panic
//! alike: a caught panic inside an evaluation leaves the thread as it was.
//! The symbolic engine's budgets (`symbolic::poly`) are restored the same
//! way ([`finally`]).
//!
//! # The work allowance
//!
//! For the work whose amount the input sets without a fixed bound of its
//! own: impact responses (their steps and matrix exponentials), at the
//! case point, at every sweep point and at every claim probe. Work is
//! counted, not timed, so the same case always gets the same answer: a
//! unit is about a nanosecond on the reference machine (a step of an
//! impact with `n` contacts costs 4 (2n)² + 400, a matrix exponential
//! 110 (2n)² + 2,000, a sweep point's dense analysis c³: measured, see
//! `analysis::impact::step_cost` and `analysis::point_cost`). Once it is
//! spent, [`charge`] says no and the solvers stop with a stated reason (an
//! impact "not solved: the work allowed was spent", a sweep's remaining
//! points left out with a note). Outside an allowance nothing is counted
//! (each impact still has its own step limit).
//!
//! Identical impact inputs are solved once per allowance ([`cached`]): a
//! sweep over a parameter that does not reach an impact's contacts,
//! springs, dashpots or speed re-uses the case point's response.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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

#[derive(Default)]
struct State {
    stop: Option<Arc<AtomicBool>>,
    allowance: Option<Allowance>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

/// What a guard put back when it drops.
enum Saved {
    Stop(Option<Arc<AtomicBool>>),
    Allowance(Option<Allowance>),
}

/// Holds one setting of this thread's control; the previous setting is
/// restored when it drops (on unwind too). Guards drop in the reverse order
/// of their making, as scopes do.
#[must_use = "the setting lasts as long as the guard"]
pub struct Guard {
    saved: Option<Saved>,
    /// Not `Send`: the guard restores the thread it was made on.
    _thread: std::marker::PhantomData<*const ()>,
}

impl Drop for Guard {
    fn drop(&mut self) {
        let saved = self.saved.take();
        STATE.with_borrow_mut(|s| match saved {
            Some(Saved::Stop(previous)) => s.stop = previous,
            Some(Saved::Allowance(previous)) => s.allowance = previous,
            None => {}
        });
    }
}

fn guard(saved: Saved) -> Guard {
    Guard {
        saved: Some(saved),
        _thread: std::marker::PhantomData,
    }
}

/// Runs a closure when dropped: on a return and on a panic alike. The
/// stages' own scoped settings (the symbolic engine's budgets) restore
/// themselves with it.
#[must_use = "the closure runs when the guard drops"]
pub struct Finally<F: FnOnce()>(Option<F>);

impl<F: FnOnce()> Drop for Finally<F> {
    fn drop(&mut self) {
        if let Some(f) = self.0.take() {
            f();
        }
    }
}

/// A guard that runs `f` when it drops.
pub fn finally<F: FnOnce()>(f: F) -> Finally<F> {
    Finally(Some(f))
}

/// Makes `flag` this thread's stop request until the guard drops.
pub fn stop_on(flag: Option<Arc<AtomicBool>>) -> Guard {
    guard(Saved::Stop(
        STATE.with_borrow_mut(|s| std::mem::replace(&mut s.stop, flag)),
    ))
}

/// Gives this thread a fresh allowance of `units` until the guard drops.
pub fn allow(units: u64) -> Guard {
    let fresh = Allowance {
        left: units,
        spent: false,
        cache: HashMap::new(),
    };
    guard(Saved::Allowance(
        STATE.with_borrow_mut(|s| s.allowance.replace(fresh)),
    ))
}

/// Runs `f` with `flag` as this thread's stop request.
pub fn cancel_scope<R>(flag: Option<Arc<AtomicBool>>, f: impl FnOnce() -> R) -> R {
    let _stop = stop_on(flag);
    f()
}

/// Runs `f` with an allowance of `units` for this thread.
pub fn work_scope<R>(units: u64, f: impl FnOnce() -> R) -> R {
    let _work = allow(units);
    f()
}

/// Whether this thread's evaluation has been asked to stop.
pub fn cancelled() -> bool {
    STATE.with_borrow(|s| s.stop.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)))
}

/// This thread's stop flag, for work handed to other threads.
pub fn stop_flag() -> Option<Arc<AtomicBool>> {
    STATE.with_borrow(|s| s.stop.clone())
}

/// Takes `units` from this thread's allowance: false (and the allowance
/// marked spent) when they are not there. Always true outside an allowance.
pub fn charge(units: u64) -> bool {
    STATE.with_borrow_mut(|s| match &mut s.allowance {
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

/// What is left of this thread's allowance (`None` outside one).
pub fn left() -> Option<u64> {
    STATE.with_borrow(|s| s.allowance.as_ref().map(|a| a.left))
}

/// Whether this thread's allowance has run out.
pub fn spent() -> bool {
    STATE.with_borrow(|s| s.allowance.as_ref().is_some_and(|a| a.spent))
}

/// The result for inputs whose bits are `key`, computed by `f` only the
/// first time under this allowance (outside one: every time).
pub fn cached<T: Clone + 'static>(key: Vec<u64>, f: impl FnOnce() -> T) -> T {
    let hit = STATE.with_borrow(|s| {
        s.allowance
            .as_ref()
            .and_then(|a| a.cache.get(&key))
            .and_then(|v| v.downcast_ref::<T>())
            .cloned()
    });
    if let Some(v) = hit {
        return v;
    }
    let v = f();
    STATE.with_borrow_mut(|s| {
        if let Some(a) = &mut s.allowance {
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
        assert!(charge(u64::MAX), "outside an allowance nothing is counted");
        work_scope(10, || {
            assert!(charge(6));
            assert!(!spent());
            assert!(!charge(6));
            assert!(spent());
            assert!(!charge(1));
            work_scope(5, || assert!(charge(5)));
            assert!(spent(), "the outer allowance is back");
        });
        assert!(!spent());
    }

    #[test]
    fn cached_computes_once_per_allowance() {
        let mut calls = 0;
        work_scope(1, || {
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

    #[test]
    fn a_panic_inside_a_scope_leaves_the_previous_state() {
        let outer = Arc::new(AtomicBool::new(false));
        let _stop = stop_on(Some(outer.clone()));
        let _work = allow(100);
        assert!(charge(30));
        let caught = std::panic::catch_unwind(|| {
            let inner = Arc::new(AtomicBool::new(true));
            let _stop = stop_on(Some(inner));
            let _work = allow(5);
            assert!(cancelled());
            assert!(!charge(6));
            panic!("a stage fails");
        });
        assert!(caught.is_err());
        assert!(!cancelled(), "the outer stop flag is back");
        assert_eq!(left(), Some(70), "the outer allowance is back, as it was");
        assert!(!spent());
        outer.store(true, Ordering::Relaxed);
        assert!(cancelled());
        assert!(Arc::ptr_eq(&stop_flag().unwrap(), &outer));
    }
}
