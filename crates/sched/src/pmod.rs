//! `pmod`, Priority Merging On Demand (the PMOD paper, Yesil et al., SC'19, §4): obim whose
//! priority-to-bag mapping adapts at run time, so no `delta` needs tuning.
//!
//! * **Bags** are keyed by `(p >> lmf, lmf)`, where `lmf` (log2 of the merging factor) is the
//!   value current when the task was pushed. Bags are ordered as §4.2 says: shift both to the
//!   larger lmf and compare; on a tie the smaller lmf goes first. That order is the order of
//!   `(last priority the bag covers, lmf)`, the [`Level`] key used here: two bags cover aligned
//!   power-of-two ranges, which are nested or disjoint, and the rule puts the inner (or
//!   earlier) range first.
//! * **Counters** (Figure 3): every Enq counts and widens the recent priority range
//!   `[MinB, MaxB]`; every Deq counts; a synchronizing Deq (the worker's current bag ran dry and
//!   it goes to the map) counts and runs `mergeCheck`, then, if lmf did not change,
//!   `unmergeCheck` (Figure 4). Workers count locally and add to shared totals every
//!   [`FLUSH_EVERY`] events; a change of lmf starts a new epoch that zeroes the totals, and
//!   local counts from an older epoch are dropped. (Idle re-probes of an empty scheduler are not
//!   synchronizing Deqs: they would read as "too many queues" while there is simply no work.)
//! * **mergeCheck**: if `nSyncDeqs / nDeqs > Freq_global` (= 1/chunk) and the tasks per group,
//!   `nEnqs / ((MaxB >> lmf) - (MinB >> lmf))`, are fewer than `MinDensity`, lmf grows by
//!   `floor(log2(MinDensity / fill))`. **unmergeCheck**: if more than `MaxPops` Deqs came from
//!   one group and fewer than `Min_queues` groups cover the range, lmf shrinks by
//!   `floor(log2(Min_queues / groups))`, provided the pushes are dense (below). Decisions wait
//!   for at least `chunk` Deqs since the last change, so a ratio is never taken over a
//!   handful of events, and every merge doubles that wait (as Galois' implementation does).
//! * Every change of lmf is recorded (time, old, new) and reported through
//!   [`Scheduler::events`](crate::Scheduler::events).
//! * **Push-density guard** (Galois' implementation, not the paper's figure): unmerging also
//!   needs more than `unmerge_density` (4 * chunk) pushes per group since the last change.
//!
//! Thresholds default to the paper's: Freq_global = 1/chunk, MaxPops = 4 * chunk,
//! MinDensity = 64, Min_queues = 16, lmf starts at 0.

use crate::contract::{Event, Task};
use crate::obim::leveling::Leveling;
use crate::obim::{BagKind, Obim, ObimConfig};
use crate::params::{parse_in, Config, ConfigError, ParamInfo};
use crate::topology::Topology;
use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Local events between two flushes of a worker's counters into the shared totals.
pub const FLUSH_EVERY: u64 = 64;

#[derive(Debug, Clone)]
pub struct PmodConfig {
    pub chunk: usize,
    pub min_density: u64,
    pub min_queues: u64,
    /// `None`: 4 * chunk.
    pub max_pops: Option<u64>,
    /// Unmerge only with more pushes than this per group since the last change; `None`:
    /// 4 * chunk (Galois' guard).
    pub unmerge_density: Option<u64>,
    /// lmf at the start.
    pub lmf: u32,
}

impl Default for PmodConfig {
    fn default() -> Self {
        PmodConfig {
            chunk: 64,
            min_density: 64,
            min_queues: 16,
            max_pops: None,
            unmerge_density: None,
            lmf: 0,
        }
    }
}

impl PmodConfig {
    pub fn max_pops(&self) -> u64 {
        self.max_pops.unwrap_or(4 * self.chunk as u64)
    }

    pub fn unmerge_density(&self) -> u64 {
        self.unmerge_density.unwrap_or(4 * self.chunk as u64)
    }
}

impl Config for PmodConfig {
    const NAME: &'static str = "pmod";
    const SUMMARY: &'static str =
        "obim that merges and unmerges priorities on demand: no delta to tune (Yesil et al. §4)";

    fn describe(&self) -> Vec<ParamInfo> {
        vec![
            ParamInfo {
                key: "chunk",
                default: self.chunk.to_string(),
                doc: "tasks per chunk; Freq_global = 1/chunk",
            },
            ParamInfo {
                key: "min_density",
                default: self.min_density.to_string(),
                doc: "merge when fewer tasks than this per priority group",
            },
            ParamInfo {
                key: "min_queues",
                default: self.min_queues.to_string(),
                doc: "unmerge when fewer groups than this cover the recent range",
            },
            ParamInfo {
                key: "max_pops",
                default: self
                    .max_pops
                    .map_or("4*chunk".to_string(), |m| m.to_string()),
                doc: "consider unmerging after this many pops from one group",
            },
            ParamInfo {
                key: "unmerge_density",
                default: self
                    .unmerge_density
                    .map_or("4*chunk".to_string(), |m| m.to_string()),
                doc: "unmerge only with more pushes than this per group (Galois' guard; 0: off)",
            },
            ParamInfo {
                key: "lmf",
                default: self.lmf.to_string(),
                doc: "log2 of the merging factor at the start",
            },
        ]
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        match key {
            "chunk" => self.chunk = parse_in::<Self>(key, value, 1..=1 << 16)? as usize,
            "min_density" => self.min_density = parse_in::<Self>(key, value, 1..=1 << 30)?,
            "min_queues" => self.min_queues = parse_in::<Self>(key, value, 1..=1 << 30)?,
            "max_pops" if value.trim() == "4*chunk" => self.max_pops = None,
            "max_pops" => self.max_pops = Some(parse_in::<Self>(key, value, 1..=1 << 40)?),
            "unmerge_density" if value.trim() == "4*chunk" => self.unmerge_density = None,
            "unmerge_density" => {
                self.unmerge_density = Some(parse_in::<Self>(key, value, 0..=1 << 40)?)
            }
            "lmf" => self.lmf = parse_in::<Self>(key, value, 0..=MAX_LMF as u64)? as u32,
            _ => return Err(Self::unknown_param(key)),
        }
        Ok(())
    }
}

/// lmf never exceeds this (a group then spans 2^63 priorities).
pub const MAX_LMF: u32 = 63;

/// A bag's key: `(last priority the group covers) << 8 | lmf`, ordered as the PMOD paper's §4.2.
pub type Level = u128;

/// The key of the group `(p >> lmf, lmf)`.
#[inline]
pub fn level_of(priority: u64, lmf: u32) -> Level {
    let group = (priority >> lmf) as u128;
    let last = ((group + 1) << lmf) - 1;
    (last << 8) | lmf as u128
}

/// Shared totals since the last lmf change.
#[derive(Debug)]
struct Totals {
    deqs: AtomicU64,
    sync_deqs: AtomicU64,
    enqs: AtomicU64,
    min_b: AtomicU64,
    max_b: AtomicU64,
}

impl Totals {
    fn new() -> Self {
        Totals {
            deqs: AtomicU64::new(0),
            sync_deqs: AtomicU64::new(0),
            enqs: AtomicU64::new(0),
            min_b: AtomicU64::new(u64::MAX),
            max_b: AtomicU64::new(0),
        }
    }

    fn reset(&self) {
        self.deqs.store(0, Ordering::Relaxed);
        self.sync_deqs.store(0, Ordering::Relaxed);
        self.enqs.store(0, Ordering::Relaxed);
        self.min_b.store(u64::MAX, Ordering::Relaxed);
        self.max_b.store(0, Ordering::Relaxed);
    }
}

/// PMOD's leveling policy: the adaptive lmf and its counters.
pub struct PmodLeveling {
    cfg: PmodConfig,
    lmf: CachePadded<AtomicU32>,
    epoch: CachePadded<AtomicU64>,
    totals: CachePadded<Totals>,
    /// One decision at a time; a worker that finds it taken skips its check. It guards the
    /// Deqs a decision waits for since the last change: `chunk`, doubled by every merge
    /// (Galois' implementation does the same), so lmf settles instead of oscillating.
    deciding: Mutex<u64>,
    trace: Mutex<Vec<Event>>,
    start: Instant,
}

/// A worker's counts since its last flush.
#[derive(Debug)]
pub struct PmodLocal {
    epoch: u64,
    deqs: u64,
    sync_deqs: u64,
    enqs: u64,
    min_b: u64,
    max_b: u64,
    pending: u64,
    /// Pops from the current group since the worker last went to the map.
    pops_in_group: u64,
    merges: u64,
    unmerges: u64,
}

impl Default for PmodLocal {
    fn default() -> Self {
        PmodLocal {
            epoch: 0,
            deqs: 0,
            sync_deqs: 0,
            enqs: 0,
            min_b: u64::MAX,
            max_b: 0,
            pending: 0,
            pops_in_group: 0,
            merges: 0,
            unmerges: 0,
        }
    }
}

impl PmodLocal {
    fn clear_counts(&mut self) {
        self.deqs = 0;
        self.sync_deqs = 0;
        self.enqs = 0;
        self.min_b = u64::MAX;
        self.max_b = 0;
        self.pending = 0;
    }
}

impl PmodLeveling {
    pub fn new(cfg: &PmodConfig) -> Self {
        PmodLeveling {
            cfg: cfg.clone(),
            lmf: CachePadded::new(AtomicU32::new(cfg.lmf)),
            epoch: CachePadded::new(AtomicU64::new(0)),
            totals: CachePadded::new(Totals::new()),
            deciding: Mutex::new(cfg.chunk as u64),
            trace: Mutex::new(Vec::new()),
            start: Instant::now(),
        }
    }

    /// The current lmf.
    pub fn lmf(&self) -> u32 {
        self.lmf.load(Ordering::Relaxed)
    }

    /// Adds a worker's counts to the totals of its epoch (dropped if lmf changed since).
    ///
    /// Every access to `lmf`, `epoch` and the totals is Relaxed: they are statistics and a
    /// hint, and no other memory is published through them. A flush racing with a decision
    /// can add a few counts of the old epoch to the new totals (the epoch is read before the
    /// adds); that skews one ratio slightly, as the paper's unsynchronized counters would.
    fn flush(&self, l: &mut PmodLocal) {
        let epoch = self.epoch.load(Ordering::Relaxed);
        if l.epoch == epoch {
            let t = &self.totals;
            t.deqs.fetch_add(l.deqs, Ordering::Relaxed);
            t.sync_deqs.fetch_add(l.sync_deqs, Ordering::Relaxed);
            t.enqs.fetch_add(l.enqs, Ordering::Relaxed);
            if l.enqs > 0 {
                t.min_b.fetch_min(l.min_b, Ordering::Relaxed);
                t.max_b.fetch_max(l.max_b, Ordering::Relaxed);
            }
        }
        l.epoch = epoch;
        l.clear_counts();
    }

    #[inline(always)]
    fn tick(&self, l: &mut PmodLocal) {
        l.pending += 1;
        if l.pending >= FLUSH_EVERY {
            self.flush(l);
        }
    }

    /// Figures 3-4: the checks of a synchronizing dequeue.
    fn decide(&self, l: &mut PmodLocal) {
        let Ok(mut patience) = self.deciding.try_lock() else {
            return;
        };
        let t = &self.totals;
        let deqs = t.deqs.load(Ordering::Relaxed);
        let sync_deqs = t.sync_deqs.load(Ordering::Relaxed);
        let enqs = t.enqs.load(Ordering::Relaxed);
        let (min_b, max_b) = (
            t.min_b.load(Ordering::Relaxed),
            t.max_b.load(Ordering::Relaxed),
        );
        if deqs < *patience || enqs == 0 || min_b > max_b {
            return;
        }
        let lmf = self.lmf();
        let new = merge_check(&self.cfg, lmf, deqs, sync_deqs, enqs, min_b, max_b)
            .or_else(|| unmerge_check(&self.cfg, lmf, l.pops_in_group, enqs, min_b, max_b));
        if let Some(new) = new {
            if new > lmf {
                l.merges += 1;
                *patience = patience.saturating_mul(2);
            } else {
                l.unmerges += 1;
            }
            self.epoch.fetch_add(1, Ordering::Relaxed);
            t.reset();
            self.lmf.store(new, Ordering::Relaxed);
            let mut trace = self.trace.lock().unwrap_or_else(|e| e.into_inner());
            trace.push(Event {
                time_ns: self.start.elapsed().as_nanos() as u64,
                name: "lmf",
                old: lmf as u64,
                new: new as u64,
            });
        }
    }
}

/// Groups of `2^lmf` priorities covering `[min_b, max_b]` (Figure 4's Numqueues, at least 1).
fn groups(lmf: u32, min_b: u64, max_b: u64) -> u64 {
    ((max_b >> lmf) - (min_b >> lmf)).max(1)
}

/// Figure 4, mergeCheck: the new lmf, if merging is due.
pub fn merge_check(
    cfg: &PmodConfig,
    lmf: u32,
    deqs: u64,
    sync_deqs: u64,
    enqs: u64,
    min_b: u64,
    max_b: u64,
) -> Option<u32> {
    // nSyncDeqs / nDeqs <= Freq_global = 1 / chunk: the map is rarely needed.
    if sync_deqs.saturating_mul(cfg.chunk as u64) <= deqs || lmf >= MAX_LMF {
        return None;
    }
    let fill = enqs as f64 / groups(lmf, min_b, max_b) as f64;
    if fill >= cfg.min_density as f64 {
        return None;
    }
    let step = (cfg.min_density as f64 / fill).log2().floor() as u32;
    (step > 0).then(|| (lmf + step).min(MAX_LMF))
}

/// Figure 4, unmergeCheck: the new lmf, if unmerging is due.
///
/// With the push-density guard of Galois' implementation (`AdaptiveObim.h`), which the paper's
/// figure does not show: unmerge only while the pushes since the last change are dense, more
/// than [`PmodConfig::unmerge_density`] per group of the range. Without it, the sparse tail of
/// a run (few pushes, many pops from one group) unmerges, the next synchronizing pops merge
/// again, and lmf flips between 13 and 9-10 about 280 times on NY at 1 thread.
pub fn unmerge_check(
    cfg: &PmodConfig,
    lmf: u32,
    pops_in_group: u64,
    enqs: u64,
    min_b: u64,
    max_b: u64,
) -> Option<u32> {
    if pops_in_group <= cfg.max_pops() || lmf == 0 {
        return None;
    }
    let n = groups(lmf, min_b, max_b);
    if n >= cfg.min_queues || enqs <= cfg.unmerge_density() * n {
        return None;
    }
    let step = (cfg.min_queues as f64 / n as f64).log2().floor() as u32;
    (step > 0).then(|| lmf.saturating_sub(step))
}

impl Leveling for PmodLeveling {
    type Level = Level;
    type Local = PmodLocal;

    #[inline(always)]
    fn level(&self, l: &mut PmodLocal, priority: u64) -> Level {
        l.enqs += 1;
        l.min_b = l.min_b.min(priority);
        l.max_b = l.max_b.max(priority);
        self.tick(l);
        // Relaxed: any lmf gives a valid key (bags stay totally ordered); a push that misses
        // a change by a moment lands in a group of the previous size, which §4.2's order
        // handles.
        level_of(priority, self.lmf.load(Ordering::Relaxed))
    }

    #[inline(always)]
    fn hint(level: Level) -> u64 {
        (level >> 8) as u64
    }

    #[inline(always)]
    fn first_level(hint: u64) -> Level {
        (hint as u128) << 8
    }

    #[inline(always)]
    fn on_pop(&self, l: &mut PmodLocal) {
        l.deqs += 1;
        l.pops_in_group += 1;
        self.tick(l);
    }

    fn on_sync_pop(&self, l: &mut PmodLocal) {
        l.deqs += 1;
        l.sync_deqs += 1;
        self.flush(l);
        self.decide(l);
        l.pops_in_group = 0;
    }

    fn drain_counters(&self, l: &mut PmodLocal) -> Vec<(&'static str, u64)> {
        self.flush(l);
        vec![("lmf_merges", l.merges), ("lmf_unmerges", l.unmerges)]
    }

    fn events(&self) -> Vec<Event> {
        self.trace.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// PMOD: obim's engine over [`PmodLeveling`].
pub type Pmod<T> = Obim<T, PmodLeveling>;

/// Builds PMOD for `workers` workers on `topo`.
pub fn new<T: Task>(cfg: &PmodConfig, workers: usize, topo: &Topology) -> Pmod<T> {
    let engine = ObimConfig {
        chunk: cfg.chunk,
        delta: 0,
        bags: BagKind::Distributed,
        backscan_prevention: true,
    };
    Obim::with_leveling(&engine, PmodLeveling::new(cfg), workers, topo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Handle, Scheduler};

    /// The paper's comparison rule, written out as §4.2 states it.
    fn paper_before(a: (u64, u32), b: (u64, u32)) -> bool {
        let l = a.1.max(b.1);
        let (x, y) = (a.0 >> (l - a.1), b.0 >> (l - b.1));
        x < y || (x == y && (a.1 < b.1 || (a.1 == b.1 && a.0 < b.0)))
    }

    fn key(q: (u64, u32)) -> Level {
        // (q, l) is the group of priority q << l.
        level_of(q.0 << q.1, q.1)
    }

    #[test]
    fn section_4_2_worked_example() {
        // Queues at lmf 0, then lmf becomes 3 and a task with p = 9 arrives: group (1, 3).
        let mut queues = vec![(1, 0), (5, 0), (8, 0), (10, 0), (11, 0), (32, 0)];
        assert_eq!(key((9 >> 3, 3)), level_of(9, 3));
        queues.push((1, 3));
        queues.sort_by_key(|&q| key(q));
        assert_eq!(
            queues,
            vec![(1, 0), (5, 0), (8, 0), (10, 0), (11, 0), (1, 3), (32, 0)]
        );
    }

    #[test]
    fn key_order_is_the_papers_order() {
        let groups: Vec<(u64, u32)> = (0..5)
            .flat_map(|l| (0..(70u64 >> l)).map(move |p| (p, l)))
            .collect();
        for &a in &groups {
            for &b in &groups {
                assert_eq!(key(a) < key(b), paper_before(a, b), "{a:?} vs {b:?}");
            }
        }
        // The extremes do not overflow.
        assert!(level_of(u64::MAX, 0) < level_of(u64::MAX, 63));
    }

    #[test]
    fn merge_and_unmerge_checks_follow_figure_4() {
        let cfg = PmodConfig::default();
        // Half the dequeues synchronize, 100 tasks over 1000 priorities: fill 0.1 per group,
        // log2(64 / 0.1) = 9.3, so lmf grows by 9.
        assert_eq!(merge_check(&cfg, 0, 100, 50, 100, 0, 1000), Some(9));
        // Rare synchronizing dequeues (<= 1/64): no merge.
        assert_eq!(merge_check(&cfg, 0, 6400, 100, 100, 0, 1000), None);
        // Dense enough: no merge.
        assert_eq!(merge_check(&cfg, 0, 100, 50, 64_000, 0, 1000), None);
        // 300 pops from one group, range covered by 2 groups at lmf 6, 1000 pushes (more
        // than 4 * 64 per group): log2(16/2) = 3.
        assert_eq!(unmerge_check(&cfg, 6, 300, 1000, 0, 128), Some(3));
        assert_eq!(unmerge_check(&cfg, 6, 256, 1000, 0, 128), None);
        assert_eq!(unmerge_check(&cfg, 2, 300, 1000, 0, 128), None);
        assert_eq!(unmerge_check(&cfg, 1, 300, 1000, 0, 1), Some(0));
        // The push-density guard: 512 pushes over 2 groups is not more than 256 per group.
        assert_eq!(unmerge_check(&cfg, 6, 300, 512, 0, 128), None);
        let off = PmodConfig {
            unmerge_density: Some(0),
            ..cfg
        };
        assert_eq!(unmerge_check(&off, 6, 300, 1, 0, 128), Some(3));
    }

    #[test]
    fn sparse_priorities_make_lmf_grow_and_every_task_pops() {
        // One task per priority: every pop drains a group, so lmf must rise.
        let s: Pmod<u64> = new(&PmodConfig::default(), 1, &Topology::synthetic(1, 1));
        let mut h = s.handle(0);
        let mut popped = 0;
        for round in 0..50u64 {
            for i in 0..100 {
                let p = round * 10_000 + i * 97;
                h.push(p, p);
            }
            while h.pop().is_some() {
                popped += 1;
            }
        }
        drop(h);
        assert_eq!(popped, 5000);
        assert!(s.leveling().lmf() > 0, "lmf stayed 0");
        let trace = s.events();
        assert!(!trace.is_empty());
        assert!(trace.windows(2).all(|w| w[0].time_ns <= w[1].time_ns));
        assert_eq!(trace.last().unwrap().new, s.leveling().lmf() as u64);
        assert!(s.counters().get("lmf_merges") > 0);
    }
}
