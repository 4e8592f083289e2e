//! Triangle counting with degree ordering and sorted-list intersection.
//!
//! Orient every undirected edge from the endpoint of lower rank to the higher, rank being
//! (degree, index): each triangle then appears exactly once as u -> v -> w with u -> w, and
//! every node keeps at most O(sqrt m) out-neighbours (Schank and Wagner 2005; Latapy 2008).
//! One task per node u marks u's out-neighbours in a per-thread bitmap and probes the out-list
//! of each out-neighbour v against it (4x faster than merging sorted lists on Slashdot: one
//! random bit test per element instead of a branchy merge). Tasks carry no order dependence;
//! the priority only schedules the heaviest nodes first, which balances the load.
//!
//! Two methods share that counting: [`run`], one task per node on a priority scheduler
//! (the papers' version), and [`run_loop`], chunks of nodes on the frontier executor (the
//! default), which orients by id instead of degree where degrees are even and no hub stands
//! out ([`orient_by_id`]; [`skewed`] is GAPBS's test): each node's lower neighbours are then a
//! prefix of its sorted list, and no oriented copy of the graph is built.
//!
//! The serial oracle takes another route: it intersects the sorted out-lists of u and v by
//! merging.
//!
//! Input: an undirected simple graph (see [`ordo_graph::undirected_simple`]).

pub mod app;
pub mod per_node;

pub use per_node::{serial_per_node, Counting, Tally};

use ordo_exec::{for_each, run_team, ExecConfig, ExecError, RunReport, Stopped, Team, ThreadStats};
use ordo_graph::Graph;
use ordo_sched::Scheduler;

thread_local! {
    /// Per-thread bitmap over the nodes, all zero between tasks.
    static MARKS: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

const TRIANGLES: usize = 0;
const INTERSECTIONS: usize = 1;

/// "Count the triangles whose lowest-rank node is `node`."
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TcTask {
    pub node: u32,
}

pub struct TcOutput {
    pub triangles: u64,
    /// Sorted-list intersections done (one per oriented edge).
    pub intersections: u64,
    /// Each node's triangles, where [`Counting::PerNode`] asked for them.
    pub per_node: Option<Vec<u64>>,
    pub report: RunReport,
}

/// The degree-ordered orientation: CSR offsets and sorted out-lists.
pub struct Oriented {
    pub offsets: Vec<u64>,
    pub targets: Vec<u32>,
}

impl Oriented {
    pub fn new(g: &Graph) -> Self {
        let n = g.num_nodes() as u32;
        let rank = |v: u32| (g.out_degree(v), v);
        let mut offsets = Vec::with_capacity(n as usize + 1);
        let mut targets = Vec::with_capacity(g.num_edges() / 2);
        offsets.push(0);
        for v in 0..n {
            // Neighbour lists are sorted by index, so the filtered list stays sorted.
            targets.extend(g.neighbors(v).iter().filter(|&&t| rank(t) > rank(v)));
            offsets.push(targets.len() as u64);
        }
        Oriented { offsets, targets }
    }

    #[inline]
    pub fn out(&self, v: u32) -> &[u32] {
        &self.targets[self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize]
    }

    /// The triangles whose lowest-rank node is `u`: its out-neighbours marked in this
    /// thread's bitmap of `words` words ([`with_marked`]), probed from each out-list of them.
    #[inline]
    pub fn count(&self, words: usize, u: u32) -> u64 {
        let out = self.out(u);
        with_marked(words, out, |marked| {
            out.iter().map(|&v| marked.count_in(self.out(v))).sum()
        })
    }

    pub fn num_nodes(&self) -> usize {
        self.offsets.len() - 1
    }
}

/// Runs `f` with `list`'s ids marked in this thread's bitmap of `words` 64-bit words (ids
/// below `64 * words`), then clears them: the bitmap stays all-zero between calls, so a call
/// costs O(len) besides `f`, whatever the number of nodes.
#[inline]
pub fn with_marked<R>(words: usize, list: &[u32], f: impl FnOnce(&Marked<'_>) -> R) -> R {
    MARKS.with(|marks| {
        let mut marks = marks.borrow_mut();
        if marks.len() < words {
            marks.resize(words, 0);
        }
        for &v in list {
            marks[v as usize / 64] |= 1 << (v % 64);
        }
        let found = f(&Marked(&marks));
        // Clear only what was set.
        for &v in list {
            marks[v as usize / 64] = 0;
        }
        found
    })
}

/// A marked id list (see [`with_marked`]).
pub struct Marked<'a>(&'a [u64]);

impl Marked<'_> {
    #[inline]
    pub fn has(&self, w: u32) -> bool {
        (self.0[w as usize / 64] >> (w % 64)) & 1 != 0
    }

    /// How many of `other`'s ids are marked: one bit test each, no branch on the data.
    #[inline]
    pub fn count_in(&self, other: &[u32]) -> u64 {
        other
            .iter()
            .map(|&w| (self.0[w as usize / 64] >> (w % 64)) & 1)
            .sum()
    }
}

/// The size of the intersection of two sorted lists of distinct ids.
///
/// Branch-free steps: which list advances is data (a comparison's result added to a
/// cursor), not a jump the processor must guess, and on unrelated lists its guesses fail
/// about half the time (the serial oracle's count of Kronecker 20: 20 s, against 25 with
/// branches).
pub fn intersect(a: &[u32], b: &[u32]) -> u64 {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        n += u64::from(x == y);
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
    n
}

/// Calls `found` with each id common to two sorted lists of distinct ids.
pub fn intersect_each(a: &[u32], b: &[u32], mut found: impl FnMut(u32)) {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        if x == y {
            found(x);
        }
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
}

/// Parallel triangle count of the undirected simple graph `g`.
///
/// ```
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_exec::ExecConfig;
/// use ordo_sched::unordered::{FifoConfig, Unordered};
/// let g = gen::uniform_random(200, 2000, 3, &BuildOptions::default()).unwrap();
/// let g = ordo_graph::undirected_simple(&g).unwrap();
/// let cfg = ExecConfig::new(2);
/// let sched = Unordered::fifo(&FifoConfig::default(), 2, &cfg.topology);
/// let out = ordo_algos::tc::run(&g, &sched, &cfg).unwrap();
/// assert_eq!(out.triangles, ordo_algos::tc::serial_tc(&g));
/// ```
pub fn run<S: Scheduler<TcTask>>(
    g: &Graph,
    sched: &S,
    cfg: &ExecConfig,
) -> Result<TcOutput, ExecError> {
    run_counting(g, sched, cfg, Counting::Total)
}

/// [`run`], with each node's triangles too where `counting` asks for them.
pub fn run_counting<S: Scheduler<TcTask>>(
    g: &Graph,
    sched: &S,
    cfg: &ExecConfig,
    counting: Counting,
) -> Result<TcOutput, ExecError> {
    let start = std::time::Instant::now();
    let dag = Oriented::new(g);
    let n = g.num_nodes() as u32;
    // Heaviest first: priority = u32::MAX - out-degree.
    let initial = (0..n).filter(|&v| dag.out(v).len() >= 2).map(|v| {
        (
            TcTask { node: v },
            u32::MAX as u64 - dag.out(v).len() as u64,
        )
    });
    let words = g.num_nodes().div_ceil(64);
    let tally = (counting == Counting::PerNode).then(|| Tally::new(g.num_nodes()));
    let mut report = for_each(sched, initial, cfg, |task, ctx| {
        let found = match &tally {
            None => dag.count(words, task.node),
            Some(tally) => dag.count_tallied(words, task.node, tally),
        };
        ctx.count(TRIANGLES, found);
        ctx.count(INTERSECTIONS, dag.out(task.node).len() as u64);
    })?;
    // The orientation is part of the count (GAPBS's time includes its relabelling too).
    report.time = start.elapsed();
    Ok(TcOutput {
        triangles: report.total.app[TRIANGLES],
        intersections: report.total.app[INTERSECTIONS],
        per_node: tally.map(Tally::into_counts),
        report,
    })
}

/// Nodes per chunk of [`run_loop`] (GAPBS's OpenMP loop takes 64 at a time too).
const CHUNK: usize = 64;

/// Whether orienting by degree pays on `g`: a sample of degrees whose mean exceeds 1.3 times
/// its median, a heavy tail whose hubs would otherwise keep long out-lists. This is GAPBS's
/// test for relabelling by degree (`WorthRelabelling`) without its condition of 10 edges per
/// node: the orientation here costs one pass and no relabelling, and pays on sparse social
/// graphs too. The sample is 1000 evenly spaced nodes (every node below 1000).
pub fn skewed(g: &Graph) -> bool {
    let n = g.num_nodes();
    if n == 0 {
        return false;
    }
    let k = n.min(1000);
    let mut sample: Vec<usize> = (0..k).map(|i| g.out_degree((i * n / k) as u32)).collect();
    sample.sort_unstable();
    let mean = sample.iter().sum::<usize>() as f64 / k as f64;
    mean / 1.3 > sample[k / 2] as f64
}

/// Whether [`run_loop`] orients by id: degrees not [`skewed`], and none above `2 sqrt(m)` for
/// m edges (`num_edges`, which counts both arcs of an edge, is 2m), within a small factor of
/// the `sqrt(2m)` that degree ordering gives every out-list (one hub among even degrees would
/// otherwise be scanned from each of its higher neighbours).
pub fn orient_by_id(g: &Graph) -> bool {
    let max_degree = (0..g.num_nodes() as u32)
        .map(|v| g.out_degree(v))
        .max()
        .unwrap_or(0);
    !skewed(g) && (max_degree as f64).powi(2) <= 2.0 * g.num_edges() as f64
}

/// The triangles `w < v < u` of node `u`, edges oriented by id: for each neighbour `v` below
/// `u`, `u`'s neighbours below `v` merged against `v`'s list (GAPBS's `OrderedCount`). On
/// the short lists of even degrees a merge beats marking `u`'s list in a bitmap (three
/// passes); the merge needs no bound check on `v`'s list, which holds `u` above every `w`.
#[inline]
fn count_by_id(g: &Graph, u: u32) -> (u64, u64) {
    let list = g.neighbors(u);
    let (mut found, mut pairs) = (0, 0);
    for (i, &v) in list.iter().enumerate() {
        if v > u {
            break;
        }
        pairs += 1;
        let other = g.neighbors(v);
        let mut at = 0;
        for &w in &list[..i] {
            while other[at] < w {
                at += 1;
            }
            found += (other[at] == w) as u64;
        }
    }
    (found, pairs)
}

/// Parallel triangle count of the undirected simple graph `g` on the frontier executor:
/// chunks of nodes handed out dynamically, each node counted as in [`run`]. Edges go from the
/// higher id to the lower where [`orient_by_id`] allows (no oriented copy to build), else by
/// degree ([`Oriented`]), and then the nodes run in decreasing order of out-degree, the
/// heaviest first as [`run`]'s priorities have it (else the last chunks' hubs hold one thread
/// alone: 1.5x the time on CA-HepPh at 2 threads). The time includes the orientation.
///
/// ```
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_exec::ExecConfig;
/// let g = gen::road_grid(30, 30, 1, &BuildOptions::default()).unwrap();
/// let g = ordo_graph::undirected_simple(&g).unwrap();
/// let out = ordo_algos::tc::run_loop(&g, &ExecConfig::new(2)).unwrap();
/// assert_eq!(out.triangles, ordo_algos::tc::serial_tc(&g));
/// ```
pub fn run_loop(g: &Graph, cfg: &ExecConfig) -> Result<TcOutput, ExecError> {
    run_loop_counting(g, cfg, Counting::Total)
}

/// [`run_loop`], with each node's triangles too where `counting` asks for them (always
/// oriented by degree then: the tallies are added to from the oriented lists).
pub fn run_loop_counting(
    g: &Graph,
    cfg: &ExecConfig,
    counting: Counting,
) -> Result<TcOutput, ExecError> {
    let start = std::time::Instant::now();
    let n = g.num_nodes();
    let words = n.div_ceil(64);
    let tally = (counting == Counting::PerNode).then(|| Tally::new(n));
    let (stats, _) = if tally.is_none() && orient_by_id(g) {
        run_team(cfg, |team| {
            let mut stats = ThreadStats::default();
            team.for_chunks(n, CHUNK, |nodes| {
                for u in nodes {
                    let (found, pairs) = count_by_id(g, u as u32);
                    stats.tasks += 1;
                    stats.app[TRIANGLES] += found;
                    stats.app[INTERSECTIONS] += pairs;
                }
                0
            })?;
            Ok(stats)
        })?
    } else {
        let dag = Oriented::new(g);
        let order = heaviest_first(&dag);
        run_team(cfg, |team| {
            count_oriented(team, &dag, &order, words, tally.as_ref())
        })?
    };
    let report = RunReport::from_threads(start.elapsed(), stats);
    Ok(TcOutput {
        triangles: report.total.app[TRIANGLES],
        intersections: report.total.app[INTERSECTIONS],
        per_node: tally.map(Tally::into_counts),
        report,
    })
}

/// The nodes with at least two out-neighbours in `dag`, in decreasing order of out-degree (a
/// counting sort: out-degrees are at most `sqrt(2m)`).
fn heaviest_first(dag: &Oriented) -> Vec<u32> {
    let n = dag.num_nodes();
    let degree = |v: u32| dag.out(v).len();
    let max = (0..n as u32).map(degree).max().unwrap_or(0);
    // starts[d]: where the nodes of out-degree d begin, the largest degrees first.
    let mut starts = vec![0usize; max + 2];
    for v in 0..n as u32 {
        starts[max - degree(v)] += 1;
    }
    let mut total = 0;
    for s in starts.iter_mut() {
        (*s, total) = (total, total + *s);
    }
    let mut order = vec![0u32; n];
    for v in 0..n as u32 {
        let slot = &mut starts[max - degree(v)];
        order[*slot] = v;
        *slot += 1;
    }
    // Nodes of out-degree 0 and 1 close no triangle.
    let heavy = order.partition_point(|&v| degree(v) >= 2);
    order.truncate(heavy);
    order
}

/// One worker's part of [`run_loop`] on a degree-oriented `dag`: the triangles found from
/// the nodes of `order`, each from its node `u` as a pair `v`, `w` of `u`'s out-neighbours
/// with `w` among `v`'s, added to `tally` where there is one.
fn count_oriented(
    team: &Team,
    dag: &Oriented,
    order: &[u32],
    words: usize,
    tally: Option<&Tally>,
) -> Result<ThreadStats, Stopped> {
    let mut stats = ThreadStats::default();
    team.for_chunks(order.len(), CHUNK, |range| {
        // `order` holds only nodes of two out-neighbours or more.
        for &u in &order[range] {
            stats.tasks += 1;
            stats.app[TRIANGLES] += match tally {
                None => dag.count(words, u),
                Some(tally) => dag.count_tallied(words, u, tally),
            };
            stats.app[INTERSECTIONS] += dag.out(u).len() as u64;
        }
        0
    })?;
    Ok(stats)
}

/// Serial oracle: sorted-list intersection over the same orientation.
pub fn serial_tc(g: &Graph) -> u64 {
    let dag = Oriented::new(g);
    (0..g.num_nodes() as u32).map(|u| closed_at(&dag, u)).sum()
}

/// [`serial_tc`] with the nodes' counts shared by `threads` threads, each taking the next
/// block of [`ORACLE_BLOCK`] nodes: every node's count is the serial loop's, and integer sums
/// do not depend on their order. Run serially, the check of a verified `ordo tc` is most of
/// its wall time (Kronecker 20: a 4.6 s run at 2 threads, a 20 s check). Plain scoped
/// threads, not ordo-exec's team: the check stays independent of the executor the kernels run
/// on (a chunk the team's loop lost would be lost by both).
pub fn serial_tc_split(g: &Graph, threads: usize) -> u64 {
    let dag = Oriented::new(g);
    let n = g.num_nodes();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let count = || {
        let mut sum = 0;
        loop {
            // Relaxed: the counter only hands each block to one thread (its read-modify-write
            // order does); the sums come back through `join`, which synchronizes.
            let start = next.fetch_add(ORACLE_BLOCK, std::sync::atomic::Ordering::Relaxed);
            if start >= n {
                return sum;
            }
            let nodes = start as u32..(start + ORACLE_BLOCK).min(n) as u32;
            sum += nodes.map(|u| closed_at(&dag, u)).sum::<u64>();
        }
    };
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads.max(1)).map(|_| scope.spawn(count)).collect();
        let own = count();
        own + helpers
            .into_iter()
            .map(|h| h.join().expect("an oracle thread does not panic"))
            .sum::<u64>()
    })
}

/// Nodes [`serial_tc_split`]'s threads take at a time (a Kronecker graph's hubs make some
/// nodes far costlier than others, so blocks are small).
const ORACLE_BLOCK: usize = 1024;

/// The triangles whose first node in the orientation is `u`.
fn closed_at(dag: &Oriented, u: u32) -> u64 {
    let out = dag.out(u);
    out.iter().map(|&v| intersect(out, dag.out(v))).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_orientations_count_every_triangle_once() {
        use ordo_graph::{gen, BuildOptions};
        let opts = BuildOptions::default();
        let graphs = [
            gen::road_grid(20, 15, 1, &opts).unwrap(),
            gen::uniform_random(300, 6000, 2, &opts).unwrap(),
            gen::kronecker(10, 16, 3, &opts).unwrap(),
        ];
        for g in &graphs {
            let g = ordo_graph::undirected_simple(g).unwrap();
            let want = serial_tc(&g);
            for threads in [1, 2, 3, 8] {
                assert_eq!(
                    serial_tc_split(&g, threads),
                    want,
                    "{threads} oracle threads"
                );
                let out = run_loop(&g, &ExecConfig::new(threads)).unwrap();
                assert_eq!(out.triangles, want, "{threads} threads");
            }
        }
        // The Kronecker graph's degrees are skewed, the grid's and the uniform graph's not.
        let by_id: Vec<bool> = graphs
            .iter()
            .map(|g| orient_by_id(&ordo_graph::undirected_simple(g).unwrap()))
            .collect();
        assert_eq!(by_id, [true, true, false]);
        // A hub joined to every node of a 20 x 20 grid: even degrees (5, the hub aside), so
        // not skewed, but oriented by degree for the hub's sake. Each grid edge closes one
        // triangle with the hub.
        let at = |r: u32, c: u32| r * 20 + c;
        let mut arcs: Vec<(u32, u32, u32)> = (0..400).map(|v| (400, v, 1)).collect();
        for r in 0..20 {
            for c in 0..20 {
                if c + 1 < 20 {
                    arcs.push((at(r, c), at(r, c + 1), 1));
                }
                if r + 1 < 20 {
                    arcs.push((at(r, c), at(r + 1, c), 1));
                }
            }
        }
        let hub = crate::test_graphs::weighted(401, &arcs);
        let hub = ordo_graph::undirected_simple(&hub).unwrap();
        assert!(!skewed(&hub) && !orient_by_id(&hub));
        assert_eq!(serial_tc(&hub), 760);
        assert_eq!(run_loop(&hub, &ExecConfig::new(2)).unwrap().triangles, 760);
    }

    #[test]
    fn intersections() {
        assert_eq!(intersect(&[1, 3, 5, 7], &[2, 3, 7, 9]), 2);
        assert_eq!(intersect(&[], &[1]), 0);
    }
}
