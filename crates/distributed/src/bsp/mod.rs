//! Bulk-synchronous kernels: ordo's default methods, run across ranks in rounds.
//!
//! Each rank runs one team of workers (`ordo_exec::run_team`) over the nodes it owns. Between
//! rounds worker 0, which runs on the thread that initialized MPI (`MPI_THREAD_FUNNELED`),
//! makes the round's one collective exchange while the other workers wait at the team's
//! barrier. Values of remote nodes come through a [`halo::Halo`]: a rank keeps a copy (a
//! ghost) of every remote in-neighbour of its nodes and refreshes the copies in one exchange.
//!
//! | app | method | what a round exchanges |
//! |---|---|---|
//! | pagerank | pull iteration, Gauss-Seidel within a rank ([`pagerank`]) | one share per ghost |
//! | bfs | direction-optimizing ([`bfs`]) | top-down: reached remote ids; bottom-up: one frontier byte per ghost |
//! | cc | Afforest on the local arcs, then labels across the cut, the rest joined on rank 0 after a few rounds ([`cc`]) | rounds: one (node, label) per ghost of a lowered component; rank 0: one root id per ghost and two per link, once |
//! | sssp | delta-stepping with bucket fusion ([`sssp`]) | one (node, distance) per lowered remote label |

pub mod bfs;
pub mod cc;
pub mod ghosts;
pub mod halo;
pub mod pagerank;
pub mod sssp;

use crate::comm::CommStats;
use crate::net::{DistResult, Net};
use crate::runtime::Ran;
use crate::slots::Tasking;
use mpi::datatype::Equivalence;
use ordo_exec::{RunReport, Team};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::Duration;

/// The MPI side of a team run, reachable from worker 0 only.
pub struct Funnel<'a> {
    net: &'a Net,
    /// Messages to other ranks (non-empty parts of an exchange) and their bytes. Relaxed:
    /// statistics, read after the team run has joined its workers.
    messages: AtomicU64,
    bytes: AtomicU64,
    rounds: AtomicU64,
    /// The thread that made the funnel: the one that initialized MPI.
    home: std::thread::ThreadId,
}

// SAFETY: the communicator is used by worker 0 alone (`net` checks it), and worker 0 runs on
// the thread that created the team, the one that initialized MPI; `exchange_here` checks that
// it runs on that thread, which outside a team run is the only one holding the funnel.
unsafe impl Sync for Funnel<'_> {}

impl<'a> Funnel<'a> {
    pub fn new(net: &'a Net) -> Self {
        Funnel {
            net,
            messages: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            rounds: AtomicU64::new(0),
            home: std::thread::current().id(),
        }
    }

    /// The communicator, for worker 0.
    pub fn net(&self, team: &Team) -> &'a Net {
        assert_eq!(team.worker(), 0, "only worker 0 calls MPI");
        self.net
    }

    /// [`Net::exchange`] by worker 0 of a team, counted.
    pub fn exchange<T: Equivalence + Copy + Default>(
        &self,
        team: &Team,
        out: &[Vec<T>],
    ) -> DistResult<(Vec<T>, Vec<usize>)> {
        self.net(team);
        self.exchange_here(out)
    }

    /// [`Net::exchange`], counted, from the thread that initialized MPI outside a team run
    /// (cc joins its components there). One rank exchanges nothing.
    pub fn exchange_here<T: Equivalence + Copy + Default>(
        &self,
        out: &[Vec<T>],
    ) -> DistResult<(Vec<T>, Vec<usize>)> {
        assert_eq!(
            std::thread::current().id(),
            self.home,
            "MPI is called from the thread that made the funnel"
        );
        let net = self.net;
        self.count(net, out);
        if net.size == 1 {
            return Ok((out[0].clone(), vec![out[0].len()]));
        }
        net.exchange(out)
    }

    /// Counts what an exchange sends to other ranks.
    fn count<T>(&self, net: &Net, out: &[Vec<T>]) {
        self.rounds.fetch_add(1, Relaxed);
        for (d, part) in out.iter().enumerate() {
            if d != net.rank && !part.is_empty() {
                self.messages.fetch_add(1, Relaxed);
                let bytes = std::mem::size_of_val(part.as_slice()) as u64;
                self.bytes.fetch_add(bytes, Relaxed);
            }
        }
    }

    /// The run's figures in the shape the task runtime reports them.
    pub fn ran(&self, report: RunReport, time: Duration) -> Ran {
        let sent = self.messages.load(Relaxed);
        Ran {
            report,
            comm: CommStats {
                sent,
                received: 0,
                bytes_sent: self.bytes.load(Relaxed),
                waves: self.rounds.load(Relaxed),
                ..CommStats::default()
            },
            records: 0,
            folded: 0,
            peak_buffered: 0,
            congested_waits: 0,
            slot_waits: 0,
            tasking: Tasking::Dynamic,
            time,
        }
    }
}

/// Sums `values` over the ranks on worker 0 and hands the sums to every worker of the team
/// (after the team's own sums: call with this worker's terms).
pub fn global_sums<const N: usize>(
    funnel: &Funnel,
    team: &Team,
    values: [f64; N],
) -> Result<[f64; N], ordo_exec::Stopped> {
    let local = team.sum_f64s(values)?;
    let mut bits = [0u64; N];
    if team.worker() == 0 {
        bits = funnel.net(team).sum_f64s(local).map(f64::to_bits);
    }
    Ok(team.broadcast(0, bits)?.map(f64::from_bits))
}

/// A count over every worker of every rank: the team's sum, then [`worker0_counts`].
pub fn global_count(funnel: &Funnel, team: &Team, value: u64) -> Result<u64, ordo_exec::Stopped> {
    let [total] = worker0_counts(funnel, team, [team.sum(value)?])?;
    Ok(total)
}

/// Worker 0's `values` summed over the ranks, handed to every worker of the team: one barrier,
/// for counts that worker 0 alone computed (what the other workers pass is ignored).
pub fn worker0_counts<const N: usize>(
    funnel: &Funnel,
    team: &Team,
    values: [u64; N],
) -> Result<[u64; N], ordo_exec::Stopped> {
    let mut local = values;
    if team.worker() == 0 {
        local = funnel.net(team).sum_u64s(local);
    }
    team.broadcast(0, local)
}

/// A lock's guard. A worker that panicked holding it poisons it; the team run reports that
/// panic and its result is not used, so the others go on with the data as it is.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// [`lock`] for reading a shared list.
pub fn read<T>(m: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    m.read().unwrap_or_else(PoisonError::into_inner)
}

/// Every worker's list, each read-locked, and their total length: a round's frontier read in
/// place with `ordo_algos::sssp::delta_step::for_each_in`, no list copied.
pub fn read_parts<T>(lists: &[RwLock<Vec<T>>]) -> (Vec<RwLockReadGuard<'_, Vec<T>>>, usize) {
    let parts: Vec<_> = lists.iter().map(read).collect();
    let total = parts.iter().map(|p| p.len()).sum();
    (parts, total)
}

/// [`lock`] for rewriting a shared list (worker 0, between collectives).
pub fn write<T>(m: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    m.write().unwrap_or_else(PoisonError::into_inner)
}
