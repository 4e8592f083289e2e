//! `heap`: one concurrent priority queue shared by every worker (the obim paper, Lenharth
//! et al., Euro-Par'15, §2.1, "Heap"): a 4-ary heap behind one lock. Exact order at one
//! thread; the contention baseline beyond.

use crate::contract::{Handle, HandleClaims, Scheduler, Task};
use crate::locked_heap::LockedHeap;
use crate::params::Config;

#[derive(Debug, Clone, Default)]
pub struct HeapConfig;

impl Config for HeapConfig {
    const NAME: &'static str = "heap";
    const SUMMARY: &'static str =
        "one locked 4-ary heap shared by all threads (Lenharth et al.'s baseline)";
}

pub struct Heap<T> {
    heap: LockedHeap<T>,
    claims: HandleClaims,
}

impl<T: Task> Heap<T> {
    pub fn new(_cfg: &HeapConfig, workers: usize) -> Self {
        Heap {
            heap: LockedHeap::new(),
            claims: HandleClaims::new(workers),
        }
    }
}

pub struct HeapHandle<'s, T> {
    s: &'s Heap<T>,
    me: usize,
}

impl<T: Task> Scheduler<T> for Heap<T> {
    type Handle<'s> = HeapHandle<'s, T>;

    fn handle(&self, worker: usize) -> HeapHandle<'_, T> {
        self.claims.claim(worker);
        HeapHandle {
            s: self,
            me: worker,
        }
    }

    fn workers(&self) -> usize {
        self.claims.workers()
    }
}

impl<T: Task> Handle<T> for HeapHandle<'_, T> {
    #[inline]
    fn push(&mut self, task: T, priority: u64) {
        self.s.heap.with(|h| h.push(priority, task));
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        if self.s.heap.top() == crate::locked_heap::EMPTY_TOP {
            return None;
        }
        self.s.heap.with(|h| h.pop()).map(|e| e.1)
    }
}

impl<T> Drop for HeapHandle<'_, T> {
    fn drop(&mut self) {
        self.s.claims.release(self.me);
    }
}
