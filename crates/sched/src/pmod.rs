//! `pmod`, Priority Merging On Demand (the PMOD paper, Yesil et al., SC'19, §4): obim whose
//! priority-to-bag mapping adapts at run time, so no `delta` needs tuning. It follows the
//! authors' implementation, `Galois-2.2.1/include/Galois/WorkList/AdaptiveObim.h` of
//! github.com/serifyesil/PMOD, where that differs from the paper's figures.
//!
//! * **Bags** are keyed by `(p >> lmf, lmf)`, where `lmf` (log2 of the merging factor, the
//!   file's `delta`) is the value current when the task was pushed. Bags are ordered as §4.2
//!   says: shift both to the larger lmf and compare; on a tie the smaller lmf goes first. That
//!   order is the order of `(last priority the bag covers, lmf)`, the [`Level`] key used
//!   here: two bags cover aligned power-of-two ranges, which are nested or disjoint, and the
//!   rule puts the inner (or earlier) range first.
//! * **The window.** Every worker counts its pushes and the smallest and largest priority it
//!   pushed since the last check. Worker 0 alone checks (the file's thread 0): it counts its
//!   own pops (every pop call, the failed ones too) and its slow pops (every pop that finds its
//!   current bag empty and goes to the map, idle re-probes included). When its pops exceed the
//!   check period (`chunk` at first) and more than one pop in `chunk` was slow (Freq_global =
//!   1/chunk), it sums every worker's window and resets all of them, merge or not.
//! * **The merge.** If the pushes per covered group, `pushes / ((max >> lmf) - (min >> lmf))`,
//!   are fewer than `min_density` (`chunk / 2`), lmf grows by `floor(log2(chunk / that
//!   ratio))`, and the check period doubles. A window whose priorities fit one group, or that
//!   saw no push, merges nothing.
//! * **No unmerge by default**: the file's `UNMERGE_ENABLED` is commented out, so the published
//!   PMOD's lmf only grows. `unmerge=1` adds the paper's unmergeCheck (Figure 4) with the file's
//!   push-density guard (below), checked by worker 0 when its pops exceed the period and
//!   merging is not due.
//! * Every change of lmf is recorded (time, old, new) and reported through
//!   [`Scheduler::events`](crate::Scheduler::events); the counter `tasks_before_first_merge`
//!   counts the tasks popped while lmf kept its starting value (all of them without a merge).
//!
//! Where ordo differs from the file: the windows live in one cache line per worker, written
//! by its owner alone, and a check resets them by starting a new window (each worker zeroes
//! its counts at its next push) instead of locking every worker; a push racing with a check
//! may land in either window. The unmerge check reads every worker's window (the file reads
//! thread 0's alone). The file's indices are `int` (the application's priority); ordo's are
//! `u64`, clamped to [`LAST_DISTINCT`] (2^58 - 1) so that a bag's key fits 64 bits:
//! priorities beyond share the last group of their lmf (a 128-bit key took 1-11% more time,
//! `docs/measurement.md`).
//!
//! Thresholds default to the file's: Freq_global = 1/chunk, a merge below `chunk / 2` pushes
//! per group, the period `chunk` doubling at each merge, lmf starting at 0; for `unmerge=1`,
//! MaxPops = 4 * chunk, Min_queues = 16, and the guard of 4 * chunk pushes per group.

use crate::contract::{Event, Task};
use crate::obim::leveling::Leveling;
use crate::obim::{BagKind, Obim, ObimConfig};
use crate::params::{parse_in, Config, ConfigError, ParamInfo};
use crate::topology::Topology;
use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

#[derive(Debug, Clone)]
pub struct PmodConfig {
    pub chunk: usize,
    /// Merge when fewer pushes than this per covered group; `None`: chunk / 2.
    pub min_density: Option<u64>,
    /// Whether lmf may also shrink (the paper's unmergeCheck; off in the authors' code).
    pub unmerge: bool,
    pub min_queues: u64,
    /// `None`: 4 * chunk.
    pub max_pops: Option<u64>,
    /// Unmerge only with more pushes than this per group in the window; `None`: 4 * chunk
    /// (the authors' guard).
    pub unmerge_density: Option<u64>,
    /// lmf at the start.
    pub lmf: u32,
}

impl Default for PmodConfig {
    fn default() -> Self {
        PmodConfig {
            chunk: 64,
            min_density: None,
            unmerge: false,
            min_queues: 16,
            max_pops: None,
            unmerge_density: None,
            lmf: 0,
        }
    }
}

impl PmodConfig {
    pub fn min_density(&self) -> u64 {
        self.min_density.unwrap_or(self.chunk as u64 / 2)
    }

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
        "obim that merges priorities on demand: no delta to tune (Yesil et al. §4; the authors' AdaptiveObim.h)";

    fn describe(&self) -> Vec<ParamInfo> {
        vec![
            ParamInfo {
                key: "chunk",
                default: self.chunk.to_string(),
                doc: "tasks per chunk; Freq_global = 1/chunk; the first check period",
            },
            ParamInfo {
                key: "min_density",
                default: self
                    .min_density
                    .map_or("chunk/2".to_string(), |m| m.to_string()),
                doc: "merge when fewer pushes than this per priority group",
            },
            ParamInfo {
                key: "unmerge",
                default: (self.unmerge as u8).to_string(),
                doc: "1: lmf may also shrink (the paper's unmergeCheck; off in the authors' code)",
            },
            ParamInfo {
                key: "min_queues",
                default: self.min_queues.to_string(),
                doc: "with unmerge=1: unmerge when fewer groups than this cover the window",
            },
            ParamInfo {
                key: "max_pops",
                default: self
                    .max_pops
                    .map_or("4*chunk".to_string(), |m| m.to_string()),
                doc: "with unmerge=1: consider unmerging after this many pops from one group",
            },
            ParamInfo {
                key: "unmerge_density",
                default: self
                    .unmerge_density
                    .map_or("4*chunk".to_string(), |m| m.to_string()),
                doc: "with unmerge=1: only with more pushes than this per group (0: off)",
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
            "min_density" if value.trim() == "chunk/2" => self.min_density = None,
            "min_density" => self.min_density = Some(parse_in::<Self>(key, value, 1..=1 << 30)?),
            "unmerge" => self.unmerge = parse_in::<Self>(key, value, 0..=1)? == 1,
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

/// A bag's key: `(last priority the group covers) << 6 | lmf`, ordered as the PMOD paper's §4.2.
pub type Level = u64;

/// The largest last priority a key holds: priorities are clamped to it, so groups reaching
/// beyond it share it (with lmf 58 or more, every priority falls in one group).
pub const LAST_DISTINCT: u64 = (1 << 58) - 1;

/// The key of the group `(p >> lmf, lmf)`, for `p` clamped to [`LAST_DISTINCT`].
#[inline]
pub fn level_of(priority: u64, lmf: u32) -> Level {
    // The group's last priority, ((p >> lmf) + 1) << lmf) - 1, without leaving 64 bits.
    let last = (priority | ((1u64 << lmf) - 1)).min(LAST_DISTINCT);
    (last << 6) | lmf as u64
}

/// One worker's window, written by that worker alone and read by the checking worker.
///
/// Orderings: a worker that starts a window stores its zeroed counts and then the window's
/// number (Release); the checker reads the number (Acquire) before the counts, so a slot it
/// counts holds that window's counts or later ones of the same window. The counts are a
/// statistic: a push racing with a check lands in either window.
#[derive(Debug)]
struct Slot {
    window: AtomicU64,
    pushes: AtomicU64,
    min: AtomicU64,
    max: AtomicU64,
}

impl Slot {
    fn new() -> Self {
        Slot {
            window: AtomicU64::new(0),
            pushes: AtomicU64::new(0),
            min: AtomicU64::new(u64::MAX),
            max: AtomicU64::new(0),
        }
    }
}

/// The windows summed: pushes and the smallest and largest priority pushed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub pushes: u64,
    pub min: u64,
    pub max: u64,
}

/// PMOD's leveling policy: the adaptive lmf and its windows.
pub struct PmodLeveling {
    cfg: PmodConfig,
    lmf: CachePadded<AtomicU32>,
    /// The current window's number: the checking worker starts a new one at every check.
    window: CachePadded<AtomicU64>,
    slots: Box<[CachePadded<Slot>]>,
    trace: Mutex<Vec<Event>>,
    start: Instant,
}

/// A worker's side of PMOD: its window, and the checking worker's pop counts.
#[derive(Debug)]
pub struct PmodLocal {
    worker: usize,
    /// Its window's slot in `slots` (computed once: a division per push otherwise).
    slot: usize,
    /// The window its counts belong to.
    window: u64,
    pushes: u64,
    min: u64,
    max: u64,
    /// Pop calls and slow pops since the last check (the checking worker's `sinceLastFix` and
    /// `slowPopsLastPeriod`). A fast pop counts only here; the other counts follow from it
    /// at the slow pops, off the pop path.
    pops: u64,
    slow_pops: u64,
    /// Pop calls before the last window reset (with `pops`, every pop call).
    pops_before: u64,
    /// Slow pops that found nothing (every other pop call ran a task).
    empty_pops: u64,
    /// The checking worker's period: pops between checks, doubled by every merge.
    period: u64,
    /// Every pop call when the worker last went to the map (at its latest slow pop).
    group_start: u64,
    /// The fast pops from the group it left at its latest slow pop (set there, read by
    /// `check`).
    pops_in_group: u64,
    /// `tasks()` when the worker first saw lmf change.
    tasks_before_merge: Option<u64>,
    merges: u64,
    unmerges: u64,
}

impl PmodLocal {
    /// Every pop call so far.
    fn all_pops(&self) -> u64 {
        self.pops_before + self.pops
    }

    /// Pop calls that ran a task.
    fn tasks(&self) -> u64 {
        self.all_pops() - self.empty_pops
    }
}

impl PmodLeveling {
    pub fn new(cfg: &PmodConfig, workers: usize) -> Self {
        PmodLeveling {
            cfg: cfg.clone(),
            lmf: CachePadded::new(AtomicU32::new(cfg.lmf)),
            window: CachePadded::new(AtomicU64::new(0)),
            slots: (0..workers.max(1))
                .map(|_| CachePadded::new(Slot::new()))
                .collect(),
            trace: Mutex::new(Vec::new()),
            start: Instant::now(),
        }
    }

    /// The current lmf.
    #[inline]
    pub fn lmf(&self) -> u32 {
        self.lmf.load(Ordering::Relaxed)
    }

    /// Notes the tasks popped before lmf first changed.
    fn note_merge(&self, l: &mut PmodLocal) {
        if l.tasks_before_merge.is_none() && self.lmf() != self.cfg.lmf {
            l.tasks_before_merge = Some(l.tasks());
        }
    }

    /// Every worker's counts in the current window.
    fn window_totals(&self) -> Window {
        let current = self.window.load(Ordering::Relaxed);
        let mut w = Window {
            pushes: 0,
            min: u64::MAX,
            max: 0,
        };
        for slot in self.slots.iter() {
            if slot.window.load(Ordering::Acquire) != current {
                continue;
            }
            w.pushes += slot.pushes.load(Ordering::Relaxed);
            w.min = w.min.min(slot.min.load(Ordering::Relaxed));
            w.max = w.max.max(slot.max.load(Ordering::Relaxed));
        }
        w
    }

    /// Starts a new window for every worker (each zeroes its counts at its next push).
    fn reset_windows(&self, l: &mut PmodLocal) {
        self.window.fetch_add(1, Ordering::Relaxed);
        l.pops_before += l.pops;
        l.pops = 0;
        l.slow_pops = 0;
    }

    fn set_lmf(&self, old: u32, new: u32) {
        self.lmf.store(new, Ordering::Relaxed);
        let mut trace = self.trace.lock().unwrap_or_else(|e| e.into_inner());
        trace.push(Event {
            time_ns: self.start.elapsed().as_nanos() as u64,
            name: "lmf",
            old: old as u64,
            new: new as u64,
        });
    }

    /// The checking worker's decision after a slow pop (`AdaptiveObim.h`, `slowPop`).
    fn check(&self, l: &mut PmodLocal) {
        if l.pops <= l.period {
            return;
        }
        let lmf = self.lmf();
        if l.slow_pops.saturating_mul(self.cfg.chunk as u64) > l.pops {
            let window = self.window_totals();
            self.reset_windows(l);
            if let Some(new) = merge_check(&self.cfg, lmf, window) {
                l.merges += 1;
                l.period = l.period.saturating_mul(2);
                self.set_lmf(lmf, new);
            }
        } else if self.cfg.unmerge && lmf > 0 {
            let window = self.window_totals();
            if let Some(new) = unmerge_check(&self.cfg, lmf, l.pops_in_group, window) {
                self.reset_windows(l);
                l.unmerges += 1;
                self.set_lmf(lmf, new);
            }
        }
    }
}

/// The merge of `AdaptiveObim.h`: the new lmf, if the window's pushes per covered group are
/// fewer than `min_density`.
pub fn merge_check(cfg: &PmodConfig, lmf: u32, w: Window) -> Option<u32> {
    if w.pushes == 0 || w.min > w.max || lmf >= MAX_LMF {
        return None;
    }
    let groups = (w.max >> lmf) - (w.min >> lmf);
    if groups == 0 {
        return None;
    }
    let fill = w.pushes as f64 / groups as f64;
    if fill >= cfg.min_density() as f64 {
        return None;
    }
    let step = (cfg.chunk as f64 / fill).log2().floor() as u32;
    (step > 0).then(|| (lmf + step).min(MAX_LMF))
}

/// Figure 4's unmergeCheck (with `unmerge=1`): the new lmf, if more than `max_pops` pops came
/// from one group since the last slow pop and fewer than `min_queues` groups cover the
/// window.
///
/// With the push-density guard of `AdaptiveObim.h`, which the paper's figure does not show:
/// unmerge only while the window's pushes are dense, more than
/// [`PmodConfig::unmerge_density`] per group. Without it, the sparse tail of a run (few
/// pushes, many pops from one group) unmerges and the next checks merge again.
pub fn unmerge_check(cfg: &PmodConfig, lmf: u32, pops_in_group: u64, w: Window) -> Option<u32> {
    if pops_in_group <= cfg.max_pops() || lmf == 0 || w.pushes == 0 || w.min > w.max {
        return None;
    }
    let n = ((w.max >> lmf) - (w.min >> lmf)).max(1);
    if n >= cfg.min_queues || w.pushes <= cfg.unmerge_density() * n {
        return None;
    }
    let step = (cfg.min_queues as f64 / n as f64).log2().floor() as u32;
    (step > 0).then(|| lmf.saturating_sub(step))
}

impl Leveling for PmodLeveling {
    type Level = Level;
    type Local = PmodLocal;

    fn local(&self, worker: usize) -> PmodLocal {
        PmodLocal {
            worker,
            slot: worker % self.slots.len(),
            window: u64::MAX,
            pushes: 0,
            min: u64::MAX,
            max: 0,
            pops: 0,
            slow_pops: 0,
            pops_before: 0,
            empty_pops: 0,
            period: self.cfg.chunk as u64,
            group_start: 0,
            pops_in_group: 0,
            tasks_before_merge: None,
            merges: 0,
            unmerges: 0,
        }
    }

    #[inline(always)]
    fn level(&self, l: &mut PmodLocal, priority: u64) -> Level {
        let slot = &self.slots[l.slot];
        let window = self.window.load(Ordering::Relaxed);
        if window != l.window {
            self.note_merge(l);
            (l.window, l.pushes, l.min, l.max) = (window, 0, u64::MAX, 0);
            slot.min.store(u64::MAX, Ordering::Relaxed);
            slot.max.store(0, Ordering::Relaxed);
            slot.pushes.store(0, Ordering::Relaxed);
            slot.window.store(window, Ordering::Release);
        }
        l.pushes += 1;
        slot.pushes.store(l.pushes, Ordering::Relaxed);
        if priority < l.min {
            l.min = priority;
            slot.min.store(priority, Ordering::Relaxed);
        }
        if priority > l.max {
            l.max = priority;
            slot.max.store(priority, Ordering::Relaxed);
        }
        // Relaxed: any lmf gives a valid key (bags stay totally ordered); a push that misses
        // a change by a moment lands in a group of the previous size, which §4.2's order
        // handles.
        level_of(priority, self.lmf())
    }

    #[inline(always)]
    fn hint(level: Level) -> u64 {
        level >> 6
    }

    #[inline(always)]
    fn first_level(hint: u64) -> Level {
        hint.min(LAST_DISTINCT) << 6
    }

    /// The group number `p >> lmf`: the hint, a group's last priority, ends in `lmf` one
    /// bits, which would put every group in one push-cache entry once lmf reaches its width.
    #[inline(always)]
    fn cache_key(level: Level) -> u64 {
        (level >> 6) >> (level & 63)
    }

    #[inline(always)]
    fn on_pop(&self, l: &mut PmodLocal) {
        l.pops += 1;
    }

    fn on_slow_pop(&self, l: &mut PmodLocal, found: bool) {
        l.pops_in_group = l.all_pops() - l.group_start;
        l.pops += 1;
        l.slow_pops += 1;
        l.empty_pops += u64::from(!found);
        self.note_merge(l);
        if l.worker == 0 {
            self.check(l);
        }
        l.group_start = l.all_pops();
    }

    fn drain_counters(&self, l: &mut PmodLocal) -> Vec<(&'static str, u64)> {
        self.note_merge(l);
        vec![
            ("lmf_merges", l.merges),
            ("lmf_unmerges", l.unmerges),
            (
                "tasks_before_first_merge",
                l.tasks_before_merge.unwrap_or(l.tasks()),
            ),
        ]
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
    Obim::with_leveling(&engine, PmodLeveling::new(cfg, workers), workers, topo)
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
    fn priorities_beyond_the_distinct_range_share_their_lmfs_last_group() {
        let top = LAST_DISTINCT;
        for lmf in [0, 5, 57, 58, 63] {
            assert_eq!(level_of(top + 1, lmf), level_of(u64::MAX, lmf));
            // Keys never decrease with the priority, and no hint reads as idle.
            let ps = [0, 1, top - 1, top, top + 1, u64::MAX];
            for w in ps.windows(2) {
                assert!(
                    level_of(w[0], lmf) <= level_of(w[1], lmf),
                    "lmf {lmf} {w:?}"
                );
            }
            assert!(PmodLeveling::hint(level_of(u64::MAX, lmf)) < u64::MAX);
        }
        assert!(level_of(top - 1, 0) < level_of(top, 0));
        // Clamping is all that changes, and the paper's order holds up to the clamp.
        let near_top: Vec<u64> = [0u64, 1, 1 << 30, top >> 1, top - 1000, top - 1, top]
            .iter()
            .flat_map(|&p| (0..4).map(move |d| p.saturating_add(d)))
            .chain([top + 1, u64::MAX - 1, u64::MAX])
            .collect();
        for lmf in [0, 5, 57, 58, 59, 63] {
            for &p in &near_top {
                assert_eq!(
                    level_of(p, lmf),
                    level_of(p.min(top), lmf),
                    "p {p} lmf {lmf}"
                );
            }
        }
        let groups: Vec<(u64, u32)> = [0, 5, 57, 58]
            .iter()
            .flat_map(|&l| {
                near_top
                    .iter()
                    .filter(|&&p| p <= top)
                    .map(move |&p| (p >> l, l))
            })
            .collect();
        for &a in &groups {
            for &b in &groups {
                assert_eq!(key(a) < key(b), paper_before(a, b), "{a:?} vs {b:?}");
            }
        }
        // A scan from any hint starts at or below the levels carrying it.
        for h in [0, 77, top, top + 1, u64::MAX] {
            let from = PmodLeveling::first_level(h);
            assert!(
                from <= level_of(h, 0) && from <= level_of(h, 63),
                "hint {h}"
            );
        }
    }

    #[test]
    fn neighbouring_groups_take_different_push_cache_entries() {
        for lmf in [0, 3, 13, 40, 57] {
            for p in [0u64, 5 << 20, LAST_DISTINCT - 1] {
                let key = PmodLeveling::cache_key(level_of(p, lmf));
                assert_eq!(key, p >> lmf, "p {p} lmf {lmf}");
            }
        }
    }

    fn window(pushes: u64, min: u64, max: u64) -> Window {
        Window { pushes, min, max }
    }

    #[test]
    fn merge_and_unmerge_checks_follow_the_authors_code() {
        let cfg = PmodConfig::default();
        // 100 pushes over 1000 groups: 0.1 per group, log2(64 / 0.1) = 9.3, so lmf grows by 9.
        assert_eq!(merge_check(&cfg, 0, window(100, 0, 1000)), Some(9));
        // 31 per group is below chunk / 2 = 32: one step (log2(64 / 31) = 1.05).
        assert_eq!(merge_check(&cfg, 0, window(31_000, 0, 1000)), Some(1));
        assert_eq!(merge_check(&cfg, 0, window(32_000, 0, 1000)), None);
        // At lmf 3 the same range covers 125 groups.
        assert_eq!(merge_check(&cfg, 3, window(100, 0, 1000)), Some(3 + 6));
        // Priorities within one group, or no push: nothing to merge.
        assert_eq!(merge_check(&cfg, 4, window(5, 16, 31)), None);
        assert_eq!(merge_check(&cfg, 0, window(0, u64::MAX, 0)), None);
        let denser = PmodConfig {
            min_density: Some(64),
            ..cfg.clone()
        };
        assert_eq!(merge_check(&denser, 0, window(40_000, 0, 1000)), None);
        assert_eq!(merge_check(&denser, 0, window(32_000, 0, 1000)), Some(1));
        // Unmerging: 300 pops from one group, the window covered by 2 groups at lmf 6, 1000
        // pushes (more than 4 * 64 per group): log2(16 / 2) = 3.
        assert_eq!(unmerge_check(&cfg, 6, 300, window(1000, 0, 128)), Some(3));
        assert_eq!(unmerge_check(&cfg, 6, 256, window(1000, 0, 128)), None);
        assert_eq!(unmerge_check(&cfg, 2, 300, window(1000, 0, 128)), None);
        assert_eq!(unmerge_check(&cfg, 1, 300, window(1000, 0, 1)), Some(0));
        // The push-density guard: 512 pushes over 2 groups is not more than 256 per group.
        assert_eq!(unmerge_check(&cfg, 6, 300, window(512, 0, 128)), None);
        let off = PmodConfig {
            unmerge_density: Some(0),
            ..cfg
        };
        assert_eq!(unmerge_check(&off, 6, 300, window(1, 0, 128)), Some(3));
    }

    /// Pushes `per_priority` tasks at each of `priorities` spread `gap` apart from `base`, then
    /// pops them all.
    fn phase(h: &mut impl Handle<u64>, base: u64, priorities: u64, gap: u64, per: u64) -> u64 {
        for i in 0..priorities {
            for _ in 0..per {
                h.push(base + i * gap, base + i * gap);
            }
        }
        let mut popped = 0;
        while h.pop().is_some() {
            popped += 1;
        }
        popped
    }

    #[test]
    fn windows_restart_at_every_check_so_a_dense_start_does_not_decide_the_run() {
        // A dense start (2000 tasks on each of 8 priorities: no merge), then sparse rounds
        // (one task per priority): the later windows see only the sparse pushes and merge.
        let s: Pmod<u64> = new(&PmodConfig::default(), 1, &Topology::synthetic(1, 1));
        let mut h = s.handle(0);
        let mut popped = phase(&mut h, 0, 8, 1, 2000);
        assert_eq!(s.leveling().lmf(), 0, "the dense start merges nothing");
        for round in 1..=50 {
            popped += phase(&mut h, round * 100_000, 100, 97, 1);
        }
        drop(h);
        assert_eq!(popped, 16_000 + 5000);
        assert!(s.leveling().lmf() > 0, "the sparse windows merge");
        let c = s.counters();
        assert_eq!(c.get("lmf_unmerges"), 0);
        assert!(c.get("tasks_before_first_merge") >= 16_000);
        assert!(c.get("tasks_before_first_merge") < 21_000);
    }

    #[test]
    fn lmf_never_shrinks_unless_unmerging_is_asked_for() {
        // Sparse rounds merge; then dense rounds from a single group pop many tasks from one
        // bag, which the unmerge check would act on.
        let run = |cfg: PmodConfig| {
            let s: Pmod<u64> = new(&cfg, 1, &Topology::synthetic(1, 1));
            let mut h = s.handle(0);
            for round in 0..30 {
                phase(&mut h, round * 1_000_000, 100, 9973, 1);
            }
            for round in 30..60 {
                phase(&mut h, round * 1_000_000, 4, 1 << 20, 2000);
            }
            drop(h);
            s.events()
        };
        let events = run(PmodConfig::default());
        assert!(!events.is_empty());
        assert!(events.iter().all(|e| e.new > e.old), "{events:?}");
        let unmerging = run(PmodConfig {
            unmerge: true,
            ..PmodConfig::default()
        });
        assert!(unmerging.iter().any(|e| e.new < e.old), "{unmerging:?}");
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
