//! One locked heap per worker: the scheduler behind `reld`, `sheap` and `pheap`, which differ
//! only in where a push goes and whether an empty pop steals ([`Rule`]).

use crate::contract::{CounterSink, Counters, Handle, HandleClaims, Scheduler, Task};
use crate::locked_heap::{heaps, LockedHeap, EMPTY_TOP};
use crate::random::Rng;
use crossbeam_utils::CachePadded;

/// Where tasks go and where pops look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// `reld`: push to a uniformly random heap, pop the own heap only.
    RandomEnqueueLocalDequeue,
    /// `sheap`: push to the own heap, steal the top of a random other heap when it is empty.
    LocalWithStealing,
    /// `pheap`: push to the owner's heap (`owner % workers`; the own heap for a task without
    /// one), pop the own heap only.
    OwnerComputes,
}

pub struct PerWorker<T> {
    rule: Rule,
    queues: Box<[CachePadded<LockedHeap<T>>]>,
    claims: HandleClaims,
    sink: CounterSink,
}

impl<T: Task> PerWorker<T> {
    pub fn new(rule: Rule, workers: usize) -> Self {
        PerWorker {
            rule,
            queues: heaps(workers),
            claims: HandleClaims::new(workers),
            sink: CounterSink::default(),
        }
    }

    #[inline]
    fn push(&self, q: usize, task: T, priority: u64) {
        self.queues[q].with(|h| h.push(priority, task));
    }

    /// Pops the top of queue `q` (waiting for its lock); `None` if it looks empty.
    #[inline]
    fn pop(&self, q: usize) -> Option<T> {
        if self.queues[q].top() == EMPTY_TOP {
            return None;
        }
        self.queues[q].with(|h| h.pop()).map(|e| e.1)
    }

    /// A steal: the top of a random other queue, tried once per other worker.
    fn steal(&self, me: usize, rng: &mut Rng) -> Option<T> {
        let n = self.queues.len();
        if n < 2 {
            return None;
        }
        for _ in 0..n {
            let v = (me + 1 + rng.below(n - 1)) % n;
            if self.queues[v].top() == EMPTY_TOP {
                continue;
            }
            if let Some(Some((_, t))) = self.queues[v].try_with(|h| h.pop()) {
                return Some(t);
            }
        }
        None
    }
}

pub struct PerWorkerHandle<'s, T> {
    s: &'s PerWorker<T>,
    me: usize,
    rng: Rng,
    /// `sheap`: successful steals; `pheap`: pushes to another worker's heap.
    moved: u64,
}

impl<T: Task> Scheduler<T> for PerWorker<T> {
    type Handle<'s> = PerWorkerHandle<'s, T>;

    fn handle(&self, worker: usize) -> PerWorkerHandle<'_, T> {
        self.claims.claim(worker);
        PerWorkerHandle {
            s: self,
            me: worker,
            rng: Rng::for_worker(worker),
            moved: 0,
        }
    }

    fn workers(&self) -> usize {
        self.queues.len()
    }

    fn counters(&self) -> Counters {
        self.sink.snapshot()
    }
}

impl<T: Task> Handle<T> for PerWorkerHandle<'_, T> {
    #[inline]
    fn push(&mut self, task: T, priority: u64) {
        let q = match self.s.rule {
            Rule::RandomEnqueueLocalDequeue => self.rng.below(self.s.queues.len()),
            Rule::LocalWithStealing | Rule::OwnerComputes => self.me,
        };
        self.s.push(q, task, priority);
    }

    #[inline]
    fn push_owned(&mut self, task: T, priority: u64, owner: u64) {
        if self.s.rule != Rule::OwnerComputes {
            return self.push(task, priority);
        }
        let q = (owner % self.s.queues.len() as u64) as usize;
        self.moved += (q != self.me) as u64;
        self.s.push(q, task, priority);
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        let t = self.s.pop(self.me);
        if t.is_some() || self.s.rule != Rule::LocalWithStealing {
            return t;
        }
        let t = self.s.steal(self.me, &mut self.rng);
        self.moved += t.is_some() as u64;
        t
    }
}

impl<T> Drop for PerWorkerHandle<'_, T> {
    fn drop(&mut self) {
        match self.s.rule {
            Rule::RandomEnqueueLocalDequeue => {}
            Rule::LocalWithStealing => self.s.sink.merge(&[("steals", self.moved)]),
            Rule::OwnerComputes => self.s.sink.merge(&[("remote_pushes", self.moved)]),
        }
        self.s.claims.release(self.me);
    }
}
