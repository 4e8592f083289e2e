//! Distance labels, 32 or 64 bits wide, lowered concurrently.
//!
//! A shortest path is simple: it uses each arc at most once and leaves each node at most
//! once, so no distance exceeds the sum of all weights, nor the sum over nodes of their
//! heaviest out-arc ([`fits_in_u32`]). When that sum is below `u32::MAX`, SSSP keeps its
//! labels in 32 bits: half the memory traffic on the label array, which every relaxation reads
//! at a random place (against 64-bit labels: NY 11-12% faster at 1 and 2 threads, other
//! graphs 0-7%). Otherwise the labels are 64-bit, which no path of fewer than 2^32 arcs of
//! 32-bit weights can overflow.
//!
//! Every access is Relaxed. A label publishes no other memory: it is a monotone value, and a
//! reader that sees an old one only does extra work (a task it runs re-reads the label and is
//! stale if it lost). The task that carries a lowered distance reaches other workers through
//! the scheduler, whose hand-offs synchronize, and the final labels are read after the worker
//! threads are joined.

use ordo_graph::Graph;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// A node's distance label: set once at the start, then only lowered.
pub trait DistLabel: Sync + Send + Sized {
    /// A label no path reaches.
    fn unreached() -> Self;
    fn set(&self, d: u64);
    /// The label, with "unreached" as `u64::MAX`.
    fn get(&self) -> u64;
    /// Lowers the label to `d` if `d` is smaller; true if this call lowered it. `d` must be
    /// below the type's "unreached" value.
    fn lower(&self, d: u64) -> bool;
    /// [`lower`](Self::lower) for a label no other thread writes meanwhile (a run with one
    /// worker): a plain load and store, no atomic read-modify-write.
    fn lower_unshared(&self, d: u64) -> bool;
    /// [`lower`](Self::lower) when `SHARED` (other threads may write the label meanwhile),
    /// else [`lower_unshared`](Self::lower_unshared); `SHARED` is chosen once per loop.
    #[inline(always)]
    fn lower_in<const SHARED: bool>(&self, d: u64) -> bool {
        match SHARED {
            true => self.lower(d),
            false => self.lower_unshared(d),
        }
    }
    /// Whether the label is below `d`, a reached distance (the stale test of a task that
    /// carries `d`): one load and compare, no widening of "unreached".
    fn below(&self, d: u64) -> bool;
    fn into_u64(self) -> u64;

    /// The label's word (`u32` or `u64`): what a queue of (node, distance) entries stores, so
    /// that 32-bit labels make 8-byte entries.
    type Word: Copy + Send + Sync + Into<u64>;
    /// `d`, which must be below the type's "unreached" value, as a word.
    fn narrow(d: u64) -> Self::Word;
}

/// A label word read as a distance: the word's `MAX` (unreached) as `u64::MAX`.
macro_rules! widen {
    ($w:expr, $word:ty) => {{
        let w: $word = $w;
        if w == <$word>::MAX {
            u64::MAX
        } else {
            w as u64
        }
    }};
}

/// `DistLabel` for an atomic word: the CAS loop lowers only while `d` is smaller, so a
/// relaxation that improves nothing (most of them) never writes, where `fetch_min` would take
/// the cache line exclusive every time. Unreached is the word's `MAX`, read as `u64::MAX`
/// (for 64-bit words the two are the same and the test folds away).
macro_rules! dist_label {
    ($atomic:ty, $word:ty) => {
        impl DistLabel for $atomic {
            #[inline(always)]
            fn unreached() -> Self {
                <$atomic>::new(<$word>::MAX)
            }

            #[inline(always)]
            fn set(&self, d: u64) {
                debug_assert!(d < <$word>::MAX as u64);
                self.store(d as $word, Ordering::Relaxed);
            }

            #[inline(always)]
            fn get(&self) -> u64 {
                widen!(self.load(Ordering::Relaxed), $word)
            }

            #[inline(always)]
            fn lower(&self, d: u64) -> bool {
                debug_assert!(d < <$word>::MAX as u64);
                let d = d as $word;
                let mut cur = self.load(Ordering::Relaxed);
                while d < cur {
                    match self.compare_exchange_weak(cur, d, Ordering::Relaxed, Ordering::Relaxed) {
                        Ok(_) => return true,
                        Err(actual) => cur = actual,
                    }
                }
                false
            }

            #[inline(always)]
            fn lower_unshared(&self, d: u64) -> bool {
                debug_assert!(d < <$word>::MAX as u64);
                let d = d as $word;
                let lower = d < self.load(Ordering::Relaxed);
                if lower {
                    self.store(d, Ordering::Relaxed);
                }
                lower
            }

            #[inline(always)]
            fn below(&self, d: u64) -> bool {
                self.load(Ordering::Relaxed) < d as $word
            }

            fn into_u64(self) -> u64 {
                widen!(self.into_inner(), $word)
            }

            type Word = $word;

            #[inline(always)]
            fn narrow(d: u64) -> $word {
                debug_assert!(d < <$word>::MAX as u64);
                d as $word
            }
        }
    };
}

dist_label!(AtomicU64, u64);
dist_label!(AtomicU32, u32);

/// Whether every shortest-path distance of `g` is below `u32::MAX`. A shortest path is simple,
/// so the sum of all weights bounds it ([`Graph::weight_sum`], one pass over the weights, kept
/// by the graph for the next run), which settles every graph we measure. Only where that sum
/// is too large comes the tighter bound, the sum of each node's heaviest out-arc (about 30
/// instructions per node), which stops as soon as it is too large too.
pub fn fits_in_u32(g: &Graph) -> bool {
    let Some(ws) = g.weights() else {
        return (g.num_nodes() as u64) < u32::MAX as u64;
    };
    if g.weight_sum() < u32::MAX as u64 {
        return true;
    }
    heaviest_arcs_bound(g.offsets(), ws) < u32::MAX as u64
}

/// The sum over the nodes of a CSR (a whole graph, or one rank's part of one) of each node's
/// heaviest out-arc, a bound on every simple path's length: exact below `u32::MAX`, and
/// `u32::MAX` as soon as it reaches it (the sum stops there).
pub fn heaviest_arcs_bound(offsets: &[u64], weights: &[u32]) -> u64 {
    let mut bound = 0u64;
    for w in offsets.windows(2) {
        let arcs = &weights[w[0] as usize..w[1] as usize];
        bound += arcs.iter().copied().max().unwrap_or(0) as u64;
        if bound >= u32::MAX as u64 {
            return u32::MAX as u64;
        }
    }
    bound
}

#[cfg(test)]
mod tests {
    use super::*;
    use ordo_graph::{BuildOptions, EdgeList, IdBase};

    fn path(weights: &[u32]) -> Graph {
        let mut el = EdgeList::with_capacity(weights.len() as u32 + 1, weights.len(), true);
        for (i, &w) in weights.iter().enumerate() {
            el.push(i as u32, i as u32 + 1, w);
        }
        el.build(&BuildOptions::default(), IdBase::Zero).unwrap()
    }

    #[test]
    fn the_bound_is_the_sum_of_heaviest_out_arcs() {
        assert!(fits_in_u32(&path(&[1 << 30, 1 << 30, 1 << 30])));
        // The sum of all weights is too large here (a star of heavy arcs into node 0), but
        // every node's heaviest out-arc sums to 2^31: the tighter bound says it fits.
        let mut el = EdgeList::with_capacity(8, 8, true);
        for v in 1..8 {
            el.push(0, v, 1 << 31);
        }
        let star = el.build(&BuildOptions::default(), IdBase::Zero).unwrap();
        assert!(fits_in_u32(&star));
        assert!(!fits_in_u32(&path(&[1 << 30, 1 << 30, 1 << 30, 1 << 30])));
        assert!(!fits_in_u32(&path(&[u32::MAX])));
    }

    #[test]
    fn sssp_near_the_32_bit_limit_is_exact() {
        // 3 x 2^30 fits (32-bit labels), with a final distance 3 x 2^30 near u32::MAX; four
        // arcs do not (64-bit labels). Both must give the serial oracle's distances.
        for weights in [vec![1 << 30; 3], vec![1 << 30; 4]] {
            let g = path(&weights);
            let cfg = ordo_exec::ExecConfig::new(2);
            let sched = ordo_sched::obim::Obim::new(
                &ordo_sched::obim::ObimConfig {
                    delta: 20,
                    ..Default::default()
                },
                2,
                &cfg.topology,
            );
            let out = crate::sssp::run(&g, 0, &sched, &cfg).unwrap();
            assert_eq!(out.dist, crate::sssp::dijkstra(&g, 0));
            assert_eq!(*out.dist.last().unwrap(), weights.len() as u64 * (1 << 30));
        }
    }

    #[test]
    fn labels_lower_and_widen() {
        let a = AtomicU32::unreached();
        assert_eq!(a.get(), u64::MAX);
        assert!(a.lower(7));
        assert!(!a.lower(9));
        assert!(a.lower(3));
        assert!(a.below(4) && !a.below(3));
        assert!(!a.lower_unshared(5));
        assert!(a.lower_unshared(2));
        assert_eq!(AtomicU32::narrow(2), 2u32);
        assert_eq!(a.into_u64(), 2);
        let b = AtomicU64::unreached();
        assert!(b.lower(u64::MAX - 1));
        assert_eq!(b.into_u64(), u64::MAX - 1);
    }
}
