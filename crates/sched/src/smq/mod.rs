//! `smq`, the Stealing Multi-Queue (the SMQ paper, Postnikova et al., PPoPP'22, §2.2 and §4,
//! Listings 2 and 4).
//!
//! * Each worker owns a sequential 4-ary heap and a [`StealBuffer`] holding its best
//!   `steal_size` tasks, refilled from the heap after every push and pop once thieves emptied
//!   it.
//! * `pop`: first the tasks this worker stole earlier (a thread-local list, best first, which
//!   `pop_fast` also hands out, so the worker runs them in its inner loop); then, with
//!   probability `p_steal`, a steal attempt; then the better of its own heap top and its own
//!   buffer (taking its own buffer is a steal from itself, so the owner never processes worse
//!   tasks while its best ones wait for thieves); when it has nothing, steal attempts.
//! * A steal picks a victim at random with the SMQ paper's NUMA weighting (queues of the own
//!   package weight 1, others 1/K) and takes the victim's whole buffer if the victim's top is
//!   better than the thief's own best.
//! * A lone worker has no thieves: it keeps no buffer and pops its heap directly, in exact
//!   order (the authors' code fills the buffer even then).
//!
//! Defaults are the paper's "SMQ (Default)": steal size 4, p_steal 1/8, K 8.

pub mod steal_buffer;

use crate::contract::{CounterSink, Counters, Handle, HandleClaims, Scheduler, Task};
use crate::dary_heap::DaryHeap;
use crate::params::{parse_in, parse_probability, Config, ConfigError, ParamInfo};
use crate::random::{threshold, QueuePicker, Rng};
use crate::topology::{Topology, WorkerLayout};
use crossbeam_utils::CachePadded;
use std::cell::UnsafeCell;
pub use steal_buffer::StealBuffer;

#[derive(Debug, Clone)]
pub struct SmqConfig {
    pub steal_size: usize,
    pub p_steal: f64,
    /// NUMA weight: remote queues are chosen 1/K as often as local ones (1: uniform).
    pub k: u32,
}

impl Default for SmqConfig {
    fn default() -> Self {
        SmqConfig {
            steal_size: 4,
            p_steal: 0.125,
            k: 8,
        }
    }
}

impl Config for SmqConfig {
    const NAME: &'static str = "smq";
    const SUMMARY: &'static str =
        "stealing multi-queue: per-thread 4-ary heaps + (epoch, phase) stealing buffers (Postnikova et al.)";

    fn describe(&self) -> Vec<ParamInfo> {
        vec![
            ParamInfo {
                key: "steal_size",
                default: self.steal_size.to_string(),
                doc: "tasks per steal (the stealing buffer's size)",
            },
            ParamInfo {
                key: "p_steal",
                default: self.p_steal.to_string(),
                doc: "probability of a steal attempt on each pop (e.g. 1/8)",
            },
            ParamInfo {
                key: "k",
                default: self.k.to_string(),
                doc: "NUMA weight: remote queues weigh 1/k (1 = uniform)",
            },
        ]
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        match key {
            // The SMQ paper sweeps the steal size up to 512.
            "steal_size" => self.steal_size = parse_in::<Self>(key, value, 1..=512)? as usize,
            "p_steal" => self.p_steal = parse_probability::<Self>(key, value)?,
            "k" => self.k = parse_in::<Self>(key, value, 1..=1 << 20)? as u32,
            _ => return Err(Self::unknown_param(key)),
        }
        Ok(())
    }
}

/// One worker's queue: the heap only its owner touches, and the buffer anyone may steal.
struct Queue<T> {
    heap: UnsafeCell<DaryHeap<T>>,
    buffer: StealBuffer<T>,
}

pub struct Smq<T> {
    cfg: SmqConfig,
    layout: WorkerLayout,
    queues: Box<[CachePadded<Queue<T>>]>,
    claims: HandleClaims,
    sink: CounterSink,
}

// SAFETY: a queue's heap is touched only through its worker's handle, which `HandleClaims`
// hands out once at a time; the buffers are `Sync`.
unsafe impl<T: Send> Sync for Smq<T> {}

impl<T: Task> Smq<T> {
    pub fn new(cfg: &SmqConfig, workers: usize, topo: &Topology) -> Self {
        Smq {
            cfg: cfg.clone(),
            layout: topo.layout(workers),
            queues: (0..workers)
                .map(|_| {
                    CachePadded::new(Queue {
                        heap: UnsafeCell::new(DaryHeap::new()),
                        buffer: StealBuffer::new(cfg.steal_size),
                    })
                })
                .collect(),
            claims: HandleClaims::new(workers),
            sink: CounterSink::default(),
        }
    }
}

pub struct SmqHandle<'s, T: Copy> {
    s: &'s Smq<T>,
    me: usize,
    heap: &'s mut DaryHeap<T>,
    buffer: &'s StealBuffer<T>,
    /// Tasks taken from a buffer, best last (popped from the end).
    stolen: Vec<(u64, T)>,
    scratch: Vec<(u64, T)>,
    rng: Rng,
    picker: QueuePicker,
    p_steal: u64,
    stats: SmqStats,
}

#[derive(Debug, Default, Clone, Copy)]
struct SmqStats {
    steal_attempts: u64,
    steals: u64,
    stolen_tasks: u64,
    own_buffer_takes: u64,
}

impl<T: Task> Scheduler<T> for Smq<T> {
    type Handle<'s> = SmqHandle<'s, T>;

    fn handle(&self, worker: usize) -> SmqHandle<'_, T> {
        self.claims.claim(worker);
        let q = &self.queues[worker];
        SmqHandle {
            s: self,
            me: worker,
            // SAFETY: the claim above makes this the only live reference to the heap.
            heap: unsafe { &mut *q.heap.get() },
            buffer: &q.buffer,
            stolen: Vec::with_capacity(self.cfg.steal_size),
            scratch: Vec::with_capacity(self.cfg.steal_size),
            rng: Rng::for_worker(worker),
            picker: QueuePicker::new(&self.layout, worker, 1, self.cfg.k),
            p_steal: threshold(self.cfg.p_steal),
            stats: SmqStats::default(),
        }
    }

    fn workers(&self) -> usize {
        self.queues.len()
    }

    fn counters(&self) -> Counters {
        self.sink.snapshot()
    }
}

impl<T: Task> SmqHandle<'_, T> {
    /// The only worker: it keeps no buffer and never steals.
    #[inline]
    fn solo(&self) -> bool {
        self.s.queues.len() == 1
    }

    /// Refills the own buffer from the heap if thieves (or the owner) emptied it; a lone
    /// worker keeps none.
    #[inline]
    fn refill(&mut self) {
        if self.solo() {
            return;
        }
        let heap = &mut *self.heap;
        self.buffer.refill(|| heap.pop());
    }

    /// The best priority this worker holds.
    fn own_best(&self) -> u64 {
        let heap = self.heap.peek_priority().unwrap_or(u64::MAX);
        let buf = self.buffer.top().unwrap_or(u64::MAX);
        heap.min(buf)
    }

    /// Takes the tasks in `buffer` into the stolen list; returns the best.
    fn take(&mut self, victim: usize) -> Option<T> {
        self.scratch.clear();
        if !self.s.queues[victim].buffer.steal(&mut self.scratch) {
            return None;
        }
        let first = self.scratch[0].1;
        self.stolen.extend(self.scratch.drain(1..).rev());
        Some(first)
    }

    /// One steal attempt on a random victim whose top beats ours (Listing 2, trySteal).
    fn try_steal(&mut self) -> Option<T> {
        self.stats.steal_attempts += 1;
        let victim = self.picker.pick(&mut self.rng);
        if victim == self.me {
            return None;
        }
        let their = self.s.queues[victim].buffer.top()?;
        if their >= self.own_best() {
            return None;
        }
        let t = self.take(victim)?;
        self.stats.steals += 1;
        self.stats.stolen_tasks += 1 + self.stolen.len() as u64;
        Some(t)
    }
}

impl<T: Task> Handle<T> for SmqHandle<'_, T> {
    #[inline]
    fn push(&mut self, task: T, priority: u64) {
        self.heap.push(priority, task);
        self.refill();
    }

    fn pop(&mut self) -> Option<T> {
        if let Some(t) = self.pop_fast() {
            return Some(t);
        }
        if self.solo() {
            return self.heap.pop().map(|(_, t)| t);
        }
        if self.rng.chance(self.p_steal) {
            if let Some(t) = self.try_steal() {
                return Some(t);
            }
        }
        let heap_top = self.heap.peek_priority().unwrap_or(u64::MAX);
        match self.buffer.top() {
            // Our own buffer holds our best tasks: take them back.
            Some(b) if b <= heap_top => {
                if let Some(t) = self.take(self.me) {
                    self.stats.own_buffer_takes += 1;
                    self.refill();
                    return Some(t);
                }
                // A thief was faster: fall through to the heap.
            }
            _ => {}
        }
        match self.heap.pop() {
            Some((_, t)) => {
                self.refill();
                Some(t)
            }
            None => self.steal_when_empty(),
        }
    }

    /// The tasks of the last buffer this worker took (a steal, or its own buffer taken back),
    /// which `pop` runs before anything else.
    #[inline(always)]
    fn pop_fast(&mut self) -> Option<T> {
        self.stolen.pop().map(|(_, t)| t)
    }

    /// The own heap's top (the own buffer, or a steal, may come first).
    #[inline(always)]
    fn guess_next_pop(&self) -> Option<T> {
        self.heap.peek_task()
    }

    #[inline(always)]
    fn peek_fast(&self, ahead: usize) -> Option<T> {
        // Best last: the next task is the last one.
        self.stolen.iter().rev().nth(ahead).map(|&(_, t)| t)
    }

    fn flush(&mut self) {
        self.refill();
    }
}

impl<T: Task> SmqHandle<'_, T> {
    /// Nothing local: a few steal attempts (one per worker) before reporting empty.
    fn steal_when_empty(&mut self) -> Option<T> {
        for _ in 0..self.s.queues.len() {
            if let Some(t) = self.try_steal() {
                return Some(t);
            }
        }
        None
    }
}

impl<T: Copy> Drop for SmqHandle<'_, T> {
    fn drop(&mut self) {
        // Stolen tasks not yet run go back into the own heap: nothing is lost.
        for (p, t) in self.stolen.drain(..) {
            self.heap.push(p, t);
        }
        let st = self.stats;
        self.s.sink.merge(&[
            ("steal_attempts", st.steal_attempts),
            ("steals", st.steals),
            ("stolen_tasks", st.stolen_tasks),
            ("own_buffer_takes", st.own_buffer_takes),
        ]);
        self.s.claims.release(self.me);
    }
}
