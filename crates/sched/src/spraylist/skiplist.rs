//! The lock-free skip list under the SprayList: Fraser's / Herlihy-Shavit's design, with a
//! separate `claimed` flag per node as in the SprayList authors' code, so that a delete is
//! decided by one swap and the unlinking that follows is ordinary skip-list cleanup.
//!
//! The protocol and why no node is lost, handed out twice or freed while reachable is written
//! up in `README.md` next to this file; `tests/loom_spraylist.rs` model-checks it.
//!
//! * Links are `AtomicUsize`s holding a node address with bit 0 as the *mark*: a marked link
//!   `x.next[l]` means "x is being removed from level l" and is never changed again.
//! * Keys are `(priority, seq)`, unique because `seq` is unique per insert.
//! * Links are read with `Acquire` and changed with `AcqRel` read-modify-writes: a node's
//!   contents are published by the exchange that links it. The `claimed` flag is decided by an
//!   `AcqRel` swap; plain reads of it are hints. Nothing relies on
//!   `SeqCst` (which loom models only partially): where the inserter and the claimer of one
//!   node must agree, they meet on one read-modify-write counter (README.md, "Retiring").

use super::reclaim::{Domain, Local, Pin};
use crate::random::Rng;
use crate::sync::{
    AtomicBool, AtomicUsize,
    Ordering::{AcqRel, Acquire, Relaxed},
};
use std::mem::MaybeUninit;

/// The most levels a list can have (the head's tower).
pub const MAX_LEVELS: usize = 32;

const MARK: usize = 1;

#[inline]
fn is_marked(link: usize) -> bool {
    link & MARK != 0
}

#[inline]
fn unmarked(link: usize) -> usize {
    link & !MARK
}

struct Node<T> {
    next0: AtomicUsize,
    prio: u64,
    seq: u64,
    /// Set once, by the thread that takes this node's task.
    claimed: AtomicBool,
    /// The node is retired when both the inserter (done building the tower) and the claimer
    /// (done unlinking) have let go: see README.md, "Retiring".
    refs: AtomicUsize,
    /// Uninitialized only in the head.
    task: MaybeUninit<T>,
    /// Links of levels 1.. (empty for the half of the nodes that have one level).
    upper: Box<[AtomicUsize]>,
}

impl<T> Node<T> {
    fn alloc(prio: u64, seq: u64, task: MaybeUninit<T>, height: usize) -> *mut Node<T> {
        Box::into_raw(Box::new(Node {
            next0: AtomicUsize::new(0),
            prio,
            seq,
            claimed: AtomicBool::new(false),
            refs: AtomicUsize::new(2),
            task,
            upper: (1..height).map(|_| AtomicUsize::new(0)).collect(),
        }))
    }

    #[inline]
    fn next(&self, level: usize) -> &AtomicUsize {
        if level == 0 {
            &self.next0
        } else {
            &self.upper[level - 1]
        }
    }

    #[inline]
    fn height(&self) -> usize {
        1 + self.upper.len()
    }

    #[inline]
    fn precedes(&self, prio: u64, seq: u64) -> bool {
        (self.prio, self.seq) < (prio, seq)
    }

    /// Whether the task is still to be taken (a hint: the claim itself is a swap).
    #[inline]
    fn available(&self) -> bool {
        // Relaxed: a hint for counting steps and skipping taken nodes; nothing is read on
        // its strength, the AcqRel swap in `try_take` decides.
        !self.claimed.load(Relaxed)
    }
}

/// # Safety
/// `link` is an unmarked non-null link read while pinned.
#[inline]
unsafe fn node<'p, T>(link: usize) -> &'p Node<T> {
    debug_assert!(link != 0 && !is_marked(link));
    // SAFETY: the caller is pinned and read `link` from the list, so the node is allocated
    // until it unpins (reclaim.rs).
    unsafe { &*(link as *const Node<T>) }
}

/// Where a spray starts and how far it walks (SprayList paper §3; the authors' code).
#[derive(Debug, Clone, Copy)]
pub struct SprayShape {
    /// The level the walk starts on.
    pub start_level: usize,
    /// At each level the walk takes a uniform number of steps in `0..=max_jump`.
    pub max_jump: usize,
    /// Positions at the head that count as (virtual) dummy nodes: steps over them are used up
    /// without moving, so that few sprays land on the very first tasks.
    pub padding: usize,
}

impl SprayShape {
    /// The authors' parameters for `p` threads: start at level log p + 1, jump up to
    /// log p + 1 at each level, descend one level per step, padding p log p / 2.
    pub fn for_threads(p: usize, levels: usize) -> Self {
        let log = p.max(1).ilog2() as usize;
        SprayShape {
            start_level: (log + 1).min(levels - 1),
            max_jump: log + 1,
            padding: p * log / 2,
        }
    }
}

/// A lock-free skip list of `(priority, seq, task)` sorted by `(priority, seq)`.
pub struct SkipList<T> {
    head: *mut Node<T>,
    levels: usize,
    domain: Domain,
}

// SAFETY: nodes are shared between threads only through the atomics of the protocol; a task
// is written before its node is published and read by the one thread that claims it.
unsafe impl<T: Send> Send for SkipList<T> {}
// SAFETY: as above.
unsafe impl<T: Send> Sync for SkipList<T> {}

/// What a failed `find` leaves behind: for each level, the last node before the key and the
/// first node at or after it.
struct Window<T> {
    preds: [*const Node<T>; MAX_LEVELS],
    succs: [usize; MAX_LEVELS],
}

impl<T> Window<T> {
    fn new() -> Self {
        Window {
            preds: [std::ptr::null(); MAX_LEVELS],
            succs: [0; MAX_LEVELS],
        }
    }
}

impl<T: Copy> SkipList<T> {
    /// An empty list whose nodes have at most `levels` levels (1..=`MAX_LEVELS`).
    pub fn new(levels: usize) -> Self {
        assert!((1..=MAX_LEVELS).contains(&levels));
        SkipList {
            head: Node::alloc(0, 0, MaybeUninit::uninit(), levels),
            levels,
            domain: Domain::new(),
        }
    }

    pub fn levels(&self) -> usize {
        self.levels
    }

    /// Registers a worker; each worker passes its own `Local` to every operation.
    pub fn register(&self) -> ListLocal {
        ListLocal(self.domain.register())
    }

    fn head(&self) -> &Node<T> {
        // SAFETY: the head lives as long as the list.
        unsafe { &*self.head }
    }

    /// A random height: level l+1 with probability 1/2 given level l.
    pub fn random_height(&self, rng: &mut Rng) -> usize {
        (1 + rng.next_u64().trailing_zeros() as usize).min(self.levels)
    }

    /// Fills `w` for key `(prio, seq)`, unlinking every marked node met on the way.
    ///
    /// Each link the walk moves along is read from a node that was unmarked at that level
    /// when read (a marked predecessor restarts the walk), so every level's walk follows the
    /// list as it was at the reads: a node linked at that level when its position was read is
    /// met. README.md, "Find", uses this.
    fn find(&self, prio: u64, seq: u64, w: &mut Window<T>) {
        'retry: loop {
            let mut pred: &Node<T> = self.head();
            for level in (0..self.levels).rev() {
                let mut curr = pred.next(level).load(Acquire);
                if is_marked(curr) {
                    continue 'retry;
                }
                while curr != 0 {
                    // SAFETY: read from the list while the caller is pinned.
                    let c = unsafe { node::<T>(curr) };
                    let succ = c.next(level).load(Acquire);
                    if is_marked(succ) {
                        // `c` is being removed at this level: unlink it. The exchange fails
                        // if `pred` changed or got marked itself; start over then.
                        if pred
                            .next(level)
                            .compare_exchange(curr, unmarked(succ), AcqRel, Acquire)
                            .is_err()
                        {
                            continue 'retry;
                        }
                        curr = unmarked(succ);
                        continue;
                    }
                    if !c.precedes(prio, seq) {
                        break;
                    }
                    pred = c;
                    curr = succ;
                }
                w.preds[level] = pred;
                w.succs[level] = curr;
            }
            return;
        }
    }

    /// Inserts a task with `height` levels (1..=levels).
    pub fn insert(&self, local: &ListLocal, prio: u64, seq: u64, task: T, height: usize) {
        let pin = self.domain.pin(&local.0);
        let height = height.clamp(1, self.levels);
        let new = Node::alloc(prio, seq, MaybeUninit::new(task), height);
        // SAFETY: ours until published, and never freed before we release our reference.
        let n = unsafe { &*new };
        let mut w = Window::new();
        loop {
            self.find(prio, seq, &mut w);
            for level in 0..height {
                // Relaxed: `n` is not published yet; the AcqRel exchange below publishes it.
                n.next(level).store(w.succs[level], Relaxed);
            }
            // SAFETY: `preds` come from `find` under our pin.
            let pred = unsafe { &*w.preds[0] };
            if pred
                .next(0)
                .compare_exchange(w.succs[0], new as usize, AcqRel, Acquire)
                .is_ok()
            {
                break;
            }
        }
        // The task is visible (and may already be claimed). Link the upper levels bottom-up,
        // stopping at the first level a claimer has marked.
        'tower: for level in 1..height {
            loop {
                let mine = n.next(level).load(Acquire);
                if is_marked(mine) {
                    break 'tower;
                }
                let succ = w.succs[level];
                if mine != succ
                    && n.next(level)
                        .compare_exchange(mine, succ, AcqRel, Acquire)
                        .is_err()
                {
                    continue;
                }
                // SAFETY: from `find` under our pin.
                let pred = unsafe { &*w.preds[level] };
                if pred
                    .next(level)
                    .compare_exchange(succ, new as usize, AcqRel, Acquire)
                    .is_ok()
                {
                    break;
                }
                self.find(prio, seq, &mut w);
            }
        }
        self.release(&pin, new);
    }

    /// Drops one of the node's two references (the inserter's, once its tower is built; the
    /// claimer's, once it has marked every level). The last one unlinks the node from every
    /// level and retires it (README.md, "Retiring").
    fn release(&self, pin: &Pin<'_>, n: *mut Node<T>) {
        // SAFETY: we hold a reference, so `n` is allocated.
        let node = unsafe { &*n };
        // AcqRel: the last releaser sees the other's links and marks.
        if node.refs.fetch_sub(1, AcqRel) == 1 {
            self.find(node.prio, node.seq, &mut Window::new());
            // SAFETY: both are done and the find removed every link to the node, so threads
            // that pin from now on cannot reach it; this is the last reference.
            unsafe { pin.retire(n) }
        }
    }

    /// Takes the task of `c` if nobody has; then marks and unlinks the node.
    fn try_take(&self, pin: &Pin<'_>, c: &Node<T>) -> Option<(u64, T)> {
        if !c.available() || c.claimed.swap(true, AcqRel) {
            return None;
        }
        // SAFETY: every node but the head holds a task, and the head is never claimed: walks
        // start after it.
        let task = unsafe { c.task.assume_init() };
        // Mark top-down, as Herlihy-Shavit, so a node marked at level 0 is marked everywhere.
        for level in (0..c.height()).rev() {
            let link = c.next(level);
            let mut v = link.load(Acquire);
            while !is_marked(v) {
                match link.compare_exchange(v, v | MARK, AcqRel, Acquire) {
                    Ok(_) => break,
                    Err(now) => v = now,
                }
            }
        }
        let prio = c.prio;
        self.release(pin, c as *const Node<T> as *mut Node<T>);
        Some((prio, task))
    }

    /// Takes the first unclaimed task (Lotan-Shavit delete-min: the SprayList's "cleaner").
    /// `None` only if every node passed was claimed.
    pub fn delete_min(&self, local: &ListLocal) -> Option<(u64, T)> {
        let pin = self.domain.pin(&local.0);
        let mut curr = unmarked(self.head().next0.load(Acquire));
        while curr != 0 {
            // SAFETY: read from the list while pinned.
            let c = unsafe { node::<T>(curr) };
            if let Some(got) = self.try_take(&pin, c) {
                return Some(got);
            }
            curr = unmarked(c.next0.load(Acquire));
        }
        None
    }

    /// A spray: a random walk from the head down the levels to a node near the front, then
    /// the first unclaimed node from there, which it tries to take once. `None` if the walk
    /// stayed on the head, ran off the end, or lost the race for the node.
    pub fn spray(&self, local: &ListLocal, shape: &SprayShape, rng: &mut Rng) -> Option<(u64, T)> {
        let pin = self.domain.pin(&local.0);
        let mut cur: &Node<T> = self.head();
        let mut on_head = true;
        let mut padding_left = shape.padding;
        let mut level = shape.start_level.min(self.levels - 1);
        loop {
            let mut steps = rng.below(shape.max_jump + 1);
            while padding_left > 0 && steps > 0 {
                padding_left = padding_left.saturating_sub(1 << level);
                steps -= 1;
            }
            while steps > 0 {
                let next = unmarked(cur.next(level).load(Acquire));
                if next == 0 {
                    break;
                }
                // SAFETY: read from the list while pinned.
                cur = unsafe { node::<T>(next) };
                on_head = false;
                if cur.available() {
                    steps -= 1;
                }
            }
            if level == 0 {
                break;
            }
            level -= 1;
        }
        if on_head {
            return None;
        }
        while !cur.available() {
            let next = unmarked(cur.next0.load(Acquire));
            if next == 0 {
                return None;
            }
            // SAFETY: read from the list while pinned.
            cur = unsafe { node::<T>(next) };
        }
        self.try_take(&pin, cur)
    }

    /// Whether no unclaimed node is linked (a snapshot; racy under concurrency).
    pub fn is_empty(&self, local: &ListLocal) -> bool {
        let _pin = self.domain.pin(&local.0);
        let mut curr = unmarked(self.head().next0.load(Acquire));
        while curr != 0 {
            // SAFETY: read from the list while pinned.
            let c = unsafe { node::<T>(curr) };
            if c.available() {
                return false;
            }
            curr = unmarked(c.next0.load(Acquire));
        }
        true
    }
}

impl<T> SkipList<T> {
    /// Checks the list's shape when no operation runs (for tests): every level sorted by key,
    /// no marked link and no claimed node reachable at any level, and every node linked at a
    /// level also linked on all levels below. Returns the tasks in priority order.
    pub fn check_quiescent(&mut self) -> Result<Vec<(u64, T)>, String>
    where
        T: Copy,
    {
        use std::collections::HashSet;
        // SAFETY: `&mut self`: no operation runs, every linked node is live.
        let head = unsafe { &*self.head };
        let mut below: Option<HashSet<usize>> = None;
        let mut bottom = Vec::new();
        for level in (0..self.levels).rev() {
            let mut here = HashSet::new();
            let mut prev: Option<(u64, u64)> = None;
            let mut link = head.next(level).load(Acquire);
            while link != 0 {
                if is_marked(link) {
                    return Err(format!("marked link on level {level}"));
                }
                // SAFETY: linked, hence live (see above).
                let n = unsafe { &*(link as *const Node<T>) };
                if n.claimed.load(Acquire) {
                    return Err(format!("claimed node {:?} still on level {level}", n.prio));
                }
                let key = (n.prio, n.seq);
                if prev.is_some_and(|p| p >= key) {
                    return Err(format!("level {level} out of order at {key:?}"));
                }
                prev = Some(key);
                here.insert(link);
                if level == 0 {
                    // SAFETY: unclaimed nodes hold their task.
                    bottom.push((n.prio, unsafe { n.task.assume_init() }));
                }
                link = n.next(level).load(Acquire);
            }
            if let Some(upper) = &below {
                if !upper.is_subset(&here) {
                    return Err(format!(
                        "a node on level {} is missing on level {level}",
                        level + 1
                    ));
                }
            }
            below = Some(here);
        }
        Ok(bottom)
    }
}

impl<T> Drop for SkipList<T> {
    fn drop(&mut self) {
        // No operation runs any more (we have `&mut`). Every claimed node has been unlinked
        // and retired (README.md); the nodes still on level 0 are the unclaimed ones, each
        // referenced only by the list. The domain, dropped after this, frees the retired ones.
        // SAFETY: the head and every linked node are live allocations owned by the list.
        unsafe {
            let mut curr = unmarked((*self.head).next0.load(Acquire));
            drop(Box::from_raw(self.head));
            while curr != 0 {
                let n = Box::from_raw(curr as *mut Node<T>);
                curr = unmarked(n.next0.load(Acquire));
            }
        }
    }
}

/// A worker's registration with a list's reclamation domain.
pub struct ListLocal(Local);
