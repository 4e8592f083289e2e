//! The parallel Brandes engine: for each source, a level-synchronous BFS that counts shortest
//! paths (forward), then the dependency accumulation level by level from the deepest
//! (backward), on a pool of threads that lives for the whole run.
//!
//! Forward, level d: each vertex v of the level is expanded by whichever thread takes its
//! chunk; for every arc v -> w, the first thread to move `depth[w]` from unvisited to d + 1
//! (compare-and-swap) puts w in its own lane, and every thread that sees `depth[w] == d + 1`
//! adds sigma[v] to sigma[w] (seed 001 Algorithm 1). sigma[v] is final by then: its
//! additions all happened during level d - 1, before the barrier.
//!
//! Backward, level d from the deepest: delta[u] = sum over arcs u -> w with depth[w] = d + 1
//! of sigma[u] / sigma[w] * (1 + delta[w]), pulled by u's own thread (no atomics: delta[w] was
//! final at the previous barrier), then score[u] += delta[u] for u != source.
//!
//! Reset: each thread clears the vertices its own lane discovered, so a source costs what it
//! visits, not O(n).

use super::barrier::{Poisoned, SumBarrier};
use super::lanes::{Lanes, Queues};
use ordo_exec::{pin_current_thread, ExecConfig, ExecError, ThreadStats};
use ordo_graph::Graph;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const UNVISITED: u32 = u32::MAX;

/// Application counters in [`ThreadStats::app`].
pub const FOREIGN_CHUNKS: usize = 0;
pub const EDGES: usize = 1;
pub const LEVELS: usize = 2;

/// What to do from each source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phases {
    /// Forward and backward: betweenness.
    Brandes,
    /// Forward only, keeping the lanes of the last source (ADL's discovery order).
    ForwardOnly,
}

pub(super) struct EngineConfig {
    pub queues: Queues,
    pub task: usize,
    pub working_set: bool,
    pub phases: Phases,
}

pub(super) struct EngineRun {
    pub scores: Vec<f64>,
    pub time: Duration,
    pub per_thread: Vec<ThreadStats>,
    /// Distinct vertices each thread touched, summed over the sources (with `working_set`).
    pub touched: Vec<u64>,
    /// Vertices reached, summed over the sources.
    pub reached: u64,
    /// With [`Phases::ForwardOnly`]: the last source's vertices by (depth, lane, discovery).
    pub discovery_order: Vec<u32>,
    pub cancelled: bool,
}

/// f64 values in `AtomicU64` bits.
fn load(a: &AtomicU64) -> f64 {
    f64::from_bits(a.load(Relaxed))
}

fn store(a: &AtomicU64, x: f64) {
    a.store(x.to_bits(), Relaxed);
}

fn add(a: &AtomicU64, x: f64) {
    let mut cur = a.load(Relaxed);
    loop {
        let new = (f64::from_bits(cur) + x).to_bits();
        match a.compare_exchange_weak(cur, new, Relaxed, Relaxed) {
            Ok(_) => return,
            Err(seen) => cur = seen,
        }
    }
}

struct Shared<'g> {
    g: &'g Graph,
    depth: Vec<AtomicU32>,
    sigma: Vec<AtomicU64>,
    delta: Vec<AtomicU64>,
    score: Vec<AtomicU64>,
    lanes: Lanes,
    barrier: SumBarrier,
    /// Set by thread 0 before a barrier, read by all after it: everyone stops at the same step.
    stop: AtomicBool,
    cancel: Option<&'g AtomicBool>,
    phases: Phases,
}

/// One thread's view: its id, its step count (for cursor parity) and its counters.
struct Worker<'s, 'g> {
    s: &'s Shared<'g>,
    tid: usize,
    step: usize,
    stats: ThreadStats,
    /// Bitmap of the vertices touched from the current source, and their count.
    marks: Option<Vec<u64>>,
    marked: u64,
    touched: u64,
    reached: u64,
}

impl Worker<'_, '_> {
    fn barrier_sum(&mut self, x: u64) -> Result<u64, Poisoned> {
        let r = self.s.barrier.sum(x);
        self.step += 1;
        self.s.lanes.begin_step(self.tid, self.step);
        r
    }

    fn run(&mut self, sources: &[u32]) -> Result<(), Poisoned> {
        self.s.lanes.begin_step(self.tid, self.step);
        for (i, &src) in sources.iter().enumerate() {
            // Reset step: clear what this lane discovered from the previous source.
            if i > 0 {
                self.reset();
            }
            if self.tid == 0 {
                let cancel = self.s.cancel.is_some_and(|c| c.load(Relaxed));
                self.s.stop.store(cancel, Relaxed);
            }
            self.barrier_sum(0)?;
            if self.s.stop.load(Relaxed) {
                return Ok(());
            }
            let root = (self.tid == 0).then_some(src);
            // SAFETY: between two barriers, no thread reads the lanes in this step.
            unsafe { self.s.lanes.start_source(self.tid, root) };
            if let Some(r) = root {
                self.s.depth[r as usize].store(0, Relaxed);
                store(&self.s.sigma[r as usize], 1.0);
            }
            self.barrier_sum(0)?;
            let levels = self.forward()?;
            self.stats.app[LEVELS] += u64::from(levels);
            if self.s.phases == Phases::Brandes {
                self.backward(src, levels)?;
            }
            // SAFETY: after the last step of this source; only the reset step (next) writes logs.
            self.reached += unsafe { self.s.lanes.log(self.tid).len() } as u64;
            if let Some(m) = self.marks.as_mut() {
                m.iter_mut().for_each(|w| *w = 0);
                self.touched += std::mem::take(&mut self.marked);
            }
        }
        Ok(())
    }

    /// Expands level after level; returns the number of non-empty levels.
    fn forward(&mut self) -> Result<u32, Poisoned> {
        let s = self.s;
        let mut d = 0u32;
        loop {
            // SAFETY: this is the expansion of level d (phase protocol in lanes.rs).
            let (slices, next) =
                unsafe { (s.lanes.frontier(d), s.lanes.next_frontier(self.tid, d)) };
            let mut edges = 0u64;
            let mut expanded = 0u64;
            let mut marks = self.marks.take();
            let mut marked = 0;
            let mut mark = |v: u32| {
                if let Some(m) = marks.as_mut() {
                    let (word, bit) = (v as usize / 64, 1u64 << (v % 64));
                    marked += u64::from(m[word] & bit == 0);
                    m[word] |= bit;
                }
            };
            let taken = s.lanes.drain(self.tid, self.step, &slices, |v| {
                expanded += 1;
                mark(v);
                let sv = load(&s.sigma[v as usize]);
                let nbrs = s.g.neighbors(v);
                edges += nbrs.len() as u64;
                for &w in nbrs {
                    mark(w);
                    let dw = &s.depth[w as usize];
                    let mut seen = dw.load(Relaxed);
                    if seen == UNVISITED {
                        seen = match dw.compare_exchange(UNVISITED, d + 1, Relaxed, Relaxed) {
                            Ok(_) => {
                                next.push(w);
                                d + 1
                            }
                            Err(x) => x,
                        };
                    }
                    if seen == d + 1 {
                        add(&s.sigma[w as usize], sv);
                    }
                }
            });
            self.marks = marks;
            self.marked += marked;
            let found = next.len() as u64;
            self.stats.tasks += expanded;
            self.stats.pushes += found;
            self.stats.pops += taken.chunks;
            self.stats.app[FOREIGN_CHUNKS] += taken.foreign;
            self.stats.app[EDGES] += edges;
            // SAFETY: the owner, after its last use of `next`, before the barrier.
            unsafe { s.lanes.record_level(self.tid, d) };
            d += 1;
            if self.barrier_sum(found)? == 0 {
                return Ok(d);
            }
        }
    }

    /// Accumulates dependencies from level `levels - 2` down to 0 (the deepest level's are 0).
    fn backward(&mut self, src: u32, levels: u32) -> Result<(), Poisoned> {
        let s = self.s;
        for d in (0..levels.saturating_sub(1)).rev() {
            // SAFETY: the backward phase; no thread writes the logs.
            let slices = unsafe { s.lanes.level(d) };
            let mut marks = self.marks.take();
            let mut marked = 0;
            let taken = s.lanes.drain(self.tid, self.step, &slices, |u| {
                let su = load(&s.sigma[u as usize]);
                let mut acc = 0.0;
                for &w in s.g.neighbors(u) {
                    if s.depth[w as usize].load(Relaxed) == d + 1 {
                        let w = w as usize;
                        acc += su / load(&s.sigma[w]) * (1.0 + load(&s.delta[w]));
                    }
                }
                if let Some(m) = marks.as_mut() {
                    let (word, bit) = (u as usize / 64, 1u64 << (u % 64));
                    marked += u64::from(m[word] & bit == 0);
                    m[word] |= bit;
                }
                store(&s.delta[u as usize], acc);
                if u != src {
                    let sc = &s.score[u as usize];
                    store(sc, load(sc) + acc);
                }
            });
            self.marks = marks;
            self.marked += marked;
            self.stats.pops += taken.chunks;
            self.stats.app[FOREIGN_CHUNKS] += taken.foreign;
            self.barrier_sum(0)?;
        }
        Ok(())
    }

    fn reset(&mut self) {
        // SAFETY: the owner, in the reset step (after the last source's final barrier).
        for &v in unsafe { self.s.lanes.log(self.tid) } {
            let v = v as usize;
            self.s.depth[v].store(UNVISITED, Relaxed);
            store(&self.s.sigma[v], 0.0);
            store(&self.s.delta[v], 0.0);
        }
    }
}

/// Runs `phases` from every source on `cfg.threads` threads.
pub(super) fn run(
    g: &Graph,
    sources: &[u32],
    ec: &EngineConfig,
    cfg: &ExecConfig,
) -> Result<EngineRun, ExecError> {
    let n = g.num_nodes();
    let threads = cfg.threads.max(1);
    let shared = Shared {
        g,
        depth: (0..n).map(|_| AtomicU32::new(UNVISITED)).collect(),
        sigma: (0..n).map(|_| AtomicU64::new(0)).collect(),
        delta: (0..n).map(|_| AtomicU64::new(0)).collect(),
        score: (0..n).map(|_| AtomicU64::new(0)).collect(),
        lanes: Lanes::new(threads, ec.queues, ec.task),
        barrier: SumBarrier::new(threads),
        stop: AtomicBool::new(false),
        cancel: cfg.cancel.as_deref(),
        phases: ec.phases,
    };
    let pin = cfg.pin && threads <= cfg.topology.num_cpus();
    let failure: Mutex<Option<(usize, String)>> = Mutex::new(None);
    let start = Instant::now();
    let results: Vec<(ThreadStats, u64, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|tid| {
                let (shared, failure) = (&shared, &failure);
                let cpu = cfg.topology.cpu_of(tid).os_id;
                scope.spawn(move || {
                    if let (true, Some(cpu)) = (pin, cpu) {
                        pin_current_thread(cpu);
                    }
                    let mut w = Worker {
                        s: shared,
                        tid,
                        step: 0,
                        stats: ThreadStats::default(),
                        marks: ec.working_set.then(|| vec![0u64; n.div_ceil(64)]),
                        marked: 0,
                        touched: 0,
                        reached: 0,
                    };
                    match catch_unwind(AssertUnwindSafe(|| w.run(sources))) {
                        Ok(_) => {}
                        Err(payload) => {
                            shared.barrier.poison();
                            let message = payload
                                .downcast_ref::<&str>()
                                .map(|s| s.to_string())
                                .or_else(|| payload.downcast_ref::<String>().cloned())
                                .unwrap_or_else(|| "unknown panic".into());
                            let mut f = failure.lock().unwrap_or_else(|e| e.into_inner());
                            f.get_or_insert((tid, message));
                        }
                    }
                    (w.stats, w.touched, w.reached)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let time = start.elapsed();
    if let Some((worker, message)) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(ExecError::OperatorPanicked { worker, message });
    }
    let discovery_order = match ec.phases {
        Phases::ForwardOnly => discovery_order(&shared.lanes),
        Phases::Brandes => Vec::new(),
    };
    Ok(EngineRun {
        scores: shared.score.iter().map(load).collect(),
        time,
        per_thread: results.iter().map(|r| r.0).collect(),
        touched: results.iter().map(|r| r.1).collect(),
        reached: results.iter().map(|r| r.2).sum(),
        discovery_order,
        cancelled: shared.stop.load(Relaxed),
    })
}

/// The last source's vertices sorted by (depth, discovering thread, time discovered).
fn discovery_order(lanes: &Lanes) -> Vec<u32> {
    let mut order = Vec::new();
    for d in 0.. {
        // SAFETY: the threads have joined.
        let level = unsafe { lanes.level(d) };
        if level.iter().all(|s| s.is_empty()) {
            break;
        }
        for s in level {
            order.extend_from_slice(s);
        }
    }
    order
}
