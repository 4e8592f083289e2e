//! Brandes from one source with path counts kept as base-2 logarithms: for sources whose
//! shortest-path counts leave `f64`'s range.
//!
//! A grid's counts are binomial: from a corner of a 2000 x 2000 grid the far corner has
//! C(3998, 1999), about 2^3990, shortest paths, past `f64`'s largest number (about 2^1024),
//! so the counts become infinite and the dependencies `σ_u / σ_w (1 + δ_w)` not-a-number (as
//! in GAPBS's `bc`, which counts in `double` too). Scaling every level by a power of two would
//! not do: one level's counts span 1 (along the border) to 2^3990, more than `f64`'s whole
//! exponent range. Logarithms span it: `log2 σ_w` is accumulated with `log2(2^a + 2^b)`, and
//! a dependency needs only `σ_u / σ_w = 2^(log2 σ_u - log2 σ_w)`, a number of modest size (at
//! most 1 along the shortest-path DAG). Each arc of the DAG costs an exponential and a
//! logarithm, several times a plain addition, so the kernels count in `f64` and call this only
//! for a source whose counts overflowed ([`needs_log_domain`]).

use ordo_graph::Graph;

/// Whether a count read while expanding its node calls for the log domain: it overflowed.
/// Every reached node is expanded, and a count is a sum of positive counts, which stays
/// infinite once a partial sum overflowed; so if every count expanded is finite, every sum
/// was, and the `f64` dependencies stand (their ratios are at most 1).
#[inline(always)]
pub(super) fn needs_log_domain(sigma: f64) -> bool {
    !sigma.is_finite()
}

/// `log2(2^a + 2^b)`, exact for `a = -inf` (no paths yet).
fn log2_add(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    if lo == f64::NEG_INFINITY {
        return hi;
    }
    hi + (lo - hi).exp2().ln_1p() * std::f64::consts::LOG2_E
}

/// Calls `add(u, δ_src(u))` for every node `u != src` that `src` reaches (the dependencies of
/// Brandes's algorithm, unnormalized, hops as lengths), computed with logarithmic path counts.
/// Serial, with arrays of its own: the rare sources that need it.
pub fn dependencies_in_log_domain(g: &Graph, src: u32, mut add: impl FnMut(u32, f64)) {
    let n = g.num_nodes();
    let mut depth = vec![u32::MAX; n];
    let mut log_sigma = vec![f64::NEG_INFINITY; n];
    let mut delta = vec![0.0f64; n];
    let mut order = vec![src];
    depth[src as usize] = 0;
    log_sigma[src as usize] = 0.0;
    let mut head = 0;
    while let Some(&v) = order.get(head) {
        head += 1;
        let (dv, lv) = (depth[v as usize], log_sigma[v as usize]);
        for &w in g.neighbors(v) {
            let w = w as usize;
            if depth[w] == u32::MAX {
                depth[w] = dv + 1;
                order.push(w as u32);
            }
            if depth[w] == dv + 1 {
                log_sigma[w] = log2_add(log_sigma[w], lv);
            }
        }
    }
    for &u in order.iter().rev() {
        let (du, lu) = (depth[u as usize], log_sigma[u as usize]);
        let mut acc = 0.0;
        for &w in g.neighbors(u) {
            let w = w as usize;
            if depth[w] == du + 1 {
                acc += (lu - log_sigma[w]).exp2() * (1.0 + delta[w]);
            }
        }
        delta[u as usize] = acc;
        if u != src {
            add(u, acc);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bc::serial_brandes;
    use crate::test_graphs::diamonds;

    #[test]
    fn log_domain_matches_double_precision_where_counts_fit() {
        let g = diamonds(40);
        let mut got = vec![0.0; g.num_nodes()];
        for s in [0, 7, 60] {
            dependencies_in_log_domain(&g, s, |u, x| got[u as usize] += x);
        }
        let want = serial_brandes(&g, &[0, 7, 60]);
        crate::bc::compare_scores(&got, &want, |v| v as u64).unwrap();
        assert!(needs_log_domain(f64::INFINITY) && needs_log_domain(f64::NAN));
        assert!(!needs_log_domain(f64::MAX));
    }

    #[test]
    fn counts_past_f64_give_the_closed_form() {
        // 1100 diamonds: 2^1100 paths to the last join. From node 0, a join is on every
        // shortest path to each node beyond it, and each middle node on half of the paths to
        // every node from the next join on.
        let k = 1100;
        let g = diamonds(k);
        let mut got = vec![0.0; g.num_nodes()];
        dependencies_in_log_domain(&g, 0, |u, x| got[u as usize] += x);
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
        // The double-precision oracle needs the log domain here too.
        let oracle = serial_brandes(&g, &[0]);
        crate::bc::compare_scores(&got, &oracle, |v| v as u64).unwrap();
    }
}
