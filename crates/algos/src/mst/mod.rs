//! Minimum spanning forest by Boruvka with merging (the PMOD paper, Yesil et al., SC'19, §5.3:
//! "each task is associated with a vertex; the task picks the vertex's minimum weight edge and
//! merges the vertex and its neighbour connected by the edge, scheduling a task to visit the
//! new vertex"; priority = the vertex's degree, smallest first).
//!
//! Every component is a union-find root owning the list of its edges to other components
//! (behind a mutex). A task for root c drops the edges that have become internal, picks the
//! lightest edge e leaving c, locks the two roots in index order, and if they are still two
//! different roots, appends the smaller list to the larger, makes the larger the root of both,
//! records e, contracts the list to the lightest edge to each neighbouring component (as the
//! authors' operator contracts the merged vertices' edges, `apps/boruvka` in
//! github.com/serifyesil/PMOD) and schedules the new root at priority = its degree, the
//! list's length. Degrees rise and fall as components merge, so PMOD's check sees the slow
//! pops it merges on (Table 6).
//!
//! **Why this is the minimum spanning forest under any order.** Edges are totally ordered by
//! `(weight, smaller end, larger end)`, so the forest is unique. When a task picks e, e is the
//! lightest edge leaving c's node set at that time, so by the cut property e is in the forest,
//! even if c has grown since. If e's ends are already in one component when the locks are
//! held, they were joined by forest edges, and e being in the forest too means it was one of
//! them: nothing is lost by skipping it. Components only grow, so the run ends with every
//! component having no leaving edge.
//!
//! Input: the undirected simple view (see [`ordo_graph::undirected_simple`]); a disconnected
//! graph gives a spanning forest. The serial oracle is Kruskal with the same edge order.
//!
//! [`boruvka`] is parallel Boruvka with edge filtering on the frontier executor, the fastest
//! method (what `ordo mst` runs by default); this priority-scheduled version is Yesil et al.'s.

pub mod app;

pub mod boruvka;
pub mod filter_kruskal;
mod weight_buckets;
mod weight_sort;

use crate::union_find::{self, UnionFind};
use ordo_exec::{for_each, ExecConfig, ExecError, RunReport};
use ordo_graph::Graph;
use ordo_sched::Scheduler;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard};

const MERGES: usize = 0;
const STALE: usize = 1;
const EDGES_SCANNED: usize = 2;

/// An undirected edge in the total order the forest is unique under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Edge {
    pub weight: u32,
    /// The smaller end.
    pub a: u32,
    /// The larger end.
    pub b: u32,
}

impl Edge {
    pub(crate) fn new(u: u32, v: u32, weight: u32) -> Self {
        Edge {
            weight,
            a: u.min(v),
            b: u.max(v),
        }
    }
}

/// "Find and merge along the lightest edge leaving the component rooted at `root`."
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MstTask {
    pub root: u32,
    /// The component's edge count when pushed (its priority), for traces and rank error.
    pub degree: u32,
}

pub struct MstOutput {
    /// The forest's edges, sorted.
    pub edges: Vec<Edge>,
    pub weight: u64,
    pub report: RunReport,
    pub merges: u64,
    pub stale_tasks: u64,
    pub edges_scanned: u64,
}

/// The components' union-find, linked under the roots' locks while other workers search it
/// ([`union_find::find_while_linking`], whose comment gives the orderings).
struct Forest {
    parent: Vec<AtomicU32>,
}

impl Forest {
    fn find(&self, x: u32) -> u32 {
        union_find::find_while_linking(&self.parent, x)
    }

    fn is_root(&self, x: u32) -> bool {
        self.parent[x as usize].load(Ordering::Acquire) == x
    }
}

/// An edge in a component's list, with its end on the far side.
#[derive(Debug, Clone, Copy)]
struct Leaving {
    edge: Edge,
    far: u32,
}

/// A node's share of the forest: while it is a root, its component's edges; once absorbed, the
/// edge that merged it away (each root is absorbed at most once, so that is the forest).
struct Component {
    edges: Vec<Leaving>,
    /// The list's length when [`contract`] last made it exact.
    exact: usize,
    merged_by: Option<Edge>,
}

/// Lists up to this long are made exact at every merge.
const ALWAYS_EXACT: usize = 64;

/// Makes the merged list of root `root` its component's edges to other components, the
/// lightest one to each (the authors' operator contracts the edge the same way, so a
/// component's degree, its priority, falls as its neighbours merge with each other). Only
/// the lightest of parallel edges can be in the forest (cycle property). A long list is made
/// exact only once it has doubled since the last time, so a hub absorbing leaf after leaf
/// costs O(m log m) in all, not a sort per leaf.
fn contract(comp: &mut Component, root: u32, forest: &Forest) {
    let len = comp.edges.len();
    if len > ALWAYS_EXACT && len < 2 * comp.exact {
        return;
    }
    // `far` becomes the far end's root now: still a node of that component, so the
    // internal-edge test (`find(far) == root`) keeps its meaning.
    for e in &mut comp.edges {
        e.far = forest.find(e.far);
    }
    comp.edges.retain(|e| e.far != root);
    comp.edges.sort_unstable_by_key(|e| (e.far, e.edge));
    comp.edges.dedup_by_key(|e| e.far);
    comp.exact = comp.edges.len();
}

fn lock(m: &Mutex<Component>) -> MutexGuard<'_, Component> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Parallel minimum spanning forest of the undirected simple graph `g` (unweighted: weight 1).
///
/// ```
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_exec::ExecConfig;
/// use ordo_sched::obim::{Obim, ObimConfig};
/// let g = gen::road_grid(20, 20, 1, &BuildOptions::default()).unwrap();
/// let g = ordo_graph::undirected_simple(&g).unwrap();
/// let cfg = ExecConfig::new(2);
/// let sched = Obim::new(&ObimConfig::default(), 2, &cfg.topology);
/// let out = ordo_algos::mst::run(&g, &sched, &cfg).unwrap();
/// assert_eq!(out.edges.len(), 399);
/// assert_eq!(out.edges, ordo_algos::mst::kruskal(&g));
/// ```
pub fn run<S: Scheduler<MstTask>>(
    g: &Graph,
    sched: &S,
    cfg: &ExecConfig,
) -> Result<MstOutput, ExecError> {
    let n = g.num_nodes() as u32;
    let forest = Forest {
        parent: union_find::singletons(n as usize),
    };
    // Each entry keeps the end outside the node it came from: an edge is internal to root c
    // exactly when that end's root is c, one find instead of two.
    let comps: Vec<Mutex<Component>> = (0..n)
        .map(|v| {
            let edges = g.out_edges(v).map(|(t, w)| Leaving {
                edge: Edge::new(v, t, w),
                far: t,
            });
            let edges: Vec<Leaving> = edges.collect();
            Mutex::new(Component {
                exact: edges.len(),
                edges,
                merged_by: None,
            })
        })
        .collect();
    // A queued task that has not started makes a second one for the same root pointless: it
    // clears the flag (AcqRel) before locking its list, so it sees every merge made by a task
    // that found the flag set.
    let queued: Vec<AtomicBool> = (0..n).map(|_| AtomicBool::new(true)).collect();
    let initial = (0..n).filter(|&v| g.out_degree(v) > 0).map(|v| {
        let degree = g.out_degree(v) as u32;
        (MstTask { root: v, degree }, degree as u64)
    });
    let report = for_each(sched, initial, cfg, |task, ctx| {
        let c = task.root;
        ctx.task_priority(task.degree as u64);
        queued[c as usize].swap(false, Ordering::AcqRel);
        if !forest.is_root(c) {
            ctx.count(STALE, 1);
            ctx.useless();
            return;
        }
        // The lightest edge leaving c, dropping internal ones as we go.
        let lightest = {
            let mut comp = lock(&comps[c as usize]);
            ctx.count(EDGES_SCANNED, comp.edges.len() as u64);
            comp.edges.retain(|e| forest.find(e.far) != c);
            comp.edges.iter().map(|e| e.edge).min()
        };
        let Some(e) = lightest else {
            return; // c is a whole component of the forest
        };
        loop {
            let (x, y) = (forest.find(e.a), forest.find(e.b));
            if x == y {
                // Joined meanwhile, through e itself (module docs). The merge that joined them
                // scheduled the new root, so there is nothing left to do here.
                return;
            }
            // Both locks, always lower index first: no two tasks wait on each other.
            let (lo, hi) = (x.min(y), x.max(y));
            let c_lo = lock(&comps[lo as usize]);
            let c_hi = lock(&comps[hi as usize]);
            if !(forest.is_root(lo) && forest.is_root(hi)) {
                continue; // one was absorbed before we locked it: look again
            }
            let (big, small, mut c_big, mut c_small) = if c_lo.edges.len() >= c_hi.edges.len() {
                (lo, hi, c_lo, c_hi)
            } else {
                (hi, lo, c_hi, c_lo)
            };
            c_big.edges.append(&mut c_small.edges);
            c_small.merged_by = Some(e);
            forest.parent[small as usize].store(big, Ordering::Release);
            contract(&mut c_big, big, &forest);
            // Clamped to fit the task: only components of over 2^32 edges lose their order.
            let degree = c_big.edges.len().min(u32::MAX as usize) as u32;
            drop(c_small);
            drop(c_big);
            ctx.count(MERGES, 1);
            if !queued[big as usize].swap(true, Ordering::AcqRel) {
                let task = MstTask { root: big, degree };
                ctx.push_owned(task, degree as u64, big as u64);
            }
            return;
        }
    })?;
    let mut edges: Vec<Edge> = comps
        .into_iter()
        .filter_map(|m| m.into_inner().unwrap_or_else(|p| p.into_inner()).merged_by)
        .collect();
    edges.sort_unstable();
    Ok(MstOutput {
        weight: edges.iter().map(|e| e.weight as u64).sum(),
        edges,
        merges: report.total.app[MERGES],
        stale_tasks: report.total.app[STALE],
        edges_scanned: report.total.app[EDGES_SCANNED],
        report,
    })
}

/// Every edge of an undirected graph (stored as both of its arcs) once, from its smaller end,
/// in `(a, b)` order when the adjacency lists are sorted.
pub(crate) fn edges_of(g: &Graph) -> Vec<Edge> {
    edges_where(g, |_| true)
}

/// The edges of [`edges_of`] that `keep` accepts, in its order.
///
/// Without a branch per arc where there is room: every arc of a node is written at the end of
/// the list, which grows only by the kept arcs to a larger node. Whether `t > v` is a coin
/// toss on most graphs, and the branch cost a mispredict per second arc. The list is sized for
/// half the arcs (an undirected graph's edges); a node whose arcs might not fit pushes them
/// one by one instead, which happens only near the end or on a directed input.
pub(crate) fn edges_where(g: &Graph, keep: impl Fn(&Edge) -> bool) -> Vec<Edge> {
    let (offsets, targets, weights) = (g.offsets(), g.targets(), g.weights());
    let mut edges: Vec<Edge> = Vec::with_capacity(targets.len() / 2 + 1);
    for v in 0..g.num_nodes() {
        let first = offsets[v] as usize;
        let list = &targets[first..offsets[v + 1] as usize];
        let weight = |i: usize| weights.map_or(1, |w| w[first + i]);
        let v = v as u32;
        let slots = edges.spare_capacity_mut();
        if slots.len() <= list.len() {
            for (i, &t) in list.iter().enumerate() {
                let e = Edge::new(v, t, weight(i));
                if t > v && keep(&e) {
                    edges.push(e);
                }
            }
            continue;
        }
        let mut kept = 0;
        for (i, &t) in list.iter().enumerate() {
            let e = Edge::new(v, t, weight(i));
            slots[kept].write(e);
            kept += ((t > v) & keep(&e)) as usize;
        }
        // SAFETY: the `kept` slots past the length were written (each when `kept` moved past
        // it), and `kept <= list.len() < slots.len()`, within the capacity.
        unsafe { edges.set_len(edges.len() + kept) };
    }
    edges
}

/// Serial oracle: Kruskal over the edges sorted in the same order, with a plain union-find.
/// Returns the forest's edges, sorted.
pub fn kruskal(g: &Graph) -> Vec<Edge> {
    let n = g.num_nodes();
    let mut all = edges_of(g);
    all.sort_unstable();
    let mut sets = UnionFind::new(n);
    all.into_iter().filter(|e| sets.union(e.a, e.b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `edges_of` and `edges_where` against the plain filter, on graphs whose arcs mostly point
    /// up (the list sized for half the arcs runs out, and the nodes after that push one by
    /// one), mostly down, and both ways.
    #[test]
    fn edges_of_lists_each_arc_to_a_larger_node_once() {
        let mut state = 11u64;
        for (n, up_share) in [(1u32, 50u64), (40, 100), (40, 0), (300, 50), (300, 90)] {
            let arcs: Vec<(u32, u32, u32)> = (0..n * 6)
                .map(|i| {
                    state = ordo_graph::mix64(state);
                    let (a, b) = ((state % n as u64) as u32, (state >> 32) as u32 % n);
                    let up = (state >> 20) % 100 < up_share;
                    let (a, b) = if up {
                        (a.min(b), a.max(b))
                    } else {
                        (a.max(b), a.min(b))
                    };
                    (a, b, i % 7)
                })
                .collect();
            let g = crate::test_graphs::weighted(n, &arcs);
            let expected: Vec<Edge> = (0..n)
                .flat_map(|v| g.out_edges(v).map(move |(t, w)| (v, t, w)))
                .filter(|&(v, t, _)| t > v)
                .map(|(v, t, w)| Edge::new(v, t, w))
                .collect();
            assert_eq!(edges_of(&g), expected, "{n} nodes, {up_share}% up");
            let light = |e: &Edge| e.weight < 3;
            let kept: Vec<Edge> = expected.iter().copied().filter(light).collect();
            assert_eq!(
                edges_where(&g, light),
                kept,
                "{n} nodes, {up_share}% up, light"
            );
        }
    }
}
