//! The residual network: one arc each way between every two nodes that an input arc joins
//! (self-loops dropped). The arc u -> v has the capacity of all the input arcs u -> v (0 when
//! there are none) and is paired with the arc v -> u in v's CSR row, so a node scans
//! everything it can push along in one row.
//!
//! **Pairs are searched, not stored,** where the input is the network: every row is sorted,
//! so a push finds the pair of u -> v by a binary search for u in v's row ([`Rows::reverse`]).
//! An array of pairs (4 bytes an arc, as long as the residuals) would be the largest thing pfp
//! holds beside the graph (`ordo pfp --no-verify` on a 1000x1000 grid peaks at 2.41x its file
//! with it, 1.89x without). A global relabel, which reads the pair of every arc into an
//! unlabelled node, does not search where a pair's capacities are equal: the pair's residual
//! is then `2 cap - res` ([`Rows::residual_back`]; searching there makes Kronecker 20's rows of
//! up to 10^5 arcs 1.9x slower). A built network keeps its array of pairs.
//!
//! Antiparallel input arcs share one pair: a symmetric graph (a road network) has two network
//! arcs per edge, not four, which halves what a discharge and a global relabel scan (Galois'
//! preflowpush adds a reverse arc only where the input lacks one). The flow on an input arc is
//! recovered from its pair's net flow ([`Network::input_flows`]).

use super::word::Word;
use ordo_graph::Graph;
use std::borrow::Cow;
use std::sync::atomic::Ordering::Relaxed;

pub struct Network<'g> {
    offsets: Cow<'g, [u64]>,
    pub head: Cow<'g, [u32]>,
    /// Whether every pair's two arcs have equal capacities ([`Rows::residual_back`]).
    symmetric: bool,
    /// Each arc's pair, for a built network (its own arrays already double the input's; a
    /// directed graph's capacities are not symmetric, and the searches would make `ordo pfp`
    /// on Slashdot 1.37x slower); `None` where the input is the network (module docs).
    pairs: Option<Vec<u32>>,
    /// Capacity: the sum of the input arcs' weights in this direction (0 where none).
    pub cap: Capacities<'g>,
    /// Whether the network was built ([`Network::build`]); else it is the input graph, and
    /// each input arc is the arc of the same index. A built network finds its input arcs'
    /// arcs by walking the rows again ([`map_input_arcs`]) instead of storing them (4 bytes
    /// an input arc; with the flows written in place, [`Network::input_flows`], Slashdot's
    /// peak is 31.6 MiB against 36.8).
    built: bool,
}

/// The arcs' capacities: the input's weights where the network is the input graph, else
/// sums of them.
pub enum Capacities<'g> {
    /// The input's weights (`None`: 1 each).
    Weights(Option<&'g [u32]>),
    /// Sums of the input's weights, where each fits 32 bits.
    Summed(Vec<u32>),
    /// Sums of the input's weights, where one does not.
    SummedWide(Vec<u64>),
}

impl Capacities<'_> {
    #[inline]
    pub fn get(&self, a: usize) -> u64 {
        match self {
            Capacities::Weights(Some(w)) => w[a] as u64,
            Capacities::Weights(None) => 1,
            Capacities::Summed(c) => c[a] as u64,
            Capacities::SummedWide(c) => c[a],
        }
    }
}

/// Each arc's capacity: the sum of the weights (1 where unweighted) of the input arcs of `g`
/// that [`map_input_arcs`] maps to it in the rows `offsets`, `head`; 32-bit sums unless one
/// passes `u32::MAX`.
fn summed_capacities<'g>(g: &Graph, offsets: &[u64], head: &[u32]) -> Capacities<'g> {
    let weight = |i: usize| g.weights().map_or(1, |w| w[i]);
    let mut sums = vec![0u32; head.len()];
    let mut fits = true;
    map_input_arcs(g, offsets, head, |i, a| {
        if let Some(a) = a {
            match sums[a].checked_add(weight(i)) {
                Some(s) => sums[a] = s,
                None => fits = false,
            }
        }
    });
    if fits {
        return Capacities::Summed(sums);
    }
    drop(sums);
    let mut wide = vec![0u64; head.len()];
    map_input_arcs(g, offsets, head, |i, a| {
        if let Some(a) = a {
            wide[a] += u64::from(weight(i));
        }
    });
    Capacities::SummedWide(wide)
}

/// Calls `f(i, a)` for every input arc `i` of `g` (CSR order) with the arc `a` between its
/// ends in the built rows `offsets`, `head` (`None` for a self-loop). An input row that is
/// sorted (the usual case) is matched by walking the network's row once beside it, else by
/// a search in it (the row is in cache either way).
fn map_input_arcs(
    g: &Graph,
    offsets: &[u64],
    head: &[u32],
    mut f: impl FnMut(usize, Option<usize>),
) {
    let mut i = 0;
    for u in 0..g.num_nodes() {
        let row = offsets[u] as usize..offsets[u + 1] as usize;
        let mut at = row.start;
        for &v in g.neighbors(u as u32) {
            if v as usize == u {
                f(i, None);
                i += 1;
                continue;
            }
            if at < row.end && head[at] <= v {
                // `v` is in the row, at or after `at`.
                while head[at] < v {
                    at += 1;
                }
            } else {
                let found = head[row.clone()].binary_search(&v);
                at = row.start + found.expect("an input arc's pair");
            }
            f(i, Some(at));
            i += 1;
        }
    }
}

/// Calls `f(a, pair)` for every arc `a` of the CSR rows (each sorted by target) in order,
/// with the index of its reverse; false if some arc has none.
///
/// One cursor per row and no searches: visiting the arcs by source in increasing order asks
/// each row `v` for its sources `u` in increasing order, which is the row's own order, so the
/// reverse of the next arc into `v` is always at `v`'s cursor. (A search per arc would go
/// through a hub's row for each of its arcs: seconds on a directed Kronecker 20.)
fn walk_pairs(offsets: &[u64], head: &[u32], mut f: impl FnMut(usize, usize)) -> bool {
    let n = offsets.len() - 1;
    let mut cursor: Vec<u64> = offsets[..n].to_vec();
    let mut a = 0;
    for u in 0..n {
        for &v in &head[offsets[u] as usize..offsets[u + 1] as usize] {
            let (v, at) = (v as usize, cursor[v as usize]);
            if at >= offsets[v + 1] || head[at as usize] as usize != u {
                return false;
            }
            cursor[v] = at + 1;
            f(a, at as usize);
            a += 1;
        }
    }
    true
}

/// A network's rows as plain slices, for loops that take them once (a network's arrays may
/// be borrowed or owned, and the `Cow`'s deref would test which on every arc).
#[derive(Clone, Copy)]
pub(super) struct Rows<'a> {
    offsets: &'a [u64],
    pub head: &'a [u32],
    cap: &'a Capacities<'a>,
    symmetric: bool,
    pairs: Option<&'a [u32]>,
}

impl Rows<'_> {
    #[inline]
    pub fn arcs(&self, u: u32) -> std::ops::Range<usize> {
        self.offsets[u as usize] as usize..self.offsets[u as usize + 1] as usize
    }

    /// The arc v -> u: the pair of arc `a`, u -> v (module docs): stored for a built network,
    /// else a binary search of v's sorted row, which holds u.
    #[inline(always)]
    pub(super) fn reverse(&self, a: usize, u: u32, v: u32) -> usize {
        if let Some(pairs) = self.pairs {
            return pairs[a] as usize;
        }
        let row = self.arcs(v);
        let at = row.start + self.head[row.clone()].partition_point(|&x| x < u);
        debug_assert_eq!(self.head.get(at), Some(&u), "the pair of {u} -> {v}");
        at
    }

    /// The residual capacity of x -> y, the pair of arc `a` (y -> x), while no push runs (a
    /// global relabel). Where the pairs' capacities are equal (road maps, unit capacities,
    /// symmetrized graphs) it is `2 cap(a) - res(a)`: a push moves capacity from one arc of a
    /// pair to the other, so their residuals keep summing to their capacities. That reads
    /// `a`'s capacity beside its residual, in the row's order, instead of searching x's row and
    /// reading a residual there: a global relabel on Kronecker 20 (1 thread) takes twice as
    /// long with the search as with the pairing array, and as long with this.
    #[inline(always)]
    pub(super) fn residual_back<W: Word>(&self, res: &[W], y: u32, a: usize, x: u32) -> u64 {
        if self.symmetric {
            2 * self.cap.get(a) - res[a].read(Relaxed)
        } else {
            res[self.reverse(a, y, x)].read(Relaxed)
        }
    }
}

/// A graph's network made once for many runs (the application's preparation: every
/// `--repeat` and the oracle's Dinic use it) where it is built (on a directed Kronecker 20,
/// 16.7M arcs, about 2 s, which each run and the check would otherwise repeat). A graph that
/// is its own network keeps only what the check found: keeping the pairing array (when there
/// is one) makes small road graphs' runs 1.2-1.27x slower at 1 thread.
pub enum Prebuilt {
    /// The graph is its network; `symmetric` as [`Network`]'s.
    Paired {
        symmetric: bool,
    },
    Built(Network<'static>),
}

impl Prebuilt {
    /// Panics as [`Network::new`] does.
    pub fn new(g: &Graph) -> Self {
        Network::check_size(g);
        match Network::of_paired_graph(g) {
            Some(net) => Prebuilt::Paired {
                symmetric: net.symmetric,
            },
            None => Prebuilt::Built(Network::build(g)),
        }
    }

    /// Calls `f` with the network of `g`, the graph this was made from.
    pub fn with<R>(&self, g: &Graph, f: impl FnOnce(&Network<'_>) -> R) -> R {
        match self {
            Prebuilt::Paired { symmetric } => f(&Network::paired(g, *symmetric)),
            Prebuilt::Built(net) => f(net),
        }
    }
}

impl<'g> Network<'g> {
    /// The most input arcs a network is built from: each makes at most two arcs here, whose
    /// indices must fit in `u32`.
    pub const MAX_INPUT_ARCS: usize = (u32::MAX / 2) as usize;

    /// Capacities are the edge weights (1 on unweighted graphs). Panics on a graph of more
    /// than [`Network::MAX_INPUT_ARCS`] arcs (`pfp::run` and the application check first).
    ///
    /// A graph that already is such a network (every row sorted, no repeats or self-loops,
    /// every arc's reverse present: road networks, symmetrized graphs) is used as it is, its
    /// arrays borrowed, and only checked (the general build below holds both ends of every
    /// arc while it sorts the rows, and maps input arcs to its own). `ordo pfp --no-verify`
    /// peaks at 70.3 MiB on a 1000x1000 grid (1.88x its file) and 390 MiB on Kronecker 20
    /// (1.57x).
    pub fn new(g: &'g Graph) -> Self {
        Self::check_size(g);
        Self::of_paired_graph(g).unwrap_or_else(|| Self::build(g))
    }

    /// Panics past [`Network::MAX_INPUT_ARCS`].
    fn check_size(g: &Graph) {
        assert!(
            g.num_edges() <= Self::MAX_INPUT_ARCS,
            "a flow network of at most 2^31 arcs"
        );
    }

    /// `g` itself as the network, if it already is one (see [`Network::new`]).
    ///
    /// Found by the fingerprint passes of [`Graph::pairing`] (paired, and whether the
    /// capacities are equal both ways): sequential, and on the machine's cores. They
    /// report a graph that is not paired as paired with probability below `m / 2^61`; a
    /// search for a missing pair then finds another arc of the row or the next (bounds
    /// checked), and the verifier (conservation, capacities, the cut) would fail. The exact
    /// walk ([`walk_pairs`]) reads a cursor at a random place per arc: 0.87 s for Kronecker
    /// 20's 31M arcs, 13x the 68 ms of the run it prepares at 2 threads.
    fn of_paired_graph(g: &'g Graph) -> Option<Self> {
        let symmetric = g.pairing(ordo_graph::prep_threads())?;
        Some(Self::paired(g, symmetric))
    }

    /// `g` as its own network, which it is (`symmetric`: every pair's capacities equal).
    fn paired(g: &'g Graph, symmetric: bool) -> Self {
        Network {
            offsets: Cow::Borrowed(g.offsets()),
            head: Cow::Borrowed(g.targets()),
            symmetric,
            pairs: None,
            cap: Capacities::Weights(g.weights()),
            built: false,
        }
    }

    /// The network of any graph: every input arc u -> v puts v in u's row and u in v's row,
    /// each row sorted without repeats (the undirected view's rows,
    /// [`ordo_graph::undirected_adjacency`]), so every arc has its pair. The capacities are
    /// summed afterwards, through each input arc's arc here.
    ///
    /// Memory: the rows at their unmerged size (4 bytes per end of each input arc), then the
    /// pairing and the capacities (4 bytes each per arc, 8 where a sum of parallel arcs
    /// passes `u32`; the input arcs' map is walked again where it is needed,
    /// [`map_input_arcs`]).
    fn build(g: &Graph) -> Network<'static> {
        // The rows: the graph's undirected simple view, without its weights.
        let (offsets, head, _) = ordo_graph::undirected_adjacency(g, false);
        // Every input arc put each end in the other's row, so the rows are symmetric.
        let cap = summed_capacities(g, &offsets, &head);
        let (mut symmetric, mut pairs) = (true, Vec::with_capacity(head.len()));
        let paired = walk_pairs(&offsets, &head, |a, pair| {
            symmetric &= cap.get(a) == cap.get(pair);
            pairs.push(pair as u32);
        });
        // Every input arc put each end in the other's row.
        assert!(paired, "a network's rows are paired");
        Network {
            offsets: Cow::Owned(offsets),
            head: Cow::Owned(head),
            symmetric,
            pairs: Some(pairs),
            cap,
            built: true,
        }
    }

    /// Every arc's capacity, in arc order.
    pub fn capacities(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.head.len()).map(|a| self.cap.get(a))
    }

    /// Calls `f(i, a)` for every input arc `i` of `g`, the graph this network was made from
    /// (CSR order), with its arc here (`None` for a self-loop).
    pub fn for_each_input_arc(&self, g: &Graph, mut f: impl FnMut(usize, Option<usize>)) {
        match self.built {
            true => map_input_arcs(g, &self.offsets, &self.head, f),
            false => (0..g.num_edges()).for_each(|i| f(i, Some(i))),
        }
    }

    /// The first arc of `v`'s row (`v` up to the node count: the end of the last row).
    #[inline]
    pub fn row_start(&self, v: usize) -> usize {
        self.offsets[v] as usize
    }

    /// The largest capacity of an arc (0 without arcs).
    pub fn max_capacity(&self) -> u64 {
        match &self.cap {
            Capacities::Weights(Some(w)) => w.iter().copied().max().map_or(0, u64::from),
            Capacities::Weights(None) => u64::from(!self.head.is_empty()),
            Capacities::Summed(c) => c.iter().copied().max().map_or(0, u64::from),
            Capacities::SummedWide(c) => c.iter().copied().max().unwrap_or(0),
        }
    }

    /// Whether 32-bit words hold every residual and excess of a maximum flow from `s`: no
    /// capacity above `2^31 - 1`, and the source's arcs carry at most `2^32 - 1` (word.rs).
    pub(super) fn fits_in_32_bits(&self, s: u32) -> bool {
        let from_source: u64 = self.arcs(s).map(|a| self.cap.get(a)).sum();
        self.max_capacity() <= u64::from(u32::MAX / 2) && from_source <= u64::from(u32::MAX)
    }

    /// The flow on every input arc (CSR order) of `g`, the graph this network was built from,
    /// given the residual capacities. A pair's net flow `cap(u -> v) - res(u -> v)` goes to the
    /// input arcs u -> v when positive (filling them in order, each to its weight), else to the
    /// arcs v -> u: conservation holds as in the network, and no arc exceeds its weight, as
    /// the net flow is at most the capacity in its direction. (So every flow fits the
    /// weights' 32 bits.)
    ///
    /// The residuals' vector becomes the flows' (no second array as long as the arcs: on a
    /// 1000x1000 grid it would be a quarter of the peak): where the network is its input,
    /// each arc's left-over is its input arc's flow; for a built network, where no input arc
    /// maps to an arc before its own index (input rows without self-loops, whose network rows
    /// hold them and maybe more), input arc `i`'s flow goes to slot `i` once its arc's slot,
    /// at or after `i`, has been read, so no slot is overwritten before its last read. Else
    /// (self-loops) a vector of its own.
    /// Where words are 64 bits the conversion makes a `u32` copy either way.
    pub(super) fn input_flows<W: Word>(&self, g: &Graph, res: Vec<W>) -> Vec<u32> {
        // What is left to hand out along each network arc with a positive net flow, in the
        // residuals' words: at most the arc's capacity, which fits them.
        for (r, c) in res.iter().zip(self.capacities()) {
            r.write(c.saturating_sub(r.read(Relaxed)), Relaxed);
        }
        let mut left = res;
        if !self.built {
            // Each arc is its input arc, with the input's weight as capacity: all of it.
            return W::into_u32s(left);
        }
        let weight = |i: usize| g.weights().map_or(1, |w| w[i]);
        // Takes input arc `i`'s share of what is left on its arc `a`.
        let take = |left: &[W], i: usize, a: Option<usize>| match a {
            None => 0, // a self-loop
            Some(a) => {
                let f = left[a].read(Relaxed).min(u64::from(weight(i)));
                left[a].sub(f, Relaxed);
                f
            }
        };
        let inputs = g.num_edges();
        let mut in_place = inputs <= left.len();
        if in_place {
            self.for_each_input_arc(g, |i, a| in_place &= a.is_some_and(|a| a >= i));
        }
        if !in_place {
            let mut flows = Vec::with_capacity(inputs);
            self.for_each_input_arc(g, |i, a| flows.push(take(&left, i, a) as u32));
            return flows;
        }
        self.for_each_input_arc(g, |i, a| {
            // Slot `a >= i` is read before slot `i` is written; later arcs read slots after `i`.
            let f = take(&left, i, a);
            left[i].write(f, Relaxed);
        });
        left.truncate(inputs);
        W::into_u32s(left)
    }

    pub fn num_nodes(&self) -> usize {
        self.offsets.len() - 1
    }

    #[inline]
    pub fn arcs(&self, u: u32) -> std::ops::Range<usize> {
        self.rows().arcs(u)
    }

    /// The rows as plain slices ([`Rows`]).
    #[inline]
    pub(super) fn rows(&self) -> Rows<'_> {
        Rows {
            offsets: &self.offsets,
            head: &self.head,
            cap: &self.cap,
            symmetric: self.symmetric,
            pairs: self.pairs.as_deref(),
        }
    }

    /// The arc v -> u, the pair of arc `a`, u -> v ([`Rows::reverse`]).
    #[inline]
    pub(super) fn reverse(&self, a: usize, u: u32, v: u32) -> usize {
        self.rows().reverse(a, u, v)
    }

    #[cfg(test)]
    /// Hop distances to `root` along residual arcs (`res(a) > 0`), `u32::MAX` where none.
    pub fn distances_to(&self, root: u32, res: impl Fn(usize) -> u64) -> Vec<u32> {
        let mut dist = vec![u32::MAX; self.num_nodes()];
        dist[root as usize] = 0;
        let mut queue = std::collections::VecDeque::from([root]);
        while let Some(y) = queue.pop_front() {
            for a in self.arcs(y) {
                // x -> y is residual when the pair of y's arc a (y -> x) has capacity left.
                let x = self.head[a];
                if dist[x as usize] == u32::MAX && res(self.reverse(a, y, x)) > 0 {
                    dist[x as usize] = dist[y as usize] + 1;
                    queue.push_back(x);
                }
            }
        }
        dist
    }

    #[cfg(test)]
    /// Exact labels from the residual graph (the global relabelling heuristic): the distance
    /// to the sink, else n + the distance to the source, else 2n; the source keeps n.
    pub fn exact_heights(&self, s: u32, t: u32, res: impl Fn(usize) -> u64 + Copy) -> Vec<u32> {
        let n = self.num_nodes() as u32;
        let to_sink = self.distances_to(t, res);
        let to_source = self.distances_to(s, res);
        let mut h: Vec<u32> = (0..n as usize)
            .map(|v| match (to_sink[v], to_source[v]) {
                (d, _) if d != u32::MAX => d,
                (_, d) if d != u32::MAX => n + d,
                _ => 2 * n,
            })
            .collect();
        h[s as usize] = n;
        h
    }

    /// The nodes that cannot reach the sink `t` along residual arcs: the source side of a
    /// minimum cut once the preflow is maximum (no node holding excess reaches the sink then,
    /// so the arcs into the other side are saturated and the arcs out of it carry nothing).
    /// For a preflow, the nodes the source reaches would not do: a node holding excess need
    /// not be one of them.
    pub(super) fn source_side<W: Word>(&self, t: u32, res: &[W]) -> Vec<bool> {
        let rows = self.rows();
        let mut reaches_sink = vec![false; self.num_nodes()];
        reaches_sink[t as usize] = true;
        let mut stack = vec![t];
        while let Some(y) = stack.pop() {
            for a in rows.arcs(y) {
                // x -> y is residual when the pair of y's arc a (y -> x) has capacity left.
                let x = rows.head[a];
                if !reaches_sink[x as usize] && rows.residual_back(res, y, a, x) > 0 {
                    reaches_sink[x as usize] = true;
                    stack.push(x);
                }
            }
        }
        // In place: the vector becomes the answer.
        reaches_sink.into_iter().map(|r| !r).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ordo_graph::{gen, BuildOptions};

    #[test]
    fn a_paired_graph_is_its_own_network_as_the_general_build_makes_it() {
        let grid = gen::road_grid(7, 9, 1, &BuildOptions::default()).unwrap();
        let (own, built) = (Network::new(&grid), Network::build(&grid));
        assert!(!own.built && built.built);
        assert_eq!(own.head, built.head);
        for a in 0..own.head.len() {
            assert_eq!(own.cap.get(a), built.cap.get(a));
        }
        let arcs = |net: &Network| {
            let mut arcs = Vec::new();
            net.for_each_input_arc(&grid, |_, a| arcs.push(a));
            arcs
        };
        assert_eq!(arcs(&own), arcs(&built));
        let res = |a: usize| own.cap.get(a) / 2;
        let residuals = |net: &Network| {
            (0..net.head.len())
                .map(|a| std::sync::atomic::AtomicU64::new(res(a)))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            own.input_flows(&grid, residuals(&own)),
            built.input_flows(&grid, residuals(&built))
        );
        // An arc without its reverse: the general build.
        let one_way = crate::test_graphs::weighted(3, &[(0, 1, 4), (1, 2, 4), (2, 1, 4)]);
        assert!(Network::of_paired_graph(&one_way).is_none());
        assert!(Network::new(&one_way).built);
    }

    /// The general build's invariants: rows sorted and simple, every arc paired with its
    /// reverse, each input arc mapped to the arc between its ends, capacities the sums.
    fn check_build(g: &Graph) -> Network<'_> {
        let net = Network::build(g);
        let n = g.num_nodes();
        let owner =
            |a: usize| (0..n).find(|&u| (net.row_start(u)..net.row_start(u + 1)).contains(&a));
        for u in 0..n {
            let row = &net.head[net.row_start(u)..net.row_start(u + 1)];
            assert!(row.windows(2).all(|w| w[0] < w[1]) && !row.contains(&(u as u32)));
        }
        let mut sums = vec![0u64; net.head.len()];
        let mut arcs = Vec::new();
        net.for_each_input_arc(g, |i, a| arcs.push((i, a)));
        assert_eq!(arcs.len(), g.num_edges());
        let inputs = (0..n as u32).flat_map(|u| g.out_edges(u).map(move |(v, w)| (u, v, w)));
        for (index, ((u, v, w), (i, a))) in inputs.zip(arcs).enumerate() {
            assert_eq!(i, index);
            match a {
                None => assert_eq!(u, v),
                Some(a) => {
                    assert_eq!((owner(a), net.head[a]), (Some(u as usize), v));
                    sums[a] += u64::from(w);
                }
            }
        }
        for (a, &sum) in sums.iter().enumerate() {
            let u = owner(a).expect("every arc is in a row") as u32;
            let r = net.reverse(a, u, net.head[a]);
            assert_eq!((owner(r), net.head[r]), (Some(net.head[a] as usize), u));
            assert_eq!(net.reverse(r, net.head[a], u), a);
            // The stored pair is the one a search finds.
            let searched = Rows {
                pairs: None,
                ..net.rows()
            };
            assert_eq!(searched.reverse(a, u, net.head[a]), r);
            assert_eq!(net.cap.get(a), sum);
        }
        net
    }

    #[test]
    fn the_general_build_merges_repeats_and_drops_loops() {
        let arcs = [
            (0, 1, 4),
            (1, 0, 2),
            (0, 1, 5),
            (2, 2, 9),
            (3, 0, 1),
            (2, 3, 7),
            (0, 3, 3),
        ];
        let g = crate::test_graphs::weighted(5, &arcs);
        let net = check_build(&g);
        assert!(matches!(net.cap, Capacities::Summed(_)));
        assert_eq!(net.head.len(), 6); // {0,1}, {0,3}, {2,3}, each way; node 4 alone
        let random = gen::uniform_random(300, 2000, 3, &BuildOptions::default()).unwrap();
        check_build(&random);
        // Rows out of order (a file need not sort them): node 0's arcs to 3, 1, 3, 2.
        let unsorted = Graph::from_csr(
            ordo_graph::Buf::from_vec(vec![0, 4, 5, 5, 5]),
            ordo_graph::Buf::from_vec(vec![3, 1, 3, 2, 0]),
            Some(ordo_graph::Buf::from_vec(vec![1, 2, 3, 4, 5])),
            ordo_graph::IdBase::Zero,
        )
        .unwrap();
        check_build(&unsorted);
    }

    #[test]
    fn capacities_past_32_bits_are_summed_wide() {
        let max = u32::MAX;
        let g = crate::test_graphs::weighted(3, &[(0, 1, max), (0, 1, max), (1, 2, 1)]);
        let net = check_build(&g);
        assert!(matches!(net.cap, Capacities::SummedWide(_)));
        assert_eq!(net.max_capacity(), 2 * u64::from(max));
    }
}
