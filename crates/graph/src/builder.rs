//! From a list of arcs to a CSR [`Graph`], applying the load options.

use crate::buf::Buf;
use crate::csr::{Graph, IdBase};
use crate::error::Result;
use crate::weights::WeightSpec;

/// Options applied while building a graph from any source.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// Add the reverse of every arc (an undirected view of a directed input).
    pub symmetrize: bool,
    /// Remove arcs from a node to itself.
    pub drop_self_loops: bool,
    /// Keep one arc per (source, target) pair: the lightest.
    pub merge_parallel: bool,
    /// Replace (or invent) edge weights with `lo:hi:seed` random integers.
    pub weights: Option<WeightSpec>,
    /// Divide every weight by this, rounding up (after `weights`): the same shortest-path
    /// structure with a narrower range of distances (the PMOD paper's Fig. 10, Yesil et al.,
    /// SC'19, divides by 64).
    pub weight_divisor: Option<u32>,
}

impl BuildOptions {
    /// Whether these options change a graph as stored (so a binary input must be rebuilt).
    pub fn changes_graph(&self) -> bool {
        self.symmetrize
            || self.drop_self_loops
            || self.merge_parallel
            || self.weights.is_some()
            || self.weight_divisor.is_some()
    }

    /// `w` divided by the weight divisor, rounded up (a positive weight stays positive).
    pub fn divided(&self, w: u32) -> u32 {
        match self.weight_divisor {
            Some(k) if k > 1 => w.div_ceil(k),
            _ => w,
        }
    }
}

/// Arcs as read from a file, before CSR construction. Node ids are already 0-based and `< n`.
#[derive(Debug, Clone, Default)]
pub struct EdgeList {
    pub num_nodes: u32,
    pub src: Vec<u32>,
    pub dst: Vec<u32>,
    pub weights: Option<Vec<u32>>,
}

impl EdgeList {
    pub fn with_capacity(num_nodes: u32, arcs: usize, weighted: bool) -> Self {
        EdgeList {
            num_nodes,
            src: Vec::with_capacity(arcs),
            dst: Vec::with_capacity(arcs),
            weights: weighted.then(|| Vec::with_capacity(arcs)),
        }
    }

    #[inline]
    pub fn push(&mut self, u: u32, v: u32, w: u32) {
        self.src.push(u);
        self.dst.push(v);
        if let Some(ws) = self.weights.as_mut() {
            ws.push(w);
        }
    }

    pub fn len(&self) -> usize {
        self.src.len()
    }

    pub fn is_empty(&self) -> bool {
        self.src.is_empty()
    }

    /// Builds the CSR: arcs grouped by source, each adjacency sorted by (target, weight).
    pub fn build(mut self, opts: &BuildOptions, id_base: IdBase) -> Result<Graph> {
        if let Some(spec) = opts.weights {
            let w = self
                .src
                .iter()
                .zip(&self.dst)
                .map(|(&u, &v)| spec.weight(u, v))
                .collect();
            self.weights = Some(w);
        }
        if let (Some(_), Some(ws)) = (opts.weight_divisor, self.weights.as_mut()) {
            ws.iter_mut().for_each(|w| *w = opts.divided(*w));
        }
        if opts.symmetrize {
            let m = self.len();
            self.src.reserve(m);
            self.dst.reserve(m);
            for i in 0..m {
                let (u, v) = (self.src[i], self.dst[i]);
                if u != v {
                    self.src.push(v);
                    self.dst.push(u);
                    if let Some(w) = self.weights.as_mut() {
                        let wi = w[i];
                        w.push(wi);
                    }
                }
            }
        }
        let n = self.num_nodes as usize;
        let keep = |u: u32, v: u32| !(opts.drop_self_loops && u == v);

        // Counting sort by source.
        let mut offsets = vec![0u64; n + 1];
        for (&u, &v) in self.src.iter().zip(&self.dst) {
            if keep(u, v) {
                offsets[u as usize + 1] += 1;
            }
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let m = offsets[n] as usize;
        let mut next = offsets[..n].to_vec();
        let mut targets = vec![0u32; m];
        let mut weights = self.weights.as_ref().map(|_| vec![0u32; m]);
        for i in 0..self.src.len() {
            let (u, v) = (self.src[i], self.dst[i]);
            if !keep(u, v) {
                continue;
            }
            let slot = next[u as usize] as usize;
            next[u as usize] += 1;
            targets[slot] = v;
            if let (Some(out), Some(w)) = (weights.as_mut(), self.weights.as_ref()) {
                out[slot] = w[i];
            }
        }
        drop(self);
        sort_adjacencies(&offsets, &mut targets, weights.as_deref_mut());
        if opts.merge_parallel {
            let (o, t, w) = merge_parallel(offsets, targets, weights);
            offsets = o;
            targets = t;
            weights = w;
        }
        Graph::from_csr(
            Buf::from_vec(offsets),
            Buf::from_vec(targets),
            weights.map(Buf::from_vec),
            id_base,
        )
    }
}

fn sort_adjacencies(offsets: &[u64], targets: &mut [u32], mut weights: Option<&mut [u32]>) {
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for win in offsets.windows(2) {
        let r = win[0] as usize..win[1] as usize;
        match weights.as_deref_mut() {
            None => targets[r].sort_unstable(),
            Some(w) => {
                pairs.clear();
                pairs.extend(
                    targets[r.clone()]
                        .iter()
                        .copied()
                        .zip(w[r.clone()].iter().copied()),
                );
                pairs.sort_unstable();
                for (k, (t, wt)) in pairs.iter().enumerate() {
                    targets[r.start + k] = *t;
                    w[r.start + k] = *wt;
                }
            }
        }
    }
}

/// Keeps the first arc of each run of equal targets; adjacencies are sorted by (target,
/// weight), so the first is the lightest.
fn merge_parallel(
    offsets: Vec<u64>,
    targets: Vec<u32>,
    weights: Option<Vec<u32>>,
) -> (Vec<u64>, Vec<u32>, Option<Vec<u32>>) {
    let n = offsets.len() - 1;
    let mut new_off = Vec::with_capacity(n + 1);
    let mut new_t = Vec::with_capacity(targets.len());
    let mut new_w = weights.as_ref().map(|_| Vec::with_capacity(targets.len()));
    new_off.push(0u64);
    for v in 0..n {
        let r = offsets[v] as usize..offsets[v + 1] as usize;
        let mut last: Option<u32> = None;
        for e in r {
            if last == Some(targets[e]) {
                continue;
            }
            last = Some(targets[e]);
            new_t.push(targets[e]);
            if let (Some(nw), Some(w)) = (new_w.as_mut(), weights.as_ref()) {
                nw.push(w[e]);
            }
        }
        new_off.push(new_t.len() as u64);
    }
    (new_off, new_t, new_w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> EdgeList {
        let mut el = EdgeList::with_capacity(4, 8, true);
        el.push(0, 1, 5);
        el.push(0, 1, 3);
        el.push(1, 1, 9);
        el.push(2, 0, 1);
        el.push(3, 2, 7);
        el
    }

    #[test]
    fn builds_sorted_csr() {
        let g = sample()
            .build(&BuildOptions::default(), IdBase::Zero)
            .unwrap();
        assert_eq!(g.num_nodes(), 4);
        assert_eq!(g.num_edges(), 5);
        assert_eq!(g.out_edges(0).collect::<Vec<_>>(), vec![(1, 3), (1, 5)]);
    }

    #[test]
    fn options_symmetrize_drop_loops_and_merge() {
        let opts = BuildOptions {
            symmetrize: true,
            drop_self_loops: true,
            merge_parallel: true,
            ..Default::default()
        };
        let g = sample().build(&opts, IdBase::Zero).unwrap();
        assert_eq!(g.out_edges(0).collect::<Vec<_>>(), vec![(1, 3), (2, 1)]);
        assert_eq!(g.out_edges(1).collect::<Vec<_>>(), vec![(0, 3)]);
        assert_eq!(g.num_self_loops(), 0);
        let opts = BuildOptions {
            weights: Some("10:10:0".parse().unwrap()),
            ..Default::default()
        };
        let g = sample().build(&opts, IdBase::Zero).unwrap();
        assert!(g.weights().unwrap().iter().all(|&w| w == 10));
        // Divided weights round up; the shape is untouched: node 0's arcs of weight 5 and 3
        // to node 1 get 2 and 1.
        let opts = BuildOptions {
            weight_divisor: Some(4),
            ..Default::default()
        };
        let g = sample().build(&opts, IdBase::Zero).unwrap();
        assert_eq!(g.out_edges(0).collect::<Vec<_>>(), vec![(1, 1), (1, 2)]);
    }
}
