//! Seeded, reproducible graph generators: Kronecker (Graph500), uniform random, and road-like
//! grids with coordinates.

use crate::builder::{BuildOptions, EdgeList};
use crate::csr::{Graph, IdBase};
use crate::error::{GraphError, Result};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

#[inline]
fn uniform(r: &mut Xoshiro256PlusPlus, n: u64) -> u64 {
    ((r.next_u64() >> 32) * n) >> 32
}

#[inline]
fn unit(r: &mut Xoshiro256PlusPlus) -> f64 {
    (r.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Graph500 Kronecker generator: 2^scale nodes, edge_factor * 2^scale arcs, initiator
/// probabilities A = 0.57, B = C = 0.19, D = 0.05, node labels randomly permuted.
pub fn kronecker(scale: u32, edge_factor: u32, seed: u64, opts: &BuildOptions) -> Result<Graph> {
    if !(1..=31).contains(&scale) {
        return Err(GraphError::Invalid(format!(
            "kronecker scale {scale} must be in 1..=31"
        )));
    }
    let n = 1u64 << scale;
    let m = n * edge_factor as u64;
    check_size(n, m)?;
    let (a, b, c) = (0.57, 0.19, 0.19);
    let mut r = rng(seed);
    let mut perm: Vec<u32> = (0..n as u32).collect();
    for i in (1..perm.len()).rev() {
        let j = uniform(&mut r, i as u64 + 1) as usize;
        perm.swap(i, j);
    }
    let mut el = EdgeList::with_capacity(n as u32, m as usize, false);
    for _ in 0..m {
        let (mut u, mut v) = (0u64, 0u64);
        for bit in 0..scale {
            let p = unit(&mut r);
            let (du, dv) = if p < a {
                (0, 0)
            } else if p < a + b {
                (0, 1)
            } else if p < a + b + c {
                (1, 0)
            } else {
                (1, 1)
            };
            u |= du << bit;
            v |= dv << bit;
        }
        el.push(perm[u as usize], perm[v as usize], 1);
    }
    el.build(opts, IdBase::Zero)
}

/// Uniform random (Erdos-Renyi G(n, m) style) directed graph with `m` arcs.
pub fn uniform_random(n: u64, m: u64, seed: u64, opts: &BuildOptions) -> Result<Graph> {
    if n == 0 {
        return Err(GraphError::Invalid(
            "uniform random graph needs at least one node".into(),
        ));
    }
    check_size(n, m)?;
    let mut r = rng(seed);
    let mut el = EdgeList::with_capacity(n as u32, m as usize, false);
    for _ in 0..m {
        let u = uniform(&mut r, n) as u32;
        let v = uniform(&mut r, n) as u32;
        el.push(u, v, 1);
    }
    el.build(opts, IdBase::Zero)
}

/// A road-like network: a `width x height` grid of jittered intersections, each joined to its
/// right and lower neighbours (about 10% of streets removed, a few diagonals added), both arc
/// directions, weight = ceil(Euclidean length) in coordinate units (100 per grid cell).
/// Coordinates are attached. High diameter and low degree, like real road graphs.
pub fn road_grid(width: u32, height: u32, seed: u64, opts: &BuildOptions) -> Result<Graph> {
    let n = width as u64 * height as u64;
    if n == 0 {
        return Err(GraphError::Invalid(
            "road grid needs width, height >= 1".into(),
        ));
    }
    check_size(n, n * 6)?;
    let mut r = rng(seed);
    let mut xy = Vec::with_capacity(2 * n as usize);
    for y in 0..height {
        for x in 0..width {
            xy.push(x as f64 * 100.0 + (unit(&mut r) - 0.5) * 60.0);
            xy.push(y as f64 * 100.0 + (unit(&mut r) - 0.5) * 60.0);
        }
    }
    let id = |x: u32, y: u32| y * width + x;
    let mut el = EdgeList::with_capacity(n as u32, n as usize * 5, true);
    let join = |el: &mut EdgeList, u: u32, v: u32| {
        let (dx, dy) = (
            xy[2 * u as usize] - xy[2 * v as usize],
            xy[2 * u as usize + 1] - xy[2 * v as usize + 1],
        );
        let w = (dx * dx + dy * dy).sqrt().ceil().max(1.0) as u32;
        el.push(u, v, w);
        el.push(v, u, w);
    };
    for y in 0..height {
        for x in 0..width {
            // Keep the spanning "comb" (row 0 and every column) so the grid stays connected.
            if x + 1 < width && (y == 0 || unit(&mut r) >= 0.1) {
                join(&mut el, id(x, y), id(x + 1, y));
            }
            if y + 1 < height {
                join(&mut el, id(x, y), id(x, y + 1));
            }
            if x + 1 < width && y + 1 < height && unit(&mut r) < 0.05 {
                join(&mut el, id(x, y), id(x + 1, y + 1));
            }
        }
    }
    let mut g = el.build(opts, IdBase::Zero)?;
    g.set_coords(xy)?;
    Ok(g)
}

fn check_size(n: u64, m: u64) -> Result<()> {
    if n >= u32::MAX as u64 {
        return Err(GraphError::Invalid(format!(
            "{n} nodes exceed ordo's 32-bit node ids"
        )));
    }
    if m > 1 << 34 {
        return Err(GraphError::Invalid(format!(
            "{m} arcs is more than ordo generates in memory"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &Graph, b: &Graph) -> bool {
        a.offsets() == b.offsets() && a.targets() == b.targets() && a.weights() == b.weights()
    }

    #[test]
    fn generators_are_deterministic_and_seed_dependent() {
        let o = BuildOptions::default();
        assert!(same(
            &kronecker(8, 8, 3, &o).unwrap(),
            &kronecker(8, 8, 3, &o).unwrap()
        ));
        assert!(!same(
            &kronecker(8, 8, 3, &o).unwrap(),
            &kronecker(8, 8, 4, &o).unwrap()
        ));
        assert!(same(
            &uniform_random(100, 500, 1, &o).unwrap(),
            &uniform_random(100, 500, 1, &o).unwrap()
        ));
        let g = road_grid(20, 10, 5, &o).unwrap();
        assert!(same(&g, &road_grid(20, 10, 5, &o).unwrap()));
        assert_eq!(g.num_nodes(), 200);
        assert!(g.coords().is_some());
    }

    #[test]
    fn kronecker_is_skewed() {
        let g = kronecker(12, 16, 1, &BuildOptions::default()).unwrap();
        assert_eq!(g.num_edges(), 16 << 12);
        let max_deg = (0..g.num_nodes() as u32)
            .map(|v| g.out_degree(v))
            .max()
            .unwrap();
        assert!(
            max_deg > 20 * 16,
            "Kronecker graphs have heavy hubs, max degree {max_deg}"
        );
    }
}
