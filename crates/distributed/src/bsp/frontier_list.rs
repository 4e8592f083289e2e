//! A sparse frontier that a team's workers fill at once: each worker appends the nodes it
//! found in one block, reserved with one `fetch_add` (GAPBS's `QueueBuffer` flush), so no
//! worker merges the others' lists between levels.
//!
//! The list is a ring that only grows: a level's nodes are the slots between the end its
//! readers saw last time ([`Mark`]) and its end now. Levels alternate between two lists (one
//! read while the other is appended to), so a list is never written while it is read, and
//! the slots a level overwrites were read a level earlier, before the collective between.

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering::Relaxed};

pub struct FrontierList {
    /// Written and read as plain `u32`s (the same layout): each block by its one appender,
    /// and read only once a collective has ordered every append of the level before.
    ids: Box<[AtomicU32]>,
    /// Slots minus one; the capacity is a power of two, at least the nodes a level can hold.
    mask: usize,
    /// Slots ever reserved.
    end: AtomicUsize,
}

/// Where a worker last saw a list end: the start of the nodes appended since.
#[derive(Debug, Default, Clone, Copy)]
pub struct Mark(usize);

/// The nodes of one level: `head`, then `tail` where they wrap around the ring.
#[derive(Clone, Copy)]
pub struct Level<'a> {
    head: &'a [u32],
    tail: &'a [u32],
    pub len: usize,
}

impl FrontierList {
    /// A list for levels of at most `nodes` nodes (each node joins at most one level).
    pub fn new(nodes: usize) -> Self {
        let capacity = nodes.max(1).next_power_of_two();
        FrontierList {
            ids: (0..capacity).map(|_| AtomicU32::new(0)).collect(),
            mask: capacity - 1,
            end: AtomicUsize::new(0),
        }
    }

    /// The slots from `start` (mod capacity), `len` of them, as the one or two runs they
    /// make in the ring.
    fn runs(&self, start: usize, len: usize) -> [(usize, usize); 2] {
        let cap = self.ids.len();
        assert!(len <= cap, "a level overran its frontier list");
        let at = start & self.mask;
        let first = len.min(cap - at);
        [(at, first), (0, len - first)]
    }

    /// Appends `block`. Relaxed: the collective that ends the level publishes the slots.
    pub fn append(&self, block: &[u32]) {
        if block.is_empty() {
            return;
        }
        let start = self.end.fetch_add(block.len(), Relaxed);
        let base = self.ids.as_ptr() as *mut u32;
        let mut from = block;
        for (at, len) in self.runs(start, block.len()) {
            // SAFETY: `runs` keeps `at..at + len` within the slots, and the `fetch_add` gave
            // these slots to this call alone: nothing else writes them in this level, and
            // nothing reads them until the collective that ends it (`AtomicU32` has `u32`'s
            // layout, and its slots are never borrowed as atomics).
            unsafe { std::ptr::copy_nonoverlapping(from.as_ptr(), base.add(at), len) };
            from = &from[len..];
        }
    }

    /// The nodes appended since `mark`, which moves to the end. Called by every worker that
    /// reads the level, after the collective that ended its appends and before the collective
    /// after which the list is appended to again, so all of them see the same end.
    pub fn take(&self, mark: &mut Mark) -> Level<'_> {
        let end = self.end.load(Relaxed);
        let len = end - mark.0;
        let [(a, alen), (b, blen)] = self.runs(mark.0, len);
        let base = self.ids.as_ptr() as *const u32;
        mark.0 = end;
        // SAFETY: within the slots (`runs`); no append writes them until the level after
        // next, after a collective that follows every read of this one (the caller's part).
        unsafe {
            Level {
                head: std::slice::from_raw_parts(base.add(a), alen),
                tail: std::slice::from_raw_parts(base.add(b), blen),
                len,
            }
        }
    }
}

impl<'a> Level<'a> {
    /// The level's nodes in `range` (of `0..len`), as the one or two runs they make: loop
    /// over each (a chained iterator would test which run it is in at every node).
    pub fn slices(&self, range: std::ops::Range<usize>) -> [&'a [u32]; 2] {
        let h = self.head.len();
        [
            &self.head[range.start.min(h)..range.end.min(h)],
            &self.tail[range.start.max(h) - h..range.end.max(h) - h],
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_wrap_around_the_ring() {
        let list = FrontierList::new(3); // four slots
        let mut mark = Mark::default();
        list.append(&[1, 2, 3]);
        let all = |l: Level| l.slices(0..l.len).concat();
        assert_eq!(all(list.take(&mut mark)), [1, 2, 3]);
        list.append(&[4]);
        list.append(&[]);
        list.append(&[5, 6]);
        let l = list.take(&mut mark);
        assert_eq!(l.slices(0..l.len).map(<[u32]>::len), [1, 2]);
        assert_eq!(all(l), [4, 5, 6]);
        assert_eq!(l.slices(1..2).concat(), [5]);
        assert_eq!(list.take(&mut mark).len, 0);
    }

    #[test]
    fn appends_from_many_threads_all_land() {
        let list = FrontierList::new(8 * 1000);
        std::thread::scope(|s| {
            for w in 0..8u32 {
                let list = &list;
                s.spawn(move || {
                    for i in 0..100 {
                        let block: Vec<u32> = (0..10).map(|j| w * 1000 + i * 10 + j).collect();
                        list.append(&block);
                    }
                });
            }
        });
        let l = list.take(&mut Mark::default());
        let mut got = l.slices(0..l.len).concat();
        got.sort_unstable();
        let want: Vec<u32> = (0..8)
            .flat_map(|w| (0..1000).map(move |i| w * 1000 + i))
            .collect();
        assert_eq!(got, want);
    }
}
