//! Retiring dead levels: compaction of the map into a new generation, workers moving to it,
//! and the freeing of retired bags once no worker can reach them (README.md beside this file,
//! "Retiring levels", has the protocol and its proof sketch).

use super::generation::{partition, Generation, Record, MIN_COMPACT, OUTSIDE};
use super::{Leveling, Obim, ObimHandle};
use crate::bag::Bag;
use crate::contract::{Handle, Task};
use crate::sync::Ordering;

impl<T: Task, L: Leveling> Obim<T, L> {
    /// Records that `worker`'s new handle works in the current generation, and returns it.
    pub(super) fn enter(&self, worker: usize) -> *const Generation<L::Level, T> {
        // Under `maintenance`, so no compaction and no end of a grace period comes between
        // our load of `current` and our store: a later reclaimer sees our number, and an
        // earlier one ended the grace period of an older generation than the one we load.
        // (Without the lock this is a store-then-load race with the reclaimer's, which only
        // sequentially consistent orderings would settle, and loom does not model those.)
        let _only_me = self.maintenance.lock().unwrap_or_else(|e| e.into_inner());
        let g = self.current.load(Ordering::Acquire);
        // SAFETY: `g` is current and cannot be freed while we hold `maintenance`.
        let number = unsafe { (*g).number };
        self.entered[worker].store(number, Ordering::Release);
        g
    }
}

impl<T, L: Leveling> Obim<T, L> {
    /// Records that `worker` holds no pointer into any generation (its handle is dropped).
    pub(super) fn leave(&self, worker: usize) {
        // Release: the handle's accesses to bags happen before the frees of a reclaimer
        // that reads this.
        self.entered[worker].store(OUTSIDE, Ordering::Release);
    }

    /// The lowest level any worker works on (`IDLE` when all are idle): no worker holds a
    /// task below it in its own chunks, see README.md.
    fn floor(&self) -> u64 {
        self.scan_start
            .iter()
            .map(|s| s.load(Ordering::Relaxed))
            .min()
            .unwrap_or(u64::MAX)
    }
}

impl<T: Task, L: Leveling> ObimHandle<'_, T, L> {
    /// Moves to the current generation if a compaction has replaced ours.
    #[inline]
    pub(super) fn enter_current(&mut self) {
        let g = self.s.current.load(Ordering::Acquire);
        if !std::ptr::eq(g, self.gen) {
            self.migrate(g);
        }
    }

    /// Drops every pointer into the old generation, then says so in `entered`.
    #[cold]
    fn migrate(&mut self, to: *const Generation<L::Level, T>) {
        // Our partly filled push chunks go to their bags' lists while we may still touch
        // them; a retired bag's are then found by the reclaimer, a kept bag's by anyone.
        self.flush();
        self.local.clear();
        self.synced = 0;
        let cur_level = self.cur.take().map(|(level, _)| level);
        self.pop_chunk = std::ptr::null_mut();
        self.gen = to;
        // SAFETY: `to` is the current generation, loaded with Acquire just now.
        let number = unsafe { (*to).number };
        // Release: everything we did to the old generation's bags happens before the frees
        // of the reclaimer that reads this store.
        self.s.entered[self.w.worker].store(number, Ordering::Release);
        // Keep working on the same level where it survived (a worker's current level is
        // never retired: it is at or above the floor). Without this, the next push would
        // make its own level current and could publish a level above tasks this worker
        // still holds, which no scan would then look at (a run whose workers never run dry
        // would strand the chain below them and never end).
        self.sync_local();
        self.cur = cur_level.and_then(|level| self.find_local(level).map(|bag| (level, bag)));
    }

    /// Frees retired bags whose grace period is over, and compacts the map when its log has
    /// grown enough. Cheap when there is nothing to do: two loads (and one per worker while
    /// a grace period runs). The lock is taken only when there is work for it: idle workers
    /// probing in a loop would otherwise hold it half the time, and a busy worker would
    /// rarely get to compact (a 10^7-node path at 2 threads compacted 30 times, not 7,700).
    #[inline]
    pub(super) fn maintain(&mut self) {
        // Relaxed: a hint; `maintain_slow` reads `previous` again under the lock.
        let due = if self.s.previous.load(Ordering::Relaxed).is_null() {
            self.gen().compaction_due() || self.scans_wasteful()
        } else {
            self.grace_period_over()
        };
        if due {
            self.maintain_slow();
        }
    }

    /// True if this handle's scans since its last compaction visited more than twice as many
    /// bags as the map holds (PR-D's levels empty out without new ones being created, so the
    /// log does not grow, but every scan walks past them).
    fn scans_wasteful(&self) -> bool {
        let records = self.gen().log.version() as u64;
        self.scanned_since_compaction >= 2 * records + MIN_COMPACT as u64
    }

    /// True if every worker has entered this handle's generation (or holds none).
    fn grace_period_over(&self) -> bool {
        let number = self.gen().number;
        // Acquire: synchronizes with each worker's store on entering (or leaving), so its
        // last accesses to the old generation happen before what the caller frees.
        self.s
            .entered
            .iter()
            .all(|e| e.load(Ordering::Acquire) >= number)
    }

    #[cold]
    fn maintain_slow(&mut self) {
        let reclaimed = {
            let Ok(mut retired) = self.s.maintenance.try_lock() else {
                return; // someone else is at it
            };
            // A compaction may have finished between our last look and the lock.
            self.enter_current();
            let mut reclaimed = None;
            let previous = self.s.previous.load(Ordering::Acquire);
            if !previous.is_null() {
                if !self.grace_period_over() {
                    return; // one compaction at a time: the next waits for this grace period
                }
                // Relaxed: `previous` is written only under `maintenance`, whose release
                // publishes it; readers outside the lock use it as a hint only.
                self.s
                    .previous
                    .store(std::ptr::null_mut(), Ordering::Relaxed);
                reclaimed = Some((previous, std::mem::take(&mut *retired)));
            }
            if self.gen().compaction_due() || self.scans_wasteful() {
                self.compact(&mut retired);
            }
            reclaimed
        };
        // Freeing outside the lock: it takes a while when a generation retired many levels,
        // and a busy worker must not find the lock taken meanwhile (if it did, the next
        // generation grew while it waited, and the next free took longer still).
        if let Some((previous, retired)) = reclaimed {
            self.free(previous, retired);
        }
    }

    /// Frees a generation that every worker has left, and empties the bags its successor
    /// retired into the spare bags (moving any task still in them back into the map).
    fn free(&mut self, previous: *mut Generation<L::Level, T>, retired: Vec<Record<L::Level, T>>) {
        // SAFETY: every worker has entered a later generation or is outside (a handle made
        // later enters the current one), so nothing reaches `previous`'s log any more; the
        // compaction that replaced it boxed it, and it was taken out of `previous` once.
        drop(unsafe { Box::from_raw(previous) });
        let mut stragglers = Vec::new();
        let mut spares = Vec::with_capacity(retired.len());
        for (level, bag) in retired {
            // SAFETY: a retired bag is in no log or local map since the compaction that
            // retired it; every worker dropped its pointers to it on entering the generation
            // that compaction made; and it was listed once, in the list taken above.
            let mut bag = unsafe { Box::from_raw(bag as *mut Bag<T>) };
            bag.recycle(&mut self.w, |t| stragglers.push(t));
            spares.push(bag);
            self.stats.bags_reclaimed += 1;
            self.stats.tasks_moved += stragglers.len() as u64;
            for t in stragglers.drain(..) {
                self.push_to_level(level, t);
            }
        }
        self.s.spare_bags.give(spares);
    }

    /// Replaces the current generation by one without its dead levels, whose bags go to
    /// `retired_now` (the list `maintenance` guards). The caller holds `maintenance` and has
    /// entered the current generation; no reclamation is pending.
    fn compact(&mut self, retired_now: &mut Vec<Record<L::Level, T>>) {
        let s = self.s;
        let old = self.gen;
        let gen = self.gen();
        let append = gen.log.lock();
        let records = gen.log.version();
        // Dead: below every level a worker works on (no worker holds a task there in its own
        // chunks, README.md), with nothing in the lists. With one worker the map's only user
        // is this one, so any level whose lists and whose chunks of ours are empty is dead,
        // wherever it lies (preflow-push's levels fall behind upwards, not downwards).
        let floor = s.floor();
        let alone = s.entered.len() == 1;
        let w = &self.w;
        let (kept, retired) = partition((0..records).map(|i| gen.log.get(i)), |level, bag| {
            bag.lists_look_empty() && (L::hint(level) < floor || (alone && bag.holds_none_of(w)))
        });
        let wasteful = self.scans_wasteful();
        self.scanned_since_compaction = 0;
        // Copying the kept records is paid for by the dead ones (at least half of the log)
        // or by the scans that walked past them.
        if retired.is_empty() || (retired.len() * 2 < records && !wasteful) {
            // Mostly live: not worth a generation yet.
            gen.defer_compaction(records);
            return;
        }
        self.stats.compactions += 1;
        let next = Box::new(Generation::new(gen.number + 1, &kept));
        *retired_now = retired;
        gen.seal();
        // Release: pairs with `maintain_slow`'s Acquire load (which also runs under
        // `maintenance`, so the lock alone would do; the pairing keeps the argument local).
        s.previous.store(old as *mut _, Ordering::Release);
        // Release: publishes the new generation to `enter_current`'s Acquire load.
        s.current.store(Box::into_raw(next), Ordering::Release);
        drop(append);
        self.enter_current();
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::super::{Obim, ObimConfig};
    use crate::contract::{Handle, Scheduler};
    use crate::topology::Topology;

    /// A worker moved to a new generation keeps its current level, so a later push far
    /// above does not hide a task it holds just above that level. (Were the move to clear
    /// the current level, the push would make its own level current and publish it, and
    /// scans would start above the held task: it would be found only when every worker ran
    /// dry.)
    #[test]
    fn moving_to_a_new_generation_keeps_the_current_level() {
        let obim = Obim::<u64>::new(&ObimConfig::default(), 2, &Topology::synthetic(1, 2));
        let (mut a, mut b) = (obim.handle(0), obim.handle(1));
        // b works on level 10^6 and holds a task at 10^6 + 1 in its own chunk.
        b.push(1, 1_000_000);
        b.push(2, 1_000_001);
        // a walks through enough levels below b's to compact them away.
        let levels = 2 * super::MIN_COMPACT as u64;
        for p in 0..levels {
            a.push(100 + p, p);
            assert_eq!(a.pop(), Some(100 + p));
        }
        assert_eq!(a.pop(), None);
        assert!(a.stats.compactions > 0, "the walk did not compact");
        assert_eq!(b.pop(), Some(1));
        // b moves to the new generation when this push creates a level.
        b.push(3, 5_000_000);
        let next_two = [b.pop(), b.pop()];
        assert!(
            next_two.contains(&Some(2)),
            "task 2 hidden below b's level: {next_two:?}"
        );
    }
}
