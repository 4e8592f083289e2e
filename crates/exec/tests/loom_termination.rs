//! Model-checks the token termination protocol (`src/README.md`) with loom:
//! `RUSTFLAGS="--cfg loom" cargo test --release -p ordo-exec --test loom_termination`
#![cfg(loom)]

use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::sync::{Arc, Mutex};
use ordo_exec::termination::{Credit, Termination};

/// Tasks are ids; task k spawns k+1 and k+3 while below LIMIT (so some tasks spawn two).
const LIMIT: u32 = 3;

fn children(k: u32) -> impl Iterator<Item = u32> {
    [k + 1, k + 3].into_iter().filter(|&c| c <= LIMIT)
}

fn expected_runs() -> usize {
    // Tasks form a tree from root 0: count it.
    fn count(k: u32) -> usize {
        1 + children(k).map(count).sum::<usize>()
    }
    count(0)
}

#[test]
fn no_worker_exits_while_tasks_remain() {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(3);
    builder.check(|| {
        let term = Arc::new(Termination::new(1));
        let queue = Arc::new(Mutex::new(vec![0u32]));
        let runs = Arc::new(AtomicUsize::new(0));
        let worker = |mut credit: Credit| {
            let (term, queue, runs) = (term.clone(), queue.clone(), runs.clone());
            move || loop {
                let task = queue.lock().unwrap().pop();
                match task {
                    Some(k) => {
                        runs.fetch_add(1, Ordering::Relaxed);
                        for c in children(k) {
                            term.on_push(&mut credit);
                            queue.lock().unwrap().push(c);
                        }
                        term.on_done(&mut credit);
                        term.trim(&mut credit);
                    }
                    None => {
                        term.release(&mut credit);
                        if term.is_terminated() {
                            // Safety: nothing may be left once a worker decides to exit.
                            assert!(queue.lock().unwrap().is_empty(), "exited with tasks queued");
                            return;
                        }
                        loom::thread::yield_now();
                    }
                }
            }
        };
        // The root's token is pre-assigned to worker 0, which pushed it (already queued).
        let mut c0 = Credit::preassigned(1);
        term.on_push(&mut c0);
        let a = loom::thread::spawn(worker(c0));
        let b = loom::thread::spawn(worker(Credit::default()));
        a.join().unwrap();
        b.join().unwrap();
        assert_eq!(
            runs.load(Ordering::Relaxed),
            expected_runs(),
            "every task ran once"
        );
        assert!(term.is_terminated());
    });
}
