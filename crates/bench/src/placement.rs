//! Where the host placed CPUs 0 and 1 while a matrix ran: the round trip of one cache line
//! between threads pinned to them ([`ordo_exec::round_trip_ns`]), read before the first run
//! and again before any run that starts [`READ_EVERY`] after the last reading. Every row
//! carries the latest reading as `host_round_trip_ns`, so that runs taken while the CPUs were
//! far apart (or busy with other work), at more than twice the matrix's lowest reading, can
//! be told apart. It speaks for the CPUs that 1- and 2-thread runs use; a many-core machine's
//! other CPUs may sit elsewhere.

use std::time::{Duration, Instant};

/// How long a reading stands for the runs after it.
pub const READ_EVERY: Duration = Duration::from_secs(30);

/// Round trips per reading: 3 ms with the CPUs close, about 20 ms far apart.
const TRIPS: u64 = 50_000;

#[derive(Debug, Default)]
pub struct Placement {
    last: Option<(Instant, f64)>,
    readings: Vec<f64>,
    /// CPUs 0 and 1 cannot both be pinned (one CPU, an affinity without them, not Linux).
    unavailable: bool,
}

impl Placement {
    /// The reading to record with the run about to start, measured anew (3-20 ms) when the
    /// last one is older than [`READ_EVERY`]; `None` where it cannot be measured.
    pub fn reading_for_next_run(&mut self) -> Option<f64> {
        if self.unavailable {
            return None;
        }
        match self.last {
            Some((at, ns)) if at.elapsed() < READ_EVERY => Some(ns),
            _ => {
                let Some(ns) = ordo_exec::round_trip_ns(0, 1, TRIPS) else {
                    self.unavailable = true;
                    return None;
                };
                self.last = Some((Instant::now(), ns));
                self.readings.push(ns);
                Some(ns)
            }
        }
    }

    /// One line on the readings taken, if any.
    pub fn summary(&self) -> Option<String> {
        let lo = self.readings.iter().copied().reduce(f64::min)?;
        let hi = self.readings.iter().copied().reduce(f64::max)?;
        let spread = if hi > 2.0 * lo {
            " (more than 2x apart: the host moved the CPUs, or other work held them; compare \
             runs with like host_round_trip_ns)"
        } else {
            ""
        };
        let range = match self.readings.len() {
            1 => format!("{lo:.0} ns (one reading)"),
            n => format!("{lo:.0}-{hi:.0} ns over {n} readings"),
        };
        Some(format!(
            "host round trip between CPUs 0 and 1: {range}{spread}"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reading_stands_for_the_runs_after_it() {
        let mut p = Placement::default();
        let first = p.reading_for_next_run();
        assert_eq!(
            p.reading_for_next_run(),
            first,
            "read again within READ_EVERY"
        );
        assert_eq!(p.readings.len(), usize::from(first.is_some()));
        assert_eq!(p.unavailable, first.is_none());
        if ordo_exec::may_run_on(0) && ordo_exec::may_run_on(1) {
            assert!(first.is_some_and(|ns| ns > 0.0));
            assert!(p.summary().unwrap().contains("ns (one reading)"));
        }
    }

    #[test]
    fn a_spread_of_readings_is_called_out() {
        let p = Placement {
            readings: vec![60.0, 70.0, 340.0],
            ..Placement::default()
        };
        let s = p.summary().unwrap();
        assert!(s.contains("60-340 ns over 3 readings"), "{s}");
        assert!(s.contains("more than 2x apart"), "{s}");
        let steady = Placement {
            readings: vec![60.0, 80.0],
            ..Placement::default()
        };
        assert!(!steady.summary().unwrap().contains("apart"));
        assert_eq!(Placement::default().summary(), None);
    }
}
