//! obim's global priority map as an append-only log with a version number (the obim paper,
//! Lenharth et al., Euro-Par'15, §3.2).
//!
//! Protocol (see `README.md` beside this file for the proof sketch):
//! 1. Appends are serialized by `append_lock`. An appender writes entry `v` (allocating its
//!    segment first if needed and publishing the segment pointer with Release), then stores
//!    `version = v + 1` with Release.
//! 2. A reader loads `version` with Acquire and may then read entries `0..version` without
//!    any lock: the Acquire load synchronizes with the Release store that published them.
//! 3. Entries and segments never move or change once published, so readers need no lock and
//!    appends never wait for readers.

use crate::sync::{AtomicPtr, AtomicUsize, Mutex, MutexGuardAlias, Ordering, UnsafeCell};
use std::mem::MaybeUninit;

/// Size of segment 0; segment `k` holds `FIRST << k` entries, so 32 segments are plenty.
#[cfg(not(loom))]
const FIRST: usize = 32;
#[cfg(loom)]
const FIRST: usize = 1;
const SEGMENTS: usize = if cfg!(loom) { 8 } else { 40 };

type Slot<E> = UnsafeCell<MaybeUninit<E>>;

pub struct GlobalLog<E> {
    segments: Box<[AtomicPtr<Slot<E>>]>,
    version: AtomicUsize,
    append_lock: Mutex<()>,
}

// SAFETY: entries are written once, before the Release store of `version` that makes them
// readable, and never again; `E: Send + Sync` values may be read from any thread.
unsafe impl<E: Send + Sync> Sync for GlobalLog<E> {}
// SAFETY: the log owns its segments.
unsafe impl<E: Send> Send for GlobalLog<E> {}

#[inline]
fn locate(i: usize) -> (usize, usize) {
    let j = i + FIRST;
    let k = (usize::BITS - 1 - j.leading_zeros()) as usize - FIRST.trailing_zeros() as usize;
    (k, j - (FIRST << k))
}

impl<E: Copy> Default for GlobalLog<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> GlobalLog<E> {
    pub fn new() -> Self {
        GlobalLog {
            segments: (0..SEGMENTS)
                .map(|_| AtomicPtr::new(std::ptr::null_mut()))
                .collect(),
            version: AtomicUsize::new(0),
            append_lock: Mutex::new(()),
        }
    }

    /// Entries published so far; entries `0..version()` may be read with [`get`](Self::get).
    #[inline]
    pub fn version(&self) -> usize {
        // Acquire: pairs with the Release store in `AppendGuard::push`, making the entries
        // below the returned version (and their segments) visible to this thread.
        self.version.load(Ordering::Acquire)
    }

    /// Entry `i`.
    ///
    /// # Panics
    /// If `i` is not below a version this thread has loaded.
    #[inline]
    pub fn get(&self, i: usize) -> E {
        assert!(
            i < self.version.load(Ordering::Acquire),
            "log entry {i} not published"
        );
        let (k, off) = locate(i);
        // Relaxed is enough: the segment pointer was stored before the `version` Release store
        // that our Acquire load above observed.
        let seg = self.segments[k].load(Ordering::Relaxed);
        debug_assert!(!seg.is_null());
        // SAFETY: entry `i < version` was fully written before `version` was published (step
        // 1) and is never written again; `seg` points at a live segment of `FIRST << k` slots.
        unsafe { (*seg.add(off)).with(|p| (*p).assume_init()) }
    }

    /// Takes the append lock; entries pushed through the guard are published one by one.
    pub fn lock(&self) -> AppendGuard<'_, E> {
        AppendGuard {
            log: self,
            _guard: self.append_lock.lock().unwrap_or_else(|e| e.into_inner()),
        }
    }
}

/// Exclusive right to append, held while a thread checks for and creates an entry.
pub struct AppendGuard<'a, E> {
    log: &'a GlobalLog<E>,
    _guard: MutexGuardAlias<'a, ()>,
}

impl<E: Copy> AppendGuard<'_, E> {
    /// Appends `e` and publishes it; returns its index.
    pub fn push(&mut self, e: E) -> usize {
        let log = self.log;
        // Relaxed: only appenders write `version`, and we hold the append lock.
        let v = log.version.load(Ordering::Relaxed);
        let (k, off) = locate(v);
        assert!(k < SEGMENTS, "obim global log is full");
        let mut seg = log.segments[k].load(Ordering::Relaxed);
        if seg.is_null() {
            let slots: Box<[Slot<E>]> = (0..FIRST << k)
                .map(|_| UnsafeCell::new(MaybeUninit::uninit()))
                .collect();
            seg = Box::into_raw(slots) as *mut Slot<E>;
            // Release (belt and braces): the `version` Release store below already orders it.
            log.segments[k].store(seg, Ordering::Release);
        }
        // SAFETY: slot `off` of segment `k` is beyond `version`, so no reader looks at it, and
        // we are the only appender (lock held).
        unsafe { (*seg.add(off)).with_mut(|p| (*p).write(e)) };
        // Release: publishes the entry written above to readers that Acquire-load `version`.
        log.version.store(v + 1, Ordering::Release);
        v
    }
}

impl<E> Drop for GlobalLog<E> {
    fn drop(&mut self) {
        for (k, seg) in self.segments.iter().enumerate() {
            let p = seg.load(Ordering::Relaxed);
            if !p.is_null() {
                // SAFETY: `p` came from `Box::into_raw` of a boxed slice of `FIRST << k` slots
                // and is freed once, here; entries are `Copy` and need no drop.
                drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, FIRST << k)) });
            }
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn locate_maps_indices_to_segments() {
        assert_eq!(locate(0), (0, 0));
        assert_eq!(locate(FIRST - 1), (0, FIRST - 1));
        assert_eq!(locate(FIRST), (1, 0));
        assert_eq!(locate(3 * FIRST), (2, 0));
    }

    #[test]
    fn appends_and_reads_many() {
        let log = GlobalLog::new();
        for i in 0..10_000u64 {
            assert_eq!(log.lock().push(i * 3), i as usize);
        }
        assert_eq!(log.version(), 10_000);
        assert!((0..10_000).all(|i| log.get(i) == i as u64 * 3));
    }
}
