//! Connected components across ranks: Afforest (`ordo cc`'s default,
//! `ordo_algos::cc::afforest`) on the arcs between a rank's own nodes, then the local
//! components joined across the cut, by a few rounds of labels and, if those do not settle
//! it, on rank 0.
//!
//! After the local step every owned node hangs under a local root, the smallest node of its
//! local component, labelled with that node's global id (the smallest in the component: both
//! layouts number a rank's nodes in increasing global order). The cut arcs become links
//! (local root, remote end). A round of labels (`Cut::carry_labels`) sends, to the owner of
//! each remote end `t` of a link whose component was lowered in the last round (every one in
//! the first), the smallest such label for `t`, unless `t` was sent one as small before; the
//! owner lowers `t`'s component to it if smaller. The undirected view stores both arcs of a
//! cut edge, so the smallest global id of a component reaches every part of it, after as many
//! rounds as the longest chain of local components it crosses: a few on Kronecker and social
//! graphs, hundreds on a road map numbered at random. So after [`ROUNDS_BEFORE_GATHERING`]
//! rounds that still lowered labels, rank 0 gathers the links as pairs of root ids and joins
//! them with a union-find (`Cut::solve_on_rank0`: a sum, three exchanges and a gather), when there are at most
//! `--gather-links` ([`GATHERED_LINKS`]); past that, the rounds go on to the end.

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
    /// Rounds of labels across the cut (those before rank 0 joined the components, when it did).
    pub rounds: u64,
    /// Whether rank 0 joined the local components (else labels were carried in rounds).
    pub gathered: bool,
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

/// Components over all ranks (a collective); rank 0 joins the local components itself when
/// at most `gather_limit` links join them (see [`GATHERED_LINKS`]).
pub fn run(
    net: &Net,
    g: &LocalGraph,
    input: &CcInput,
    gather_limit: u64,
    exec: &ExecConfig,
) -> DistResult<CcRun> {
    let funnel = Funnel::new(net);
    net.world_barrier();
    let start = Instant::now();
    let inner = ordo_algos::cc::afforest::run(&input.inner, exec)
        .map_err(|e| DistError::Failed(e.to_string()))?;
    // Local roots and their labels.
    let root = inner.label;
    // The cut as (local root, ghost) links, repeats from one root to one ghost mostly
    // dropped: one pass here, and rounds that scan the links rather than the arcs.
    let mut last = vec![u32::MAX; input.ghosts.len()];
    let mut links = Vec::new();
    for &(v, gh) in &input.cut {
        let r = root[v as usize];
        if last[gh as usize] != r {
            last[gh as usize] = r;
            links.push((r, gh));
        }
    }
    let mut cut = Cut {
        net,
        funnel: &funnel,
        g,
        ghosts: &input.ghosts,
        root: &root,
        links,
        label: (0..g.local_nodes()).map(|l| g.global(l)).collect(),
    };
    // A few rounds first (Kronecker graphs, social graphs and well-numbered road maps need no
    // more); then rank 0 joins what is left, or, with too many links, the rounds go on.
    let (mut rounds, done) = cut.carry_labels(Some(ROUNDS_BEFORE_GATHERING))?;
    let mut gathered = false;
    if !done {
        gathered = cut.solve_on_rank0(gather_limit)?;
        if !gathered {
            rounds += cut.carry_labels(None)?.0;
        }
    }
    let label = cut.label;
    let label = root.iter().map(|&r| label[r as usize]).collect();
    let time = start.elapsed();
    let report = RunReport {
        time,
        ..inner.report
    };
    Ok(CcRun {
        label,
        rounds,
        gathered,
        ran: funnel.ran(report, time),
    })
}

/// The most links (pairs of local components joined by a cut edge) that rank 0 gathers to
/// join them itself, by default: 128 MiB of pairs (`--gather-links`).
pub const GATHERED_LINKS: u64 = 1 << 24;

/// Rounds of labels across the cut before rank 0 joins the components still apart: a round
/// is one exchange; the joining is a sum, three exchanges, a gather and a union-find on one
/// rank.
const ROUNDS_BEFORE_GATHERING: u64 = 4;

/// The local components and the cut between them, while they are joined.
struct Cut<'a> {
    net: &'a Net,
    funnel: &'a Funnel<'a>,
    g: &'a LocalGraph,
    /// The remote ends of the cut arcs, by owner and id.
    ghosts: &'a [u32],
    /// Each owned node's local root.
    root: &'a [u32],
    /// (local root, ghost) pairs joined by a cut arc.
    links: Vec<(u32, u32)>,
    /// Each local root's label (other entries unused).
    label: Vec<u32>,
}

impl Cut<'_> {
    /// Joins the local components across the cut on rank 0 when at most `limit` links join
    /// them ([`GATHERED_LINKS`] by default): every rank learns the local root of each remote
    /// end of its cut arcs (one exchange of questions, one of answers), sends its links as
    /// pairs of root ids to rank 0, which joins them with a union-find and sends each rank the
    /// final label of its roots that changed. Five collectives (a sum, three exchanges, a
    /// gather), however many cut edges a label would cross (a road map numbered at random:
    /// hundreds). Returns false, having changed nothing, when the links are more. Labels the
    /// rounds lowered before are overwritten with the final ones: every lowered root has a
    /// link, so it is among the joined ids.
    fn solve_on_rank0(&mut self, limit: u64) -> DistResult<bool> {
        let (net, funnel, g, root) = (self.net, self.funnel, self.g, self.root);
        let (links, label) = (&self.links, &mut self.label);
        let part = &g.part;
        if net.sum_u64(links.len() as u64) > limit {
            return Ok(false);
        }
        // The root of each ghost, from its owner. Ghosts are sorted by owner, so the answers,
        // concatenated in rank order, come in ghost order.
        let mut ask = vec![Vec::<u32>::new(); net.size];
        for &t in self.ghosts {
            ask[part.owner(t)].push(t);
        }
        let (asked, counts) = funnel.exchange_here(&ask)?;
        let mut answers = Vec::with_capacity(net.size);
        let mut at = 0;
        for c in counts {
            let roots = asked[at..at + c].iter();
            answers.push(
                roots
                    .map(|&t| g.global(root[part.local(t) as usize]))
                    .collect::<Vec<u32>>(),
            );
            at += c;
        }
        let (ghost_root, _) = funnel.exchange_here(&answers)?;
        let mut pairs: Vec<u32> = Vec::with_capacity(2 * links.len());
        for &(r, gh) in links.iter() {
            pairs.extend_from_slice(&[g.global(r), ghost_root[gh as usize]]);
        }
        let gathered = net.gather(&pairs)?;
        // Rank 0: a union-find over the root ids; each set's label is its smallest id (a root's id
        // is its local component's smallest node, and the set holds every root of a component).
        let mut to: Vec<Vec<u32>> = vec![Vec::new(); net.size];
        if let Some(all) = gathered {
            let mut ids: Vec<u32> = all.clone();
            ids.sort_unstable();
            ids.dedup();
            let index = |x: u32| ids.binary_search(&x).expect("every id is listed") as u32;
            let mut sets = ordo_algos::union_find::UnionFind::new(ids.len());
            for p in all.chunks_exact(2) {
                sets.union(index(p[0]), index(p[1]));
            }
            let mut smallest = vec![u32::MAX; ids.len()];
            for (i, &id) in ids.iter().enumerate() {
                let s = sets.find(i as u32) as usize;
                smallest[s] = smallest[s].min(id);
            }
            for (i, &id) in ids.iter().enumerate() {
                let l = smallest[sets.find(i as u32) as usize];
                if l < id {
                    to[part.owner(id)].extend_from_slice(&[id, l]);
                }
            }
        }
        let (labels, _) = funnel.exchange_here(&to)?;
        for p in labels.chunks_exact(2) {
            label[part.local(p[0]) as usize] = p[1];
        }
        Ok(true)
    }

    /// Carries labels across the cut until a round lowers none on any rank, or for at most
    /// `limit` rounds: each round sends the owner of each remote end `t` of a link from a
    /// component lowered in the last round (every one in the first) the smallest such label
    /// for `t`, unless one as small was sent to `t` before. Returns the rounds and whether
    /// they ended with no label lowered.
    fn carry_labels(&mut self, limit: Option<u64>) -> DistResult<(u64, bool)> {
        let (net, g, root) = (self.net, self.g, self.root);
        let label = &mut self.label;
        let mut lowered = vec![true; root.len()];
        let mut best = vec![u32::MAX; self.ghosts.len()];
        // The label last sent to each ghost: a label no smaller is not sent again.
        let mut sent = vec![u32::MAX; self.ghosts.len()];
        let mut rounds = 0;
        loop {
            best.fill(u32::MAX);
            for &(r, gh) in &self.links {
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
                    let t = self.ghosts[gh];
                    out[g.part.owner(t)].extend_from_slice(&[t, b]);
                }
            }
            let (arrived, _) = self.funnel.exchange_here(&out)?;
            let mut changed = 0u64;
            for p in arrived.chunks_exact(2) {
                let r = root[g.part.local(p[0]) as usize] as usize;
                if p[1] < label[r] {
                    label[r] = p[1];
                    lowered[r] = true;
                    changed += 1;
                }
            }
            let [changed] = net.sum_u64s([changed]);
            rounds += 1;
            if changed == 0 {
                return Ok((rounds, true));
            }
            if limit.is_some_and(|l| rounds >= l) {
                return Ok((rounds, false));
            }
        }
    }
}
