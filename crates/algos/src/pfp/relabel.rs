//! Global relabelling on the frontier executor ([`ordo_exec::run_team`]): the exact labels of
//! the residual graph, from level-synchronous reverse searches that every worker expands.
//!
//! **Labels.** A node's label is its residual distance to the sink. In phase 1 a node that
//! cannot reach the sink gets `n`, all phase 1 needs to know about it. In phase 2 it gets `n`
//! plus its residual distance to the source, or `2n` when it reaches neither. The source keeps
//! `n`. The second search runs only over the nodes the first left unlabelled. That gives the
//! same distances as a search of the whole graph: a node on a residual path from such a node
//! to the source cannot reach the sink either (the node would reach it through it).
//!
//! **One search.** Step `d` expands the nodes at distance `d`. Each worker takes chunks of the
//! frontier. For every arc `y -> x` of a frontier node `y` whose pair `x -> y` has residual
//! capacity, it claims an unlabelled `x` with a compare-and-swap and appends it to the next
//! frontier (a [`QueueRing`]). The barrier that ends a step publishes the labels and the queue.
//! Residual capacities do not change meanwhile: no discharge runs during a relabel.
//!
//! **Bottom-up steps.** When the frontier holds more than n / `SCAN` nodes and its arcs
//! outnumber the unexplored arcs / `ALPHA` (Beamer, Asanovic and Patterson's test, with
//! [`bfs::direction`](crate::bfs::direction)'s constants), a step runs bottom-up instead: every
//! unlabelled node scans its own arcs for a residual one into the frontier (the label before,
//! `base + d - 1`) and stops at the first. Its residuals are then read in order, not one
//! random access per frontier arc. On Kronecker 20, where the sink's search covers the giant
//! component in a few steps and pfp is one relabel, they halve pfp's time (244 -> 117 ms at 1
//! thread); roads, whose frontiers stay small, are unchanged.
//!
//! One thread runs the same searches without chunks or compare-and-swaps (`relabel_alone`). A
//! team hands frontiers too small to pay for a round (`Team::shared_from`) to worker 0, which
//! expands them alone, level after level, while the others wait in one collective
//! (`run_ahead`; the exec README's protocol, item 5): with a barrier a level, a 10^7-node path
//! at 2 threads, one level per node, took 7.2 s of barriers against 0.65 s at 1 thread.
//!
//! Work: O(n + m) per relabel; rounds: the largest finite label.

use super::discharge::State;
use super::word::Word;
use crate::bfs::direction::{ALONE_CHECK, ALPHA, SCAN};
use ordo_exec::frontier::{QueueRing, QueueWriter};
use ordo_exec::{run_team, ExecConfig, ExecError, Stopped, Team};
use std::cell::RefCell;
use std::sync::atomic::Ordering::Relaxed;

/// Not labelled yet, during a relabel (no label reaches it: labels are at most 2n, n < 2^31).
const UNSEEN: u32 = u32::MAX;
/// Frontier nodes per chunk of a step (fewer where that leaves workers idle:
/// `Team::chunk_for`), and per worker below which a step runs on one (`Team::shared_from`).
const CHUNK: usize = 64;
/// Nodes per chunk of a bottom-up step.
const BOTTOM_UP_CHUNK: usize = 1024;
/// Nodes per chunk of the fills.
const FILL_CHUNK: usize = 4096;

/// The frontier queues, kept from one relabel to the next: a ring for a team, one queue for
/// one thread.
pub(super) struct Relabeller {
    queues: Option<QueueRing>,
    alone: RefCell<Vec<u32>>,
}

impl Relabeller {
    pub(super) fn new(n: usize, threads: usize) -> Self {
        // Its pages written now, not in the timed run's first relabel (which visits every
        // node that reaches the sink); the relabels then reuse them.
        let mut alone = ordo_exec::malloc::prefaulted(if threads > 1 { 0 } else { n }, || 0);
        alone.clear();
        Relabeller {
            queues: (threads > 1).then(|| QueueRing::new(n)),
            alone: RefCell::new(alone),
        }
    }

    /// Writes the exact labels of `state`'s residual graph into its heights (module docs);
    /// `to_source` for phase 2's. `cfg` has the thread count this relabeller was made for.
    pub(super) fn relabel<W: Word>(
        &self,
        state: &State<W>,
        to_source: bool,
        cfg: &ExecConfig,
    ) -> Result<(), ExecError> {
        match &self.queues {
            Some(queues) => {
                run_team(cfg, |team| relabel_team(queues, state, to_source, team)).map(drop)
            }
            None => {
                relabel_alone(state, to_source, &mut self.alone.borrow_mut());
                Ok(())
            }
        }
    }
}

/// One worker's part of [`Relabeller::relabel`].
fn relabel_team<W: Word>(
    queues: &QueueRing,
    state: &State<W>,
    to_source: bool,
    team: &Team,
) -> Result<(), Stopped> {
    let n = state.net.num_nodes();
    let n32 = n as u32;
    team.for_chunks(n, FILL_CHUNK, |r| {
        state.height[r.clone()]
            .iter()
            .for_each(|h| h.store(UNSEEN, Relaxed));
        if !to_source {
            state.levels[r].iter().for_each(|c| c.store(0, Relaxed));
        }
        0
    })?;
    let step = search(queues, state, state.t, 0, 0, !to_source, team)?;
    if to_source {
        search(queues, state, state.s, n32, step, false, team)?;
    }
    let unreached = if to_source { 2 * n32 } else { n32 };
    team.for_chunks(n, FILL_CHUNK, |r| {
        for h in &state.height[r] {
            if h.load(Relaxed) == UNSEEN {
                h.store(unreached, Relaxed);
            }
        }
        0
    })?;
    // After the last barrier: no worker reads a label again during this relabel.
    if team.worker() == 0 {
        source_label(state, to_source);
    }
    Ok(())
}

/// Labels `base + d` on the unlabelled nodes at residual distance `d` from `root`, with
/// steps numbered from `step` on; returns the next step's number. `count`: write the size of
/// each level into `state.levels` and the last one into `state.top` (phase 1's gap counts).
fn search<W: Word>(
    queues: &QueueRing,
    state: &State<W>,
    root: u32,
    base: u32,
    mut step: usize,
    count: bool,
    team: &Team,
) -> Result<usize, Stopped> {
    // Locals: the loop below stores to atomics, after which fields read through `state` or
    // `net` would be reloaded (the rule in docs/design.md, Applications).
    let (net, height, res) = (state.net, &state.height[..], &state.res[..]);
    let rows = net.rows();
    let head = rows.head;
    if team.worker() == 0 {
        // No worker touches the queues between searches: the last step ended at a barrier,
        // and no worker reads them after it.
        for k in 0..3 {
            queues.input(k).clear();
        }
        height[root as usize].store(base, Relaxed);
        queues.input(step).fill([root]);
        if count {
            state.levels[base as usize].store(1, Relaxed);
            state.top.store(base, Relaxed);
        }
    }
    team.barrier()?;
    let n = net.num_nodes();
    // Arcs of the nodes not labelled yet, about (only large frontiers are subtracted).
    let mut unexplored = head.len() as u64;
    let (mut len, mut label) = (1, base + 1);
    // Frontiers too small to pay for a round are expanded by worker 0 alone (`run_ahead`;
    // `Team::shared_from`, as BFS's: 16 workers share from 256 nodes).
    let ahead_limit = team.shared_from(CHUNK);
    while len > 0 {
        if len < ahead_limit {
            // Every worker has the same `len` (a collective's): all come here.
            if team.worker() == 0 {
                (step, len, label) =
                    run_ahead(queues, state, step, len, label, count, ahead_limit, team);
            }
            let [step0, len0, label0] =
                team.broadcast(0, [step as u64, len as u64, label as u64])?;
            (step, len, label) = (step0 as usize, len0 as usize, label0 as u32);
            continue;
        }
        queues.start(step, team.worker());
        let frontier = queues.input(step).first(len);
        // The bottom-up test (module docs): only a frontier above n / SCAN can pass it, so
        // only such a frontier pays the pass that sums its arcs.
        let bottom_up = len as u64 > n as u64 / SCAN && {
            let scout = team.for_chunks(len, CHUNK, |r| {
                frontier[r]
                    .iter()
                    .map(|y| net.arcs(y.load(Relaxed)).len() as u64)
                    .sum()
            })?;
            unexplored = unexplored.saturating_sub(scout);
            scout > unexplored / ALPHA
        };
        let mut next = QueueWriter::new(queues.output(step));
        // The next frontier's length comes from the loop's sum, not from the queue: a worker
        // reading the queue after the last step's barrier could find the next search's root
        // there, put by worker 0, and hang.
        len = if bottom_up {
            // Each unlabelled node is its chunk's worker's alone: no compare-and-swap. A node
            // labelled in this step has `label`, so none is taken for the frontier. Relaxed:
            // the frontier's labels were published by the barrier ending the last step, and
            // residuals are not written during a relabel (as in the top-down step below).
            team.for_chunks(n, BOTTOM_UP_CHUNK, |r| {
                let mut found = 0;
                for x in r {
                    let h = &height[x];
                    if h.load(Relaxed) == UNSEEN
                        && net.arcs(x as u32).any(|a| {
                            res[a].read(Relaxed) > 0
                                && height[head[a] as usize].load(Relaxed) == label - 1
                        })
                    {
                        h.store(label, Relaxed);
                        next.push(x as u32);
                        found += 1;
                    }
                }
                next.flush();
                found
            })?
        } else {
            team.for_chunks(len, team.chunk_for(len, CHUNK), |r| {
                let mut found = 0;
                for y in &frontier[r] {
                    let y = y.load(Relaxed);
                    for a in rows.arcs(y) {
                        // x -> y is residual when the pair of y's arc a (y -> x) has capacity.
                        // Relaxed: residuals are not written during a relabel, and a label carries
                        // no other data; the barrier ending the step publishes labels and queue.
                        let x = head[a];
                        let h = &height[x as usize];
                        if h.load(Relaxed) == UNSEEN
                            && rows.residual_back(res, y, a, x) > 0
                            && h.compare_exchange(UNSEEN, label, Relaxed, Relaxed).is_ok()
                        {
                            next.push(x);
                            found += 1;
                        }
                    }
                }
                next.flush();
                found
            })?
        } as usize;
        if count && len > 0 && team.worker() == 0 {
            state.levels[label as usize].store(len as u32, Relaxed);
            state.top.store(label, Relaxed);
        }
        step += 1;
        label += 1;
    }
    Ok(step)
}

/// Steps of [`search`] from `step` (a frontier of `len` nodes, to be labelled `label`) taken
/// by worker 0 alone, top-down and without compare-and-swaps, while the other workers wait in
/// the next collective; until a frontier reaches `limit` nodes or is empty, or a Ctrl-C is
/// asked for. A road graph's searches are hundreds of levels of a few dozen nodes, and a
/// path's a level per node (a 10^7-node path at 2 threads: a relabel took seconds of
/// barriers). Returns the step, frontier size and label it stopped at.
#[allow(clippy::too_many_arguments)]
fn run_ahead<W: Word>(
    queues: &QueueRing,
    state: &State<W>,
    mut step: usize,
    mut len: usize,
    mut label: u32,
    count: bool,
    limit: usize,
    team: &Team,
) -> (usize, usize, u32) {
    let (net, height, res) = (state.net, &state.height[..], &state.res[..]);
    let rows = net.rows();
    let head = rows.head;
    loop {
        queues.start(step, 0);
        let frontier = queues.input(step).first(len);
        let mut next = queues.output(step).alone();
        let mut found = 0;
        for y in frontier {
            let y = y.load(Relaxed);
            for a in rows.arcs(y) {
                // `relabel_alone`'s top-down step, written out again: a helper shared by both
                // (a struct of the slices and a closure for the push) cost `relabel_alone`
                // 1.2x its time on one thread.
                let x = head[a];
                let h = &height[x as usize];
                if h.load(Relaxed) == UNSEEN && rows.residual_back(res, y, a, x) > 0 {
                    h.store(label, Relaxed);
                    next.push(x);
                    found += 1;
                }
            }
        }
        drop(next);
        len = found;
        if count && len > 0 {
            state.levels[label as usize].store(len as u32, Relaxed);
            state.top.store(label, Relaxed);
        }
        step += 1;
        label += 1;
        if len == 0 || len >= limit || (step.is_multiple_of(ALONE_CHECK) && team.cancel_requested())
        {
            return (step, len, label);
        }
    }
}

/// [`Relabeller::relabel`] on one thread: the same searches without chunks or
/// compare-and-swaps, over one queue, turning bottom-up for the steps whose frontier's arcs
/// outnumber what is left (Kronecker 20, where the sink's search covers the giant component in
/// a few steps).
fn relabel_alone<W: Word>(state: &State<W>, to_source: bool, queue: &mut Vec<u32>) {
    let (net, height, res) = (state.net, &state.height[..], &state.res[..]);
    let rows = net.rows();
    let head = rows.head;
    let n = net.num_nodes();
    let n32 = n as u32;
    height.iter().for_each(|h| h.store(UNSEEN, Relaxed));
    let mut search = |root: u32, base: u32, count: bool| {
        queue.clear();
        queue.push(root);
        height[root as usize].store(base, Relaxed);
        // Arcs of the nodes not labelled yet, about: what a top-down step has left to scan.
        let mut unexplored = head.len() as u64;
        let (mut start, mut label) = (0, base + 1);
        while start < queue.len() {
            let end = queue.len();
            let frontier = &queue[start..end];
            let scout: u64 = frontier.iter().map(|&y| net.arcs(y).len() as u64).sum();
            unexplored = unexplored.saturating_sub(scout);
            if scout > unexplored / ALPHA && frontier.len() as u64 > n as u64 / SCAN {
                // Bottom-up (Beamer et al.'s test, as `bfs::direction`): every unlabelled node
                // looks along its own residual arcs for a node of the frontier, its residuals
                // read in order rather than one random access per frontier arc, and stops at
                // the first.
                for x in 0..n as u32 {
                    let h = &height[x as usize];
                    if h.load(Relaxed) != UNSEEN {
                        continue;
                    }
                    let found = net.arcs(x).any(|a| {
                        res[a].read(Relaxed) > 0
                            && height[head[a] as usize].load(Relaxed) == label - 1
                    });
                    if found {
                        h.store(label, Relaxed);
                        queue.push(x);
                    }
                }
            } else {
                for i in start..end {
                    let y = queue[i];
                    for a in rows.arcs(y) {
                        // x -> y is residual when the pair of y's arc a (y -> x) has capacity.
                        // The label first: on a graph of small diameter most arcs lead to
                        // labelled nodes, whose residuals (a random access each) are then
                        // never read.
                        let x = head[a];
                        let h = &height[x as usize];
                        if h.load(Relaxed) == UNSEEN && rows.residual_back(res, y, a, x) > 0 {
                            h.store(label, Relaxed);
                            queue.push(x);
                        }
                    }
                }
            }
            if count && queue.len() > end {
                state.levels[label as usize].store((queue.len() - end) as u32, Relaxed);
            }
            (start, label) = (end, label + 1);
        }
        if count {
            // The last node queued has the highest label.
            let last = *queue.last().expect("the root");
            state
                .top
                .store(height[last as usize].load(Relaxed), Relaxed);
        }
    };
    if !to_source {
        state.levels.iter().for_each(|c| c.store(0, Relaxed));
        state.levels[0].store(1, Relaxed);
    }
    search(state.t, 0, !to_source);
    if to_source {
        search(state.s, n32, false);
    }
    let unreached = if to_source { 2 * n32 } else { n32 };
    for h in height {
        if h.load(Relaxed) == UNSEEN {
            h.store(unreached, Relaxed);
        }
    }
    source_label(state, to_source);
}

/// Gives the source its label n, uncounting it from a level below n where the search from
/// the sink reached it (it cannot in phase 1, where the source has no residual arc out).
fn source_label<W: Word>(state: &State<W>, to_source: bool) {
    let n32 = state.net.num_nodes() as u32;
    let was = state.height[state.s as usize].swap(n32, Relaxed);
    if !to_source && was < n32 {
        state.levels[was as usize].fetch_sub(1, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pfp::Network;
    use ordo_graph::{gen, BuildOptions, Graph};
    use std::sync::atomic::AtomicU64;

    /// The labels of `g`'s network with every arc not kept by `keep` saturated (its capacity
    /// moved to its pair), from `threads` workers (with the level counts and the top level),
    /// and the labels the plain searches of [`Network`] give.
    fn labels(
        g: &Graph,
        keep: impl Fn(usize) -> bool,
        to_source: bool,
        threads: usize,
    ) -> ((Vec<u32>, Vec<u32>, u32), Vec<u32>) {
        let net = Network::new(g);
        let n = net.num_nodes();
        // Residuals a preflow could leave: an arc not kept is saturated, its capacity moved
        // to its pair (each pair's residuals sum to its capacities, as pushes keep them).
        let res: Vec<AtomicU64> = net.capacities().map(AtomicU64::new).collect();
        for u in 0..n as u32 {
            for a in net.arcs(u) {
                let pair = net.reverse(a, u, net.head[a]);
                if !keep(a) && (a < pair || keep(pair)) {
                    let moved = res[a].swap(0, Relaxed);
                    res[pair].fetch_add(moved, Relaxed);
                }
            }
        }
        let state = State::new(&net, res, 0, n as u32 - 1);
        state.height.iter().for_each(|h| h.store(7, Relaxed));
        state.levels.iter().for_each(|c| c.store(5, Relaxed));
        let relabeller = Relabeller::new(n, threads);
        relabeller
            .relabel(&state, to_source, &ExecConfig::new(threads))
            .unwrap();
        let heights = state.height.iter().map(|h| h.load(Relaxed)).collect();
        let levels = state.levels.iter().map(|c| c.load(Relaxed)).collect();
        let got = (heights, levels, state.top.load(Relaxed));
        let res = |a: usize| state.res[a].load(Relaxed);
        let expected = if to_source {
            net.exact_heights(state.s, state.t, res)
        } else {
            let mut h = net.distances_to(state.t, res);
            h.iter_mut().for_each(|d| *d = (*d).min(n as u32));
            h[state.s as usize] = n as u32;
            h
        };
        (got, expected)
    }

    #[test]
    fn workers_label_as_the_plain_searches_do() {
        let opts = BuildOptions::default();
        let graphs = [
            gen::road_grid(30, 20, 3, &opts).unwrap(),
            gen::uniform_random(500, 2000, 5, &opts).unwrap(),
            gen::kronecker(9, 4, 1, &opts).unwrap(),
        ];
        for g in &graphs {
            // Emptied arcs cut the searches short: some nodes reach only the source, some
            // neither.
            for cut in [0, 3, 5] {
                let keep = |a: usize| cut == 0 || !a.is_multiple_of(cut);
                for to_source in [false, true] {
                    for threads in [1, 2, 8] {
                        let (got, expected) = labels(g, keep, to_source, threads);
                        let n = expected.len() as u32;
                        assert!(expected.iter().all(|&h| h <= 2 * n));
                        assert!(got.0 == expected, "cut {cut} {to_source} x{threads}");
                        if !to_source {
                            let mut levels = vec![0; n as usize];
                            expected.iter().filter(|&&h| h < n).for_each(|&h| {
                                levels[h as usize] += 1;
                            });
                            assert!(got.1 == levels, "levels: cut {cut} x{threads}");
                            let top = levels.iter().rposition(|&c| c > 0).unwrap() as u32;
                            assert!(got.2 >= top, "top: cut {cut} x{threads}");
                        }
                    }
                }
            }
        }
    }
}
