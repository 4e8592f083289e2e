//! Whether a graph is its own transpose, or already its own undirected simple view, found in
//! sequential passes over its arcs.
//!
//! Pull-style methods (bottom-up BFS, pull PageRank) read in-edges. A graph whose arcs come in
//! reverse pairs needs no transpose: its out-lists are its in-lists. The undirected methods
//! (components, cores, triangles, spanning trees) run on the undirected simple view, which a
//! graph with sorted, duplicate-free, loop-free lists and reverse pairs of equal weight already
//! is. Files do not say so (an `.ordo` or `.gr` file of an undirected graph lists both
//! directions without a flag), and building the view to compare would cost what it saves: on
//! Kronecker 20 (31M arcs) the transpose took 1.8-1.9 s and the undirected view about 4 s.
//!
//! **The test.** The arcs, as a multiset of pairs `(u, v)`, must equal the multiset of the
//! reversed pairs `(v, u)`. Over the field of the Mersenne prime `p = 2^61 - 1`, with `r` and
//! `s` drawn at random for every call, the pass computes
//! `A = Π (r - u - s v)` and `B = Π (r - v - s u)` over the arcs. These are the values at
//! `(r, s)` of two polynomials of degree `m` (the arc count) in `r` and `s`. The factors
//! `r - u - s v` are irreducible and, since ids are below `2^32 < p`, distinct pairs give
//! distinct factors, so by unique factorization the polynomials are equal exactly when the two
//! multisets are. Equal multisets always give `A = B`; different ones give `A = B` with
//! probability at most `m / p` (Schwartz-Zippel): below `5e-11` for a billion arcs. The draw
//! is fresh per call, so no file can be made to pass. With weights the factors are
//! `r - u - s v - t w` and `r - v - s u - t w`: the triples `(u, v, w)` against the reversed
//! ones, with the same bound.
//!
//! Cost: three multiplications modulo `p` per arc (`s v` and the two products; four with
//! weights), all reads sequential. A cheaper necessary condition runs first (the arcs' tails
//! and heads have equal sums and sums of squares), so a directed graph rarely pays for the
//! products.

use crate::Graph;
use std::hash::{BuildHasher, Hasher};

/// Arcs below which a thread is not worth starting.
const ARCS_PER_THREAD: usize = 1 << 20;

/// The Mersenne prime `2^61 - 1`.
const P: u64 = (1 << 61) - 1;

// The loop keeps field elements as any `u64` below `2^62` congruent to them ("lazy"), and
// reduces fully only to compare: `2^61 = 1 (mod P)` lets a fold `(x & P) + (x >> 61)` stand in
// for a division, and no step needs a comparison.

/// A value congruent to `x`, below `2^61 + 8` (below `2^62` for any `x`).
#[inline]
fn fold(x: u64) -> u64 {
    (x & P) + (x >> 61)
}

/// `a b`, lazy, for lazy `a` and `b` (both below `2^62`).
#[inline]
fn mul(a: u64, b: u64) -> u64 {
    // z < 2^124: its low 61 bits plus the rest is below 2^61 + 2^63, and a second fold brings
    // that to at most P + 5 = 2^61 + 4.
    let z = a as u128 * b as u128;
    fold((z as u64 & P) + (z >> 61) as u64)
}

/// The canonical value (below `P`) of a lazy `x`.
#[inline]
fn canonical(x: u64) -> u64 {
    let y = fold(x);
    if y >= P {
        y - P
    } else {
        y
    }
}

/// A field element drawn from the process's random hasher keys (fresh per call).
fn random_element(salt: u64) -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(salt);
    h.finish() % P
}

/// The random point `(r, s, t)` at which the products are taken.
#[derive(Clone, Copy, Debug)]
struct Point {
    r: u64,
    s: u64,
    t: u64,
}

impl Point {
    fn random() -> Point {
        Point {
            r: random_element(1),
            s: random_element(2),
            t: random_element(3),
        }
    }
}

/// The products `A` and `B` (module docs) over the arcs of nodes `nodes`, with the arcs'
/// weights in the factors when `weights` is given.
///
/// Each product is kept as two running products (even and odd arcs of a list), so that four
/// chains of dependent multiplications overlap: one chain's multiply-and-reduce latency, not
/// its instruction count, limits a single-product loop.
///
/// The lists are `offsets`/`targets`; list `i` holds node `id(i)`'s arcs (the identity for a
/// whole graph, the global ids of a part's nodes for a graph split over processes).
fn fingerprints(
    (offsets, targets): (&[u64], &[u32]),
    nodes: std::ops::Range<usize>,
    id: impl Fn(usize) -> u64,
    at: Point,
    weights: Option<&[u32]>,
) -> (u64, u64) {
    let (mut forward, mut backward) = ([1u64; 2], [1u64; 2]);
    for i in nodes {
        let (start, end) = (offsets[i] as usize, offsets[i + 1] as usize);
        let u = id(i);
        // r - u and r - s u, canonical: then each factor needs no more than one fold.
        let r_u = canonical(at.r + P - u);
        let r_su = canonical(at.r + P - canonical(mul(at.s, u)));
        // t w, or nothing.
        let tw = |e: usize| weights.map_or(0, |ws| mul(at.t, ws[e] as u64));
        let factors = |v: u32, tw: u64| {
            let v = v as u64;
            // A product is at most 2^61 + 4 (`mul`), so s v + t w < 4P: each sum is positive
            // and below 5P < 2^64.
            let f = fold(r_u + 4 * P - mul(at.s, v) - tw);
            let b = fold(r_su + 4 * P - v - tw);
            (f, b)
        };
        let list = &targets[start..end];
        let mut pairs = list.chunks_exact(2);
        let mut e = start;
        for pair in &mut pairs {
            for lane in 0..2 {
                let (f, b) = factors(pair[lane], tw(e + lane));
                forward[lane] = mul(forward[lane], f);
                backward[lane] = mul(backward[lane], b);
            }
            e += 2;
        }
        if let [v] = pairs.remainder() {
            let (f, b) = factors(*v, tw(e));
            forward[0] = mul(forward[0], f);
            backward[0] = mul(backward[0], b);
        }
    }
    (mul(forward[0], forward[1]), mul(backward[0], backward[1]))
}

/// The random point of the reverse-pair test for a graph split over processes: every process
/// must take the same one, so one draws it ([`ReversePoint::random`]) and the others receive
/// its words ([`ReversePoint::to_words`], [`ReversePoint::from_words`]).
#[derive(Clone, Copy, Debug)]
pub struct ReversePoint(Point);

impl ReversePoint {
    pub fn random() -> ReversePoint {
        ReversePoint(Point::random())
    }

    pub fn to_words(self) -> [u64; 3] {
        [self.0.r, self.0.s, self.0.t]
    }

    /// The point of `to_words`'s words (any words give a valid point).
    pub fn from_words([r, s, t]: [u64; 3]) -> ReversePoint {
        ReversePoint(Point {
            r: r % P,
            s: s % P,
            t: t % P,
        })
    }
}

/// One part's products `A` and `B` (module docs) at `at`: list `i` of `offsets`/`targets`
/// (and of `weights`, which join the factors when given) holds the arcs of the node whose
/// global id is `id(i)`, and targets are global ids. The parts of a graph agree in
/// [`parts_are_symmetric`] exactly when the whole graph would pass
/// [`Graph::is_symmetric`] (or its weighted form), with the same bound.
pub fn part_fingerprint(
    offsets: &[u64],
    targets: &[u32],
    weights: Option<&[u32]>,
    id: impl Fn(usize) -> u64,
    at: ReversePoint,
) -> [u64; 2] {
    let n = offsets.len().saturating_sub(1);
    let (f, b) = fingerprints((offsets, targets), 0..n, id, at.0, weights);
    [canonical(f), canonical(b)]
}

/// The sums of the arcs' tails, of their squares, of their heads and of their squares (modulo
/// `2^64`) over the lists `offsets`/`targets`, list `i` holding node `id(i)`'s arcs: added up
/// over a graph's parts, the tails' pair equals the heads' in every symmetric graph (the
/// cheap test that runs before the fingerprint). The tails' sums come from the degrees; the
/// heads' are one vectorized pass over the targets.
pub fn endpoint_sums(offsets: &[u64], targets: &[u32], id: impl Fn(usize) -> u64) -> [u64; 4] {
    let (mut tails, mut tail_squares) = (0u64, 0u64);
    for (i, w) in offsets.windows(2).enumerate() {
        let (degree, u) = (w[1] - w[0], id(i));
        tails = tails.wrapping_add(degree.wrapping_mul(u));
        tail_squares = tail_squares.wrapping_add(degree.wrapping_mul(u.wrapping_mul(u)));
    }
    let (mut heads, mut head_squares) = (0u64, 0u64);
    for &v in targets {
        let v = v as u64;
        heads = heads.wrapping_add(v);
        head_squares = head_squares.wrapping_add(v.wrapping_mul(v));
    }
    [tails, tail_squares, heads, head_squares]
}

/// Whether every list of `offsets`/`targets` (list `i` holding node `id(i)`'s arcs) is
/// strictly increasing and without its own node, as the undirected simple view's lists are.
pub fn lists_sorted_simple(offsets: &[u64], targets: &[u32], id: impl Fn(usize) -> u32) -> bool {
    offsets.windows(2).enumerate().all(|(i, w)| {
        let list = &targets[w[0] as usize..w[1] as usize];
        list.windows(2).all(|p| p[0] < p[1]) && list.binary_search(&id(i)).is_err()
    })
}

/// Whether the parts' fingerprints, taken at one point, say the whole graph's arcs come in
/// reverse pairs.
pub fn parts_are_symmetric(parts: impl IntoIterator<Item = [u64; 2]>) -> bool {
    let (f, b) = parts
        .into_iter()
        .fold((1, 1), |(f, b), [pf, pb]| (mul(f, pf), mul(b, pb)));
    canonical(f) == canonical(b)
}

impl Graph {
    /// The CSR arrays the fingerprints read.
    fn lists(&self) -> (&[u64], &[u32]) {
        (self.offsets(), self.targets())
    }

    /// Whether every arc `u -> v` has a reverse `v -> u`, as many times as it occurs itself: then
    /// the graph's out-lists are its in-lists. One pass over the arcs on `threads` threads;
    /// a graph that is not symmetric is reported symmetric with probability below `m / 2^61`
    /// for `m` arcs (module docs). Checked once per graph; later calls return the answer.
    pub fn is_symmetric(&self, threads: usize) -> bool {
        *self.symmetric.get_or_init(|| {
            self.endpoint_sums_agree() && self.reverse_products_agree(threads, None)
        })
    }

    /// Whether the graph is its own undirected simple view ([`crate::undirected_simple`]):
    /// every list strictly increasing and without its own node, and every arc's reverse
    /// present with the same weight. Same passes and bound as [`Graph::is_symmetric`].
    pub fn is_undirected_simple(&self, threads: usize) -> bool {
        self.lists_sorted_simple()
            && self.endpoint_sums_agree()
            && self.reverse_products_agree(threads, self.weights())
    }

    /// Whether every list is strictly increasing and without its own node, and every arc's
    /// reverse is present (its weight may differ): the arcs pair up one to one, as the arcs of
    /// a flow network do. [`Graph::is_undirected_simple`] without the weights; same passes
    /// and bound.
    pub fn is_paired(&self, threads: usize) -> bool {
        self.pairing(threads).is_some()
    }

    /// `None` unless the graph [`is_paired`](Graph::is_paired); then whether each pair's two
    /// weights are equal (`Some(true)`: it [`is_undirected_simple`](Graph::is_undirected_simple)).
    /// Asking the two questions one after the other would run the list and endpoint passes
    /// twice; here each runs once, and the unweighted product only where the weighted one
    /// fails. Same bound.
    pub fn pairing(&self, threads: usize) -> Option<bool> {
        if !(self.lists_sorted_simple() && self.endpoint_sums_agree()) {
            return None;
        }
        // Equal triples (u, v, w) and (v, u, w) imply equal pairs (u, v) and (v, u).
        if self.weights().is_some() && self.reverse_products_agree(threads, self.weights()) {
            return Some(true);
        }
        // `is_symmetric` without its endpoint pass, which agreed above (its answer cached as
        // `is_symmetric` caches it).
        let symmetric = *self
            .symmetric
            .get_or_init(|| self.reverse_products_agree(threads, None));
        symmetric.then_some(self.weights().is_none())
    }

    /// Every adjacency list strictly increasing, with no self-loop.
    fn lists_sorted_simple(&self) -> bool {
        lists_sorted_simple(self.offsets(), self.targets(), |u| u as u32)
    }

    /// `A = B` at a fresh random point (module docs), on up to `threads` threads.
    fn reverse_products_agree(&self, threads: usize, weights: Option<&[u32]>) -> bool {
        let n = self.num_nodes();
        let at = Point::random();
        // Starting a thread costs about what a million arcs do.
        let parts = threads
            .clamp(1, 64)
            .min(self.num_edges() / ARCS_PER_THREAD + 1);
        let (forward, backward) = if parts == 1 {
            fingerprints(self.lists(), 0..n, |u| u as u64, at, weights)
        } else {
            let bounds = self.balanced_node_bounds(parts);
            std::thread::scope(|scope| {
                let handles: Vec<_> = bounds
                    .windows(2)
                    .map(|w| {
                        let range = w[0]..w[1];
                        scope.spawn(move || {
                            fingerprints(self.lists(), range, |u| u as u64, at, weights)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a fingerprint thread does not panic"))
                    .fold((1, 1), |(f, b), (pf, pb)| (mul(f, pf), mul(b, pb)))
            })
        };
        canonical(forward) == canonical(backward)
    }

    /// A necessary condition, at a fraction of the products' cost, that turns most directed
    /// graphs away: the sums of the arcs' tails and of their squares equal those of their heads
    /// (modulo `2^64`). The tails' sums come from the degrees; the heads' are one vectorized
    /// pass over the targets.
    fn endpoint_sums_agree(&self) -> bool {
        let [tails, tail_squares, heads, head_squares] =
            endpoint_sums(self.offsets(), self.targets(), |u| u as u64);
        tails == heads && tail_squares == head_squares
    }

    /// `parts + 1` node ids from 0 to `n` that split the arcs into about equal parts.
    fn balanced_node_bounds(&self, parts: usize) -> Vec<usize> {
        let offsets = self.offsets();
        let n = self.num_nodes();
        let m = self.num_edges() as u64;
        let mut bounds: Vec<usize> = (0..=parts)
            .map(|i| {
                let arc = m * i as u64 / parts as u64;
                offsets.partition_point(|&o| o < arc).min(n)
            })
            .collect();
        bounds[0] = 0;
        bounds[parts] = n;
        bounds
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{gen, Buf, BuildOptions, EdgeList, IdBase};

    fn graph(n: u32, arcs: &[(u32, u32)]) -> Graph {
        let mut list = EdgeList::with_capacity(n, arcs.len(), false);
        for &(u, v) in arcs {
            list.push(u, v, 1);
        }
        list.build(&BuildOptions::default(), IdBase::Zero).unwrap()
    }

    #[test]
    fn lazy_field_arithmetic_matches_u128() {
        let big = (1u64 << 62) - 1;
        for &(a, b) in &[
            (0, 5),
            (P - 1, P - 1),
            (12345, P - 2),
            (1 << 60, 3 << 59),
            (big, big),
        ] {
            let product = mul(a, b);
            assert!(product <= P + 5, "{a} x {b}");
            let exact = (a as u128 * b as u128) % P as u128;
            assert_eq!(canonical(product) as u128, exact, "{a} x {b}");
        }
        assert_eq!(canonical(P), 0);
        assert_eq!(canonical(big), big % P);
        assert!(fold(u64::MAX) < 1 << 62);
    }

    #[test]
    fn undirected_graphs_are_symmetric_on_any_thread_count() {
        let grid = gen::road_grid(30, 20, 3, &BuildOptions::default()).unwrap();
        for threads in [1, 2, 3, 8] {
            assert!(grid.is_symmetric(threads));
        }
        // Self-loops and parallel pairs count with their multiplicity.
        let g = graph(3, &[(0, 0), (0, 1), (1, 0), (0, 1), (1, 0), (2, 1), (1, 2)]);
        assert!(g.is_symmetric(2));
    }

    #[test]
    fn one_missing_or_extra_reverse_is_found() {
        // One arc without its reverse.
        assert!(!graph(3, &[(0, 1), (1, 0), (1, 2)]).is_symmetric(1));
        // A pair repeated in one direction only.
        assert!(!graph(2, &[(0, 1), (1, 0), (0, 1)]).is_symmetric(2));
        // A directed cycle: every node has in- and out-degree 1, yet no arc has its reverse.
        assert!(!graph(3, &[(0, 1), (1, 2), (2, 0)]).is_symmetric(1));
        // A grid with one arc dropped, on several threads.
        let grid = gen::road_grid(30, 20, 3, &BuildOptions::default()).unwrap();
        let mut list = EdgeList::with_capacity(grid.num_nodes() as u32, grid.num_edges(), true);
        for u in 0..grid.num_nodes() as u32 {
            for (v, w) in grid.out_edges(u) {
                if (u, v) != (7, 8) {
                    list.push(u, v, w);
                }
            }
        }
        let cut = list.build(&BuildOptions::default(), IdBase::Zero).unwrap();
        assert_eq!(cut.num_edges() + 1, grid.num_edges());
        for threads in [1, 2, 5] {
            assert!(!cut.is_symmetric(threads));
        }
    }

    fn weighted(n: u32, arcs: &[(u32, u32, u32)]) -> Graph {
        let mut list = EdgeList::with_capacity(n, arcs.len(), true);
        for &(u, v, w) in arcs {
            list.push(u, v, w);
        }
        list.build(&BuildOptions::default(), IdBase::Zero).unwrap()
    }

    #[test]
    fn a_graph_is_its_own_undirected_view_only_when_simple_with_even_weights() {
        let grid = gen::road_grid(30, 20, 3, &BuildOptions::default()).unwrap();
        assert!(grid.is_undirected_simple(2));
        // Sharing the graph gives what building the view would.
        let built = crate::load::rebuilt_undirected_simple(&grid).unwrap();
        assert_eq!(built.offsets(), grid.offsets());
        assert_eq!(built.targets(), grid.targets());
        assert_eq!(built.weights(), grid.weights());

        assert!(weighted(3, &[(0, 1, 5), (1, 0, 5), (1, 2, 7), (2, 1, 7)]).is_undirected_simple(1));
        // The same pairs, one weight differing by direction: symmetric, not its own view.
        let uneven = weighted(3, &[(0, 1, 5), (1, 0, 5), (1, 2, 7), (2, 1, 8)]);
        assert!(uneven.is_symmetric(1));
        assert!(!uneven.is_undirected_simple(1));
        // A self-loop, a parallel pair.
        assert!(!graph(2, &[(0, 0), (0, 1), (1, 0)]).is_undirected_simple(1));
        assert!(!graph(2, &[(0, 1), (0, 1), (1, 0), (1, 0)]).is_undirected_simple(1));
    }

    #[test]
    fn paired_arcs_may_differ_in_weight_but_not_in_presence_or_order() {
        let uneven = weighted(3, &[(0, 1, 5), (1, 0, 5), (1, 2, 7), (2, 1, 8)]);
        assert!(uneven.is_paired(2));
        assert!(!weighted(3, &[(0, 1, 5), (1, 0, 5), (1, 2, 7)]).is_paired(1));
        // A self-loop, a parallel pair: symmetric, not paired one to one.
        assert!(!graph(2, &[(0, 0), (0, 1), (1, 0)]).is_paired(1));
        assert!(!graph(2, &[(0, 1), (0, 1), (1, 0), (1, 0)]).is_paired(1));
        // Every reverse present, a list out of order.
        let unsorted = Graph::from_csr(
            Buf::from_vec(vec![0, 2, 3, 4]),
            Buf::from_vec(vec![2, 1, 0, 0]),
            None,
            IdBase::Zero,
        )
        .unwrap();
        assert!(unsorted.is_symmetric(1));
        assert!(!unsorted.is_paired(1));
    }

    #[test]
    fn pairing_tells_paired_graphs_with_equal_weights_from_the_others() {
        let grid = gen::road_grid(30, 20, 3, &BuildOptions::default()).unwrap();
        assert_eq!(grid.pairing(2), Some(true));
        let uneven = weighted(3, &[(0, 1, 5), (1, 0, 5), (1, 2, 7), (2, 1, 8)]);
        assert_eq!(uneven.pairing(2), Some(false));
        assert_eq!(
            graph(3, &[(0, 1), (1, 0), (1, 2), (2, 1)]).pairing(1),
            Some(true)
        );
        assert_eq!(
            weighted(3, &[(0, 1, 5), (1, 0, 5), (1, 2, 7)]).pairing(1),
            None
        );
        assert_eq!(graph(2, &[(0, 0), (0, 1), (1, 0)]).pairing(1), None);
    }

    /// The fingerprints of `g` split into parts holding every `parts`-th node (the cyclic
    /// layout, whose lists are not contiguous in id), at one point.
    fn split_fingerprints(g: &Graph, parts: usize, weighted: bool) -> Vec<[u64; 2]> {
        let at = ReversePoint::from_words(ReversePoint::random().to_words());
        let n = g.num_nodes();
        (0..parts)
            .map(|p| {
                let ids: Vec<usize> = (p..n).step_by(parts).collect();
                let mut offsets = vec![0u64];
                let (mut targets, mut weights) = (Vec::new(), Vec::new());
                for &u in &ids {
                    for (v, w) in g.out_edges(u as u32) {
                        targets.push(v);
                        weights.push(w);
                    }
                    offsets.push(targets.len() as u64);
                }
                let w = weighted.then_some(&weights[..]);
                part_fingerprint(&offsets, &targets, w, |i| ids[i] as u64, at)
            })
            .collect()
    }

    #[test]
    fn parts_agree_exactly_when_the_whole_graph_is_symmetric() {
        let grid = gen::road_grid(30, 20, 3, &BuildOptions::default()).unwrap();
        for parts in [1, 2, 3, 7] {
            assert!(parts_are_symmetric(split_fingerprints(&grid, parts, false)));
        }
        let directed = graph(4, &[(0, 1), (1, 0), (1, 2), (2, 3), (3, 2)]);
        for parts in [1, 2, 3] {
            assert!(!parts_are_symmetric(split_fingerprints(
                &directed, parts, false
            )));
        }
        // Reverse pairs of unequal weights: symmetric, but not with the weights in the factors.
        let uneven = weighted(2, &[(0, 1, 3), (1, 0, 4)]);
        assert!(parts_are_symmetric(split_fingerprints(&uneven, 2, false)));
        assert!(!parts_are_symmetric(split_fingerprints(&uneven, 2, true)));
    }

    #[test]
    fn an_empty_graph_is_symmetric() {
        assert!(graph(0, &[]).is_symmetric(4));
        assert!(graph(5, &[]).is_symmetric(4));
    }
}
