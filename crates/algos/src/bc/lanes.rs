//! Per-thread frontier lanes and the two ways threads take work from them.
//!
//! Each thread owns a lane: the vertices it discovered, level by level, in discovery order.
//! A level is processed in chunks of `task` vertices taken from the lanes:
//!
//! * **dynamic** (the baseline, OpenMP `schedule(dynamic, 16)` over the boundary): one shared
//!   cursor walks the concatenation of all lanes, so a thread's chunks come from anywhere;
//! * **nwq** (the NUMA-aware BC paper, Frasca et al., SC'12, §III-B, Algorithm 2): each lane
//!   has its own cursor; a thread drains its own lane first, then the others in the order
//!   `tid XOR distance`, distance = 1, 2, ..., which visits NUMA neighbours first when workers
//!   are numbered compactly (threads {0,1} share a core pair, {0..3} a package, and so on).
//!
//! # Phase protocol (why the `UnsafeCell`s are sound)
//! Threads move in steps separated by [`SumBarrier`](ordo_exec::barrier::SumBarrier) waits, whose
//! Acquire/Release edges order every write of one step before every read of the next.
//! * `frontier[d % 2]` holds level d. During the expansion of level d every thread reads every
//!   lane's `frontier[d % 2]`; only the owner touches its `frontier[(d + 1) % 2]` (cleared,
//!   then filled with level d + 1). Level d - 1 read that buffer, and ended at a barrier.
//! * `log` and `starts` (the lane's levels, kept for the backward phase and for ADL) are
//!   written by the owner only during the forward phase, read by all during the backward
//!   phase, and cleared by the owner in the reset step. The steps are separated by barriers.
//! * Run-ahead: after a barrier that finds the next level smaller than [`Lanes::ahead_limit`],
//!   thread 0 expands it and the levels after it alone, into its own lane, while the others
//!   wait in the barrier that ends the run-ahead; until then it owns every lane, records the
//!   levels it expanded as empty in the others' logs and empties their frontier buffers
//!   ([`Lanes::skip_levels`]). The backward phase likewise hands runs of small levels to
//!   thread 0, with one barrier after each run.
//! * Cursors are double-buffered by step parity: a step uses `cursor[step % 2]` and resets
//!   `cursor[(step + 1) % 2]`, which the previous step used (and finished with at the barrier)
//!   and the next step will use (after the barrier).

use crossbeam_utils::CachePadded;
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How the vertices of a level are handed to threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Queues {
    /// One shared cursor over the whole level (the baseline).
    Dynamic,
    /// Per-thread queues, stolen from in `tid XOR distance` order (Frasca et al.'s NWQ).
    Nwq,
}

impl std::str::FromStr for Queues {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "dynamic" => Ok(Queues::Dynamic),
            "nwq" => Ok(Queues::Nwq),
            _ => Err(format!("unknown queues '{s}'; valid: dynamic, nwq")),
        }
    }
}

impl Queues {
    pub fn name(self) -> &'static str {
        match self {
            Queues::Dynamic => "dynamic",
            Queues::Nwq => "nwq",
        }
    }
}

pub(super) struct Lane {
    frontier: [UnsafeCell<Vec<u32>>; 2],
    log: UnsafeCell<Vec<u32>>,
    /// `starts[d]`: where level d begins in `log`.
    starts: UnsafeCell<Vec<usize>>,
    cursor: [AtomicUsize; 2],
}

// SAFETY: the cells are accessed by the phase protocol in the module docs: within a step a
// cell is either read by many threads or written by its owner alone, never both.
unsafe impl Sync for Lane {}

impl Lane {
    fn new() -> Self {
        Lane {
            frontier: [UnsafeCell::new(Vec::new()), UnsafeCell::new(Vec::new())],
            log: UnsafeCell::new(Vec::new()),
            starts: UnsafeCell::new(Vec::new()),
            cursor: [AtomicUsize::new(0), AtomicUsize::new(0)],
        }
    }
}

/// Every thread's lane, and the shared cursor of the dynamic discipline.
pub(super) struct Lanes {
    lanes: Vec<CachePadded<Lane>>,
    global: [CachePadded<AtomicUsize>; 2],
    queues: Queues,
    task: usize,
}

/// What one thread took in one step.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Taken {
    pub chunks: u64,
    /// Chunks from another thread's lane.
    pub foreign: u64,
}

impl Lanes {
    pub(super) fn new(threads: usize, queues: Queues, task: usize) -> Self {
        Lanes {
            lanes: (0..threads)
                .map(|_| CachePadded::new(Lane::new()))
                .collect(),
            global: [
                CachePadded::new(AtomicUsize::new(0)),
                CachePadded::new(AtomicUsize::new(0)),
            ],
            queues,
            task: task.max(1),
        }
    }

    /// Start of a step run by thread `tid`: readies the cursors the next step will use.
    pub(super) fn begin_step(&self, tid: usize, step: usize) {
        let next = (step + 1) % 2;
        self.lanes[tid].cursor[next].store(0, Ordering::Relaxed);
        if tid == 0 {
            self.global[next].store(0, Ordering::Relaxed);
        }
    }

    /// Level d's frontier in every lane. Valid during the expansion of level d.
    ///
    /// # Safety
    /// Only between the barrier that ended level d - 1 and the one that ends level d.
    pub(super) unsafe fn frontier(&self, d: u32) -> Vec<&[u32]> {
        self.lanes
            .iter()
            .map(|l| (*l.frontier[d as usize % 2].get()).as_slice())
            .collect()
    }

    /// Level d's frontier in lane `tid` alone.
    ///
    /// # Safety
    /// As [`Lanes::frontier`].
    pub(super) unsafe fn lane_frontier(&self, tid: usize, d: u32) -> &[u32] {
        (*self.lanes[tid].frontier[d as usize % 2].get()).as_slice()
    }

    /// The owner's buffer for level d + 1, emptied.
    ///
    /// # Safety
    /// Only thread `tid`, during the expansion of level d.
    #[allow(clippy::mut_from_ref)]
    pub(super) unsafe fn next_frontier(&self, tid: usize, d: u32) -> &mut Vec<u32> {
        let next = &mut *self.lanes[tid].frontier[(d as usize + 1) % 2].get();
        next.clear();
        next
    }

    /// Appends the owner's level-(d+1) buffer to its log, as level d + 1.
    ///
    /// # Safety
    /// Only thread `tid`, at the end of the expansion of level d (after its last read of the
    /// buffer it passes in via `next_frontier`).
    pub(super) unsafe fn record_level(&self, tid: usize, d: u32) {
        let lane = &self.lanes[tid];
        let log = &mut *lane.log.get();
        let starts = &mut *lane.starts.get();
        starts.push(log.len());
        log.extend_from_slice(&*lane.frontier[(d as usize + 1) % 2].get());
    }

    /// Levels smaller than this are expanded (forward) or accumulated (backward) by thread 0
    /// alone: fewer vertices than give every thread a chunk.
    pub(super) fn ahead_limit(&self) -> usize {
        self.task * self.lanes.len()
    }

    /// Records `levels` empty levels in every lane but lane 0 and empties their frontier
    /// buffers: thread 0 has just expanded those levels alone, into lane 0 (run-ahead).
    ///
    /// # Safety
    /// Only thread 0, while every other thread waits in the barrier that ends the run-ahead
    /// (and touches no lane between the barrier before it and that one).
    pub(super) unsafe fn skip_levels(&self, levels: u32) {
        for lane in &self.lanes[1..] {
            let log_len = (*lane.log.get()).len();
            let starts = &mut *lane.starts.get();
            starts.extend(std::iter::repeat_n(log_len, levels as usize));
            for buffer in &lane.frontier {
                (*buffer.get()).clear();
            }
        }
    }

    /// Puts `root` alone in level 0 of lane 0 and empties every other lane's level 0.
    ///
    /// # Safety
    /// Only thread `tid`, in a step between two barriers in which no thread reads lanes.
    pub(super) unsafe fn start_source(&self, tid: usize, root: Option<u32>) {
        let lane = &self.lanes[tid];
        let level0 = &mut *lane.frontier[0].get();
        level0.clear();
        level0.extend(root);
        let log = &mut *lane.log.get();
        log.clear();
        log.extend(root);
        let starts = &mut *lane.starts.get();
        starts.clear();
        starts.push(0);
    }

    /// Level d of every lane's log (0 <= d < the number of recorded levels).
    ///
    /// # Safety
    /// Only during the backward phase or after the threads joined (no owner writes the logs).
    pub(super) unsafe fn level(&self, d: u32) -> Vec<&[u32]> {
        self.lanes
            .iter()
            .map(|l| {
                let log = &*l.log.get();
                let starts = &*l.starts.get();
                let d = d as usize;
                let end = starts.get(d + 1).copied().unwrap_or(log.len());
                match starts.get(d) {
                    Some(&s) => &log[s..end],
                    None => &log[log.len()..],
                }
            })
            .collect()
    }

    /// Every vertex lane `tid` discovered since its source started.
    ///
    /// # Safety
    /// As [`Lanes::level`], or by the owner outside the expansion steps.
    pub(super) unsafe fn log(&self, tid: usize) -> &[u32] {
        &*self.lanes[tid].log.get()
    }

    /// Hands the calling thread ranges of `0..n` of `chunk` nodes until none is left (a
    /// pulling level's scan over every node), through the shared cursor of the step's parity.
    /// Every thread of the step must call it, with the same `n` and `chunk`, and no thread
    /// [`drain`](Self::drain)s with the dynamic discipline in that step.
    pub(super) fn drain_nodes(
        &self,
        step: usize,
        n: usize,
        chunk: usize,
        mut visit: impl FnMut(std::ops::Range<usize>),
    ) -> u64 {
        let cursor = &self.global[step % 2];
        let mut chunks = 0;
        loop {
            let start = cursor.fetch_add(chunk, Ordering::Relaxed);
            if start >= n {
                return chunks;
            }
            chunks += 1;
            visit(start..n.min(start + chunk));
        }
    }

    /// Hands thread `tid` chunks of the level `slices` (one per lane) until none is left,
    /// calling `visit` on each chunk's vertices, in the configured discipline. (Per chunk, not
    /// per vertex: the caller's loop over a chunk then has the per-vertex work inlined, which
    /// a closure called from the two disciplines' places was not, at about 30 instructions a
    /// vertex of calls and reloads.)
    pub(super) fn drain(
        &self,
        tid: usize,
        step: usize,
        slices: &[&[u32]],
        mut visit: impl FnMut(&[u32]),
    ) -> Taken {
        let mut taken = Taken::default();
        let parity = step % 2;
        match self.queues {
            Queues::Nwq => {
                let p = self.lanes.len();
                for distance in 0..p.next_power_of_two() {
                    let q = tid ^ distance;
                    if q >= p {
                        continue;
                    }
                    let slice = slices[q];
                    let cursor = &self.lanes[q].cursor[parity];
                    while cursor.load(Ordering::Relaxed) < slice.len() {
                        let i = cursor.fetch_add(self.task, Ordering::Relaxed);
                        if i >= slice.len() {
                            break;
                        }
                        taken.chunks += 1;
                        taken.foreign += u64::from(q != tid);
                        visit(&slice[i..(i + self.task).min(slice.len())]);
                    }
                }
            }
            Queues::Dynamic => {
                let total: usize = slices.iter().map(|s| s.len()).sum();
                let cursor = &self.global[parity];
                loop {
                    let i = cursor.fetch_add(self.task, Ordering::Relaxed);
                    if i >= total {
                        break;
                    }
                    taken.chunks += 1;
                    let end = (i + self.task).min(total);
                    // Walk the lanes to the chunk's position; a chunk may span two lanes.
                    let (mut lane, mut base) = (0, 0);
                    while base + slices[lane].len() <= i {
                        base += slices[lane].len();
                        lane += 1;
                    }
                    taken.foreign += u64::from(lane != tid);
                    let mut k = i;
                    while k < end {
                        let s = slices[lane];
                        let stop = (end - base).min(s.len());
                        visit(&s[k - base..stop]);
                        k = base + stop;
                        base += s.len();
                        lane += 1;
                    }
                }
            }
        }
        taken
    }
}
