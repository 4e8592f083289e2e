//! Brandes on one thread: the engine's method (forward path counts, successor bits, backward
//! pull) without its lanes. A lone worker needs no levels: the search's queue is the
//! discovery order, which is by depth, and the backward phase walks it in reverse (every
//! successor is finished before its predecessors), as GAPBS's `bc` and the serial oracle do.
//!
//! The engine on one thread copies each level into a log, takes its vertices in chunks
//! through a cursor and builds per-level slice lists: per level, not per arc, so road graphs
//! hardly notice, but a path pays it at every node (a 10^7-node path: 0.55 s there, 0.13 s
//! here, 0.15 s for the serial oracle).
//!
//! Dense levels pull as the engine's do (engine.rs, Dense levels): the queue still holds the
//! vertices by depth, and the level boundaries (`starts`) tell the backward phase where a
//! pulled level's dependencies are pushed instead of pulled through successor bits. Both
//! test an in-neighbour's level in a bitmap of the level ([`LevelBits`]) rather than its
//! depth (the engine, whose threads would have to build the bitmap together, reads depths).
//!
//! The arrays are indexed through raw pointers without bounds checks, as the engine's `at`
//! does (with the checks and an enumerating loop, callgrind counted 6% more instructions a
//! run on the grid).

use super::scaled_counts::needs_scaled_counts;
use super::state::{pulls, EngineRun, EDGES, LEVELS, PULLED_LEVELS, UNVISITED};
use super::successors::Successors;
use crate::in_edges::InEdges;
use ordo_exec::frontier::Bitmap;
use ordo_exec::malloc::prefaulted;
use ordo_exec::{ExecConfig, ExecError, ThreadStats};
use ordo_graph::Graph;
use std::sync::atomic::Ordering::Relaxed;

/// Betweenness from every source, on the pool's one worker (`cfg.threads` is 1).
pub(super) fn run(
    g: &Graph,
    incoming: Option<InEdges>,
    sources: &[u32],
    pull_every_level: bool,
    cfg: &ExecConfig,
) -> Result<EngineRun, ExecError> {
    let n = g.num_nodes();
    // Every array written here, before the timed run: pages the allocator hands out zeroed
    // and untouched would fault inside it instead (the engine's arrays likewise; a plain
    // zero fill may be compiled to such an allocation, hence `prefaulted`).
    let state = State {
        depth: prefaulted(n, || UNVISITED),
        sigma: prefaulted(n, || 0.0),
        delta: prefaulted(n, || 0.0),
        score: prefaulted(n, || 0.0),
        successors: Successors::new(g.num_edges()),
        order: prefaulted(n, || 0),
        starts: Vec::new(),
        pulled: Vec::new(),
        pull_every_level,
    };
    let cancel = cfg.cancel.as_deref();
    // The state is the one worker's input; its scores come back with its counters.
    let (results, time) = ordo_exec::run_workers(
        cfg,
        vec![state],
        |_, mut state| {
            let mut stats = ThreadStats::default();
            let (mut reached, mut cancelled) = (0, false);
            for &src in sources {
                if cancel.is_some_and(|c| c.load(Relaxed)) {
                    cancelled = true;
                    break;
                }
                reached += state.source(g, incoming, src, &mut stats);
            }
            (stats, reached, cancelled, state.score)
        },
        || {},
    )?;
    let (stats, reached, cancelled, scores) = results.into_iter().next().unwrap_or_default();
    Ok(EngineRun {
        scores,
        time,
        per_thread: vec![stats],
        touched: vec![0],
        reached,
        discovery_order: Vec::new(),
        cancelled,
    })
}

/// One level's vertices as a bitmap over the nodes: the pull and the pushed dependencies test
/// each in-neighbour for membership in a level, which a bitmap of n bits answers from the cache
/// where the depth array (32 bits a node) misses (a uniform random graph of 2^20 nodes at 1
/// thread: 0.89-0.92x the time). Where the depths fit in the cache, building the bitmap costs
/// more than it saves (Enron: 1.06x), so only graphs whose depths exceed [`CACHED_DEPTHS`] get
/// one.
struct LevelBits(Bitmap);

/// Depth arrays of more bytes than this get [`LevelBits`]: about a core's L2 cache (1 MiB on
/// the AMD EPYC cores measured).
const CACHED_DEPTHS: usize = 1 << 20;

impl LevelBits {
    /// The bitmap of `level`, nodes below `n`, if the depths of `n` nodes miss the cache.
    fn of(level: &[u32], n: usize) -> Option<LevelBits> {
        // The unit tests' graphs are small: they take the bitmap (the integration tests and
        // the shared graphs, the depths).
        if n * std::mem::size_of::<u32>() <= CACHED_DEPTHS && !cfg!(test) {
            return None;
        }
        let bits = Bitmap::new(n);
        // One thread: no other writer.
        level.iter().for_each(|&u| bits.set_owned(u as usize));
        Some(LevelBits(bits))
    }

    /// Whether `u` is in the level.
    ///
    /// # Safety
    /// `u` is below the `n` the bitmap was made for.
    #[inline(always)]
    unsafe fn has(&self, u: u32) -> bool {
        // SAFETY: the caller's promise: the bitmap has `n` bits.
        unsafe { self.0.get_unchecked(u as usize) }
    }
}

struct State {
    depth: Vec<u32>,
    sigma: Vec<f64>,
    delta: Vec<f64>,
    score: Vec<f64>,
    successors: Successors,
    /// The search's queue (n entries): the vertices reached from the current source, by
    /// depth.
    order: Vec<u32>,
    /// Where each level starts in `order`, and the end of the last.
    starts: Vec<usize>,
    /// `pulled[d]`: level d was found by pulling (the engine's Dense levels).
    pulled: Vec<bool>,
    /// [`super::BcConfig::pull_every_level`].
    pull_every_level: bool,
}

impl State {
    /// Adds the dependencies of `src` to the scores; returns the vertices it reached. Leaves
    /// every array as it found it but the scores.
    fn source(
        &mut self,
        g: &Graph,
        incoming: Option<InEdges>,
        src: u32,
        stats: &mut ThreadStats,
    ) -> u64 {
        let (offsets, targets) = (g.offsets(), g.targets());
        let State {
            depth,
            sigma,
            delta,
            score,
            successors,
            order,
            starts,
            pulled,
            pull_every_level,
        } = self;
        let n = depth.len();
        assert!(sigma.len() == n && delta.len() == n && order.len() == n && offsets.len() == n + 1);
        assert!((src as usize) < n);
        assert!(incoming.is_none_or(|ins| ins.nodes() == n));
        let (depth, sigma, delta) = (depth.as_mut_ptr(), sigma.as_mut_ptr(), delta.as_mut_ptr());
        let order = order.as_mut_ptr();
        // SAFETY (every access through these pointers): the index is a node of `g` (the
        // source, asserted above, or an arc's target or in-neighbour: the graph's
        // constructors check targets against n, as `InEdges` does its sources), and each
        // array has n entries (asserted above); `order` holds each vertex at most once (it
        // enters when its depth is first set), so `tail <= n`. No reference into the arrays
        // lives across the writes.
        let arcs = |v: u32| unsafe {
            let first = *offsets.get_unchecked(v as usize) as usize;
            let end = *offsets.get_unchecked(v as usize + 1) as usize;
            // The CSR invariants: offsets non-decreasing, the last one the arc count.
            (first, targets.get_unchecked(first..end))
        };
        unsafe {
            *order = src;
            *depth.add(src as usize) = 0;
            *sigma.add(src as usize) = 1.0;
        }
        let (mut head, mut tail) = (0, 1);
        let (mut edges, mut huge) = (0, false);
        // As the engine's forward phase: the frontier's arcs and the unreached vertices'.
        let mut frontier_arcs = arcs(src).1.len() as u64;
        let mut unexplored = g.num_edges() as u64 - frontier_arcs;
        starts.clear();
        pulled.clear();
        pulled.push(false);
        let mut d = 0;
        // Level d is `order[head..level_end]`.
        while head < tail && !huge {
            let level_end = tail;
            starts.push(head);
            let mut found_arcs = 0;
            let pull = incoming.filter(|_| pulls(frontier_arcs, unexplored, n, *pull_every_level));
            pulled.push(pull.is_some());
            stats.app[PULLED_LEVELS] += u64::from(pull.is_some());
            if let Some(ins) = pull {
                // SAFETY: `head..level_end` are written entries of `order`.
                let level =
                    unsafe { std::slice::from_raw_parts(order.add(head), level_end - head) };
                let at_d = LevelBits::of(level, n);
                for (v, list) in ins.lists(0..n).enumerate() {
                    let dv = unsafe { *depth.add(v) };
                    if dv == d {
                        // Level d's counts, as a push checks them when it expands them.
                        huge |= needs_scaled_counts(unsafe { *sigma.add(v) });
                        continue;
                    } else if dv != UNVISITED {
                        continue;
                    }
                    edges += list.len() as u64;
                    let mut paths = 0.0;
                    for &u in list {
                        unsafe {
                            let in_d = match &at_d {
                                Some(bits) => bits.has(u),
                                None => *depth.add(u as usize) == d,
                            };
                            if in_d {
                                paths += *sigma.add(u as usize);
                            }
                        }
                    }
                    if paths > 0.0 {
                        unsafe {
                            *depth.add(v) = d + 1;
                            *sigma.add(v) = paths;
                            *order.add(tail) = v as u32;
                        }
                        tail += 1;
                        found_arcs += arcs(v as u32).1.len() as u64;
                    }
                }
                head = level_end;
            }
            while head < level_end {
                let v = unsafe { *order.add(head) };
                head += 1;
                let (first, nbrs) = arcs(v);
                let sv = unsafe { *sigma.add(v as usize) };
                if needs_scaled_counts(sv) {
                    // The source is redone with scaled counts: the rest of this search would
                    // be thrown away (the vertices reached so far are reset below).
                    huge = true;
                    break;
                }
                edges += nbrs.len() as u64;
                for a in first..first + nbrs.len() {
                    unsafe {
                        let w = *targets.get_unchecked(a) as usize;
                        let dw = *depth.add(w);
                        if dw == UNVISITED {
                            *depth.add(w) = d + 1;
                            *order.add(tail) = w as u32;
                            tail += 1;
                            if incoming.is_some() {
                                found_arcs += arcs(w as u32).1.len() as u64;
                            }
                        } else if dw != d + 1 {
                            continue;
                        }
                        *sigma.add(w) += sv;
                        // `a` is an arc of `g`, whose arc count sized the bits.
                        successors.set(a, true);
                    }
                }
            }
            (frontier_arcs, unexplored) = (found_arcs, unexplored.saturating_sub(found_arcs));
            d += 1;
        }
        starts.push(tail);
        // SAFETY: the first `tail` entries were written above.
        let reached = unsafe { std::slice::from_raw_parts(order, tail) };
        if !huge {
            // Level by level from the deepest: every successor of a vertex is done before it.
            for level in (0..starts.len() - 1).rev() {
                let vertices = &reached[starts[level]..starts[level + 1]];
                let Some(ins) = incoming.filter(|_| pulled[level + 1]) else {
                    for &u in vertices {
                        let (first, nbrs) = arcs(u);
                        let su = unsafe { *sigma.add(u as usize) };
                        let mut acc = 0.0;
                        unsafe {
                            // `first + nbrs.len()` is at most the arc count; `i` indexes
                            // `nbrs`.
                            successors.for_each_marked(first..first + nbrs.len(), |i| {
                                let w = *nbrs.get_unchecked(i) as usize;
                                acc += su / *sigma.add(w) * (1.0 + *delta.add(w));
                            });
                            *delta.add(u as usize) = acc;
                        }
                        if u != src {
                            score[u as usize] += acc;
                        }
                    }
                    continue;
                };
                // Level + 1 was pulled, so it has no successor bits: its vertices push
                // `(1 + delta) / sigma` to their in-neighbours one level up, which multiply
                // the sum by their own count (the engine's `push_dependencies`).
                let next = starts
                    .get(level + 2)
                    .map_or(&reached[..0], |&end| &reached[starts[level + 1]..end]);
                let at_level = LevelBits::of(vertices, n);
                for &w in next {
                    let share = unsafe { (1.0 + *delta.add(w as usize)) / *sigma.add(w as usize) };
                    for &u in ins.of(w as usize) {
                        unsafe {
                            let in_level = match &at_level {
                                Some(bits) => bits.has(u),
                                None => *depth.add(u as usize) == level as u32,
                            };
                            if in_level {
                                *delta.add(u as usize) += share;
                            }
                        }
                    }
                }
                for &u in vertices {
                    let dependency = unsafe {
                        let x = *sigma.add(u as usize) * *delta.add(u as usize);
                        *delta.add(u as usize) = x;
                        x
                    };
                    if u != src {
                        score[u as usize] += dependency;
                    }
                }
            }
        }
        let last = unsafe { *depth.add(reached[tail - 1] as usize) };
        for &v in reached {
            let (first, nbrs) = arcs(v);
            unsafe {
                *depth.add(v as usize) = UNVISITED;
                *sigma.add(v as usize) = 0.0;
                *delta.add(v as usize) = 0.0;
            }
            successors.clear(first..first + nbrs.len());
        }
        if huge {
            // Path counts past `f64`'s range (scaled_counts.rs), on these arrays, cleared
            // above of what the `f64` search left: lent to the scaled search (the counts'
            // mantissas in `sigma`, their scales in `delta`'s bytes), then cleared whole, as
            // it reaches the source's whole component. Arrays of its own would take 20 bytes
            // a node beside these (a 1000x1000 grid at 1 thread: 87.5 MiB peak against 68).
            // SAFETY: the pointers are the four arrays' (n entries each, asserted above), no
            // other reference to them lives meanwhile (`reached` is not read past here), and
            // `delta`'s 8n bytes hold n `i32`s at its alignment; every bit pattern is a valid
            // `i32`, and `delta` is written whole below before it is read as `f64` again.
            let scratch = unsafe {
                super::scaled_counts::Scratch {
                    depth: std::slice::from_raw_parts_mut(depth, n),
                    mantissa: std::slice::from_raw_parts_mut(sigma, n),
                    step: std::slice::from_raw_parts_mut(delta.cast::<i32>(), n),
                    order: std::slice::from_raw_parts_mut(order, n),
                }
            };
            super::scaled_counts::scaled_dependencies(g, src, scratch, |u, x| {
                score[u as usize] += x
            });
            // SAFETY: as above; no slice into the arrays lives past the call.
            unsafe {
                std::slice::from_raw_parts_mut(depth, n).fill(UNVISITED);
                std::slice::from_raw_parts_mut(sigma, n).fill(0.0);
                std::slice::from_raw_parts_mut(delta, n).fill(0.0);
            }
        }
        let reached = tail as u64;
        stats.tasks += reached;
        stats.pushes += reached - 1;
        stats.app[EDGES] += edges;
        stats.app[LEVELS] += u64::from(last) + 1;
        reached
    }
}
