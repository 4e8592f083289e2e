//! A rank's in-edges and its ghosts: the copies of remote in-neighbours that pull loops read.
//!
//! Index space: `0..local` are the rank's own nodes (local ids), then from `ghost_base` (the
//! next multiple of 64) the ghosts, by global id. In-lists hold indices of that space, so a pull loop reads a local or
//! a ghost value with one array access.
//!
//! Built in two exchanges: every arc goes to its target's owner (the transpose), then every
//! rank tells each owner which of its nodes it keeps ghosts of. A symmetric graph
//! ([`LocalGraph::is_symmetric`]) needs no transpose: a node's out-list is its in-list, so
//! the in-lists are the rank's own lists: at one rank those very lists, borrowed; at several,
//! a copy renumbered into the halo's index space (4 bytes an arc, against the transpose's 12
//! and its exchange). [`Halo::refresh`] then
//! sends each ghost's value from its owner in one exchange: the owner packs the values in the
//! order the ghost's rank asked for them (by id), and what arrives comes concatenated in rank
//! order: ghost order for contiguous ranges, put in place through a permutation otherwise.

use super::ghosts::{transpose, GhostIds};
use super::Funnel;
use crate::graph::LocalGraph;
use crate::net::{DistError, DistResult, Net};
use mpi::datatype::Equivalence;
use ordo_exec::Team;
use std::borrow::Cow;

pub struct Halo<'g> {
    /// Nodes this rank owns.
    pub local: u32,
    /// The first ghost's index: `local` rounded up to a multiple of 64, so that a bitmap over
    /// the index space has no word shared by owned nodes and ghosts.
    pub ghost_base: u32,
    /// The in-lists are the graph's own out-lists (a symmetric graph), not a transpose.
    pub from_out_lists: bool,
    /// In-CSR over the owned nodes, sources as indices of the halo's index space.
    pub offsets: Cow<'g, [u64]>,
    pub sources: Cow<'g, [u32]>,
    /// The global id of each ghost, increasing.
    pub ghosts: Vec<u32>,
    /// The ghost that each value of a refresh lands in, in the order they arrive (by owner
    /// rank), where that is not the ghosts' own order (`None`: contiguous ranges).
    arrival: Option<Vec<u32>>,
    /// Per rank: the local ids of the nodes whose values that rank's ghosts take, in its order.
    send: Vec<Vec<u32>>,
}

/// A built CSR, owned by the halo.
fn owned<'g>((offsets, sources): (Vec<u64>, Vec<u32>)) -> (Cow<'g, [u64]>, Cow<'g, [u32]>) {
    (Cow::Owned(offsets), Cow::Owned(sources))
}

impl<'g> Halo<'g> {
    /// The in-edges and ghosts of `g`'s nodes (a collective: every rank calls it).
    pub fn build(net: &Net, g: &'g LocalGraph) -> DistResult<Halo<'g>> {
        let part = &g.part;
        let local = g.local_nodes();
        // Sources are global ids here (local ones at one rank, where they are already halo
        // indices: every target is below n, which `load.rs` checks for every file), halo
        // indices below. A symmetric graph's in-lists keep its out-lists' order. The
        // transpose: (target, source) pairs to the target's owner. Pairs arrive by source
        // rank, each rank's in its own node order, and the transpose keeps that order:
        // in-lists come out sorted by source for contiguous ranges.
        let from_out_lists = g.is_symmetric(net);
        let (offsets, mut sources) = if from_out_lists {
            (Cow::Borrowed(&g.offsets[..]), Cow::Borrowed(&g.targets[..]))
        } else if net.size == 1 {
            owned(transpose(local, |f| {
                for l in 0..local {
                    g.neighbors(l).iter().for_each(|&t| f(t, l));
                }
            }))
        } else {
            let mut out = vec![Vec::<u32>::new(); net.size];
            for l in 0..local {
                let s = g.global(l);
                for &t in g.neighbors(l) {
                    out[part.owner(t)].extend_from_slice(&[t, s]);
                }
            }
            let (flat, _) = net.exchange(&out)?;
            drop(out);
            owned(transpose(local, |f| {
                flat.chunks_exact(2).for_each(|p| f(part.local(p[0]), p[1]));
            }))
        };
        let mine = |s: u32| part.owner(s) == net.rank;
        let ghost_base = local.next_multiple_of(64);
        let (ghosts, arrival) = if net.size == 1 {
            (Vec::new(), None)
        } else {
            let ids = GhostIds::new(
                part.num_nodes(),
                sources.iter().copied().filter(|&s| !mine(s)),
            );
            if ghost_base as usize + ids.ids.len() > u32::MAX as usize {
                return Err(DistError::Failed(
                    "too many ghost nodes for 32-bit indices".into(),
                ));
            }
            for s in sources.to_mut() {
                *s = if mine(*s) {
                    part.local(*s)
                } else {
                    ghost_base + ids.index(*s)
                };
            }
            let arrival = ids.arrival_order(part);
            (ids.ids, arrival)
        };
        // Tell each owner which of its nodes this rank keeps ghosts of, in arrival order.
        let send = if net.size == 1 {
            vec![Vec::new()]
        } else {
            let mut ask = vec![Vec::<u32>::new(); net.size];
            for &s in &ghosts {
                ask[part.owner(s)].push(s);
            }
            let (asked, counts) = net.exchange(&ask)?;
            let mut send = Vec::with_capacity(net.size);
            let mut rest = &asked[..];
            for c in counts {
                let (theirs, tail) = rest.split_at(c);
                send.push(theirs.iter().map(|&v| part.local(v)).collect());
                rest = tail;
            }
            send
        };
        Ok(Halo {
            local,
            ghost_base,
            from_out_lists,
            offsets,
            sources,
            ghosts,
            arrival,
            send,
        })
    }

    /// Where the in-lists came from, for reports: `out-lists` or `transpose`.
    pub fn in_edges_origin(&self) -> &'static str {
        match self.from_out_lists {
            true => "out-lists",
            false => "transpose",
        }
    }

    /// The length of a value array the pull loops index: owned nodes, padding, ghosts.
    pub fn len(&self) -> usize {
        self.ghost_base as usize + self.ghosts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Owned node `l`'s in-neighbours, as halo indices.
    #[inline]
    pub fn in_neighbors(&self, l: u32) -> &[u32] {
        let (a, b) = (self.offsets[l as usize], self.offsets[l as usize + 1]);
        &self.sources[a as usize..b as usize]
    }

    /// Every ghost's value from its owner, in ghost order (worker 0; a collective over the
    /// ranks). `value(l)` reads owned node `l`'s value.
    pub fn refresh<T: Equivalence + Copy + Default>(
        &self,
        funnel: &Funnel,
        team: &Team,
        value: impl Fn(u32) -> T,
    ) -> Vec<T> {
        let net = funnel.net(team);
        if net.size == 1 {
            return Vec::new();
        }
        let out: Vec<Vec<T>> = self
            .send
            .iter()
            .map(|ls| ls.iter().map(|&l| value(l)).collect())
            .collect();
        // Counts were checked when the halo was built (each below 2^31 elements).
        let (got, _) = funnel
            .exchange(team, &out)
            .unwrap_or_else(|e| panic!("halo exchange: {e}"));
        debug_assert_eq!(got.len(), self.ghosts.len());
        match &self.arrival {
            None => got,
            Some(order) => {
                let mut placed = vec![T::default(); got.len()];
                for (&i, x) in order.iter().zip(got) {
                    placed[i as usize] = x;
                }
                placed
            }
        }
    }
}
