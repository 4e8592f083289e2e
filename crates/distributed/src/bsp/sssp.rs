//! Delta-stepping (Meyer & Sanders, J. Algorithms 2003) across ranks, in rounds synchronized
//! by bucket, with per-worker bins and bucket fusion as `ordo sssp`'s default
//! (`ordo_algos::sssp::delta_step`, after GAPBS).
//!
//! Every rank's workers keep their own bins of `(node, distance)` entries, one bucket per
//! `2^width` distance units, in a ring of [`RING`] buckets with an overflow list past it. A
//! round starts with the ranks agreeing on the lowest non-empty bucket anywhere (a minimum
//! over workers, then over ranks); each worker hands over its bin of that bucket, and the
//! team relaxes them in chunks, reading every bin in place (no worker concatenates them: a
//! round costs two team collectives at one rank, the minimum and a barrier). A relaxation
//! that lowers an owned node's label files an entry in the relaxing worker's bin; one for a
//! remote node goes into the worker's outbox for its owner, unless a distance as small was
//! sent to that node before (the smallest sent to each remote target is kept). A worker then
//! keeps relaxing its own bin of the current bucket while it holds fewer than `FUSION_LIMIT`
//! entries (bucket fusion). At several ranks the round ends with one exchange of the
//! outboxes; the arrivals are applied with an atomic minimum and filed in worker 0's bins.
//! Entries carry their distance, so a node lowered twice while it waits is relaxed once.
//!
//! A relaxation from bucket `b` lands in bucket `b` or later, here or on another rank, so
//! once no rank has an entry below some bucket none will: the agreed minimum only grows, and
//! the run ends when it finds every bin empty right after an exchange.

use super::ghosts::GhostIds;
use super::{lock, read_parts, write, Funnel};
use crate::graph::LocalGraph;
use crate::net::{DistError, DistResult, Net};
use crate::partition::{Everything, Locate, Locator};
use crate::runtime::Ran;
use ordo_algos::distance::{heaviest_arcs_bound, DistLabel};
use ordo_algos::sssp::delta_step::{for_each_in, FUSION_LIMIT};
use ordo_exec::{run_team, ExecConfig, RunReport, Stopped, Team, ThreadStats};
use std::sync::atomic::{AtomicU32, AtomicU64};
use std::sync::{Mutex, RwLock};
use std::time::{Duration, Instant};

/// Buckets a worker's ring of bins spans: ordo's.
const RING: u64 = ordo_algos::sssp::delta_step::RING as u64;
/// Entries per chunk of a round.
const CHUNK: usize = 64;
/// No bucket: every bin is empty.
const NONE: u64 = u64::MAX;

pub struct DeltaRun {
    /// The owned nodes' distances (`u64::MAX` where none).
    pub dist: Vec<u64>,
    /// Rounds (bucket steps agreed over the ranks).
    pub rounds: u64,
    /// Relaxations that lowered a label.
    pub improving: u64,
    /// Arcs relaxed.
    pub scanned: u64,
    /// Entries skipped because their node had been lowered again since.
    pub stale: u64,
    /// Remote relaxations not sent: one as good had been sent to that node.
    pub unsent: u64,
    /// Setup before the run (the remote targets' numbering).
    pub prep: Duration,
    pub ran: Ran,
}

/// `(node, distance)`, the distance as the label's word: 8 bytes with 32-bit labels.
type Entry<W> = (u32, W);

/// One worker's bins: a ring of buckets from `low`, and those past the ring.
struct Bins<W> {
    ring: Vec<Vec<Entry<W>>>,
    low: u64,
    overflow: Vec<Entry<W>>,
    /// Bins emptied by a round, kept for their capacity (at most [`SPARE_BINS`]): a bucket's
    /// first entry takes one, where a vector growing from nothing spent a quarter of a road
    /// graph's instructions in `realloc`. Empty slots hold no capacity, so what a run keeps
    /// is what its live buckets hold plus these.
    spare: Vec<Vec<Entry<W>>>,
}

/// Emptied bins a worker keeps for reuse.
const SPARE_BINS: usize = 4;

impl<W: Copy + Into<u64>> Bins<W> {
    fn new() -> Bins<W> {
        Bins {
            ring: (0..RING).map(|_| Vec::new()).collect(),
            low: 0,
            overflow: Vec::new(),
            spare: Vec::new(),
        }
    }

    /// Keeps `bin`'s capacity for a later bucket, unless enough are kept already.
    fn recycle(&mut self, mut bin: Vec<Entry<W>>) {
        if bin.capacity() > 0 && self.spare.len() < SPARE_BINS {
            bin.clear();
            self.spare.push(bin);
        }
    }

    #[inline]
    fn file(&mut self, bucket: u64, e: Entry<W>) {
        if bucket < self.low + RING {
            let bin = &mut self.ring[(bucket % RING) as usize];
            if bin.capacity() == 0 {
                if let Some(spare) = self.spare.pop() {
                    *bin = spare;
                }
            }
            bin.push(e);
        } else {
            self.overflow.push(e);
        }
    }

    /// The lowest bucket with an entry, given that none is below `from` (an agreed bucket:
    /// no rank files below it any more). When the ring has none and the overflow list's
    /// lowest is within a ring's span of `from`, the ring moves to start at `from` and takes
    /// the overflow entries that fit: the ring is empty then, so no slot changes meaning,
    /// and `low` stays at or below every bucket still to come.
    fn lowest(&mut self, from: u64, width: u32) -> u64 {
        for b in from.max(self.low)..self.low + RING {
            if !self.ring[(b % RING) as usize].is_empty() {
                return b;
            }
        }
        let Some(first) = self.overflow.iter().map(|e| e.1.into() >> width).min() else {
            return NONE;
        };
        if first < from + RING {
            self.low = from;
            let rest = std::mem::take(&mut self.overflow);
            for e in rest {
                self.file(e.1.into() >> width, e);
            }
        }
        first
    }

    /// Takes the entries of `bucket`, the agreed lowest.
    fn take(&mut self, bucket: u64, width: u32) -> Vec<Entry<W>> {
        if self.lowest(bucket, width) != bucket {
            return Vec::new();
        }
        std::mem::take(&mut self.ring[(bucket % RING) as usize])
    }
}

/// What one worker did.
#[derive(Default, Clone, Copy)]
struct Counts {
    stats: ThreadStats,
    rounds: u64,
    improving: u64,
    scanned: u64,
    stale: u64,
    unsent: u64,
}

struct State<'a, D: DistLabel> {
    g: &'a LocalGraph,
    weights: &'a [u32],
    locator: Locator,
    width: u32,
    dist: Vec<D>,
    bins: Vec<Mutex<Bins<D::Word>>>,
    /// Per worker: entries for other ranks' nodes, as (node, distance) pairs by owner.
    outbox: Vec<Mutex<Vec<Vec<u64>>>>,
    /// The remote targets of this rank's arcs, and the smallest distance sent to each: a
    /// relaxation no better than one already sent is not sent again.
    remote: GhostIds,
    sent: Vec<D>,
    /// Per worker: its bin of the round's bucket, handed over; the round's frontier is
    /// their concatenation, read in place.
    handed: Vec<RwLock<Vec<Entry<D::Word>>>>,
}

/// Distances from `source` (a global id) over all ranks (a collective), with buckets of
/// `2^width` units.
///
/// Labels are 32-bit when every shortest path is shorter than `u32::MAX`, as in
/// `ordo_algos::distance::fits_in_u32`: the sum over all nodes of each one's heaviest
/// out-arc bounds a simple path (summed over the ranks).
pub fn run(
    net: &Net,
    g: &LocalGraph,
    source: u32,
    width: u32,
    exec: &ExecConfig,
) -> DistResult<DeltaRun> {
    let weights = g
        .weights
        .as_deref()
        .ok_or_else(|| DistError::Failed("sssp needs arc weights".into()))?;
    let heaviest = heaviest_arcs_bound(&g.offsets, weights);
    let [bound] = net.sum_u64s([heaviest]);
    if bound < u32::MAX as u64 {
        run_with::<AtomicU32>(net, g, weights, source, width, exec)
    } else {
        run_with::<AtomicU64>(net, g, weights, source, width, exec)
    }
}

fn run_with<D: DistLabel>(
    net: &Net,
    g: &LocalGraph,
    weights: &[u32],
    source: u32,
    width: u32,
    exec: &ExecConfig,
) -> DistResult<DeltaRun> {
    let workers = exec.threads.max(1);
    let started = Instant::now();
    let locator = g.part.locator(net.rank);
    let remote = if net.size == 1 {
        GhostIds::new(0, std::iter::empty())
    } else {
        let targets = g.targets.iter().copied();
        GhostIds::new(
            g.num_nodes(),
            targets.filter(|&t| locator.local(t).is_none()),
        )
    };
    let sent = (0..remote.ids.len()).map(|_| D::unreached()).collect();
    let prep = started.elapsed();
    let s = State {
        g,
        weights,
        locator,
        width,
        dist: (0..g.local_nodes()).map(|_| D::unreached()).collect(),
        bins: (0..workers).map(|_| Mutex::new(Bins::new())).collect(),
        outbox: (0..workers)
            .map(|_| Mutex::new(vec![Vec::new(); net.size]))
            .collect(),
        handed: (0..workers).map(|_| RwLock::new(Vec::new())).collect(),
        remote,
        sent,
    };
    if let Some(l) = s.locator.local(source) {
        s.dist[l as usize].set(0);
        lock(&s.bins[0]).file(0, (l, D::narrow(0)));
    }
    let funnel = Funnel::new(net);
    net.world_barrier();
    let (counts, time) = run_team(exec, |team| s.search(&funnel, team))
        .map_err(|e| DistError::Failed(e.to_string()))?;
    let report = RunReport::from_threads(time, counts.iter().map(|c| c.stats).collect());
    let sum = |f: fn(&Counts) -> u64| counts.iter().map(f).sum::<u64>();
    Ok(DeltaRun {
        rounds: counts.first().map_or(0, |c| c.rounds),
        improving: sum(|c| c.improving),
        scanned: sum(|c| c.scanned),
        stale: sum(|c| c.stale),
        unsent: sum(|c| c.unsent),
        prep,
        dist: s.dist.into_iter().map(D::into_u64).collect(),
        ran: funnel.ran(report, time),
    })
}

/// Lowers `label` to `nd`; true if it did. A team of one (`!SHARED`) needs no atomic
/// read-modify-write.
#[inline]
fn lower<D: DistLabel, const SHARED: bool>(label: &D, nd: u64) -> bool {
    if SHARED {
        label.lower(nd)
    } else {
        label.lower_unshared(nd)
    }
}

impl<D: DistLabel> State<'_, D> {
    /// One worker's part, for the layout's ownership test and for a team of one or more.
    fn search(&self, funnel: &Funnel, team: &Team) -> Result<Counts, Stopped> {
        let alone = team.workers() == 1;
        if self.g.part.ranks() == 1 {
            // One rank owns every node: no ownership test per arc.
            return match alone {
                true => self.search_with::<_, false>(funnel, team, Everything),
                false => self.search_with::<_, true>(funnel, team, Everything),
            };
        }
        match (self.locator, alone) {
            (Locator::Range(l), true) => self.search_with::<_, false>(funnel, team, l),
            (Locator::Range(l), false) => self.search_with::<_, true>(funnel, team, l),
            (Locator::Cyclic(l), true) => self.search_with::<_, false>(funnel, team, l),
            (Locator::Cyclic(l), false) => self.search_with::<_, true>(funnel, team, l),
        }
    }

    fn search_with<L: Locate, const SHARED: bool>(
        &self,
        funnel: &Funnel,
        team: &Team,
        locator: L,
    ) -> Result<Counts, Stopped> {
        let w = team.worker();
        let ranks = self.g.part.ranks();
        let mut c = Counts::default();
        let mut bucket = 0;
        loop {
            let mine = lock(&self.bins[w]).lowest(bucket, self.width);
            bucket = team.min(mine)?;
            if ranks > 1 {
                let mut agreed = [bucket];
                if w == 0 {
                    agreed[0] = funnel.net(team).min_u64(bucket);
                }
                [bucket] = team.broadcast(0, agreed)?;
            }
            if bucket == NONE {
                return Ok(c);
            }
            c.rounds += 1;
            {
                let mut bins = lock(&self.bins[w]);
                let taken = bins.take(bucket, self.width);
                // No worker reads the last round's bins any more (they all passed the minimum).
                bins.recycle(std::mem::replace(&mut *write(&self.handed[w]), taken));
            }
            team.barrier()?;
            {
                // Every worker's bin, read in place until this worker reaches the next
                // round's minimum, before which no bin is handed over again.
                let (frontier, total) = read_parts(&self.handed);
                let mut bins = lock(&self.bins[w]);
                let mut outbox = lock(&self.outbox[w]);
                let chunk = team.chunk_for(total, CHUNK);
                team.for_chunks_nowait(total, chunk, |r| {
                    for_each_in(&frontier, r, |e| {
                        self.relax::<L, SHARED>(e, locator, &mut bins, &mut outbox, &mut c);
                    });
                    0
                });
                // Bucket fusion: this worker's own bin of the bucket, while it stays small.
                loop {
                    let mut own = bins.take(bucket, self.width);
                    if own.is_empty() {
                        break;
                    }
                    if own.len() >= FUSION_LIMIT {
                        // Back in its slot, which `take` left empty.
                        bins.ring[(bucket % RING) as usize] = own;
                        break;
                    }
                    for e in own.drain(..) {
                        self.relax::<L, SHARED>(e, locator, &mut bins, &mut outbox, &mut c);
                    }
                    bins.recycle(own);
                }
            }
            if ranks > 1 {
                // Every outbox is full before worker 0 sends them.
                team.barrier()?;
                if w == 0 {
                    self.exchange::<SHARED>(funnel, team, &mut c);
                }
            }
            // The next round's minimum (a collective) publishes what worker 0 filed and ends
            // this round's reading of the handed bins.
        }
    }

    /// Relaxes `e`'s arcs if its distance is still its node's. Always inlined: called from
    /// a closure inside `for_each_in`, LLVM leaves it out of line otherwise (14% more
    /// instructions).
    #[inline(always)]
    fn relax<L: Locate, const SHARED: bool>(
        &self,
        (u, d): Entry<D::Word>,
        locator: L,
        bins: &mut Bins<D::Word>,
        outbox: &mut [Vec<u64>],
        c: &mut Counts,
    ) {
        let d: u64 = d.into();
        if self.dist[u as usize].below(d) {
            c.stale += 1;
            return;
        }
        c.stats.tasks += 1;
        let arcs = self.g.arcs(u);
        c.scanned += arcs.len() as u64;
        let (targets, weights) = (&self.g.targets[arcs.clone()], &self.weights[arcs]);
        // Locals: the loop stores to atomics, after which fields read through `self` would
        // be reloaded.
        let (dist, width) = (&self.dist[..], self.width);
        for (&t, &wt) in targets.iter().zip(weights) {
            let nd = d + wt as u64;
            match locator.local(t) {
                Some(l) => {
                    // SAFETY: targets are below n (`load.rs` checks every file; the
                    // generators make none larger), for which the locator gives owned nodes'
                    // local ids, and `dist` has one label per owned node.
                    let label = unsafe { dist.get_unchecked(l as usize) };
                    if lower::<D, SHARED>(label, nd) {
                        c.improving += 1;
                        bins.file(nd >> width, (l, D::narrow(nd)));
                    }
                }
                None => {
                    let ghost = self.remote.index(t) as usize;
                    // SAFETY: `t` is a remote target, a member of `remote`, numbered below
                    // its length, which is `sent`'s.
                    let sent = unsafe { self.sent.get_unchecked(ghost) };
                    if lower::<D, SHARED>(sent, nd) {
                        outbox[self.g.part.owner(t)].extend_from_slice(&[t as u64, nd]);
                    } else {
                        c.unsent += 1;
                    }
                }
            }
        }
    }

    /// Worker 0, at several ranks: sends every worker's outbox, applies what arrives, files
    /// it in its bins.
    fn exchange<const SHARED: bool>(&self, funnel: &Funnel, team: &Team, c: &mut Counts) {
        let net = funnel.net(team);
        let mut out = vec![Vec::new(); net.size];
        for o in &self.outbox {
            for (dst, part) in out.iter_mut().zip(lock(o).iter_mut()) {
                dst.append(part);
            }
        }
        let (arrived, _) = funnel
            .exchange(team, &out)
            .unwrap_or_else(|e| panic!("sssp exchange: {e}"));
        let mut bins = lock(&self.bins[0]);
        for p in arrived.chunks_exact(2) {
            let l = self.g.part.local(p[0] as u32);
            if lower::<D, SHARED>(&self.dist[l as usize], p[1]) {
                c.improving += 1;
                bins.file(p[1] >> self.width, (l, D::narrow(p[1])));
            }
        }
    }
}
