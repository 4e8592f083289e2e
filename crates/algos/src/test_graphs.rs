//! Small graphs for the unit tests.

use ordo_graph::{BuildOptions, EdgeList, Graph, IdBase};

/// The directed graph on `n` nodes with the arcs `(from, to, weight)`.
pub fn weighted(n: u32, arcs: &[(u32, u32, u32)]) -> Graph {
    let mut el = EdgeList::with_capacity(n, arcs.len(), true);
    for &(a, b, w) in arcs {
        el.push(a, b, w);
    }
    el.build(&BuildOptions::default(), IdBase::Zero).unwrap()
}

/// A graph whose levels from node 0 go thin, thick, thin (the run-ahead tests: one worker,
/// then the team, then one worker again): a path of `path` nodes, a fan of `fan` leaves off
/// its end, each leaf joined to one of the `tail` nodes of a second path. Unweighted, every
/// edge in both directions.
pub fn thin_thick_thin(path: u32, fan: u32, tail: u32) -> Graph {
    let mut edges: Vec<(u32, u32)> = (0..path - 1).map(|i| (i, i + 1)).collect();
    edges.extend((0..fan).map(|j| (path - 1, path + j)));
    edges.extend((0..fan).map(|j| (path + j, path + fan + j % tail)));
    edges.extend((0..tail - 1).map(|i| (path + fan + i, path + fan + i + 1)));
    let n = path + fan + tail;
    let mut el = EdgeList::with_capacity(n, 2 * edges.len(), false);
    for (a, b) in edges {
        el.push(a, b, 1);
        el.push(b, a, 1);
    }
    el.build(&BuildOptions::default(), IdBase::Zero).unwrap()
}

/// `k` stages of `width` two-hop paths side by side between consecutive joins (join `i` is
/// node `i (width + 1)`, its stage's middles the `width` nodes after it): `width^k` shortest
/// paths from node 0 to the last join, and levels `width` nodes wide. Unweighted, every edge
/// in both directions.
pub fn wide_diamonds(k: u32, width: u32) -> Graph {
    let mut arcs = Vec::new();
    for i in 0..k {
        let (join, next) = (i * (width + 1), (i + 1) * (width + 1));
        for m in join + 1..next {
            for (x, y) in [(join, m), (m, next)] {
                arcs.push((x, y, 1));
                arcs.push((y, x, 1));
            }
        }
    }
    weighted(k * (width + 1) + 1, &arcs)
}

/// A chain of `k` diamonds: join nodes `3i` (i = 0..=k), and between joins `3i` and
/// `3i + 3` the two middle nodes `3i + 1` and `3i + 2`; undirected. From node 0 the join
/// `3k` has 2^k shortest paths.
pub fn diamonds(k: u32) -> Graph {
    wide_diamonds(k, 2)
}
