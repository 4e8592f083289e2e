//! Relabelling a graph's nodes: the reorderings that improve locality (seed 001's adaptive data
//! layout, reverse Cuthill-McKee) are permutations applied once and amortized over many runs.

use crate::buf::Buf;
use crate::csr::Graph;
use crate::error::{GraphError, Result};

impl Graph {
    /// The same graph with node `v` renamed `new_id[v]`: arcs, weights and coordinates move
    /// with their nodes, and every neighbour list is sorted by the new ids, as the builders
    /// leave them. The result's file ids are the new positions, so results computed on it are
    /// mapped back through `new_id` before they are shown.
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
        let mut offsets = Vec::with_capacity(n + 1);
        let mut targets = Vec::with_capacity(self.num_edges());
        let mut new_weights = weights.map(|_| Vec::with_capacity(self.num_edges()));
        let mut arcs: Vec<(u32, u32)> = Vec::new();
        offsets.push(0u64);
        for &old in &old_of {
            arcs.clear();
            arcs.extend(self.out_edges(old).map(|(t, w)| (new_id[t as usize], w)));
            arcs.sort_unstable();
            targets.extend(arcs.iter().map(|&(t, _)| t));
            if let Some(nw) = new_weights.as_mut() {
                nw.extend(arcs.iter().map(|&(_, w)| w));
            }
            offsets.push(targets.len() as u64);
        }
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
    use crate::{gen, BuildOptions};

    #[test]
    fn permuting_keeps_every_arc_and_weight() {
        let g = gen::road_grid(4, 5, 3, &BuildOptions::default()).unwrap();
        let n = g.num_nodes() as u32;
        let new_id: Vec<u32> = (0..n).map(|v| (v * 7) % n).collect();
        let p = g.permuted(&new_id).unwrap();
        assert_eq!(p.num_edges(), g.num_edges());
        for v in 0..n {
            let mut want: Vec<(u32, u32)> = g
                .out_edges(v)
                .map(|(t, w)| (new_id[t as usize], w))
                .collect();
            want.sort_unstable();
            let got: Vec<(u32, u32)> = p.out_edges(new_id[v as usize]).collect();
            assert_eq!(got, want);
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
    fn a_non_permutation_is_refused() {
        let g = gen::road_grid(2, 2, 3, &BuildOptions::default()).unwrap();
        assert!(g.permuted(&[0, 1, 2]).is_err());
        assert!(g.permuted(&[0, 1, 1, 2]).is_err());
        assert!(g.permuted(&[0, 1, 2, 9]).is_err());
    }
}
