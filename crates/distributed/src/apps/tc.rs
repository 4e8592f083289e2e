//! Triangle counting (the benchmark of the dynamic-tasking paper, Drocco et al., SC'18 poster)
//! on the undirected simple graph.
//!
//! Orientation as in `ordo tc`: every edge points from the endpoint of lower rank (degree,
//! id) to the higher, so each triangle is u -> v -> w with u -> w, counted once, when
//! out(u) is intersected with out(v). Ranks need the degrees of their remote neighbours for
//! that; they fetch them once with an all-to-all exchange. A task for local node u
//! intersects out(u) with out(v) for each local v in it, and sends out(u) once to every
//! other rank that owns some v in it (one record per destination: `len, ids...`); the
//! receiving handler does the intersections for the v it owns.
//!
//! Intersections mark out(u) in a per-thread bitmap over the global ids and test each id of
//! out(v), as `ordo tc` does (4x faster than merging there); beyond [`MARK_LIMIT_BYTES`] per
//! thread they merge the sorted lists instead.

use super::WorkerCounters;
use crate::graph::LocalGraph;
use crate::mail::Post;
use crate::net::{DistResult, Net};
use crate::runtime::DistApp;
use crate::wire::{put_u32, u32_at, Reader};
use ordo_algos::tc::{intersect, with_marked};
use ordo_exec::Context;
use ordo_sched::Handle;
use std::cell::RefCell;

const TRIANGLES: usize = 0;
const INTERSECTIONS: usize = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TcTask {
    pub node: u32,
}

pub struct Tc<'g> {
    g: &'g LocalGraph,
    /// Bitmap words over the global ids, or 0 to intersect by merging.
    words: usize,
    offsets: Vec<u64>,
    /// Oriented out-lists, global ids, sorted.
    targets: Vec<u32>,
    /// Triangles and intersections counted by handlers, per worker.
    pub remote_triangles: WorkerCounters,
    pub remote_intersections: WorkerCounters,
}

/// The largest per-thread bitmap (bytes) intersections use; bigger graphs merge lists.
pub const MARK_LIMIT_BYTES: u64 = 64 << 20;

thread_local! {
    /// A received out-list, decoded (handlers).
    static LIST: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
    /// The ranks a task's out-list goes to (tasks); reused so a task allocates nothing.
    static DESTS: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

impl<'g> Tc<'g> {
    /// Orients `g` (undirected simple); collective.
    pub fn new(net: &Net, g: &'g LocalGraph, workers: usize) -> DistResult<Tc<'g>> {
        let part = &g.part;
        // Ask each owner for the degrees of the remote neighbours, once each.
        let mut ask: Vec<Vec<u32>> = vec![Vec::new(); net.size];
        for &t in &g.targets {
            let o = part.owner(t);
            if o != g.rank {
                ask[o].push(t);
            }
        }
        for a in &mut ask {
            a.sort_unstable();
            a.dedup();
        }
        let (asked, from) = net.exchange(&ask)?;
        let mut answers: Vec<Vec<u32>> = vec![Vec::new(); net.size];
        let mut at = 0;
        for (r, &k) in from.iter().enumerate() {
            answers[r] = asked[at..at + k]
                .iter()
                .map(|&v| {
                    let l = part.local(v);
                    (g.offsets[l as usize + 1] - g.offsets[l as usize]) as u32
                })
                .collect();
            at += k;
        }
        let (degrees, _) = net.exchange(&answers)?;
        // `degrees` follows `ask` in rank order.
        let mut starts = Vec::with_capacity(net.size + 1);
        starts.push(0);
        for a in &ask {
            starts.push(starts.last().copied().unwrap_or(0) + a.len());
        }
        let degree = |t: u32| -> u32 {
            let o = part.owner(t);
            if o == g.rank {
                let l = part.local(t);
                (g.offsets[l as usize + 1] - g.offsets[l as usize]) as u32
            } else {
                let i = ask[o]
                    .binary_search(&t)
                    .expect("asked for every remote neighbour");
                degrees[starts[o] + i]
            }
        };
        let mut offsets = Vec::with_capacity(g.local_nodes() as usize + 1);
        let mut targets = Vec::new();
        offsets.push(0);
        for l in 0..g.local_nodes() {
            let u = g.global(l);
            let ru = (g.neighbors(l).len() as u32, u);
            targets.extend(g.neighbors(l).iter().filter(|&&t| (degree(t), t) > ru));
            offsets.push(targets.len() as u64);
        }
        let words = (g.num_nodes() as u64).div_ceil(64);
        Ok(Tc {
            g,
            words: if words * 8 <= MARK_LIMIT_BYTES {
                words as usize
            } else {
                0
            },
            offsets,
            targets,
            remote_triangles: WorkerCounters::new(workers),
            remote_intersections: WorkerCounters::new(workers),
        })
    }

    /// Triangles closed by `list` (an out-list) and the out-lists of its ids this rank owns,
    /// and how many such ids there were; `remote` gets the owner of every other id.
    #[inline]
    fn close(&self, list: &[u32], remote: impl FnMut(usize)) -> (u64, u64) {
        if self.words > 0 {
            with_marked(self.words, list, |marked| {
                self.tally(list, remote, |o| marked.count_in(o))
            })
        } else {
            self.tally(list, remote, |o| intersect(list, o))
        }
    }

    #[inline]
    fn tally(
        &self,
        list: &[u32],
        mut remote: impl FnMut(usize),
        count_in: impl Fn(&[u32]) -> u64,
    ) -> (u64, u64) {
        let (g, part) = (self.g, &self.g.part);
        let (mut found, mut done) = (0, 0);
        for &v in list {
            let o = part.owner(v);
            if o == g.rank {
                found += count_in(self.out(part.local(v)));
                done += 1;
            } else {
                remote(o);
            }
        }
        (found, done)
    }

    #[inline]
    fn out(&self, l: u32) -> &[u32] {
        &self.targets[self.offsets[l as usize] as usize..self.offsets[l as usize + 1] as usize]
    }

    /// Heaviest first, as `ordo tc` schedules them.
    pub fn initial(&self) -> Vec<(TcTask, u64)> {
        (0..self.g.local_nodes())
            .filter(|&l| self.out(l).len() >= 2)
            .map(|l| {
                (
                    TcTask { node: l },
                    u32::MAX as u64 - self.out(l).len() as u64,
                )
            })
            .collect()
    }

    /// (triangles, intersections) counted on this rank.
    pub fn totals(&self, report: &ordo_exec::RunReport) -> (u64, u64) {
        (
            report.total.app[TRIANGLES] + self.remote_triangles.total(),
            report.total.app[INTERSECTIONS] + self.remote_intersections.total(),
        )
    }
}

impl DistApp for Tc<'_> {
    type Task = TcTask;

    fn run_task<H: Handle<TcTask>>(
        &self,
        task: TcTask,
        ctx: &mut Context<'_, TcTask, H>,
        mail: &Post<'_>,
    ) {
        let list = self.out(task.node);
        let (found, local) = DESTS.with(|dests| {
            let mut dests = dests.borrow_mut();
            dests.clear();
            let counted = self.close(list, |o| {
                if !dests.contains(&o) {
                    dests.push(o);
                }
            });
            let mut out = mail.sender(ctx.worker());
            for &d in dests.iter() {
                out.send(d, |b| {
                    put_u32(b, list.len() as u32);
                    for &x in list {
                        put_u32(b, x);
                    }
                });
            }
            counted
        });
        ctx.count(TRIANGLES, found);
        ctx.count(INTERSECTIONS, local);
    }

    fn deliver(&self, bytes: &[u8], worker: usize, _push: &mut dyn FnMut(TcTask, u64)) -> u64 {
        let mut r = Reader::new(bytes);
        let mut records = 0;
        let (mut found, mut done) = (0, 0);
        LIST.with(|list| {
            let mut list = list.borrow_mut();
            while !r.is_empty() {
                records += 1;
                let len = r.u32() as usize;
                let raw = r.u32s(len);
                list.clear();
                list.extend((0..len).map(|i| u32_at(raw, i)));
                let (f, d) = self.close(&list, |_| {});
                found += f;
                done += d;
            }
        });
        self.remote_triangles.add(worker, found);
        self.remote_intersections.add(worker, done);
        records
    }
}
