//! Delta-stepping (Meyer & Sanders, J. Algorithms 2003) on the frontier executor, with
//! per-worker bins and bucket fusion (Zhang et al., "Optimizing Ordered Graph Algorithms with
//! GraphIt", CGO 2020), as GAPBS runs it.
//!
//! Distances fall in buckets of `2^shift` units. Each round relaxes the entries of the lowest
//! non-empty bucket, which every worker has published from its own bins; a relaxation that
//! lowers a label files a `(node, distance)` entry in the relaxing worker's bin of the new
//! distance's bucket. A worker then keeps relaxing its own bin of the current bucket while that
//! holds fewer than [`FUSION_LIMIT`] entries (bucket fusion: a thin front, as on a road graph,
//! runs through many relaxations per round instead of one round per hop). The team agrees on
//! the next bucket with one minimum, each worker publishes its bin of it, and a barrier starts
//! the next round: two collectives per round.
//!
//! Where it departs from GAPBS:
//! * Entries carry their distance, so a node lowered twice while it waits is relaxed once: the
//!   older entry is stale, and one load skips it (GAPBS stores bare ids and relaxes a node
//!   once per entry).
//! * A worker publishes its bin where the others read it in place; GAPBS copies every bin into
//!   one shared array as long as the edge list.
//! * A worker that holds every entry of the ring after a round (the others' bins are empty)
//!   runs ahead alone from bucket to bucket while the others wait in the next collective,
//!   until a bucket is large enough to share ([`run_ahead`]). A thin front (a path, a road
//!   graph's sparse stretches) then costs no rounds: GAPBS runs one round per bucket there
//!   (a 10^7-node path at 2 threads: 8M rounds, 3.7 s against 0.24 s).
//! * Bins are a ring of [`RING`] buckets starting at a window start, with one overflow list for
//!   the buckets past it, refilled when the ring runs dry. Memory follows the live entries, and
//!   an empty bucket costs a look at an empty vector, whatever the distances and the shift
//!   (GAPBS keeps a vector per bucket up to the largest distance / delta).
//!
//! **A\*** runs on the same engine ([`crate::astar::run_buckets`]): an entry's bucket is its
//! distance plus the estimate, and entries and relaxations whose key reaches the target's
//! distance are dropped; a worker whose first bucket cannot improve that distance empties its
//! bins (keys only grow along them) and offers no bucket, so the search ends when no worker
//! has a useful one.
//!
//! Complexity: O(m) relaxations per bucket round in the worst case; on graphs with random
//! weights, about the O(n + m + buckets x max degree) of delta-stepping. Output: the same
//! distances as [`dijkstra`](super::dijkstra).

use super::published::Published;
use super::{SsspOutput, SsspStats};
use crate::distance::{fits_in_u32, DistLabel};
use ordo_exec::{run_team, ExecConfig, ExecError, RunReport, Stopped, Team, ThreadStats};
use ordo_graph::Graph;
use std::ops::{Deref, Range};
use std::sync::atomic::{AtomicU32, AtomicU64};

/// A worker keeps relaxing its own bin of the current bucket while it holds fewer entries than
/// this (GAPBS's `kBinSizeThreshold`); a larger bin is shared through the next round.
pub const FUSION_LIMIT: usize = 1000;
/// Buckets a worker's ring of bins spans (a power of two). A relaxation from bucket b lands at
/// most `max weight >> shift` buckets later, which is within the ring for every shift the
/// default rule picks; entries past it wait in the overflow list.
pub const RING: usize = 1024;
/// Entries per chunk of a round (GAPBS: 64), fewer in a round too small to give every worker
/// one (`Team::chunk_for`).
const CHUNK: usize = 64;

/// "Node `node` was reached at distance `dist`", 8 bytes with 32-bit labels. `dist` first,
/// as in [`SsspTask`](super::SsspTask): with 64-bit labels each field then reads back from
/// one store of a copy.
#[derive(Clone, Copy)]
#[repr(C, packed(4))]
struct Entry<W> {
    dist: W,
    node: u32,
}

struct Shared<'g, D: DistLabel, E> {
    // The graph's arrays, taken once: its accessors cost a branch each, per task.
    offsets: &'g [u64],
    targets: &'g [u32],
    weights: Option<&'g [u32]>,
    dist: Vec<D>,
    shift: u32,
    /// Added to a distance to make an entry's key (A*'s estimate; nothing for SSSP).
    estimate: &'g E,
    /// A*'s target: entries whose key reaches its distance are dropped.
    target: Option<u32>,
    /// Each worker's bin of the current bucket, read by all during a round and replaced by its
    /// owner between rounds (the protocol in `published.rs`).
    published: Published<Entry<D::Word>>,
}

/// What orders the buckets beside the distance: A*'s estimate of the distance left.
pub(crate) trait Estimate: Sync {
    /// Whether the search has a target whose distance prunes keys (A*). Without one, the
    /// per-arc `useful` test and the per-entry target test compile away.
    const TARGETED: bool;
    fn estimate(&self, v: u32) -> u64;
}

/// SSSP's: nothing, so an entry's key is its distance.
pub(crate) struct NoEstimate;

impl Estimate for NoEstimate {
    const TARGETED: bool = false;
    #[inline(always)]
    fn estimate(&self, _: u32) -> u64 {
        0
    }
}

impl<D: DistLabel, E: Estimate> Shared<'_, D, E> {
    /// The key whose bucket an entry of `v` at distance `d` goes to.
    #[inline(always)]
    fn key(&self, v: u32, d: u64) -> u64 {
        d.saturating_add(self.estimate.estimate(v))
    }

    /// Whether an entry of this key may still shorten the answer: always for SSSP; for A*,
    /// while it is below the best distance to the target found so far (the estimate never
    /// overestimates, so no path through it can do better otherwise).
    #[inline(always)]
    fn useful(&self, key: u64) -> bool {
        !E::TARGETED
            || self
                .target
                .is_none_or(|t| key < self.dist[t as usize].get())
    }
}

#[derive(Default)]
struct Counts {
    stats: ThreadStats,
    stale: u64,
    /// A*: entries dropped because their key reached the target's distance.
    pruned: u64,
    improved: u64,
    edges: u64,
    rounds: u64,
}

/// One worker's bins: a ring of [`RING`] buckets ending before `limit`, and the overflow.
struct Bins<W> {
    /// A fixed-size array: `bucket % RING` indexes it without a bounds check.
    ring: Box<[Vec<Entry<W>>; RING]>,
    /// Entries in the ring, so an empty ring is seen without a scan.
    in_ring: usize,
    /// Buckets from `limit` on go to `overflow`. The same on every worker: the ring holds the
    /// buckets `limit - RING .. limit`, each in slot `bucket % RING`.
    limit: u64,
    /// Entries past the ring, with their keys.
    overflow: Vec<(Entry<W>, u64)>,
    shift: u32,
}

impl<W: Copy + Into<u64>> Bins<W> {
    fn new(shift: u32) -> Self {
        Bins {
            ring: Box::new(std::array::from_fn(|_| Vec::new())),
            in_ring: 0,
            limit: RING as u64,
            overflow: Vec::new(),
            shift,
        }
    }

    /// Files `e`, whose key is `key`.
    #[inline(always)]
    fn push(&mut self, e: Entry<W>, key: u64) {
        let b = key >> self.shift;
        if b < self.limit {
            self.ring[b as usize % RING].push(e);
            self.in_ring += 1;
        } else {
            self.overflow.push((e, key));
        }
    }

    /// Drops every entry (A*: none can improve the answer any more).
    fn clear(&mut self) {
        self.ring.iter_mut().for_each(Vec::clear);
        self.in_ring = 0;
        self.overflow.clear();
    }

    fn len_of(&self, b: u64) -> usize {
        self.ring[b as usize % RING].len()
    }

    /// The first non-empty bucket of the ring from `cur` on (no entry is below the current
    /// bucket), or `u64::MAX`.
    fn first_from(&self, cur: u64) -> u64 {
        if self.in_ring == 0 {
            return u64::MAX;
        }
        (cur..self.limit)
            .find(|&b| self.len_of(b) > 0)
            .unwrap_or(u64::MAX)
    }

    /// Bucket `b`'s entries; `spare` (empty) takes its place.
    fn take(&mut self, b: u64, spare: Vec<Entry<W>>) -> Vec<Entry<W>> {
        debug_assert!(spare.is_empty());
        let taken = std::mem::replace(&mut self.ring[b as usize % RING], spare);
        self.in_ring -= taken.len();
        taken
    }

    /// Drops the overflow's entries that are `stale` or whose key is not `useful`, and
    /// returns the lowest bucket of the rest, or `u64::MAX`.
    fn overflow_min(
        &mut self,
        stale: impl Fn(Entry<W>) -> bool,
        useful: impl Fn(u64) -> bool,
    ) -> u64 {
        self.overflow.retain(|&(e, key)| !stale(e) && useful(key));
        let shift = self.shift;
        let bucket = |&(_, key): &(Entry<W>, u64)| key >> shift;
        self.overflow.iter().map(bucket).min().unwrap_or(u64::MAX)
    }

    /// Moves the ring's window to start at bucket `start` (the ring is empty) and files the
    /// overflow's entries that now fall in it.
    fn refill(&mut self, start: u64) {
        debug_assert_eq!(self.in_ring, 0);
        self.limit = start.saturating_add(RING as u64);
        let overflow = std::mem::take(&mut self.overflow);
        for (e, key) in overflow {
            self.push(e, key);
        }
    }
}

/// SSSP from `source` by delta-stepping with buckets of `2^shift` distance units.
///
/// ```
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_exec::ExecConfig;
/// use ordo_algos::sssp;
/// let g = gen::road_grid(30, 30, 1, &BuildOptions::default()).unwrap();
/// let out = sssp::delta_step::run(&g, 0, 6, &ExecConfig::new(2)).unwrap();
/// assert_eq!(out.dist, sssp::dijkstra(&g, 0));
/// ```
pub fn run(g: &Graph, source: u32, shift: u32, cfg: &ExecConfig) -> Result<SsspOutput, ExecError> {
    assert!((source as usize) < g.num_nodes(), "source out of range");
    if fits_in_u32(g) {
        run_with::<AtomicU32>(g, source, shift, cfg)
    } else {
        run_with::<AtomicU64>(g, source, shift, cfg)
    }
}

fn run_with<D: DistLabel>(
    g: &Graph,
    source: u32,
    shift: u32,
    cfg: &ExecConfig,
) -> Result<SsspOutput, ExecError> {
    let run = engine::<D, _>(g, source, None, &NoEstimate, shift, cfg)?;
    let stats = SsspStats {
        stale_tasks: run.sum(|c| c.stale),
        improving_relaxations: run.sum(|c| c.improved),
        edges_scanned: run.sum(|c| c.edges),
        good_tasks: None,
        rounds: run.counts[0].rounds,
        delta: Some(shift.min(63)),
    };
    Ok(SsspOutput {
        dist: run.dist.into_iter().map(D::into_u64).collect(),
        report: run.report,
        stats,
    })
}

/// A finished search: the labels and each worker's counts.
pub(crate) struct Searched<D> {
    pub dist: Vec<D>,
    counts: Vec<Counts>,
    pub report: RunReport,
}

impl<D> Searched<D> {
    fn sum(&self, f: fn(&Counts) -> u64) -> u64 {
        self.counts.iter().map(f).sum()
    }

    /// A*'s figures: entries expanded, stale, pruned.
    pub fn astar_counts(&self) -> (u64, u64, u64) {
        let stale = self.sum(|c| c.stale);
        let pruned = self.sum(|c| c.pruned);
        (self.report.total.tasks - stale - pruned, stale, pruned)
    }
}

/// The search from `source`, ordered by distance plus `estimate`, stopping early for a
/// `target` (A*) or running to the end (SSSP).
pub(crate) fn engine<D: DistLabel, E: Estimate>(
    g: &Graph,
    source: u32,
    target: Option<u32>,
    estimate: &E,
    shift: u32,
    cfg: &ExecConfig,
) -> Result<Searched<D>, ExecError> {
    let workers = cfg.threads.max(1);
    let dist: Vec<D> = (0..g.num_nodes()).map(|_| D::unreached()).collect();
    dist[source as usize].set(0);
    let start = Entry {
        node: source,
        dist: D::narrow(0),
    };
    let s = Shared {
        offsets: g.offsets(),
        targets: g.targets(),
        weights: g.weights(),
        dist,
        shift: shift.min(63),
        estimate,
        target,
        published: Published::new(workers, vec![start]),
    };
    let (counts, time) = run_team(cfg, |team| match team.workers() {
        1 => search_alone(&s, team),
        _ => search::<D, E, true>(&s, team),
    })?;
    let report = RunReport::from_threads(time, counts.iter().map(|c| c.stats).collect());
    Ok(Searched {
        dist: s.dist,
        counts,
        report,
    })
}

/// One worker's part of the search (the SPMD body) with others beside it. `SHARED`: other
/// workers lower labels too (always, here; the parameter keeps the relaxation code one).
fn search<D: DistLabel, E: Estimate, const SHARED: bool>(
    s: &Shared<D, E>,
    team: &Team,
) -> Result<Counts, Stopped> {
    let mut bins = Bins::new(s.shift);
    let mut c = Counts::default();
    let mut spare = Vec::new();
    // The published bins during a round (one vector for the whole run).
    let mut frontier = Vec::with_capacity(s.published.workers());
    // Every worker's bin of bucket `cur` is in `published`.
    let mut cur = 0u64;
    loop {
        c.rounds += 1;
        // SAFETY: after the barrier that starts the round (the first round: the team's start,
        // after the source's entry was written); the references are dropped (the `clear`
        // below) before the collective that ends it (published.rs).
        frontier.extend((0..s.published.workers()).map(|w| unsafe { s.published.bin(w) }));
        let total = frontier.iter().map(|p| p.len()).sum();
        let relaxed = team.for_chunks_nowait(total, team.chunk_for(total, CHUNK), |r| {
            for_each_in(&frontier, r, |e| {
                relax::<D, E, SHARED>(s, e, &mut bins, &mut c)
            })
        });
        c.stats.tasks += relaxed;
        frontier.clear();
        // Bucket fusion: a small bin of the current bucket goes on here, without a round.
        while (1..FUSION_LIMIT).contains(&bins.len_of(cur)) {
            relax_bin::<D, E, SHARED>(s, cur, &mut bins, &mut spare, &mut c);
        }
        let first = first_useful(s, &mut bins, cur);
        let (mut next, holders) = team.min_and_holders(first)?;
        if holders == 1 && next != u64::MAX {
            // This worker or another holds all of the ring's work: it runs ahead alone while
            // the rest wait in the next collective.
            if first == next {
                cur = run_ahead::<D, E>(s, team, &mut bins, &mut spare, &mut c, next);
            }
            next = team.min(first_useful(s, &mut bins, cur))?;
        }
        if next == u64::MAX {
            // Every ring is empty: the overflow's lowest bucket starts the next window.
            next = team.min(overflow_min(s, &mut bins))?;
            if next == u64::MAX {
                return Ok(c);
            }
            bins.refill(next);
        }
        let mine = bins.take(next, std::mem::take(&mut spare));
        // SAFETY: this worker's own bin, after the collectives that end the round (every
        // worker cleared its `frontier` before them) and before the barrier below.
        spare = unsafe { s.published.replace(team.worker(), mine) };
        spare.clear();
        team.barrier()?;
        cur = next;
    }
}

/// The search with one worker: the same bins and relaxations, without publishing a bucket or
/// agreeing on the next one, which would cost more than the bucket's work where buckets hold a
/// node or two (a long path, 10^7 buckets: 0.76 s with rounds, about a fifth of that without).
/// A barrier every [`ALONE_CHECK`] buckets lets a Ctrl-C through.
fn search_alone<D: DistLabel, E: Estimate>(
    s: &Shared<D, E>,
    team: &Team,
) -> Result<Counts, Stopped> {
    let mut bins = Bins::new(s.shift);
    let mut c = Counts::default();
    // SAFETY: the only worker.
    for &e in unsafe { s.published.bin(0) }.iter() {
        bins.push(e, s.key(e.node, e.dist.into()));
    }
    let mut spare = Vec::new();
    let mut cur = 0u64;
    loop {
        cur = match first_useful(s, &mut bins, cur) {
            u64::MAX => {
                let start = overflow_min(s, &mut bins);
                if start == u64::MAX {
                    return Ok(c);
                }
                bins.refill(start);
                start
            }
            b => b,
        };
        c.rounds += 1;
        if c.rounds % ALONE_CHECK == 0 {
            team.barrier()?;
        }
        while bins.len_of(cur) > 0 {
            relax_bin::<D, E, false>(s, cur, &mut bins, &mut spare, &mut c);
        }
    }
}

/// Relaxes this worker's buckets in order from `cur` on, alone, while the others wait in the
/// next collective: after a round, this worker holds every entry of the ring. Where the front
/// is a node or two (a path, a road graph's thin stretches) a round per bucket would cost two
/// collectives per node (a 10^7-node path: 8M rounds, 3.7 s at 2 threads against 0.17 s for
/// one worker). Stops at the first bucket whose bin holds enough entries to pay for a round
/// ([`RUN_AHEAD_LIMIT`], [`Team::shared_from`]: the next round shares it), when the ring
/// is empty (the overflow is refilled by the team, whose windows must agree), or when a Ctrl-C
/// is asked for. Returns the bucket it stopped at.
///
/// Labels are lowered without read-modify-writes, as in [`search_alone`]: no other worker
/// touches them before the collective that ends this, which publishes them.
fn run_ahead<D: DistLabel, E: Estimate>(
    s: &Shared<D, E>,
    team: &Team,
    bins: &mut Bins<D::Word>,
    spare: &mut Vec<Entry<D::Word>>,
    c: &mut Counts,
    mut cur: u64,
) -> u64 {
    let share = team.shared_from(RUN_AHEAD_LIMIT);
    let mut buckets = 0u64;
    loop {
        let first = first_useful(s, bins, cur);
        if first == u64::MAX {
            return cur;
        }
        cur = first;
        buckets += 1;
        if bins.len_of(cur) >= share
            || (buckets.is_multiple_of(ALONE_CHECK) && team.cancel_requested())
        {
            return cur;
        }
        while (1..share).contains(&bins.len_of(cur)) {
            relax_bin::<D, E, false>(s, cur, bins, spare, c);
        }
    }
}

/// Entries a worker in a bucket that ends [`run_ahead`] ([`Team::shared_from`]: 64 entries
/// at 2 workers, 128 from 4 on). An entry is a relaxation of a node's arcs, so sharing pays
/// from fewer of them than of BFS's nodes: on a 16-core Xeon the sweep's best for road graphs
/// and a grid was 8 entries a worker at 16 workers and 16 at 8 (NY at 16: 3.6 ms against 6.1
/// with 64 a worker).
const RUN_AHEAD_LIMIT: usize = 32;

/// Buckets between two looks at the cancel flag in [`search_alone`] and [`run_ahead`].
const ALONE_CHECK: u64 = 4096;

/// This worker's first bucket from `cur` on, or `u64::MAX` if it has none or (A*) none that
/// can still improve the answer: keys only grow along the ring and into the overflow, so if
/// the first bucket's smallest key cannot, none can, and the bins are emptied.
fn first_useful<D: DistLabel, E: Estimate>(
    s: &Shared<D, E>,
    bins: &mut Bins<D::Word>,
    cur: u64,
) -> u64 {
    let first = bins.first_from(cur);
    // `first << shift` is at most the key that put an entry in that bucket: no overflow.
    if first != u64::MAX && !s.useful(first << s.shift) {
        bins.clear();
        return u64::MAX;
    }
    first
}

/// The overflow's lowest bucket after dropping its stale and useless entries.
fn overflow_min<D: DistLabel, E: Estimate>(s: &Shared<D, E>, bins: &mut Bins<D::Word>) -> u64 {
    bins.overflow_min(
        |e| s.dist[e.node as usize].below(e.dist.into()),
        |key| s.useful(key),
    )
}

/// Calls `f` on the entries `r` of the concatenation of `parts`; returns how many. A round's
/// frontier is every worker's bin read in place, so no worker concatenates them.
pub fn for_each_in<T: Copy, P: Deref<Target = Vec<T>>>(
    parts: &[P],
    r: Range<usize>,
    mut f: impl FnMut(T),
) -> u64 {
    let count = r.len() as u64;
    let (mut skip, mut left) = (r.start, r.len());
    for part in parts {
        if skip >= part.len() {
            skip -= part.len();
            continue;
        }
        let here = &part[skip..part.len().min(skip + left)];
        here.iter().for_each(|&e| f(e));
        left -= here.len();
        if left == 0 {
            break;
        }
        skip = 0;
    }
    count
}

/// Takes this worker's bin of bucket `b` (leaving `spare` in its place) and relaxes its
/// entries, which may refill the bin; the emptied vector becomes the new `spare`.
fn relax_bin<D: DistLabel, E: Estimate, const SHARED: bool>(
    s: &Shared<D, E>,
    b: u64,
    bins: &mut Bins<D::Word>,
    spare: &mut Vec<Entry<D::Word>>,
    c: &mut Counts,
) {
    let batch = bins.take(b, std::mem::take(spare));
    c.stats.tasks += batch.len() as u64;
    for &e in &batch {
        relax::<D, E, SHARED>(s, e, bins, c);
    }
    *spare = batch;
    spare.clear();
}

/// Relaxes the out-arcs of the node of `e` unless a shorter distance has reached it since.
#[inline(always)]
fn relax<D: DistLabel, E: Estimate, const SHARED: bool>(
    s: &Shared<D, E>,
    e: Entry<D::Word>,
    bins: &mut Bins<D::Word>,
    c: &mut Counts,
) {
    let (u, d) = (e.node as usize, e.dist.into());
    // SAFETY (the `get_unchecked`s of this function): `u` is a node (an entry's node is the
    // source or an arc's target, and the graph's constructor checks targets against n), so
    // `u + 1` indexes the n + 1 offsets, which are non-decreasing up to the arc count, the
    // length of targets and weights.
    if unsafe { s.dist.get_unchecked(u) }.below(d) {
        c.stale += 1;
        return;
    }
    // A*: the target is not expanded, and nothing whose key reaches its distance is.
    if E::TARGETED && (s.target == Some(e.node) || !s.useful(s.key(e.node, d))) {
        c.pruned += 1;
        return;
    }
    let (lo, hi) = unsafe { (*s.offsets.get_unchecked(u), *s.offsets.get_unchecked(u + 1)) };
    let (lo, hi) = (lo as usize, hi as usize);
    c.edges += (hi - lo) as u64;
    let targets = unsafe { s.targets.get_unchecked(lo..hi) };
    match s.weights {
        Some(ws) => {
            let ws = unsafe { ws.get_unchecked(lo..hi) };
            for (i, &t) in targets.iter().enumerate() {
                // SAFETY: `ws` is as long as `targets`.
                let w = unsafe { *ws.get_unchecked(i) };
                relax_arc::<D, E, SHARED>(s, t, d + w as u64, bins, c);
            }
        }
        None => {
            for &t in targets {
                relax_arc::<D, E, SHARED>(s, t, d + 1, bins, c);
            }
        }
    }
}

#[inline(always)]
fn relax_arc<D: DistLabel, E: Estimate, const SHARED: bool>(
    s: &Shared<D, E>,
    t: u32,
    nd: u64,
    bins: &mut Bins<D::Word>,
    c: &mut Counts,
) {
    let key = s.key(t, nd);
    if !s.useful(key) {
        return;
    }
    // SAFETY: `t` is an arc's target, below n (checked when the graph was built).
    if unsafe { s.dist.get_unchecked(t as usize) }.lower_in::<SHARED>(nd) {
        c.improved += 1;
        let e = Entry {
            node: t,
            dist: D::narrow(nd),
        };
        bins.push(e, key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sssp::dijkstra;
    use crate::test_graphs::weighted as graph;

    #[test]
    fn distances_past_the_ring_go_through_the_overflow() {
        // Shift 0 and weights of 5000 and 3000: every hop jumps past the 1024-bucket ring, and
        // the cheaper two-hop path to node 3 must still win.
        let g = graph(
            5,
            &[
                (0, 1, 5000),
                (1, 2, 3000),
                (0, 3, 9000),
                (2, 3, 1),
                (3, 4, 1),
            ],
        );
        for workers in [1, 2, 5] {
            let out = run(&g, 0, 0, &ExecConfig::new(workers)).unwrap();
            assert_eq!(out.dist, dijkstra(&g, 0));
            assert_eq!(out.dist[3], 8001);
        }
    }

    #[test]
    fn stale_entries_are_skipped_not_relaxed() {
        // Node 2 is lowered twice in the first bucket (via 0 and via 1); with shift 20 all of it
        // is one bucket, relaxed in order by one worker: its stale entry scans no edges.
        let g = graph(4, &[(0, 2, 10), (0, 1, 1), (1, 2, 1), (2, 3, 1)]);
        let out = run(&g, 0, 20, &ExecConfig::new(1)).unwrap();
        assert_eq!(out.dist, vec![0, 1, 2, 3]);
        assert_eq!(out.stats.stale_tasks, 1);
        assert_eq!(out.stats.edges_scanned, 4);
    }

    #[test]
    fn a_lone_front_runs_ahead_without_rounds() {
        // A path whose every bucket holds one node: without running ahead, each is a round.
        let n = 5000;
        let arcs: Vec<(u32, u32, u32)> = (0..n - 1).map(|i| (i, i + 1, 3)).collect();
        let g = graph(n, &arcs);
        for workers in [2, 3, 8] {
            let out = run(&g, 0, 2, &ExecConfig::new(workers)).unwrap();
            assert_eq!(out.dist, dijkstra(&g, 0));
            // 1024 buckets of 4 units per window, 15000 units: a few windows.
            assert!(out.stats.rounds <= 10, "{} rounds", out.stats.rounds);
        }
        // Two paths from the source: two holders, so rounds go on (and stay correct).
        let mut arcs: Vec<(u32, u32, u32)> = (1..n / 2 - 1).map(|i| (i, i + 1, 3)).collect();
        arcs.extend((n / 2..n - 1).map(|i| (i, i + 1, 3)));
        arcs.extend([(0, 1, 1), (0, n / 2, 1)]);
        let g = graph(n, &arcs);
        for workers in [2, 8] {
            let out = run(&g, 0, 2, &ExecConfig::new(workers)).unwrap();
            assert_eq!(out.dist, dijkstra(&g, 0));
        }
    }

    #[test]
    fn the_largest_shift_is_one_bucket() {
        let g = graph(3, &[(0, 1, u32::MAX), (1, 2, u32::MAX)]);
        let out = run(&g, 0, 63, &ExecConfig::new(2)).unwrap();
        assert_eq!(out.dist, dijkstra(&g, 0));
    }
}
