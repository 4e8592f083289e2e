//! `mq`, the MultiQueue (the SMQ paper, Postnikova et al., PPoPP'22, §2.1, Listing 1; Rihani,
//! Sanders, Dementiev 2015) with the optimizations the SMQ paper measures.
//!
//! * `c * T` sequential 4-ary heaps, each behind a try-lock with its top priority cached in an
//!   atomic ([`LockedHeap`]).
//! * Insert: a random queue; if its lock is taken, another. Delete: two distinct random queues,
//!   the one with the better cached top is locked and popped (two-choice); if the lock is
//!   taken, start over.
//! * **Task batching** (`insert_batch`, `delete_batch` > 1; `batch = B` sets both, the SMQ
//!   paper's App. C sizes them apart): inserts collect in a thread-local buffer flushed into
//!   one random queue when it holds `insert_batch` tasks; a delete takes up to `delete_batch`
//!   tasks from the chosen queue into a thread-local buffer.
//! * **Temporal locality** (`p_insert_change`, `p_delete_change` < 1): before each operation
//!   the thread keeps its previous queue unless a biased coin says to change.
//! * **NUMA weight** `k`: queues of the thread's own package weigh 1, others 1/k (the SMQ
//!   paper's §4).
//!
//! Defaults are the classic MultiQueue: c = 4, no batching, always change queue, k = 1.
//! A delete that finds both choices empty scans every queue's cached top once before reporting
//! "nothing visible", so the last tasks of a run are found without a long random search.

use crate::contract::{CounterSink, Counters, Handle, HandleClaims, Scheduler, Task};
use crate::locked_heap::{heaps, LockedHeap, EMPTY_TOP};
use crate::params::{parse_in, parse_probability, Config, ConfigError, ParamInfo};
use crate::random::{threshold, QueuePicker, Rng};
use crate::topology::{Topology, WorkerLayout};
use crossbeam_utils::CachePadded;

#[derive(Debug, Clone)]
pub struct MqConfig {
    /// Queues per thread.
    pub c: usize,
    /// Inserts buffered before they go to a queue (1: none).
    pub insert_batch: usize,
    /// Tasks one delete takes from its queue (1: one).
    pub delete_batch: usize,
    pub p_insert_change: f64,
    pub p_delete_change: f64,
    pub k: u32,
}

impl Default for MqConfig {
    fn default() -> Self {
        MqConfig {
            c: 4,
            insert_batch: 1,
            delete_batch: 1,
            p_insert_change: 1.0,
            p_delete_change: 1.0,
            k: 1,
        }
    }
}

impl Config for MqConfig {
    const NAME: &'static str = "mq";
    const SUMMARY: &'static str =
        "MultiQueue: c*T locked heaps, two-choice delete; batching, locality, NUMA options (Postnikova et al.)";

    fn describe(&self) -> Vec<ParamInfo> {
        vec![
            ParamInfo {
                key: "c",
                default: self.c.to_string(),
                doc: "queues per thread",
            },
            ParamInfo {
                key: "insert_batch",
                default: self.insert_batch.to_string(),
                doc: "task batching: inserts buffered per flush (1 = off; batch=B sets both)",
            },
            ParamInfo {
                key: "delete_batch",
                default: self.delete_batch.to_string(),
                doc: "task batching: tasks taken per delete (1 = off; batch=B sets both)",
            },
            ParamInfo {
                key: "p_insert_change",
                default: self.p_insert_change.to_string(),
                doc: "temporal locality: probability an insert changes queue (1 = always)",
            },
            ParamInfo {
                key: "p_delete_change",
                default: self.p_delete_change.to_string(),
                doc: "temporal locality: probability a delete changes queue (1 = always)",
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
            "c" => self.c = parse_in::<Self>(key, value, 1..=64)? as usize,
            "batch" => {
                self.insert_batch = parse_in::<Self>(key, value, 1..=4096)? as usize;
                self.delete_batch = self.insert_batch;
            }
            "insert_batch" => self.insert_batch = parse_in::<Self>(key, value, 1..=4096)? as usize,
            "delete_batch" => self.delete_batch = parse_in::<Self>(key, value, 1..=4096)? as usize,
            "p_insert_change" => self.p_insert_change = parse_probability::<Self>(key, value)?,
            "p_delete_change" => self.p_delete_change = parse_probability::<Self>(key, value)?,
            "k" => self.k = parse_in::<Self>(key, value, 1..=1 << 20)? as u32,
            _ => return Err(Self::unknown_param(key)),
        }
        Ok(())
    }
}

pub struct Mq<T> {
    cfg: MqConfig,
    layout: WorkerLayout,
    queues: Box<[CachePadded<LockedHeap<T>>]>,
    claims: HandleClaims,
    sink: CounterSink,
}

impl<T: Task> Mq<T> {
    pub fn new(cfg: &MqConfig, workers: usize, topo: &Topology) -> Self {
        Mq {
            cfg: cfg.clone(),
            layout: topo.layout(workers),
            queues: heaps(cfg.c * workers),
            claims: HandleClaims::new(workers),
            sink: CounterSink::default(),
        }
    }
}

pub struct MqHandle<'s, T: Copy> {
    s: &'s Mq<T>,
    me: usize,
    rng: Rng,
    picker: QueuePicker,
    insert_change: u64,
    delete_change: u64,
    last_insert: usize,
    last_delete: usize,
    inserts: Vec<(u64, T)>,
    /// Deleted tasks not yet returned, best last.
    deletes: Vec<(u64, T)>,
    stats: MqStats,
}

#[derive(Debug, Default, Clone, Copy)]
struct MqStats {
    lock_failures: u64,
    empty_scans: u64,
}

impl<T: Task> Scheduler<T> for Mq<T> {
    type Handle<'s> = MqHandle<'s, T>;

    fn handle(&self, worker: usize) -> MqHandle<'_, T> {
        self.claims.claim(worker);
        let picker = QueuePicker::new(&self.layout, worker, self.cfg.c, self.cfg.k);
        MqHandle {
            s: self,
            me: worker,
            rng: Rng::for_worker(worker),
            last_insert: worker * self.cfg.c,
            last_delete: worker * self.cfg.c,
            picker,
            insert_change: threshold(self.cfg.p_insert_change),
            delete_change: threshold(self.cfg.p_delete_change),
            inserts: Vec::with_capacity(self.cfg.insert_batch),
            deletes: Vec::with_capacity(self.cfg.delete_batch),
            stats: MqStats::default(),
        }
    }

    fn workers(&self) -> usize {
        self.layout.workers()
    }

    fn counters(&self) -> Counters {
        self.sink.snapshot()
    }
}

impl<T: Task> MqHandle<'_, T> {
    /// Inserts `tasks` into one queue (the previous one unless the coin says change).
    fn insert_all(&mut self, tasks: &[(u64, T)]) {
        let mut q = if self.rng.chance(self.insert_change) {
            self.picker.pick(&mut self.rng)
        } else {
            self.last_insert
        };
        loop {
            let done = self.s.queues[q].try_with(|h| {
                for &(p, t) in tasks {
                    h.push(p, t);
                }
            });
            if done.is_some() {
                self.last_insert = q;
                return;
            }
            self.stats.lock_failures += 1;
            q = self.picker.pick(&mut self.rng);
        }
    }

    fn flush_inserts(&mut self) {
        if !self.inserts.is_empty() {
            // Taken out so `insert_all` may borrow `self`; put back to keep its capacity.
            let mut tasks = std::mem::take(&mut self.inserts);
            self.insert_all(&tasks);
            tasks.clear();
            self.inserts = tasks;
        }
    }

    /// Pops up to `delete_batch` tasks from queue `q`; `None` if its lock was taken or it
    /// was empty.
    fn take_from(&mut self, q: usize) -> Option<T> {
        let batch = self.s.cfg.delete_batch;
        let deletes = &mut self.deletes;
        let Some(first) = self.s.queues[q].try_with(|h| {
            let first = h.pop()?;
            for _ in 1..batch {
                match h.pop() {
                    Some(e) => deletes.push(e),
                    None => break,
                }
            }
            Some(first.1)
        }) else {
            self.stats.lock_failures += 1;
            return None;
        };
        // `deletes` was empty (pop serves it first): best last, so `deletes.pop()` returns
        // the batch in order.
        self.deletes.reverse();
        first
    }

    /// Two-choice (or sticky) choice of the queue to delete from; `None` if both look empty.
    fn choose(&mut self) -> Option<usize> {
        let qs = &self.s.queues;
        if !self.rng.chance(self.delete_change) && qs[self.last_delete].top() != EMPTY_TOP {
            return Some(self.last_delete);
        }
        let a = self.picker.pick(&mut self.rng);
        let mut b = self.picker.pick(&mut self.rng);
        if b == a && qs.len() > 1 {
            b = (a + 1 + self.rng.below(qs.len() - 1)) % qs.len();
        }
        let (ta, tb) = (qs[a].top(), qs[b].top());
        if ta == EMPTY_TOP && tb == EMPTY_TOP {
            return None;
        }
        Some(if ta <= tb { a } else { b })
    }

    /// Every queue's cached top once, from a random start: the first non-empty one.
    fn scan(&mut self) -> Option<usize> {
        self.stats.empty_scans += 1;
        let n = self.s.queues.len();
        let start = self.rng.below(n);
        (0..n)
            .map(|i| (start + i) % n)
            .find(|&q| self.s.queues[q].top() != EMPTY_TOP)
    }
}

impl<T: Task> Handle<T> for MqHandle<'_, T> {
    #[inline]
    fn push(&mut self, task: T, priority: u64) {
        if self.s.cfg.insert_batch > 1 {
            self.inserts.push((priority, task));
            if self.inserts.len() >= self.s.cfg.insert_batch {
                self.flush_inserts();
            }
        } else {
            self.insert_all(&[(priority, task)]);
        }
    }

    fn pop(&mut self) -> Option<T> {
        if let Some(t) = self.pop_fast() {
            return Some(t);
        }
        let mut flushed = false;
        let mut failures = 0;
        loop {
            let q = match self.choose().or_else(|| self.scan()) {
                Some(q) => q,
                None if !flushed && !self.inserts.is_empty() => {
                    // Our own buffered inserts are the only tasks we can see.
                    self.flush_inserts();
                    flushed = true;
                    continue;
                }
                None => return None,
            };
            if let Some(t) = self.take_from(q) {
                self.last_delete = q;
                return Some(t);
            }
            // Emptied under us, or locked: choose again, but do not spin forever.
            failures += 1;
            if failures > 2 * self.s.queues.len() {
                self.flush_inserts();
                return None;
            }
        }
    }

    /// The rest of the last delete batch, which `pop` serves first.
    #[inline(always)]
    fn pop_fast(&mut self) -> Option<T> {
        self.deletes.pop().map(|(_, t)| t)
    }

    #[inline(always)]
    fn peek_fast(&self, ahead: usize) -> Option<T> {
        // Best last: the next task is the last one.
        self.deletes.iter().rev().nth(ahead).map(|&(_, t)| t)
    }

    fn flush(&mut self) {
        self.flush_inserts();
    }
}

impl<T: Copy> Drop for MqHandle<'_, T> {
    fn drop(&mut self) {
        // Buffered tasks go back into a queue: nothing is lost.
        let mut rest: Vec<(u64, T)> = self.inserts.drain(..).collect();
        rest.append(&mut self.deletes);
        if !rest.is_empty() {
            let q = self.me * self.s.cfg.c;
            self.s.queues[q].with(|h| {
                for &(p, t) in &rest {
                    h.push(p, t);
                }
            });
        }
        let st = self.stats;
        self.s.sink.merge(&[
            ("lock_failures", st.lock_failures),
            ("empty_scans", st.empty_scans),
        ]);
        self.s.claims.release(self.me);
    }
}
