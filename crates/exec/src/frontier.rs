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

impl Queue {
    /// A queue with room for `capacity` ids (a frontier of distinct nodes needs `n`).
    pub fn new(capacity: usize) -> Self {
        Queue {
            items: (0..capacity).map(|_| AtomicU32::new(0)).collect(),
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

/// One bit per node.
pub struct Bitmap {
    words: Vec<AtomicU64>,
}

impl Bitmap {
    pub fn new(bits: usize) -> Self {
        Bitmap {
            words: (0..bits.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    pub fn get(&self, i: usize) -> bool {
        self.words[i / 64].load(Relaxed) & (1 << (i % 64)) != 0
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
