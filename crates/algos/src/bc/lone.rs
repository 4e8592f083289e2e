//! Brandes on one thread: the engine's method (forward path counts, successor bits, backward
//! pull) without its lanes. A lone worker needs no levels: the search's queue is the
//! discovery order, which is by depth, and the backward phase walks it in reverse (every
//! successor is finished before its predecessors), as GAPBS's `bc` and the serial oracle do.
//!
//! The engine on one thread copies each level into a log, takes its vertices in chunks
//! through a cursor and builds per-level slice lists: per level, not per arc, so road graphs
//! hardly notice (interleaved, one source, `--repeat 7`: USA-road-d.NY, Rome and the
//! 1000x1000 grid within 0.85-1.08x the engine's time, noise both ways; a process's first run
//! 0.86-0.94x, having fewer growing buffers to fault in), but a path pays it at every node:
//! a 10^7-node path 0.55 s -> 0.13 s (the serial oracle: 0.15 s).
//!
//! The arrays are indexed through raw pointers without bounds checks, as the engine's `at`
//! does (with the checks and an enumerating loop, callgrind counted 6% more instructions a
//! run on the grid).

use super::engine::{EngineRun, EDGES, LEVELS};
use super::scaled_counts::needs_scaled_counts;
use super::successors::Successors;
use ordo_exec::{ExecConfig, ExecError, ThreadStats};
use ordo_graph::Graph;
use std::sync::atomic::Ordering::Relaxed;

const UNVISITED: u32 = u32::MAX;

/// Betweenness from every source, on the pool's one worker (`cfg.threads` is 1).
pub(super) fn run(g: &Graph, sources: &[u32], cfg: &ExecConfig) -> Result<EngineRun, ExecError> {
    let n = g.num_nodes();
    // Every array written here, before the timed run: pages the allocator hands out zeroed
    // and untouched would fault inside it instead (the engine's arrays likewise).
    let state = State {
        depth: written(n, UNVISITED),
        sigma: written(n, 0.0),
        delta: written(n, 0.0),
        score: written(n, 0.0),
        successors: Successors::new(g.num_edges()),
        order: written(n, 0),
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
                reached += state.source(g, src, &mut stats);
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

/// `n` copies of `x`, stored one by one (not a zeroed allocation, whose pages are not yet
/// mapped).
fn written<T: Copy>(n: usize, x: T) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    v.resize(n, x);
    v
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
}

impl State {
    /// Adds the dependencies of `src` to the scores; returns the vertices it reached. Leaves
    /// every array as it found it but the scores.
    fn source(&mut self, g: &Graph, src: u32, stats: &mut ThreadStats) -> u64 {
        let (offsets, targets) = (g.offsets(), g.targets());
        let State {
            depth,
            sigma,
            delta,
            score,
            successors,
            order,
        } = self;
        let n = depth.len();
        assert!(sigma.len() == n && delta.len() == n && order.len() == n && offsets.len() == n + 1);
        assert!((src as usize) < n);
        let (depth, sigma, delta) = (depth.as_mut_ptr(), sigma.as_mut_ptr(), delta.as_mut_ptr());
        let order = order.as_mut_ptr();
        // SAFETY (every access through these pointers): the index is a node of `g` (the
        // source, asserted above, or an arc's target: the graph's constructors check targets
        // against n), and each array has n entries (asserted above); `order` holds each
        // vertex at most once (it enters when its depth is first set), so `tail <= n`. No
        // reference into the arrays lives across the writes.
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
        while head < tail {
            let v = unsafe { *order.add(head) };
            head += 1;
            let (first, nbrs) = arcs(v);
            let (dv, sv) = unsafe { (*depth.add(v as usize), *sigma.add(v as usize)) };
            if needs_scaled_counts(sv) {
                // The source is redone with scaled counts: the rest of this search would be
                // thrown away (the vertices reached so far are reset below).
                huge = true;
                break;
            }
            edges += nbrs.len() as u64;
            for a in first..first + nbrs.len() {
                unsafe {
                    let w = *targets.get_unchecked(a) as usize;
                    let dw = *depth.add(w);
                    if dw == UNVISITED {
                        *depth.add(w) = dv + 1;
                        *order.add(tail) = w as u32;
                        tail += 1;
                    } else if dw != dv + 1 {
                        continue;
                    }
                    *sigma.add(w) += sv;
                    // `a` is an arc of `g`, whose arc count sized the bits.
                    successors.set(a, true);
                }
            }
        }
        // SAFETY: the first `tail` entries were written above.
        let reached = unsafe { std::slice::from_raw_parts(order, tail) };
        if huge {
            // Path counts past `f64`'s range (scaled_counts.rs).
            super::dependencies_with_scaled_counts(g, src, |u, x| score[u as usize] += x);
        } else {
            // Every successor of a vertex comes after it in `order`, so it is done before it.
            for &u in reached.iter().rev() {
                let (first, nbrs) = arcs(u);
                let su = unsafe { *sigma.add(u as usize) };
                let mut acc = 0.0;
                unsafe {
                    // `first + nbrs.len()` is at most the arc count; `i` indexes `nbrs`.
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
        let reached = tail as u64;
        stats.tasks += reached;
        stats.pushes += reached - 1;
        stats.app[EDGES] += edges;
        stats.app[LEVELS] += u64::from(last) + 1;
        reached
    }
}
