//! The serial oracle: Brandes' algorithm (2001) with a queue BFS from each source, and the
//! comparison of two score vectors.

use crate::VerifyError;
use ordo_graph::Graph;
use std::collections::VecDeque;

/// Betweenness of every node summed over `sources`, each counted once, unnormalized: the sum
/// over sources s of the dependency delta_s(v) = sum over targets t of sigma_st(v) / sigma_st,
/// where sigma_st counts the shortest s-t paths and sigma_st(v) those through v. Paths are
/// counted in hops; weights are ignored. A source whose path counts leave `f64`'s range is
/// redone with scaled counts (a mantissa and a power of two each)
/// ([`dependencies_with_scaled_counts`](super::scaled_counts::dependencies_with_scaled_counts)).
pub fn serial_brandes(g: &Graph, sources: &[u32]) -> Vec<f64> {
    let n = g.num_nodes();
    let mut score = vec![0.0f64; n];
    let mut depth = vec![u32::MAX; n];
    let mut sigma = vec![0.0f64; n];
    let mut delta = vec![0.0f64; n];
    let mut order: Vec<u32> = Vec::with_capacity(n);
    let mut queue = VecDeque::new();
    for &s in sources {
        depth[s as usize] = 0;
        sigma[s as usize] = 1.0;
        queue.push_back(s);
        let mut huge = false;
        while let Some(v) = queue.pop_front() {
            order.push(v);
            huge |= super::scaled_counts::needs_scaled_counts(sigma[v as usize]);
            let dv = depth[v as usize];
            for &w in g.neighbors(v) {
                let w = w as usize;
                if depth[w] == u32::MAX {
                    depth[w] = dv + 1;
                    queue.push_back(w as u32);
                }
                if depth[w] == dv + 1 {
                    sigma[w] += sigma[v as usize];
                }
            }
        }
        if huge {
            super::scaled_counts::dependencies_with_scaled_counts(g, s, |u, x| {
                score[u as usize] += x
            });
        } else {
            // Pull from successors in reverse BFS order: every successor is finished first.
            for &u in order.iter().rev() {
                let u = u as usize;
                let mut acc = 0.0;
                for &w in g.neighbors(u as u32) {
                    let w = w as usize;
                    if depth[w] == depth[u] + 1 {
                        acc += sigma[u] / sigma[w] * (1.0 + delta[w]);
                    }
                }
                delta[u] = acc;
                if u != s as usize {
                    score[u] += acc;
                }
            }
        }
        for &v in &order {
            let v = v as usize;
            (depth[v], sigma[v], delta[v]) = (u32::MAX, 0.0, 0.0);
        }
        order.clear();
    }
    score
}

/// Bytes [`serial_brandes_split`] lets its groups' arrays take in all (each group's are
/// about 32 bytes a node).
const SPLIT_BYTES: usize = 4 << 30;

/// [`serial_brandes`] with `sources` split into up to `threads` contiguous groups, each run
/// by the serial algorithm on a thread of its own, and the groups' scores summed in group
/// order: sources are independent, so each group's answer is the serial one, and only the
/// order of the final additions changes (within [`TOLERANCE`]). Run serially, the check of a
/// verified `ordo bc` (50 sources by default) is most of its wall time (Kronecker 20 at 2
/// threads: a 2.5 s run, a 15.7 s check). Groups are as many as fit [`SPLIT_BYTES`] (one at
/// least).
/// Plain scoped threads, not ordo-exec's team, so the check does not share the kernels'
/// executor.
pub fn serial_brandes_split(g: &Graph, sources: &[u32], threads: usize) -> Vec<f64> {
    let fit = SPLIT_BYTES / (32 * g.num_nodes()).max(1);
    let groups = threads.min(sources.len()).min(fit).max(1);
    if groups == 1 {
        return serial_brandes(g, sources);
    }
    let per_group = sources.len().div_ceil(groups);
    let parts: Vec<Vec<f64>> = std::thread::scope(|scope| {
        let handles: Vec<_> = sources
            .chunks(per_group)
            .map(|group| scope.spawn(move || serial_brandes(g, group)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("an oracle thread does not panic"))
            .collect()
    });
    let mut parts = parts.into_iter();
    let mut score = parts.next().unwrap_or_else(|| vec![0.0; g.num_nodes()]);
    for part in parts {
        for (s, x) in score.iter_mut().zip(part) {
            *s += x;
        }
    }
    score
}

/// Relative tolerance of [`compare_scores`]: parallel sums of path counts and dependencies
/// round in another order than the oracle's.
pub const TOLERANCE: f64 = 1e-9;

/// Checks `got` against `expected` within [`TOLERANCE`], relative to the larger magnitude
/// (down to the smallest normal f64, below which a product loses relative precision).
/// `file_id` names nodes as the input file does.
pub fn compare_scores(
    got: &[f64],
    expected: &[f64],
    file_id: impl Fn(u32) -> u64,
) -> Result<(), VerifyError> {
    if got.len() != expected.len() {
        return Err(VerifyError::Answer(format!(
            "{} scores, the oracle has {}",
            got.len(),
            expected.len()
        )));
    }
    // Relative for small scores too: scores are sums of products and quotients of positive
    // numbers, whose rounding is relative, with no cancellation. An absolute floor would let
    // a small score be off by any ratio, or be dropped to 0.
    let close =
        |a: f64, b: f64| (a - b).abs() <= (TOLERANCE * a.abs().max(b.abs())).max(f64::MIN_POSITIVE);
    let mut bad = got
        .iter()
        .zip(expected)
        .enumerate()
        .filter(|(_, (&a, &b))| !close(a, b));
    match bad.next() {
        None => Ok(()),
        Some((i, (&a, &b))) => Err(VerifyError::Nodes {
            mismatches: 1 + bad.count(),
            node: file_id(i as u32),
            got: format!("{a:e}"),
            expected: format!("{b:e}"),
        }),
    }
}
