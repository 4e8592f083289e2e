//! How far apart two CPUs are: the round trip of one cache line between two threads pinned
//! to them (a ping-pong). Some hosts place a guest's vCPUs close together at one time and far
//! apart at another (50-90 ns against 320-460 ns on the 2-core machines of
//! `docs/measurement.md`, "Timing on two cores"), and multi-threaded timings follow the
//! placement, so a benchmark records this figure beside its runs.

use crate::pin::pin_current_thread;
use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

/// Written to the line by a thread that could not pin itself: both threads stop.
const FAILED: u64 = u64::MAX;

/// Nanoseconds per round trip of one cache line between threads pinned to CPUs `a` and `b`,
/// averaged over `trips` round trips; `None` when `a == b`, `trips` is 0 or a thread could
/// not be pinned (a CPU outside this process's affinity).
pub fn round_trip_ns(a: usize, b: usize, trips: u64) -> Option<f64> {
    if a == b || trips == 0 {
        return None;
    }
    // The ping thread writes odd numbers, the echo thread the next even one.
    let line = CachePadded::new(AtomicU64::new(0));
    let pinned = AtomicUsize::new(0);
    let (line, pinned) = (&line, &pinned);
    // Pins to `cpu`, then waits for the other thread; false if either failed.
    let start = move |cpu: usize| {
        if !pin_current_thread(cpu) {
            line.store(FAILED, Ordering::Release);
            return false;
        }
        pinned.fetch_add(1, Ordering::AcqRel);
        while pinned.load(Ordering::Acquire) < 2 {
            if line.load(Ordering::Acquire) == FAILED {
                return false;
            }
            std::hint::spin_loop();
        }
        true
    };
    // Waits until the line holds `value`; false if the other thread gave up.
    let wait_for = move |value: u64| loop {
        match line.load(Ordering::Acquire) {
            v if v == value => return true,
            FAILED => return false,
            _ => std::hint::spin_loop(),
        }
    };
    std::thread::scope(|s| {
        let echo = s.spawn(move || {
            if !start(b) {
                return;
            }
            for i in 0..trips {
                if !wait_for(2 * i + 1) {
                    return;
                }
                line.store(2 * i + 2, Ordering::Release);
            }
        });
        let ping = s.spawn(move || {
            if !start(a) {
                return None;
            }
            let begin = Instant::now();
            for i in 0..trips {
                line.store(2 * i + 1, Ordering::Release);
                if !wait_for(2 * i + 2) {
                    return None;
                }
            }
            Some(begin.elapsed().as_nanos() as f64 / trips as f64)
        });
        let ns = ping.join().ok().flatten();
        let _ = echo.join();
        ns
    })
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn two_cpus_measure_a_round_trip_and_impossible_pairs_none() {
        assert_eq!(round_trip_ns(0, 0, 100), None);
        assert_eq!(round_trip_ns(0, 1, 0), None);
        // A CPU the process cannot run on: the other thread must not hang waiting for it.
        assert_eq!(round_trip_ns(0, 1 << 20, 100), None);
        if crate::cores() >= 2 {
            let ns = round_trip_ns(0, 1, 1000).expect("CPUs 0 and 1 can be pinned");
            assert!(ns > 0.0 && ns.is_finite(), "{ns}");
        }
    }
}
