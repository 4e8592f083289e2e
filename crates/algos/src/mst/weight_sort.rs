//! Sorting edges that are already in `(a, b)` order by weight alone, stably, which puts them
//! in the full `(weight, a, b)` order: a least-significant-digit radix sort on the 32-bit
//! weight, O(m) against a comparison sort's O(m log m).
//!
//! Byte digits keep the counts in L1 and the scatter to 256 streams; a digit that every edge
//! shares (the high bytes of small weights) costs no pass. Measured on USA-road-d.NY (366K
//! edges, weights below 2^16): two passes.

use super::Edge;

/// Below this many edges the standard library's stable sort takes them: each pass clears and
/// sums 256 counters, about as much work as a few hundred edges. (Chosen, not tuned.)
const RADIX_FROM: usize = 1 << 10;

/// Sorts `edges` by weight, keeping the order of equal weights; `scratch` is at least as long.
pub(crate) fn sort_by_weight(edges: &mut [Edge], scratch: &mut [Edge]) {
    if edges.len() < RADIX_FROM {
        edges.sort_by_key(|e| e.weight);
        return;
    }
    let mut counts = [[0u32; 256]; 4];
    for e in edges.iter() {
        for (digit, c) in counts.iter_mut().enumerate() {
            c[(e.weight >> (8 * digit)) as usize & 255] += 1;
        }
    }
    let buffer = &mut scratch[..edges.len()];
    // The sorted edges are in `edges` when `in_buffer` is false.
    let mut in_buffer = false;
    let first = edges[0].weight;
    for (digit, c) in counts.iter().enumerate() {
        let shift = 8 * digit;
        if c[(first >> shift) as usize & 255] as usize == edges.len() {
            continue;
        }
        let mut next = [0u32; 256];
        let mut sum = 0;
        for (n, &count) in next.iter_mut().zip(c) {
            *n = sum;
            sum += count;
        }
        let (from, to): (&[Edge], &mut [Edge]) = if in_buffer {
            (&*buffer, &mut *edges)
        } else {
            (&*edges, &mut *buffer)
        };
        for &e in from {
            let slot = &mut next[(e.weight >> shift) as usize & 255];
            to[*slot as usize] = e;
            *slot += 1;
        }
        in_buffer = !in_buffer;
    }
    if in_buffer {
        edges.copy_from_slice(buffer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equals_a_comparison_sort_from_ab_order() {
        let mut state = 3u64;
        for (len, max_weight) in [(0, 1), (5, 3), (1500, 1), (5000, 7), (20000, u64::MAX)] {
            let mut edges: Vec<Edge> = (0..len)
                .map(|i| {
                    state = ordo_graph::mix64(state);
                    let weight = (state % max_weight.min(1 << 32)) as u32;
                    Edge::new(i / 3, i / 3 + 1 + i % 3, weight)
                })
                .collect();
            let mut expected = edges.clone();
            expected.sort_unstable();
            let mut scratch = edges.clone();
            sort_by_weight(&mut edges, &mut scratch);
            assert_eq!(edges, expected, "{len} edges, weights below {max_weight}");
        }
    }
}
