//! How far apart two CPUs are: the round trip of one cache line between two threads pinned
//! to them (a ping-pong). Some hosts place a guest's vCPUs close together at one time and far
//! apart at another (the fast and the slow phase of the 2-core machines in
//! `docs/measurement.md`, "Timing on two cores"), and multi-threaded timings follow the
//! placement, so a benchmark records this figure beside its runs.

use crate::pin::pin_current_thread;
use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Written to the line by a thread that could not pin itself: both threads stop.
const FAILED: u64 = u64::MAX;
/// Written by the ping thread when it stops early: the echo thread stops too.
const DONE: u64 = u64::MAX - 1;
/// Round trips asked for at most (their numbers stay below `DONE`).
pub const MAX_TRIPS: u64 = 1 << 40;
/// A measurement stops after this long and averages the round trips it completed (a CPU
/// busy with other work can make each round trip wait for a time slice).
pub const TIME_LIMIT: Duration = Duration::from_millis(200);

/// Nanoseconds per round trip of one cache line between threads pinned to CPUs `a` and `b`,
/// averaged over `trips` round trips (at most [`MAX_TRIPS`]) or those done within
/// [`TIME_LIMIT`]; `None` when `a == b`, `trips` is 0 or a thread could not be pinned (a CPU
/// outside this process's affinity, or not Linux).
pub fn round_trip_ns(a: usize, b: usize, trips: u64) -> Option<f64> {
    let trips = trips.min(MAX_TRIPS);
    if a == b || trips == 0 {
        return None;
    }
    // The ping thread writes odd numbers, the echo thread the next even one. The line carries
    // no data but its own value, so Release/Acquire are more than it needs; they keep each
    // round trip a plain store seen by a plain load, as between two workers.
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
    // Waits until the line holds `value`; false if the other thread stopped.
    let wait_for = move |value: u64| loop {
        match line.load(Ordering::Acquire) {
            v if v == value => return true,
            FAILED | DONE => return false,
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
            let mut done = 0;
            while done < trips {
                line.store(2 * done + 1, Ordering::Release);
                if !wait_for(2 * done + 2) {
                    return None;
                }
                done += 1;
                if done % 1024 == 0 && begin.elapsed() > TIME_LIMIT {
                    line.store(DONE, Ordering::Release);
                    break;
                }
            }
            Some(begin.elapsed().as_nanos() as f64 / done as f64)
        });
        let ns = ping.join().ok().flatten();
        let _ = echo.join();
        ns
    })
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::pin::may_run_on;

    #[test]
    fn two_cpus_measure_a_round_trip_and_impossible_pairs_none() {
        assert_eq!(round_trip_ns(0, 0, 100), None);
        assert_eq!(round_trip_ns(0, 1, 0), None);
        // A CPU the process cannot run on: the other thread must not hang waiting for it.
        assert_eq!(round_trip_ns(0, 1 << 20, 100), None);
        if may_run_on(0) && may_run_on(1) {
            let ns = round_trip_ns(0, 1, 1000).expect("CPUs 0 and 1 can be pinned");
            assert!(ns > 0.0 && ns.is_finite(), "{ns}");
            // Far more trips than the time limit allows: it stops and still reports.
            let begin = Instant::now();
            assert!(round_trip_ns(0, 1, u64::MAX).is_some());
            assert!(begin.elapsed() < TIME_LIMIT * 10);
        } else {
            eprintln!("skipped the measured pair: CPUs 0 and 1 are not both in the affinity");
        }
    }
}
