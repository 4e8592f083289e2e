//! `spraylist`: the SprayList (Alistarh, Kopinsky, Li, Shavit, PPoPP'15), as the PMOD paper
//! (Yesil et al., SC'19, §2.2) describes and measures it: tasks in one lock-free skip list
//! sorted by priority; a pop *sprays*, a short random walk from the head down the levels that
//! lands on one of roughly the p log³ p first tasks, so that concurrent pops rarely collide.
//!
//! * The skip list ([`SkipList`]) is Fraser's lock-free design with a `claimed` flag per node;
//!   README.md next to this file states its protocol and argues it; loom checks it.
//! * Spray shape for p workers, as in the authors' code: start at level log p + 1, at each
//!   level walk a uniform 0..=log p + 1 unclaimed nodes, descend one level; the first
//!   p log p / 2 positions are virtual padding.
//! * With probability 1/p (always when p = 1) a pop is a *cleaner*: it takes the first
//!   unclaimed task from the head (Lotan-Shavit). A spray that misses is retried `tries` times,
//!   then the pop falls back to the cleaner, so `None` means the list held no unclaimed task.
//!
//! What is simplified against the paper, and why, is in README.md: no dummy nodes (the padding
//! is counted instead), memory reclaimed with `crossbeam-epoch` instead of the authors' own
//! epochs, and the spray's start level capped by `levels`.

mod reclaim;
mod skiplist;

pub use skiplist::{ListLocal, SkipList, SprayShape, MAX_LEVELS};

use crate::contract::{CounterSink, Counters, Handle, HandleClaims, Scheduler, Task};
use crate::params::{parse_in, Config, ConfigError, ParamInfo};
use crate::random::Rng;

#[derive(Debug, Clone)]
pub struct SprayListConfig {
    /// Levels of the skip list (2^levels tasks before searches slow down).
    pub levels: usize,
    /// Sprays a pop tries before falling back to a delete-min from the head.
    pub tries: usize,
}

impl Default for SprayListConfig {
    fn default() -> Self {
        SprayListConfig {
            levels: 24,
            tries: 2,
        }
    }
}

impl Config for SprayListConfig {
    const NAME: &'static str = "spraylist";
    const SUMMARY: &'static str =
        "SprayList: lock-free skip list, pops spray near the head (Yesil et al. §2.2)";

    fn describe(&self) -> Vec<ParamInfo> {
        vec![
            ParamInfo {
                key: "levels",
                default: self.levels.to_string(),
                doc: "skip-list levels (searches stay logarithmic up to 2^levels tasks)",
            },
            ParamInfo {
                key: "tries",
                default: self.tries.to_string(),
                doc: "sprays per pop before a delete-min from the head",
            },
        ]
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        match key {
            "levels" => self.levels = parse_in::<Self>(key, value, 2..=MAX_LEVELS as u64)? as usize,
            "tries" => self.tries = parse_in::<Self>(key, value, 0..=64)? as usize,
            _ => return Err(Self::unknown_param(key)),
        }
        Ok(())
    }
}

pub struct SprayList<T> {
    cfg: SprayListConfig,
    shape: SprayShape,
    list: SkipList<T>,
    claims: HandleClaims,
    sink: CounterSink,
}

impl<T: Task> SprayList<T> {
    pub fn new(cfg: &SprayListConfig, workers: usize) -> Self {
        SprayList {
            cfg: cfg.clone(),
            shape: SprayShape::for_threads(workers, cfg.levels),
            list: SkipList::new(cfg.levels),
            claims: HandleClaims::new(workers),
            sink: CounterSink::default(),
        }
    }
}

pub struct SprayListHandle<'s, T: Copy> {
    s: &'s SprayList<T>,
    me: usize,
    local: ListLocal,
    rng: Rng,
    /// Makes keys unique: `(worker << 40) | pushes so far`.
    next_seq: u64,
    stats: SprayStats,
}

#[derive(Debug, Default, Clone, Copy)]
struct SprayStats {
    sprays: u64,
    spray_misses: u64,
    cleaner_pops: u64,
}

impl<T: Task> Scheduler<T> for SprayList<T> {
    type Handle<'s> = SprayListHandle<'s, T>;

    fn handle(&self, worker: usize) -> SprayListHandle<'_, T> {
        self.claims.claim(worker);
        SprayListHandle {
            s: self,
            me: worker,
            local: self.list.register(),
            rng: Rng::for_worker(worker),
            next_seq: (worker as u64) << 40,
            stats: SprayStats::default(),
        }
    }

    fn workers(&self) -> usize {
        self.claims.workers()
    }

    fn counters(&self) -> Counters {
        self.sink.snapshot()
    }
}

impl<T: Task> Handle<T> for SprayListHandle<'_, T> {
    fn push(&mut self, task: T, priority: u64) {
        let height = self.s.list.random_height(&mut self.rng);
        self.s
            .list
            .insert(&self.local, priority, self.next_seq, task, height);
        self.next_seq += 1;
    }

    fn pop(&mut self) -> Option<T> {
        let p = self.s.claims.workers();
        if p > 1 && self.rng.below(p) != 0 {
            for _ in 0..self.s.cfg.tries {
                self.stats.sprays += 1;
                if let Some((_, t)) = self.s.list.spray(&self.local, &self.s.shape, &mut self.rng) {
                    return Some(t);
                }
                self.stats.spray_misses += 1;
            }
        }
        let got = self.s.list.delete_min(&self.local)?;
        self.stats.cleaner_pops += 1;
        Some(got.1)
    }
}

impl<T: Copy> Drop for SprayListHandle<'_, T> {
    fn drop(&mut self) {
        let s = self.stats;
        self.s.sink.merge(&[
            ("sprays", s.sprays),
            ("spray_misses", s.spray_misses),
            ("cleaner_pops", s.cleaner_pops),
        ]);
        self.s.claims.release(self.me);
    }
}
