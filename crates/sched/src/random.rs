//! Randomness for the randomized schedulers (MultiQueue, SMQ, RELD, SprayList): a per-handle
//! xorshift generator, and the NUMA-weighted queue choice of the SMQ paper (Postnikova et al.,
//! PPoPP'22, §4).

use crate::topology::WorkerLayout;

/// xorshift64* (Vigna): a few cycles per draw, plenty for picking queues.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `worker` (distinct, non-zero seeds).
    pub fn for_worker(worker: usize) -> Self {
        Rng((worker as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0), by multiply-shift.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// True with probability `p` in [0, 1] given as a 32-bit threshold (see [`threshold`]).
    #[inline]
    pub fn chance(&mut self, threshold: u64) -> bool {
        (self.next_u64() >> 32) < threshold
    }
}

/// The 32-bit threshold of probability `p` for [`Rng::chance`].
pub fn threshold(p: f64) -> u64 {
    (p.clamp(0.0, 1.0) * (1u64 << 32) as f64) as u64
}

/// Picks queues for a worker with the SMQ paper's NUMA weighting: each of the `per_worker` queues
/// of a worker on the same package has weight 1, every other queue weight 1/K. With K = 1 the
/// choice is uniform over all queues. Queue `q` belongs to worker `q / per_worker`.
#[derive(Debug, Clone)]
pub struct QueuePicker {
    /// Queues of this worker's package.
    local: Vec<usize>,
    /// Every other queue.
    remote: Vec<usize>,
    /// Probability (as a threshold) of picking among `local`.
    local_threshold: u64,
    total: usize,
}

impl QueuePicker {
    pub fn new(layout: &WorkerLayout, worker: usize, per_worker: usize, k: u32) -> Self {
        let pkg = layout.package_of[worker];
        let mut local = vec![];
        let mut remote = vec![];
        for w in 0..layout.workers() {
            let side = if layout.package_of[w] == pkg {
                &mut local
            } else {
                &mut remote
            };
            side.extend(w * per_worker..(w + 1) * per_worker);
        }
        let (l, r) = (local.len() as f64, remote.len() as f64 / k.max(1) as f64);
        QueuePicker {
            local_threshold: threshold(l / (l + r)),
            total: local.len() + remote.len(),
            local,
            remote,
        }
    }

    /// The number of queues.
    pub fn len(&self) -> usize {
        self.total
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    #[inline]
    pub fn pick(&self, rng: &mut Rng) -> usize {
        if self.remote.is_empty() || rng.chance(self.local_threshold) {
            self.local[rng.below(self.local.len())]
        } else {
            self.remote[rng.below(self.remote.len())]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::Topology;

    #[test]
    fn below_and_chance_are_roughly_uniform() {
        let mut r = Rng::for_worker(3);
        let mut hist = [0u32; 5];
        for _ in 0..50_000 {
            hist[r.below(5)] += 1;
        }
        assert!(
            hist.iter().all(|&h| (9_000..11_000).contains(&h)),
            "{hist:?}"
        );
        let t = threshold(0.125);
        let hits = (0..80_000).filter(|_| r.chance(t)).count();
        assert!((9_000..11_000).contains(&hits), "{hits}");
    }

    #[test]
    fn numa_weight_prefers_the_own_package() {
        // 2 packages x 4 workers, 2 queues per worker: 8 local queues, 8 remote of weight 1/8.
        let layout = Topology::synthetic(2, 4).layout(8);
        let p = QueuePicker::new(&layout, 0, 2, 8);
        let mut r = Rng::for_worker(0);
        let local = (0..90_000)
            .filter(|_| layout.package_of[p.pick(&mut r) / 2] == layout.package_of[0])
            .count();
        // Expected 8 / (8 + 1) = 88.9%.
        assert!((78_000..82_000).contains(&local), "{local}");
        let uniform = QueuePicker::new(&layout, 0, 2, 1);
        let local = (0..90_000)
            .filter(|_| layout.package_of[uniform.pick(&mut r) / 2] == layout.package_of[0])
            .count();
        assert!((43_000..47_000).contains(&local), "{local}");
    }
}
