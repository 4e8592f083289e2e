//! The residual network: one arc each way between every two nodes that an input arc joins
//! (self-loops dropped). The arc u -> v has the capacity of all the input arcs u -> v (0 when
//! there are none) and is paired with the arc v -> u in v's CSR row, so a node scans
//! everything it can push along in one row.
//!
//! Antiparallel input arcs share one pair: a symmetric graph (a road network) has two network
//! arcs per edge, not four, which halves what a discharge and a global relabel scan (Galois'
//! preflowpush adds a reverse arc only where the input lacks one). The flow on an input arc is
//! recovered from its pair's net flow ([`Network::input_flows`]).

use ordo_graph::Graph;

pub struct Network {
    pub offsets: Vec<usize>,
    pub head: Vec<u32>,
    /// The index of the paired arc (u32: half the bytes a global relabel streams through;
    /// [`Network::MAX_INPUT_ARCS`] keeps the indices in range).
    pub rev: Vec<u32>,
    /// Capacity: the sum of the input arcs' weights in this direction (0 where none).
    pub cap: Vec<u64>,
    /// For each input arc (CSR order), its arc here; `usize::MAX` for self-loops.
    pub arc_of_input: Vec<usize>,
}

impl Network {
    /// The most input arcs a network is built from: each makes at most two arcs here, whose
    /// indices must fit in `u32`.
    pub const MAX_INPUT_ARCS: usize = (u32::MAX / 2) as usize;

    /// Capacities are the edge weights (1 on unweighted graphs). Panics on a graph of more
    /// than [`Network::MAX_INPUT_ARCS`] arcs (`pfp::run` and the application check first).
    pub fn new(g: &Graph) -> Self {
        assert!(
            g.num_edges() <= Self::MAX_INPUT_ARCS,
            "a flow network of at most 2^31 arcs"
        );
        let n = g.num_nodes();
        // Every input arc u -> v puts v in u's row and u in v's row; each row is then sorted
        // and its repeats merged, so the pair of (u, v) is found by a binary search.
        let mut degree = vec![0usize; n + 1];
        for u in 0..n as u32 {
            for &v in g.neighbors(u) {
                if u != v {
                    degree[u as usize] += 1;
                    degree[v as usize] += 1;
                }
            }
        }
        let mut start = Vec::with_capacity(n + 1);
        let mut total = 0;
        for d in &degree[..n] {
            start.push(total);
            total += d;
        }
        start.push(total);
        // (neighbour, capacity towards it) in each row, before merging.
        let mut entries = vec![(0u32, 0u64); total];
        let mut fill = start.clone();
        for u in 0..n as u32 {
            for (v, w) in g.out_edges(u) {
                if u != v {
                    entries[fill[u as usize]] = (v, w as u64);
                    entries[fill[v as usize]] = (u, 0);
                    fill[u as usize] += 1;
                    fill[v as usize] += 1;
                }
            }
        }
        let mut offsets = Vec::with_capacity(n + 1);
        let (mut head, mut cap) = (Vec::with_capacity(total), Vec::with_capacity(total));
        for u in 0..n {
            offsets.push(head.len());
            let row = &mut entries[start[u]..start[u + 1]];
            row.sort_unstable_by_key(|e| e.0);
            for &(v, c) in row.iter() {
                match (head[offsets[u]..].last(), cap.last_mut()) {
                    // A repeat of the row's last neighbour: one arc, capacities added.
                    (Some(&last), Some(sum)) if last == v => *sum += c,
                    _ => {
                        head.push(v);
                        cap.push(c);
                    }
                }
            }
        }
        offsets.push(head.len());
        drop(entries);
        let arc = |u: u32, v: u32| -> usize {
            let row = offsets[u as usize]..offsets[u as usize + 1];
            // Present: every input arc put each end in the other's row.
            row.start + head[row].binary_search(&v).expect("paired arc")
        };
        let rev = (0..n as u32)
            .flat_map(|u| (offsets[u as usize]..offsets[u as usize + 1]).map(move |a| (u, a)))
            .map(|(u, a)| arc(head[a], u) as u32)
            .collect();
        let arc_of_input = (0..n as u32)
            .flat_map(|u| g.neighbors(u).iter().map(move |&v| (u, v)))
            .map(|(u, v)| if u == v { usize::MAX } else { arc(u, v) })
            .collect();
        Network {
            offsets,
            head,
            rev,
            cap,
            arc_of_input,
        }
    }

    /// The flow on every input arc (CSR order) of `g`, the graph this network was built from,
    /// given the residual capacities. A pair's net flow `cap(u -> v) - res(u -> v)` goes to the
    /// input arcs u -> v when positive (filling them in order, each to its weight), else to the
    /// arcs v -> u: conservation holds as in the network, and no arc exceeds its weight, as
    /// the net flow is at most the capacity in its direction.
    pub fn input_flows(&self, g: &Graph, res: impl Fn(usize) -> u64) -> Vec<u64> {
        // What is left to hand out along each network arc with a positive net flow.
        let mut left: Vec<u64> = (0..self.head.len())
            .map(|a| self.cap[a].saturating_sub(res(a)))
            .collect();
        let weights = (0..g.num_nodes() as u32).flat_map(|u| g.out_edges(u).map(|(_, w)| w));
        self.arc_of_input
            .iter()
            .zip(weights)
            .map(|(&a, w)| match a {
                usize::MAX => 0, // a self-loop
                _ => {
                    let f = left[a].min(w as u64);
                    left[a] -= f;
                    f
                }
            })
            .collect()
    }

    pub fn num_nodes(&self) -> usize {
        self.offsets.len() - 1
    }

    #[inline]
    pub fn arcs(&self, u: u32) -> std::ops::Range<usize> {
        self.offsets[u as usize]..self.offsets[u as usize + 1]
    }

    #[cfg(test)]
    /// Hop distances to `root` along residual arcs (`res(a) > 0`), `u32::MAX` where none.
    pub fn distances_to(&self, root: u32, res: impl Fn(usize) -> u64) -> Vec<u32> {
        let mut dist = vec![u32::MAX; self.num_nodes()];
        dist[root as usize] = 0;
        let mut queue = std::collections::VecDeque::from([root]);
        while let Some(y) = queue.pop_front() {
            for a in self.arcs(y) {
                // x -> y is residual when the pair of y's arc a (y -> x) has capacity left.
                let x = self.head[a];
                if dist[x as usize] == u32::MAX && res(self.rev[a] as usize) > 0 {
                    dist[x as usize] = dist[y as usize] + 1;
                    queue.push_back(x);
                }
            }
        }
        dist
    }

    #[cfg(test)]
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

    /// The nodes that cannot reach the sink `t` along residual arcs: the source side of a
    /// minimum cut once the preflow is maximum (no node holding excess reaches the sink then,
    /// so the arcs into the other side are saturated and the arcs out of it carry nothing).
    /// For a preflow, the nodes the source reaches would not do: a node holding excess need
    /// not be one of them.
    pub fn source_side(&self, t: u32, res: impl Fn(usize) -> u64) -> Vec<bool> {
        let mut reaches_sink = vec![false; self.num_nodes()];
        reaches_sink[t as usize] = true;
        let mut stack = vec![t];
        while let Some(y) = stack.pop() {
            for a in self.arcs(y) {
                // x -> y is residual when the pair of y's arc a (y -> x) has capacity left.
                let x = self.head[a];
                if !reaches_sink[x as usize] && res(self.rev[a] as usize) > 0 {
                    reaches_sink[x as usize] = true;
                    stack.push(x);
                }
            }
        }
        reaches_sink.iter().map(|&r| !r).collect()
    }
}
