//! The serial oracle: Dinic's algorithm (BFS level graph, then blocking flows by depth-first
//! search with current-arc pointers), an independent route to the maximum flow's value.

use super::network::Network;
use std::collections::VecDeque;

/// The maximum flow value from `s` to `t`.
pub fn dinic(net: &Network, s: u32, t: u32) -> u64 {
    let n = net.num_nodes();
    let mut res: Vec<u64> = net.capacities().collect();
    let mut flow = 0u64;
    let mut level = vec![u32::MAX; n];
    let mut current = vec![0usize; n];
    loop {
        level.iter_mut().for_each(|l| *l = u32::MAX);
        level[s as usize] = 0;
        let mut queue = VecDeque::from([s]);
        while let Some(x) = queue.pop_front() {
            for a in net.arcs(x) {
                let y = net.head[a] as usize;
                if res[a] > 0 && level[y] == u32::MAX {
                    level[y] = level[x as usize] + 1;
                    queue.push_back(y as u32);
                }
            }
        }
        if level[t as usize] == u32::MAX {
            return flow;
        }
        for (v, c) in current.iter_mut().enumerate() {
            *c = net.row_start(v);
        }
        // Iterative DFS: `path` holds the arcs from s to the current node.
        let mut path: Vec<usize> = Vec::new();
        loop {
            let x = path.last().map_or(s, |&a| net.head[a]) as usize;
            if x == t as usize {
                let push = path.iter().map(|&a| res[a]).min().unwrap_or(0);
                let mut u = s;
                for &a in &path {
                    let v = net.head[a];
                    res[a] -= push;
                    res[net.reverse(a, u, v)] += push;
                    u = v;
                }
                flow += push;
                // Back up to the first saturated arc.
                let cut = path.iter().position(|&a| res[a] == 0).unwrap_or(0);
                path.truncate(cut);
                continue;
            }
            let end = net.row_start(x + 1);
            while current[x] < end {
                let a = current[x];
                let y = net.head[a] as usize;
                if res[a] > 0 && level[y] == level[x] + 1 {
                    break;
                }
                current[x] += 1;
            }
            if current[x] < end {
                path.push(current[x]);
            } else {
                // Dead end: retreat and skip the arc that led here.
                if path.pop().is_none() {
                    break;
                }
                let from = path.last().map_or(s, |&a| net.head[a]) as usize;
                current[from] += 1;
            }
        }
    }
}
