//! Model-checks the SprayList's lock-free skip list with loom (protocol in
//! `crates/sched/src/spraylist/README.md`): inserts racing with claims of the same node, of its
//! neighbours and with each other; two claimers racing for one task. After every interleaving
//! each task has come out exactly once and the list is well formed: sorted on every level, no
//! claimed node still linked anywhere (so retiring it was safe).
//! `RUSTFLAGS="--cfg loom" cargo test --release -p ordo-sched --test loom_spraylist`
#![cfg(loom)]

use loom::sync::Arc;
use loom::thread;
use ordo_sched::random::Rng;
use ordo_sched::spraylist::{SkipList, SprayShape};

/// Two levels keep the state space small while still exercising tower building.
const LEVELS: usize = 2;

/// Once every thread is done: the tasks left in the list, after checking its shape.
fn drain(list: Arc<SkipList<u64>>) -> Vec<(u64, u64)> {
    let mut list = Arc::try_unwrap(list).ok().expect("every thread has let go");
    list.check_quiescent().expect("well-formed list")
}

/// A tall insert races with a delete-min that may take the very node being built: the
/// inserter's late upper link must not leave the claimed node reachable.
#[test]
fn insert_races_with_claim_of_same_node() {
    loom::model(|| {
        let list = Arc::new(SkipList::<u64>::new(LEVELS));
        let inserter = {
            let list = list.clone();
            thread::spawn(move || {
                let me = list.register();
                list.insert(&me, 5, 0, 50, 2);
            })
        };
        let me = list.register();
        let got = list.delete_min(&me);
        inserter.join().unwrap();
        let mut all = drain(list);
        all.extend(got);
        assert_eq!(all, vec![(5, 50)]);
    });
}

/// An insert lands next to a node another thread is removing (its predecessor on both
/// levels): the insert's links must not be lost behind the removed node.
#[test]
fn insert_next_to_node_being_removed() {
    loom::model(|| {
        let list = Arc::new(SkipList::<u64>::new(LEVELS));
        {
            let me = list.register();
            list.insert(&me, 1, 0, 10, 2);
        }
        let inserter = {
            let list = list.clone();
            thread::spawn(move || {
                let me = list.register();
                list.insert(&me, 2, 1, 20, 2);
            })
        };
        let me = list.register();
        let got = list.delete_min(&me);
        inserter.join().unwrap();
        let mut all = drain(list);
        all.extend(got);
        all.sort();
        assert_eq!(all, vec![(1, 10), (2, 20)]);
    });
}

/// Two delete-mins race for the same first task: exactly one takes it, the other moves on.
#[test]
fn one_winner_per_task() {
    loom::model(|| {
        let list = Arc::new(SkipList::<u64>::new(LEVELS));
        {
            let me = list.register();
            list.insert(&me, 3, 0, 30, 2);
            list.insert(&me, 4, 1, 40, 1);
        }
        let other = {
            let list = list.clone();
            thread::spawn(move || {
                let me = list.register();
                list.delete_min(&me)
            })
        };
        let me = list.register();
        let mine = list.delete_min(&me);
        let theirs = other.join().unwrap();
        assert!(mine.is_some() && theirs.is_some());
        let mut all = drain(list);
        all.extend(mine);
        all.extend(theirs);
        all.sort();
        assert_eq!(all, vec![(3, 30), (4, 40)]);
    });
}

/// A spray that lands on the first task races with a delete-min for it.
#[test]
fn spray_and_delete_min_race() {
    // A generator whose first draw makes the one-level spray step once, onto the first node.
    let seed = (0..64).find(|&s| Rng::for_worker(s).below(2) == 1).unwrap();
    loom::model(move || {
        let list = Arc::new(SkipList::<u64>::new(LEVELS));
        {
            let me = list.register();
            list.insert(&me, 3, 0, 30, 1);
        }
        let sprayer = {
            let list = list.clone();
            thread::spawn(move || {
                let me = list.register();
                let shape = SprayShape {
                    start_level: 0,
                    max_jump: 1,
                    padding: 0,
                };
                list.spray(&me, &shape, &mut Rng::for_worker(seed))
            })
        };
        let me = list.register();
        let mine = list.delete_min(&me);
        let theirs = sprayer.join().unwrap();
        let mut all = drain(list);
        all.extend(mine);
        all.extend(theirs);
        assert_eq!(all, vec![(3, 30)]);
    });
}

/// Three threads: an insert next to a node being taken, while a third thread takes from the
/// front too, so the new node may be claimed before its tower is built. Three threads need a
/// preemption bound to finish in CI time (loom's usual practice for three threads).
#[test]
fn insert_and_two_claimers() {
    let mut model = loom::model::Builder::new();
    model.preemption_bound = Some(2);
    model.check(|| {
        let list = Arc::new(SkipList::<u64>::new(LEVELS));
        {
            let me = list.register();
            list.insert(&me, 1, 0, 10, 2);
        }
        let spawn = |f: fn(&SkipList<u64>) -> Option<(u64, u64)>| {
            let list = list.clone();
            thread::spawn(move || f(&list))
        };
        let inserter = spawn(|l| {
            l.insert(&l.register(), 2, 1, 20, 2);
            None
        });
        let claimer = spawn(|l| l.delete_min(&l.register()));
        let mine = list.delete_min(&list.register());
        let mut all: Vec<_> = inserter.join().unwrap().into_iter().collect();
        all.extend(claimer.join().unwrap());
        all.extend(mine);
        all.extend(drain(list));
        all.sort();
        assert_eq!(all, vec![(1, 10), (2, 20)]);
    });
}

/// Two tall inserts into the same gap: both end up linked, in key order, on both levels.
#[test]
fn concurrent_inserts_same_gap() {
    loom::model(|| {
        let list = Arc::new(SkipList::<u64>::new(LEVELS));
        let other = {
            let list = list.clone();
            thread::spawn(move || {
                let me = list.register();
                list.insert(&me, 7, 1, 71, 2);
            })
        };
        let me = list.register();
        list.insert(&me, 7, 0, 70, 2);
        other.join().unwrap();
        assert_eq!(drain(list), vec![(7, 70), (7, 71)]);
    });
}
