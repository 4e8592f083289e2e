//! Getting each rank its part of the graph without any rank holding the whole of it (except
//! for text input, which rank 0 parses once and scatters).
//!
//! * **ordo binary files** (`.ordo`): each rank reads the 64-byte header, finds the edge-
//!   balanced cut points by binary search over the offsets section (a few dozen 8-byte reads),
//!   then reads only its own slice of offsets, targets and weights. The header's sizes are
//!   checked against the file's length before anything is allocated, and the slice against
//!   the CSR invariants (monotone offsets, targets below n). The whole-file checksum cannot
//!   be checked by a rank that reads a part; `ordo info FILE` checks it.
//! * **text formats and `.ordo.gz`**: rank 0 loads the graph with ordo's readers (every format
//!   `ordo` reads) and sends each rank its range.
//! * **generators** (`gen:...`): each rank generates its share of the arcs in fixed blocks
//!   seeded by block number, so the graph does not depend on the number of ranks, and sends
//!   every arc to its owner. See [`GenSpec`].

use crate::graph::{Arcs, ArcsTo, LocalGraph};
use crate::net::{DistError, DistResult, Net};
use crate::partition::Partition;
use ordo_graph::formats::binary;
use ordo_graph::{mix64, Format, IdBase, LoadOptions};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;

/// Where the graph comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    File(std::path::PathBuf),
    Gen(GenSpec),
}

/// A generated graph, the same for any number of ranks.
#[derive(Debug, Clone, PartialEq)]
pub enum GenSpec {
    /// `gen:kronecker:SCALE[:EDGE_FACTOR]`: Graph500 parameters (A=0.57, B=C=0.19), 2^SCALE
    /// nodes, EDGE_FACTOR (default 16) x 2^SCALE arcs, ids scrambled by a bijective hash.
    Kronecker { scale: u32, edge_factor: u32 },
    /// `gen:er:SCALE[:FACTOR]`: Erdos-Renyi in the shape of DIMACS10's `er-fact1.5-scaleN`
    /// (the inputs of the dynamic-tasking paper, Drocco et al., SC'18 poster): n = 2^SCALE
    /// nodes, FACTOR (default 1.5) x n ln(n) / 2 uniform random pairs.
    Er { scale: u32, factor: f64 },
    /// `gen:uniform:N:M`: M uniform random arcs over N nodes.
    Uniform { n: u64, m: u64 },
}

impl Source {
    pub fn parse(s: &str) -> DistResult<Source> {
        let Some(rest) = s.strip_prefix("gen:") else {
            return Ok(Source::File(s.into()));
        };
        let bad = |why: &str| {
            DistError::Usage(format!(
                "bad generator '{s}': {why} (try gen:kronecker:20, gen:er:18 or gen:uniform:1000:8000)"
            ))
        };
        let parts: Vec<&str> = rest.split(':').collect();
        let num = |i: usize| -> DistResult<Option<u64>> {
            parts
                .get(i)
                .map(|x| {
                    x.parse::<u64>()
                        .map_err(|_| bad(&format!("'{x}' is not a number")))
                })
                .transpose()
        };
        let spec = match parts[0] {
            "kronecker" | "kron" => GenSpec::Kronecker {
                scale: num(1)?.ok_or_else(|| bad("missing SCALE"))? as u32,
                edge_factor: num(2)?.unwrap_or(16) as u32,
            },
            "er" => GenSpec::Er {
                scale: num(1)?.ok_or_else(|| bad("missing SCALE"))? as u32,
                factor: parts
                    .get(2)
                    .map(|x| x.parse::<f64>().map_err(|_| bad("FACTOR is not a number")))
                    .transpose()?
                    .unwrap_or(1.5),
            },
            "uniform" => GenSpec::Uniform {
                n: num(1)?.ok_or_else(|| bad("missing N"))?,
                m: num(2)?.ok_or_else(|| bad("missing M"))?,
            },
            other => return Err(bad(&format!("unknown generator '{other}'"))),
        };
        let (n, m) = spec.size();
        if n == 0 || n >= u32::MAX as u64 || m > (1u64 << 40) {
            return Err(bad(&format!("{n} nodes and {m} arcs are out of range")));
        }
        if let GenSpec::Kronecker { scale, .. } | GenSpec::Er { scale, .. } = spec {
            if !(1..=31).contains(&scale) {
                return Err(bad("SCALE must be in 1..=31"));
            }
        }
        Ok(Source::Gen(spec))
    }
}

impl GenSpec {
    /// (nodes, arcs generated before merging repeats).
    pub fn size(&self) -> (u64, u64) {
        match *self {
            GenSpec::Kronecker { scale, edge_factor } => {
                let n = 1u64 << scale.min(40);
                (n, n * edge_factor as u64)
            }
            GenSpec::Er { scale, factor } => {
                let n = 1u64 << scale.min(40);
                (
                    n,
                    (factor * n as f64 * (n as f64).ln() / 2.0).round() as u64,
                )
            }
            GenSpec::Uniform { n, m } => (n, m),
        }
    }
}

/// Loads this rank's part with the input flags applied (`opts`, as `ordo` applies them).
/// Every rank calls it together; a rank that fails reports its own error and the others
/// learn which rank failed (no rank is left waiting).
pub fn load(
    net: &Net,
    src: &Source,
    opts: &LoadOptions,
    hashed: bool,
    seed: u64,
) -> DistResult<LocalGraph> {
    let g = match src {
        Source::Gen(_) if opts.format.is_some() => {
            return Err(DistError::Usage(
                "--format applies to graph files, not to generators".into(),
            ))
        }
        Source::Gen(spec) => generate(net, spec, seed)?,
        Source::File(path) => {
            let binary = matches!(opts.format, None | Some(Format::Binary));
            if binary && is_plain_binary(path) {
                net.agree(read_binary_part(net, path))?
            } else {
                scatter_text(net, path, opts.format)?
            }
        }
    };
    // The flags and the hashed layout are one pass of arcs to their owners.
    if !opts.build.changes_graph() && !hashed {
        return Ok(g);
    }
    let part = if hashed {
        Partition::cyclic(net.size, g.num_nodes())
    } else {
        g.part.clone()
    };
    g.rebuild(net, &opts.build, part)
}

fn is_plain_binary(path: &Path) -> bool {
    let mut magic = [0u8; 8];
    File::open(path)
        .and_then(|f| f.read_exact_at(&mut magic, 0))
        .is_ok_and(|_| &magic == binary::MAGIC)
}

fn read_u64(f: &File, at: u64) -> std::io::Result<u64> {
    let mut b = [0u8; 8];
    f.read_exact_at(&mut b, at)?;
    Ok(u64::from_le_bytes(b))
}

fn read_vec<T: Copy + Default>(
    f: &File,
    at: u64,
    len: usize,
    decode: fn(&[u8]) -> T,
) -> std::io::Result<Vec<T>> {
    let size = std::mem::size_of::<T>();
    let mut out = Vec::with_capacity(len);
    let mut buf = vec![0u8; (1 << 20) * size];
    let mut done = 0usize;
    while done < len {
        let k = (len - done).min(1 << 20);
        let bytes = &mut buf[..k * size];
        f.read_exact_at(bytes, at + (done * size) as u64)?;
        out.extend(bytes.chunks_exact(size).map(decode));
        done += k;
    }
    Ok(out)
}

fn le_u64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b.try_into().expect("8 bytes"))
}

fn le_u32(b: &[u8]) -> u32 {
    u32::from_le_bytes(b.try_into().expect("4 bytes"))
}

/// This rank's slice of an ordo binary file (format: `ordo_graph::formats::binary`).
fn read_binary_part(net: &Net, path: &Path) -> DistResult<LocalGraph> {
    let shown = path.display();
    let io = |e: std::io::Error| DistError::Failed(format!("{shown}: {e}"));
    let bad = |why: String| DistError::Failed(format!("{shown}: {why}"));
    let f = File::open(path).map_err(io)?;
    let len = f.metadata().map_err(io)?.len();
    let mut head = [0u8; binary::HEADER_BYTES];
    f.read_exact_at(&mut head, 0)
        .map_err(|_| bad("shorter than an ordo binary header".into()))?;
    let h = binary::parse_header(path, &head, len).map_err(|e| DistError::Failed(e.to_string()))?;
    let (n, m) = (h.n, h.m);
    // Single offsets while cutting. The length check makes a failed read unlikely (the file
    // would have to shrink under us); it then cuts at the end, and the slice read below fails.
    let offset_of = |v: u32| read_u64(&f, h.offsets + 8 * v as u64).unwrap_or(u64::MAX);
    let part = Partition::by_edges(net.size, n as u32, offset_of);
    let r = net.rank;
    let (lo, hi) = (part.global(r, 0), part.global(r, 0) + part.count(r));
    let offsets = read_vec(
        &f,
        h.offsets + 8 * lo as u64,
        (hi - lo) as usize + 1,
        le_u64,
    )
    .map_err(io)?;
    if offsets.windows(2).any(|w| w[0] > w[1]) || offsets.last().copied().unwrap_or(0) > m {
        return Err(bad(format!(
            "offsets of nodes {lo}..{hi} are not a valid CSR (decreasing or beyond m={m})"
        )));
    }
    if lo == 0 && offsets[0] != 0 {
        return Err(bad("the first offset is not 0".into()));
    }
    let (a, b) = (offsets[0], *offsets.last().expect("hi >= lo"));
    let k = (b - a) as usize;
    let targets = read_vec(&f, h.targets + 4 * a, k, le_u32).map_err(io)?;
    if let Some(t) = targets.iter().find(|&&t| t as u64 >= n) {
        return Err(bad(format!("target {t} is not below n={n}")));
    }
    let weights = match h.weights {
        Some(at) => Some(read_vec(&f, at + 4 * a, k, le_u32).map_err(io)?),
        None => None,
    };
    let csr = (offsets.iter().map(|o| o - a).collect(), targets, weights);
    let id_base = if h.one_based {
        IdBase::One
    } else {
        IdBase::Zero
    };
    Ok(LocalGraph::new(net, part, m, csr, id_base, "ordo"))
}

/// Rank 0 parses a text (or compressed) graph and sends each rank its edge-balanced range.
fn scatter_text(net: &Net, path: &Path, format: Option<Format>) -> DistResult<LocalGraph> {
    let loaded = if net.rank == 0 {
        let opts = LoadOptions {
            format,
            ..LoadOptions::default()
        };
        ordo_graph::load_graph(path, &opts, None)
            .map(Some)
            .map_err(|e| DistError::Failed(e.to_string()))
    } else {
        Ok(None)
    };
    let loaded = net.agree(loaded)?;
    // Rank 0 tells everyone n, m, whether weighted, the id base, and the cut points.
    let mut head = [0u64; 4];
    if let Some(l) = &loaded {
        let g = &l.graph;
        head = [
            g.num_nodes() as u64,
            g.num_edges() as u64,
            u64::from(g.is_weighted()),
            u64::from(g.id_base() == IdBase::One),
        ];
    }
    use mpi::traits::{Communicator, Root};
    let root = net.world.process_at_rank(0);
    root.broadcast_into(&mut head[..]);
    let [n, m, weighted, one_based] = head;
    let part = match &loaded {
        Some(l) => Partition::by_edges(net.size, n as u32, |v| l.graph.offsets()[v as usize]),
        None => Partition::by_nodes(net.size, n as u32),
    };
    let mut starts: Vec<u32> = match &part {
        Partition::Ranges { starts } => starts.clone(),
        Partition::Cyclic { .. } => unreachable!("ranges"),
    };
    root.broadcast_into(&mut starts[..]);
    let part = Partition::Ranges { starts };
    let mut arcs = ArcsTo::new(net.size);
    if let Some(l) = &loaded {
        let g = &l.graph;
        for u in 0..n as u32 {
            let to = part.owner(u);
            for (v, w) in g.out_edges(u) {
                arcs.push(to, u, v, w);
            }
        }
    }
    let format = loaded
        .as_ref()
        .map_or("text", |l| l.format.name())
        .to_string();
    drop(loaded);
    let csr = LocalGraph::from_arcs(net, part.clone(), arcs, weighted != 0, Arcs::Keep)?;
    let id_base = if one_based != 0 {
        IdBase::One
    } else {
        IdBase::Zero
    };
    Ok(LocalGraph::new(net, part, m, csr, id_base, &format))
}

/// Arcs generated per block; block b's random stream is seeded by (seed, b).
const BLOCK: u64 = 1 << 16;

fn rng_next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    mix64(*state)
}

/// A bijection of 0..2^bits that scatters Kronecker's heavy low ids (odd multiplications and
/// xor-shifts are invertible modulo 2^bits).
fn scramble(mut x: u64, bits: u32, seed: u64) -> u64 {
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let k = (mix64(seed) | 1) & mask;
    for _ in 0..3 {
        x = x.wrapping_mul(k) & mask;
        x ^= x >> bits.div_ceil(2);
    }
    x & mask
}

/// The weight of arc (u, v): uniform in 1..=255, a function of the arc alone.
fn weight(u: u32, v: u32, seed: u64) -> u32 {
    (mix64(seed ^ ((u as u64) << 32 | v as u64)) % 255) as u32 + 1
}

fn generate(net: &Net, spec: &GenSpec, seed: u64) -> DistResult<LocalGraph> {
    let (n, m) = spec.size();
    let part = Partition::by_nodes(net.size, n as u32);
    let blocks = m.div_ceil(BLOCK);
    let mut arcs = ArcsTo::new(net.size);
    let mut b = net.rank as u64;
    while b < blocks {
        let mut state = mix64(seed ^ mix64(b));
        let count = BLOCK.min(m - b * BLOCK);
        for _ in 0..count {
            let (u, v) = match *spec {
                GenSpec::Kronecker { scale, .. } => {
                    let (mut u, mut v) = (0u64, 0u64);
                    for bit in 0..scale {
                        let p = (rng_next(&mut state) >> 11) as f64 / (1u64 << 53) as f64;
                        let (du, dv) = if p < 0.57 {
                            (0, 0)
                        } else if p < 0.76 {
                            (0, 1)
                        } else if p < 0.95 {
                            (1, 0)
                        } else {
                            (1, 1)
                        };
                        u |= du << bit;
                        v |= dv << bit;
                    }
                    (scramble(u, scale, seed), scramble(v, scale, seed))
                }
                GenSpec::Er { .. } | GenSpec::Uniform { .. } => (
                    ((rng_next(&mut state) >> 32) * n) >> 32,
                    ((rng_next(&mut state) >> 32) * n) >> 32,
                ),
            };
            let (u, v) = (u as u32, v as u32);
            arcs.push(part.owner(u), u, v, weight(u, v, seed));
        }
        b += net.size as u64;
    }
    let csr = LocalGraph::from_arcs(net, part.clone(), arcs, true, Arcs::Simple)?;
    let m = net.sum_u64(csr.1.len() as u64);
    Ok(LocalGraph::new(
        net,
        part,
        m,
        csr,
        IdBase::Zero,
        "generated",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scramble_is_a_bijection() {
        for bits in [1u32, 2, 5, 10] {
            let mut seen = vec![false; 1 << bits];
            for x in 0..1u64 << bits {
                let y = scramble(x, bits, 7) as usize;
                assert!(!seen[y]);
                seen[y] = true;
            }
        }
    }

    #[test]
    fn generator_specs() {
        assert_eq!(
            Source::parse("gen:er:20").unwrap(),
            Source::Gen(GenSpec::Er {
                scale: 20,
                factor: 1.5
            })
        );
        // DIMACS10's er-fact1.5-scale20 has 10,904,496 edges.
        let (_, m) = GenSpec::Er {
            scale: 20,
            factor: 1.5,
        }
        .size();
        // (theirs is a sample of that expectation: within 0.1%)
        assert!((m as i64 - 10_904_496).abs() < 11_000, "{m}");
        assert!(Source::parse("gen:kron").is_err());
        assert!(Source::parse("gen:kronecker:40").is_err());
        assert!(Source::parse("gen:what:1").is_err());
        assert_eq!(Source::parse("x.gr").unwrap(), Source::File("x.gr".into()));
    }
}
