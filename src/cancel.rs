//! A caller's request to stop a long evaluation (the Python package's
//! Ctrl-C), for the stages that do not take it as an argument.
//!
//! [`crate::Options::cancel`] reaches the verification and the sweeps
//! through their arguments; the large-system path's Lanczos recurrence is
//! deep below `analysis::analyze_model`, whose options are plain values, so
//! the flag is also set for the calling thread while an evaluation runs
//! ([`scope`]) and the recurrence asks [`requested`] at every step (the
//! products inside a step run on rayon's pool; the recurrence itself runs
//! on the calling thread).

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    static FLAG: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `f` with `flag` as this thread's cancel flag (the previous one
/// restored afterwards).
pub fn scope<R>(flag: Option<Arc<AtomicBool>>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Arc<AtomicBool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            FLAG.with_borrow_mut(|f| *f = previous);
        }
    }
    let previous = FLAG.with_borrow_mut(|f| std::mem::replace(f, flag));
    let _restore = Restore(previous);
    f()
}

/// Whether this thread's evaluation has been asked to stop.
pub fn requested() -> bool {
    FLAG.with_borrow(|f| f.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)))
}
