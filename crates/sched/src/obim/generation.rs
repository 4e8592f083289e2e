//! Generations of obim's priority map, so that dead levels are freed (README.md, "Retiring
//! levels").
//!
//! The global log is append-only, so on its own it keeps every level ever created: a bag per
//! level, a record per level and, in every worker, a local-map entry per level. A long path
//! under SSSP creates a level per node and kept about a kilobyte per node. A compaction
//! therefore replaces the log by a new *generation* holding only the levels still worth
//! keeping, and the bags it leaves out (*retired*) are freed once every worker has moved to
//! the new generation and so holds no pointer to them any more.

use crate::bag::Bag;
use crate::sync::{AtomicBool, AtomicUsize, Ordering};

use super::global_log::GlobalLog;

/// Levels a generation may hold before the first compaction is tried, and the least growth
/// between two compactions: each compaction walks the whole log, so it must be paid for by at
/// least as many new levels.
#[cfg(not(loom))]
pub const MIN_COMPACT: usize = 1024;
#[cfg(loom)]
pub const MIN_COMPACT: usize = 2;

/// A generation number that is at least every real one: "this worker holds no pointer into
/// any generation" (no handle, or a dropped one).
pub const OUTSIDE: u64 = u64::MAX;

/// A level's record: its key and its bag, as the log and the local maps hold them.
pub type Record<Lv, T> = (Lv, *const Bag<T>);

/// Records, as a compaction sorts them.
pub type Records<Lv, T> = Vec<Record<Lv, T>>;

/// One generation of the map.
pub struct Generation<Lv, T> {
    /// 0 for the first, then one more per compaction.
    pub number: u64,
    /// The levels of this generation (the global log of the obim paper, Lenharth et al.,
    /// Euro-Par'15, §3.2).
    pub log: GlobalLog<Record<Lv, T>>,
    /// Set, under the log's append lock, by the compaction that replaces this generation:
    /// whoever then holds the lock must append to the successor instead.
    sealed: AtomicBool,
    /// Compaction is worth trying once the log holds this many records.
    compact_at: AtomicUsize,
}

impl<Lv: Copy, T> Generation<Lv, T> {
    /// Generation `number` holding `kept`, in that order.
    pub fn new(number: u64, kept: &[Record<Lv, T>]) -> Self {
        let log = GlobalLog::new();
        {
            let mut append = log.lock();
            for &r in kept {
                append.push(r);
            }
        }
        Generation {
            number,
            log,
            sealed: AtomicBool::new(false),
            compact_at: AtomicUsize::new(next_compaction(kept.len())),
        }
    }

    /// True once a compaction has replaced this generation. Read under the log's append
    /// lock, which orders it after the compaction's write (made under the same lock).
    pub fn is_sealed(&self) -> bool {
        self.sealed.load(Ordering::Relaxed)
    }

    /// Marks this generation replaced; the caller holds the log's append lock.
    pub fn seal(&self) {
        self.sealed.store(true, Ordering::Relaxed);
    }

    /// True if the log has grown enough since the last compaction to try one.
    #[inline]
    pub fn compaction_due(&self) -> bool {
        // Relaxed: a threshold, not a publication; a stale value only moves one try.
        self.log.version() >= self.compact_at.load(Ordering::Relaxed)
    }

    /// A compaction that found too few dead levels defers the next try until the log has
    /// doubled, so walking the log stays amortized over the levels created.
    pub fn defer_compaction(&self, records: usize) {
        self.compact_at
            .store(next_compaction(records), Ordering::Relaxed);
    }
}

/// The log size at which a generation of `records` records is next compacted.
fn next_compaction(records: usize) -> usize {
    records.saturating_mul(2).max(MIN_COMPACT)
}

/// Splits a log's records into those a compaction keeps and those it retires (`dead`). The
/// verdict may be a guess: a retired bag may still hold a task (a chunk published late, or
/// one in a worker's slot), and the reclamation moves those back into the map, so a wrong
/// guess costs time, never a task.
pub fn partition<Lv: Copy, T: Copy + Send>(
    records: impl Iterator<Item = Record<Lv, T>>,
    dead: impl Fn(Lv, &Bag<T>) -> bool,
) -> (Records<Lv, T>, Records<Lv, T>) {
    let mut kept = Vec::new();
    let mut retired = Vec::new();
    for (level, bag) in records {
        // SAFETY: the caller reads `records` from the current generation's log under its
        // append lock; its bags are live (only retired bags of an older generation are freed).
        if dead(level, unsafe { &*bag }) {
            retired.push((level, bag));
        } else {
            kept.push((level, bag));
        }
    }
    (kept, retired)
}
