//! Minimum spanning forest by filter-Kruskal (Osipov, Sanders, Singler, ALENEX 2009), with the
//! linear passes split between threads.
//!
//! Kruskal sorts every edge, though on most graphs the forest is complete long before the
//! heaviest edges are reached. Filter-Kruskal splits the edges around a sampled pivot, solves
//! the light part first (recursively), then drops every heavy edge whose ends the light forest
//! already joined (one find per end), and only then solves what is left of the heavy part.
//! Edges that can never be in the forest are filtered, not sorted: about O(m + n log n log
//! (m/n)) work for random weights, against Kruskal's O(m log m).
//!
//! Edges are [`Edge`]s ordered by `(weight, a, b)`, the order Kruskal uses, so the forest is
//! the same unique one [`kruskal`](super::kruskal) finds. The graph lists them in `(a, b)`
//! order (sorted adjacency), and splits and filters keep that order within each part, so a
//! part is sorted by a radix sort on the weight alone ([`weight_sort`](super::weight_sort));
//! on a graph whose adjacency is not sorted, by comparisons.
//!
//! **Memory.** The whole edge list is never built when the first split is needed (social and
//! Kronecker graphs): the pivot is sampled from the graph's arcs, only the light edges are
//! listed (one pass over the graph) and solved, and a second pass lists the heavy edges whose
//! ends the light forest has not joined (few: 168K of Kronecker 20's 15.7M edges). Below
//! that, every part has a scratch slice of its length: a split writes the light edges into
//! the scratch and packs the heavy ones at the front of the part, so each side comes out with
//! a free slice of its own length for its own split, in one pass with nothing copied back.
//! On Kronecker 20 (a 260 MB graph) the peak is 419 MB instead of 549, for a second pass over
//! the graph that costs 1.10-1.15x the time. Road graphs, whose edges nearly all join the
//! forest, are sorted whole; from [`BUCKETED_FROM`] edges on (at any size with a team) they
//! are listed straight into buckets of weight ([`weight_buckets`](super::weight_buckets)) and
//! each bucket sorted with a scratch of its own length, and the forest is packed into the
//! list: a 1000x1000 grid (a 39 MB graph) peaks at 72-74 MB instead of 106.
//!
//! **Without branches on the edge.** Whether an edge is light is a coin toss; a split writes
//! every edge to both destinations and moves one cursor on (Kronecker 20's splits: 64 ms,
//! against 230 ms with a branch and a heavy buffer grown by pushes).
//!
//! **Threads.** Two passes are split between the team: listing the edges (count, then write,
//! by ranges of nodes with equal arcs) and filters of at least [`PARALLEL_FROM`] edges (each
//! worker packs its block, then the blocks' survivors are moved together). Finds during a
//! filter only shorten paths and no link happens meanwhile ([`crate::union_find`]); links happen
//! in the Kruskal scans, on the calling thread, between team runs. Splits, sorts and scans
//! stay on one thread: a split streams memory, and shared as a count and a scatter into place
//! it measured 87 ms on Kronecker 20 at 2 threads against 64 ms on one, while a filter, which
//! waits on finds, halves.
//!
//! **Scans.** A Kruskal scan links with Rem's algorithm and splicing ([`Forest::join`]): the
//! two ends' walks go up together and stop where they meet, instead of two finds to the
//! roots. And it prefetches the parent entries of the ends [`PREFETCH_AHEAD`] edges on: in
//! weight order the ends are at random places of the parent array. On road graphs the scan
//! is half the run (the prefetch alone: 0.87-0.95x the time of Rem's scan without it).

use super::weight_buckets::list_bucketed;
use super::weight_sort::sort_by_weight;
use super::{Edge, MstOutput};
use crate::prefetch::prefetch;
use crate::union_find::find;
use ordo_exec::{run_team, ExecConfig, ExecError, RunReport, ThreadStats};
use ordo_graph::Graph;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// Below this many edges a part is sorted and scanned as Kruskal does.
const SORT_BELOW: usize = 1 << 12;
/// A part with at most this many edges per merge still to come is sorted whole too: filtering
/// could drop few of its edges (road networks: most edges are in the forest).
const SORT_PER_MERGE: usize = 2;
/// Arcs whose heavy edges [`list_joining`] gathers before it looks them up.
const HEAVY_RUN: usize = 256;
/// Edges from which one thread lists a list sorted whole into buckets of weight
/// ([`list_bucketed`]) rather than sorting it with a scratch as long as itself. Below, list
/// and scratch are at most 24 MB and the one pass over the graph is no slower (at 2M edges, a
/// 1000x1000 grid, the two are level at 1 thread). A team lists into buckets at any size: a
/// shared listing into one list (a count pass, then a write pass) is no faster than one
/// thread's single pass (2 threads ran 1.3-1.6x slower than one on road graphs), while the
/// team counts and writes the buckets, with no scratch as long as the list. (Unit tests list
/// far smaller graphs into buckets, to run that path.)
const BUCKETED_FROM: usize = if cfg!(test) { 1 << 9 } else { 1 << 20 };
/// Edges ahead of the Kruskal scan whose ends' parent entries are prefetched.
const PREFETCH_AHEAD: usize = 16;
/// Edges sampled for a pivot (odd, so the sample has a median).
const PIVOT_SAMPLE: usize = 31;
/// Filters of at least this many edges are shared by the team: starting a team
/// costs some tens of microseconds, this many edges some hundreds. (Chosen, not tuned.)
/// (Unit tests share far smaller passes, to run the shared code on small graphs.)
pub const PARALLEL_FROM: usize = if cfg!(test) { 1 << 8 } else { 1 << 16 };

/// The forest of the undirected weighted graph `g` (each edge stored in both directions), on
/// `cfg.threads` threads (one: no team is started).
pub fn run(g: &Graph, cfg: &ExecConfig) -> Result<MstOutput, ExecError> {
    let start = Instant::now();
    let team = (cfg.threads > 1).then_some(cfg);
    let mut forest = Forest::new(g, team);
    // Each edge is two arcs of the undirected simple view.
    let edges = g.num_edges() / 2;
    if !forest.sorts_whole(edges) {
        // The first split is made while listing (module docs, Memory): the light edges are
        // listed, solved and dropped; the heavy ones are listed only if they still join two
        // components.
        let pivot = key(&forest.pivot(g.num_edges(), |i| arc_edge(g, i)));
        let light = list_edges(g, cfg, |e| key(e) <= pivot)?;
        // The heavy edges are looked at by the listing's filter.
        forest.filtered += edges.saturating_sub(light.len()) as u64;
        forest.solve_list(light)?;
        let joining = list_joining(g, cfg, pivot, &forest.parent)?;
        forest.solve_list(joining)?;
    } else if edges < BUCKETED_FROM && team.is_none() {
        let edges = super::edges_of(g);
        // One bucket: sorted whole, and the forest packed into the list rather than into an
        // array of its own beside the list and the scratch (USA-road-d.NY: 22.8 MiB peak,
        // against 25.9).
        let len = edges.len();
        forest.solve_bucketed(edges, &[0, len]);
    } else {
        // Nearly every edge joins the forest (road graphs), and the list is large: no split,
        // and no scratch as long as the list (module docs, Memory).
        let workers = team.map_or(1, |cfg| cfg.threads);
        let (edges, starts) = list_bucketed(g, cfg, &node_bounds(g, workers))?;
        forest.solve_bucketed(edges, &starts);
    }
    Ok(forest.finish(start))
}

/// The forest of `g` from its edges in any order (timed from `start`).
#[cfg(test)]
fn forest_of(
    g: &Graph,
    edges: Vec<Edge>,
    team: Option<&ExecConfig>,
    start: Instant,
) -> Result<MstOutput, ExecError> {
    let mut forest = Forest::new(g, team);
    forest.solve_list(edges)?;
    Ok(forest.finish(start))
}

/// The edge of `g`'s arc number `i` (found by a binary search for its tail).
fn arc_edge(g: &Graph, i: usize) -> Edge {
    let offsets = g.offsets();
    let tail = offsets.partition_point(|&o| o as usize <= i) - 1;
    let weight = g.weights().map_or(1, |w| w[i]);
    Edge::new(tail as u32, g.targets()[i], weight)
}

/// `len` edges of weight 0 from node 0 to node 0, from zeroed memory: a large block comes
/// from a fresh mapping, whose pages the kernel clears as they are first written, not before.
fn zeroed_edges(len: usize) -> Vec<Edge> {
    if len == 0 {
        return Vec::new();
    }
    let layout = std::alloc::Layout::array::<Edge>(len).expect("an edge list that fits in memory");
    // SAFETY: the layout's size is not zero; all-zero bytes are a valid `Edge` (three u32s),
    // so the block holds `len` initialized edges, and it was allocated by the global
    // allocator with the layout `Vec<Edge>` uses for capacity `len`.
    unsafe {
        let block = std::alloc::alloc_zeroed(layout).cast::<Edge>();
        if block.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Vec::from_raw_parts(block, len, len)
    }
}

/// The edges of `g` that `keep` accepts, in the order [`edges_of`](super::edges_of) lists
/// them, the nodes split between the team by arcs: each worker counts its nodes' edges, then
/// writes them at their place.
fn list_edges(
    g: &Graph,
    cfg: &ExecConfig,
    keep: impl Fn(&Edge) -> bool + Sync,
) -> Result<Vec<Edge>, ExecError> {
    let (offsets, targets, weights) = (g.offsets(), g.targets(), g.weights());
    let bounds = node_bounds(g, cfg.threads);
    // Node v's first arc and its targets.
    let arcs_of = |v: usize| {
        let first = offsets[v] as usize;
        (first, &targets[first..offsets[v + 1] as usize])
    };
    let weight = |i: usize| weights.map_or(1, |ws| ws[i]);
    if cfg.threads == 1 {
        // One pass, without a branch on the coin toss of `t > v`, into room for every edge.
        return Ok(super::edges_where(g, keep));
    }
    let (counts, _) = run_team(cfg, |team| {
        let w = team.worker();
        Ok((bounds[w]..bounds[w + 1])
            .map(|v| {
                let (first, list) = arcs_of(v);
                let v = v as u32;
                let kept =
                    |(i, &t): (usize, &u32)| t > v && keep(&Edge::new(v, t, weight(first + i)));
                list.iter().enumerate().filter(|&a| kept(a)).count()
            })
            .sum::<usize>())
    })?;
    let mut edges = zeroed_edges(counts.iter().sum());
    let mut rest = edges.as_mut_slice();
    let mut slices = Vec::with_capacity(cfg.threads);
    for &count in &counts {
        let (mine, after) = std::mem::take(&mut rest).split_at_mut(count);
        slices.push(Mutex::new(mine));
        rest = after;
    }
    run_team(cfg, |team| {
        let w = team.worker();
        let mut out = slices[w].lock().unwrap_or_else(PoisonError::into_inner);
        let mut len = 0;
        for v in bounds[w]..bounds[w + 1] {
            let (first, list) = arcs_of(v);
            let v = v as u32;
            for (i, &t) in list.iter().enumerate() {
                let e = Edge::new(v, t, weight(first + i));
                // Every arc is written at the cursor, which moves on only for a kept edge (no
                // branch on `t > v`); the slot check fails only once the slice is full.
                if let Some(slot) = out.get_mut(len) {
                    *slot = e;
                }
                len += ((t > v) & keep(&e)) as usize;
            }
        }
        debug_assert_eq!(len, out.len());
        Ok(())
    })?;
    Ok(edges)
}

/// The edges of `g` heavier than `pivot` whose ends `parent` has in different components, in
/// the order of [`list_edges`]. Each worker collects its nodes' survivors (few: the light
/// forest has joined most ends), then they are moved together. Only finds run meanwhile.
fn list_joining(
    g: &Graph,
    cfg: &ExecConfig,
    pivot: u128,
    parent: &[AtomicU32],
) -> Result<Vec<Edge>, ExecError> {
    let (offsets, targets, weights) = (g.offsets(), g.targets(), g.weights());
    let bounds = node_bounds(g, cfg.threads);
    let (parts, _) = run_team(cfg, |team| {
        let w = team.worker();
        let mut kept = Vec::new();
        // The heavy edges of a run of arcs, gathered without a branch on the coin toss of
        // their weight, then looked up.
        let mut heavy = [Edge::new(0, 0, 0); HEAVY_RUN];
        for v in bounds[w]..bounds[w + 1] {
            let (start, end) = (offsets[v] as usize, offsets[v + 1] as usize);
            let v = v as u32;
            // v's root, found at its first heavy edge: no link happens during the pass.
            let mut root = None;
            for first in (start..end).step_by(HEAVY_RUN) {
                let run = first..end.min(first + HEAVY_RUN);
                let mut len = 0;
                for (i, &t) in run.clone().zip(&targets[run]) {
                    let e = Edge::new(v, t, weights.map_or(1, |ws| ws[i]));
                    heavy[len] = e;
                    len += ((t > v) & (key(&e) > pivot)) as usize;
                }
                if len == 0 {
                    continue;
                }
                let r = *root.get_or_insert_with(|| find(parent, v));
                // `t > v`: the edge's larger end is t.
                kept.extend(heavy[..len].iter().filter(|e| find(parent, e.b) != r));
            }
        }
        Ok(kept)
    })?;
    Ok(parts.concat())
}

/// Node bounds that give each of `workers` workers about as many arcs: worker w lists nodes
/// `bounds[w]..bounds[w + 1]`.
pub(super) fn node_bounds(g: &Graph, workers: usize) -> Vec<usize> {
    let (offsets, n) = (g.offsets(), g.num_nodes());
    let arcs = g.num_edges() as u128;
    (0..=workers)
        .map(|w| {
            offsets[..n].partition_point(|&o| (o as u128) * (workers as u128) < (w as u128) * arcs)
        })
        .map(|v| v.min(n))
        .collect()
}

/// The key the edges are ordered by, as one integer: compared without branches.
#[inline(always)]
fn key(e: &Edge) -> u128 {
    (e.weight as u128) << 64 | (e.a as u128) << 32 | e.b as u128
}

/// A part split around a pivot: each side in its old order, each with a free slice of its
/// length.
struct Split<'a> {
    light: &'a mut [Edge],
    light_scratch: &'a mut [Edge],
    heavy: &'a mut [Edge],
    heavy_scratch: &'a mut [Edge],
}

struct Forest<'c> {
    /// At least the number of forest edges still to be found.
    merges_left: usize,
    /// Union-find parents (path halving; [`crate::union_find`]).
    parent: Vec<AtomicU32>,
    /// The forest so far, in increasing order.
    edges: Vec<Edge>,
    /// Edges looked at by a filter pass or a Kruskal scan.
    filtered: u64,
    rng: u64,
    /// Every part is in `(a, b)` order, so sorting by weight alone (stably) sorts it.
    ab_ordered: bool,
    /// The team that shares the large filters; `None`: one thread.
    team: Option<&'c ExecConfig>,
}

impl<'c> Forest<'c> {
    fn new(g: &Graph, team: Option<&'c ExecConfig>) -> Self {
        let n = g.num_nodes();
        // Nodes with an edge: the forest has fewer edges than that (isolated ids do not count:
        // CA-HepPh's file numbers 89K ids, 12K of them with edges).
        let linked = (0..n as u32).filter(|&v| g.out_degree(v) > 0).count();
        Forest {
            merges_left: linked.saturating_sub(1),
            parent: crate::union_find::singletons(n),
            // Room is made at the first scan: the bucketed path brings its own.
            edges: Vec::new(),
            filtered: 0,
            rng: 0x9E37_79B9_7F4A_7C15,
            ab_ordered: true,
            team,
        }
    }

    /// Whether a part of `len` edges is sorted and scanned whole rather than split.
    fn sorts_whole(&self, len: usize) -> bool {
        len <= SORT_BELOW.max(SORT_PER_MERGE * self.merges_left)
    }

    /// Solves a list of edges lighter than every edge still to come, with a scratch of its
    /// length; both are freed before this returns.
    fn solve_list(&mut self, mut edges: Vec<Edge>) -> Result<(), ExecError> {
        self.ab_ordered = edges.is_sorted_by_key(|e| (e.a, e.b));
        let mut scratch = zeroed_edges(edges.len());
        self.solve(&mut edges, &mut scratch)
    }

    /// The result, timed from `start`.
    fn finish(self, start: Instant) -> MstOutput {
        let time = start.elapsed();
        let mut edges = self.edges;
        // Parts are solved lightest first and each in order, so the forest comes out sorted.
        debug_assert!(edges.is_sorted());
        edges.shrink_to_fit();
        let workers = self.team.map_or(1, |cfg| cfg.threads);
        let mut stats = vec![ThreadStats::default(); workers];
        stats[0].tasks = self.filtered;
        MstOutput {
            weight: edges.iter().map(|e| e.weight as u64).sum(),
            merges: edges.len() as u64,
            edges,
            stale_tasks: 0,
            edges_scanned: self.filtered,
            report: RunReport::from_threads(time, stats),
        }
    }

    /// The team, if a pass over `len` edges is worth sharing.
    fn shared(&self, len: usize) -> Option<&ExecConfig> {
        self.team.filter(|_| len >= PARALLEL_FROM)
    }

    /// Adds to the forest, in order, every edge of `part` that joins two components, given
    /// that every edge lighter than all of `part` has been added already. `scratch` is as long
    /// as `part`.
    fn solve(&mut self, part: &mut [Edge], scratch: &mut [Edge]) -> Result<(), ExecError> {
        debug_assert_eq!(part.len(), scratch.len());
        if self.sorts_whole(part.len()) {
            if self.ab_ordered {
                sort_by_weight(part, scratch);
            } else {
                part.sort_unstable();
            }
            self.scan(part);
            return Ok(());
        }
        let pivot = key(&self.pivot(part.len(), |i| part[i]));
        let Split {
            light,
            light_scratch,
            heavy,
            heavy_scratch,
        } = split(part, scratch, pivot);
        self.solve(light, light_scratch)?;
        let kept = self.filter(heavy)?;
        self.solve(&mut heavy[..kept], &mut heavy_scratch[..kept])
    }

    /// Kruskal over `edges` grouped by weight: bucket `b` holds `edges[starts[b]..starts[b +
    /// 1]]`, each lighter than the next, each in `(a, b)` order if the graph's adjacency is
    /// sorted. The forest's edges are packed at the front of `edges`, which becomes the
    /// output; the scan ends when the forest is complete.
    fn solve_bucketed(&mut self, mut edges: Vec<Edge>, starts: &[usize]) {
        let largest = starts.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        let mut scratch = zeroed_edges(largest);
        let mut kept = 0;
        for bounds in starts.windows(2) {
            if self.merges_left == 0 {
                break;
            }
            let part = &mut edges[bounds[0]..bounds[1]];
            if part.is_sorted_by_key(|e| (e.a, e.b)) {
                sort_by_weight(part, &mut scratch);
            } else {
                part.sort_unstable();
            }
            self.filtered += part.len() as u64;
            for i in bounds[0]..bounds[1] {
                self.prefetch_ends(&edges[..bounds[1]], i + PREFETCH_AHEAD);
                let e = edges[i];
                if self.join(e) {
                    // `kept <= i`: the slot has been scanned already.
                    edges[kept] = e;
                    kept += 1;
                }
            }
        }
        edges.truncate(kept);
        debug_assert!(self.edges.is_empty());
        self.edges = edges;
    }

    /// Kruskal over sorted edges.
    fn scan(&mut self, sorted: &[Edge]) {
        if self.edges.capacity() == 0 {
            self.edges.reserve_exact(self.merges_left);
        }
        self.filtered += sorted.len() as u64;
        for (i, &e) in sorted.iter().enumerate() {
            self.prefetch_ends(sorted, i + PREFETCH_AHEAD);
            if self.join(e) {
                self.edges.push(e);
            }
        }
    }

    /// Asks the cache for the parent entries of the ends of `edges[i]`, if there is one
    /// (module docs, Scans).
    #[inline(always)]
    fn prefetch_ends(&self, edges: &[Edge], i: usize) {
        if let Some(e) = edges.get(i) {
            prefetch(&self.parent, e.a as usize);
            prefetch(&self.parent, e.b as usize);
        }
    }

    /// Kruskal's step: links the components of `e`'s ends if they differ, and says whether
    /// it did (`e` is then a forest edge).
    ///
    /// Rem's algorithm with splicing (Patwary, Blair, Manne, SEA 2010): a parent is never
    /// below its child, so a root is its tree's largest node, and the two walks advance
    /// together from the end whose parent is lower, stopping as soon as the two parents
    /// agree (one set) or the lower end is a root (linked under the other's parent). Each
    /// step on the way re-points the node it leaves at the other walk's parent: a higher
    /// node that the union puts in the same set, which shortens later walks. (The textbook
    /// step, a find to each root and then a link, walks both paths to their ends.) The filters'
    /// finds ([`find`]) only point nodes at ancestors, which keeps parents above children.
    #[inline(always)]
    fn join(&mut self, e: Edge) -> bool {
        let parent = &self.parent;
        let (mut x, mut y) = (e.a, e.b);
        loop {
            let (px, py) = (
                parent[x as usize].load(Relaxed),
                parent[y as usize].load(Relaxed),
            );
            if px == py {
                return false;
            }
            // The end whose parent is lower, `lo`, steps up. (Selected, not swapped into `x`:
            // a swap of the four values took the scan 1.12x as long on NY, Rome, Seattle.)
            let (lo, lo_parent, hi_parent) = if px < py { (x, px, py) } else { (y, py, px) };
            // The splice (or, at a root, the link): `hi_parent` is above `lo`, and not in
            // `lo`'s subtree, whose nodes are all at most `lo`.
            parent[lo as usize].store(hi_parent, Relaxed);
            if lo == lo_parent {
                self.merges_left = self.merges_left.saturating_sub(1);
                return true;
            }
            if px < py {
                x = lo_parent;
            } else {
                y = lo_parent;
            }
        }
    }

    /// Moves the edges whose ends are still in different components to the front of `part`,
    /// in order; returns how many there are.
    fn filter(&mut self, part: &mut [Edge]) -> Result<usize, ExecError> {
        self.filtered += part.len() as u64;
        let Some(cfg) = self.shared(part.len()) else {
            return Ok(pack_joining(&self.parent, part));
        };
        // Each worker packs its block; then the blocks' survivors move up behind the first's.
        let block = part.len().div_ceil(cfg.threads);
        let blocks: Vec<Mutex<&mut [Edge]>> = part.chunks_mut(block).map(Mutex::new).collect();
        let (kept, _) = run_team(cfg, |team| {
            Ok(blocks.get(team.worker()).map_or(0, |b| {
                pack_joining(
                    &self.parent,
                    &mut b.lock().unwrap_or_else(PoisonError::into_inner),
                )
            }))
        })?;
        drop(blocks);
        let mut len = 0;
        for (w, &k) in kept.iter().enumerate() {
            part.copy_within(w * block..w * block + k, len);
            len += k;
        }
        Ok(len)
    }

    /// The median of a few of `len` edges drawn at random, `edge(i)` being the `i`-th (a fixed
    /// sequence, so runs repeat).
    fn pivot(&mut self, len: usize, edge: impl Fn(usize) -> Edge) -> Edge {
        let mut sample = [Edge::new(0, 0, 0); PIVOT_SAMPLE];
        for s in sample.iter_mut() {
            self.rng = ordo_graph::mix64(self.rng);
            *s = edge((self.rng % len as u64) as usize);
        }
        sample.sort_unstable();
        sample[PIVOT_SAMPLE / 2]
    }
}

/// Moves the edges of `part` whose ends `parent` has in different components to its front,
/// in order; returns how many there are. Only finds (no links) may run beside it.
fn pack_joining(parent: &[AtomicU32], part: &mut [Edge]) -> usize {
    let mut kept = 0;
    for i in 0..part.len() {
        let e = part[i];
        if find(parent, e.a) != find(parent, e.b) {
            part[kept] = e;
            kept += 1;
        }
    }
    kept
}

/// Splits `part` around `pivot` on one thread: the light edges (key at most `pivot`) go to
/// the front of `scratch`, the heavy ones to the front of `part`, each in order.
fn split<'a>(part: &'a mut [Edge], scratch: &'a mut [Edge], pivot: u128) -> Split<'a> {
    let (mut light, mut heavy) = (0, 0);
    for i in 0..part.len() {
        let e = part[i];
        let is_light = key(&e) <= pivot;
        // Both cursors are at most `i`: `part[heavy]` has been read already.
        scratch[light] = e;
        part[heavy] = e;
        light += is_light as usize;
        heavy += !is_light as usize;
    }
    let (heavy, light_scratch) = part.split_at_mut(heavy);
    let (light, heavy_scratch) = scratch.split_at_mut(light);
    Split {
        light,
        light_scratch,
        heavy,
        heavy_scratch,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both arcs of every edge.
    fn graph(n: u32, edges: &[(u32, u32, u32)]) -> Graph {
        let arcs: Vec<_> = edges
            .iter()
            .flat_map(|&(a, b, w)| [(a, b, w), (b, a, w)])
            .collect();
        crate::test_graphs::weighted(n, &arcs)
    }

    #[test]
    fn equals_kruskal_on_random_graphs_with_ties_and_components() {
        let mut state = 7u64;
        for trial in 0..40u32 {
            let n = 50 + trial * 300;
            let m = n as usize * (1 + trial as usize % 6);
            let max_weight = [1, 3, 1000, u32::MAX][trial as usize % 4];
            let edges: Vec<(u32, u32, u32)> = (0..m)
                .map(|_| {
                    let mut draw = |k: u64| {
                        state = ordo_graph::mix64(state);
                        (state % k) as u32
                    };
                    let (a, b) = (draw(n as u64), draw(n as u64));
                    (a, b, draw(max_weight as u64).max(1))
                })
                .filter(|&(a, b, _)| a != b)
                .collect();
            let g = graph(n, &edges);
            let expected = super::super::kruskal(&g);
            for threads in [1, 2, 3, 8] {
                let cfg = ExecConfig::new(threads);
                let out = run(&g, &cfg).unwrap();
                assert_eq!(out.edges, expected, "trial {trial}, {threads} threads");
                // Out of (a, b) order, the parts are sorted by comparisons.
                let mut reversed = super::super::edges_of(&g);
                reversed.reverse();
                let team = (threads > 1).then_some(&cfg);
                let out = forest_of(&g, reversed, team, Instant::now()).unwrap();
                assert_eq!(
                    out.edges, expected,
                    "trial {trial}, {threads} threads, reversed"
                );
            }
        }
    }

    #[test]
    fn empty_and_edgeless_graphs() {
        for threads in [1, 2] {
            let cfg = ExecConfig::new(threads);
            assert!(run(&graph(0, &[]), &cfg).unwrap().edges.is_empty());
            assert!(run(&graph(5, &[]), &cfg).unwrap().edges.is_empty());
        }
    }
}
