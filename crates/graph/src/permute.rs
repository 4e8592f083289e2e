//! Relabelling a graph's nodes: the reorderings that improve locality (the adaptive data layout
//! of the NUMA-aware BC paper, Frasca et al., SC'12; reverse Cuthill-McKee) are permutations
//! applied once and amortized over many runs.

use crate::buf::Buf;
use crate::csr::Graph;
use crate::error::{GraphError, Result};

impl Graph {
    /// The same graph with its nodes in a random order drawn from `seed`, still named as the
    /// file names them: `file_id`, `node_from_file_id` and `node_of_index` see through the
    /// renumbering, so what a run reports by file ids does not depend on the order. Algorithms
    /// whose speed depends on the input order (locality, the order of ties) run as they would
    /// on a file with no useful order, as the NUMA-aware BC paper (Frasca et al., SC'12, §V)
    /// assumes of its inputs.
    ///
    /// ```
    /// use ordo_graph::{gen, BuildOptions};
    /// let g = gen::road_grid(4, 4, 1, &BuildOptions::default()).unwrap();
    /// let s = g.shuffled(7).unwrap();
    /// let v = s.node_from_file_id(5).unwrap();
    /// assert_eq!(s.file_id(v), 5);
    /// assert_eq!(s.out_degree(v), g.out_degree(5));
    /// ```
    pub fn shuffled(&self, seed: u64) -> Result<Graph> {
        let n = self.num_nodes();
        // Fisher-Yates over node positions, from a counter-based generator.
        let mut new_id: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            let j = (crate::mix64(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
                % (i as u64 + 1)) as usize;
            new_id.swap(i, j);
        }
        let mut g = self.permute(&new_id, true)?;
        let mut file_index = vec![0u32; n];
        for (old, &new) in new_id.iter().enumerate() {
            file_index[new as usize] = match self.renumbering() {
                Some(r) => r.file_index[old],
                None => old as u32,
            };
        }
        g.set_renumbering(Some(std::sync::Arc::new(crate::csr::Renumbering::new(
            file_index,
        ))));
        Ok(g)
    }

    /// The same graph with node `v` renamed `new_id[v]`: arcs, weights and coordinates move
    /// with their nodes, and every neighbour list is sorted by the new ids, as the builders
    /// leave them. The result names node `i` as this graph names its node `i`, so results
    /// computed on it are mapped back through `new_id` before they are shown.
    ///
    /// ```
    /// use ordo_graph::{gen, BuildOptions};
    /// let g = gen::road_grid(3, 3, 1, &BuildOptions::default()).unwrap();
    /// let reversed: Vec<u32> = (0..9).rev().collect();
    /// let p = g.permuted(&reversed).unwrap();
    /// assert_eq!(p.out_degree(8), g.out_degree(0));
    /// ```
    pub fn permuted(&self, new_id: &[u32]) -> Result<Graph> {
        self.permute(new_id, true)
    }

    /// [`permuted`](Self::permuted) without weights or coordinates: the arcs alone, for a
    /// method that reads nothing else (betweenness's relabelled copy beside the original:
    /// Kronecker 20's weights are 126 MB; `ordo bc` with 8 sources peaked 560 -> 440 MiB).
    pub fn permuted_arcs(&self, new_id: &[u32]) -> Result<Graph> {
        self.permute(new_id, false)
    }

    fn permute(&self, new_id: &[u32], extras: bool) -> Result<Graph> {
        let n = self.num_nodes();
        check_permutation(new_id, n)?;
        let mut old_of = vec![0u32; n];
        for (old, &new) in new_id.iter().enumerate() {
            old_of[new as usize] = old as u32;
        }
        let weights = self.weights().filter(|_| extras);
        // Every node keeps its degree, so the offsets come first, and then the lists can be
        // written in parallel: ranges of new ids with about equal arcs, one per thread (done
        // serially, BC's layout of a uniform random graph of 2^20 nodes and 33.5M arcs takes
        // 1.1 s here).
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0u64);
        let mut end = 0;
        for &old in &old_of {
            end += self.out_degree(old) as u64;
            offsets.push(end);
        }
        let m = self.num_edges();
        let mut targets = vec![0u32; m];
        let mut new_weights = weights.map(|_| vec![0u32; m]);
        let parts = crate::load::prep_threads().clamp(1, n.max(1));
        // Where each part ends: the first node whose list starts at or past its share of arcs.
        let ends: Vec<usize> = (1..parts)
            .map(|i| offsets[..n].partition_point(|&o| o < (m * i / parts) as u64))
            .chain([n])
            .collect();
        std::thread::scope(|scope| {
            let (mut targets, mut weights) = (&mut targets[..], new_weights.as_deref_mut());
            let mut lo = 0;
            for &hi in &ends {
                let len = (offsets[hi] - offsets[lo]) as usize;
                let part;
                (part, targets) = std::mem::take(&mut targets).split_at_mut(len);
                let weight_part = weights.take().map(|w| {
                    let (part, rest) = w.split_at_mut(len);
                    weights = Some(rest);
                    part
                });
                let (olds, offs) = (&old_of[lo..hi], &offsets[lo..=hi]);
                scope.spawn(move || self.write_lists(new_id, olds, offs, part, weight_part));
                lo = hi;
            }
        });
        let mut g = Graph::from_csr(
            Buf::from_vec(offsets),
            Buf::from_vec(targets),
            new_weights.map(Buf::from_vec),
            self.id_base(),
        )?;
        // A relabelling keeps every arc's reverse: a known answer carries over.
        if let Some(&symmetric) = self.symmetric.get() {
            let _ = g.symmetric.set(symmetric);
        }
        g.set_renumbering(self.renumbering());
        if let Some(c) = self.coords().filter(|_| extras) {
            let mut xy = Vec::with_capacity(2 * n);
            for &old in &old_of {
                let (x, y) = c.get(old);
                xy.extend([x, y]);
            }
            g.set_coords(xy)?;
        }
        Ok(g)
    }
}

impl Graph {
    /// Writes the lists of the nodes `olds` (old ids, in new order) into `targets` (and
    /// `weights`), which start at `offsets[0]`: each list's targets renamed by `new_id` and
    /// sorted (by target, then weight), as the builders leave lists.
    fn write_lists(
        &self,
        new_id: &[u32],
        olds: &[u32],
        offsets: &[u64],
        targets: &mut [u32],
        mut weights: Option<&mut [u32]>,
    ) {
        let base = offsets[0];
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for (i, &old) in olds.iter().enumerate() {
            let range = (offsets[i] - base) as usize..(offsets[i + 1] - base) as usize;
            let list = &mut targets[range.clone()];
            match weights.as_deref_mut() {
                None => {
                    for (slot, &t) in list.iter_mut().zip(self.neighbors(old)) {
                        *slot = new_id[t as usize];
                    }
                    list.sort_unstable();
                }
                Some(w) => {
                    pairs.clear();
                    pairs.extend(self.out_edges(old).map(|(t, w)| (new_id[t as usize], w)));
                    pairs.sort_unstable();
                    for ((slot, weight), &(t, x)) in list.iter_mut().zip(&mut w[range]).zip(&pairs)
                    {
                        (*slot, *weight) = (t, x);
                    }
                }
            }
        }
    }
}

fn check_permutation(new_id: &[u32], n: usize) -> Result<()> {
    let bad = |why: String| GraphError::Invalid(format!("not a permutation of {n} nodes: {why}"));
    if new_id.len() != n {
        return Err(bad(format!("{} entries", new_id.len())));
    }
    let mut seen = vec![false; n];
    for (v, &p) in new_id.iter().enumerate() {
        match seen.get_mut(p as usize) {
            Some(s) if !*s => *s = true,
            Some(_) => return Err(bad(format!("node {v} maps to {p}, already taken"))),
            None => return Err(bad(format!("node {v} maps to {p}, out of range"))),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::{gen, BuildOptions, Graph};

    #[test]
    fn a_shuffled_graph_moves_its_nodes_but_keeps_the_files_names() {
        let g = gen::road_grid(20, 20, 3, &BuildOptions::default()).unwrap();
        let s = g.shuffled(11).unwrap();
        assert!(s.is_renumbered() && !g.is_renumbered());
        let moved = (0..400u32).filter(|&i| s.node_of_index(i) != i).count();
        assert!(moved > 350, "only {moved} of 400 nodes moved");
        for i in 0..400u32 {
            let v = s.node_of_index(i);
            assert_eq!(s.file_id(v), g.file_id(i));
            assert_eq!(s.node_from_file_id(g.file_id(i)).unwrap(), v);
            // The same arcs, by the file's names.
            let named = |h: &Graph, x: u32| {
                let mut arcs: Vec<(u64, u32)> =
                    h.out_edges(x).map(|(t, w)| (h.file_id(t), w)).collect();
                arcs.sort_unstable();
                arcs
            };
            assert_eq!(named(&s, v), named(&g, i));
            assert_eq!(s.coords().unwrap().get(v), g.coords().unwrap().get(i));
        }
        // Shuffling again composes: names stay the file's, and views keep them.
        let twice = s.shuffled(12).unwrap();
        let u = crate::undirected_simple(&twice).unwrap();
        for i in 0..400u32 {
            assert_eq!(u.file_id(u.node_of_index(i)), g.file_id(i));
        }
        assert_ne!(twice.node_of_index(0), s.node_of_index(0));
    }

    /// `v`'s arcs in `g` with their targets renamed by `new_id`, sorted (target, weight).
    fn renamed_arcs(g: &Graph, new_id: &[u32], v: u32) -> Vec<(u32, u32)> {
        let mut arcs: Vec<(u32, u32)> = g
            .out_edges(v)
            .map(|(t, w)| (new_id[t as usize], w))
            .collect();
        arcs.sort_unstable();
        arcs
    }

    #[test]
    fn permuting_keeps_every_arc_and_weight() {
        let g = gen::road_grid(4, 5, 3, &BuildOptions::default()).unwrap();
        let n = g.num_nodes() as u32;
        let new_id: Vec<u32> = (0..n).map(|v| (v * 7) % n).collect();
        let p = g.permuted(&new_id).unwrap();
        assert_eq!(p.num_edges(), g.num_edges());
        for v in 0..n {
            let got: Vec<(u32, u32)> = p.out_edges(new_id[v as usize]).collect();
            assert_eq!(got, renamed_arcs(&g, &new_id, v));
        }
    }

    #[test]
    fn the_arcs_alone_are_the_permuted_targets_without_weights_or_coordinates() {
        let g = gen::road_grid(4, 5, 3, &BuildOptions::default()).unwrap();
        assert!(g.is_weighted() && g.coords().is_some());
        let n = g.num_nodes() as u32;
        let new_id: Vec<u32> = (0..n).map(|v| (v * 7) % n).collect();
        let (full, arcs) = (
            g.permuted(&new_id).unwrap(),
            g.permuted_arcs(&new_id).unwrap(),
        );
        assert!(!arcs.is_weighted() && arcs.coords().is_none());
        assert_eq!(arcs.offsets(), full.offsets());
        assert_eq!(arcs.targets(), full.targets());
    }

    #[test]
    fn lists_written_in_parts_match_each_node_s_sorted_arcs() {
        // Nodes without arcs (a Kronecker graph has many), parallel arcs with their weights,
        // and lists split among the writing threads wherever the arcs fall.
        let mut g = gen::kronecker(10, 8, 5, &BuildOptions::default()).unwrap();
        g.assign_weights(crate::WeightSpec {
            lo: 1,
            hi: 3,
            seed: 2,
        });
        let n = g.num_nodes() as u32;
        assert!((0..n).any(|v| g.out_degree(v) == 0) && g.is_weighted());
        let new_id: Vec<u32> = (0..n).map(|v| (v * 389 + 17) % n).collect();
        let (full, arcs) = (
            g.permuted(&new_id).unwrap(),
            g.permuted_arcs(&new_id).unwrap(),
        );
        for v in 0..n {
            let want = renamed_arcs(&g, &new_id, v);
            let p = new_id[v as usize];
            assert_eq!(full.out_edges(p).collect::<Vec<_>>(), want);
            let targets: Vec<u32> = want.iter().map(|a| a.0).collect();
            assert_eq!(arcs.neighbors(p), &targets[..]);
        }
    }

    #[test]
    fn a_non_permutation_is_refused() {
        let g = gen::road_grid(2, 2, 3, &BuildOptions::default()).unwrap();
        assert!(g.permuted(&[0, 1, 2]).is_err());
        assert!(g.permuted(&[0, 1, 1, 2]).is_err());
        assert!(g.permuted(&[0, 1, 2, 9]).is_err());
    }
}
