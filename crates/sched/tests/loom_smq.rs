//! Model-checks the lock-free parts of the randomized schedulers with loom: SMQ's stealing
//! buffer and the try-lock + cached top of the MultiQueue's heaps.
//! `RUSTFLAGS="--cfg loom" cargo test --release -p ordo-sched --test loom_smq`
#![cfg(loom)]

use loom::sync::Arc;
use ordo_sched::locked_heap::{LockedHeap, EMPTY_TOP};
use ordo_sched::smq::StealBuffer;

/// The owner refills twice while a thief steals: every task comes out exactly once, either
/// in the thief's steal or in the owner's own take.
#[test]
fn steal_buffer_hands_each_task_to_one_thread() {
    loom::model(|| {
        let buf = Arc::new(StealBuffer::<u64>::new(2));
        let mut source = vec![(4u64, 40u64), (3, 30), (2, 20), (1, 10)];
        assert!(buf.refill(|| source.pop()));
        let thief = {
            let buf = buf.clone();
            loom::thread::spawn(move || {
                let mut out = vec![];
                buf.steal(&mut out);
                out
            })
        };
        let mut mine = vec![];
        // The owner takes its own buffer if still full, then refills from what is left.
        buf.steal(&mut mine);
        buf.refill(|| source.pop());
        buf.steal(&mut mine);
        let mut all = thief.join().unwrap();
        all.extend(mine);
        // Anything still buffered belongs to the owner.
        buf.steal(&mut all);
        all.extend(source);
        all.sort();
        assert_eq!(all, vec![(1, 10), (2, 20), (3, 30), (4, 40)]);
    });
}

/// Two thieves race for one fill: exactly one wins, and the top hint never shows a priority
/// that was never buffered.
#[test]
fn steal_buffer_one_winner_per_fill() {
    loom::model(|| {
        let buf = Arc::new(StealBuffer::<u64>::new(1));
        let mut src = vec![(7u64, 70u64)];
        assert!(buf.refill(|| src.pop()));
        let ts: Vec<_> = (0..2)
            .map(|_| {
                let buf = buf.clone();
                loom::thread::spawn(move || {
                    if let Some(t) = buf.top() {
                        assert_eq!(t, 7);
                    }
                    let mut out = vec![];
                    buf.steal(&mut out);
                    out
                })
            })
            .collect();
        let got: Vec<(u64, u64)> = ts.into_iter().flat_map(|t| t.join().unwrap()).collect();
        assert_eq!(got, vec![(7, 70)]);
        assert_eq!(buf.top(), None);
    });
}

/// Two threads push and pop through the try-lock: no task lost or duplicated, and the cached
/// top agrees with the heap once both are done.
#[test]
fn locked_heap_try_lock_and_cached_top() {
    loom::model(|| {
        let h = Arc::new(LockedHeap::<u64>::new());
        let ts: Vec<_> = (0..2u64)
            .map(|i| {
                let h = h.clone();
                loom::thread::spawn(move || {
                    h.with(|heap| heap.push(i, i));
                    h.try_with(|heap| heap.pop()).flatten()
                })
            })
            .collect();
        let mut got: Vec<u64> = ts
            .into_iter()
            .filter_map(|t| t.join().unwrap().map(|e| e.1))
            .collect();
        while let Some(e) = h.with(|heap| heap.pop()) {
            got.push(e.1);
        }
        got.sort();
        assert_eq!(got, vec![0, 1]);
        assert_eq!(h.top(), EMPTY_TOP);
    });
}
