//! Frontiers for the frontier executor ([`run_team`](crate::run_team)): a sparse one (a shared
//! array of node ids that workers append to through private buffers) and a dense one (one bit
//! per node).
//!
//! Both are arrays of atomics accessed with `Relaxed` operations, which compile to plain loads
//! and stores: what makes a round's writes visible to the next round is the team's barrier
//! between them, never these accesses.

use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};

/// A shared array of node ids filled by appending: each worker collects ids in a
/// [`QueueWriter`] and reserves room for a batch with one `fetch_add` on the tail.
pub struct Queue {
    items: Vec<AtomicU32>,
    tail: CachePadded<AtomicUsize>,
}

/// `n` atomics holding 0, from zeroed memory: the allocator hands large blocks out as untouched
/// zero pages, so a queue of `n` ids costs nothing until it is written (a road graph's BFS
/// writes a few thousand of its millions of slots).
pub fn zeroed_u32s(n: usize) -> Vec<AtomicU32> {
    filled_u32s(n, 0)
}

/// `n` atomics holding `value`, filled as a plain vector is (a vectorized fill; building the
/// atomics one by one is not).
pub fn filled_u32s(n: usize, value: u32) -> Vec<AtomicU32> {
    const { assert!(std::mem::size_of::<AtomicU32>() == std::mem::size_of::<u32>()) };
    const { assert!(std::mem::align_of::<AtomicU32>() == std::mem::align_of::<u32>()) };
    let mut v = std::mem::ManuallyDrop::new(vec![value; n]);
    // SAFETY: `AtomicU32` has the same size, alignment (asserted above) and bit validity as
    // `u32`, so the allocation is a valid `[AtomicU32]` of the same length and capacity, and
    // the allocator sees the same layout when the new vector frees it.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr().cast::<AtomicU32>(), v.len(), v.capacity()) }
}

/// As [`zeroed_u32s`], for bitmap words.
pub fn zeroed_u64s(n: usize) -> Vec<AtomicU64> {
    const { assert!(std::mem::size_of::<AtomicU64>() == std::mem::size_of::<u64>()) };
    const { assert!(std::mem::align_of::<AtomicU64>() == std::mem::align_of::<u64>()) };
    let mut v = std::mem::ManuallyDrop::new(vec![0u64; n]);
    // SAFETY: as in `zeroed_u32s`, for `AtomicU64` and `u64`.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr().cast::<AtomicU64>(), v.len(), v.capacity()) }
}

impl Queue {
    /// A queue with room for `capacity` ids (a frontier of distinct nodes needs `n`).
    pub fn new(capacity: usize) -> Self {
        Queue {
            items: zeroed_u32s(capacity),
            tail: CachePadded::new(AtomicUsize::new(0)),
        }
    }

    /// The ids appended so far (call between rounds).
    pub fn len(&self) -> usize {
        self.tail.load(Relaxed)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`-th id.
    #[inline]
    pub fn get(&self, i: usize) -> u32 {
        self.items[i].load(Relaxed)
    }

    /// The first `len` ids, as a slice a loop can hold in registers: a loop that reads ids with
    /// [`get`](Self::get) while it stores to atomics reloads the queue's pointer after every
    /// store (the store might have changed it, as far as the compiler knows).
    ///
    /// # Panics
    /// If `len` exceeds the capacity.
    #[inline]
    pub fn first(&self, len: usize) -> &[AtomicU32] {
        &self.items[..len]
    }

    /// Forgets the contents (one worker, while no other appends).
    pub fn clear(&self) {
        self.tail.store(0, Relaxed);
    }

    /// Appends `ids` at a reserved position.
    ///
    /// # Panics
    /// If the queue would overflow its capacity.
    pub fn append(&self, ids: &[u32]) {
        let start = self.tail.fetch_add(ids.len(), Relaxed);
        let slots = &self.items[start..start + ids.len()];
        for (slot, &id) in slots.iter().zip(ids) {
            slot.store(id, Relaxed);
        }
    }

    /// A writer that appends without a buffer or a `fetch_add`, for the queue's only writer
    /// in a round (a team of one worker). Its pushes count once it is dropped.
    pub fn alone(&self) -> LoneWriter<'_> {
        LoneWriter {
            queue: self,
            items: &self.items,
            tail: self.len(),
        }
    }

    /// Sets the contents to `ids` (one worker, between rounds).
    pub fn fill(&self, ids: impl IntoIterator<Item = u32>) {
        let mut len = 0;
        for (slot, id) in self.items.iter().zip(ids) {
            slot.store(id, Relaxed);
            len += 1;
        }
        self.tail.store(len, Relaxed);
    }
}

/// Appends to a [`Queue`] that no one else writes in the round ([`Queue::alone`]).
pub struct LoneWriter<'q> {
    queue: &'q Queue,
    /// The queue's slots, held here so that a push does not reload them through `queue` after
    /// the previous push's store.
    items: &'q [AtomicU32],
    tail: usize,
}

impl LoneWriter<'_> {
    /// # Panics
    /// If the queue would overflow its capacity.
    #[inline]
    pub fn push(&mut self, id: u32) {
        self.items[self.tail].store(id, Relaxed);
        self.tail += 1;
    }
}

impl Drop for LoneWriter<'_> {
    fn drop(&mut self) {
        self.queue.tail.store(self.tail, Relaxed);
    }
}

/// A worker's private buffer in front of a [`Queue`]: appends go to the queue a batch at a
/// time. Call [`flush`](Self::flush) before the barrier that ends the round.
pub struct QueueWriter<'q> {
    queue: &'q Queue,
    buf: Vec<u32>,
    written: usize,
}

/// Ids a writer collects before one `fetch_add` on the shared tail.
const BATCH: usize = 1024;

impl<'q> QueueWriter<'q> {
    pub fn new(queue: &'q Queue) -> Self {
        QueueWriter {
            queue,
            buf: Vec::with_capacity(BATCH),
            written: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, id: u32) {
        self.buf.push(id);
        if self.buf.len() == BATCH {
            self.flush();
        }
    }

    /// Appends the buffered ids to the queue.
    pub fn flush(&mut self) {
        if !self.buf.is_empty() {
            self.queue.append(&self.buf);
            self.written += self.buf.len();
            self.buf.clear();
        }
    }

    /// Ids pushed through this writer and flushed, since it was made or last asked.
    pub fn take_written(&mut self) -> usize {
        std::mem::take(&mut self.written)
    }
}

impl Drop for QueueWriter<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

/// Three queues for a sequence of steps that each read one queue and append to another (BFS
/// levels, peeling waves): step `k` reads [`input(k)`](Self::input) and appends to
/// [`output(k)`](Self::output), which is step `k + 1`'s input.
///
/// **Protocol.** Every worker calls [`start(k)`](Self::start) when step `k` begins; worker 0
/// then empties the queue that step `k + 1` will append to. That queue was step `k - 1`'s
/// input: its contents were read, and its length taken, before the barrier that ended step
/// `k - 1`; it is written only after the barrier that ends step `k`. (Emptying step `k`'s own
/// output when step `k` begins would race with the workers that begin before worker 0.) The
/// length of a step's output is read after the barrier that ends it.
pub struct QueueRing {
    queues: [Queue; 3],
}

impl QueueRing {
    /// Three empty queues of `capacity` ids.
    pub fn new(capacity: usize) -> Self {
        QueueRing {
            queues: [0, 1, 2].map(|_| Queue::new(capacity)),
        }
    }

    /// Step `k`'s input (step 0's may be filled before the team starts).
    #[inline]
    pub fn input(&self, k: usize) -> &Queue {
        &self.queues[k % 3]
    }

    /// Step `k`'s output, empty when step `k` begins.
    #[inline]
    pub fn output(&self, k: usize) -> &Queue {
        &self.queues[(k + 1) % 3]
    }

    /// Called by every worker as step `k` begins.
    pub fn start(&self, k: usize, worker: usize) {
        if worker == 0 {
            self.queues[(k + 2) % 3].clear();
        }
    }
}

/// One bit per node.
pub struct Bitmap {
    words: Vec<AtomicU64>,
}

impl Bitmap {
    pub fn new(bits: usize) -> Self {
        Bitmap {
            words: zeroed_u64s(bits.div_ceil(64)),
        }
    }

    #[inline]
    pub fn get(&self, i: usize) -> bool {
        self.words[i / 64].load(Relaxed) & (1 << (i % 64)) != 0
    }

    /// [`get`](Self::get) without the bounds check, for loops over ids a graph's invariants
    /// keep in range (a bottom-up BFS step reads one per in-edge it scans).
    ///
    /// # Safety
    /// `i` must be below the number of bits the bitmap was made with, rounded up to 64.
    #[inline]
    pub unsafe fn get_unchecked(&self, i: usize) -> bool {
        // SAFETY: the caller's promise.
        unsafe { self.words.get_unchecked(i / 64) }.load(Relaxed) & (1 << (i % 64)) != 0
    }

    /// Sets bit `i` where other workers may set bits of the same word.
    #[inline]
    pub fn set_shared(&self, i: usize) {
        self.words[i / 64].fetch_or(1 << (i % 64), Relaxed);
    }

    /// Sets bit `i` where this worker alone writes its word (it owns a range of whole words:
    /// loops whose chunks are multiples of 64 indices). A plain load and store, no lock prefix.
    #[inline]
    pub fn set_owned(&self, i: usize) {
        let w = &self.words[i / 64];
        w.store(w.load(Relaxed) | (1 << (i % 64)), Relaxed);
    }

    /// Clears the words that hold bits `range` (whole words: the caller owns them).
    pub fn clear_words_of(&self, range: std::ops::Range<usize>) {
        let (first, last) = (range.start / 64, range.end.div_ceil(64));
        for w in &self.words[first..last.min(self.words.len())] {
            w.store(0, Relaxed);
        }
    }

    /// The words, for loops that skip 64 clear bits at a time.
    #[inline]
    pub fn word(&self, w: usize) -> u64 {
        self.words[w].load(Relaxed)
    }

    pub fn num_words(&self) -> usize {
        self.words.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{run_team, ExecConfig};

    #[test]
    fn a_lone_writer_appends_after_the_contents_and_counts_on_drop() {
        let q = Queue::new(8);
        q.fill([7, 8]);
        let mut w = q.alone();
        w.push(1);
        w.push(2);
        assert_eq!(q.len(), 2, "pushes count once the writer is dropped");
        drop(w);
        assert_eq!(
            (0..q.len()).map(|i| q.get(i)).collect::<Vec<_>>(),
            [7, 8, 1, 2]
        );
    }

    #[test]
    fn writers_append_every_id_once() {
        let n = 10_000;
        let q = Queue::new(n);
        let (written, _) = run_team(&ExecConfig::new(8), |team| {
            let mut w = QueueWriter::new(&q);
            let total = team.for_chunks(n, 37, |r| {
                for i in r {
                    w.push(i as u32);
                }
                w.flush();
                0
            });
            total.map(|_| w.take_written())
        })
        .unwrap();
        assert_eq!(written.iter().sum::<usize>(), n);
        let mut got: Vec<u32> = (0..q.len()).map(|i| q.get(i)).collect();
        got.sort_unstable();
        assert_eq!(got, (0..n as u32).collect::<Vec<_>>());
    }

    #[test]
    fn bitmap_sets_and_clears() {
        let b = Bitmap::new(200);
        for i in [0, 63, 64, 130, 199] {
            b.set_shared(i);
        }
        b.set_owned(5);
        assert!(b.get(0) && b.get(5) && b.get(63) && b.get(64) && b.get(199));
        assert!(!b.get(1) && !b.get(128));
        b.clear_words_of(64..200);
        assert!(b.get(0) && !b.get(64) && !b.get(199));
        assert_eq!(b.num_words(), 4);
    }
}
