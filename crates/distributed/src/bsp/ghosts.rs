//! Dense numbers for a set of remote nodes, and a cache-friendly transpose: the two steps of
//! building a halo that touch every arc at a random place.

use crate::partition::Partition;

/// A set of remote node ids numbered `0..len` in increasing global id, by a bitmap over all
/// ids and the count of members before each word: `n / 8 + n / 16` bytes while a halo is
/// built, a rank query per arc, no sort of the arcs.
pub struct GhostIds {
    bits: Vec<u64>,
    before: Vec<u32>,
    /// The members' global ids, increasing.
    pub ids: Vec<u32>,
}

impl GhostIds {
    /// The set of `members` (global ids below `n`, repeats allowed).
    pub fn new(n: u32, members: impl Iterator<Item = u32>) -> GhostIds {
        let words = (n as usize).div_ceil(64);
        let mut bits = vec![0u64; words];
        for s in members {
            bits[s as usize / 64] |= 1 << (s % 64);
        }
        let mut before = Vec::with_capacity(words);
        let mut ids = Vec::new();
        for (w, &word) in bits.iter().enumerate() {
            before.push(ids.len() as u32);
            let mut rest = word;
            while rest != 0 {
                ids.push(w as u32 * 64 + rest.trailing_zeros());
                rest &= rest - 1;
            }
        }
        GhostIds { bits, before, ids }
    }

    /// The number of member `s`.
    #[inline]
    pub fn index(&self, s: u32) -> u32 {
        let (w, b) = (s as usize / 64, s % 64);
        debug_assert!(self.bits[w] >> b & 1 == 1, "{s} is not a member");
        self.before[w] + (self.bits[w] & ((1u64 << b) - 1)).count_ones()
    }

    /// Where each member's value lands when owners send them in rank order, each owner in
    /// id order (what [`super::halo::Halo::refresh`] receives): the member numbers in that
    /// order, or `None` when it is the members' own order (contiguous ranges).
    pub fn arrival_order(&self, part: &Partition) -> Option<Vec<u32>> {
        let sorted = self
            .ids
            .windows(2)
            .all(|w| part.owner(w[0]) <= part.owner(w[1]));
        if sorted {
            return None;
        }
        let mut order: Vec<u32> = (0..self.ids.len() as u32).collect();
        order.sort_by_key(|&i| part.owner(self.ids[i as usize]));
        Some(order)
    }
}

/// Nodes per bucket of [`transpose`]: a bucket's counters (8 bytes a node) stay in the cache.
const BUCKET_NODES: u32 = 1 << 14;

/// The in-CSR of `local` nodes from `(target, source)` pairs (target a local id), which
/// `visit` hands to its argument, the same pairs in the same order each of the two times it is
/// called: offsets and sources, each in-list in the pairs' order. The pairs are first split
/// into buckets of [`BUCKET_NODES`] targets, so the per-node counting and placing that follow
/// stay within a cache-sized part of the offsets: a plain counting sort misses the cache on
/// every arc of a graph with random targets. Holds 12 bytes a pair at its peak.
pub fn transpose(local: u32, visit: impl Fn(&mut dyn FnMut(u32, u32))) -> (Vec<u64>, Vec<u32>) {
    let buckets = (local / BUCKET_NODES) as usize + 1;
    let mut start = vec![0usize; buckets + 1];
    visit(&mut |t, _| start[(t / BUCKET_NODES) as usize + 1] += 1);
    for b in 0..buckets {
        start[b + 1] += start[b];
    }
    let mut at = start.clone();
    let mut split = vec![(0u32, 0u32); start[buckets]];
    visit(&mut |t, s| {
        let b = (t / BUCKET_NODES) as usize;
        split[at[b]] = (t, s);
        at[b] += 1;
    });
    let mut offsets = vec![0u64; local as usize + 1];
    for &(t, _) in &split {
        offsets[t as usize + 1] += 1;
    }
    for i in 0..local as usize {
        offsets[i + 1] += offsets[i];
    }
    let mut next: Vec<u64> = offsets[..local as usize].to_vec();
    let mut sources = vec![0u32; split.len()];
    for &(t, s) in &split {
        let slot = &mut next[t as usize];
        sources[*slot as usize] = s;
        *slot += 1;
    }
    (offsets, sources)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ghost_numbers_follow_global_ids() {
        let g = GhostIds::new(300, [250, 3, 64, 3, 299, 63].into_iter());
        assert_eq!(g.ids, vec![3, 63, 64, 250, 299]);
        for (i, &s) in g.ids.iter().enumerate() {
            assert_eq!(g.index(s), i as u32);
        }
        // Cyclic over 2 ranks: owner 0 sends 64 and 250, then owner 1 sends 3, 63, 299.
        let part = Partition::cyclic(2, 300);
        assert_eq!(g.arrival_order(&part), Some(vec![2, 3, 0, 1, 4]));
        assert_eq!(g.arrival_order(&Partition::by_nodes(2, 300)), None);
    }

    #[test]
    fn transpose_keeps_the_pairs_order_within_a_list() {
        let n = 3 * BUCKET_NODES + 5;
        let mut pairs = Vec::new();
        for s in 0..50_000u32 {
            pairs.push(((s * 7919) % n, s));
            pairs.push(((s * 104_729 + 13) % n, s));
        }
        let (offsets, sources) = transpose(n, |f| pairs.iter().for_each(|&(t, s)| f(t, s)));
        let mut want = vec![Vec::new(); n as usize];
        for &(t, s) in &pairs {
            want[t as usize].push(s);
        }
        for t in 0..n as usize {
            let got = &sources[offsets[t] as usize..offsets[t + 1] as usize];
            assert_eq!(got, &want[t][..]);
        }
    }
}
