//! Which rank owns which node.
//!
//! Two layouts. **Ranges** (the default): rank r owns the contiguous ids
//! `starts[r]..starts[r+1]`, cut so that every rank holds about the same number of edges; a
//! node's local index is its offset in the range. **Cyclic** (`--partition hash`): rank
//! `v mod p` owns node v, local index `v div p`: a hash partition whose index needs no table,
//! which spreads the hubs of a file sorted by degree or by locality over every rank.

/// The owner map shared (identically) by every rank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Partition {
    /// `starts` has `ranks + 1` entries, from 0 to n.
    Ranges {
        starts: Vec<u32>,
    },
    Cyclic {
        ranks: u32,
        n: u32,
    },
}

impl Partition {
    /// Ranges holding about `m / ranks` arcs each, cut on `offsets` (a node's arcs stay
    /// together): rank r starts at the first node whose first arc is at or after `r m / ranks`.
    pub fn by_edges(ranks: usize, n: u32, offset_of: impl Fn(u32) -> u64) -> Partition {
        let m = offset_of(n);
        let mut starts = Vec::with_capacity(ranks + 1);
        starts.push(0);
        for r in 1..ranks {
            let goal = (m as u128 * r as u128 / ranks as u128) as u64;
            let prev = *starts.last().expect("non-empty");
            // First v in prev..n with offset_of(v) >= goal (offsets are non-decreasing).
            let (mut lo, mut hi) = (prev, n);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if offset_of(mid) >= goal {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            starts.push(lo);
        }
        starts.push(n);
        Partition::Ranges { starts }
    }

    /// Ranges of (almost) equal node counts.
    pub fn by_nodes(ranks: usize, n: u32) -> Partition {
        let starts = (0..=ranks)
            .map(|r| (n as u64 * r as u64 / ranks as u64) as u32)
            .collect();
        Partition::Ranges { starts }
    }

    pub fn cyclic(ranks: usize, n: u32) -> Partition {
        Partition::Cyclic {
            ranks: ranks as u32,
            n,
        }
    }

    pub fn ranks(&self) -> usize {
        match self {
            Partition::Ranges { starts } => starts.len() - 1,
            Partition::Cyclic { ranks, .. } => *ranks as usize,
        }
    }

    /// The global node count.
    pub fn num_nodes(&self) -> u32 {
        match self {
            Partition::Ranges { starts } => *starts.last().expect("non-empty"),
            Partition::Cyclic { n, .. } => *n,
        }
    }

    /// The rank that owns node `v`.
    #[inline]
    pub fn owner(&self, v: u32) -> usize {
        match self {
            // The last start <= v; empty ranges (equal starts) are skipped.
            Partition::Ranges { starts } => starts[1..].partition_point(|&s| s <= v),
            Partition::Cyclic { ranks, .. } => (v % ranks) as usize,
        }
    }

    /// Tells which nodes `rank` owns, with the layout's bounds read once: for loops that test
    /// every arc.
    pub fn locator(&self, rank: usize) -> Locator {
        match self {
            Partition::Ranges { starts } => Locator::Range(InRange {
                start: starts[rank],
                len: starts[rank + 1] - starts[rank],
            }),
            Partition::Cyclic { ranks, .. } => Locator::Cyclic(InCycle {
                ranks: *ranks,
                rank: rank as u32,
            }),
        }
    }

    /// `v`'s index on its owner.
    #[inline]
    pub fn local(&self, v: u32) -> u32 {
        match self {
            Partition::Ranges { starts } => v - starts[self.owner(v)],
            Partition::Cyclic { ranks, .. } => v / ranks,
        }
    }

    /// The global id of `rank`'s local node `l`.
    #[inline]
    pub fn global(&self, rank: usize, l: u32) -> u32 {
        match self {
            Partition::Ranges { starts } => starts[rank] + l,
            Partition::Cyclic { ranks, .. } => l * ranks + rank as u32,
        }
    }

    /// How many nodes `rank` owns.
    pub fn count(&self, rank: usize) -> u32 {
        match self {
            Partition::Ranges { starts } => starts[rank + 1] - starts[rank],
            Partition::Cyclic { ranks, n } => {
                let (p, r) = (*ranks, rank as u32);
                n / p + u32::from(r < n % p)
            }
        }
    }

    /// Global ids in the order rank-ordered per-rank lists concatenate them (what
    /// `Net::gather` of per-node values gives): rank 0's nodes by local index, then rank 1's...
    pub fn global_order(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.ranks()).flat_map(move |r| (0..self.count(r)).map(move |l| self.global(r, l)))
    }

    pub fn name(&self) -> &'static str {
        match self {
            Partition::Ranges { .. } => "ranges",
            Partition::Cyclic { .. } => "hash",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(p: &Partition) {
        let n = p.num_nodes();
        let mut seen = vec![0u32; p.ranks()];
        for v in 0..n {
            let r = p.owner(v);
            assert_eq!(p.local(v), seen[r], "v={v}");
            assert_eq!(p.global(r, seen[r]), v);
            seen[r] += 1;
        }
        for (r, &c) in seen.iter().enumerate() {
            assert_eq!(p.count(r), c);
        }
    }

    #[test]
    fn layouts_are_bijections() {
        for ranks in 1..6 {
            for n in [0u32, 1, 5, 17, 100] {
                check(&Partition::by_nodes(ranks, n));
                check(&Partition::cyclic(ranks, n));
            }
        }
    }

    #[test]
    fn edge_balance_puts_a_hub_alone() {
        // Node 0 has 90 arcs, nodes 1..=10 one each.
        let offsets: Vec<u64> = std::iter::once(0).chain((0..=10).map(|i| 90 + i)).collect();
        let p = Partition::by_edges(2, 11, |v| offsets[v as usize]);
        assert_eq!(
            p,
            Partition::Ranges {
                starts: vec![0, 1, 11]
            }
        );
        check(&p);
        // More ranks than nodes: empty ranges, still a bijection.
        let p = Partition::by_edges(4, 2, |v| [0, 5, 10][v as usize]);
        check(&p);
    }
}

/// Which nodes one rank owns ([`Partition::locator`]).
#[derive(Clone, Copy, Debug)]
pub enum Locator {
    Range(InRange),
    Cyclic(InCycle),
}

/// A test of ownership for loops over arcs: generic code over the two layouts' tests has no
/// branch on the layout per arc.
pub trait Locate: Copy + Send + Sync {
    /// `v`'s local index if the rank owns it.
    fn local(self, v: u32) -> Option<u32>;
}

/// The nodes `start..start + len` (contiguous ranges).
#[derive(Clone, Copy, Debug)]
pub struct InRange {
    start: u32,
    len: u32,
}

/// The nodes `v` with `v mod ranks == rank` (hash).
#[derive(Clone, Copy, Debug)]
pub struct InCycle {
    ranks: u32,
    rank: u32,
}

/// Every node, local ids equal to global ones: the one rank of a job of one.
#[derive(Clone, Copy, Debug)]
pub struct Everything;

impl Locate for Everything {
    #[inline(always)]
    fn local(self, v: u32) -> Option<u32> {
        Some(v)
    }
}

impl Locate for InRange {
    #[inline]
    fn local(self, v: u32) -> Option<u32> {
        let l = v.wrapping_sub(self.start);
        (l < self.len).then_some(l)
    }
}

impl Locate for InCycle {
    #[inline]
    fn local(self, v: u32) -> Option<u32> {
        (v % self.ranks == self.rank).then(|| v / self.ranks)
    }
}

impl Locate for Locator {
    #[inline]
    fn local(self, v: u32) -> Option<u32> {
        match self {
            Locator::Range(r) => r.local(v),
            Locator::Cyclic(c) => c.local(v),
        }
    }
}
