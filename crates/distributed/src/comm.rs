//! The communication thread: the only thread that calls MPI while a run is going
//! (`MPI_THREAD_FUNNELED`), and global termination detection.
//!
//! ## Termination protocol (counting waves)
//! Every rank counts the data buffers it *sent* (S) and *received* (R); both only grow. A rank
//! is **passive** when nothing runs or waits here: its token count G is 0 (no task pending or
//! running, every worker's partial buffers handed over, see `ordo_exec::inbox`), every
//! received buffer has been drained, and its send queue is empty. A passive rank becomes
//! active only by receiving a buffer, which raises its R.
//!
//! A *wave* is a non-blocking all-reduce (`MPI_Iallreduce`) of (S, R) summed over ranks; a
//! rank contributes to a wave only while passive. The job is over when two consecutive waves
//! return the same sums with S = R. Why that is safe: wave k+1 starts on every rank after
//! wave k completed everywhere, so each rank's two contributions bracket the moment T when
//! wave k completed. Equal sums mean no rank's counters moved between its two contributions
//! (they never decrease), so no rank received anything between them, so each stayed passive
//! from its first contribution through T. At T every rank is passive and S = R says no buffer
//! is in flight: nothing can ever run again. Every rank sees the same sums, so all decide in
//! the same wave. Control messages (credit, and under static tasking slot requests and
//! grants) carry no work and are not counted; the few still in flight at the end are received
//! after the decision (their number is exchanged first), so `MPI_Finalize` finds no unmatched
//! message.
//!
//! The test `tests/mpi.rs` runs every application at 1, 2 and 4 ranks against the serial
//! oracles, including a skewed job that keeps the back-pressure engaged.

use crate::mail::{lock, Mailroom, Parcel};
use crate::net::Net;
use crate::slots::Pool;
use mpi::collective::SystemOperation;
use mpi::point_to_point::{Destination, Message, Source, Status};
use mpi::request::{Request, StaticScope};
use mpi::topology::Communicator;
use mpi::traits::*;
use ordo_exec::termination::Termination;
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::time::Duration;

const TAG_DATA: i32 = 11;
const TAG_CREDIT: i32 = 12;
/// Static tasking: a request for slots, and its answer (`slots.rs`).
const TAG_RESERVE: i32 = 13;
const TAG_GRANT: i32 = 14;

/// What the communication thread counted.
#[derive(Debug, Default, Clone)]
pub struct CommStats {
    /// Data buffers sent and received by this rank.
    pub sent: u64,
    pub received: u64,
    pub bytes_sent: u64,
    pub credit_messages: u64,
    pub waves: u64,
    /// Buffers that waited for credit before they could be sent.
    pub held_for_credit: u64,
    /// Static tasking: requests for slots sent, and those answered with none.
    pub reserve_requests: u64,
    pub reserve_denied: u64,
}

/// A buffer MPI is sending; it owns the bytes until the request completes.
struct InFlight {
    req: Request<'static, [u8]>,
    /// Leaked from a `Box<[u8]>` for the request's `'static` borrow; reclaimed on completion.
    raw: *mut [u8],
    /// The data parcel's peer and worker (`None`: a credit message).
    parcel: Option<(usize, usize)>,
}

/// An all-reduce of (S, R) in progress.
struct Wave {
    req: Request<'static, [u64]>,
    send: *mut [u64],
    recv: *mut [u64],
}

/// The communication thread's state. It stays on that thread (its raw pointers make it
/// neither `Send` nor `Sync`); each pointer is a buffer it owns until the request completes.
pub struct Comm<'a> {
    net: &'a Net,
    mail: &'a Mailroom,
    term: &'a Termination,
    in_flight: Vec<InFlight>,
    /// Reused between rounds so the loop does not allocate: flushed parcels just taken from
    /// the shared queue, and requests still pending.
    fresh: Vec<Parcel>,
    still_pending: Vec<InFlight>,
    /// Per destination: buffers waiting for credit, and the bytes it may still be sent.
    waiting: Vec<VecDeque<Parcel>>,
    credit: Vec<i64>,
    /// Credit granted per peer (the most a peer may have here undrained).
    credit_limit: i64,
    /// Drained bytes per source already returned as credit.
    returned: Vec<u64>,
    /// Control messages (credit, slot requests and grants) sent to and received from each
    /// peer, matched up after the end.
    control_sent: Vec<u64>,
    control_received: Vec<u64>,
    /// Static tasking: this rank's free slots, and the destinations asked for a block and not
    /// yet answered.
    pool: Option<Pool>,
    requested: Vec<bool>,
    wave: Option<Wave>,
    last_wave: Option<[u64; 2]>,
    turn: usize,
    pub stats: CommStats,
}

impl<'a> Comm<'a> {
    pub fn new(net: &'a Net, mail: &'a Mailroom, term: &'a Termination) -> Comm<'a> {
        let peers = (net.size - 1).max(1) as u64;
        // A quarter of the bound for what peers may have sent here undrained, so that with
        // this rank's own in-flight sends (another quarter at most, the same credit seen from
        // the sender) and its unsent queue (half, `Mailroom::congested`) the total stays
        // under the bound.
        let credit_limit = (mail.cfg.buffer_limit / 4 / peers).max(1) as i64;
        Comm {
            net,
            mail,
            term,
            in_flight: Vec::new(),
            fresh: Vec::new(),
            still_pending: Vec::new(),
            waiting: (0..net.size).map(|_| VecDeque::new()).collect(),
            credit: vec![credit_limit; net.size],
            credit_limit,
            returned: vec![0; net.size],
            control_sent: vec![0; net.size],
            control_received: vec![0; net.size],
            pool: mail.slots.as_ref().map(|s| Pool::new(s, net.size)),
            requested: vec![false; net.size],
            wave: None,
            last_wave: None,
            turn: 0,
            stats: CommStats::default(),
        }
    }

    /// Runs until the job is over everywhere (then sets `mail.finished`), or until `failed`
    /// says this rank's workers died (then returns false).
    pub fn run(&mut self, failed: impl Fn() -> bool) -> bool {
        let mut idle = 0u32;
        loop {
            let mut busy = self.post_sends();
            busy |= self.receive();
            busy |= self.complete_sends();
            busy |= self.return_credit(idle > 0);
            busy |= self.ask_for_slots();
            // Relaxed: congestion is a hint read by workers between tasks; a stale value
            // delays or prolongs a wait by a round, and the bound's slack covers that.
            self.mail.congested.store(
                self.mail.queued_bytes.load(Ordering::Relaxed) > self.mail.cfg.buffer_limit / 2,
                Ordering::Relaxed,
            );
            if self.termination() {
                // Release, paired with the workers' Acquire in `is_finished`: nothing needs
                // publishing (results are read after the pool is joined), but it keeps the
                // flag's meaning plain: a worker that sees it sees the state it was set in.
                self.mail.finished.store(true, Ordering::Release);
                return true;
            }
            if failed() {
                return false;
            }
            if busy {
                idle = 0;
            } else {
                idle = idle.saturating_add(1);
                // The comm thread shares the cores with the workers: back off when quiet.
                if idle < 16 {
                    std::hint::spin_loop();
                } else if idle < 64 {
                    std::thread::yield_now();
                } else {
                    std::thread::sleep(Duration::from_micros(if idle < 1024 { 20 } else { 100 }));
                }
            }
        }
    }

    /// Moves flushed buffers to the per-destination lists and posts those with credit.
    fn post_sends(&mut self) -> bool {
        // Swap the shared queue with our empty one: the lock is held for a pointer swap.
        std::mem::swap(&mut self.fresh, &mut *lock(&self.mail.queue));
        let mut busy = !self.fresh.is_empty();
        for p in self.fresh.drain(..) {
            let d = p.peer;
            self.waiting[d].push_back(p);
        }
        for d in 0..self.net.size {
            while let Some(front) = self.waiting[d].front() {
                let len = front.bytes.len() as i64;
                // A buffer larger than the whole credit goes when nothing else is outstanding.
                if self.credit[d] < len && self.credit[d] < self.credit_limit {
                    self.stats.held_for_credit += 1;
                    break;
                }
                let p = self.waiting[d].pop_front().expect("front exists");
                self.credit[d] -= len;
                self.mail
                    .queued_bytes
                    .fetch_sub(len as u64, Ordering::Relaxed);
                self.stats.sent += 1;
                self.stats.bytes_sent += len as u64;
                let (peer, worker) = (p.peer, p.worker);
                self.isend(
                    peer,
                    TAG_DATA,
                    p.bytes.into_boxed_slice(),
                    Some((peer, worker)),
                );
                busy = true;
            }
        }
        busy
    }

    fn isend(&mut self, to: usize, tag: i32, bytes: Box<[u8]>, parcel: Option<(usize, usize)>) {
        let raw = Box::into_raw(bytes);
        // SAFETY: `raw` stays valid (leaked) until `complete_sends` sees the request finish
        // and rebuilds the box; nothing else touches it meanwhile.
        let view: &'static [u8] = unsafe { &*raw };
        let req = self
            .net
            .world
            .process_at_rank(to as i32)
            .immediate_send_with_tag(StaticScope, view, tag);
        self.in_flight.push(InFlight { req, raw, parcel });
    }

    fn complete_sends(&mut self) -> bool {
        let before = self.in_flight.len();
        let mut pending = std::mem::take(&mut self.still_pending);
        for f in self.in_flight.drain(..) {
            match f.req.test() {
                Ok(_) => {
                    // SAFETY: the request is complete, so MPI no longer reads the buffer; it
                    // came from `Box::into_raw` in `isend`.
                    let bytes = unsafe { Box::from_raw(f.raw) }.into_vec();
                    if let Some((peer, worker)) = f.parcel {
                        self.mail.sent(Parcel {
                            peer,
                            worker,
                            bytes,
                        });
                    }
                }
                Err(req) => pending.push(InFlight { req, ..f }),
            }
        }
        // `in_flight` is empty now: it becomes next round's spare.
        std::mem::swap(&mut self.in_flight, &mut pending);
        self.still_pending = pending;
        self.in_flight.len() < before
    }

    fn receive(&mut self) -> bool {
        let mut busy = false;
        for _ in 0..64 {
            let Some((msg, status)) = self.net.world.any_process().immediate_matched_probe() else {
                break;
            };
            busy = true;
            self.take(msg, status);
        }
        busy
    }

    fn take(&mut self, msg: Message, status: Status) {
        let from = status.source_rank() as usize;
        let len = status.count(u8::equivalent_datatype()) as usize;
        match status.tag() {
            tag @ (TAG_CREDIT | TAG_RESERVE | TAG_GRANT) => {
                let mut b = [0u8; 8];
                msg.matched_receive_into(&mut b[..]);
                self.control_received[from] += 1;
                let n = u64::from_le_bytes(b);
                match tag {
                    TAG_CREDIT => self.credit[from] += n as i64,
                    TAG_RESERVE => self.answer_request(from, n),
                    _ => {
                        self.requested[from] = false;
                        if n == 0 {
                            self.stats.reserve_denied += 1;
                        }
                        if let Some(slots) = &self.mail.slots {
                            slots.granted(from, n);
                        }
                    }
                }
            }
            _ => {
                self.turn = self.turn.wrapping_add(1);
                let mut bytes = self.mail.receive_buffer(len, self.turn);
                msg.matched_receive_into(&mut bytes[..]);
                self.mail.add_buffered(len as u64);
                self.stats.received += 1;
                lock(&self.mail.arrived).push_back(Parcel {
                    peer: from,
                    worker: 0,
                    bytes,
                });
            }
        }
    }

    /// Returns drained bytes to their senders: in batches of a quarter of the credit, or all
    /// of it when this thread has nothing else to do.
    fn return_credit(&mut self, quiet: bool) -> bool {
        let mut busy = false;
        for src in 0..self.net.size {
            // Relaxed: a byte count, and credit only bounds memory; reading it late returns
            // the credit a round later.
            let drained = self.mail.drained_from[src].load(Ordering::Relaxed);
            let owed = drained - self.returned[src];
            if owed > 0 && (quiet || owed as i64 >= self.credit_limit / 4) {
                self.returned[src] = drained;
                self.stats.credit_messages += 1;
                self.control(src, TAG_CREDIT, owed);
                busy = true;
            }
        }
        busy
    }

    /// Sends a control message carrying `n`.
    fn control(&mut self, to: usize, tag: i32, n: u64) {
        self.control_sent[to] += 1;
        self.isend(to, tag, Box::new(n.to_le_bytes()), None);
    }

    /// Static tasking: takes back the slots of records run here, and asks for a block at
    /// each destination a worker waits on (one request outstanding per destination).
    fn ask_for_slots(&mut self) -> bool {
        let (Some(pool), Some(slots)) = (&mut self.pool, &self.mail.slots) else {
            return false;
        };
        pool.collect(slots);
        let block = slots.block;
        let mut busy = false;
        for d in 0..self.net.size {
            if !self.requested[d] && slots.is_asking(d) {
                self.requested[d] = true;
                self.stats.reserve_requests += 1;
                self.control(d, TAG_RESERVE, block);
                busy = true;
            }
        }
        busy
    }

    /// Static tasking: grants `from` what this rank's pool has left, up to `want` slots.
    fn answer_request(&mut self, from: usize, want: u64) {
        let Some(pool) = &mut self.pool else {
            return;
        };
        if let Some(slots) = &self.mail.slots {
            pool.collect(slots);
        }
        let granted = pool.grant(want);
        self.control(from, TAG_GRANT, granted);
    }

    /// This rank is passive (module docs). The order matters: the drained count first (with
    /// Acquire it makes the handlers' pushes visible), then G, then the send queue (workers
    /// hand over their buffers before they return the tokens that let G reach 0).
    fn passive(&self) -> bool {
        self.mail.delivered.load(Ordering::Acquire) == self.stats.received
            && self.term.is_terminated()
            && lock(&self.mail.queue).is_empty()
            && self.waiting.iter().all(VecDeque::is_empty)
    }

    /// Advances the termination waves; true once the job is over.
    fn termination(&mut self) -> bool {
        if let Some(w) = self.wave.take() {
            match w.req.test() {
                Ok(_) => {
                    // SAFETY: the all-reduce completed; both buffers came from Box::into_raw.
                    let (send, recv) = unsafe { (Box::from_raw(w.send), Box::from_raw(w.recv)) };
                    drop(send);
                    let sums = [recv[0], recv[1]];
                    self.stats.waves += 1;
                    let over = sums[0] == sums[1] && self.last_wave == Some(sums);
                    self.last_wave = Some(sums);
                    return over;
                }
                Err(req) => {
                    self.wave = Some(Wave { req, ..w });
                    return false;
                }
            }
        }
        if self.passive() {
            let send =
                Box::into_raw(Box::new([self.stats.sent, self.stats.received]) as Box<[u64]>);
            let recv = Box::into_raw(Box::new([0u64; 2]) as Box<[u64]>);
            // SAFETY: both stay allocated until the request completes (above).
            let (s, r): (&'static [u64], &'static mut [u64]) = unsafe { (&*send, &mut *recv) };
            let req =
                self.net
                    .world
                    .immediate_all_reduce_into(StaticScope, s, r, SystemOperation::sum());
            self.wave = Some(Wave { req, send, recv });
        }
        false
    }

    /// After the decision: waits for this rank's sends and receives the control messages
    /// still addressed to it, so no message is left unmatched. A slot request that arrives
    /// now is not answered (`pool` is dropped first): nothing is left to send.
    pub fn finish(mut self) -> CommStats {
        while !self.in_flight.is_empty() {
            self.complete_sends();
        }
        self.pool = None;
        let mut expected = vec![0u64; self.net.size];
        self.net
            .world
            .all_to_all_into(&self.control_sent[..], &mut expected[..]);
        for (src, &want) in expected.iter().enumerate() {
            while self.control_received[src] < want {
                // Data cannot arrive now: the termination waves showed none in flight.
                let (msg, status) = self.net.world.process_at_rank(src as i32).matched_probe();
                self.take(msg, status);
            }
        }
        self.stats
    }
}
