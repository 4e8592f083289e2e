//! `serial`: one d-ary heap, one worker, exact priority order. The oracle for ordering, and
//! the single-thread baseline for COST.

use crate::contract::{Handle, HandleClaims, Scheduler, Task};
use crate::dary_heap::DaryHeap;
use crate::params::{Config, ConfigError};
use std::cell::UnsafeCell;

#[derive(Debug, Clone, Default)]
pub struct SerialConfig;

impl Config for SerialConfig {
    const NAME: &'static str = "serial";
    const SUMMARY: &'static str =
        "one 4-ary heap, exact priority order, single worker only (the reference)";
}

pub struct Serial<T> {
    heap: UnsafeCell<DaryHeap<T>>,
    claims: HandleClaims,
}

// SAFETY: the heap is reached only through the single handle of worker 0, which
// `HandleClaims` hands out once at a time.
unsafe impl<T: Send> Sync for Serial<T> {}

impl<T: Task> Serial<T> {
    pub fn new(_cfg: &SerialConfig, workers: usize) -> Result<Self, ConfigError> {
        if workers != 1 {
            return Err(ConfigError::Unsupported {
                scheduler: "serial",
                why: format!("runs on exactly 1 thread (asked for {workers}); use obim for more"),
            });
        }
        Ok(Serial {
            heap: UnsafeCell::new(DaryHeap::new()),
            claims: HandleClaims::new(1),
        })
    }
}

pub struct SerialHandle<'s, T> {
    owner: &'s Serial<T>,
    heap: &'s mut DaryHeap<T>,
}

impl<T: Task> Scheduler<T> for Serial<T> {
    type Handle<'s> = SerialHandle<'s, T>;

    fn handle(&self, worker: usize) -> SerialHandle<'_, T> {
        self.claims.claim(worker);
        SerialHandle {
            owner: self,
            // SAFETY: the claim above guarantees this is the only live reference.
            heap: unsafe { &mut *self.heap.get() },
        }
    }

    fn workers(&self) -> usize {
        1
    }
}

impl<T: Task> Handle<T> for SerialHandle<'_, T> {
    #[inline]
    fn push(&mut self, task: T, priority: u64) {
        self.heap.push(priority, task);
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        self.heap.pop().map(|e| e.1)
    }

    #[inline(always)]
    fn guess_next_pop(&self) -> Option<T> {
        self.heap.peek_task()
    }
}

impl<T> Drop for SerialHandle<'_, T> {
    fn drop(&mut self) {
        self.owner.claims.release(0);
    }
}
