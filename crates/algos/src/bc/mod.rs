//! Betweenness centrality (Brandes 2001) on sampled sources, with the NUMA-aware techniques of
//! the NUMA-aware BC paper (Frasca et al., SC'12): the adaptive data layout (ADL) and
//! NUMA-aware work queues (NWQ).
//!
//! Each source runs a level-synchronous parallel BFS that counts shortest paths, then
//! accumulates dependencies back up the levels (`engine.rs` has the details and the orderings).
//! Levels push along their vertices' out-arcs, except dense ones on graphs whose in-edges are
//! at hand, which pull ([`Direction`]; `engine.rs`, Dense levels).
//! One thread runs the same passes over a single queue, without levels (`lone.rs`), unless it
//! measures working sets.
//! The work of a level is handed out in tasks of 16 vertices (Frasca et al. §III-B) by one of two
//! disciplines ([`Queues`]): `dynamic`, a shared cursor over the whole level (the OpenMP
//! `dynamic,16` baseline), or `nwq`, per-thread queues holding what each thread discovered,
//! drained own-first and then in `tid XOR distance` order.
//!
//! **ADL** (§III-A): one BFS from the first source, on the same threads and queues, records
//! which thread discovered each vertex and when; the graph is relabelled by
//! (depth, thread, time discovered), reversed, and every source then runs on the relabelled
//! graph. Scores are mapped back to the input's ids. The cost (that BFS plus the relabelling)
//! is reported in seconds and in BFS-equivalents: over the mean time of one source.
//! [`Layout::Auto`] (the default from 4 sources on) lays out from the source of highest
//! degree and keeps the input's order when that BFS pulls a level: low-diameter graphs,
//! where the relabelling costs more than it saves.
//!
//! **Working set** (§V-D, Fig. 12-13): with `working_set`, each thread counts the distinct
//! vertices it touches (expands, reads a neighbour of, or accumulates) per source; the mean
//! over threads and sources is compared with the ideal, vertices reached / threads.
//!
//! This is a scheduler of its own: BC's level-synchronous BFS needs no priority order, so it
//! does not run on ordo's priority schedulers; `threads`, `pin`, `topology` and `cancel` of the
//! [`ExecConfig`] apply.
//!
//! The oracle is serial Brandes with a queue ([`serial_brandes`]); the CLI's check runs it
//! on groups of sources, one thread each ([`serial_brandes_split`]). Floating-point sums in
//! another order agree to [`TOLERANCE`] ([`compare_scores`]).
//!
//! Path counts are `f64`. A source whose counts overflow (a large grid from a corner: about
//! 2^3990 shortest paths on 2000 x 2000) is redone with scaled counts, a mantissa and a power
//! of two each ([`dependencies_with_scaled_counts`]), by the kernels and by the oracle alike;
//! in `f64` alone its scores would be not-a-number (GAPBS's `bc` has that limit). With several
//! threads and in-edges at hand the team redoes such sources one at a time on the engine's
//! arrays (`scaled_team.rs`), so their memory does not grow with the threads.

pub mod app;

mod brandes;
mod engine;
mod lanes;
mod lone;
mod scaled_counts;
mod scaled_team;
mod state;
mod successors;

pub use brandes::{compare_scores, serial_brandes, serial_brandes_split, TOLERANCE};
pub use lanes::Queues;
pub use scaled_counts::dependencies_with_scaled_counts;
pub use state::{EDGES, FOREIGN_CHUNKS, LEVELS, PULLED_LEVELS};

use crate::in_edges::InEdges;
use engine::{EngineConfig, Phases};
use ordo_exec::{ExecConfig, ExecError, RunReport, ThreadStats};
use ordo_graph::Graph;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Frasca et al. (SC'12): "a task size of 16 vertices works well".
pub const DEFAULT_TASK: usize = 16;

/// The graph's layout during the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// The input's node order.
    Input,
    /// Relabelled by (depth, thread, time discovered), reversed, after one BFS (ADL).
    Adl,
    /// ADL from the source of highest out-degree, unless its BFS finds a level by pulling
    /// ([`Direction::Optimizing`]): then the input's order. A graph whose levels pull has
    /// few, wide levels, which scan the node range in id order; there the relabelling costs
    /// several sources' time and a copy of the arcs, for a gain a source that depends on the
    /// graph (Kronecker 20 at 2 threads: about 3 ms a source, against 0.2-0.7 s of wall time
    /// and 43% more peak memory for 8 sources). Road graphs, whose levels do not pull, keep
    /// ADL.
    Auto,
}

impl std::str::FromStr for Layout {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "input" => Ok(Layout::Input),
            "adl" => Ok(Layout::Adl),
            _ => Err(format!("unknown layout '{s}'; valid: input, adl")),
        }
    }
}

/// `auto` picks [`Layout::Auto`] from this many sources on, the input's order below. ADL's
/// relabelling costs about 2-4 single-source runs (NY at 1 thread: 67 ms, and then 22.6 ms a
/// source against 35 ms in the input's order), so it pays from about 3 to 6 sources.
/// The run's reported time leaves the relabelling out (`adl_s`): a single-source run under
/// ADL looks faster than it is.
pub const ADL_MIN_SOURCES: usize = 4;

impl Layout {
    /// The layout `name` asks for, `auto` resolved for a run from `sources` sources.
    pub fn choose(name: &str, sources: usize) -> Result<Layout, String> {
        match name {
            "auto" if sources >= ADL_MIN_SOURCES => Ok(Layout::Auto),
            "auto" => Ok(Layout::Input),
            _ => name
                .parse()
                .map_err(|_| format!("unknown layout '{name}'; valid: auto, input, adl")),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Layout::Input => "input",
            Layout::Adl => "adl",
            Layout::Auto => "auto",
        }
    }
}

/// How a level of a source's BFS finds the next one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Every level pushes along its vertices' out-arcs (Frasca et al.'s Algorithm 1, GAPBS's `bc`).
    Push,
    /// A level whose frontier has more arcs than the vertices not reached yet is found by
    /// pulling over in-edges instead, as GBBS's edgeMap does (`engine.rs`, Dense levels): on
    /// graphs whose in-edges are at hand (symmetric ones, or with a transpose built), and
    /// never while measuring working sets. Other graphs and levels push.
    Optimizing,
}

#[derive(Debug, Clone, Copy)]
pub struct BcConfig {
    pub direction: Direction,
    pub queues: Queues,
    pub layout: Layout,
    /// Vertices per task.
    pub task: usize,
    /// Count each thread's distinct vertices per source (costs a bitmap write per arc).
    pub working_set: bool,
    /// With [`Direction::Optimizing`], pull every level whose in-edges are at hand, however
    /// small its frontier: the pull path on every shape of level (for tests).
    pub pull_every_level: bool,
}

impl Default for BcConfig {
    fn default() -> Self {
        BcConfig {
            direction: Direction::Optimizing,
            queues: Queues::Nwq,
            layout: Layout::Auto,
            task: DEFAULT_TASK,
            working_set: false,
            pull_every_level: false,
        }
    }
}

/// What ADL cost.
#[derive(Debug, Clone, Copy)]
pub struct AdlCost {
    /// The layout BFS and the relabelling, in seconds.
    pub seconds: f64,
    /// `seconds` over the mean time of one source (forward and backward) after the relabelling.
    pub bfs_equivalents: f64,
}

/// Per-thread working sets (distinct vertices touched per source).
#[derive(Debug, Clone)]
pub struct WorkingSet {
    /// Per thread, averaged over the sources.
    pub per_thread: Vec<f64>,
    /// The mean over threads.
    pub mean: f64,
    /// Vertices reached per source over threads: what a perfect partition would touch.
    pub ideal: f64,
}

pub struct BcOutput {
    /// Betweenness of each node (the input's ids), summed over the sources.
    pub scores: Vec<f64>,
    /// The run over all sources (ADL's BFS and relabelling excluded, as in Frasca et al.). Per
    /// thread: `tasks` vertices expanded, `pushes` vertices discovered, `pops` chunks taken,
    /// `app[FOREIGN_CHUNKS]` chunks from another thread's queue, `app[EDGES]` arcs scanned
    /// forward; thread 0's `app[LEVELS]` the BFS levels, summed over the sources.
    pub report: RunReport,
    /// What ADL cost, when the sources ran on its layout.
    pub adl: Option<AdlCost>,
    pub working_set: Option<WorkingSet>,
    /// Vertices reached, summed over the sources.
    pub reached: u64,
}

impl BcOutput {
    /// The layout the sources ran on ([`Layout::Input`] or [`Layout::Adl`]): ADL's when it
    /// has a cost.
    pub fn layout(&self) -> Layout {
        match self.adl {
            Some(_) => Layout::Adl,
            None => Layout::Input,
        }
    }
}

/// Betweenness summed over `sources` on `cfg.threads` threads.
///
/// ```
/// use ordo_algos::bc::{self, BcConfig};
/// use ordo_exec::ExecConfig;
/// use ordo_graph::{gen, BuildOptions};
/// let g = gen::road_grid(8, 8, 1, &BuildOptions::default()).unwrap();
/// let sources = bc::sample_sources(g.num_nodes(), 10, 7);
/// let out = bc::run(&g, &sources, &BcConfig::default(), &ExecConfig::new(2)).unwrap();
/// let oracle = bc::serial_brandes(&g, &sources);
/// assert!(bc::compare_scores(&out.scores, &oracle, |v| v as u64).is_ok());
/// ```
pub fn run(
    g: &Graph,
    sources: &[u32],
    bc: &BcConfig,
    cfg: &ExecConfig,
) -> Result<BcOutput, ExecError> {
    match AdlLayout::of(g, sources, bc, cfg)? {
        Some(layout) => run_on_layout(&layout, sources, bc, cfg),
        None => run_on_input(g, sources, bc, cfg),
    }
}

/// The engine's configuration for `bc`'s runs.
fn engine_config(bc: &BcConfig, phases: Phases) -> EngineConfig {
    EngineConfig {
        queues: bc.queues,
        task: bc.task,
        working_set: bc.working_set && phases == Phases::Brandes,
        phases,
        pull_every_level: bc.pull_every_level,
    }
}

/// Where levels may pull (Direction::Optimizing): a graph's own out-edges when it is
/// symmetric (checked once per graph, before the timed run), else its transpose if built.
fn in_edges_of<'g>(g: &'g Graph, bc: &BcConfig, threads: usize) -> Option<InEdges<'g>> {
    if bc.direction != Direction::Optimizing {
        return None;
    }
    match g.is_symmetric(threads) {
        true => Some(InEdges::symmetric(g)),
        false => InEdges::transpose(g),
    }
}

/// [`run`] in the input's layout.
pub fn run_on_input(
    g: &Graph,
    sources: &[u32],
    bc: &BcConfig,
    cfg: &ExecConfig,
) -> Result<BcOutput, ExecError> {
    if sources.is_empty() {
        return Ok(empty_output(g, cfg.threads));
    }
    let incoming = in_edges_of(g, bc, cfg.threads);
    let run = engine::run(
        g,
        incoming,
        sources,
        &engine_config(bc, Phases::Brandes),
        cfg,
    )?;
    finish(run, sources.len(), None, bc.working_set)
}

/// A graph in ADL's order (Frasca et al. §III-A): its arcs relabelled after one BFS, without
/// weights (betweenness counts hops). Made once, a run maps its sources in and its scores out;
/// a front end that owns the graph (the command line) keeps only this copy, so relabelling
/// costs no memory beyond its permutation.
pub struct AdlLayout {
    pub graph: Arc<Graph>,
    /// `new_id[v]`: where node `v` of the input went.
    new_id: Vec<u32>,
    /// The layout BFS and the relabelling, in seconds.
    seconds: f64,
}

impl AdlLayout {
    /// `g` in ADL's order for a run from `sources`, or `None` where `bc.layout` keeps the
    /// input's: `input`, no sources, or `auto` below [`ADL_MIN_SOURCES`] sources (resolved by
    /// [`Layout::choose`]) or where the layout BFS pulled a level.
    pub fn of(
        g: &Graph,
        sources: &[u32],
        bc: &BcConfig,
        cfg: &ExecConfig,
    ) -> Result<Option<AdlLayout>, ExecError> {
        let Some(&first) = sources.first() else {
            return Ok(None);
        };
        if bc.layout == Layout::Input {
            return Ok(None);
        }
        let start = Instant::now();
        // Auto lays out from the source of highest degree: a first source that is isolated
        // or in a small component (Kronecker 20: 38% of the nodes have no arc) would say
        // nothing about the graph's levels, and order little of it.
        let from = match bc.layout {
            Layout::Auto => sources.iter().copied().max_by_key(|&s| g.out_degree(s)),
            _ => None,
        };
        let from = from.unwrap_or(first);
        let incoming = in_edges_of(g, bc, cfg.threads);
        let forward = engine_config(bc, Phases::ForwardOnly);
        let layout_bfs = engine::run(g, incoming, &[from], &forward, cfg)?;
        if layout_bfs.cancelled {
            let report = RunReport::from_threads(layout_bfs.time, layout_bfs.per_thread);
            return Err(ExecError::Cancelled(Box::new(report)));
        }
        let pulled = layout_bfs.per_thread[0].app[PULLED_LEVELS] > 0;
        // (A run that measures working sets pulls no level, whatever its BFS did.)
        if bc.layout == Layout::Auto && pulled && !bc.working_set {
            return Ok(None);
        }
        let new_id = adl_permutation(&layout_bfs.discovery_order, g.num_nodes());
        // Its order and its (empty) scores, 12 bytes a node, are not needed past here.
        drop(layout_bfs);
        let graph = g
            .permuted_arcs(&new_id)
            .expect("the ADL order is a permutation by construction");
        Ok(Some(AdlLayout {
            graph: Arc::new(graph),
            new_id,
            seconds: start.elapsed().as_secs_f64(),
        }))
    }

    /// The input's nodes `nodes` in this layout.
    pub fn map_nodes(&self, nodes: &[u32]) -> Vec<u32> {
        nodes.iter().map(|&v| self.new_id[v as usize]).collect()
    }

    /// Per-node values in this layout's order, put back in the input's.
    pub fn unmap_values(&self, values: &[f64]) -> Vec<f64> {
        self.new_id.iter().map(|&p| values[p as usize]).collect()
    }
}

/// [`run`] on a graph already in ADL's order, from the input's `sources`; the scores come
/// back in the input's order.
pub fn run_on_layout(
    layout: &AdlLayout,
    sources: &[u32],
    bc: &BcConfig,
    cfg: &ExecConfig,
) -> Result<BcOutput, ExecError> {
    let g = &layout.graph;
    if sources.is_empty() {
        return Ok(empty_output(g, cfg.threads));
    }
    let mapped = layout.map_nodes(sources);
    // The relabelled copy has no transpose: only a symmetric graph's levels may pull.
    let incoming = in_edges_of(g, bc, cfg.threads);
    let mut run = engine::run(
        g,
        incoming,
        &mapped,
        &engine_config(bc, Phases::Brandes),
        cfg,
    )?;
    run.scores = layout.unmap_values(&run.scores);
    let per_source = run.time.as_secs_f64() / sources.len() as f64;
    let adl = AdlCost {
        seconds: layout.seconds,
        bfs_equivalents: layout.seconds / per_source.max(1e-12),
    };
    finish(run, sources.len(), Some(adl), bc.working_set)
}

fn empty_output(g: &Graph, threads: usize) -> BcOutput {
    BcOutput {
        scores: vec![0.0; g.num_nodes()],
        report: RunReport::from_threads(Duration::ZERO, vec![ThreadStats::default(); threads]),
        adl: None,
        working_set: None,
        reached: 0,
    }
}

fn finish(
    run: state::EngineRun,
    sources: usize,
    adl: Option<AdlCost>,
    measured: bool,
) -> Result<BcOutput, ExecError> {
    let report = RunReport::from_threads(run.time, run.per_thread);
    if run.cancelled {
        return Err(ExecError::Cancelled(Box::new(report)));
    }
    let threads = report.threads;
    let working_set = measured.then(|| {
        let per_thread: Vec<f64> = run
            .touched
            .iter()
            .map(|&t| t as f64 / sources as f64)
            .collect();
        WorkingSet {
            mean: per_thread.iter().sum::<f64>() / threads as f64,
            per_thread,
            ideal: run.reached as f64 / sources as f64 / threads as f64,
        }
    });
    Ok(BcOutput {
        scores: run.scores,
        report,
        adl,
        working_set,
        reached: run.reached,
    })
}

/// ADL's relabelling: `new_id[v]` for the discovery `order` (by depth, thread, time) reversed;
/// vertices the BFS did not reach keep their relative order after it.
pub fn adl_permutation(order: &[u32], n: usize) -> Vec<u32> {
    let mut new_id = vec![u32::MAX; n];
    for (i, &v) in order.iter().rev().enumerate() {
        new_id[v as usize] = i as u32;
    }
    let unreached = new_id.iter_mut().filter(|id| **id == u32::MAX);
    for (next, id) in (order.len() as u32..).zip(unreached) {
        *id = next;
    }
    new_id
}

/// `k` distinct nodes drawn uniformly with `seed` (all `n` nodes, in order, when k >= n), in
/// the order drawn: the first is ADL's layout source.
pub fn sample_sources(n: usize, k: usize, seed: u64) -> Vec<u32> {
    if k >= n {
        return (0..n as u32).collect();
    }
    // Floyd's algorithm: k draws, no rejection loop.
    let mut rng = seed;
    let mut draw = |bound: u64| {
        rng = ordo_graph::mix64(rng.wrapping_add(0x9E37_79B9_7F4A_7C15));
        rng % bound
    };
    let mut chosen = std::collections::HashSet::with_capacity(k);
    let mut picked = Vec::with_capacity(k);
    for j in (n - k)..n {
        let t = draw(j as u64 + 1) as u32;
        let v = if chosen.insert(t) {
            t
        } else {
            chosen.insert(j as u32);
            j as u32
        };
        picked.push(v);
    }
    picked
}

#[cfg(test)]
mod tests;
