//! The bucket width (`delta`) that SSSP and A* give obim-like schedulers when the user gives
//! none: one bucket per 2^delta distance units.
//!
//! Two regimes, told apart by the degree distribution:
//! * **Small-world graphs** (social, web, Kronecker; any graph with a hub or a mean degree
//!   above 8): Meyer & Sanders' Δ = Θ(max weight / degree) ("Δ-stepping", J. Algorithms 2003),
//!   with twice the mean weight standing in for the maximum so that one outlier weight does
//!   not move it. The Dijkstra front is a large part of the graph, so even narrow buckets hold
//!   plenty of work.
//! * **Lattice-like graphs** (road networks, meshes: every degree at most 16, mean at most 8):
//!   the front is thin, about sqrt(n) nodes, and a bucket Δ wide holds the front's nodes for
//!   about Δ / mean weight hops. Narrow buckets then hold a few dozen tasks each and the
//!   per-bucket costs (map syncs, chunk hand-offs, idle probes) dominate, so Δ is widened to
//!   about [`TASKS_PER_BUCKET`] tasks per bucket: Δ = mean weight x 4000 / sqrt(n).
//!
//! Fitted with `ordo sssp --delta K` sweeps (1 and 2 threads) on four of compare.py's graphs
//! and checked on eight more: the rule is within a step of the best delta on all but
//! princeton-usa (1.2x slower) and delaunay_n16; a rule on the maximum weight was up to 1.7x
//! slower (Seattle, whose largest weight is 177028).
//!
//! Across all of them the best delta leaves 30 to 350 buckets between the source and its
//! farthest node; a rule that estimated that distance (it needs a traversal) would do better
//! on the graphs this one misses.

use ordo_graph::Graph;

/// About how many tasks a bucket of a lattice-like graph should hold.
pub const TASKS_PER_BUCKET: f64 = 4000.0;

/// Graph figures the delta rule reads: one pass over the offsets and the weights. Sums and a
/// maximum, so ranks that each hold part of a graph can combine theirs.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct DeltaInputs {
    /// Nodes with at least one out-arc (isolated ids in a sparse numbering do not count).
    pub active_nodes: u64,
    pub arcs: u64,
    /// Sum of the arc weights (1 per arc when unweighted).
    pub weight_sum: f64,
    pub max_degree: u64,
}

impl DeltaInputs {
    pub fn of(g: &Graph) -> DeltaInputs {
        let mut inputs = DeltaInputs::from_csr(g.offsets(), None);
        inputs.weight_sum = g.weight_sum() as f64;
        inputs
    }

    /// The figures of a CSR (a whole graph, or one rank's part of one: ordo-dist sums the
    /// parts' figures and takes the largest degree).
    pub fn from_csr(offsets: &[u64], weights: Option<&[u32]>) -> DeltaInputs {
        let mut active_nodes = 0;
        let mut max_degree = 0;
        for w in offsets.windows(2) {
            let d = w[1] - w[0];
            active_nodes += u64::from(d > 0);
            max_degree = max_degree.max(d);
        }
        let arcs = offsets.last().map_or(0, |&e| e - offsets[0]);
        let weight_sum = match weights {
            Some(ws) => ws.iter().map(|&w| w as u64).sum::<u64>() as f64,
            None => arcs as f64,
        };
        DeltaInputs {
            active_nodes,
            arcs,
            weight_sum,
            max_degree,
        }
    }

    /// Every degree at most 16 and the mean at most 8: a road network or a mesh.
    pub fn lattice_like(&self) -> bool {
        self.max_degree <= 16 && self.mean_degree() <= 8.0
    }

    fn mean_degree(&self) -> f64 {
        (self.arcs as f64 / self.active_nodes.max(1) as f64).max(1.0)
    }

    fn mean_weight(&self) -> f64 {
        (self.weight_sum / self.arcs.max(1) as f64).max(1.0)
    }
}

/// The delta for a graph with these figures (module docs).
pub fn delta_for(g: &DeltaInputs) -> u32 {
    if g.arcs == 0 {
        return 0;
    }
    let small_world = (2.0 * g.mean_weight() / g.mean_degree())
        .max(1.0)
        .log2()
        .floor();
    let delta = if g.lattice_like() {
        let front = (g.active_nodes.max(1) as f64).sqrt();
        let lattice = (g.mean_weight() * TASKS_PER_BUCKET / front)
            .max(1.0)
            .log2()
            .round();
        small_world.max(lattice)
    } else {
        small_world
    };
    delta.min(40.0) as u32
}

/// [`delta_for`] of `g`.
pub fn default_delta(g: &Graph) -> u32 {
    delta_for(&DeltaInputs::of(g))
}

/// The width delta-stepping ([`crate::sssp::delta_step`]) runs with when the user gave none:
/// the rule's `delta` at two workers; on a lattice-like graph one step narrower for a single
/// worker and wider for more than two (about half a step per doubling of the team).
///
/// The rule above was fitted with rounds in mind: every bucket costs the team a minimum and a
/// barrier, so wide buckets pay on a road graph's thin front. A lone worker runs no rounds (it
/// goes from bucket to bucket on its own), so narrower buckets cost it only the look at an
/// empty one, and they re-relax fewer labels: one step narrower took 0.84-0.92x the time on
/// Rome and Seattle at 1 thread and was level on NY, Luxembourg and grid1m; two steps lost on
/// each. Social and Kronecker graphs were flat or mixed within a step either way, so they keep
/// the rule's width; at 2 threads the rule's width was within a step of the best on every
/// graph.
///
/// A larger team relaxes a bucket's entries in parallel, so a bucket pays for its rounds
/// only if it holds enough work for every worker, and the re-relaxations of a wider bucket
/// are shared out. A sweep on a 16-core Xeon (docs/measurement.md, "Sixteen cores") found the
/// best width one step above the rule at 4 and 8 workers on both road graphs, and two steps
/// above (grid) or one (NY) at 16 (grid1m at 16: 11.7 ms against 15.8 at the rule's width).
pub fn delta_stepping_width(delta: u32, inputs: &DeltaInputs, workers: usize) -> u32 {
    if !inputs.lattice_like() {
        return delta;
    }
    match workers {
        0 | 1 => delta.saturating_sub(1),
        2 => delta,
        w => delta + (0.5 * (w as f64 / 2.0).log2()).round() as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ordo_graph::{gen, BuildOptions, WeightSpec};

    #[test]
    fn a_road_grid_gets_wide_buckets_and_a_social_graph_narrow_ones() {
        // 100x100 grid, weights about 100: lattice-like, delta = log2(100 * 4000 / 100) = 12.
        let grid = gen::road_grid(100, 100, 3, &BuildOptions::default()).unwrap();
        let inputs = DeltaInputs::of(&grid);
        assert!(inputs.lattice_like(), "{inputs:?}");
        assert!((11..=12).contains(&default_delta(&grid)), "{inputs:?}");
        // A Kronecker graph with weights 1..255: hubs, so Meyer-Sanders: 256 / degree.
        let opts = BuildOptions {
            weights: Some(WeightSpec::DEFAULT),
            ..BuildOptions::default()
        };
        let kron = gen::kronecker(12, 16, 5, &opts).unwrap();
        let inputs = DeltaInputs::of(&kron);
        assert!(!inputs.lattice_like(), "{inputs:?}");
        let expect = (2.0 * inputs.weight_sum / inputs.arcs as f64 * inputs.active_nodes as f64
            / inputs.arcs as f64)
            .log2()
            .floor() as u32;
        assert_eq!(default_delta(&kron), expect);
    }

    #[test]
    fn one_huge_weight_does_not_move_delta() {
        let mut inputs = DeltaInputs {
            active_nodes: 1000,
            arcs: 10_000,
            weight_sum: 128.0 * 10_000.0,
            max_degree: 500,
        };
        let before = delta_for(&inputs);
        inputs.weight_sum += 1e6; // one arc of weight 10^6
        assert!(delta_for(&inputs) <= before + 1);
        assert_eq!(delta_for(&DeltaInputs::default()), 0);
    }

    /// A road network's figures, and the same with one hub.
    fn road_and_hub() -> (DeltaInputs, DeltaInputs) {
        let road = DeltaInputs {
            active_nodes: 10_000,
            arcs: 28_000,
            weight_sum: 100.0 * 28_000.0,
            max_degree: 6,
        };
        let hub = DeltaInputs {
            max_degree: 500,
            ..road
        };
        (road, hub)
    }

    #[test]
    fn a_lone_worker_narrows_only_a_lattice_width() {
        let (road, hub) = road_and_hub();
        assert!(road.lattice_like() && !hub.lattice_like());
        assert_eq!(delta_stepping_width(12, &road, 1), 11);
        assert_eq!(delta_stepping_width(12, &road, 2), 12);
        assert_eq!(delta_stepping_width(0, &road, 1), 0);
        assert_eq!(delta_stepping_width(5, &hub, 1), 5);
    }

    #[test]
    fn a_larger_team_widens_only_a_lattice_width() {
        let (road, hub) = road_and_hub();
        let widths: Vec<u32> = [3, 4, 8, 16, 64]
            .iter()
            .map(|&w| delta_stepping_width(9, &road, w))
            .collect();
        assert_eq!(widths, [9, 10, 10, 11, 12]);
        assert_eq!(delta_stepping_width(5, &hub, 16), 5);
    }
}
