//! The distributed bag of the obim paper (Lenharth et al., Euro-Par'15, §3.1): an unordered
//! multiset of tasks spread over the machine.
//!
//! * Each worker owns a private *push chunk* and *pop chunk* in every bag (its [`Slot`]).
//!   Pushes fill the push chunk; a full chunk moves to the worker's package list, where the
//!   other workers of that package can take it.
//! * A pop takes from the worker's pop chunk; when it is empty, a chunk from the package list;
//!   when that is empty, the *hunt*: one hungry worker per package (a try-lock per package)
//!   takes chunks from other packages' lists, one for itself and more for its neighbours;
//!   finally the worker's own partly filled push chunk, which becomes its pop chunk.
//! * A centralized bag (obim variants `cmn`/`cmb`) is the same with one list for everyone.
//!
//! Probing an empty bag reads shared memory but never writes it: the hunt try-lock is taken
//! only after a read-only look found a non-empty remote list.

use crate::chunk::{Chunk, ChunkPool};
use crate::chunk_list;
use crate::sync::{AtomicBool, Ordering, UnsafeCell};
use crossbeam_utils::CachePadded;

/// Order of tasks within a bag (and of chunks within a list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    Fifo,
    Lifo,
}

/// A worker's private chunks in one bag.
struct Slot<T> {
    push: Option<Box<Chunk<T>>>,
    pop: Option<Box<Chunk<T>>>,
    /// On this worker's list of bags to flush (see [`Bag::enlist`]); cleared by a flush.
    listed: bool,
}

pub struct Bag<T> {
    /// Indexed by worker; slot `w` is touched only by the worker holding handle `w`.
    slots: Box<[UnsafeCell<Slot<T>>]>,
    /// One list per package (one in total for a centralized bag).
    lists: Box<[chunk_list::Padded<T>]>,
}

// SAFETY: the shared parts (lists) are synchronized; each slot is accessed only by the single
// worker that holds the corresponding handle (enforced by `HandleClaims`), so no slot is ever
// reached from two threads at once. Tasks are `Send`.
unsafe impl<T: Send> Sync for Bag<T> {}
// SAFETY: as above; moving the bag moves owned chunks of `Send` tasks.
unsafe impl<T: Send> Send for Bag<T> {}

/// The chunk a slot holds, null if none.
#[inline]
fn chunk_ptr<T>(chunk: &mut Option<Box<Chunk<T>>>) -> *mut Chunk<T> {
    chunk
        .as_deref_mut()
        .map_or(std::ptr::null_mut(), |c| c as *mut Chunk<T>)
}

/// State shared by all bags of one scheduler: one hunt lock per package.
pub struct BagShared {
    pub order: Order,
    hunting: Box<[CachePadded<AtomicBool>]>,
}

impl BagShared {
    pub fn new(order: Order, lists: usize) -> Self {
        BagShared {
            order,
            hunting: (0..lists.max(1))
                .map(|_| CachePadded::new(AtomicBool::new(false)))
                .collect(),
        }
    }

    pub fn lists(&self) -> usize {
        self.hunting.len()
    }
}

/// What a worker brings to every bag operation.
pub struct BagWorker<T> {
    pub worker: usize,
    /// Index of this worker's list (its package, or 0 when centralized).
    pub list: usize,
    /// Workers in this worker's package: how many chunks a hunt brings home.
    pub package_size: usize,
    pub pool: ChunkPool<T>,
    pub chunks_published: u64,
    pub remote_chunks: u64,
    pub hunts: u64,
}

impl<T: Copy> BagWorker<T> {
    pub fn new(worker: usize, list: usize, package_size: usize, chunk: usize) -> Self {
        BagWorker {
            worker,
            list,
            package_size: package_size.max(1),
            pool: ChunkPool::new(chunk),
            chunks_published: 0,
            remote_chunks: 0,
            hunts: 0,
        }
    }
}

impl<T: Copy + Send> Bag<T> {
    pub fn new(workers: usize, lists: usize) -> Self {
        Bag {
            slots: (0..workers)
                .map(|_| {
                    UnsafeCell::new(Slot {
                        push: None,
                        pop: None,
                        listed: false,
                    })
                })
                .collect(),
            lists: (0..lists.max(1))
                .map(|_| chunk_list::Padded::new())
                .collect(),
        }
    }

    /// Runs `f` on `w`'s slot.
    #[inline(always)]
    fn with_slot<R>(&self, worker: usize, f: impl FnOnce(&mut Slot<T>) -> R) -> R {
        // SAFETY: only the worker holding handle `worker` calls this (with its own
        // `BagWorker`), so this is the only live reference to the slot (see `unsafe impl Sync`).
        self.slots[worker].with_mut(|s| f(unsafe { &mut *s }))
    }

    /// Marks the bag as on `w`'s list of bags to flush; true if it was not yet. A scheduler
    /// with many bags (obim) calls it when its pushes move to this bag and lists the bag on
    /// true, so its flush visits each bag that may hold a partly filled chunk of its own once,
    /// and never the others.
    #[inline]
    pub fn enlist(&self, w: &BagWorker<T>) -> bool {
        self.with_slot(w.worker, |slot| !std::mem::replace(&mut slot.listed, true))
    }

    /// Appends to `w`'s push chunk; a chunk that fills goes to `w`'s list at once.
    #[inline(always)]
    pub fn push(&self, w: &mut BagWorker<T>, task: T) {
        // Some(filled) when the task went into the push chunk; None when there is none.
        let pushed = self.with_slot(w.worker, |slot| {
            let chunk = slot.push.as_mut()?;
            chunk.push(task);
            Some(chunk.is_full())
        });
        // Both rare: a chunk that just filled, and the first push since the chunk left.
        match pushed {
            Some(false) => {}
            Some(true) => self.publish_push_chunk(w),
            None => self.push_into_new_chunk(w, task),
        }
    }

    #[cold]
    fn push_into_new_chunk(&self, w: &mut BagWorker<T>, task: T) {
        let mut chunk = w.pool.get();
        chunk.push(task);
        if chunk.is_full() {
            self.publish(w, chunk); // a chunk of one task
        } else {
            self.with_slot(w.worker, |slot| slot.push = Some(chunk));
        }
    }

    /// `w`'s push chunk in this bag, null if it has none. The pointer stays valid until `w`'s
    /// next [`push`](Self::push), [`publish_push_chunk`](Self::publish_push_chunk),
    /// [`flush`](Self::flush) or [`pop`](Self::pop) on this bag (a pop that finds nothing
    /// published makes it the pop chunk) or its recycling; only `w` may use it, and a chunk
    /// it fills must go out with `publish_push_chunk` at once.
    #[inline]
    pub fn push_chunk(&self, w: &BagWorker<T>) -> *mut Chunk<T> {
        self.with_slot(w.worker, |slot| chunk_ptr(&mut slot.push))
    }

    /// Publishes `w`'s push chunk (a full one, or any).
    #[cold]
    pub fn publish_push_chunk(&self, w: &mut BagWorker<T>) {
        if let Some(chunk) = self.with_slot(w.worker, |slot| slot.push.take()) {
            self.publish(w, chunk);
        }
    }

    #[cold]
    fn publish(&self, w: &mut BagWorker<T>, chunk: Box<Chunk<T>>) {
        w.chunks_published += 1;
        self.lists[w.list].push(chunk);
    }

    #[inline(always)]
    pub fn pop(&self, shared: &BagShared, w: &mut BagWorker<T>) -> Option<T> {
        let order = shared.order;
        let hit = self.with_slot(w.worker, |slot| {
            if order == Order::Lifo {
                if let Some(t) = slot.push.as_mut().and_then(|c| c.pop_back()) {
                    return Some(t);
                }
            }
            let c = slot.pop.as_mut()?;
            match order {
                Order::Fifo => c.pop_front(),
                Order::Lifo => c.pop_back(),
            }
        });
        if hit.is_some() {
            return hit;
        }
        self.pop_slow(shared, w)
    }

    /// `w`'s pop chunk in this bag, null if it has none. The pointer stays valid until `w`'s
    /// next [`pop`](Self::pop) on this bag (which may replace the chunk) or the bag's
    /// [`recycle`](Self::recycle); only `w` may use it.
    #[inline]
    pub fn pop_chunk(&self, w: &BagWorker<T>) -> *mut Chunk<T> {
        self.with_slot(w.worker, |slot| chunk_ptr(&mut slot.pop))
    }

    #[cold]
    fn pop_slow(&self, shared: &BagShared, w: &mut BagWorker<T>) -> Option<T> {
        let order = shared.order;
        if let Some(empty) = self.with_slot(w.worker, |slot| slot.pop.take()) {
            w.pool.put(empty);
        }
        let taken = self
            .take_list(w.list, order)
            .or_else(|| self.hunt(shared, w));
        if let Some(mut chunk) = taken {
            let t = match order {
                Order::Fifo => chunk.pop_front(),
                Order::Lifo => chunk.pop_back(),
            };
            self.with_slot(w.worker, |slot| slot.pop = Some(chunk));
            return t;
        }
        // Last, the private chunk still being filled becomes the pop chunk, as Galois's
        // ChunkFIFO makes its `next` chunk its `cur`: the pops that follow take the fast path,
        // and the next push starts a new chunk.
        self.with_slot(w.worker, |slot| {
            let mut c = slot.push.take_if(|c| !c.is_empty())?;
            let t = match order {
                Order::Fifo => c.pop_front(),
                Order::Lifo => c.pop_back(),
            };
            slot.pop = Some(c);
            t
        })
    }

    #[inline]
    fn take_list(&self, list: usize, order: Order) -> Option<Box<Chunk<T>>> {
        match order {
            Order::Fifo => self.lists[list].pop_front(),
            Order::Lifo => self.lists[list].pop_back(),
        }
    }

    /// Remote stealing by one hungry worker per package (the obim paper's §3.1).
    fn hunt(&self, shared: &BagShared, w: &mut BagWorker<T>) -> Option<Box<Chunk<T>>> {
        let lists = self.lists.len();
        if lists == 1 {
            return None;
        }
        // Read-only look first, so probing an empty bag writes nothing.
        let victim = (1..lists)
            .map(|k| (w.list + k) % lists)
            .find(|&p| self.lists[p].len_hint() > 0)?;
        let flag = &shared.hunting[w.list];
        // The flag is a try-lock over a policy, not over data (the lists have their own
        // mutexes): Acquire/Release only keep the hunts of one package from overlapping.
        if flag
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return None; // a neighbour is already hunting for this package
        }
        w.hunts += 1;
        let mut mine = None;
        for k in 0..lists - 1 {
            let p = (victim + k) % lists;
            if p == w.list {
                continue;
            }
            if let Some(c) = self.take_list(p, shared.order) {
                w.remote_chunks += 1;
                mine = Some(c);
                // Bring chunks home for the other hungry workers of this package.
                for _ in 1..w.package_size {
                    match self.take_list(p, shared.order) {
                        Some(extra) => {
                            w.remote_chunks += 1;
                            self.lists[w.list].push(extra);
                        }
                        None => break,
                    }
                }
                break;
            }
        }
        flag.store(false, Ordering::Release);
        mine
    }

    /// Empties the bag for reuse: every task left (in every worker's chunks and every list)
    /// goes to `f`. Each worker's chunks stay in its slot, emptied, so that the next level
    /// to use the bag allocates none; listed chunks go to `w`'s pool. Taking `&mut self` is
    /// what makes touching other workers' slots sound: whoever holds it is the only one who
    /// can reach the bag (obim recycles a bag only after every worker has dropped its
    /// pointers to it).
    pub fn recycle(&mut self, w: &mut BagWorker<T>, mut f: impl FnMut(T)) {
        let mut empty = |chunk: &mut Chunk<T>| {
            while let Some(t) = chunk.pop_front() {
                f(t);
            }
            chunk.reset();
        };
        for slot in self.slots.iter() {
            // SAFETY: `&mut self`: no other reference to any slot exists.
            slot.with_mut(|s| {
                let s = unsafe { &mut *s };
                s.listed = false;
                s.push
                    .iter_mut()
                    .chain(s.pop.iter_mut())
                    .for_each(|c| empty(c));
            });
        }
        for list in self.lists.iter() {
            while let Some(mut chunk) = list.pop_front() {
                empty(&mut chunk);
                w.pool.put(chunk);
            }
        }
    }

    /// True if `w`'s own chunks in this bag hold no task.
    pub fn holds_none_of(&self, w: &BagWorker<T>) -> bool {
        self.with_slot(w.worker, |slot| {
            slot.push
                .iter()
                .chain(slot.pop.iter())
                .all(|c| c.is_empty())
        })
    }

    /// True if no chunk waits in any of the bag's lists (a hint: it reads without locks, and
    /// says nothing of the chunks workers hold in their slots).
    pub fn lists_look_empty(&self) -> bool {
        self.lists.iter().all(|l| l.len_hint() == 0)
    }

    /// Makes `w`'s partly filled push chunk visible to other workers.
    pub fn flush(&self, w: &mut BagWorker<T>) {
        let chunk = self.with_slot(w.worker, |slot| {
            slot.listed = false;
            match &slot.push {
                Some(c) if !c.is_empty() => slot.push.take(),
                _ => None,
            }
        });
        if let Some(c) = chunk {
            self.publish(w, c);
        }
    }
}
