//! Minimum spanning forest by parallel Boruvka on the frontier executor: every round, each
//! component finds its lightest leaving edge, components hook along those edges, and edges
//! inside a component are dropped for good.
//!
//! An edge is its arc `a -> b` with `a < b`, named by the arc's CSR index. Graphs built by
//! `ordo_graph` keep each adjacency sorted, so arc indices follow `(a, b)`; the key
//! `weight << 32 | index` then orders edges exactly as [`Edge`]'s `(weight, a, b)`, and the
//! forest is unique: the same as [`kruskal`](super::kruskal)'s.
//!
//! **A round** (four loops, each ending at a barrier):
//! 1. *Filter.* For each live edge, find the roots of its ends (union-find with path halving;
//!    no hooks happen meanwhile). Equal roots: the edge is internal and dropped. Otherwise it
//!    is kept for the next round and its key offered to both roots with `fetch_min`.
//! 2. *Target.* Each live root reads its lightest edge and records the other end's root.
//! 3. *Hook.* With distinct keys the "lightest edge" pointers form trees whose only cycles are
//!    pairs choosing the same edge. Of such a pair the smaller root stays a root; every other
//!    root hooks under its target and adds its edge to the forest (so each forest edge is
//!    added once, by the root that hooks along it). By the cut property every added edge is in
//!    the forest.
//! 4. *Compress.* Old roots jump to their new roots; their keys are reset.
//!
//! **Filtering** (dense weighted graphs, more than 4 edges per node). Rounds run first on the
//! light edges only: those of weight at most a limit sampled so that about 2n edges are light.
//! Every heavy edge is heavier than every light one, so each light forest edge is also a
//! forest edge of the whole graph. Then one pass drops the heavy edges inside the components
//! this left (one find per end), and the rounds finish on the heavy edges that remain.
//! Kronecker 20 (16M edges): 1.48 s without, 0.81 s with, at one thread.
//!
//! **Orderings.** Relaxed throughout. No loop both reads and changes the same kind of state:
//! filter and target only shorten paths ([`crate::union_find`]) and lower keys (`fetch_min`,
//! whose result nobody reads until the barrier); hook writes each root's parent once, by the
//! worker that holds that root, and reads only the targets and keys of the loops before;
//! compress only shortens paths again. An edge's recorded components are written by the one
//! worker holding the edge in that round. The barrier that ends each loop publishes it.
//!
//! Components at least halve every round: O(log n) rounds, O(m) work per round at most (live
//! edges only shrink). The forest is sorted after the timed run, as the priority version's.

use super::{Edge, MstOutput};
use crate::union_find::{find, point_at_root};
use ordo_exec::frontier::{zeroed_u32s, QueueRing, QueueWriter};
use ordo_exec::{run_team, ExecConfig, ExecError, RunReport, Stopped, Team, ThreadStats};
use ordo_graph::Graph;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// No leaving edge (a finished component), or no target.
const NONE: u64 = u64::MAX;
const NO_TARGET: u32 = u32::MAX;
const CHUNK: usize = 2048;

struct State<'g> {
    g: &'g Graph,
    /// The components of each edge's ends (by arc index) as of the last round that kept it:
    /// roots then, one hop from today's roots after the compression (the nodes themselves are
    /// never compressed, so finding from the ends would walk one link per round).
    ca: Vec<AtomicU32>,
    cb: Vec<AtomicU32>,
    parent: Vec<AtomicU32>,
    best: Vec<AtomicU64>,
    target: Vec<AtomicU32>,
    /// Live edges from round 2 on, round `k` reading `edges.input(k)`. Rounds 0 and 1 visit
    /// every edge from the adjacency lists: round 0 drops none, so it writes none.
    edges: QueueRing,
    /// Live roots, round `k` reading `roots.input(k)` (every node in round 0).
    roots: QueueRing,
    /// Edges of weight at most this are "light": Boruvka runs on them first, and the heavy
    /// ones are filtered against the components that leaves (`u32::MAX`: no split).
    light_limit: u32,
}

/// Which edges a pass over the adjacency lists visits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    All,
    /// Weight at most the light limit.
    Light,
    Heavy,
}

impl Class {
    #[inline]
    fn holds(self, weight: u32, limit: u32) -> bool {
        match self {
            Class::All => true,
            Class::Light => weight <= limit,
            Class::Heavy => weight > limit,
        }
    }
}

/// Where a round's edges come from.
#[derive(Clone, Copy)]
enum Source {
    /// The adjacency lists: the ends' components from the nodes themselves or from the last
    /// round; `list` whether to list the edges kept (a first round of a first phase drops none,
    /// so the next reads the adjacency lists again instead).
    Arcs {
        class: Class,
        from_nodes: bool,
        list: bool,
    },
    /// The edges the last round listed.
    List,
}

/// Ring steps taken: filters (edge lists), hooks (root lists), and the live roots.
#[derive(Default)]
struct Steps {
    edges: usize,
    roots: usize,
    /// `None` before the first hook: every node.
    live_roots: Option<usize>,
}

/// What one worker did: its statistics (`tasks` = edges filtered) and the forest edges it added.
#[derive(Default)]
struct Part {
    stats: ThreadStats,
    forest: Vec<u32>,
}

/// The minimum spanning forest of the undirected simple weighted graph `g`.
///
/// # Panics
/// If `g` has 2^32 - 1 or more edges (their numbers must fit beside the weight in a key).
///
/// ```
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_exec::ExecConfig;
/// let g = gen::road_grid(20, 20, 1, &BuildOptions::default()).unwrap();
/// let out = ordo_algos::mst::boruvka::run(&g, &ExecConfig::new(2)).unwrap();
/// assert_eq!(out.edges, ordo_algos::mst::kruskal(&g));
/// ```
pub fn run(g: &Graph, cfg: &ExecConfig) -> Result<MstOutput, ExecError> {
    let (n, m) = (g.num_nodes(), g.num_edges());
    assert!(
        m < u32::MAX as usize,
        "Boruvka names edges by 32-bit arc indices"
    );
    debug_assert!((0..n as u32).all(|v| g.neighbors(v).is_sorted()));
    let s = State {
        g,
        ca: zeroed_u32s(m),
        cb: zeroed_u32s(m),
        parent: crate::union_find::singletons(n),
        best: (0..n).map(|_| AtomicU64::new(NONE)).collect(),
        target: zeroed_u32s(n),
        edges: QueueRing::new(m),
        roots: QueueRing::new(n),
        light_limit: light_limit(g),
    };
    let (parts, time) = run_team(cfg, |team| s.forest(team))?;
    let report = RunReport::from_threads(time, parts.iter().map(|p| p.stats).collect());
    let (offsets, targets) = (g.offsets(), g.targets());
    let weight = |e: usize| g.weights().map_or(1, |w| w[e]);
    let mut edges: Vec<Edge> = parts
        .iter()
        .flat_map(|p| &p.forest)
        .map(|&e| {
            let e = e as usize;
            let a = offsets.partition_point(|&o| o as usize <= e) - 1;
            Edge::new(a as u32, targets[e], weight(e))
        })
        .collect();
    edges.sort_unstable();
    Ok(MstOutput {
        weight: edges.iter().map(|e| e.weight as u64).sum(),
        merges: edges.len() as u64,
        edges,
        stale_tasks: 0,
        edges_scanned: report.total.tasks,
        report,
    })
}

/// Light edges per node that the first phase aims at: enough that the light forest contracts
/// most of the graph, few enough that most edges of a dense graph are only filtered.
const LIGHT_PER_NODE: usize = 2;
/// Arcs sampled to pick the light limit.
const SAMPLES: usize = 1024;

/// The weight below which about [`LIGHT_PER_NODE`] x n edges lie (from a fixed sample of
/// arcs), or `u32::MAX` when the graph is sparse enough to run whole.
fn light_limit(g: &Graph) -> u32 {
    let (n, m) = (g.num_nodes(), g.num_edges() / 2);
    let Some(weights) = g.weights() else {
        return u32::MAX;
    };
    if m <= 2 * LIGHT_PER_NODE * n || weights.is_empty() {
        return u32::MAX;
    }
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut sample: Vec<u32> = (0..SAMPLES)
        .map(|_| {
            state = ordo_graph::mix64(state);
            weights[(state % weights.len() as u64) as usize]
        })
        .collect();
    sample.sort_unstable();
    let rank = SAMPLES * LIGHT_PER_NODE * n / m;
    sample[rank.min(SAMPLES - 1)]
}

impl State<'_> {
    /// One worker's part (the SPMD body).
    fn forest(&self, team: &Team) -> Result<Part, Stopped> {
        let mut part = Part::default();
        let mut steps = Steps::default();
        let split = self.light_limit < u32::MAX;
        let class = if split { Class::Light } else { Class::All };
        self.boruvka(team, class, &mut steps, &mut part)?;
        if split {
            // Every heavy edge inside a component of the light forest is heavier than the
            // light edges that join it: drop it with one find per end, then finish on the rest.
            self.flatten(team, &mut steps)?;
            self.boruvka(team, Class::Heavy, &mut steps, &mut part)?;
        }
        Ok(part)
    }

    /// Boruvka rounds on the edges of `class` (and the components so far) until none leaves a
    /// component.
    fn boruvka(
        &self,
        team: &Team,
        class: Class,
        steps: &mut Steps,
        part: &mut Part,
    ) -> Result<(), Stopped> {
        // The first round over the adjacency lists finds the ends' components from the nodes;
        // with nothing contracted yet (a first phase) it drops no edge, so it lists none and
        // the second round reads the adjacency lists again.
        let fresh = steps.roots == 0;
        let mut source = Source::Arcs {
            class,
            from_nodes: true,
            list: !fresh,
        };
        let mut live = 0;
        loop {
            live = self.filter(team, steps.edges, source, live, part)?;
            steps.edges += 1;
            if live == 0 {
                return Ok(());
            }
            let roots = steps.live_roots.unwrap_or(self.g.num_nodes());
            self.targets(team, steps.roots, roots)?;
            steps.live_roots = Some(self.hook(team, steps.roots, roots, part)?);
            self.compress(team, steps.roots, roots)?;
            steps.roots += 1;
            source = match source {
                Source::Arcs { list: false, .. } => Source::Arcs {
                    class,
                    from_nodes: false,
                    list: true,
                },
                _ => Source::List,
            };
        }
    }

    /// Points every node at its root, and lists every root as live again: a component with
    /// no light edge leaving it was dropped from the list, but heavy ones may leave it.
    fn flatten(&self, team: &Team, steps: &mut Steps) -> Result<(), Stopped> {
        team.for_chunks(self.g.num_nodes(), CHUNK, |r| {
            for v in r {
                point_at_root(&self.parent, v);
            }
            0
        })?;
        self.roots.start(steps.roots, team.worker());
        let mut roots = QueueWriter::new(self.roots.output(steps.roots));
        let live = team.for_chunks(self.g.num_nodes(), CHUNK, |r| {
            let mut live = 0;
            for v in r {
                if self.parent[v].load(Relaxed) == v as u32 {
                    roots.push(v as u32);
                    live += 1;
                }
            }
            roots.flush();
            live
        })?;
        steps.roots += 1;
        steps.live_roots = Some(live as usize);
        Ok(())
    }

    /// The root of `x` (only while no root is hooked).
    #[inline]
    fn find(&self, x: u32) -> u32 {
        find(&self.parent, x)
    }

    /// Drops internal edges, lists the rest for the next round (unless `source` says not to)
    /// and offers their keys to their roots. `len` is the list's length for `Source::List`.
    /// Returns how many edges were not internal.
    fn filter(
        &self,
        team: &Team,
        step: usize,
        source: Source,
        len: usize,
        part: &mut Part,
    ) -> Result<usize, Stopped> {
        self.edges.start(step, team.worker());
        let (offsets, targets) = (self.g.offsets(), self.g.targets());
        let weights = self.g.weights();
        let weight = |e: usize| weights.map_or(1, |w| w[e]);
        let listing = !matches!(source, Source::Arcs { list: false, .. });
        let from = self.edges.input(step);
        let mut keep = QueueWriter::new(self.edges.output(step));
        // The edge `e` between the components `ca` and `cb` (or nodes): drop it, or keep it and
        // offer its key. Returns whether it was kept.
        let visit = |keep: &mut QueueWriter, e: usize, ca: u32, cb: u32| -> bool {
            let (ra, rb) = (self.find(ca), self.find(cb));
            if ra == rb {
                return false;
            }
            // Only this worker holds e in this round.
            self.ca[e].store(ra, Relaxed);
            self.cb[e].store(rb, Relaxed);
            if listing {
                keep.push(e as u32);
            }
            let key = (weight(e) as u64) << 32 | e as u64;
            // Relaxed: keys only decrease; they are read after the loop's barrier. A plain
            // load first: most edges do not beat their roots' best, and `fetch_min` on a u64
            // is a compare-exchange loop.
            for root in [ra, rb] {
                let best = &self.best[root as usize];
                if key < best.load(Relaxed) {
                    best.fetch_min(key, Relaxed);
                }
            }
            true
        };
        let kept = match source {
            Source::Arcs {
                class, from_nodes, ..
            } => team.for_chunks(self.g.num_nodes(), CHUNK, |r| {
                let (mut kept, mut visited) = (0, 0);
                for v in r {
                    let first = offsets[v] as usize;
                    let adjacency = &targets[first..offsets[v + 1] as usize];
                    for (e, &t) in (first..).zip(adjacency) {
                        if t as usize <= v || !class.holds(weight(e), self.light_limit) {
                            continue; // each edge once, from its smaller end
                        }
                        visited += 1;
                        let (ca, cb) = match from_nodes {
                            true => (v as u32, t),
                            false => (self.ca[e].load(Relaxed), self.cb[e].load(Relaxed)),
                        };
                        kept += visit(&mut keep, e, ca, cb) as u64;
                    }
                }
                keep.flush();
                part.stats.tasks += visited;
                kept
            })?,
            Source::List => team.for_chunks(len, CHUNK, |r| {
                let mut kept = 0;
                part.stats.tasks += r.len() as u64;
                for i in r {
                    let e = from.get(i) as usize;
                    let (ca, cb) = (self.ca[e].load(Relaxed), self.cb[e].load(Relaxed));
                    kept += visit(&mut keep, e, ca, cb) as u64;
                }
                keep.flush();
                kept
            })?,
        };
        Ok(kept as usize)
    }

    /// The `i`-th live root of `round`.
    #[inline]
    fn root(&self, round: usize, i: usize) -> u32 {
        match round {
            0 => i as u32,
            _ => self.roots.input(round).get(i),
        }
    }

    /// Records, for each live root, the root at the other end of its lightest edge.
    fn targets(&self, team: &Team, round: usize, len: usize) -> Result<(), Stopped> {
        team.for_chunks(len, CHUNK, |r| {
            for i in r {
                let root = self.root(round, i);
                let key = self.best[root as usize].load(Relaxed);
                let t = if key == NONE {
                    NO_TARGET
                } else {
                    // The filter just set the edge's components to this round's roots.
                    let e = key as u32 as usize;
                    let (ra, rb) = (self.ca[e].load(Relaxed), self.cb[e].load(Relaxed));
                    if ra == root {
                        rb
                    } else {
                        ra
                    }
                };
                self.target[root as usize].store(t, Relaxed);
            }
            0
        })
        .map(drop)
    }

    /// Hooks every live root under its target but the smaller of each pair that chose the same
    /// edge, which stays a root; adds each hooking edge to the forest. Returns the roots left.
    fn hook(
        &self,
        team: &Team,
        round: usize,
        len: usize,
        part: &mut Part,
    ) -> Result<usize, Stopped> {
        self.roots.start(round, team.worker());
        let mut keep = QueueWriter::new(self.roots.output(round));
        let kept = team.for_chunks(len, CHUNK, |r| {
            let mut kept = 0;
            for i in r {
                let root = self.root(round, i);
                let t = self.target[root as usize].load(Relaxed);
                if t == NO_TARGET {
                    continue; // a whole component: nothing leaves it
                }
                if self.target[t as usize].load(Relaxed) == root && root < t {
                    keep.push(root);
                    kept += 1;
                } else {
                    self.parent[root as usize].store(t, Relaxed);
                    part.forest
                        .push(self.best[root as usize].load(Relaxed) as u32);
                }
            }
            keep.flush();
            kept
        })?;
        Ok(kept as usize)
    }

    /// Points each of this round's `len` roots at its new root and resets its key.
    fn compress(&self, team: &Team, round: usize, len: usize) -> Result<(), Stopped> {
        team.for_chunks(len, CHUNK, |r| {
            for i in r {
                let root = self.root(round, i);
                self.best[root as usize].store(NONE, Relaxed);
                point_at_root(&self.parent, root as usize);
            }
            0
        })
        .map(drop)
    }
}
