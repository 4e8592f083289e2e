//! Union-find: forests in parent arrays (a root its own parent), written once for connected
//! components, the spanning forests and their serial oracles.
//!
//! * [`UnionFind`]: one thread's forest, union by size, path splitting (the oracles of cc and
//!   mst).
//! * [`find`] (path halving), [`point_at_root`]: shared forests (`AtomicU32` per node) of the
//!   frontier methods (Afforest, Boruvka, filter-Kruskal), whose loops never link and search
//!   at once: a loop that reads the forest only shortens paths, and links happen in other
//!   loops, separated by the team's barriers. Each method links its own way (Afforest's
//!   hooks, Rem's splicing).
//! * [`find_while_linking`]: a shared forest that other threads link meanwhile, each link
//!   made under its roots' locks (the priority-scheduled Boruvka).
//!
//! Orderings of [`find`] and [`point_at_root`]: Relaxed. While only these functions run,
//! every store replaces a node's parent with one of its ancestors, so every value a worker
//! reads, however stale, is a node on the path to the same root, and each location's own
//! modification order keeps a reader from going backwards. What the loops compute from the
//! roots is published by the barrier that ends them. [`find_while_linking`] says its own.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU32, Ordering};

/// A forest of `n` singletons.
pub(crate) fn singletons(n: usize) -> Vec<AtomicU32> {
    (0..n as u32).map(AtomicU32::new).collect()
}

/// One thread's union-find, by size with path splitting, on plain words and inlined: the cc
/// oracle took 1.34-1.47x the time through the shared forests' [`find`] over atomics (NY,
/// Slashdot, a 1000 x 1000 grid).
pub struct UnionFind {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl UnionFind {
    /// `n` singletons.
    pub fn new(n: usize) -> UnionFind {
        UnionFind {
            parent: (0..n as u32).collect(),
            size: vec![1; n],
        }
    }

    /// The root of `x`'s set, splitting the path on the way (each node visited is pointed at
    /// its grandparent).
    #[inline]
    pub fn find(&mut self, x: u32) -> u32 {
        split_find(&mut self.parent, x)
    }

    /// Joins the sets of `a` and `b`, the smaller under the larger; whether they were apart.
    #[inline(always)]
    pub fn union(&mut self, a: u32, b: u32) -> bool {
        let parent = self.parent.as_mut_slice();
        let (a, b) = (split_find(parent, a), split_find(parent, b));
        if a == b {
            return false;
        }
        let size = self.size.as_mut_slice();
        let (big, small) = match size[a as usize] >= size[b as usize] {
            true => (a, b),
            false => (b, a),
        };
        parent[small as usize] = big;
        size[big as usize] += size[small as usize];
        true
    }
}

/// The root of `x` in one thread's forest, pointing each node visited at its grandparent.
#[inline(always)]
fn split_find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let p = parent[x as usize];
        parent[x as usize] = parent[p as usize];
        x = p;
    }
    x
}

/// The root of `x`, halving the path on the way.
#[inline]
pub(crate) fn find(parent: &[AtomicU32], mut x: u32) -> u32 {
    loop {
        let p = parent[x as usize].load(Relaxed);
        if p == x {
            return x;
        }
        let gp = parent[p as usize].load(Relaxed);
        if gp != p {
            parent[x as usize].store(gp, Relaxed);
        }
        x = gp;
    }
}

/// Points `v` straight at its root by jumping to its grandparent until they agree (the
/// compress step of Afforest and of Boruvka's rounds).
#[inline]
pub(crate) fn point_at_root(parent: &[AtomicU32], v: usize) {
    loop {
        let p = parent[v].load(Relaxed);
        let gp = parent[p as usize].load(Relaxed);
        if p == gp {
            return;
        }
        parent[v].store(gp, Relaxed);
    }
}

/// The root of `x` in a forest that other threads link meanwhile: path halving by
/// compare-exchange (a failed one only means someone else shortened the path).
///
/// Orderings: the parent links are the only data. A link is stored (Release) while both
/// roots' locks are held, and every decision taken on a result is re-checked under those
/// locks, whose acquire makes the check exact; outside them a stale answer only costs a retry.
/// Acquire on the loads keeps a reader that follows a new link from seeing an older state of
/// the node it leads to.
pub(crate) fn find_while_linking(parent: &[AtomicU32], mut x: u32) -> u32 {
    loop {
        let p = parent[x as usize].load(Ordering::Acquire);
        if p == x {
            return x;
        }
        let gp = parent[p as usize].load(Ordering::Acquire);
        if gp != p {
            let _ = parent[x as usize].compare_exchange(p, gp, Ordering::AcqRel, Relaxed);
        }
        x = gp;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_joins_sets_and_find_names_one_root_per_set() {
        let mut uf = UnionFind::new(8);
        assert!(uf.union(0, 1));
        assert!(uf.union(2, 3));
        assert!(uf.union(1, 3));
        assert!(!uf.union(0, 2), "already joined");
        assert!(uf.union(5, 6));
        let root = uf.find(0);
        assert!((0..4).all(|v| uf.find(v) == root));
        assert_eq!(uf.find(5), uf.find(6));
        assert_ne!(uf.find(5), root);
        assert_eq!(uf.find(4), 4);
        assert_eq!(uf.find(7), 7);
        // The smaller set goes under the larger: {0..3} keeps its root.
        assert!(uf.union(6, 0));
        assert_eq!(uf.find(5), root);
    }

    #[test]
    fn every_find_agrees_on_a_shared_forest() {
        // A chain 9 -> 8 -> ... -> 0.
        let parent: Vec<AtomicU32> = (0..10u32)
            .map(|v| AtomicU32::new(v.saturating_sub(1)))
            .collect();
        assert_eq!(find(&parent, 9), 0);
        assert_eq!(find_while_linking(&parent, 7), 0);
        point_at_root(&parent, 5);
        assert_eq!(parent[5].load(Relaxed), 0);
        assert!((0..10).all(|v| find(&parent, v) == 0));
    }
}
