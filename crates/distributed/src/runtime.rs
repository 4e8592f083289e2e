//! Running a distributed application: the shared-memory executor with an [`Inbox`] fed by
//! the communication thread, on any ordo scheduler.

use crate::comm::{Comm, CommStats};
use crate::mail::{lock, MailConfig, Mailroom, Post};
use crate::net::{DistError, DistResult, Net};
use crate::slots::Tasking;
use crossbeam_utils::CachePadded;
use ordo_exec::termination::Termination;
use ordo_exec::{for_each_open, Context, ExecConfig, ExecError, Inbox, RunReport};
use ordo_sched::{Handle, Scheduler, SchedulerConfig, SchedulerVisitor, Task};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A distributed application: a task operator that may send records to other ranks, and the
/// handler that applies an arrived buffer of records on the receiving rank.
pub trait DistApp: Sync {
    type Task: Task;

    /// Runs one local task; records for remote nodes go through `mail.sender`.
    fn run_task<H: Handle<Self::Task>>(
        &self,
        task: Self::Task,
        ctx: &mut Context<'_, Self::Task, H>,
        mail: &Post<'_>,
    );

    /// Applies every record in `bytes` (sent by some rank); `push` schedules local tasks.
    /// Returns how many records there were.
    fn deliver(&self, bytes: &[u8], worker: usize, push: &mut dyn FnMut(Self::Task, u64)) -> u64;
}

/// The executor's view of the mailroom for one application.
struct AppInbox<'a, A> {
    app: &'a A,
    mail: &'a Mailroom,
}

/// Arrived buffers a worker drains per poll while it has local work.
const DRAIN_BATCH: usize = 4;

impl<A: DistApp> Inbox<A::Task> for AppInbox<'_, A> {
    fn drain(&self, worker: usize, push: &mut dyn FnMut(A::Task, u64)) -> usize {
        let mut taken = 0;
        while taken < DRAIN_BATCH {
            let Some(parcel) = self.mail.take_arrived() else {
                break;
            };
            let records = self.app.deliver(&parcel.bytes, worker, push);
            self.mail.done_with(worker, parcel, records);
            taken += 1;
        }
        taken
    }

    fn on_idle(&self, worker: usize) {
        self.mail.flush(worker);
    }

    fn on_poll(&self, worker: usize) {
        self.mail.flush_if_old(worker);
    }

    fn finished(&self) -> bool {
        self.mail.is_finished()
    }

    fn congested(&self) -> bool {
        let c = self.mail.is_congested();
        if c {
            self.mail.congested_waits.fetch_add(1, Ordering::Relaxed);
        }
        c
    }
}

/// One run's results on this rank.
pub struct Ran {
    pub report: RunReport,
    pub comm: CommStats,
    pub records: u64,
    /// Keyed records folded away at the sender.
    pub folded: u64,
    pub peak_buffered: u64,
    pub congested_waits: u64,
    /// Static tasking: times a worker waited for a slot.
    pub slot_waits: u64,
    pub tasking: Tasking,
    pub time: Duration,
}

/// Runs `app` from `initial` on this rank's workers until the job is over on every rank.
/// A failure here (an operator panic) ends the whole job through `MPI_Abort`: the other ranks
/// would otherwise wait for this one forever.
pub fn run<A: DistApp>(
    net: &Net,
    sched: &SchedulerConfig,
    exec: &ExecConfig,
    mail_cfg: &MailConfig,
    app: &A,
    initial: Vec<(A::Task, u64)>,
) -> DistResult<Ran> {
    let mail = Mailroom::new(net.size, net.rank, exec.threads, mail_cfg.clone());
    let term = Termination::new(initial.len() as u64);
    // Everyone starts together, so the times measure the run and not the slowest loader.
    net.world_barrier();
    let start = Instant::now();
    let (pool, comm) = std::thread::scope(|s| {
        let pool = s.spawn(|| {
            let visit = Visit {
                app,
                mail: &mail,
                term: &term,
                exec,
                initial,
            };
            sched
                .with(exec.threads, &exec.topology, visit)
                .map_err(|e| e.to_string())
                .and_then(|r| r.map_err(|e| e.to_string()))
        });
        let mut comm = Comm::new(net, &mail, &term);
        let ok = comm.run(|| pool.is_finished());
        if !ok {
            let why = match pool.join() {
                Ok(Err(e)) => e,
                Ok(Ok(_)) => "the workers stopped before the job was over".into(),
                Err(_) => "a worker thread panicked".into(),
            };
            net.abort(&why);
        }
        let report = pool.join();
        (report, comm.finish())
    });
    let time = start.elapsed();
    let report = match pool {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => return Err(DistError::Failed(e)),
        Err(_) => return Err(DistError::Failed("a worker thread panicked".into())),
    };
    Ok(Ran {
        report,
        comm,
        records: mail.records(),
        folded: mail.folded(),
        peak_buffered: mail.peak_buffered(),
        congested_waits: mail.congested_waits.load(Ordering::Relaxed),
        slot_waits: mail
            .slots
            .as_ref()
            .map_or(0, |s| s.waits.load(Ordering::Relaxed)),
        tasking: mail_cfg.tasking,
        time,
    })
}

struct Visit<'a, A: DistApp> {
    app: &'a A,
    mail: &'a Mailroom,
    term: &'a Termination,
    exec: &'a ExecConfig,
    initial: Vec<(A::Task, u64)>,
}

impl<A: DistApp> SchedulerVisitor<A::Task> for Visit<'_, A> {
    type Output = Result<RunReport, ExecError>;

    fn visit<S: Scheduler<A::Task>>(self, s: &S) -> Self::Output {
        let inbox = AppInbox {
            app: self.app,
            mail: self.mail,
        };
        // Static tasking: a sender waiting for a slot runs arrived records; the tasks they
        // push wait here until its task returns and pushes them (its token keeps the rank
        // from looking passive meanwhile).
        let spills: Vec<Spill<A::Task>> = (0..self.exec.threads)
            .map(|_| CachePadded::new((AtomicBool::new(false), Mutex::new(Vec::new()))))
            .collect();
        let wait = |w: usize| {
            let (spilled, tasks) = &*spills[w];
            let mut tasks = lock(tasks);
            inbox.drain(w, &mut |t, p| tasks.push((t, p)));
            if !tasks.is_empty() {
                spilled.store(true, Ordering::Relaxed);
            }
        };
        let post = Post::new(self.mail, &wait);
        let (app, reserving) = (self.app, self.mail.slots.is_some());
        for_each_open(s, self.initial, self.exec, &inbox, self.term, |t, ctx| {
            app.run_task(t, ctx, &post);
            if reserving {
                // Relaxed: set and read by this worker's own thread.
                let (spilled, tasks) = &*spills[ctx.worker()];
                if spilled.load(Ordering::Relaxed) {
                    spilled.store(false, Ordering::Relaxed);
                    for (t, p) in lock(tasks).drain(..) {
                        ctx.push(t, p);
                    }
                }
            }
        })
    }
}

/// One worker's tasks pushed by records it ran while waiting for a slot, and whether any.
type Spill<T> = CachePadded<(AtomicBool, Mutex<Vec<(T, u64)>>)>;
