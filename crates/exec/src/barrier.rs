//! A spinning barrier that also sums one number over the threads: level-synchronous loops (bc's
//! BFS, the frontier executor's rounds) cross a barrier per level, thousands per run on road
//! graphs, and every thread must learn the size of the next frontier to decide, identically,
//! whether to go on (bc's also sums the arcs of that frontier: two numbers,
//! [`SumBarrier::sums_flagged`]). A flag rides along, OR-ed over the threads, so that one
//! thread's decision to stop (it saw a Ctrl-C) reaches every thread at the same barrier.

use crossbeam_utils::{Backoff, CachePadded};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// A thread gave up (it panicked): the others stop waiting instead of hanging.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Poisoned;

pub struct SumBarrier {
    threads: usize,
    /// Arrivals in the current phase.
    arrived: CachePadded<AtomicUsize>,
    /// Completed phases; waiters spin until it moves.
    generation: CachePadded<AtomicUsize>,
    /// The current phase's running sums.
    sum: [AtomicU64; 2],
    /// The last completed phase's sums.
    result: [AtomicU64; 2],
    /// The current phase's OR of flags, and the last completed phase's.
    flag: AtomicBool,
    flag_result: AtomicBool,
    poisoned: AtomicBool,
}

impl SumBarrier {
    pub fn new(threads: usize) -> Self {
        SumBarrier {
            threads,
            arrived: CachePadded::new(AtomicUsize::new(0)),
            generation: CachePadded::new(AtomicUsize::new(0)),
            sum: [AtomicU64::new(0), AtomicU64::new(0)],
            result: [AtomicU64::new(0), AtomicU64::new(0)],
            flag: AtomicBool::new(false),
            flag_result: AtomicBool::new(false),
            poisoned: AtomicBool::new(false),
        }
    }

    /// Waits for every thread and returns the sum of their `value`s. Everything a thread wrote
    /// before arriving is visible to every thread after it returns.
    ///
    /// The result of a phase is overwritten only when the next phase completes, which needs
    /// every thread, including any still reading this one's, to arrive again.
    pub fn sum(&self, value: u64) -> Result<u64, Poisoned> {
        self.sum_flagged(value, false).map(|(sum, _)| sum)
    }

    /// [`sum`](Self::sum) that also returns whether any thread passed `flag = true`.
    pub fn sum_flagged(&self, value: u64, flag: bool) -> Result<(u64, bool), Poisoned> {
        self.sums_flagged([value, 0], flag)
            .map(|([sum, _], any)| (sum, any))
    }

    /// [`sum_flagged`](Self::sum_flagged) over two numbers at once, each summed on its own.
    pub fn sums_flagged(&self, values: [u64; 2], flag: bool) -> Result<([u64; 2], bool), Poisoned> {
        // Read before arriving: the phase cannot complete before this thread arrives, and the
        // Acquire load that ended our previous wait keeps this read from going backwards.
        let generation = self.generation.load(Ordering::Acquire);
        for (sum, value) in self.sum.iter().zip(values) {
            // Most callers sum one number: the second costs nothing unless used.
            if value != 0 {
                sum.fetch_add(value, Ordering::Relaxed);
            }
        }
        if flag {
            self.flag.store(true, Ordering::Relaxed);
        }
        // AcqRel: the last arriver acquires every other thread's writes (the sums included),
        // and releases them all with the generation bump below.
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.threads {
            let totals = [0, 1].map(|i| self.sum[i].swap(0, Ordering::Relaxed));
            let any = self.flag.swap(false, Ordering::Relaxed);
            for (result, total) in self.result.iter().zip(totals) {
                result.store(total, Ordering::Relaxed);
            }
            self.flag_result.store(any, Ordering::Relaxed);
            self.arrived.store(0, Ordering::Relaxed);
            self.generation.fetch_add(1, Ordering::Release);
            return Ok((totals, any));
        }
        let backoff = Backoff::new();
        while self.generation.load(Ordering::Acquire) == generation {
            if self.poisoned.load(Ordering::Relaxed) {
                return Err(Poisoned);
            }
            if backoff.is_completed() {
                // More threads than cores (tests run 8 on 2): give the stragglers the CPU.
                std::thread::yield_now();
            } else {
                backoff.snooze();
            }
        }
        Ok((
            [0, 1].map(|i| self.result[i].load(Ordering::Relaxed)),
            self.flag_result.load(Ordering::Relaxed),
        ))
    }

    /// Releases every waiter, now and later, with `Poisoned`.
    pub fn poison(&self) {
        self.poisoned.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_thread_sees_every_phase_sum() {
        let threads = 4;
        let b = SumBarrier::new(threads);
        std::thread::scope(|s| {
            for t in 0..threads {
                let b = &b;
                s.spawn(move || {
                    for phase in 0..2000u64 {
                        let got = b.sum(phase + t as u64).unwrap();
                        assert_eq!(got, 4 * phase + 6);
                    }
                });
            }
        });
    }

    #[test]
    fn two_sums_stay_apart() {
        let threads = 3;
        let b = SumBarrier::new(threads);
        std::thread::scope(|s| {
            for t in 0..threads as u64 {
                let b = &b;
                s.spawn(move || {
                    for phase in 0..1000u64 {
                        // Zeros in either place too: a zero adds nothing to its sum.
                        let x = [phase % 3 * t, phase + t];
                        let (sums, _) = b.sums_flagged(x, false).unwrap();
                        assert_eq!(sums, [phase % 3 * 3, 3 * phase + 3], "phase {phase}");
                        // The one-number form sums the first and leaves the second at zero.
                        assert_eq!(b.sum(t).unwrap(), 3);
                    }
                });
            }
        });
    }

    #[test]
    fn a_flag_reaches_every_thread_at_the_same_phase() {
        let threads = 3;
        let b = SumBarrier::new(threads);
        std::thread::scope(|s| {
            for t in 0..threads {
                let b = &b;
                s.spawn(move || {
                    for phase in 0..500u64 {
                        let raise = t == 1 && phase % 7 == 3;
                        let (_, any) = b.sum_flagged(1, raise).unwrap();
                        assert_eq!(any, phase % 7 == 3, "phase {phase}");
                    }
                });
            }
        });
    }

    #[test]
    fn poison_releases_waiters() {
        let b = SumBarrier::new(2);
        std::thread::scope(|s| {
            let w = s.spawn(|| b.sum(0));
            std::thread::sleep(std::time::Duration::from_millis(20));
            b.poison();
            assert_eq!(w.join().unwrap(), Err(Poisoned));
        });
    }
}
