//! The command line's allocator: the system allocator, with large blocks
//! advised onto transparent huge pages on Linux.
//!
//! A scene of 10⁵ bodies allocates a few hundred MB in blocks of 1–50 MB
//! (columns, the whitened rows, S, the Lanczos vectors). On 4 KiB pages
//! the first touch of each costs a page fault: 82,000 of them at 10⁵
//! bodies, a fifth of the time before Lanczos, and the products pay for
//! TLB misses. Advising blocks of [`THRESHOLD`] bytes or more with
//! `madvise(MADV_HUGEPAGE)` (what glibc's `glibc.malloc.hugetlb=1`
//! tunable does for every mmapped block, but without needing the
//! environment variable) cuts the faults to about 20,000 and the wall time
//! by ~10 % (benches/results/scale.md). Small blocks are untouched, and
//! where huge pages are off (`/sys/kernel/mm/transparent_hugepage/enabled`
//! = never) or on other systems the advice is a no-op.
//!
//! Why not a crate: mimalloc or jemalloc would bring a C build for this one
//! effect, and glibc's tunable is read from the environment before `main`.

use std::alloc::{GlobalAlloc, Layout, System};

/// Blocks of at least this many bytes are advised.
pub const THRESHOLD: usize = 2 << 20;

/// The system allocator, advising large blocks onto huge pages.
pub struct HugePages;

// SAFETY: every call is forwarded to `System` with the same arguments and
// its result returned unchanged; `advise` only gives the kernel a hint
// about pages inside the block just allocated and changes no memory.
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on to System.
        let p = unsafe { System.alloc(layout) };
        advise(p, layout.size());
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for alloc.
        let p = unsafe { System.alloc_zeroed(layout) };
        advise(p, layout.size());
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as for alloc.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for alloc.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        advise(p, new_size);
        p
    }
}

/// Advises the whole 2 MiB pages inside `[p, p + len)` onto huge pages.
#[cfg(target_os = "linux")]
fn advise(p: *mut u8, len: usize) {
    const HUGE: usize = 2 << 20;
    if p.is_null() || len < THRESHOLD {
        return;
    }
    let start = (p as usize).next_multiple_of(HUGE);
    let end = (p as usize + len) / HUGE * HUGE;
    if end > start {
        // SAFETY: the range lies inside a block this process just
        // allocated; MADV_HUGEPAGE changes no contents and its failure
        // (huge pages unsupported) is harmless, so the result is ignored.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_: *mut u8, _: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks below, at and across the threshold keep their contents
    /// through growth and shrinking.
    #[test]
    fn blocks_keep_their_contents() {
        let a = HugePages;
        for size in [64, THRESHOLD - 8, THRESHOLD, 3 * THRESHOLD + 24] {
            let layout = Layout::from_size_align(size, 8).unwrap();
            // SAFETY: nonzero sizes, the same layout for every call, the
            // block used only within its size.
            unsafe {
                let p = a.alloc_zeroed(layout);
                assert!(!p.is_null());
                let s = std::slice::from_raw_parts_mut(p, size);
                assert!(s.iter().all(|&b| b == 0));
                for (i, b) in s.iter_mut().enumerate() {
                    *b = (i % 251) as u8;
                }
                let grown = 2 * size + THRESHOLD;
                let q = a.realloc(p, layout, grown);
                assert!(!q.is_null());
                let s = std::slice::from_raw_parts(q, size);
                assert!(s.iter().enumerate().all(|(i, &b)| b == (i % 251) as u8));
                let big = Layout::from_size_align(grown, 8).unwrap();
                let r = a.realloc(q, big, size / 2 + 1);
                let s = std::slice::from_raw_parts(r, size / 2 + 1);
                assert!(s.iter().enumerate().all(|(i, &b)| b == (i % 251) as u8));
                a.dealloc(r, Layout::from_size_align(size / 2 + 1, 8).unwrap());
            }
        }
    }
}
