//! The mailroom: the state one process's workers and its communication thread share.
//!
//! ```text
//!  worker w ──send──> outbox[w][dest] ──full / old / idle──> queue ──comm──> MPI ──> peer
//!  worker w <──drain── arrived <──comm── MPI <── peer
//! ```
//! * A task for a remote node is a *record* appended to the sending worker's own buffer for
//!   its destination, through a [`Sender`] that locks the worker's outbox once per task (the
//!   lock is never contended: only worker w touches outbox w). A buffer leaves when it reaches
//!   `aggregate` bytes, when it is older than `flush_age` at the worker's next poll, or when
//!   the worker goes idle; the communication thread posts it to MPI.
//! * Reservation-free: the sender never asks for a slot; the receiver keeps whole buffers in
//!   `arrived` until a worker drains them (runs each record's handler, which may push local
//!   tasks). Credit-based back-pressure bounds that: each sender may have at most
//!   `buffer_limit / 4 / (ranks - 1)` bytes sent to a destination and not yet drained there
//!   (so at most a quarter of the bound arrives here and a quarter is in flight from here);
//!   drained bytes go back as credit messages. Buffers without credit wait in the sender's
//!   queue; when the queue holds more than half the memory bound, [`Mailroom::is_congested`]
//!   makes this process's workers stop running tasks (they keep draining, so credit keeps
//!   flowing and no cycle of waiting processes can form) until the queue shrinks.
//! * Keyed records ([`Sender::send_keyed`]: sssp/bfs distances, cc labels, pagerank shares)
//!   are combined on the way in: a worker's per-destination table folds a record into an
//!   earlier one for the same target still in the buffer, or drops it as no better than one
//!   already sent (`combine.rs`). `--no-combine` turns that off.
//! * Buffer memory comes from per-thread pools recycled through one-to-one bins (the
//!   dynamic-tasking paper, Drocco et al., SC'18 poster, §2.2): a worker allocates its send
//!   buffers, and when MPI is done with one the communication thread returns it to that
//!   worker's home bin; the communication thread allocates receive buffers, and the worker
//!   that drains one returns it through the bin from that worker to the communication thread.
//!   Each bin has exactly one producer and one consumer (a bounded `crossbeam_queue::ArrayQueue`
//!   used single-producer/single-consumer); a full bin frees the buffer instead.
//! * Static tasking (`--tasking static`, the baseline of that paper): one bin shared by every
//!   thread in each direction (GMT's single multi-producer multi-consumer pool), and a slot
//!   reserved at the destination before each record (`slots.rs`); a sender with none waits
//!   in [`Post`]'s wait, which runs arrived records.

use crate::combine::{self, Combiner, Fold};
use crate::slots::{Slots, Tasking};
use crossbeam_queue::ArrayQueue;
use crossbeam_utils::CachePadded;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Message tuning, the same on every rank.
#[derive(Debug, Clone)]
pub struct MailConfig {
    /// Bytes per aggregated buffer before it is sent.
    pub aggregate: usize,
    /// A partly filled buffer is sent once this old (checked when its worker polls).
    pub flush_age: Duration,
    /// Bound on this process's buffered message bytes (queued to send, in flight, arrived and
    /// not yet drained); see `docs/distributed.md` for what may exceed it.
    pub buffer_limit: u64,
    /// Fold records for the same remote node at the sender (`combine.rs`).
    pub combine: bool,
    /// How remote tasks are spawned (`slots.rs`).
    pub tasking: Tasking,
}

impl MailConfig {
    /// The bound on buffered bytes when none is given: 16 MiB, or four buffers of credit per
    /// destination where that is more. A larger bound lets records wait undrained at a rank
    /// that cannot keep up (measured in `docs/distributed.md`).
    pub fn default_buffer_limit(aggregate: u64, ranks: usize) -> u64 {
        (16 << 20).max(16 * aggregate * ranks as u64)
    }
}

impl Default for MailConfig {
    fn default() -> Self {
        MailConfig {
            aggregate: 16 << 10,
            flush_age: Duration::from_micros(200),
            buffer_limit: 16 << 20,
            combine: true,
            tasking: Tasking::Dynamic,
        }
    }
}

struct Outbox {
    bufs: Vec<Vec<u8>>,
    /// Per destination: the recent targets of keyed records (allocated at first use).
    tables: Vec<Combiner>,
    /// When the oldest unsent record was written.
    since: Option<Instant>,
    records: u64,
    /// Keyed records folded into an earlier one or dropped as no better.
    folded: u64,
}

impl Outbox {
    /// Takes the buffer for `dest` to hand it over; its records can no longer be folded into.
    fn take(&mut self, dest: usize) -> Vec<u8> {
        self.tables[dest].buffer_left();
        std::mem::take(&mut self.bufs[dest])
    }
}

/// A buffer on its way out or in.
pub struct Parcel {
    /// The destination (outgoing) or the source (arrived).
    pub peer: usize,
    /// The worker whose pool the buffer came from (outgoing) or that drained it (arrived).
    pub worker: usize,
    pub bytes: Vec<u8>,
}

/// Buffers each bin keeps before freeing the surplus.
const BIN: usize = 64;

pub struct Mailroom {
    pub ranks: usize,
    pub me: usize,
    pub cfg: MailConfig,
    /// Slots of each combining table (0: no combining).
    table_slots: usize,
    outboxes: Vec<CachePadded<Mutex<Outbox>>>,
    /// Flushed buffers for the communication thread.
    pub(crate) queue: Mutex<Vec<Parcel>>,
    /// Bytes flushed and not yet handed to MPI (queue plus the comm thread's waiting lists).
    pub(crate) queued_bytes: AtomicU64,
    /// Received buffers waiting for a worker.
    pub(crate) arrived: Mutex<VecDeque<Parcel>>,
    /// Buffers workers finished draining (the comm thread counts those it received).
    pub(crate) delivered: AtomicU64,
    /// Bytes drained per source, to return as credit.
    pub(crate) drained_from: Vec<CachePadded<AtomicU64>>,
    /// Buffered bytes now (queued, in flight, arrived), and the most ever. These and the other
    /// byte counters are Relaxed: they are statistics and back-pressure hints, and publish no
    /// data (the parcels themselves pass through the locked queues).
    buffered: AtomicU64,
    peak: AtomicU64,
    /// Send buffers MPI is done with, back to the worker that allocated them.
    home_bins: Vec<ArrayQueue<Vec<u8>>>,
    /// Drained receive buffers, from each worker back to the communication thread.
    comm_bins: Vec<ArrayQueue<Vec<u8>>>,
    pub(crate) finished: AtomicBool,
    pub(crate) congested: AtomicBool,
    pub(crate) congested_waits: AtomicU64,
    /// Static tasking's reservations (`None`: dynamic tasking).
    pub slots: Option<Slots>,
}

impl Mailroom {
    pub fn new(ranks: usize, me: usize, workers: usize, cfg: MailConfig) -> Mailroom {
        let outboxes = (0..workers)
            .map(|_| {
                CachePadded::new(Mutex::new(Outbox {
                    bufs: (0..ranks).map(|_| Vec::new()).collect(),
                    tables: (0..ranks).map(|_| Combiner::default()).collect(),
                    since: None,
                    records: 0,
                    folded: 0,
                }))
            })
            .collect();
        // The tables take at most an eighth of the buffer bound (they are not counted in it).
        let table_slots = if cfg.combine && ranks > 1 {
            combine::table_slots(cfg.aggregate, workers * (ranks - 1), cfg.buffer_limit / 8)
        } else {
            0
        };
        // Static tasking: one bin of each kind, shared by every thread.
        let bins = match cfg.tasking {
            Tasking::Dynamic => workers,
            Tasking::Static { .. } => 1,
        };
        let slots = match cfg.tasking {
            Tasking::Dynamic => None,
            Tasking::Static { pool, block } => Some(Slots::new(ranks, me, pool, block)),
        };
        Mailroom {
            ranks,
            me,
            cfg,
            table_slots,
            outboxes,
            queue: Mutex::new(Vec::new()),
            queued_bytes: AtomicU64::new(0),
            arrived: Mutex::new(VecDeque::new()),
            delivered: AtomicU64::new(0),
            drained_from: (0..ranks)
                .map(|_| CachePadded::new(AtomicU64::new(0)))
                .collect(),
            buffered: AtomicU64::new(0),
            peak: AtomicU64::new(0),
            home_bins: (0..bins)
                .map(|_| ArrayQueue::new(BIN * workers / bins))
                .collect(),
            comm_bins: (0..bins)
                .map(|_| ArrayQueue::new(BIN * workers / bins))
                .collect(),
            finished: AtomicBool::new(false),
            congested: AtomicBool::new(false),
            congested_waits: AtomicU64::new(0),
            slots,
        }
    }

    /// The bin of `worker`'s buffers (static tasking: the one shared bin).
    #[inline]
    fn bin(&self, worker: usize) -> usize {
        if self.home_bins.len() == 1 {
            0
        } else {
            worker
        }
    }

    /// Hands every partly filled buffer of `worker` to the communication thread.
    pub fn flush(&self, worker: usize) {
        self.hand_over_all(worker, &mut lock(&self.outboxes[worker]));
    }

    fn hand_over_all(&self, worker: usize, ob: &mut Outbox) {
        if ob.since.take().is_none() {
            return;
        }
        for dest in 0..self.ranks {
            if !ob.bufs[dest].is_empty() {
                let bytes = ob.take(dest);
                self.hand_over(worker, dest, bytes);
            }
        }
    }

    /// Flushes `worker`'s buffers if the oldest record has waited `flush_age`.
    pub fn flush_if_old(&self, worker: usize) {
        let old = lock(&self.outboxes[worker])
            .since
            .is_some_and(|t| t.elapsed() >= self.cfg.flush_age);
        if old {
            self.flush(worker);
        }
    }

    fn hand_over(&self, worker: usize, dest: usize, bytes: Vec<u8>) {
        let len = bytes.len() as u64;
        self.add_buffered(len);
        let queued = self.queued_bytes.fetch_add(len, Ordering::Relaxed) + len;
        if queued > self.cfg.buffer_limit / 2 {
            self.congested.store(true, Ordering::Relaxed);
        }
        lock(&self.queue).push(Parcel {
            peer: dest,
            worker,
            bytes,
        });
    }

    /// Takes one arrived buffer, or `None`.
    pub(crate) fn take_arrived(&self) -> Option<Parcel> {
        lock(&self.arrived).pop_front()
    }

    /// Worker `worker` finished the handlers of `parcel`'s `records` records.
    pub(crate) fn done_with(&self, worker: usize, parcel: Parcel, records: u64) {
        let len = parcel.bytes.len() as u64;
        self.drained_from[parcel.peer].fetch_add(len, Ordering::Relaxed);
        self.sub_buffered(len);
        if let Some(slots) = &self.slots {
            slots.free(records);
        }
        let mut bytes = parcel.bytes;
        bytes.clear();
        // A full bin means the pool is big enough: free this one.
        let _ = self.comm_bins[self.bin(worker)].push(bytes);
        // Release: the comm thread that sees this count also sees the tokens of the tasks the
        // handlers pushed (the passivity check in `comm.rs`).
        self.delivered.fetch_add(1, Ordering::Release);
    }

    /// MPI is done sending `parcel`: its buffer goes home.
    pub(crate) fn sent(&self, parcel: Parcel) {
        self.sub_buffered(parcel.bytes.len() as u64);
        let mut bytes = parcel.bytes;
        bytes.clear();
        let _ = self.home_bins[self.bin(parcel.worker)].push(bytes);
    }

    /// A buffer for a message of `len` bytes, from the drained-buffer bins when one is there.
    pub(crate) fn receive_buffer(&self, len: usize, turn: usize) -> Vec<u8> {
        let w = self.comm_bins.len();
        let mut buf = (0..w)
            .find_map(|i| self.comm_bins[(turn + i) % w].pop())
            .unwrap_or_default();
        buf.resize(len, 0);
        buf
    }

    pub(crate) fn add_buffered(&self, len: u64) {
        let now = self.buffered.fetch_add(len, Ordering::Relaxed) + len;
        self.peak.fetch_max(now, Ordering::Relaxed);
    }

    pub(crate) fn sub_buffered(&self, len: u64) {
        self.buffered.fetch_sub(len, Ordering::Relaxed);
    }

    pub fn peak_buffered(&self) -> u64 {
        self.peak.load(Ordering::Relaxed)
    }

    /// Records sent by every worker.
    pub fn records(&self) -> u64 {
        self.outboxes.iter().map(|o| lock(o).records).sum()
    }

    /// Keyed records the senders folded away (see `combine.rs`).
    pub fn folded(&self) -> u64 {
        self.outboxes.iter().map(|o| lock(o).folded).sum()
    }

    pub fn is_congested(&self) -> bool {
        self.congested.load(Ordering::Relaxed)
    }

    pub fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Acquire)
    }
}

/// A task's way to other ranks: the mailroom, and what a sender does while it waits for a
/// slot under static tasking (runs arrived records, `runtime.rs`).
#[derive(Clone, Copy)]
pub struct Post<'m> {
    mail: &'m Mailroom,
    wait: &'m (dyn Fn(usize) + Sync),
}

impl<'m> Post<'m> {
    pub fn new(mail: &'m Mailroom, wait: &'m (dyn Fn(usize) + Sync)) -> Post<'m> {
        Post { mail, wait }
    }

    /// `worker`'s access to its outgoing buffers for one task. It locks the worker's outbox at
    /// its first record and keeps it until dropped, so a task pays one uncontended lock however
    /// many records it sends, and none when it sends nothing.
    pub fn sender(&self, worker: usize) -> Sender<'m> {
        Sender {
            mail: self.mail,
            wait: self.wait,
            worker,
            outbox: None,
        }
    }
}

/// One task's records for other ranks (see [`Post::sender`]).
pub struct Sender<'m> {
    mail: &'m Mailroom,
    wait: &'m (dyn Fn(usize) + Sync),
    worker: usize,
    outbox: Option<MutexGuard<'m, Outbox>>,
}

impl Sender<'_> {
    /// Appends one record for rank `dest`: `write` adds its bytes.
    #[inline]
    pub fn send(&mut self, dest: usize, write: impl FnOnce(&mut Vec<u8>)) {
        self.reserve(dest);
        let (mail, worker) = (self.mail, self.worker);
        let ob = self.outbox();
        write(mail.buffer(worker, &mut ob.bufs[dest]));
        mail.written(worker, ob, dest);
    }

    /// Sends the record `(target, value)` to rank `dest`, folded with earlier records for the
    /// same target as `fold` says (`combine.rs`). On the wire it is the target as a u32, then
    /// the value: a u32 for [`Fold::MinU32`], a u64 otherwise.
    #[inline]
    pub fn send_keyed(&mut self, dest: usize, target: u32, value: u64, fold: Fold) {
        self.reserve(dest);
        let (mail, worker) = (self.mail, self.worker);
        let ob = self.outbox();
        let buf = mail.buffer(worker, &mut ob.bufs[dest]);
        let table = &mut ob.tables[dest];
        if mail.table_slots > 0 && !table.is_enabled() {
            *table = Combiner::new(mail.table_slots);
        }
        if table.is_enabled() {
            if !table.send(buf, target, value, fold) {
                ob.folded += 1;
                if let Some(slots) = &mail.slots {
                    slots.put_back(dest);
                }
                return;
            }
        } else {
            combine::append(buf, target, value, fold);
        }
        mail.written(worker, ob, dest);
    }

    /// Static tasking: takes a slot at `dest`, waiting for one if this rank holds none there.
    /// While it waits, this worker's buffers go out (their records hold slots others may be
    /// waiting for) and it runs arrived records (which frees this rank's slots).
    #[inline]
    fn reserve(&mut self, dest: usize) {
        let Some(slots) = &self.mail.slots else {
            return;
        };
        if slots.try_take(dest) {
            return;
        }
        self.wait_for_slot(slots, dest);
    }

    #[cold]
    fn wait_for_slot(&mut self, slots: &Slots, dest: usize) {
        slots.waits.fetch_add(1, Ordering::Relaxed);
        let (mail, worker) = (self.mail, self.worker);
        let mut rounds = 0u32;
        loop {
            slots.ask(dest);
            mail.hand_over_all(worker, self.outbox());
            (self.wait)(worker);
            if slots.try_take(dest) {
                return;
            }
            rounds = rounds.saturating_add(1);
            // The communication thread shares the cores: let it answer.
            if rounds < 16 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// The worker's outbox, locked at first use.
    #[inline]
    fn outbox(&mut self) -> &mut Outbox {
        let (mail, worker) = (self.mail, self.worker);
        self.outbox
            .get_or_insert_with(|| lock(&mail.outboxes[worker]))
    }
}

impl Mailroom {
    /// `buf`, given a pooled allocation if it has none.
    #[inline]
    fn buffer<'b>(&self, worker: usize, buf: &'b mut Vec<u8>) -> &'b mut Vec<u8> {
        if buf.capacity() == 0 {
            *buf = self.home_bins[self.bin(worker)]
                .pop()
                .unwrap_or_else(|| Vec::with_capacity(self.cfg.aggregate + 64));
        }
        buf
    }

    /// A record was appended to `ob`'s buffer for `dest`: hands it over once full.
    #[inline]
    fn written(&self, worker: usize, ob: &mut Outbox, dest: usize) {
        debug_assert_ne!(dest, self.me, "local work is pushed, not sent");
        ob.records += 1;
        ob.since.get_or_insert_with(Instant::now);
        if ob.bufs[dest].len() >= self.cfg.aggregate {
            let bytes = ob.take(dest);
            self.hand_over(worker, dest, bytes);
        }
    }
}

/// Locks, ignoring poisoning: a panicking worker aborts the whole job anyway (`runtime.rs`).
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
