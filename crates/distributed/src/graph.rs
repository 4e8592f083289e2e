//! One rank's part of a partitioned graph: a CSR over the nodes it owns, whose targets are
//! global ids, and the redistributions between layouts (input flags and layout, the
//! undirected view, gather).

use crate::net::{DistResult, Net};
use crate::partition::Partition;
use ordo_graph::{
    endpoint_sums, lists_sorted_simple, part_fingerprint, parts_are_symmetric, Buf, BuildOptions,
    Graph, IdBase, ReversePoint, WeightSpec,
};

pub struct LocalGraph {
    pub part: Partition,
    pub rank: usize,
    /// Global arc count.
    pub m: u64,
    /// Local CSR: `offsets[l]..offsets[l + 1]` are local node l's arcs.
    pub offsets: Vec<u64>,
    /// Global target ids.
    pub targets: Vec<u32>,
    pub weights: Option<Vec<u32>>,
    /// How the input file numbered its nodes (for `--source` and output ids).
    pub id_base: IdBase,
    /// Where the graph came from: a format name or `generated`.
    pub origin: String,
}

/// How [`LocalGraph::undirected_simple`] made the view (reported as `undirected_view`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndirectedView {
    /// The graph already was one.
    AsRead,
    /// A symmetric graph's lists sorted and cleared of repeats and self-loops in place.
    ListsCleaned,
    /// Built from every arc both ways.
    Rebuilt,
}

impl UndirectedView {
    pub fn name(self) -> &'static str {
        match self {
            UndirectedView::AsRead => "as read",
            UndirectedView::ListsCleaned => "lists cleaned",
            UndirectedView::Rebuilt => "rebuilt",
        }
    }
}

/// Arcs being moved to their owners: (source, target, weight) triples, flattened so MPI sends
/// them as plain u32s.
#[derive(Default)]
pub struct ArcsTo {
    pub per_rank: Vec<Vec<u32>>,
}

impl ArcsTo {
    pub fn new(ranks: usize) -> ArcsTo {
        ArcsTo {
            per_rank: vec![Vec::new(); ranks],
        }
    }

    #[inline]
    pub fn push(&mut self, rank: usize, u: u32, v: u32, w: u32) {
        self.per_rank[rank].extend_from_slice(&[u, v, w]);
    }
}

/// A local CSR: offsets, global targets, weights.
pub type Csr = (Vec<u64>, Vec<u32>, Option<Vec<u32>>);

/// How [`LocalGraph::from_arcs`] treats repeated arcs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Arcs {
    /// Keep every arc (a change of layout must not change the graph).
    Keep,
    /// One arc per (u, v), the lightest (`--merge-parallel`).
    Merge,
    /// One arc per (u, v), the lightest, and no self-loops: a simple graph.
    Simple,
}

impl LocalGraph {
    /// This rank's part: `csr` over the nodes `part` gives it; `m` is the global arc count.
    pub fn new(
        net: &Net,
        part: Partition,
        m: u64,
        csr: Csr,
        id_base: IdBase,
        origin: &str,
    ) -> Self {
        let (offsets, targets, weights) = csr;
        LocalGraph {
            part,
            rank: net.rank,
            m,
            offsets,
            targets,
            weights,
            id_base,
            origin: origin.to_string(),
        }
    }

    pub fn num_nodes(&self) -> u32 {
        self.part.num_nodes()
    }

    /// Nodes this rank owns.
    pub fn local_nodes(&self) -> u32 {
        (self.offsets.len() - 1) as u32
    }

    #[inline]
    pub fn arcs(&self, l: u32) -> std::ops::Range<usize> {
        self.offsets[l as usize] as usize..self.offsets[l as usize + 1] as usize
    }

    /// The out-degree of owned node `l`.
    #[inline]
    pub fn degree(&self, l: u32) -> u64 {
        let o = &self.offsets[l as usize..l as usize + 2];
        o[1] - o[0]
    }

    #[inline]
    pub fn neighbors(&self, l: u32) -> &[u32] {
        &self.targets[self.arcs(l)]
    }

    #[inline]
    pub fn global(&self, l: u32) -> u32 {
        self.part.global(self.rank, l)
    }

    /// This part's figures for the delta rule (`ordo_algos::delta`); the job's are their
    /// sums and maximum over the ranks.
    pub fn delta_inputs(&self) -> ordo_algos::delta::DeltaInputs {
        ordo_algos::delta::DeltaInputs::from_csr(&self.offsets, self.weights.as_deref())
    }

    pub fn max_weight(&self) -> u32 {
        self.weights
            .as_ref()
            .and_then(|w| w.iter().copied().max())
            .unwrap_or(1)
    }

    /// Sends every arc to its owner under `part` and builds the local CSR there. Every rank
    /// calls this together.
    pub fn from_arcs(
        net: &Net,
        part: Partition,
        arcs: ArcsTo,
        weighted: bool,
        mode: Arcs,
    ) -> DistResult<Csr> {
        let (flat, _) = net.exchange(&arcs.per_rank)?;
        drop(arcs);
        let count = part.count(net.rank) as usize;
        let mut triples: Vec<(u32, u32, u32)> = flat
            .chunks_exact(3)
            .map(|c| (part.local(c[0]), c[1], c[2]))
            .collect();
        drop(flat);
        triples.sort_unstable();
        if mode == Arcs::Simple {
            triples.retain(|&(l, v, _)| part.global(net.rank, l) != v);
        }
        if mode != Arcs::Keep {
            // Sorted by (u, v, w): the first of each (u, v) run is the lightest.
            triples.dedup_by_key(|t| (t.0, t.1));
        }
        let mut offsets = vec![0u64; count + 1];
        for &(l, _, _) in &triples {
            offsets[l as usize + 1] += 1;
        }
        for i in 0..count {
            offsets[i + 1] += offsets[i];
        }
        let targets = triples.iter().map(|t| t.1).collect();
        let weights = weighted.then(|| triples.iter().map(|t| t.2).collect());
        Ok((offsets, targets, weights))
    }

    /// The graph with the input flags applied (`--weights`, `--symmetrize`,
    /// `--drop-self-loops`, `--merge-parallel`), laid out by `part`, arc for arc as
    /// [`ordo_graph::EdgeList::build`] applies them on one machine: weights are a function
    /// of the arc, every arc goes to its source's owner under `part`, and every adjacency ends
    /// sorted by (target, weight). With default options it only changes the layout.
    pub fn rebuild(
        &self,
        net: &Net,
        opts: &BuildOptions,
        part: Partition,
    ) -> DistResult<LocalGraph> {
        let mut out = ArcsTo::new(net.size);
        for l in 0..self.local_nodes() {
            let u = self.global(l);
            for i in self.arcs(l) {
                let v = self.targets[i];
                if opts.drop_self_loops && u == v {
                    continue;
                }
                let w = opts.divided(match opts.weights {
                    Some(spec) => spec.weight(u, v),
                    None => self.weights.as_ref().map_or(1, |w| w[i]),
                });
                out.push(part.owner(u), u, v, w);
                if opts.symmetrize && u != v {
                    out.push(part.owner(v), v, u, w);
                }
            }
        }
        let weighted = self.weights.is_some() || opts.weights.is_some();
        let mode = if opts.merge_parallel {
            Arcs::Merge
        } else {
            Arcs::Keep
        };
        self.regroup(net, part, out, weighted, mode)
    }

    /// Gives every arc a `spec` weight in place, as [`ordo_graph::Graph::assign_weights`]
    /// does: a weight is a function of the arc, so no arc moves.
    pub fn assign_weights(&mut self, spec: WeightSpec) {
        let mut weights = Vec::with_capacity(self.targets.len());
        for l in 0..self.local_nodes() {
            let u = self.global(l);
            weights.extend(self.neighbors(l).iter().map(|&v| spec.weight(u, v)));
        }
        self.weights = Some(weights);
    }

    /// Whether the whole graph's arcs come in reverse pairs, so that its out-lists are its
    /// in-lists: [`ordo_graph::Graph::is_symmetric`]'s test across the ranks (a collective).
    /// First the arcs' endpoint sums (one sum over the ranks), which turn most directed graphs
    /// away; then every rank's fingerprint at a point rank 0 draws (two all-gathers). Three
    /// multiplications modulo a prime per arc, no allocation.
    pub fn is_symmetric(&self, net: &Net) -> bool {
        let global = |l: usize| self.global(l as u32) as u64;
        // MPI's sum of u64s wraps as the sums do.
        let sums = net.sum_u64s(endpoint_sums(&self.offsets, &self.targets, global));
        if sums[0] != sums[2] || sums[1] != sums[3] {
            return false;
        }
        // Every rank draws; all take rank 0's point.
        let drawn = net.all_gather_u64s(&ReversePoint::random().to_words());
        let at = ReversePoint::from_words([drawn[0], drawn[1], drawn[2]]);
        let mine = part_fingerprint(&self.offsets, &self.targets, None, global, at);
        let all = net.all_gather_u64s(&mine);
        parts_are_symmetric(all.chunks_exact(2).map(|p| [p[0], p[1]]))
    }

    /// Whether this rank's lists are strictly increasing and without their own node, as the
    /// undirected simple view's are.
    fn lists_sorted_simple(&self) -> bool {
        lists_sorted_simple(&self.offsets, &self.targets, |l| self.global(l as u32))
    }

    /// The undirected simple graph (every arc both ways, no self-loops, no repeats, no
    /// weights), as [`ordo_graph::undirected_simple`] makes it on one machine (a collective).
    /// A symmetric graph ([`is_symmetric`](Self::is_symmetric)) holds every arc's reverse
    /// already, at its owner: it is returned as it is, less its weights, when its lists are
    /// sorted and simple too, and otherwise each list is sorted and cleared of repeats and
    /// self-loops in the graph's own arrays (no memory more). Any other graph's arcs, both
    /// ways, become one 8-byte key each (owner's local source, global target) at the source's
    /// owner (one exchange; none on one rank), and the sorted keys, repeats dropped, are the
    /// CSR: 16 bytes an arc at the peak.
    pub fn undirected_simple(self, net: &Net) -> DistResult<(LocalGraph, UndirectedView)> {
        if self.is_symmetric(net) {
            let simple = net.min_u64(u64::from(self.lists_sorted_simple())) == 1;
            return Ok(match simple {
                true => (
                    LocalGraph {
                        weights: None,
                        ..self
                    },
                    UndirectedView::AsRead,
                ),
                false => (self.simplified_lists(net), UndirectedView::ListsCleaned),
            });
        }
        let part = &self.part;
        let key = |local: u32, v: u32| (local as u64) << 32 | v as u64;
        let mut keys: Vec<u64> = if net.size == 1 {
            let mut keys = Vec::with_capacity(2 * self.targets.len());
            for l in 0..self.local_nodes() {
                let u = self.global(l);
                for &v in self.neighbors(l) {
                    if u != v {
                        keys.push(key(l, v));
                        keys.push(key(part.local(v), u));
                    }
                }
            }
            keys
        } else {
            let mut out = vec![Vec::<u32>::new(); net.size];
            for l in 0..self.local_nodes() {
                let u = self.global(l);
                for &v in self.neighbors(l) {
                    if u != v {
                        out[net.rank].extend_from_slice(&[u, v]);
                        out[part.owner(v)].extend_from_slice(&[v, u]);
                    }
                }
            }
            let (flat, _) = net.exchange(&out)?;
            drop(out);
            flat.chunks_exact(2)
                .map(|p| key(part.local(p[0]), p[1]))
                .collect()
        };
        keys.sort_unstable();
        keys.dedup();
        let count = part.count(net.rank) as usize;
        let mut offsets = vec![0u64; count + 1];
        for &k in &keys {
            offsets[(k >> 32) as usize + 1] += 1;
        }
        for i in 0..count {
            offsets[i + 1] += offsets[i];
        }
        let targets: Vec<u32> = keys.iter().map(|&k| k as u32).collect();
        drop(keys);
        let m = net.sum_u64(targets.len() as u64);
        let view = LocalGraph::new(
            net,
            part.clone(),
            m,
            (offsets, targets, None),
            self.id_base,
            &self.origin,
        );
        Ok((view, UndirectedView::Rebuilt))
    }

    /// Every list sorted, without repeats or self-loops, no weights: the undirected simple
    /// view of a symmetric graph, made in the graph's own arrays (each list sorted where it
    /// is, then moved down over what it dropped). A collective: the arc count is summed.
    fn simplified_lists(mut self, net: &Net) -> LocalGraph {
        let mut kept = 0;
        let mut start = 0;
        for l in 0..self.local_nodes() {
            let u = self.global(l);
            let end = self.offsets[l as usize + 1] as usize;
            self.targets[start..end].sort_unstable();
            let mut last = None;
            for i in start..end {
                let v = self.targets[i];
                if v != u && last != Some(v) {
                    self.targets[kept] = v;
                    kept += 1;
                    last = Some(v);
                }
            }
            self.offsets[l as usize + 1] = kept as u64;
            start = end;
        }
        self.targets.truncate(kept);
        self.m = net.sum_u64(kept as u64);
        LocalGraph {
            weights: None,
            ..self
        }
    }

    /// The graph of the arcs `out` (sent to their owners under `part`), with this graph's ids
    /// and origin. Every rank calls this together.
    fn regroup(
        &self,
        net: &Net,
        part: Partition,
        out: ArcsTo,
        weighted: bool,
        mode: Arcs,
    ) -> DistResult<LocalGraph> {
        let csr = LocalGraph::from_arcs(net, part.clone(), out, weighted, mode)?;
        let m = net.sum_u64(csr.1.len() as u64);
        Ok(LocalGraph::new(
            net,
            part,
            m,
            csr,
            self.id_base,
            &self.origin,
        ))
    }

    /// The whole graph on rank 0 (for verification against the serial oracles); `None` on
    /// the other ranks. Needs the whole graph to fit on rank 0.
    pub fn gather(&self, net: &Net) -> DistResult<Option<Graph>> {
        let degrees: Vec<u64> = self.offsets.windows(2).map(|w| w[1] - w[0]).collect();
        let degrees = net.gather(&degrees)?;
        let targets = net.gather(&self.targets)?;
        let weights = match &self.weights {
            Some(w) => net.gather(w)?,
            None => None,
        };
        let (Some(degrees), Some(targets)) = (degrees, targets) else {
            return Ok(None);
        };
        // Pieces arrive in rank order; node ids follow the partition.
        let n = self.num_nodes() as usize;
        let mut deg = vec![0u64; n];
        let mut first = vec![0u64; n];
        let mut arc = 0u64;
        for (v, d) in self.part.global_order().zip(degrees) {
            deg[v as usize] = d;
            first[v as usize] = arc;
            arc += d;
        }
        let mut offsets = vec![0u64; n + 1];
        for v in 0..n {
            offsets[v + 1] = offsets[v] + deg[v];
        }
        let mut t = vec![0u32; targets.len()];
        let mut w = weights.as_ref().map(|_| vec![0u32; targets.len()]);
        for v in 0..n {
            let (src, dst) = (first[v] as usize, offsets[v] as usize);
            let len = deg[v] as usize;
            t[dst..dst + len].copy_from_slice(&targets[src..src + len]);
            if let (Some(w), Some(all)) = (w.as_mut(), weights.as_ref()) {
                w[dst..dst + len].copy_from_slice(&all[src..src + len]);
            }
        }
        let g = Graph::from_csr(
            Buf::from_vec(offsets),
            Buf::from_vec(t),
            w.map(Buf::from_vec),
            self.id_base,
        )
        .map_err(|e| crate::net::DistError::Failed(format!("gathered graph: {e}")))?;
        Ok(Some(g))
    }
}
