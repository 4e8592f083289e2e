//! Connected components across ranks: Afforest (`ordo cc`'s default,
//! `ordo_algos::cc::afforest`) on the arcs between a rank's own nodes, then the components'
//! labels carried across the cut until none is lowered.
//!
//! After the local step every owned node hangs under a local root, the smallest node of its
//! local component, labelled with that node's global id (the smallest in the component: both
//! layouts number a rank's nodes in increasing global order). A round sends, to the owner of
//! each remote end `t` of a cut arc `(v, t)` whose local component was lowered in the last
//! round (every one in the first), the smallest such label for `t`, unless `t` was sent one
//! as small before; the owner lowers `t`'s component to it if smaller.
//! The undirected view stores both arcs of a cut edge, so the smallest global id of a
//! component reaches every part of it; the rounds end when a round lowers nothing on any
//! rank. Rounds: at most the number of local components chained along the longest path of
//! the cut, a handful for contiguous ranges.

use super::Funnel;
use crate::graph::LocalGraph;
use crate::net::{DistError, DistResult, Net};
use crate::runtime::Ran;
use ordo_exec::{ExecConfig, RunReport};
use ordo_graph::{Buf, Graph};
use std::time::Instant;

pub struct CcRun {
    /// The owned nodes' labels: the smallest global id of their component.
    pub label: Vec<u32>,
    /// Rounds across the cut.
    pub rounds: u64,
    pub ran: Ran,
}

/// What the local step and the rounds need, built before the run.
pub struct CcInput {
    /// The arcs between owned nodes, in local ids.
    inner: Graph,
    /// Cut arcs `(owned local id, ghost)`, a ghost being an index of `ghosts`.
    cut: Vec<(u32, u32)>,
    /// The remote ends of the cut arcs (global ids), sorted by owner and id.
    ghosts: Vec<u32>,
}

impl CcInput {
    /// Splits `g`'s arcs (the undirected view) into the inner graph and the cut.
    pub fn build(g: &LocalGraph) -> DistResult<CcInput> {
        let part = &g.part;
        let local = g.local_nodes();
        let mut offsets = Vec::with_capacity(local as usize + 1);
        let mut targets = Vec::new();
        let mut cut = Vec::new();
        offsets.push(0u64);
        for l in 0..local {
            for &t in g.neighbors(l) {
                if part.owner(t) == g.rank {
                    targets.push(part.local(t));
                } else {
                    cut.push((l, t));
                }
            }
            offsets.push(targets.len() as u64);
        }
        let key = |t: u32| (part.owner(t), t);
        let mut ghosts: Vec<u32> = cut.iter().map(|&(_, t)| t).collect();
        ghosts.sort_unstable_by_key(|&t| key(t));
        ghosts.dedup();
        for (_, t) in &mut cut {
            let i = ghosts.binary_search_by_key(&key(*t), |&x| key(x));
            *t = i.expect("every cut target is a ghost") as u32;
        }
        let inner = Graph::from_csr(
            Buf::from_vec(offsets),
            Buf::from_vec(targets),
            None,
            g.id_base,
        )
        .map_err(|e| DistError::Failed(format!("local graph: {e}")))?;
        Ok(CcInput { inner, cut, ghosts })
    }
}

/// Components over all ranks (a collective).
pub fn run(net: &Net, g: &LocalGraph, input: &CcInput, exec: &ExecConfig) -> DistResult<CcRun> {
    let funnel = Funnel::new(net);
    net.world_barrier();
    let start = Instant::now();
    let inner = ordo_algos::cc::afforest::run(&input.inner, exec)
        .map_err(|e| DistError::Failed(e.to_string()))?;
    // Local roots and their labels.
    let root = inner.label;
    let mut label: Vec<u32> = (0..g.local_nodes()).map(|l| g.global(l)).collect();
    let mut lowered = vec![true; root.len()];
    // The cut as (local root, ghost) links, repeats from one root to one ghost mostly
    // dropped: one pass here, and rounds that scan the links rather than the arcs.
    let ghosts = input.ghosts.len();
    let mut best = vec![u32::MAX; ghosts];
    let mut links = Vec::new();
    for &(v, gh) in &input.cut {
        let r = root[v as usize];
        if best[gh as usize] != r {
            best[gh as usize] = r;
            links.push((r, gh));
        }
    }
    // The label last sent to each ghost: a label no smaller is not sent again.
    let mut sent = vec![u32::MAX; ghosts];
    let mut rounds = 0;
    loop {
        best.fill(u32::MAX);
        for &(r, gh) in &links {
            if lowered[r as usize] {
                let b = &mut best[gh as usize];
                *b = (*b).min(label[r as usize]);
            }
        }
        lowered.fill(false);
        let mut out: Vec<Vec<u32>> = vec![Vec::new(); net.size];
        for (gh, (&b, s)) in best.iter().zip(&mut sent).enumerate() {
            if b < *s {
                *s = b;
                let t = input.ghosts[gh];
                out[g.part.owner(t)].extend_from_slice(&[t, b]);
            }
        }
        let (arrived, _) = if net.size == 1 {
            (Vec::new(), Vec::new())
        } else {
            funnel.count(net, &out);
            net.exchange(&out)?
        };
        let mut changed = 0u64;
        for p in arrived.chunks_exact(2) {
            let r = root[g.part.local(p[0]) as usize] as usize;
            if p[1] < label[r] {
                label[r] = p[1];
                lowered[r] = true;
                changed += 1;
            }
        }
        rounds += 1;
        let changed = if net.size == 1 {
            changed
        } else {
            net.sum_u64(changed)
        };
        if changed == 0 {
            break;
        }
    }
    let label = root.iter().map(|&r| label[r as usize]).collect();
    let time = start.elapsed();
    let report = RunReport {
        time,
        ..inner.report
    };
    Ok(CcRun {
        label,
        rounds,
        ran: funnel.ran(report, time),
    })
}
