//! A chunk: a fixed-capacity buffer of tasks, the unit in which obim-style bags move work
//! between threads (the obim paper, Lenharth et al., Euro-Par'15, §3.1), and a per-thread pool
//! that recycles chunks so the hot path does not call the allocator.

/// Up to `capacity` tasks. Pushed at the back; popped from the front (FIFO) or back (LIFO).
#[derive(Debug)]
pub struct Chunk<T> {
    items: Vec<T>,
    head: usize,
}

impl<T: Copy> Chunk<T> {
    pub fn with_capacity(capacity: usize) -> Self {
        Chunk {
            items: Vec::with_capacity(capacity),
            head: 0,
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.items.len() - self.head
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.head == self.items.len()
    }

    #[inline]
    pub fn is_full(&self) -> bool {
        self.items.len() == self.items.capacity()
    }

    /// Appends a task; the caller checks `is_full` first. (The assert lets the compiler drop
    /// `Vec::push`'s growth path: a chunk never grows.)
    #[inline(always)]
    pub fn push(&mut self, task: T) {
        assert!(!self.is_full(), "push into a full chunk");
        self.items.push(task);
    }

    #[inline(always)]
    pub fn pop_front(&mut self) -> Option<T> {
        let t = *self.items.get(self.head)?;
        self.head += 1;
        Some(t)
    }

    /// The task `pop_front` would return after `ahead` more calls.
    #[inline(always)]
    pub fn peek_front(&self, ahead: usize) -> Option<T> {
        self.items.get(self.head.checked_add(ahead)?).copied()
    }

    #[inline]
    pub fn pop_back(&mut self) -> Option<T> {
        if self.is_empty() {
            return None;
        }
        self.items.pop()
    }

    /// Empties the chunk (its tasks are dropped: the caller has taken them).
    pub(crate) fn reset(&mut self) {
        self.items.clear();
        self.head = 0;
    }
}

/// A worker's stash of empty chunks.
#[derive(Debug)]
pub struct ChunkPool<T> {
    // Chunks travel between workers as boxes; the pool keeps the boxes so that recycling a
    // chunk allocates nothing.
    #[allow(clippy::vec_box)]
    free: Vec<Box<Chunk<T>>>,
    capacity: usize,
}

/// Empty chunks kept per worker; beyond this they go back to the allocator.
const POOL_LIMIT: usize = 64;

impl<T: Copy> ChunkPool<T> {
    pub fn new(chunk_capacity: usize) -> Self {
        ChunkPool {
            free: Vec::new(),
            capacity: chunk_capacity.max(1),
        }
    }

    #[inline]
    pub fn get(&mut self) -> Box<Chunk<T>> {
        self.free
            .pop()
            .unwrap_or_else(|| Box::new(Chunk::with_capacity(self.capacity)))
    }

    #[inline]
    pub fn put(&mut self, mut chunk: Box<Chunk<T>>) {
        if self.free.len() < POOL_LIMIT {
            chunk.reset();
            self.free.push(chunk);
        }
    }
}
