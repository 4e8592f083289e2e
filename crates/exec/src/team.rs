//! The frontier executor: a team of pinned workers running one body in lockstep (SPMD, like an
//! OpenMP parallel region), with parallel loops over index ranges that end at a barrier.
//!
//! This is the second execution model beside [`for_each`](crate::for_each): level-synchronous
//! algorithms (direction-optimizing BFS, Afforest, pull PageRank) know their next round only
//! when the current one is over, so they need rounds, not a task pool. The team is started
//! once per run; a round costs one barrier (a few hundred nanoseconds at 2 threads), not a
//! thread spawn.
//!
//! # Contract (SPMD)
//! Every worker runs the same body and calls the team's collective operations
//! ([`Team::sum`], [`Team::sum_f64`], [`Team::min`], [`Team::barrier`], [`Team::for_chunks`])
//! the same number of times, in the same order; decisions that steer the control flow are
//! taken from a collective's result (which every worker receives alike), never from a
//! worker's own view of shared memory.
//!
//! # Protocol of `for_chunks`
//! Loop `k` hands out chunks from cursor `k mod 2` with `fetch_add`, and ends with a barrier
//! (or, for [`Team::for_chunks_nowait`], is followed by some collective before loop `k + 1`).
//! Worker 0 resets cursor `(k + 1) mod 2` when loop `k` starts: loop `k - 1`, its last user,
//! ended before a barrier that worker 0 has passed (every `fetch_add` on it is done), and loop
//! `k + 1`, its next, starts after a barrier that follows loop `k`, which orders the reset
//! before it.
//!
//! # Small rounds
//! A round costs its barrier whatever its size, and the barrier's cost grows with the team
//! (every worker's arrival is one more read-modify-write of its counter's line). A round of
//! `len` items costs about `len c / W + B(W)` shared and `len c` on one worker, so sharing pays
//! from `len > B(W) / (c (1 - 1/W))` items. Measured on a 16-core Xeon (BFS, delta-stepping
//! and preflow-push's relabel on road graphs and a grid, 2 to 16 workers, with the threshold
//! and chunk swept), that point grows with the team up to about 4 workers and then stays about
//! put (for BFS near 256 nodes from 4 to 16 workers): at 16, a frontier of 300 nodes is faster
//! shared, 19 nodes a worker, than on one. A threshold of `per_worker x W` at every size would
//! keep road graphs' frontiers of several hundred nodes on one worker at 16 (BFS on NY: 6.8 ms
//! against 3.2). [`Team::shared_from`] is the rule, and [`Team::chunk_for`] splits a round
//! that is shared into enough chunks for every worker.
//!
//! # Stopping
//! A worker that panics poisons the barrier: the others return [`Stopped::Poisoned`] from their
//! next collective and the pool reports the panic. A Ctrl-C (the config's `cancel` flag) is
//! read by worker 0 alone and carried by the next barrier to all: every worker gets
//! [`Stopped::Cancelled`] from the same collective, and the run returns
//! [`ExecError::Cancelled`].

use crate::barrier::SumBarrier;
use crate::config::ExecConfig;
use crate::error::ExecError;
use crate::stats::{RunReport, ThreadStats};
use crossbeam_utils::CachePadded;
use std::cell::Cell;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

/// The most numbers one [`Team::sum_f64s`] adds up.
pub const MAX_FLOAT_TERMS: usize = 4;

/// The team size up to which [`Team::shared_from`] grows with the team (module docs, Small
/// rounds).
pub const SHARING_GROWS_TO: usize = 4;

/// The smallest chunk [`Team::chunk_for`] hands out.
pub const MIN_CHUNK: usize = 4;

/// Why a collective operation did not complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// The run was cancelled (Ctrl-C); every worker stops at the same collective.
    Cancelled,
    /// Another worker panicked.
    Poisoned,
}

struct Shared<'a> {
    workers: usize,
    barrier: SumBarrier,
    cursors: [CachePadded<AtomicUsize>; 2],
    /// Each worker's term of a gather (a floating-point sum or a minimum), in two sets used
    /// alternately (as the cursors are: a set is rewritten two gathers later, after every
    /// reader passed a barrier).
    terms: [Vec<CachePadded<[AtomicU64; MAX_FLOAT_TERMS]>>; 2],
    cancel: Option<&'a AtomicBool>,
}

/// One worker's view of the team, passed to the body.
pub struct Team<'a> {
    shared: &'a Shared<'a>,
    worker: usize,
    /// Loops this worker has run (the same on every worker, by the SPMD contract).
    loops: Cell<usize>,
    /// Gathers (floating-point sums, minima) this worker has taken part in.
    gathers: Cell<usize>,
}

impl Team<'_> {
    /// This worker's index, `0..workers()`.
    #[inline]
    pub fn worker(&self) -> usize {
        self.worker
    }

    /// The team's size.
    #[inline]
    pub fn workers(&self) -> usize {
        self.shared.workers
    }

    /// The fewest items a level-synchronous round should have for the team to share it:
    /// `per_worker` items a worker up to [`SHARING_GROWS_TO`] workers, and no more beyond
    /// (module docs, Small rounds). A smaller round is better run by one worker while the
    /// others wait in the next collective (the run-ahead of BFS, delta-stepping and
    /// preflow-push's relabel). `per_worker` is what one item's cost sets: a few dozen for a
    /// BFS node, fewer for a delta-stepping entry, which costs more.
    #[inline]
    pub fn shared_from(&self, per_worker: usize) -> usize {
        per_worker * self.workers().min(SHARING_GROWS_TO)
    }

    /// The chunk size for a round of `len` items: `max`, or less where that would leave
    /// workers without a chunk: a chunk a worker, at least [`MIN_CHUNK`] items. A round just
    /// above [`shared_from`](Self::shared_from) at 16 workers (a road graph's frontier of a few
    /// hundred nodes) would otherwise go to a handful of them. Up to [`SHARING_GROWS_TO`]
    /// workers a round that `shared_from(max)` lets through keeps `max` (two chunks a worker
    /// there measured 1.2x slower on a 2-thread BFS of a grid, each chunk flushing its own part
    /// of the next frontier).
    #[inline]
    pub fn chunk_for(&self, len: usize, max: usize) -> usize {
        max.min(len.div_ceil(self.workers())).max(MIN_CHUNK)
    }

    /// Waits for every worker and returns the sum of their `value`s. What a worker wrote before
    /// calling is visible to every worker after it returns.
    pub fn sum(&self, value: u64) -> Result<u64, Stopped> {
        let cancel = self.worker == 0 && self.cancel_requested();
        match self.shared.barrier.sum_flagged(value, cancel) {
            Ok((_, true)) => Err(Stopped::Cancelled),
            Ok((sum, false)) => Ok(sum),
            Err(_) => Err(Stopped::Poisoned),
        }
    }

    /// Waits for every worker and returns the sum of their `value`s, added in worker order so
    /// that every worker gets the same bits (and a run with the same team size the same sum).
    pub fn sum_f64(&self, value: f64) -> Result<f64, Stopped> {
        self.sum_f64s([value]).map(|[s]| s)
    }

    /// [`sum_f64`](Self::sum_f64) of up to [`MAX_FLOAT_TERMS`] numbers at once, one barrier.
    pub fn sum_f64s<const N: usize>(&self, values: [f64; N]) -> Result<[f64; N], Stopped> {
        let mut sums = [0.0; N];
        self.gather(values.map(f64::to_bits), |terms| {
            for (sum, bits) in sums.iter_mut().zip(terms) {
                *sum += f64::from_bits(bits);
            }
        })?;
        Ok(sums)
    }

    /// Waits for every worker and returns the smallest of their `value`s.
    pub fn min(&self, value: u64) -> Result<u64, Stopped> {
        let mut min = u64::MAX;
        self.gather([value], |[v]| min = min.min(v))?;
        Ok(min)
    }

    /// Waits for every worker and returns the smallest of their `value`s and how many workers
    /// offered one below `u64::MAX` (one barrier, as [`min`](Self::min)).
    pub fn min_and_holders(&self, value: u64) -> Result<(u64, usize), Stopped> {
        let (mut min, mut holders) = (u64::MAX, 0);
        self.gather([value], |[v]| {
            min = min.min(v);
            holders += usize::from(v != u64::MAX);
        })?;
        Ok((min, holders))
    }

    /// Waits for every worker and returns worker `from`'s `values` (what the others pass is
    /// ignored): one barrier, for state one worker computed alone.
    pub fn broadcast<const N: usize>(
        &self,
        from: usize,
        values: [u64; N],
    ) -> Result<[u64; N], Stopped> {
        let (mut got, mut w) = ([0; N], 0);
        self.gather(values, |v| {
            if w == from {
                got = v;
            }
            w += 1;
        })?;
        Ok(got)
    }

    /// Whether a Ctrl-C has been asked for (the config's `cancel` flag). A worker running
    /// alone between collectives reads it to cut its work short; the run stops at the next
    /// collective, as always.
    pub fn cancel_requested(&self) -> bool {
        self.shared
            .cancel
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Publishes this worker's `values`, waits for every worker, and hands each worker's
    /// values to `visit`, in worker order.
    fn gather<const N: usize>(
        &self,
        values: [u64; N],
        mut visit: impl FnMut([u64; N]),
    ) -> Result<(), Stopped> {
        const { assert!(N <= MAX_FLOAT_TERMS) };
        let k = self.gathers.get();
        self.gathers.set(k + 1);
        let terms = &self.shared.terms[k % 2];
        // Relaxed: the barrier below publishes the stores; the set is rewritten only two
        // gathers later, after every worker has read it and passed another barrier.
        for (slot, v) in terms[self.worker].iter().zip(values) {
            slot.store(v, Ordering::Relaxed);
        }
        self.barrier()?;
        for t in terms {
            visit(std::array::from_fn(|i| t[i].load(Ordering::Relaxed)));
        }
        Ok(())
    }

    /// Waits for every worker.
    pub fn barrier(&self) -> Result<(), Stopped> {
        self.sum(0).map(drop)
    }

    /// Runs `body` on chunks of `0..len` of `chunk` indices (the last may be shorter), handed
    /// out dynamically to the workers, then waits for all of them; returns the sum of what the
    /// calls returned, on every worker.
    pub fn for_chunks(
        &self,
        len: usize,
        chunk: usize,
        body: impl FnMut(Range<usize>) -> u64,
    ) -> Result<u64, Stopped> {
        let total = self.for_chunks_nowait(len, chunk, body);
        self.sum(total)
    }

    /// As [`for_chunks`](Self::for_chunks) without the closing barrier (OpenMP's `nowait`):
    /// returns this worker's own sum as soon as the chunks run out. The caller must pass
    /// another collective before its next loop (which reuses a cursor) and before reading
    /// what the other workers' chunks wrote.
    pub fn for_chunks_nowait(
        &self,
        len: usize,
        chunk: usize,
        mut body: impl FnMut(Range<usize>) -> u64,
    ) -> u64 {
        let k = self.loops.get();
        self.loops.set(k + 1);
        if self.worker == 0 {
            self.shared.cursors[(k + 1) % 2].store(0, Ordering::Relaxed);
        }
        let cursor = &self.shared.cursors[k % 2];
        let chunk = chunk.max(1);
        let mut total = 0;
        loop {
            // Relaxed: the cursor only splits the range; the data the chunks touch is published
            // by the collective that follows the loop.
            let start = cursor.fetch_add(chunk, Ordering::Relaxed);
            if start >= len {
                break;
            }
            total += body(start..len.min(start + chunk));
        }
        total
    }

    /// This worker's contiguous share of `0..len` (equal shares, the first ones a little larger);
    /// no synchronization.
    pub fn share(&self, len: usize) -> Range<usize> {
        let (w, p) = (self.worker, self.workers());
        let (base, extra) = (len / p, len % p);
        let start = w * base + w.min(extra);
        start..start + base + usize::from(w < extra)
    }
}

/// Runs `body` on `cfg.threads` pinned workers and returns each worker's result, in worker
/// order, with the wall time of the whole team.
///
/// ```
/// use ordo_exec::{team::run_team, ExecConfig};
/// let data: Vec<u64> = (1..=1000).collect();
/// let (sums, _) = run_team(&ExecConfig::new(4), |team| {
///     team.for_chunks(data.len(), 64, |r| data[r].iter().sum())
/// })
/// .unwrap();
/// assert!(sums.iter().all(|&s| s == 500_500));
/// ```
pub fn run_team<R, F>(cfg: &ExecConfig, body: F) -> Result<(Vec<R>, Duration), ExecError>
where
    R: Send + Default,
    F: Fn(&Team) -> Result<R, Stopped> + Sync,
{
    let workers = cfg.threads.max(1);
    let shared = Shared {
        workers,
        barrier: SumBarrier::new(workers),
        cursors: Default::default(),
        terms: [0, 1].map(|_| (0..workers).map(|_| Default::default()).collect()),
        cancel: cfg.cancel.as_deref(),
    };
    let (results, time) = crate::pool::run_workers(
        cfg,
        vec![(); workers],
        |worker, ()| {
            let team = Team {
                shared: &shared,
                worker,
                loops: Cell::new(0),
                gathers: Cell::new(0),
            };
            Some(body(&team))
        },
        || shared.barrier.poison(),
    )?;
    let mut out = Vec::with_capacity(workers);
    for r in results {
        match r {
            Some(Ok(r)) => out.push(r),
            // A poisoned or missing result exists only beside a panic, which `run_workers`
            // returned above; what is left is a cancellation.
            _ => {
                let report = RunReport::from_threads(time, vec![ThreadStats::default(); workers]);
                return Err(ExecError::Cancelled(Box::new(report)));
            }
        }
    }
    Ok((out, time))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn cfg(threads: usize) -> ExecConfig {
        ExecConfig::new(threads)
    }

    #[test]
    fn small_rounds_are_shared_from_a_size_that_stops_growing_at_four_workers() {
        for (workers, from, chunk_of_that) in
            [(1, 64, 64), (2, 128, 64), (4, 256, 64), (16, 256, 16)]
        {
            let (seen, _) = run_team(&cfg(workers), |team| {
                let from = team.shared_from(64);
                // A round of `from` items gives every worker a chunk; a tiny one still gets
                // chunks of MIN_CHUNK, and a large one the most asked for.
                Ok([
                    from,
                    team.chunk_for(from, 64),
                    team.chunk_for(3, 64),
                    team.chunk_for(1 << 20, 64),
                ])
            })
            .unwrap();
            assert!(
                seen.iter()
                    .all(|&s| s == [from, chunk_of_that, MIN_CHUNK, 64]),
                "{workers} workers: {seen:?}"
            );
        }
    }

    #[test]
    fn every_index_is_visited_once_per_loop_across_many_loops() {
        let len = 1000;
        let hits: Vec<AtomicU64> = (0..len).map(|_| AtomicU64::new(0)).collect();
        let rounds = 300;
        let (sums, _) = run_team(&cfg(8), |team| {
            let mut seen = Vec::new();
            for round in 0..rounds {
                // Lengths and chunks vary per round, so a cursor not reset shows up.
                let n = len - (round % 7) * 10;
                let s = team.for_chunks(n, 1 + round % 13, |r| {
                    for i in r.clone() {
                        hits[i].fetch_add(1, Ordering::Relaxed);
                    }
                    r.len() as u64
                })?;
                seen.push(s);
            }
            Ok(seen)
        })
        .unwrap();
        for s in &sums {
            for (round, &got) in s.iter().enumerate() {
                assert_eq!(got, (len - (round % 7) * 10) as u64);
            }
        }
        let expected: u64 = (0..rounds).map(|r| (len - (r % 7) * 10) as u64).sum();
        let total: u64 = hits.iter().map(|h| h.load(Ordering::Relaxed)).sum();
        assert_eq!(total, expected);
    }

    #[test]
    fn float_sums_agree_on_every_worker() {
        let (sums, _) = run_team(&cfg(5), |team| {
            let mut v = Vec::new();
            for round in 0..200 {
                v.push(team.sum_f64(0.1 * (team.worker() + round) as f64)?);
            }
            Ok(v)
        })
        .unwrap();
        assert!(sums.iter().all(|s| s == &sums[0]));
        assert!((sums[0][3] - 0.1 * (10.0 + 15.0)).abs() < 1e-9);
        let (pairs, _) =
            run_team(&cfg(3), |team| team.sum_f64s([1.0, team.worker() as f64])).unwrap();
        assert!(pairs.iter().all(|&p| p == [3.0, 3.0]));
    }

    #[test]
    fn minima_agree_on_every_worker() {
        let (mins, _) = run_team(&cfg(6), |team| {
            let mut v = Vec::new();
            for round in 0..200u64 {
                // Interleaved with float sums, which share the gather slots.
                let w = team.worker() as u64;
                v.push(team.min(1000 - (w * 7 + round) % 11)?);
                team.sum_f64(w as f64)?;
            }
            Ok(v)
        })
        .unwrap();
        for (round, &m) in mins[0].iter().enumerate() {
            let expect = (0..6u64).map(|w| 1000 - (w * 7 + round as u64) % 11).min();
            assert_eq!(Some(m), expect);
        }
        assert!(mins.iter().all(|m| m == &mins[0]));
        // Workers 1 and 3 of 4 hold a value in even rounds, none in odd ones.
        let (held, _) = run_team(&cfg(4), |team| {
            let w = team.worker() as u64;
            (0..100u64)
                .map(|round| {
                    let holds = w % 2 == 1 && round % 2 == 0;
                    team.min_and_holders(if holds { 10 + w } else { u64::MAX })
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .unwrap();
        assert!(held.iter().all(|h| h == &held[0]));
        for (round, &got) in held[0].iter().enumerate() {
            let expect = if round % 2 == 0 {
                (11, 2)
            } else {
                (u64::MAX, 0)
            };
            assert_eq!(got, expect);
        }
        let (got, _) = run_team(&cfg(3), |team| {
            let w = team.worker() as u64;
            team.broadcast(1, [w, 7 * w + 1])
        })
        .unwrap();
        assert!(got.iter().all(|&g| g == [1, 8]));
    }

    #[test]
    fn nowait_loops_visit_every_index_once_with_a_collective_between() {
        let len = 777;
        let hits: Vec<AtomicU64> = (0..len).map(|_| AtomicU64::new(0)).collect();
        let rounds = 300;
        let (totals, _) = run_team(&cfg(8), |team| {
            let mut total = 0;
            for round in 0..rounds {
                let mine = team.for_chunks_nowait(len, 1 + round % 17, |r| {
                    for i in r.clone() {
                        hits[i].fetch_add(1, Ordering::Relaxed);
                    }
                    r.len() as u64
                });
                total += team.sum(mine)?;
            }
            Ok(total)
        })
        .unwrap();
        assert!(totals.iter().all(|&t| t == (len * rounds) as u64));
        assert!(hits
            .iter()
            .all(|h| h.load(Ordering::Relaxed) == rounds as u64));
    }

    #[test]
    fn shares_partition_the_range() {
        for workers in 1..6 {
            for len in 0..20 {
                let (shares, _) = run_team(&cfg(workers), |team| Ok(team.share(len))).unwrap();
                let mut next = 0;
                for r in shares {
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, len);
            }
        }
    }

    #[test]
    fn a_panic_is_reported_and_releases_the_others() {
        let err = run_team(&cfg(4), |team| {
            if team.worker() == 2 {
                panic!("boom");
            }
            loop {
                team.barrier()?;
            }
            #[allow(unreachable_code)]
            Ok(())
        })
        .unwrap_err();
        assert!(
            matches!(err, ExecError::OperatorPanicked { worker: 2, ref message } if message == "boom"),
            "{err:?}"
        );
    }

    #[test]
    fn cancelling_stops_every_worker_at_the_same_round() {
        let cancel = Arc::new(AtomicBool::new(false));
        let mut c = cfg(3);
        c.cancel = Some(cancel.clone());
        let rounds: Vec<AtomicU64> = (0..3).map(|_| AtomicU64::new(0)).collect();
        let err = run_team(&c, |team| {
            for round in 0.. {
                if round == 50 && team.worker() == 1 {
                    cancel.store(true, Ordering::Relaxed);
                }
                match team.barrier() {
                    Ok(()) => rounds[team.worker()].store(round, Ordering::Relaxed),
                    Err(e) => return Err(e),
                }
            }
            Ok(())
        })
        .unwrap_err();
        assert!(matches!(err, ExecError::Cancelled(_)), "{err:?}");
        let r: Vec<u64> = rounds.iter().map(|r| r.load(Ordering::Relaxed)).collect();
        assert!(r.iter().all(|&x| x == r[0]), "{r:?}");
    }
}
