//! Model-checks obim's lock-free-read global log and the shared chunk lists with loom:
//! `RUSTFLAGS="--cfg loom" cargo test --release -p ordo-sched --test loom_obim`
#![cfg(loom)]

use loom::sync::Arc;
use ordo_sched::chunk::Chunk;
use ordo_sched::chunk_list::ChunkList;
use ordo_sched::obim::global_log::GlobalLog;

/// A reader that sees version v sees entries 0..v fully written, across segment allocations
/// (segments of 1, 2, 4 entries under loom), while another thread appends.
#[test]
fn global_log_readers_see_complete_entries() {
    loom::model(|| {
        let log = Arc::new(GlobalLog::<u64>::new());
        let writer = {
            let log = log.clone();
            loom::thread::spawn(move || {
                for i in 0..3u64 {
                    log.lock().push(100 + i);
                }
            })
        };
        let reader = {
            let log = log.clone();
            loom::thread::spawn(move || {
                let v = log.version();
                for i in 0..v {
                    assert_eq!(log.get(i), 100 + i as u64);
                }
            })
        };
        writer.join().unwrap();
        reader.join().unwrap();
        assert_eq!(log.version(), 3);
    });
}

/// Two appenders never lose or duplicate an entry.
#[test]
fn global_log_concurrent_appends() {
    loom::model(|| {
        let log = Arc::new(GlobalLog::<u64>::new());
        let ts: Vec<_> = (0..2u64)
            .map(|t| {
                let log = log.clone();
                loom::thread::spawn(move || {
                    log.lock().push(t);
                })
            })
            .collect();
        for t in ts {
            t.join().unwrap();
        }
        let mut got: Vec<u64> = (0..log.version()).map(|i| log.get(i)).collect();
        got.sort();
        assert_eq!(got, vec![0, 1]);
    });
}

fn chunk_of(x: u32) -> Box<Chunk<u32>> {
    let mut c = Box::new(Chunk::with_capacity(1));
    c.push(x);
    c
}

/// Chunks pushed and popped concurrently are each taken exactly once.
#[test]
fn chunk_list_loses_nothing() {
    loom::model(|| {
        let list = Arc::new(ChunkList::<u32>::new());
        let producer = {
            let list = list.clone();
            loom::thread::spawn(move || {
                list.push(chunk_of(1));
                list.push(chunk_of(2));
            })
        };
        let consumer = {
            let list = list.clone();
            loom::thread::spawn(move || {
                let mut got = vec![];
                for _ in 0..2 {
                    if let Some(mut c) = list.pop_front() {
                        got.push(c.pop_front().unwrap());
                    }
                }
                got
            })
        };
        producer.join().unwrap();
        let mut got = consumer.join().unwrap();
        while let Some(mut c) = list.pop_back() {
            got.push(c.pop_front().unwrap());
        }
        got.sort();
        assert_eq!(got, vec![1, 2]);
    });
}
