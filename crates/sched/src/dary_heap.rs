//! A sequential d-ary min-heap of (priority, task) (d = 4 by default: shallower than a binary
//! heap and its children share a cache line).

#[derive(Debug, Clone)]
pub struct DaryHeap<T, const D: usize = 4> {
    items: Vec<(u64, T)>,
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
        self.items.first().map(|e| e.0)
    }

    #[inline]
    pub fn push(&mut self, priority: u64, task: T) {
        let mut i = self.items.len();
        self.items.push((priority, task));
        while i > 0 {
            let parent = (i - 1) / D;
            if self.items[parent].0 <= priority {
                break;
            }
            self.items[i] = self.items[parent];
            i = parent;
        }
        self.items[i] = (priority, task);
    }

    #[inline]
    pub fn pop(&mut self) -> Option<(u64, T)> {
        let last = self.items.pop()?;
        if self.items.is_empty() {
            return Some(last);
        }
        let top = self.items[0];
        let n = self.items.len();
        let mut i = 0;
        loop {
            let first = i * D + 1;
            if first >= n {
                break;
            }
            let end = (first + D).min(n);
            let mut best = first;
            for c in first + 1..end {
                if self.items[c].0 < self.items[best].0 {
                    best = c;
                }
            }
            if self.items[best].0 >= last.0 {
                break;
            }
            self.items[i] = self.items[best];
            i = best;
        }
        self.items[i] = last;
        Some(top)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
