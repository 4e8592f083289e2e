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
/// ([`dependencies_with_scaled_counts`](super::dependencies_with_scaled_counts)).
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
            super::dependencies_with_scaled_counts(g, s, |u, x| score[u as usize] += x);
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

/// Relative tolerance of [`compare_scores`]: parallel sums of path counts and dependencies
/// round in another order than the oracle's.
pub const TOLERANCE: f64 = 1e-9;

/// Checks `got` against `expected` within [`TOLERANCE`] (relative to the larger magnitude,
/// and to 1 for scores near zero). `file_id` names nodes as the input file does.
pub fn compare_scores(
    got: &[f64],
    expected: &[f64],
    file_id: impl Fn(u32) -> u64,
) -> Result<(), VerifyError> {
    assert_eq!(got.len(), expected.len());
    let close = |a: f64, b: f64| (a - b).abs() <= TOLERANCE * a.abs().max(b.abs()).max(1.0);
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
