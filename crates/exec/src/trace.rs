//! A bounded, evenly thinned sample of `(key, value)` pairs: per-worker priority traces and
//! rank-error samples.

/// Samples kept per worker in a trace; the stride doubles whenever they fill up, so a trace
/// covers the whole run evenly whatever its length.
pub const TRACE_SAMPLES: usize = 4096;

/// One worker's sampled `(nanoseconds since the run started, priority)` of the tasks it ran.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trace {
    pub samples: Vec<(u64, u64)>,
    stride: u64,
    seen: u64,
}

impl Trace {
    /// Offers the next sample; keeps every `stride`-th.
    pub fn offer(&mut self, time_ns: u64, priority: u64) {
        self.offer_with(time_ns, || priority);
    }

    /// Offers the next sample, computing its value only if it is kept.
    pub fn offer_with(&mut self, key: u64, value: impl FnOnce() -> u64) {
        self.stride = self.stride.max(1);
        let mut keep = self.seen.is_multiple_of(self.stride);
        if keep && self.samples.len() == TRACE_SAMPLES {
            // Halve the resolution: keep every other sample and double the stride.
            let kept: Vec<_> = self.samples.iter().copied().step_by(2).collect();
            self.samples = kept;
            self.stride *= 2;
            keep = self.seen.is_multiple_of(self.stride);
        }
        if keep {
            self.samples.push((key, value()));
        }
        self.seen += 1;
    }
}
