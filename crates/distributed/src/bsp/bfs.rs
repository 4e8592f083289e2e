//! Direction-optimizing BFS (Beamer, Asanovic, Patterson, SC'12) across ranks, with
//! `ordo bfs`'s switching rule (`ordo_algos::bfs::direction`: [`ALPHA`], [`BETA`], [`SCAN`]).
//!
//! Top-down levels expand the owned frontier nodes' out-arcs: an owned target is claimed with
//! a compare-and-swap and listed by the worker that claimed it, a remote one is sent to its
//! owner (one exchange a level), which claims it there. A level's frontier is every worker's
//! list read in place (ordo's `for_each_in`), so no worker concatenates them: a level costs
//! one team collective at one rank, two at several (the second after the exchange).
//! Bottom-up levels first refresh one frontier byte per ghost (the halo, one exchange), then
//! every unreached owned node scans its in-neighbours, local or ghost, for one in the
//! frontier. Every rank takes the same branch: the frontier's size and out-edges
//! are summed over the ranks at each level.

use super::halo::Halo;
use super::{global_count, lock, read_parts, worker0_counts, write, Funnel};
use crate::graph::LocalGraph;
use crate::net::{DistError, DistResult, Net};
use crate::partition::{Everything, Locate, Locator};
use crate::runtime::Ran;
use ordo_algos::bfs::direction::{ALPHA, BETA, SCAN};
use ordo_algos::bfs::UNREACHED;
use ordo_algos::sssp::delta_step::for_each_in;
use ordo_exec::{run_team, ExecConfig, RunReport, Stopped, Team, ThreadStats};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, RwLock};

/// Frontier nodes per chunk of a top-down level.
const TOP_DOWN_CHUNK: usize = 64;
/// Owned nodes per chunk of a bottom-up level or a conversion.
const NODE_CHUNK: usize = 1024;

pub struct BfsRun {
    /// The owned nodes' levels ([`UNREACHED`] where the search did not reach).
    pub level: Vec<u32>,
    pub top_down_steps: u64,
    pub bottom_up_steps: u64,
    pub ran: Ran,
}

struct State<'a> {
    g: &'a LocalGraph,
    halo: &'a Halo<'a>,
    level: Vec<AtomicU32>,
    /// The sparse frontiers (owned local ids), one list per worker: level `k`'s nodes are
    /// in `lists[k % 2]`, each list written by its worker (worker 0 also lists the claimed
    /// arrivals) while the level before is read, and read by all while the next is written.
    lists: [Vec<RwLock<Vec<u32>>>; 2],
    /// Per worker: remote targets found in a level, by owner.
    remote: Vec<Mutex<Vec<Vec<u32>>>>,
    /// Dense frontiers for bottom-up levels, bitmaps over the halo's index space (owned nodes
    /// then ghosts): level `k` reads `dense[k % 2]` and writes `dense[(k + 1) % 2]`. Relaxed
    /// throughout: a bitmap is written in one phase and read in the next, with a collective
    /// between, and carries no other data.
    dense: [Vec<AtomicU64>; 2],
}

#[derive(Default, Clone, Copy)]
struct Counts {
    stats: ThreadStats,
    top_down: u64,
    bottom_up: u64,
}

/// Levels from `source` (a global id) over all ranks (a collective).
pub fn run(
    net: &Net,
    g: &LocalGraph,
    halo: &Halo<'_>,
    source: u32,
    exec: &ExecConfig,
) -> DistResult<BfsRun> {
    let local = g.local_nodes() as usize;
    let workers = exec.threads.max(1);
    let s = State {
        g,
        halo,
        level: (0..local).map(|_| AtomicU32::new(UNREACHED)).collect(),
        lists: [0, 1].map(|_| (0..workers).map(|_| RwLock::new(Vec::new())).collect()),
        remote: (0..workers)
            .map(|_| Mutex::new(vec![Vec::new(); net.size]))
            .collect(),
        dense: [0, 1].map(|_| {
            (0..halo.len().div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect()
        }),
    };
    let mut source_degree = 0;
    if let Some(l) = g.part.locator(net.rank).local(source) {
        s.level[l as usize].store(0, Relaxed);
        write(&s.lists[0][0]).push(l);
        source_degree = g.neighbors(l).len() as u64;
    }
    let scout = net.sum_u64(source_degree);
    let funnel = Funnel::new(net);
    net.world_barrier();
    let (counts, time) = run_team(exec, |team| s.search(&funnel, team, scout))
        .map_err(|e| DistError::Failed(e.to_string()))?;
    let report = RunReport::from_threads(time, counts.iter().map(|c| c.stats).collect());
    let first = counts.first().copied().unwrap_or_default();
    Ok(BfsRun {
        level: s.level.into_iter().map(AtomicU32::into_inner).collect(),
        top_down_steps: first.top_down,
        bottom_up_steps: first.bottom_up,
        ran: funnel.ran(report, time),
    })
}

/// Claims the unreached node of `slot` for `level`; true if this call did. A team of one
/// (`alone`) claims with a plain store: no other worker writes levels.
///
/// Relaxed: a level is a word carrying no other data, and the collective that ends the level
/// publishes it with the frontier.
#[inline]
fn claim(slot: &AtomicU32, level: u32, alone: bool) -> bool {
    if slot.load(Relaxed) != UNREACHED {
        return false;
    }
    if alone {
        slot.store(level, Relaxed);
        return true;
    }
    slot.compare_exchange(UNREACHED, level, Relaxed, Relaxed)
        .is_ok()
}

impl State<'_> {
    fn search(&self, funnel: &Funnel, team: &Team, mut scout: u64) -> Result<Counts, Stopped> {
        let n = self.g.num_nodes() as u64;
        let mut c = Counts::default();
        let (mut len, mut depth) = (1u64, 0u32);
        let mut unexplored = self.g.m;
        while len > 0 {
            if scout > unexplored / ALPHA && scout > n / SCAN {
                let mut k = 0;
                self.list_to_dense(team, depth, &self.dense[k])?;
                let mut awake = len;
                loop {
                    let before = awake;
                    let (front, next) = (&self.dense[k], &self.dense[1 - k]);
                    awake = self.bottom_up(funnel, team, front, next, depth, &mut c)?;
                    k = 1 - k;
                    depth += 1;
                    c.bottom_up += 1;
                    if awake < before && awake <= n / BETA {
                        break;
                    }
                }
                len = self.dense_to_list(funnel, team, depth, &self.dense[k])?;
                scout = 1;
            } else {
                unexplored = unexplored.saturating_sub(scout);
                [len, scout] = self.top_down(funnel, team, depth, &mut c)?;
                depth += 1;
                c.top_down += 1;
            }
        }
        Ok(c)
    }

    /// One top-down level; returns the new frontier's size and out-edges over all ranks.
    fn top_down(
        &self,
        funnel: &Funnel,
        team: &Team,
        depth: u32,
        c: &mut Counts,
    ) -> Result<[u64; 2], Stopped> {
        // The ownership test per arc, without a branch on the layout; none at one rank.
        match self.g.part.locator(self.g.rank) {
            _ if self.g.part.ranks() == 1 => self.top_down_with(funnel, team, depth, c, Everything),
            Locator::Range(l) => self.top_down_with(funnel, team, depth, c, l),
            Locator::Cyclic(l) => self.top_down_with(funnel, team, depth, c, l),
        }
    }

    fn top_down_with<L: Locate>(
        &self,
        funnel: &Funnel,
        team: &Team,
        depth: u32,
        c: &mut Counts,
        locator: L,
    ) -> Result<[u64; 2], Stopped> {
        let (g, part) = (self.g, &self.g.part);
        let next = depth + 1;
        let alone = team.workers() == 1;
        let k = depth as usize % 2;
        let (claimed_here, edges_here) = {
            let (frontier, total) = read_parts(&self.lists[k]);
            let mut claimed = write(&self.lists[1 - k][team.worker()]);
            claimed.clear();
            let mut remote = lock(&self.remote[team.worker()]);
            let mut edges = 0;
            let chunk = team.chunk_for(total, TOP_DOWN_CHUNK);
            // A local: the loop stores to atomics, after which a field read through `self`
            // would be reloaded.
            let level = &self.level[..];
            team.for_chunks_nowait(total, chunk, |r| {
                c.stats.tasks += for_each_in(&frontier, r, |u| {
                    for &t in g.neighbors(u) {
                        match locator.local(t) {
                            Some(l) => {
                                // SAFETY: targets are below n (`load.rs` checks every file;
                                // the generators make none larger), for which the locator
                                // gives owned nodes' local ids, and `level` has one entry
                                // per owned node.
                                let slot = unsafe { level.get_unchecked(l as usize) };
                                if claim(slot, next, alone) {
                                    claimed.push(l);
                                    edges += g.degree(l);
                                }
                            }
                            None => remote[part.owner(t)].push(t),
                        }
                    }
                });
                0
            });
            (claimed.len() as u64, edges)
        };
        // One barrier for both sums: counts below 2^53 add exactly as floats.
        let [len, edges] = team.sum_f64s([claimed_here as f64, edges_here as f64])?;
        let (mut len, mut edges) = (len as u64, edges as u64);
        let ranks = part.ranks();
        if ranks == 1 {
            return Ok([len, self.edges_counted(len, edges)]);
        }
        let mut counts = [0u64; 2];
        if team.worker() == 0 {
            let mut out = vec![Vec::new(); ranks];
            for r in &self.remote {
                for (o, r) in out.iter_mut().zip(lock(r).iter_mut()) {
                    o.append(r);
                }
            }
            let (arrived, _) = funnel
                .exchange(team, &out)
                .unwrap_or_else(|e| panic!("bfs exchange: {e}"));
            let mut claimed = write(&self.lists[1 - k][0]);
            for t in arrived {
                let l = part.local(t);
                if claim(&self.level[l as usize], next, alone) {
                    claimed.push(l);
                    edges += g.degree(l);
                    len += 1;
                }
            }
            counts = [len, self.edges_counted(len, edges)];
        }
        worker0_counts(funnel, team, counts)
    }

    /// A rank's new frontier's out-edges as the switching rule sees them: as in `ordo bfs`,
    /// only where they might pass n / SCAN, estimating a node's as eight times the mean
    /// out-degree (else 0).
    fn edges_counted(&self, len: u64, edges: u64) -> u64 {
        let g = self.g;
        let degree_estimate = 8 * (g.m / g.num_nodes().max(1) as u64 + 1);
        if len * degree_estimate > g.num_nodes() as u64 / SCAN {
            edges
        } else {
            0
        }
    }

    /// Marks the sparse frontier of level `depth` in `front` (owned part).
    fn list_to_dense(&self, team: &Team, depth: u32, front: &[AtomicU64]) -> Result<(), Stopped> {
        let words = (self.halo.local as usize).div_ceil(64);
        team.for_chunks(words, NODE_CHUNK / 64, |r| {
            for w in &front[r] {
                w.store(0, Relaxed);
            }
            0
        })?;
        let (frontier, total) = read_parts(&self.lists[depth as usize % 2]);
        team.for_chunks(total, NODE_CHUNK, |r| {
            for_each_in(&frontier, r, |l| {
                front[l as usize / 64].fetch_or(1 << (l % 64), Relaxed);
            });
            0
        })?;
        Ok(())
    }

    /// One bottom-up level from `front` into `next` (owned part); returns the new frontier's
    /// size over all ranks.
    fn bottom_up(
        &self,
        funnel: &Funnel,
        team: &Team,
        front: &[AtomicU64],
        next: &[AtomicU64],
        depth: u32,
        c: &mut Counts,
    ) -> Result<u64, Stopped> {
        let local = self.halo.local as usize;
        if team.worker() == 0 {
            let bit = |i: usize| front[i / 64].load(Relaxed) >> (i % 64) & 1;
            let ghosts = self.halo.refresh(funnel, team, |l| bit(l as usize) as u8);
            let base = self.halo.ghost_base as usize;
            // Worker 0 alone writes the ghost words: whole words, no read-modify-write.
            for (w, bytes) in front[base / 64..].iter().zip(ghosts.chunks(64)) {
                let word = (bytes.iter().enumerate())
                    .fold(0u64, |word, (i, &x)| word | u64::from(x != 0) << i);
                w.store(word, Relaxed);
            }
        }
        team.barrier()?;
        let level = depth + 1;
        let in_front = |s: u32| front[s as usize / 64].load(Relaxed) >> (s % 64) & 1 != 0;
        // Chunks of whole words: each word of `next` is written by one worker.
        let awake = team.for_chunks_nowait(local, NODE_CHUNK, |r| {
            let mut awake = 0;
            let words = r.start / 64..r.end.div_ceil(64);
            for (w, out) in words.clone().zip(&next[words]) {
                let mut word = 0u64;
                for v in w * 64..(w * 64 + 64).min(r.end) {
                    if self.level[v].load(Relaxed) != UNREACHED {
                        continue;
                    }
                    c.stats.tasks += 1;
                    if self
                        .halo
                        .in_neighbors(v as u32)
                        .iter()
                        .any(|&s| in_front(s))
                    {
                        self.level[v].store(level, Relaxed);
                        word |= 1 << (v % 64);
                        awake += 1;
                    }
                }
                out.store(word, Relaxed);
            }
            awake
        });
        let awake = global_count(funnel, team, awake)?;
        Ok(awake)
    }

    /// The dense frontier `front` as the list of level `depth`; returns its size over all
    /// ranks.
    fn dense_to_list(
        &self,
        funnel: &Funnel,
        team: &Team,
        depth: u32,
        front: &[AtomicU64],
    ) -> Result<u64, Stopped> {
        let words = (self.halo.local as usize).div_ceil(64);
        let found_here = {
            let mut found = write(&self.lists[depth as usize % 2][team.worker()]);
            found.clear();
            team.for_chunks_nowait(words, NODE_CHUNK / 64, |r| {
                for w in r {
                    let mut word = front[w].load(Relaxed);
                    while word != 0 {
                        found.push(w as u32 * 64 + word.trailing_zeros());
                        word &= word - 1;
                    }
                }
                0
            });
            found.len() as u64
        };
        global_count(funnel, team, found_here)
    }
}
