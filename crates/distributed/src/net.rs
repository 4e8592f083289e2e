//! The MPI side: the world communicator, collective helpers, and how a job fails.

use mpi::collective::CommunicatorCollectives;
use mpi::datatype::{Equivalence, Partition as MpiPartition, PartitionMut};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::traits::*;
use mpi::Count;

/// This process's place in the job.
pub struct Net {
    pub world: SimpleCommunicator,
    pub rank: usize,
    pub size: usize,
}

/// A failure that stops the job.
#[derive(Debug, thiserror::Error)]
pub enum DistError {
    /// Bad input or options: every rank agrees and exits with status 2.
    #[error("{0}")]
    Usage(String),
    /// This rank failed (reading its input, a run); exit status 1.
    #[error("{0}")]
    Failed(String),
    /// Another rank failed; it printed why.
    #[error("rank(s) {0} failed; see their messages above")]
    Elsewhere(String),
}

pub type DistResult<T> = Result<T, DistError>;

impl Net {
    pub fn new(world: SimpleCommunicator) -> Net {
        let rank = world.rank() as usize;
        let size = world.size() as usize;
        Net { world, rank, size }
    }

    /// Every rank learns whether every rank succeeded: a collective, so a rank that failed to
    /// read its part cannot leave the others waiting in the next exchange. Returns this rank's
    /// own error, or `Elsewhere` naming the failed ranks.
    pub fn agree<T>(&self, local: DistResult<T>) -> DistResult<T> {
        let flag: u8 = u8::from(local.is_err());
        let mut flags = vec![0u8; self.size];
        self.world.all_gather_into(&flag, &mut flags[..]);
        match local {
            Err(e) => Err(e),
            Ok(v) => {
                let failed: Vec<String> = flags
                    .iter()
                    .enumerate()
                    .filter(|(_, &f)| f != 0)
                    .map(|(r, _)| r.to_string())
                    .collect();
                if failed.is_empty() {
                    Ok(v)
                } else {
                    Err(DistError::Elsewhere(failed.join(", ")))
                }
            }
        }
    }

    /// Sums over ranks of each of `x`'s values, in one collective (none on one rank).
    pub fn sum_u64s<const N: usize>(&self, x: [u64; N]) -> [u64; N] {
        if self.size == 1 {
            return x;
        }
        let mut out = [0u64; N];
        self.world.all_reduce_into(
            &x[..],
            &mut out[..],
            mpi::collective::SystemOperation::sum(),
        );
        out
    }

    /// [`sum_u64s`](Self::sum_u64s) for f64 values.
    pub fn sum_f64s<const N: usize>(&self, x: [f64; N]) -> [f64; N] {
        if self.size == 1 {
            return x;
        }
        let mut out = [0f64; N];
        self.world.all_reduce_into(
            &x[..],
            &mut out[..],
            mpi::collective::SystemOperation::sum(),
        );
        out
    }

    /// Every rank's `x` (the same length on every rank), concatenated in rank order.
    pub fn all_gather_u64s(&self, x: &[u64]) -> Vec<u64> {
        let mut all = vec![0u64; x.len() * self.size];
        self.world.all_gather_into(x, &mut all[..]);
        all
    }

    /// Sum over ranks.
    pub fn sum_u64(&self, x: u64) -> u64 {
        let mut out = 0u64;
        self.world
            .all_reduce_into(&x, &mut out, mpi::collective::SystemOperation::sum());
        out
    }

    pub fn max_u64(&self, x: u64) -> u64 {
        let mut out = 0u64;
        self.world
            .all_reduce_into(&x, &mut out, mpi::collective::SystemOperation::max());
        out
    }

    pub fn min_u64(&self, x: u64) -> u64 {
        let mut out = 0u64;
        self.world
            .all_reduce_into(&x, &mut out, mpi::collective::SystemOperation::min());
        out
    }

    pub fn max_f64(&self, x: f64) -> f64 {
        let mut out = 0f64;
        self.world
            .all_reduce_into(&x, &mut out, mpi::collective::SystemOperation::max());
        out
    }

    pub fn sum_f64(&self, x: f64) -> f64 {
        let mut out = 0f64;
        self.world
            .all_reduce_into(&x, &mut out, mpi::collective::SystemOperation::sum());
        out
    }

    /// All-to-all personalized exchange: `out[d]` goes to rank d; returns what every rank sent
    /// here, concatenated in rank order, and how many items came from each.
    pub fn exchange<T: Equivalence + Copy + Default>(
        &self,
        out: &[Vec<T>],
    ) -> DistResult<(Vec<T>, Vec<usize>)> {
        assert_eq!(out.len(), self.size);
        let counts: Vec<Count> = out
            .iter()
            .map(|v| Count::try_from(v.len()))
            .collect::<Result<_, _>>()
            .map_err(|_| too_big())?;
        let mut incoming = vec![0 as Count; self.size];
        self.world.all_to_all_into(&counts[..], &mut incoming[..]);
        let displs = prefix(&counts)?;
        let rdispls = prefix(&incoming)?;
        let total: usize = incoming.iter().map(|&c| c as usize).sum();
        let send = real_buffer(out.concat());
        let mut recv = real_buffer(vec![T::default(); total]);
        {
            let sp = MpiPartition::new(&send[..], &counts[..], &displs[..]);
            let mut rp = PartitionMut::new(&mut recv[..], &incoming[..], &rdispls[..]);
            self.world.all_to_all_varcount_into(&sp, &mut rp);
        }
        Ok((recv, incoming.iter().map(|&c| c as usize).collect()))
    }

    /// Concatenates every rank's `mine` on rank 0 (in rank order); other ranks get `None`.
    pub fn gather<T: Equivalence + Copy + Default>(
        &self,
        mine: &[T],
    ) -> DistResult<Option<Vec<T>>> {
        let n = Count::try_from(mine.len()).map_err(|_| too_big())?;
        let root = self.world.process_at_rank(0);
        if self.rank == 0 {
            let mut counts = vec![0 as Count; self.size];
            root.gather_into_root(&n, &mut counts[..]);
            let displs = prefix(&counts)?;
            let total: usize = counts.iter().map(|&c| c as usize).sum();
            let mut all = real_buffer(vec![T::default(); total]);
            {
                let mut rp = PartitionMut::new(&mut all[..], &counts[..], &displs[..]);
                root.gather_varcount_into_root(mine, &mut rp);
            }
            Ok(Some(all))
        } else {
            root.gather_into(&n);
            root.gather_varcount_into(mine);
            Ok(None)
        }
    }

    /// Ends the whole job now: for failures in the middle of a run, when other ranks may be
    /// waiting for messages from this one. mpirun then stops every rank.
    pub fn abort(&self, message: &str) -> ! {
        say(self.rank, message);
        self.world.abort(1)
    }
}

/// Prints `ordo-dist: rank R: message` on stderr in one `write`. Every rank shares mpirun's
/// stderr, and `eprintln!` writes a formatted line piece by piece, so two ranks failing at
/// once could interleave their messages mid-word ("rank rank 0: ... 3: ...").
pub fn say(rank: usize, message: impl std::fmt::Display) {
    use std::io::Write;
    let line = format!("ordo-dist: rank {rank}: {message}\n");
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// `v` with an allocation even when empty. An empty `Vec`'s pointer is the type's alignment,
/// 1 for bytes, which is `MPI_IN_PLACE` in Open MPI: a collective handed it reads "in place"
/// and fails with `MPI_ERR_ARG`.
fn real_buffer<T>(mut v: Vec<T>) -> Vec<T> {
    if v.capacity() == 0 {
        v.reserve(1);
    }
    v
}

fn too_big() -> DistError {
    DistError::Failed("one exchange exceeds MPI's 2^31-element count limit".into())
}

fn prefix(counts: &[Count]) -> DistResult<Vec<Count>> {
    let mut at: i64 = 0;
    let mut out = Vec::with_capacity(counts.len());
    for &c in counts {
        out.push(Count::try_from(at).map_err(|_| too_big())?);
        at += c as i64;
    }
    Ok(out)
}

impl Net {
    pub fn world_barrier(&self) {
        self.world.barrier();
    }
}
