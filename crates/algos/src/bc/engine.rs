//! The parallel Brandes engine: for each source, a level-synchronous BFS that counts shortest
//! paths (forward), then the dependency accumulation level by level from the deepest
//! (backward), on a pool of threads that lives for the whole run.
//!
//! Forward, level d: each vertex v of the level is expanded by whichever thread takes its
//! chunk; for every arc v -> w, the first thread to move `depth[w]` from unvisited to d + 1
//! (compare-and-swap) puts w in its own lane, and every thread that sees `depth[w] == d + 1`
//! adds sigma[v] to sigma[w] (Algorithm 1 of the NUMA-aware BC paper, Frasca et al., SC'12).
//! sigma[v] is final by then: its additions all happened during level d - 1, before the
//! barrier.
//!
//! The forward phase marks each arc it adds along ([`Successors`]).
//!
//! Backward, level d from the deepest: delta[u] = sum over the marked arcs u -> w (those with
//! depth[w] = d + 1) of sigma[u] / sigma[w] * (1 + delta[w]), pulled by u's own thread (no
//! atomics: delta[w] was final at the previous barrier), then score[u] += delta[u] for
//! u != source.
//!
//! One thread runs [`lone`](super::lone) instead, unless it measures working sets. A lone
//! worker of this engine (one thread, measuring) takes no compare-and-swap or atomic add:
//! plain loads and stores do, as nothing else writes. Neither does thread 0 while it runs
//! ahead: levels below a chunk per thread are its alone, the others waiting in one barrier
//! (lanes.rs, Run-ahead; `Worker::run_ahead`, `Worker::backward`).
//!
//! **Dense levels** ([`Direction::Optimizing`](super::Direction), the default). Pushing level
//! d scans every arc of its vertices; where those are most of the graph's arcs, most of them
//! lead to vertices already reached. When the frontier's arcs outnumber those of the
//! vertices not reached yet (plus a quarter of n, for the scan below), level d + 1 is found
//! by pulling instead, as GBBS's edgeMap does: threads take chunks of the node range, and
//! each vertex w not reached yet sums `sigma[u]` over its in-neighbours u at depth d (all of
//! them: no early exit, unlike BFS's bottom-up step) and, if it has any, takes depth d + 1
//! and goes into the scanning thread's lane, so the levels after it and the reset stay
//! lane-based. No read-modify-writes: w is written by one thread only. The scan also checks
//! level d's counts for overflow, as expanding them would. A uniform random graph of 2^20
//! nodes (degree 32) has levels of 1, 64, 2063, 63804, 842471 and 140173 vertices from a
//! source: pushing level 4 scans 27M arcs, pulling level 5 about 4.5M. Pulled arcs set no
//! successor bits (the arc u -> w lives in u's list, which the pull does not walk), so the
//! backward phase gives level d its dependencies the other way: each w of level d + 1
//! adds `(1 + delta[w]) / sigma[w]` to `delta[u]` of its in-neighbours u at depth d (an f64
//! add by compare-and-swap between threads), and after a barrier each u multiplies its sum
//! by `sigma[u]` (`push_dependencies`). That reads level d + 1's in-arcs (4.5M above) where
//! pulling through successor bits would walk level d's lists (27M). Which levels pulled is
//! recorded per source (`Worker::pulled`, alike on every thread). The in-edges are the
//! graph's own arcs when it is symmetric, else its transpose if it has one; without either
//! every level pushes, as it does while measuring working sets (Frasca et al.'s figures
//! count what pushing touches) and with [`Direction::Push`](super::Direction).
//!
//! Reset: each thread clears the vertices its own lane discovered, and the successor bits of
//! their arcs, so a source costs what it visits, not O(n).
//!
//! Orderings: every per-vertex access is Relaxed. Within a step, the only concurrent writes are
//! read-modify-writes (the depth CAS, the sigma adds), which act on the latest value whatever
//! the ordering, and plain stores to vertices the storing thread alone owns in that step
//! (delta and score of the vertex it accumulates). Every value read in a later step was
//! written before a barrier, whose Release/Acquire edges make it visible.

use super::lanes::{Lanes, Queues};
use super::scaled_counts::{needs_scaled_counts, SCALED_BYTES_PER_NODE};
use super::scaled_team;
use super::state::{add, claim, load, pulls, store, EngineRun, UNVISITED};
use super::state::{EDGES, FOREIGN_CHUNKS, LEVELS, PULLED_LEVELS};
use super::successors::Successors;
use crate::in_edges::InEdges;
use ordo_exec::barrier::{Poisoned, SumBarrier};
use ordo_exec::malloc::prefaulted;
use ordo_exec::{ExecConfig, ExecError, ThreadStats};
use ordo_graph::Graph;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};

/// Nodes per chunk of a pulling level's scan.
const PULL_CHUNK: usize = 1024;

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
    /// Pull every level whose in-edges are at hand ([`super::BcConfig::pull_every_level`]).
    pub pull_every_level: bool,
}

struct Shared<'g> {
    g: &'g Graph,
    depth: Vec<AtomicU32>,
    sigma: Vec<AtomicU64>,
    delta: Vec<AtomicU64>,
    score: Vec<AtomicU64>,
    successors: Successors,
    /// The graph's in-edges when dense levels may pull over them (module docs, Dense levels);
    /// `None`: every level pushes (Frasca et al.'s method).
    incoming: Option<InEdges<'g>>,
    /// Whether a thread each may redo sources with scaled counts on arrays of its own
    /// ([`SCALED_BYTES_PER_NODE`] a node each): where those and the engine's own arrays
    /// together take no more than the graph's arrays, so that the run holds at most twice
    /// the graph; else (and where there are fewer such sources than threads) the team redoes
    /// them one at a time on the engine's arrays (scaled_team.rs). The per-thread way grows
    /// with the threads (a 1000 x 1000 grid: 140 MiB peak at 2 threads, about 410 at 16).
    scaled_per_thread_fits: bool,
    /// What thread 0's run-ahead found, for the others to read after the barrier that ends it:
    /// the arcs of the last level it found and of every level it found (their vertices'
    /// out-degrees).
    ahead_arcs: [AtomicU64; 2],
    /// One thread: no read-modify-writes.
    alone: bool,
    threads: usize,
    lanes: Lanes,
    barrier: SumBarrier,
    /// Set by thread 0 before a barrier, read by all after it: everyone stops at the same step.
    stop: AtomicBool,
    cancel: Option<&'g AtomicBool>,
    phases: Phases,
    /// [`EngineConfig::pull_every_level`].
    pull_every_level: bool,
}

/// The distinct vertices one thread touches from the current source (Frasca et al.'s working
/// set): a bitmap over the nodes, empty (and every mark a no-op) when not measuring.
struct Marks {
    bits: Vec<u64>,
    count: u64,
}

impl Marks {
    fn new(n: usize, measure: bool) -> Self {
        Marks {
            bits: if measure {
                vec![0; n.div_ceil(64)]
            } else {
                Vec::new()
            },
            count: 0,
        }
    }

    /// Whether marks count (else every mark is a no-op).
    fn measuring(&self) -> bool {
        !self.bits.is_empty()
    }

    #[inline]
    fn mark(&mut self, v: u32) {
        if let Some(word) = self.bits.get_mut(v as usize / 64) {
            let bit = 1u64 << (v % 64);
            self.count += u64::from(*word & bit == 0);
            *word |= bit;
        }
    }

    /// The count for the source just finished, clearing the bitmap for the next.
    fn end_source(&mut self) -> u64 {
        self.bits.fill(0);
        std::mem::take(&mut self.count)
    }
}

/// `values[v]` without a bounds check, for the per-arc loops.
///
/// # Safety
/// `v < values.len()`: every array indexed so has one entry per node (the offsets one more),
/// and `v` is a node (a frontier vertex or a target of the graph, whose constructors check
/// targets against n), or for the offsets a node plus one.
#[inline(always)]
unsafe fn at<T>(values: &[T], v: u32) -> &T {
    debug_assert!((v as usize) < values.len());
    // SAFETY: the caller's promise.
    unsafe { values.get_unchecked(v as usize) }
}

/// One thread's view: its id, its step count (for cursor parity) and its counters.
struct Worker<'s, 'g> {
    s: &'s Shared<'g>,
    tid: usize,
    step: usize,
    stats: ThreadStats,
    marks: Marks,
    /// Working-set sizes summed over the sources.
    touched: u64,
    reached: u64,
    /// Whether a path count this thread expanded from the current source overflowed, so that
    /// the source is redone with scaled counts ([`needs_scaled_counts`]).
    huge: bool,
    /// `pulled[d]`: level d of the current source was found by pulling (alike on every
    /// thread).
    pulled: Vec<bool>,
}

impl Worker<'_, '_> {
    fn barrier_sum(&mut self, x: u64) -> Result<u64, Poisoned> {
        self.barrier_sum_flagged(x, false).map(|(sum, _)| sum)
    }

    /// A barrier that returns whether any thread passed `flag`.
    fn barrier_any(&mut self, flag: bool) -> Result<bool, Poisoned> {
        self.barrier_sum_flagged(0, flag).map(|(_, any)| any)
    }

    /// [`barrier_sum`](Self::barrier_sum) that also returns whether any thread passed `flag`.
    fn barrier_sum_flagged(&mut self, x: u64, flag: bool) -> Result<(u64, bool), Poisoned> {
        self.barrier_sums_flagged([x, 0], flag)
            .map(|([sum, _], any)| (sum, any))
    }

    /// [`barrier_sum_flagged`](Self::barrier_sum_flagged) over two numbers.
    fn barrier_sums_flagged(
        &mut self,
        x: [u64; 2],
        flag: bool,
    ) -> Result<([u64; 2], bool), Poisoned> {
        let r = self.s.barrier.sums_flagged(x, flag);
        self.step += 1;
        self.s.lanes.begin_step(self.tid, self.step);
        r
    }

    /// Runs the sources; returns those left for the team's scaled counts (alike on every
    /// thread; none where this thread redid its share of them itself: no in-edges, or
    /// `scaled_per_thread_fits` and a source for every thread).
    fn run(&mut self, sources: &[u32]) -> Result<Vec<u32>, Poisoned> {
        self.s.lanes.begin_step(self.tid, self.step);
        // The sources whose path counts overflowed (alike on every thread).
        let mut deferred = Vec::new();
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
                return Ok(Vec::new());
            }
            let root = (self.tid == 0).then_some(src);
            // SAFETY: between two barriers, no thread reads the lanes in this step.
            unsafe { self.s.lanes.start_source(self.tid, root) };
            if let Some(r) = root {
                self.s.depth[r as usize].store(0, Relaxed);
                store(&self.s.sigma[r as usize], 1.0);
            }
            self.barrier_sum(0)?;
            self.huge = false;
            let levels = self.forward(src)?;
            if self.tid == 0 {
                // Every thread walks the same levels; one counts them.
                self.stats.app[LEVELS] += u64::from(levels);
            }
            if self.s.phases == Phases::Brandes {
                // Path counts past `f64`'s range: the source is redone with scaled counts
                // after the others (scaled_counts.rs); every thread learns it at this barrier.
                if self.barrier_any(self.huge)? {
                    deferred.push(src);
                } else {
                    self.backward(src, levels)?;
                }
            }
            // SAFETY: after the last step of this source; only the reset step (next) writes logs.
            self.reached += unsafe { self.s.lanes.log(self.tid).len() } as u64;
            self.touched += self.marks.end_source();
        }
        let threads = self.s.threads;
        let per_thread = self.s.scaled_per_thread_fits && deferred.len() >= threads;
        if self.s.incoming.is_some() && !per_thread {
            // The team runs them once the threads have joined (scaled_team.rs), on these
            // arrays: clear what this lane's last source left in them.
            if !deferred.is_empty() {
                self.reset();
            }
            return Ok(deferred);
        }
        // One deferred source per thread at a time, each on arrays of its own, its
        // dependencies added with compare-and-swap (another thread may add to the same node):
        // without in-edges, or where every thread has a source and their arrays fit
        // (`scaled_per_thread_fits`).
        for &src in deferred.iter().skip(self.tid).step_by(threads) {
            if self.s.cancel.is_some_and(|c| c.load(Relaxed)) {
                // Read after the threads join: the run reports its cancellation.
                self.s.stop.store(true, Relaxed);
                break;
            }
            super::scaled_counts::dependencies_with_scaled_counts(self.s.g, src, |u, x| {
                add(&self.s.score[u as usize], x, self.s.alone)
            });
        }
        Ok(Vec::new())
    }

    /// Expands level after level from `src`; returns the number of non-empty levels.
    fn forward(&mut self, src: u32) -> Result<u32, Poisoned> {
        let s = self.s;
        let limit = s.lanes.ahead_limit() as u64;
        // Locals, so the arc loop keeps them in registers instead of reloading them through
        // `s` after every store.
        let (depth, sigma, offsets, targets) =
            (&s.depth[..], &s.sigma[..], s.g.offsets(), s.g.targets());
        let successors = &s.successors;
        // Only a run that may pull needs the frontier's arcs (Dense levels).
        let count_arcs = s.incoming.is_some();
        // SAFETY: v is a node (the CSR invariants give n + 1 offsets).
        let degree = |v: u32| unsafe { *at(offsets, v + 1) - *at(offsets, v) };
        // Expands v at level d into `next`; returns its arc count, the arcs of the vertices it
        // discovered (when counted) and whether its path count overflowed
        // ([`needs_scaled_counts`]). `alone`: no other thread writes depths, path counts or
        // successor bits meanwhile.
        let visit = |v: u32, d: u32, next: &mut Vec<u32>, marks: &mut Marks, alone: bool| {
            // SAFETY (every `at` and successor bit here): v and its targets are nodes, and
            // `first..end` is v's arcs (the CSR invariants, as `Graph::neighbors` relies on).
            let (first, end) = unsafe { (*at(offsets, v), *at(offsets, v + 1)) };
            let (first, end) = (first as usize, end as usize);
            let nbrs = unsafe { targets.get_unchecked(first..end) };
            // A pass of its own, so that a run that does not measure pays nothing.
            if marks.measuring() {
                marks.mark(v);
                nbrs.iter().for_each(|&w| marks.mark(w));
            }
            let sv = load(unsafe { at(sigma, v) });
            let mut discovered = 0;
            for (i, &w) in nbrs.iter().enumerate() {
                let dw = unsafe { at(depth, w) };
                let mut seen = dw.load(Relaxed);
                if seen == UNVISITED {
                    seen = match claim(dw, d + 1, alone) {
                        Ok(()) => {
                            next.push(w);
                            if count_arcs {
                                discovered += degree(w);
                            }
                            d + 1
                        }
                        Err(x) => x,
                    };
                }
                if seen == d + 1 {
                    add(unsafe { at(sigma, w) }, sv, alone);
                    unsafe { successors.set(first + i, alone) };
                }
            }
            (nbrs.len() as u64, discovered, needs_scaled_counts(sv))
        };
        // A source whose counts overflowed is redone with scaled counts after the others, so
        // its search stops at the first level barrier after the overflow (every thread learns
        // it there; what was reached so far is in the lanes' logs, which the reset step
        // clears). Not while measuring working sets, which count the whole search. On grids
        // counts overflow late (grid1m: after 93% of the arcs), so it saves most where they
        // overflow early.
        let stop_on_overflow = s.phases == Phases::Brandes && !self.marks.measuring();
        // The current frontier's arcs and those of the vertices not reached yet (alike on
        // every thread): what pushing and pulling the next level would scan.
        let mut frontier_arcs = degree(src);
        let mut unexplored = s.g.num_edges() as u64 - frontier_arcs;
        self.pulled.clear();
        self.pulled.push(false);
        let mut d = 0u32;
        loop {
            let pull = s.incoming.filter(|_| {
                pulls(
                    frontier_arcs,
                    unexplored,
                    s.g.num_nodes(),
                    s.pull_every_level,
                ) && !self.marks.measuring()
            });
            self.pulled.push(pull.is_some());
            if self.tid == 0 {
                self.stats.app[PULLED_LEVELS] += u64::from(pull.is_some());
            }
            // SAFETY: this is the expansion of level d (phase protocol in lanes.rs).
            let next = unsafe { s.lanes.next_frontier(self.tid, d) };
            let (mut edges, mut expanded, mut found_arcs) = (0u64, 0u64, 0u64);
            let mut huge = false;
            if let Some(incoming) = pull {
                (expanded, edges, found_arcs, huge) = self.pull_level(incoming, d, next);
            } else {
                // SAFETY: as above.
                let slices = unsafe { s.lanes.frontier(d) };
                let marks = &mut self.marks;
                let alone = s.alone;
                let taken = s.lanes.drain(self.tid, self.step, &slices, |chunk| {
                    expanded += chunk.len() as u64;
                    for &v in chunk {
                        let (arcs, discovered, overflowed) = visit(v, d, next, marks, alone);
                        edges += arcs;
                        found_arcs += discovered;
                        huge |= overflowed;
                    }
                });
                self.stats.pops += taken.chunks;
                self.stats.app[FOREIGN_CHUNKS] += taken.foreign;
            }
            self.huge |= huge;
            let found = next.len() as u64;
            self.stats.tasks += expanded;
            self.stats.pushes += found;
            self.stats.app[EDGES] += edges;
            // SAFETY: the owner, after its last use of `next`, before the barrier.
            unsafe { s.lanes.record_level(self.tid, d) };
            d += 1;
            let ([total, arcs], overflowed) =
                self.barrier_sums_flagged([found, found_arcs], stop_on_overflow && self.huge)?;
            (frontier_arcs, unexplored) = (arcs, unexplored.saturating_sub(arcs));
            if total == 0 || overflowed {
                return Ok(d);
            }
            if total < limit {
                // Thread 0 expands the small levels alone (lanes.rs, Run-ahead); the barrier
                // hands every thread where it stopped: the next level in the high half, its
                // size in the low (both below 2^32: levels and sizes are at most n).
                let mut packed = 0;
                if self.tid == 0 {
                    let (stop, size) = self.run_ahead(d, limit, &visit);
                    packed = (u64::from(stop) << 32) | size;
                }
                let (packed, overflowed) =
                    self.barrier_sum_flagged(packed, stop_on_overflow && self.huge)?;
                d = (packed >> 32) as u32;
                // The levels thread 0 found pushed; their arcs it left in `ahead_arcs`.
                self.pulled.resize(d as usize + 1, false);
                let [last, all] = s.ahead_arcs.each_ref().map(|a| a.load(Relaxed));
                (frontier_arcs, unexplored) = (last, unexplored.saturating_sub(all));
                if packed & u64::from(u32::MAX) == 0 || overflowed {
                    return Ok(d);
                }
            }
        }
    }

    /// Finds level d + 1 by pulling (module docs, Dense levels) into `next`: each vertex not
    /// reached yet sums the path counts of its in-neighbours at depth d, and joins level d + 1
    /// if it has any. Returns the vertices whose in-lists it scanned and their in-arcs, the
    /// out-arcs of those it found and whether a count at level d or d + 1 overflowed.
    ///
    /// No read-modify-writes: a vertex's depth and count are written by the thread whose
    /// chunk holds it, and only from unreached to d + 1, which no scan of this level reads
    /// as d.
    fn pull_level(
        &mut self,
        incoming: InEdges,
        d: u32,
        next: &mut Vec<u32>,
    ) -> (u64, u64, u64, bool) {
        let s = self.s;
        let (depth, sigma) = (&s.depth[..], &s.sigma[..]);
        let (mut scanned, mut arcs, mut found_arcs, mut huge) = (0, 0, 0, false);
        let n = s.g.num_nodes();
        let chunks = s.lanes.drain_nodes(self.step, n, PULL_CHUNK, |r| {
            for (v, ins) in r.clone().zip(incoming.lists(r)) {
                let dv = &depth[v];
                let seen = dv.load(Relaxed);
                if seen == d {
                    // Level d's counts are checked here, as a push would check them when
                    // it expands them.
                    huge |= needs_scaled_counts(load(&sigma[v]));
                }
                if seen != UNVISITED {
                    continue;
                }
                scanned += 1;
                arcs += ins.len() as u64;
                let mut paths = 0.0;
                for &u in ins {
                    // SAFETY: in-neighbours are nodes (InEdges' invariant).
                    if unsafe { at(depth, u) }.load(Relaxed) == d {
                        paths += load(unsafe { at(sigma, u) });
                    }
                }
                if paths > 0.0 {
                    dv.store(d + 1, Relaxed);
                    store(&sigma[v], paths);
                    next.push(v as u32);
                    found_arcs += s.g.out_degree(v as u32) as u64;
                }
            }
        });
        self.stats.pops += chunks;
        (scanned, arcs, found_arcs, huge)
    }

    /// Thread 0's run-ahead from level `start` (spread over every lane; the levels after it go to
    /// lane 0 alone) while it stays below `limit` vertices, the others waiting in the next
    /// barrier: a path or a road graph's thin stretches take no barrier per level (a 10^7-node
    /// path at 2 threads: 5.2 s against Brandes's 0.15 s). Returns the next level to expand
    /// and its size (0: the search is over), and leaves that level's arcs and those of every
    /// level it found in `ahead_arcs`. Depths and path counts are written without
    /// read-modify-writes: no one else touches them until that barrier. (A Ctrl-C is seen as
    /// the next source starts, as without run-ahead.)
    fn run_ahead(
        &mut self,
        start: u32,
        limit: u64,
        visit: &impl Fn(u32, u32, &mut Vec<u32>, &mut Marks, bool) -> (u64, u64, bool),
    ) -> (u32, u64) {
        let s = self.s;
        let mut d = start;
        let mut all_arcs = 0;
        loop {
            // SAFETY: thread 0 owns every lane during a run-ahead (lanes.rs); level `start`
            // is in every lane's buffer, the later ones only in lane 0's (the others' hold
            // older levels, skipped below).
            let (all, own);
            let slices = if d == start {
                all = unsafe { s.lanes.frontier(d) };
                &all[..]
            } else {
                own = unsafe { s.lanes.lane_frontier(0, d) };
                std::slice::from_ref(&own)
            };
            let next = unsafe { s.lanes.next_frontier(0, d) };
            let (mut edges, mut arcs) = (0, 0);
            for slice in slices {
                self.stats.tasks += slice.len() as u64;
                for &v in *slice {
                    let (scanned, discovered, overflowed) =
                        visit(v, d, next, &mut self.marks, true);
                    edges += scanned;
                    arcs += discovered;
                    self.huge |= overflowed;
                }
            }
            all_arcs += arcs;
            let found = next.len() as u64;
            self.stats.pushes += found;
            self.stats.app[EDGES] += edges;
            // SAFETY: as above.
            unsafe { s.lanes.record_level(0, d) };
            d += 1;
            if found == 0 || found >= limit {
                // SAFETY: as above.
                unsafe { s.lanes.skip_levels(d - start) };
                s.ahead_arcs[0].store(arcs, Relaxed);
                s.ahead_arcs[1].store(all_arcs, Relaxed);
                return (d, found);
            }
        }
    }

    /// Accumulates dependencies from level `levels - 2` down to 0 (the deepest level's are 0).
    /// Runs of levels below the lanes' `ahead_limit` are thread 0's alone, with one barrier
    /// after each run (every thread sees the same level sizes in the logs). A level whose
    /// successors were found by pulling gets its dependencies pushed to it instead (module
    /// docs, Dense levels).
    fn backward(&mut self, src: u32, levels: u32) -> Result<(), Poisoned> {
        let s = self.s;
        let limit = s.lanes.ahead_limit();
        let (sigma, delta, score) = (&s.sigma[..], &s.delta[..], &s.score[..]);
        let (offsets, targets) = (s.g.offsets(), s.g.targets());
        let successors = &s.successors;
        let accumulate = |u: u32, marks: &mut Marks| {
            // SAFETY (every `at`, successor bit and target here): u and its targets are
            // nodes, `first..end` is u's arcs (as in `forward`), and `for_each_marked` passes
            // offsets into them.
            let (first, end) = unsafe { (*at(offsets, u), *at(offsets, u + 1)) };
            let (first, end) = (first as usize, end as usize);
            let su = load(unsafe { at(sigma, u) });
            let mut acc = 0.0;
            unsafe {
                successors.for_each_marked(first..end, |i| {
                    let w = *targets.get_unchecked(first + i);
                    acc += su / load(at(sigma, w)) * (1.0 + load(at(delta, w)));
                })
            };
            marks.mark(u);
            store(unsafe { at(delta, u) }, acc);
            if u != src {
                let sc = unsafe { at(score, u) };
                store(sc, load(sc) + acc);
            }
        };
        // SAFETY (the `level` calls): the backward phase; no thread writes the logs.
        let level = |d: u32| {
            let slices = unsafe { s.lanes.level(d) };
            let size = slices.iter().map(|l| l.len()).sum::<usize>();
            (slices, size)
        };
        let top = levels.saturating_sub(1);
        let mut below = (top > 0).then(|| level(top - 1));
        for d in (0..top).rev() {
            let (slices, size) = below.take().expect("level d, taken one step before");
            below = (d > 0).then(|| level(d - 1));
            if self.pulled[d as usize + 1] {
                let incoming = s.incoming.expect("a level was pulled over the in-edges");
                self.push_dependencies(incoming, src, d, &slices)?;
                continue;
            }
            let marks = &mut self.marks;
            if size < limit {
                if self.tid == 0 {
                    slices
                        .iter()
                        .flat_map(|l| l.iter())
                        .for_each(|&u| accumulate(u, marks));
                }
                // The next level is thread 0's too: no barrier between them.
                let alone_next = |(_, next): &(_, usize)| *next < limit && !self.pulled[d as usize];
                if below.as_ref().is_some_and(alone_next) {
                    continue;
                }
            } else {
                let taken = s.lanes.drain(self.tid, self.step, &slices, |chunk| {
                    chunk.iter().for_each(|&u| accumulate(u, marks));
                });
                self.stats.pops += taken.chunks;
                self.stats.app[FOREIGN_CHUNKS] += taken.foreign;
            }
            self.barrier_sum(0)?;
        }
        Ok(())
    }

    /// The dependencies of level d (`level`), whose successors (level d + 1) were found by
    /// pulling and so have no successor bits: each vertex w of level d + 1 adds
    /// `(1 + delta[w]) / sigma[w]` to `delta[u]` of each in-neighbour u at depth d (an atomic
    /// add where threads share the level), and after a barrier each u multiplies its sum by
    /// `sigma[u]` and adds it to its score. Two steps, each ended by a barrier.
    fn push_dependencies(
        &mut self,
        incoming: InEdges,
        src: u32,
        d: u32,
        level: &[&[u32]],
    ) -> Result<(), Poisoned> {
        let s = self.s;
        let (depth, sigma, delta, score) = (&s.depth[..], &s.sigma[..], &s.delta[..], &s.score[..]);
        let alone = s.alone;
        // SAFETY: the backward phase; no thread writes the logs.
        let above = unsafe { s.lanes.level(d + 1) };
        let taken = s.lanes.drain(self.tid, self.step, &above, |chunk| {
            for &w in chunk {
                // SAFETY (every `at`): w and its in-neighbours are nodes.
                let share = unsafe { (1.0 + load(at(delta, w))) / load(at(sigma, w)) };
                for &u in incoming.of(w as usize) {
                    if unsafe { at(depth, u) }.load(Relaxed) == d {
                        add(unsafe { at(delta, u) }, share, alone);
                    }
                }
            }
        });
        self.stats.pops += taken.chunks;
        self.stats.app[FOREIGN_CHUNKS] += taken.foreign;
        self.barrier_sum(0)?;
        let taken = s.lanes.drain(self.tid, self.step, level, |chunk| {
            for &u in chunk {
                // SAFETY (every `at`): u is a node.
                let (du, sc) = unsafe { (at(delta, u), at(score, u)) };
                let dependency = load(unsafe { at(sigma, u) }) * load(du);
                store(du, dependency);
                if u != src {
                    store(sc, load(sc) + dependency);
                }
            }
        });
        self.stats.pops += taken.chunks;
        self.stats.app[FOREIGN_CHUNKS] += taken.foreign;
        self.barrier_sum(0)?;
        Ok(())
    }

    fn reset(&mut self) {
        // SAFETY: the owner, in the reset step (after the last source's final barrier).
        for &v in unsafe { self.s.lanes.log(self.tid) } {
            let v = v as usize;
            self.s.depth[v].store(UNVISITED, Relaxed);
            store(&self.s.sigma[v], 0.0);
            store(&self.s.delta[v], 0.0);
            self.s.successors.clear(self.s.g.edge_range(v as u32));
        }
    }
}

/// Runs `phases` from every source on `cfg.threads` threads.
pub(super) fn run<'g>(
    g: &'g Graph,
    incoming: Option<InEdges<'g>>,
    sources: &[u32],
    ec: &EngineConfig,
    cfg: &ExecConfig,
) -> Result<EngineRun, ExecError> {
    let n = g.num_nodes();
    let threads = cfg.threads.max(1);
    // One thread has no lanes to share or levels to wait at (lone.rs); measuring working
    // sets, it keeps the engine, whose marks count what each lane touches.
    if threads == 1 && ec.phases == Phases::Brandes && !ec.working_set {
        return super::lone::run(g, incoming, sources, ec.pull_every_level, cfg);
    }
    let mut shared = Shared {
        g,
        depth: (0..n).map(|_| AtomicU32::new(UNVISITED)).collect(),
        // Written here rather than taken zeroed from the allocator: untouched zero pages
        // would fault inside the traversal instead (2.6x the time on HepPh at 2 threads,
        // where both threads fault at once; `prefaulted`).
        sigma: prefaulted(n, || AtomicU64::new(0)),
        delta: prefaulted(n, || AtomicU64::new(0)),
        score: prefaulted(n, || AtomicU64::new(0)),
        successors: Successors::new(g.num_edges()),
        incoming,
        scaled_per_thread_fits: (ENGINE_BYTES_PER_NODE + threads * SCALED_BYTES_PER_NODE) * n
            <= graph_bytes(g),
        ahead_arcs: [AtomicU64::new(0), AtomicU64::new(0)],
        alone: threads == 1,
        threads,
        lanes: Lanes::new(threads, ec.queues, ec.task),
        barrier: SumBarrier::new(threads),
        stop: AtomicBool::new(false),
        cancel: cfg.cancel.as_deref(),
        phases: ec.phases,
        pull_every_level: ec.pull_every_level,
    };
    // A panicking worker poisons the barrier, so the others stop at their next wait
    // (`Err(Poisoned)`), and the pool reports the panic.
    let (results, time) = ordo_exec::run_workers(
        cfg,
        vec![(); threads],
        |tid, ()| {
            let mut w = Worker {
                s: &shared,
                tid,
                step: 0,
                stats: ThreadStats::default(),
                marks: Marks::new(n, ec.working_set),
                touched: 0,
                reached: 0,
                huge: false,
                pulled: Vec::new(),
            };
            let deferred = w.run(sources).unwrap_or_default();
            (w.stats, w.touched, w.reached, deferred)
        },
        || shared.barrier.poison(),
    )?;
    let mut time = time;
    let mut cancelled = shared.stop.load(Relaxed);
    // Every thread returned the same sources for the team (Worker::run).
    if let (Some(incoming), Some((_, _, _, deferred))) = (shared.incoming, results.first()) {
        if !deferred.is_empty() && !cancelled {
            let arrays = scaled_team::Arrays {
                depth: &shared.depth,
                mantissa: &shared.sigma,
                scale: &shared.delta,
                score: &shared.score,
            };
            match scaled_team::run(g, incoming, deferred, &arrays, cfg) {
                Ok(t) => time += t,
                Err(ExecError::Cancelled(_)) => cancelled = true,
                Err(e) => return Err(e),
            }
        }
    }
    let discovery_order = match ec.phases {
        Phases::ForwardOnly => discovery_order(&shared.lanes),
        Phases::Brandes => Vec::new(),
    };
    // The other arrays go first, and the scores' block becomes the answer's in place (a
    // copy beside them set the peak of a one-source run).
    let score = std::mem::take(&mut shared.score);
    drop(shared);
    Ok(EngineRun {
        scores: score
            .into_iter()
            .map(|s| f64::from_bits(s.into_inner()))
            .collect(),
        time,
        per_thread: results.iter().map(|r| r.0).collect(),
        touched: results.iter().map(|r| r.1).collect(),
        reached: results.iter().map(|r| r.2).sum(),
        discovery_order,
        cancelled,
    })
}

/// The bytes a node of the engine's own arrays take (depth, count, dependency, score).
const ENGINE_BYTES_PER_NODE: usize = 28;

/// The bytes of `g`'s CSR arrays (offsets, targets, weights).
fn graph_bytes(g: &Graph) -> usize {
    let arcs = g.num_edges();
    8 * (g.num_nodes() + 1) + 4 * arcs + g.weights().map_or(0, |_| 4 * arcs)
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
