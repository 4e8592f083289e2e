//! k-core by parallel bucketed peeling on the frontier executor: the level structure of
//! Julienne (Dhulipala, Blelloch, Shun, SPAA 2017) with the per-level scan of a compacted
//! remaining list (PKC, Kabir and Madduri, 2017) in place of a bucket structure.
//!
//! Level `k` starts with a scan of the nodes not yet peeled: those whose current degree is
//! `k` form the frontier and get core number `k`; the others are kept, compacted, for the next
//! level's scan, and their smallest degree is found. Peeling a frontier node decrements each
//! neighbour whose degree is above `k`; a neighbour that drops to exactly `k` is peeled at
//! level `k` too (by the same worker, at once), and one that another decrement already took to
//! `k` gets its decrement back, so no degree falls below the level being peeled. When a scan
//! finds no node at `k + 1`, the level jumps to the smallest degree it saw (and scans once
//! more).
//!
//! After level `k` every remaining node has degree above `k`, so each node is peeled at its
//! core number: the result equals Batagelj-Zaversnik's (the serial oracle) exactly.
//!
//! Work: O(m) decrements and O(Σ_k remaining_k) scanned nodes (the remaining list shrinks as
//! levels rise); rounds: about two per distinct core number (a worker peels the nodes its own
//! decrements free at once, so a level takes one wave unless a worker holds more than
//! `LOCAL` pending nodes). With one worker the decrements are plain loads and stores, no
//! read-modify-write.
//!
//! Orderings: Relaxed. Scans and waves alternate with barriers between them: a scan only
//! reads degrees and writes the core numbers of the nodes it peels (each node is in one chunk),
//! and `smallest` takes one `fetch_min` per worker, read after a barrier. In a wave, degrees
//! change only by read-modify-writes (each location's modification order is what the "drop to
//! exactly `level`" test relies on), and a core number is written once, by the worker whose
//! decrement freed the node.

use super::{KcoreOutput, KcoreStats};
use ordo_exec::frontier::{QueueRing, QueueWriter};
use ordo_exec::{run_team, ExecConfig, ExecError, RunReport, Stopped, Team, ThreadStats};
use ordo_graph::Graph;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// A core number not assigned yet.
const UNPEELED: u32 = u32::MAX;
const SCAN_CHUNK: usize = 4096;
const PEEL_CHUNK: usize = 64;
/// Nodes a worker keeps to peel itself before it hands more to the next wave.
const LOCAL: usize = 1 << 14;

struct Shared<'g> {
    g: &'g Graph,
    degree: Vec<AtomicU32>,
    core: Vec<AtomicU32>,
    /// Frontiers: step `k` (a scan or a wave) appends the nodes it peels to `frontiers.output(k)`.
    frontiers: QueueRing,
    /// The remaining nodes: scan `s` reads `remaining.input(s)` (all nodes for `s = 0`) and
    /// keeps into `remaining.output(s)`.
    remaining: QueueRing,
    /// The smallest kept degree of scan `s`, in slot `s % 3`; worker 0 resets slot
    /// `(s + 1) % 3` when scan `s` starts. Three, not two: after a scan that peels nothing the
    /// next scan follows at once, and a slow worker may still be reading the last slot.
    smallest: [AtomicU32; 3],
}

/// Core numbers of the undirected simple graph `g`.
///
/// ```
/// use ordo_graph::{gen, BuildOptions};
/// use ordo_exec::ExecConfig;
/// let g = gen::road_grid(20, 20, 1, &BuildOptions::default()).unwrap();
/// let out = ordo_algos::kcore::peel::run(&g, &ExecConfig::new(2)).unwrap();
/// assert_eq!(out.core, ordo_algos::kcore::serial_kcore(&g));
/// ```
pub fn run(g: &Graph, cfg: &ExecConfig) -> Result<KcoreOutput, ExecError> {
    let n = g.num_nodes();
    let s = Shared {
        g,
        degree: (0..n as u32)
            .map(|v| AtomicU32::new(g.out_degree(v) as u32))
            .collect(),
        core: (0..n).map(|_| AtomicU32::new(UNPEELED)).collect(),
        frontiers: QueueRing::new(n),
        remaining: QueueRing::new(n),
        smallest: [0, 1, 2].map(|_| AtomicU32::new(u32::MAX)),
    };
    let (stats, time) = run_team(cfg, |team| s.peel(team))?;
    let report = RunReport::from_threads(time, stats);
    Ok(KcoreOutput {
        core: s.core.into_iter().map(AtomicU32::into_inner).collect(),
        stats: KcoreStats {
            lowered: report.total.tasks,
            unchanged: 0,
        },
        report,
    })
}

/// The list of remaining nodes a scan reads.
#[derive(Clone, Copy)]
struct List {
    /// Compactions done: the list is `remaining.input(compactions)`, or every node when 0.
    compactions: usize,
    /// Its entries (peeled nodes among them until the next compaction).
    len: usize,
}

impl Shared<'_> {
    /// One worker's part (the SPMD body); `tasks` counts its decrements.
    fn peel(&self, team: &Team) -> Result<ThreadStats, Stopped> {
        let n = self.g.num_nodes();
        let mut stats = ThreadStats::default();
        let mut pending = Vec::new();
        // `step` numbers the frontier-producing steps, `scan` the scans.
        let (mut step, mut scan) = (0usize, 0usize);
        let (mut level, mut alive) = (0u32, n);
        let mut list = List {
            compactions: 0,
            len: n,
        };
        while alive > 0 {
            // Rewriting the list costs a store per node kept: worth it once a quarter are gone
            // (graphs with hundreds of levels rescan the list hundreds of times).
            let compact = (list.len - alive) * 4 >= list.len;
            let (found, frontier, smallest, kept) =
                self.scan(team, scan, step, level, list, compact)?;
            scan += 1;
            step += 1;
            if compact {
                list = List {
                    compactions: list.compactions + 1,
                    len: kept,
                };
            }
            if found == 0 {
                level = smallest; // nothing at this level: jump to the smallest degree left
                continue;
            }
            alive -= found;
            let mut wave = frontier;
            while wave > 0 {
                let (handed_on, peeled) =
                    self.wave(team, step, wave, level, &mut stats, &mut pending)?;
                alive -= peeled;
                wave = handed_on;
                step += 1;
            }
            level += 1;
        }
        Ok(stats)
    }

    /// Finds the remaining nodes of degree `level` (peeled, and appended to the frontier
    /// unless their degree is 0) and, with `compact`, rewrites the others into the next list.
    /// Returns (peeled, of those on the frontier, smallest degree of the others, how many
    /// others).
    ///
    /// A node of degree 0 has no neighbour left to decrement, so it needs no wave: graphs
    /// whose ids leave gaps (SNAP files numbered by a larger id space) have many, all peeled
    /// by the first scan.
    fn scan(
        &self,
        team: &Team,
        scan: usize,
        step: usize,
        level: u32,
        list: List,
        compact: bool,
    ) -> Result<(usize, usize, u32, usize), Stopped> {
        if compact {
            self.remaining.start(list.compactions, team.worker());
        }
        self.frontiers.start(step, team.worker());
        if team.worker() == 0 {
            self.smallest[(scan + 1) % 3].store(u32::MAX, Relaxed);
        }
        let from = self.remaining.input(list.compactions).first(list.len);
        let mut keep = QueueWriter::new(self.remaining.output(list.compactions));
        let mut peel = QueueWriter::new(self.frontiers.output(step));
        let mut smallest = u32::MAX;
        // Locals (slices, and the level copied in the closure): the loops store to atomics,
        // after which anything read through `self` or a captured reference is reloaded.
        let (core, degree) = (&self.core[..], &self.degree[..]);
        // The chunks' sums pack (peeled << 32) + put on the frontier: each is below n < 2^32.
        let packed = team.for_chunks(list.len, SCAN_CHUNK, |r| {
            let (level, compacted) = (level, list.compactions > 0);
            let (mut found, mut frontier) = (0u64, 0u64);
            for i in r {
                let v = match compacted {
                    false => i as u32,
                    true => from[i].load(Relaxed),
                };
                if core[v as usize].load(Relaxed) != UNPEELED {
                    continue; // peeled at an earlier level
                }
                let d = degree[v as usize].load(Relaxed);
                if d <= level {
                    core[v as usize].store(level, Relaxed);
                    found += 1;
                    if d > 0 {
                        peel.push(v);
                        frontier += 1;
                    }
                } else {
                    if compact {
                        keep.push(v);
                    }
                    smallest = smallest.min(d);
                }
            }
            keep.flush();
            peel.flush();
            (found << 32) + frontier
        });
        self.smallest[scan % 3].fetch_min(smallest, Relaxed);
        let packed = packed?;
        let (found, frontier) = ((packed >> 32) as usize, (packed & 0xffff_ffff) as usize);
        // One more barrier: the minimum is complete only when every worker has added its own.
        team.barrier()?;
        let kept = self.remaining.output(list.compactions).len();
        Ok((found, frontier, self.smallest[scan % 3].load(Relaxed), kept))
    }

    /// Peels the frontier `frontiers.input(step)` (`len` nodes at `level`). A neighbour that
    /// drops to `level` is peeled at once by the worker that dropped it (every node peeled at
    /// this level has core number `level`, so the order does not matter): a chain peels in one
    /// wave, not one wave per link. Past [`LOCAL`] pending nodes a worker hands the rest to the
    /// next wave, for balance. Returns the next wave's size and how many nodes this wave
    /// peeled beyond its frontier.
    fn wave(
        &self,
        team: &Team,
        step: usize,
        len: usize,
        level: u32,
        stats: &mut ThreadStats,
        pending: &mut Vec<u32>,
    ) -> Result<(usize, usize), Stopped> {
        self.frontiers.start(step, team.worker());
        let single = team.workers() == 1;
        let frontier = self.frontiers.input(step).first(len);
        let mut next = QueueWriter::new(self.frontiers.output(step));
        // Locals, as in `scan`.
        let (core, degree) = (&self.core[..], &self.degree[..]);
        let (offsets, targets) = (self.g.offsets(), self.g.targets());
        // The loop's sum packs (peeled << 32) + handed on: each is below n < 2^32.
        let packed = team.for_chunks(len, PEEL_CHUNK, |r| {
            let (level, single) = (level, single);
            let (mut handed_on, mut peeled, mut decrements) = (0u64, 0u64, 0u64);
            for f in &frontier[r] {
                pending.push(f.load(Relaxed));
                while let Some(v) = pending.pop() {
                    let v = v as usize;
                    for &u in &targets[offsets[v] as usize..offsets[v + 1] as usize] {
                        let slot = &degree[u as usize];
                        if slot.load(Relaxed) <= level {
                            continue;
                        }
                        decrements += 1;
                        // Relaxed: a degree is a counter carrying no other data; the barrier
                        // that ends the wave publishes it with the frontier.
                        let before = if single {
                            let d = slot.load(Relaxed);
                            slot.store(d - 1, Relaxed);
                            d
                        } else {
                            slot.fetch_sub(1, Relaxed)
                        };
                        if before == level + 1 {
                            core[u as usize].store(level, Relaxed);
                            peeled += 1;
                            if pending.len() < LOCAL {
                                pending.push(u);
                            } else {
                                next.push(u);
                                handed_on += 1;
                            }
                        } else if before <= level {
                            slot.fetch_add(1, Relaxed); // another decrement got there first
                        }
                    }
                }
            }
            next.flush();
            stats.tasks += decrements;
            (peeled << 32) + handed_on
        })?;
        Ok(((packed & 0xffff_ffff) as usize, (packed >> 32) as usize))
    }
}
