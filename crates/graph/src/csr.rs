//! The compressed-sparse-row graph every ordo algorithm runs on.

use crate::buf::Buf;
use crate::error::{GraphError, Result};

/// How the input file numbered its nodes: ordo is 0-based inside, files may be 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdBase {
    Zero,
    One,
}

impl IdBase {
    pub fn offset(self) -> u64 {
        match self {
            IdBase::Zero => 0,
            IdBase::One => 1,
        }
    }
}

/// Node coordinates (x, y), as given by the file (for DIMACS `.co`: longitude and latitude in
/// millionths of a degree).
#[derive(Debug, Clone)]
pub struct Coords {
    pub xy: Buf<f64>,
}

impl Coords {
    pub fn get(&self, v: u32) -> (f64, f64) {
        let i = v as usize * 2;
        (self.xy[i], self.xy[i + 1])
    }
}

/// The file's numbering of a graph whose nodes were renumbered (`Graph::shuffled`): node `v`
/// is the file's node of index `file_index[v]` (its id less the id base), and the file's
/// node of index `i` is node `node_of[i]`.
#[derive(Debug)]
pub struct Renumbering {
    pub(crate) file_index: Vec<u32>,
    node_of: Vec<u32>,
}

impl Renumbering {
    /// From each node's file index, a permutation of `0..n`.
    pub(crate) fn new(file_index: Vec<u32>) -> Renumbering {
        let mut node_of = vec![0u32; file_index.len()];
        for (v, &i) in file_index.iter().enumerate() {
            node_of[i as usize] = v as u32;
        }
        Renumbering {
            file_index,
            node_of,
        }
    }
}

/// The in-edges of every node (the transpose), built on request.
#[derive(Debug, Clone)]
pub struct Transpose {
    pub offsets: Buf<u64>,
    pub sources: Buf<u32>,
    pub weights: Option<Buf<u32>>,
}

/// A directed graph in CSR form: u32 node ids, u64 edge offsets, optional u32 edge weights.
///
/// Undirected graphs are stored with both arcs. Invariants (checked by every constructor):
/// `offsets.len() == n + 1`, `offsets[0] == 0`, offsets non-decreasing, `offsets[n] == m`,
/// every target `< n`, and `weights.len() == m` when present.
#[derive(Debug, Clone)]
pub struct Graph {
    offsets: Buf<u64>,
    targets: Buf<u32>,
    weights: Option<Buf<u32>>,
    coords: Option<Coords>,
    transpose: Option<Transpose>,
    id_base: IdBase,
    /// How the file numbers the nodes, when not in their order ([`Graph::shuffled`]).
    renumbering: Option<std::sync::Arc<Renumbering>>,
    /// [`weight_sum`](Graph::weight_sum), computed on first use (SSSP asks on every run).
    weight_sum: std::sync::OnceLock<u64>,
    /// [`is_symmetric`](Graph::is_symmetric), computed on first use: arcs never change after
    /// construction (weights may, and the answer ignores them).
    pub(crate) symmetric: std::sync::OnceLock<bool>,
}

impl Graph {
    /// Builds a graph from raw CSR arrays, checking every invariant.
    pub fn from_csr(
        offsets: Buf<u64>,
        targets: Buf<u32>,
        weights: Option<Buf<u32>>,
        id_base: IdBase,
    ) -> Result<Graph> {
        check_csr(&offsets, &targets, weights.as_deref())?;
        Ok(Graph {
            offsets,
            targets,
            weights,
            coords: None,
            transpose: None,
            id_base,
            renumbering: None,
            weight_sum: std::sync::OnceLock::new(),
            symmetric: std::sync::OnceLock::new(),
        })
    }

    #[inline]
    pub fn num_nodes(&self) -> usize {
        self.offsets.len() - 1
    }

    #[inline]
    pub fn num_edges(&self) -> usize {
        self.targets.len()
    }

    #[inline]
    pub fn offsets(&self) -> &[u64] {
        &self.offsets
    }

    #[inline]
    pub fn targets(&self) -> &[u32] {
        &self.targets
    }

    #[inline]
    pub fn weights(&self) -> Option<&[u32]> {
        self.weights.as_deref()
    }

    pub fn is_weighted(&self) -> bool {
        self.weights.is_some()
    }

    /// # Panics
    /// If `v` is not a node.
    #[inline]
    pub fn edge_range(&self, v: u32) -> std::ops::Range<usize> {
        let v = v as usize;
        let hi = self.offsets[v + 1];
        // SAFETY: `v < v + 1`, which indexed `offsets` above. One bounds check instead of two:
        // the traversals call this once per node they visit.
        let lo = unsafe { *self.offsets.get_unchecked(v) };
        lo as usize..hi as usize
    }

    #[inline]
    pub fn out_degree(&self, v: u32) -> usize {
        let r = self.edge_range(v);
        r.end - r.start
    }

    /// # Panics
    /// If `v` is not a node.
    #[inline]
    pub fn neighbors(&self, v: u32) -> &[u32] {
        let r = self.edge_range(v);
        // SAFETY: the CSR invariants, checked by every constructor and kept by every method
        // (none changes offsets or targets): offsets are non-decreasing and at most
        // `targets.len()`, so `r` lies within `targets`.
        unsafe { self.targets.get_unchecked(r) }
    }

    /// Out-edges of `v` as (target, weight); weight 1 on unweighted graphs.
    #[inline]
    pub fn out_edges(&self, v: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        let r = self.edge_range(v);
        let targets = &self.targets[r.clone()];
        let weights = self.weights.as_deref().map(|w| &w[r]);
        targets
            .iter()
            .enumerate()
            .map(move |(i, &t)| (t, weights.map_or(1, |w| w[i])))
    }

    pub fn coords(&self) -> Option<&Coords> {
        self.coords.as_ref()
    }

    pub fn set_coords(&mut self, xy: Vec<f64>) -> Result<()> {
        if xy.len() != 2 * self.num_nodes() {
            return Err(GraphError::Invalid(format!(
                "coordinates for {} nodes given to a graph of {} nodes",
                xy.len() / 2,
                self.num_nodes()
            )));
        }
        self.coords = Some(Coords {
            xy: Buf::from_vec(xy),
        });
        Ok(())
    }

    pub(crate) fn set_coords_buf(&mut self, xy: Buf<f64>) {
        self.coords = Some(Coords { xy });
    }

    pub fn id_base(&self) -> IdBase {
        self.id_base
    }

    /// The id the input file uses for internal node `v`.
    pub fn file_id(&self, v: u32) -> u64 {
        let index = match &self.renumbering {
            Some(r) => r.file_index[v as usize],
            None => v,
        };
        index as u64 + self.id_base.offset()
    }

    /// The internal node of a file id, or a clear error naming the valid range.
    pub fn node_from_file_id(&self, id: u64) -> Result<u32> {
        let base = self.id_base.offset();
        let n = self.num_nodes() as u64;
        if id < base || id - base >= n {
            return Err(GraphError::Invalid(format!(
                "node id {id} is out of range: this graph's ids run from {base} to {}",
                n + base - 1
            )));
        }
        Ok(self.node_of_index((id - base) as u32))
    }

    /// The node the file lists at position `i` (its id less the id base).
    pub fn node_of_index(&self, i: u32) -> u32 {
        match &self.renumbering {
            Some(r) => r.node_of[i as usize],
            None => i,
        }
    }

    /// Whether the nodes are numbered otherwise than the file numbers them.
    pub fn is_renumbered(&self) -> bool {
        self.renumbering.is_some()
    }

    /// The renumbering, for a graph built from this one on the same nodes.
    pub(crate) fn renumbering(&self) -> Option<std::sync::Arc<Renumbering>> {
        self.renumbering.clone()
    }

    pub(crate) fn set_renumbering(&mut self, r: Option<std::sync::Arc<Renumbering>>) {
        self.renumbering = r;
    }

    /// The transpose (in-edges), if it was built.
    pub fn transpose(&self) -> Option<&Transpose> {
        self.transpose.as_ref()
    }

    /// Builds and stores the transpose; a no-op if it exists.
    pub fn build_transpose(&mut self) {
        if self.transpose.is_some() {
            return;
        }
        let n = self.num_nodes();
        let mut counts = vec![0u64; n + 1];
        for &t in self.targets.iter() {
            counts[t as usize + 1] += 1;
        }
        for i in 0..n {
            counts[i + 1] += counts[i];
        }
        let mut next: Vec<u64> = counts[..n].to_vec();
        let mut sources = vec![0u32; self.num_edges()];
        let mut weights = self.weights.as_ref().map(|_| vec![0u32; self.num_edges()]);
        for v in 0..n as u32 {
            for e in self.edge_range(v) {
                let t = self.targets[e] as usize;
                let slot = next[t] as usize;
                next[t] += 1;
                sources[slot] = v;
                if let (Some(w), Some(src_w)) = (weights.as_mut(), self.weights.as_ref()) {
                    w[slot] = src_w[e];
                }
            }
        }
        self.transpose = Some(Transpose {
            offsets: Buf::from_vec(counts),
            sources: Buf::from_vec(sources),
            weights: weights.map(Buf::from_vec),
        });
    }

    /// Gives every edge a `lo:hi:seed` random weight (replacing any it had).
    pub fn assign_weights(&mut self, spec: crate::weights::WeightSpec) {
        let mut w = Vec::with_capacity(self.num_edges());
        for v in 0..self.num_nodes() as u32 {
            for &t in self.neighbors(v) {
                w.push(spec.weight(v, t));
            }
        }
        self.weights = Some(Buf::from_vec(w));
        self.weight_sum = std::sync::OnceLock::new();
        if self.transpose.is_some() {
            self.transpose = None;
            self.build_transpose();
        }
    }

    /// Forgets the weights, the transpose's too (an application that ignores them frees 4
    /// bytes an arc for its own arrays).
    pub fn drop_weights(&mut self) {
        self.weights = None;
        self.weight_sum = std::sync::OnceLock::new();
        if let Some(t) = &mut self.transpose {
            t.weights = None;
        }
    }

    /// The sum of all edge weights (the edge count on unweighted graphs): an upper bound on
    /// every shortest-path distance. One pass over the weights on the first call, remembered.
    pub fn weight_sum(&self) -> u64 {
        *self.weight_sum.get_or_init(|| match self.weights() {
            Some(ws) => ws.iter().map(|&w| w as u64).sum(),
            None => self.num_edges() as u64,
        })
    }

    /// Largest edge weight (1 on unweighted graphs, 0 on graphs without edges).
    pub fn max_weight(&self) -> u32 {
        match &self.weights {
            Some(w) => w.iter().copied().max().unwrap_or(0),
            None => u32::from(self.num_edges() > 0),
        }
    }

    pub fn num_self_loops(&self) -> usize {
        (0..self.num_nodes() as u32)
            .map(|v| self.neighbors(v).iter().filter(|&&t| t == v).count())
            .sum()
    }
}

fn check_csr(offsets: &[u64], targets: &[u32], weights: Option<&[u32]>) -> Result<()> {
    let bad = |m: String| Err(GraphError::Invalid(m));
    if offsets.is_empty() {
        return bad("CSR offsets must hold n + 1 entries".into());
    }
    let n = offsets.len() - 1;
    if n > u32::MAX as usize {
        return bad(format!("{n} nodes exceed the u32 node-id limit"));
    }
    if offsets[0] != 0 {
        return bad("CSR offsets must start at 0".into());
    }
    if let Some(i) = offsets.windows(2).position(|w| w[0] > w[1]) {
        return bad(format!("CSR offsets decrease at node {i}"));
    }
    if offsets[n] != targets.len() as u64 {
        return bad(format!(
            "CSR offsets end at {} but there are {} edges",
            offsets[n],
            targets.len()
        ));
    }
    if let Some(i) = targets.iter().position(|&t| t as usize >= n) {
        return bad(format!(
            "edge {i} points to node {} but there are only {n} nodes",
            targets[i]
        ));
    }
    if let Some(w) = weights {
        if w.len() != targets.len() {
            return bad(format!("{} weights for {} edges", w.len(), targets.len()));
        }
    }
    Ok(())
}
