//! Where the host placed the CPUs while a matrix ran: the round trip of one cache line
//! between threads pinned to CPUs 0 and 1 ([`ordo_exec::round_trip_ns`]), read before the
//! first run and again before any run that starts [`READ_EVERY`] after the last reading.
//! Every row carries the latest reading as `host_round_trip_ns`, so runs taken while the host
//! kept the CPUs far apart (several times the matrix's lowest reading) can be told apart.

use std::time::{Duration, Instant};

/// How long a reading stands for the runs after it.
pub const READ_EVERY: Duration = Duration::from_secs(30);

/// Round trips per reading: 3 ms with the CPUs close, about 20 ms far apart.
const TRIPS: u64 = 50_000;

#[derive(Debug, Default)]
pub struct Placement {
    last: Option<(Instant, f64)>,
    readings: Vec<f64>,
}

impl Placement {
    /// The reading to record with the run about to start, taken anew when the last one is
    /// older than [`READ_EVERY`]; `None` with fewer than two CPUs.
    pub fn current(&mut self) -> Option<f64> {
        match self.last {
            Some((at, ns)) if at.elapsed() < READ_EVERY => Some(ns),
            _ => {
                let ns = ordo_exec::round_trip_ns(0, 1, TRIPS)?;
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
        let far = if hi > 2.0 * lo {
            " (the host moved the CPUs apart for a while: compare runs within one phase, \
             by host_round_trip_ns)"
        } else {
            ""
        };
        let range = match self.readings.len() {
            1 => format!("{lo:.0} ns (one reading)"),
            n => format!("{lo:.0}-{hi:.0} ns over {n} readings"),
        };
        Some(format!(
            "host round trip between CPUs 0 and 1: {range}{far}"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reading_stands_for_the_runs_after_it() {
        let mut p = Placement::default();
        let first = p.current();
        assert_eq!(p.current(), first, "read again within READ_EVERY");
        assert_eq!(p.readings.len(), usize::from(first.is_some()));
        if ordo_exec::cores() >= 2 {
            assert!(first.is_some_and(|ns| ns > 0.0));
            assert!(p.summary().unwrap().contains("ns (one reading)"));
        }
    }

    #[test]
    fn a_spread_of_readings_is_called_out() {
        let p = Placement {
            last: None,
            readings: vec![60.0, 70.0, 340.0],
        };
        let s = p.summary().unwrap();
        assert!(s.contains("60-340 ns over 3 readings"), "{s}");
        assert!(s.contains("moved the CPUs apart"), "{s}");
        let steady = Placement {
            last: None,
            readings: vec![60.0, 80.0],
        };
        assert!(!steady.summary().unwrap().contains("apart"));
        assert_eq!(Placement::default().summary(), None);
    }
}
