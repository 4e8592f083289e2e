//! The residual network: every input arc u -> v (self-loops dropped) becomes a forward arc of
//! capacity w at u and a paired reverse arc of capacity 0 at v, both in u's and v's CSR rows,
//! so a node scans everything it can push along in one row.

use ordo_graph::Graph;
use std::collections::VecDeque;

pub struct Network {
    pub offsets: Vec<usize>,
    pub head: Vec<u32>,
    /// The index of the paired arc.
    pub rev: Vec<usize>,
    /// Original capacity (0 for reverse arcs).
    pub cap: Vec<u64>,
    /// For each input arc (CSR order), its forward arc here; `usize::MAX` for self-loops.
    pub forward_of_input: Vec<usize>,
}

impl Network {
    /// Capacities are the edge weights (1 on unweighted graphs).
    pub fn new(g: &Graph) -> Self {
        let n = g.num_nodes();
        let mut degree = vec![0usize; n + 1];
        for u in 0..n as u32 {
            for &v in g.neighbors(u) {
                if u != v {
                    degree[u as usize] += 1;
                    degree[v as usize] += 1;
                }
            }
        }
        let mut offsets = Vec::with_capacity(n + 1);
        let mut total = 0;
        for d in &degree[..n] {
            offsets.push(total);
            total += d;
        }
        offsets.push(total);
        let mut fill = offsets.clone();
        let mut head = vec![0u32; total];
        let mut rev = vec![0usize; total];
        let mut cap = vec![0u64; total];
        let mut forward_of_input = Vec::with_capacity(g.num_edges());
        for u in 0..n as u32 {
            for (v, w) in g.out_edges(u) {
                if u == v {
                    forward_of_input.push(usize::MAX);
                    continue;
                }
                let (a, b) = (fill[u as usize], fill[v as usize]);
                fill[u as usize] += 1;
                fill[v as usize] += 1;
                (head[a], rev[a], cap[a]) = (v, b, w as u64);
                (head[b], rev[b], cap[b]) = (u, a, 0);
                forward_of_input.push(a);
            }
        }
        Network {
            offsets,
            head,
            rev,
            cap,
            forward_of_input,
        }
    }

    pub fn num_nodes(&self) -> usize {
        self.offsets.len() - 1
    }

    #[inline]
    pub fn arcs(&self, u: u32) -> std::ops::Range<usize> {
        self.offsets[u as usize]..self.offsets[u as usize + 1]
    }

    /// Hop distances to `root` along residual arcs (`res(a) > 0`), `u32::MAX` where none.
    pub fn distances_to(&self, root: u32, res: impl Fn(usize) -> u64) -> Vec<u32> {
        let mut dist = vec![u32::MAX; self.num_nodes()];
        dist[root as usize] = 0;
        let mut queue = VecDeque::from([root]);
        while let Some(y) = queue.pop_front() {
            for a in self.arcs(y) {
                // x -> y is residual when the pair of y's arc a (y -> x) has capacity left.
                let x = self.head[a];
                if dist[x as usize] == u32::MAX && res(self.rev[a]) > 0 {
                    dist[x as usize] = dist[y as usize] + 1;
                    queue.push_back(x);
                }
            }
        }
        dist
    }

    /// Exact labels from the residual graph (the global relabelling heuristic): the distance
    /// to the sink, else n + the distance to the source, else 2n; the source keeps n.
    pub fn exact_heights(&self, s: u32, t: u32, res: impl Fn(usize) -> u64 + Copy) -> Vec<u32> {
        let n = self.num_nodes() as u32;
        let to_sink = self.distances_to(t, res);
        let to_source = self.distances_to(s, res);
        let mut h: Vec<u32> = (0..n as usize)
            .map(|v| match (to_sink[v], to_source[v]) {
                (d, _) if d != u32::MAX => d,
                (_, d) if d != u32::MAX => n + d,
                _ => 2 * n,
            })
            .collect();
        h[s as usize] = n;
        h
    }

    /// The nodes the source reaches along residual arcs: the source side of a minimum cut
    /// once the flow is maximum.
    pub fn source_side(&self, s: u32, res: impl Fn(usize) -> u64) -> Vec<bool> {
        let mut seen = vec![false; self.num_nodes()];
        seen[s as usize] = true;
        let mut stack = vec![s];
        while let Some(x) = stack.pop() {
            for a in self.arcs(x) {
                let y = self.head[a];
                if !seen[y as usize] && res(a) > 0 {
                    seen[y as usize] = true;
                    stack.push(y);
                }
            }
        }
        seen
    }
}
