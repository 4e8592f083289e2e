//! A sequential d-ary min-heap of (priority, task) (d = 4 by default: shallower than a binary
//! heap and its children share a cache line).

/// A heap entry packed to 4-byte alignment, so a 12-byte task makes a 20-byte entry, not 24.
#[repr(C, packed(4))]
struct Entry<T> {
    priority: u64,
    task: T,
}

impl<T: Copy> Clone for Entry<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Copy> Copy for Entry<T> {}

pub struct DaryHeap<T, const D: usize = 4> {
    items: Vec<Entry<T>>,
}

impl<T: Copy, const D: usize> Default for DaryHeap<T, D> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy, const D: usize> DaryHeap<T, D> {
    pub fn new() -> Self {
        assert!(D >= 2);
        DaryHeap { items: Vec::new() }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The smallest priority, if any.
    #[inline]
    pub fn peek_priority(&self) -> Option<u64> {
        self.items.first().map(|e| e.priority)
    }

    /// The task with the smallest priority, if any.
    #[inline]
    pub fn peek_task(&self) -> Option<T> {
        self.items.first().map(|e| e.task)
    }

    #[inline]
    pub fn push(&mut self, priority: u64, task: T) {
        let i = self.items.len();
        let e = Entry { priority, task };
        self.items.push(e);
        self.sift_up(i, e);
    }

    /// Puts `entry` at hole `i` or above it, moving larger parents down.
    #[inline]
    fn sift_up(&mut self, mut i: usize, entry: Entry<T>) {
        let items = &mut self.items[..];
        while i > 0 {
            let parent = (i - 1) / D;
            if { items[parent].priority } <= { entry.priority } {
                break;
            }
            items[i] = items[parent];
            i = parent;
        }
        items[i] = entry;
    }

    /// Removes the smallest entry.
    ///
    /// Bottom-up deletion (Wegener; what `std`'s `BinaryHeap::pop` does): the hole left by the
    /// top walks down to a leaf along the smallest children, then the last entry sifts up from
    /// there. The last entry almost always belongs near the bottom, so this saves a comparison
    /// per level against sifting it down from the root.
    #[inline]
    pub fn pop(&mut self) -> Option<(u64, T)> {
        let last = self.items.pop()?;
        if self.items.is_empty() {
            return Some((last.priority, last.task));
        }
        let top = self.items[0];
        let n = self.items.len();
        let items = &mut self.items[..];
        let mut hole = 0;
        loop {
            let first = hole * D + 1;
            if first >= n {
                break;
            }
            // All D children exist except at the last parent. Two calls on purpose: the
            // constant-length slice of the common case lets the compiler unroll the scan
            // (one call on `first..min(first + D, n)` costs ~40% more instructions).
            let best = first
                + if first + D <= n {
                    smallest_full::<T, D>(&items[first..first + D])
                } else {
                    smallest(&items[first..n])
                };
            items[hole] = items[best];
            hole = best;
        }
        self.sift_up(hole, last);
        Some((top.priority, top.task))
    }
}

/// The index of the smallest of `D` children, the first of equals.
///
/// For four, a branch-free tournament: which child is smallest is a coin toss the branch
/// predictor often loses, and a lost branch per level costs more than the level's comparisons
/// (`docs/measurement.md`, "The heaps' pop").
#[inline(always)]
fn smallest_full<T: Copy, const D: usize>(kids: &[Entry<T>]) -> usize {
    if D != 4 {
        return smallest(kids);
    }
    let (p0, p1, p2, p3) = (
        kids[0].priority,
        kids[1].priority,
        kids[2].priority,
        kids[3].priority,
    );
    let left = (p1 < p0) as usize;
    let right = 2 + (p3 < p2) as usize;
    let right_wins = (p2.min(p3) < p0.min(p1)) as usize;
    // `left` or `right` without a branch: the mask is all ones when the right pair wins.
    left ^ ((left ^ right) & right_wins.wrapping_neg())
}

/// The index of the entry with the smallest priority in a non-empty slice.
#[inline(always)]
fn smallest<T: Copy>(kids: &[Entry<T>]) -> usize {
    let mut best = 0;
    for (c, kid) in kids.iter().enumerate().skip(1) {
        if { kid.priority } < { kids[best].priority } {
            best = c;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The branch-free pick agrees with the scan on every order of four children, ties
    /// included (the first of equals wins).
    #[test]
    fn tournament_picks_as_the_scan_does() {
        for code in 0..81u32 {
            let kids: Vec<Entry<u32>> = (0..4)
                .map(|i| Entry {
                    priority: u64::from(code / 3u32.pow(i) % 3),
                    task: i,
                })
                .collect();
            assert_eq!(
                smallest_full::<u32, 4>(&kids),
                smallest(&kids),
                "priorities {:?}",
                kids.iter().map(|k| k.priority).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn pops_in_priority_order() {
        let mut h: DaryHeap<u32> = DaryHeap::new();
        let mut x: u64 = 12345;
        let mut all = Vec::new();
        for i in 0..2000u32 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let p = (x >> 40) % 500;
            h.push(p, i);
            all.push(p);
        }
        all.sort();
        let popped: Vec<u64> = std::iter::from_fn(|| h.pop().map(|e| e.0)).collect();
        assert_eq!(popped, all);
    }
}
