//! `obim`, Ordered By Integer Metric (the obim paper, Lenharth et al., Euro-Par'15, §3; Galois
//! `worklists/Obim.h`).
//!
//! * **Bags**: one distributed [`Bag`] per priority level (`priority >> delta`), made of
//!   per-worker chunks of `chunk` tasks and per-package chunk lists with one hunter per package
//!   (see `bag.rs`).
//! * **Priority map**: a global append-only [`GlobalLog`] of (level, bag) with a version number,
//!   and in each worker an ordered map (a `BTreeMap`) mirroring it, synchronized lazily: only
//!   when a push finds no bag for its level or a pop has run out of work (README.md beside
//!   this file). A 16-entry cache of recent push levels sits in front of the map.
//! * **Current level**: a worker pops from its current bag until the bag is empty; a push of
//!   an earlier level makes that level current at once.
//! * **Back-scan prevention**: every worker publishes the level it works on. A worker whose bag
//!   ran dry starts its scan at the earliest level published in its package, and a package
//!   leader also looks at the other packages' leaders, instead of scanning from the lowest
//!   level ever created. If that scan finds nothing, every max(16, levels)-th such failure in
//!   a row also scans the levels below the estimate, so no task is ever stranded there.
//!
//! * **Retiring dead levels** (ordo's addition; Galois keeps every bag until the worklist
//!   dies): a compaction replaces the log by a new generation without the levels everyone
//!   has left behind, and their bags are emptied and reused once every worker has moved to
//!   the new generation (`generation.rs`, `retire.rs`, `spare_bags.rs`; README.md).
//!
//! Variants (the obim paper's Table 2): `dmb` (distributed bags, back-scan prevention; the
//! default and the real obim), `dmn` (no back-scan prevention), `cmb` and `cmn` (one
//! centralized chunk list per bag instead of one per package).

pub mod generation;
pub mod global_log;
pub mod leveling;
mod retire;
mod spare_bags;

use crate::bag::{Bag, BagShared, BagWorker, Order};
use crate::chunk::Chunk;
use crate::contract::{CounterSink, Counters, Event, Handle, HandleClaims, Scheduler, Task};
use crate::params::{parse_bool, parse_in, Config, ConfigError, ParamInfo};
use crate::sync::{AtomicPtr, AtomicU64, Mutex, Ordering};
use crate::topology::{Topology, WorkerLayout};
use crossbeam_utils::CachePadded;
use generation::{Generation, Record, OUTSIDE};
use leveling::{Leveling, Shift};
use spare_bags::SpareBags;
use std::collections::BTreeMap;
use std::ops::Bound::{self, Excluded, Included, Unbounded};
// Hints only (back-scan prevention): not part of any protocol loom checks.
use std::sync::atomic::AtomicU64 as StdAtomicU64;

/// Where a bag keeps its chunks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BagKind {
    /// One chunk list per package (obim).
    Distributed,
    /// One chunk list shared by all workers.
    Centralized,
}

#[derive(Debug, Clone)]
pub struct ObimConfig {
    /// Tasks per chunk (the obim paper: 8-64; the PMOD paper, Yesil et al., SC'19, tuned 64).
    pub chunk: usize,
    /// Priorities are shifted right by `delta` bits: one bag per 2^delta priorities.
    pub delta: u32,
    pub bags: BagKind,
    pub backscan_prevention: bool,
}

impl Default for ObimConfig {
    fn default() -> Self {
        ObimConfig {
            chunk: 64,
            delta: 0,
            bags: BagKind::Distributed,
            backscan_prevention: true,
        }
    }
}

impl ObimConfig {
    /// The obim paper's variant name of this configuration.
    pub fn variant(&self) -> &'static str {
        match (self.bags, self.backscan_prevention) {
            (BagKind::Centralized, false) => "cmn",
            (BagKind::Centralized, true) => "cmb",
            (BagKind::Distributed, false) => "dmn",
            (BagKind::Distributed, true) => "dmb",
        }
    }
}

impl Config for ObimConfig {
    const NAME: &'static str = "obim";
    const SUMMARY: &'static str =
        "ordered by integer metric: per-priority distributed chunked bags + lazily synced map (Lenharth et al.)";

    fn describe(&self) -> Vec<ParamInfo> {
        vec![
            ParamInfo {
                key: "chunk",
                default: self.chunk.to_string(),
                doc: "tasks per chunk",
            },
            ParamInfo {
                key: "delta",
                default: self.delta.to_string(),
                doc: "priority shift: one bag per 2^delta priorities",
            },
            ParamInfo {
                key: "variant",
                default: self.variant().to_string(),
                doc: "dmb (obim), dmn (no back-scan prevention), cmb/cmn (centralized bags)",
            },
            ParamInfo {
                key: "backscan",
                default: self.backscan_prevention.to_string(),
                doc: "back-scan prevention on/off (same as the variant's last letter)",
            },
        ]
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        match key {
            "chunk" => self.chunk = parse_in::<Self>(key, value, 1..=1 << 16)? as usize,
            "delta" => self.delta = parse_in::<Self>(key, value, 0..=63)? as u32,
            "backscan" => self.backscan_prevention = parse_bool::<Self>(key, value)?,
            "variant" => {
                let (bags, bsp) = match value {
                    "dmb" => (BagKind::Distributed, true),
                    "dmn" => (BagKind::Distributed, false),
                    "cmb" => (BagKind::Centralized, true),
                    "cmn" => (BagKind::Centralized, false),
                    _ => return Err(Self::bad_value(key, value, "expected dmb, dmn, cmb or cmn")),
                };
                self.bags = bags;
                self.backscan_prevention = bsp;
            }
            _ => return Err(Self::unknown_param(key)),
        }
        Ok(())
    }
}

/// A published level meaning "this worker has no current level".
const IDLE: u64 = u64::MAX;

/// Entries of a handle's push cache (a power of two): a task's pushes spread over as many
/// levels as its arcs' weights span (PMOD at lmf 1 on Slashdot: about 128 groups). On the
/// heap, 8-12 KiB per handle, cleared only by a flush that follows pushes.
const PUSH_CACHE: usize = 256;

/// Failed scans between two full rescans below the back-scan estimate.
const FALLBACK_PERIOD: u64 = 16;

/// obim's engine, generic over how priorities map to levels: `Obim<T>` is obim itself
/// ([`Shift`] by `delta`); `crate::pmod::Pmod<T>` is PMOD.
pub struct Obim<T, L: Leveling = Shift> {
    cfg: ObimConfig,
    leveling: L,
    layout: WorkerLayout,
    bag_lists: usize,
    shared: BagShared,
    /// The map's current generation (`generation.rs`): its log of (level, bag) records.
    current: AtomicPtr<Generation<L::Level, T>>,
    /// The generation the last compaction replaced, until its retired bags are freed; null
    /// when none is pending.
    previous: AtomicPtr<Generation<L::Level, T>>,
    /// The generation each worker's handle has entered, `OUTSIDE` if it has no handle.
    entered: Box<[CachePadded<AtomicU64>]>,
    /// The bags the last compaction retired, until the grace period ends. Taken (try-lock
    /// only) by the worker that compacts the map or ends a grace period, and by `enter`.
    maintenance: Mutex<Vec<Record<L::Level, T>>>,
    /// Emptied retired bags, for new levels.
    spare_bags: SpareBags<T>,
    /// The level each worker works on (back-scan prevention), `IDLE` if none.
    scan_start: Box<[CachePadded<StdAtomicU64>]>,
    claims: HandleClaims,
    sink: CounterSink,
}

// SAFETY: the raw pointers point at generations and bags owned by the scheduler (freed by the
// reclamation protocol of README.md or in `Drop`), which are themselves `Sync`; everything
// else is synchronized.
unsafe impl<T: Send, L: Leveling> Sync for Obim<T, L> {}
// SAFETY: as above.
unsafe impl<T: Send, L: Leveling> Send for Obim<T, L> {}

impl<T: Task> Obim<T> {
    pub fn new(cfg: &ObimConfig, workers: usize, topo: &Topology) -> Self {
        Obim::with_leveling(cfg, Shift { delta: cfg.delta }, workers, topo)
    }
}

impl<T: Task, L: Leveling> Obim<T, L> {
    /// The engine with bags keyed by `leveling` (`cfg.delta` is then unused).
    pub fn with_leveling(cfg: &ObimConfig, leveling: L, workers: usize, topo: &Topology) -> Self {
        let layout = match cfg.bags {
            BagKind::Distributed => topo.layout(workers),
            BagKind::Centralized => WorkerLayout::single(workers),
        };
        let bag_lists = layout.packages();
        Obim {
            cfg: cfg.clone(),
            leveling,
            bag_lists,
            shared: BagShared::new(Order::Fifo, bag_lists),
            current: AtomicPtr::new(Box::into_raw(Box::new(Generation::new(0, &[])))),
            previous: AtomicPtr::new(std::ptr::null_mut()),
            entered: (0..workers)
                .map(|_| CachePadded::new(AtomicU64::new(OUTSIDE)))
                .collect(),
            maintenance: Mutex::new(Vec::new()),
            spare_bags: SpareBags::new(),
            scan_start: (0..workers)
                .map(|_| CachePadded::new(StdAtomicU64::new(IDLE)))
                .collect(),
            claims: HandleClaims::new(workers),
            sink: CounterSink::default(),
            layout,
        }
    }

    /// The leveling policy (PMOD reads its state in tests).
    pub fn leveling(&self) -> &L {
        &self.leveling
    }
}

impl<T, L: Leveling> Drop for Obim<T, L> {
    fn drop(&mut self) {
        // SAFETY: no handle outlives the scheduler, so nothing else can reach the generations
        // and bags freed here. Every bag was created by `Box::into_raw` in `find_or_create`
        // and is either in the current generation's log (once) or, while a grace period
        // runs, in the retired list (once); a pending previous generation's log holds only
        // bags of those two kinds, so it is freed without its bags.
        unsafe {
            let free = |bag: *const Bag<T>| drop(Box::from_raw(bag as *mut Bag<T>));
            let current = Box::from_raw(self.current.load(Ordering::Relaxed));
            for i in 0..current.log.version() {
                free(current.log.get(i).1);
            }
            let retired = self
                .maintenance
                .get_mut()
                .unwrap_or_else(|e| e.into_inner());
            retired.iter().for_each(|&(_, bag)| free(bag));
            let previous = self.previous.load(Ordering::Relaxed);
            if !previous.is_null() {
                drop(Box::from_raw(previous));
            }
        }
    }
}

/// A level and its bag, as the local map holds them.
type LevelBag<T, L> = Record<<L as Leveling>::Level, T>;

/// A push-cache entry: a level, its bag, and this worker's push chunk there (or null).
type PushTarget<T, L> = (<L as Leveling>::Level, *const Bag<T>, *mut Chunk<T>);

pub struct ObimHandle<'s, T: Copy, L: Leveling = Shift> {
    s: &'s Obim<T, L>,
    w: BagWorker<T>,
    /// The generation this handle has entered: `local`, `cur`, `push_cache` and `unflushed`
    /// hold only its bags.
    gen: *const Generation<L::Level, T>,
    /// Ordered mirror of the global log: level -> bag. A tree, not a sorted vector: levels
    /// arrive out of order when workers create them concurrently (8 workers seeding 10^6
    /// label levels in blocks), and vector inserts in the middle would make syncing quadratic.
    local: BTreeMap<L::Level, *const Bag<T>>,
    /// Log entries already merged into `local`.
    synced: usize,
    /// The level and bag pops come from.
    cur: Option<(L::Level, *const Bag<T>)>,
    /// This worker's pop chunk in `cur`'s bag, or null: the pop fast path reads it without
    /// going through the bag's slot. Null wherever `cur` changes; refreshed after every pop
    /// of ours on that bag (the only thing that replaces a worker's pop chunk, but for the
    /// recycling of a retired bag, which is never `cur`'s: README.md).
    pop_chunk: *mut Chunk<T>,
    /// The bags of recent pushes, direct-mapped by level hint (a cache in front of the
    /// local map): an SSSP task pushes to a few neighbouring levels in turn, which a
    /// one-entry cache missed on a fifth of NY's pushes, at about 200 instructions each.
    /// Each entry also holds this worker's push chunk in that bag (null when unknown), which
    /// the push fast path fills without going through the bag's slot; a pop that makes that
    /// chunk its pop chunk nulls it (`forget_moved_push_chunk`).
    push_cache: Box<[Option<PushTarget<T, L>>; PUSH_CACHE]>,
    /// Bags pushed into since the last flush, each once (`Bag::enlist`): the only ones that
    /// can hold a partly filled push chunk of this worker, so a flush need not walk every
    /// level. Listed when pushes move to a bag, so the push fast path does not pay for it.
    unflushed: Vec<*const Bag<T>>,
    /// What this worker last published in `scan_start`.
    published: u64,
    /// Consecutive slow pops that found nothing.
    failed_scans: u64,
    /// Bags visited by scans since this handle last tried a compaction: when empty levels
    /// make scans long, a compaction pays for itself even if the log has not grown.
    scanned_since_compaction: u64,
    stats: ObimStats,
    level_state: L::Local,
}

#[derive(Debug, Default, Clone, Copy)]
struct ObimStats {
    slow_pops: u64,
    bags_scanned: u64,
    bags_created: u64,
    map_syncs: u64,
    fallback_scans: u64,
    compactions: u64,
    bags_reclaimed: u64,
    tasks_moved: u64,
}

impl<T: Task, L: Leveling> Scheduler<T> for Obim<T, L> {
    type Handle<'s> = ObimHandle<'s, T, L>;

    fn handle(&self, worker: usize) -> ObimHandle<'_, T, L> {
        self.claims.claim(worker);
        let p = self.layout.package_of[worker];
        ObimHandle {
            s: self,
            w: BagWorker::new(worker, p, self.layout.members[p].len(), self.cfg.chunk),
            gen: self.enter(worker),
            local: BTreeMap::new(),
            synced: 0,
            cur: None,
            pop_chunk: std::ptr::null_mut(),
            push_cache: Box::new([None; PUSH_CACHE]),
            unflushed: Vec::new(),
            published: IDLE,
            failed_scans: 0,
            scanned_since_compaction: 0,
            stats: ObimStats::default(),
            level_state: self.leveling.local(worker),
        }
    }

    fn workers(&self) -> usize {
        self.layout.workers()
    }

    fn counters(&self) -> Counters {
        self.sink.snapshot()
    }

    fn events(&self) -> Vec<Event> {
        self.leveling.events()
    }
}

impl<'s, T: Task, L: Leveling> ObimHandle<'s, T, L> {
    #[inline(always)]
    fn bag(&self, p: *const Bag<T>) -> &'s Bag<T> {
        // SAFETY: bag pointers come from the log, whose bags live as long as the scheduler,
        // which outlives this handle.
        unsafe { &*p }
    }

    /// The generation this handle has entered.
    #[inline(always)]
    fn gen(&self) -> &'s Generation<L::Level, T> {
        // SAFETY: a generation is freed only after every worker has entered a later one
        // (README.md, "Retiring levels"), and this handle has not.
        unsafe { &*self.gen }
    }

    /// Merges log entries published since the last sync into the local map.
    fn sync_local(&mut self) {
        let log = &self.gen().log;
        let v = log.version();
        if v == self.synced {
            return;
        }
        self.stats.map_syncs += 1;
        for i in self.synced..v {
            let (level, bag) = log.get(i);
            self.local.insert(level, bag);
        }
        self.synced = v;
    }

    #[inline]
    fn find_local(&self, level: L::Level) -> Option<*const Bag<T>> {
        self.local.get(&level).copied()
    }

    #[cold]
    fn find_or_create(&mut self, level: L::Level) -> *const Bag<T> {
        self.enter_current();
        if let Some(b) = self.find_local(level) {
            return b;
        }
        loop {
            self.sync_local();
            if let Some(b) = self.find_local(level) {
                return b;
            }
            let gen = self.gen();
            let mut guard = gen.log.lock();
            if gen.is_sealed() {
                // A compaction replaced the generation while we waited: create there.
                drop(guard);
                self.enter_current();
                continue;
            }
            // Another worker may have created it since our sync; the lock orders us after it.
            self.sync_local();
            if let Some(b) = self.find_local(level) {
                return b;
            }
            let bag = self
                .s
                .spare_bags
                .take()
                .unwrap_or_else(|| Box::new(Bag::<T>::new(self.s.workers(), self.s.bag_lists)));
            let bag = Box::into_raw(bag);
            guard.push((level, bag as *const Bag<T>));
            drop(guard);
            self.stats.bags_created += 1;
            self.sync_local();
            return bag;
        }
    }

    /// Puts `level`'s bag in push-cache entry `entry`, and on the list of bags to flush.
    /// Cold and out of line, so the push fast path stays small enough to inline.
    #[cold]
    fn switch_push_bag(&mut self, level: L::Level, entry: usize) -> *const Bag<T> {
        let b = self.find_or_create(level);
        self.push_cache[entry] = Some((level, b, std::ptr::null_mut()));
        if self.bag(b).enlist(&self.w) {
            self.unflushed.push(b);
        }
        b
    }

    /// A push that found no chunk in the cache: through the bag, then caches its chunk.
    #[inline(never)]
    fn push_slow(&mut self, level: L::Level, entry: usize, task: T) -> *const Bag<T> {
        let bag = match self.push_cache[entry] {
            Some((l, b, _)) if l == level => b,
            _ => self.switch_push_bag(level, entry),
        };
        self.bag(bag).push(&mut self.w, task);
        self.push_cache[entry] = Some((level, bag, self.bag(bag).push_chunk(&self.w)));
        bag
    }

    /// Publishes the cached push chunk of entry `entry` (in `bag`), which just filled.
    #[cold]
    fn publish_full_chunk(&mut self, entry: usize, bag: *const Bag<T>) {
        self.bag(bag).publish_push_chunk(&mut self.w);
        if let Some(e) = self.push_cache[entry].as_mut() {
            e.2 = std::ptr::null_mut();
        }
    }

    /// Pushes `task` into `level`'s bag; an earlier level than the current one becomes
    /// current at once.
    #[inline(always)]
    fn push_to_level(&mut self, level: L::Level, task: T) {
        let entry = L::cache_key(level) as usize & (PUSH_CACHE - 1);
        let bag = match self.push_cache[entry] {
            Some((l, b, chunk)) if l == level && !chunk.is_null() => {
                // SAFETY: a non-null cached chunk is this worker's push chunk in `b`, which
                // no other worker touches; it is never full (a full one leaves at once).
                let chunk = unsafe { &mut *chunk };
                chunk.push(task);
                if chunk.is_full() {
                    self.publish_full_chunk(entry, b);
                }
                b
            }
            _ => self.push_slow(level, entry, task),
        };
        if self.cur.is_none_or(|(l, _)| level < l) {
            self.cur = Some((level, bag));
            self.pop_chunk = std::ptr::null_mut();
            // A push only ever lowers what this worker publishes: the tasks it holds lie at
            // or above it (the back-scan estimate and the compaction floor rely on that);
            // only a scan, which has looked at the levels in between, raises it.
            self.publish(L::hint(level).min(self.published));
        }
    }

    #[inline]
    fn publish(&mut self, level: u64) {
        // `level` is `L::hint` of the level, or IDLE.
        if self.published != level {
            self.published = level;
            // Relaxed: the estimate is a hint for where to start scanning; any value is safe
            // because a scan that finds nothing falls back to a full scan.
            self.s.scan_start[self.w.worker].store(level, Ordering::Relaxed);
        }
    }

    /// The earliest level worth scanning from (back-scan prevention).
    fn scan_estimate(&self) -> u64 {
        let s = self.s;
        let me = self.w.worker;
        let pkg = s.layout.package_of[me];
        let read = |w: usize| s.scan_start[w].load(Ordering::Relaxed);
        let mut start = s.layout.members[pkg]
            .iter()
            .map(|&w| read(w))
            .min()
            .unwrap_or(IDLE);
        if s.layout.is_leader(me) {
            for p in 0..s.layout.packages() {
                start = start.min(read(s.layout.leader(p)));
            }
        }
        start
    }

    /// A pop once the cached pop chunk is spent: the current bag's next chunk, else a scan.
    #[inline(never)]
    fn pop_next_chunk(&mut self) -> Option<T> {
        let next = match self.cur {
            Some((level, bag)) => {
                let t = self.bag(bag).pop(&self.s.shared, &mut self.w);
                if t.is_some() {
                    self.forget_moved_push_chunk(level, bag);
                }
                t
            }
            None => None,
        };
        let task = match next {
            Some(t) => {
                self.s.leveling.on_pop(&mut self.level_state);
                Some(t)
            }
            None => self.slow_pop(),
        };
        self.pop_chunk = match self.cur {
            Some((_, bag)) => self.bag(bag).pop_chunk(&self.w),
            None => std::ptr::null_mut(),
        };
        task
    }

    /// After a pop from `level`'s `bag` that found a task: if the pop made this worker's push
    /// chunk there its pop chunk (`Bag::pop`, when no published chunk was left), the push
    /// cache must no longer offer it as a push chunk. Called at once, before anything can
    /// change `cur` (a compaction's stragglers may push to an earlier level).
    #[inline]
    fn forget_moved_push_chunk(&mut self, level: L::Level, bag: *const Bag<T>) {
        let popping = self.bag(bag).pop_chunk(&self.w);
        let entry = L::cache_key(level) as usize & (PUSH_CACHE - 1);
        if let Some(e) = self.push_cache[entry].as_mut() {
            if std::ptr::eq(e.2, popping) {
                e.2 = std::ptr::null_mut();
            }
        }
    }

    #[cold]
    fn slow_pop(&mut self) -> Option<T> {
        self.stats.slow_pops += 1;
        self.enter_current();
        self.sync_local();
        let start = if self.s.cfg.backscan_prevention {
            self.scan_estimate()
        } else {
            0
        };
        let from = L::first_level(start);
        let found = self.scan((Included(from), Unbounded)).or_else(|| {
            // Levels below everyone's estimate are empty except in rare races (a chunk
            // published after its pusher moved on), so the full rescan that guarantees no
            // task is stranded runs only after max(FALLBACK_PERIOD, levels) failed scans in
            // a row: it walks at most every level, so its cost per failed scan stays at
            // about one bag however many dead levels pile up (a path of millions of nodes
            // makes millions; a fixed period would make idle workers' rescans quadratic in them).
            self.failed_scans += 1;
            let period = (self.local.len() as u64).max(FALLBACK_PERIOD);
            if start == 0 || self.failed_scans < period {
                return None;
            }
            self.failed_scans = 0;
            self.stats.fallback_scans += 1;
            self.scan((Unbounded, Excluded(from)))
        });
        let task = match found {
            Some((e, t)) => {
                self.failed_scans = 0;
                self.cur = Some(e);
                self.publish(L::hint(e.0));
                Some(t)
            }
            None => {
                self.cur = None;
                self.publish(IDLE);
                None
            }
        };
        // After publishing where this worker is now, so the levels it just left count as
        // dead for a compaction.
        self.maintain();
        self.s
            .leveling
            .on_slow_pop(&mut self.level_state, task.is_some());
        task
    }

    /// The first task found in the bags of `levels`, in level order, with its bag.
    fn scan(&mut self, levels: (Bound<L::Level>, Bound<L::Level>)) -> Option<(LevelBag<T, L>, T)> {
        let mut found = None;
        for (&level, &bag) in self.local.range(levels) {
            self.stats.bags_scanned += 1;
            self.scanned_since_compaction += 1;
            // SAFETY: as in `bag` (which would borrow all of `self` here).
            let b: &Bag<T> = unsafe { &*bag };
            if let Some(t) = b.pop(&self.s.shared, &mut self.w) {
                found = Some(((level, bag), t));
                break;
            }
        }
        let ((level, bag), t) = found?;
        self.forget_moved_push_chunk(level, bag);
        Some(((level, bag), t))
    }
}

impl<T: Task, L: Leveling> Handle<T> for ObimHandle<'_, T, L> {
    #[inline(always)]
    fn push(&mut self, task: T, priority: u64) {
        let level = self.s.leveling.level(&mut self.level_state, priority);
        self.push_to_level(level, task);
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<T> {
        match self.pop_fast() {
            Some(t) => Some(t),
            None => self.pop_next_chunk(),
        }
    }

    /// The next task of this worker's pop chunk in the current level. A push to an earlier
    /// level nulls `pop_chunk`, so that level is popped from at once.
    #[inline(always)]
    fn pop_fast(&mut self) -> Option<T> {
        // SAFETY: a non-null `pop_chunk` is this worker's pop chunk in `cur`'s bag (see the
        // field), which no other worker touches.
        let t = unsafe { self.pop_chunk.as_mut() }?.pop_front()?;
        self.s.leveling.on_pop(&mut self.level_state);
        Some(t)
    }

    #[inline(always)]
    fn peek_fast(&self, ahead: usize) -> Option<T> {
        // SAFETY: as in `pop_fast`, and the shared borrow lives only for this read, which no
        // `&mut` to the chunk overlaps (only this worker's handle reaches it).
        unsafe { self.pop_chunk.as_ref() }?.peek_front(ahead)
    }

    fn flush(&mut self) {
        // Walking every level instead would make idle workers' flushes quadratic when levels
        // number in the millions (SSSP on a long path).
        if self.unflushed.is_empty() {
            // An entry is set only by `switch_push_bag`, which lists its bag unless it is
            // listed already since the last flush: with nothing listed the cache is empty, so
            // an idle worker's flushes skip clearing it (`migrate` relies on this too: no
            // entry may outlive its generation).
            debug_assert!(self.push_cache.iter().all(Option::is_none));
            return;
        }
        let mut bags = std::mem::take(&mut self.unflushed);
        for &bag in &bags {
            self.bag(bag).flush(&mut self.w);
        }
        bags.clear();
        self.unflushed = bags;
        // Flushing cleared the bags' marks: the next push to any bag lists it again.
        self.push_cache.fill(None);
    }
}

impl<T: Copy, L: Leveling> Drop for ObimHandle<'_, T, L> {
    fn drop(&mut self) {
        let level_counters = self.s.leveling.drain_counters(&mut self.level_state);
        self.s.sink.merge(&level_counters);
        let st = self.stats;
        self.s.sink.merge(&[
            ("slow_pops", st.slow_pops),
            ("bags_scanned", st.bags_scanned),
            ("bags_created", st.bags_created),
            ("map_syncs", st.map_syncs),
            ("fallback_scans", st.fallback_scans),
            ("compactions", st.compactions),
            ("bags_reclaimed", st.bags_reclaimed),
            ("tasks_moved", st.tasks_moved),
            ("chunks_published", self.w.chunks_published),
            ("remote_chunks", self.w.remote_chunks),
            ("hunts", self.w.hunts),
        ]);
        self.s.scan_start[self.w.worker].store(IDLE, Ordering::Relaxed);
        self.s.leave(self.w.worker);
        self.s.claims.release(self.w.worker);
    }
}
