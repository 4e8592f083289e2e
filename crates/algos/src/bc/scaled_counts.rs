//! Brandes from one source with path counts kept as a mantissa and a power of two: for
//! sources whose shortest-path counts leave `f64`'s range.
//!
//! A grid's counts are binomial: from a corner of a 2000 x 2000 grid the far corner has
//! C(3998, 1999), about 2^3990, shortest paths, past `f64`'s largest number (about 2^1024),
//! so the counts become infinite and the dependencies `σ_u / σ_w (1 + δ_w)` not-a-number (as
//! in GAPBS's `bc`, which counts in `double` too). Scaling every level by one power of two
//! would not do: one level's counts span 1 (along the border) to 2^3990, more than `f64`'s
//! whole exponent range. Each count gets its own scale instead: `σ = m 2^(512 k)` with
//! `1 <= m < 2^512` (or `k = 0` and `m` the count itself), a sum of two aligned by one
//! multiplication by `2^-512` when their scales differ by one (a term smaller by `2^-1024` or
//! more is below the sum's rounding and dropped). A dependency needs only
//! `σ_u / σ_w = (m_u / m_w) 2^(512 (k_u - k_w))`, a number of modest size (at most 1 along
//! the shortest-path DAG, as `σ_w >= σ_u` there).
//!
//! Keeping `log2 σ` instead would pay an exponential and a logarithm per arc of the DAG
//! forward and an exponential backward, about twice the `f64` kernel's time per arc; these
//! cost a few flops more than `f64`'s. The kernels count in `f64` and call this only for a
//! source whose counts overflowed ([`needs_scaled_counts`]).
//!
//! Backward, node `w`'s count is needed only through `(1 + δ_w) / σ_w` once `w` is done, so
//! its mantissa's slot then takes `(1 + δ_w) / m_w` (its scale stays in `k`): four arrays of
//! 4 or 8 bytes per node, 20 bytes in all.

use ordo_graph::Graph;

/// Whether a count read while expanding its node calls for the scaled counts: it overflowed.
/// Every reached node is expanded, and a count is a sum of positive counts, which stays
/// infinite once a partial sum overflowed; so if every count expanded is finite, every sum
/// was, and the `f64` dependencies stand (their ratios are at most 1).
#[inline(always)]
pub(super) fn needs_scaled_counts(sigma: f64) -> bool {
    !sigma.is_finite()
}

/// The bytes a node of [`dependencies_with_scaled_counts`]'s arrays take (depth, mantissa,
/// scale, order).
pub(super) const SCALED_BYTES_PER_NODE: usize = 20;

/// The power of two one step of a count's scale stands for.
const STEP: i32 = 512;

/// `2^(STEP d)` for a difference of scales `d`: 0 below `-1` (the term is below the
/// rounding of anything it is added to or compared with).
#[inline(always)]
pub(super) fn scale(d: i32) -> f64 {
    match d {
        0 => 1.0,
        -1 => f64::from_bits(((1023 - STEP) as u64) << 52),
        1 => f64::from_bits(((1023 + STEP) as u64) << 52),
        d if d < 0 => 0.0,
        d => 2f64.powi(STEP * d),
    }
}

/// `(m, k) + (mu, ku)`, normalized (`m < 2^STEP`).
#[inline(always)]
pub(super) fn add_scaled(m: f64, k: i32, mu: f64, ku: i32) -> (f64, i32) {
    let (mut sum, mut k) = match k.cmp(&ku) {
        std::cmp::Ordering::Equal => (m + mu, k),
        std::cmp::Ordering::Greater => (m + mu * scale(ku - k), k),
        std::cmp::Ordering::Less => (mu + m * scale(k - ku), ku),
    };
    if sum >= scale(1) {
        sum *= scale(-1);
        k += 1;
    }
    (sum, k)
}

/// Calls `add(u, δ_src(u))` for every node `u != src` that `src` reaches (the dependencies of
/// Brandes's algorithm, unnormalized, hops as lengths), computed with scaled path counts.
/// Serial, with arrays of its own: the rare sources that need it.
pub fn dependencies_with_scaled_counts(g: &Graph, src: u32, add: impl FnMut(u32, f64)) {
    let n = g.num_nodes();
    let mut depth = vec![u32::MAX; n];
    let (mut mantissa, mut step, mut order) = (vec![0.0f64; n], vec![0i32; n], vec![0u32; n]);
    let scratch = Scratch {
        depth: &mut depth,
        mantissa: &mut mantissa,
        step: &mut step,
        order: &mut order,
    };
    scaled_dependencies(g, src, scratch, add);
}

/// Arrays of `n` entries each for [`scaled_dependencies`]: the one-thread kernel lends its
/// own (lone.rs), so a source that needs scaled counts costs no memory beside them.
pub(super) struct Scratch<'a> {
    /// `u32::MAX` everywhere on entry.
    pub depth: &'a mut [u32],
    /// σ's mantissa, then `(1 + δ) / m` once the node is done. Any values on entry.
    pub mantissa: &'a mut [f64],
    /// σ's scale. Any values on entry.
    pub step: &'a mut [i32],
    /// The search's queue. Any values on entry.
    pub order: &'a mut [u32],
}

/// [`dependencies_with_scaled_counts`] on arrays lent by the caller, which it leaves written
/// for every node `src` reaches.
pub(super) fn scaled_dependencies(
    g: &Graph,
    src: u32,
    arrays: Scratch<'_>,
    mut add: impl FnMut(u32, f64),
) {
    let Scratch {
        depth,
        mantissa,
        step,
        order,
    } = arrays;
    let n = g.num_nodes();
    assert!(depth.len() == n && mantissa.len() == n && step.len() == n && order.len() == n);
    order[0] = src;
    depth[src as usize] = 0;
    (mantissa[src as usize], step[src as usize]) = (1.0, 0);
    let (mut head, mut tail) = (0, 1);
    while head < tail {
        let v = order[head];
        head += 1;
        let (dv, mv, kv) = (depth[v as usize], mantissa[v as usize], step[v as usize]);
        for &w in g.neighbors(v) {
            let w = w as usize;
            if depth[w] == u32::MAX {
                depth[w] = dv + 1;
                (mantissa[w], step[w]) = (0.0, 0);
                order[tail] = w as u32;
                tail += 1;
            }
            if depth[w] == dv + 1 {
                (mantissa[w], step[w]) = add_scaled(mantissa[w], step[w], mv, kv);
            }
        }
    }
    for &u in order[..tail].iter().rev() {
        let (du, mu, ku) = (depth[u as usize], mantissa[u as usize], step[u as usize]);
        let mut acc = 0.0;
        for &w in g.neighbors(u) {
            let w = w as usize;
            if depth[w] == du + 1 {
                // Done: its slot holds `(1 + δ_w) / m_w`.
                acc += mantissa[w] * scale(ku - step[w]);
            }
        }
        let delta = mu * acc;
        mantissa[u as usize] = (1.0 + delta) / mu;
        if u != src {
            add(u, delta);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bc::serial_brandes;
    use crate::test_graphs::diamonds;

    #[test]
    fn scaled_counts_match_double_precision_where_counts_fit() {
        let g = diamonds(40);
        let mut got = vec![0.0; g.num_nodes()];
        for s in [0, 7, 60] {
            dependencies_with_scaled_counts(&g, s, |u, x| got[u as usize] += x);
        }
        let want = serial_brandes(&g, &[0, 7, 60]);
        crate::bc::compare_scores(&got, &want, |v| v as u64).unwrap();
        assert!(needs_scaled_counts(f64::INFINITY) && needs_scaled_counts(f64::NAN));
        assert!(!needs_scaled_counts(f64::MAX));
    }

    #[test]
    fn counts_past_f64_give_the_closed_form() {
        // 1100 diamonds: 2^1100 paths to the last join. From node 0, a join is on every
        // shortest path to each node beyond it, and each middle node on half of the paths to
        // every node from the next join on.
        let k = 1100;
        let g = diamonds(k);
        let mut got = vec![0.0; g.num_nodes()];
        dependencies_with_scaled_counts(&g, 0, |u, x| got[u as usize] += x);
        let n = g.num_nodes() as f64;
        for i in 1..k {
            let join = 3 * i;
            let beyond = n - 1.0 - join as f64;
            let rel = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.max(1.0);
            assert!(
                rel(got[join as usize], beyond),
                "join {join}: {}",
                got[join as usize]
            );
            let half = (n - join as f64) / 2.0;
            assert!(rel(got[join as usize - 1], half), "middle {}", join - 1);
            assert!(rel(got[join as usize - 2], half), "middle {}", join - 2);
        }
        // The double-precision oracle needs scaled counts here too.
        let oracle = serial_brandes(&g, &[0]);
        crate::bc::compare_scores(&got, &oracle, |v| v as u64).unwrap();
    }
}
