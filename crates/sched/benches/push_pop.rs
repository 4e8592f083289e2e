//! ns per push+pop pair of every scheduler at 1 and 2 threads (`serial` at 1).
//! `cargo bench -p ordo-sched --bench push_pop`
//!
//! Each worker pushes a batch of tasks with SSSP-like, slowly rising priorities and pops them
//! back, interleaved as an application would; the figure is wall time / (pushes + pops) * 2.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ordo_sched::{Handle, Scheduler, SchedulerConfig, SchedulerVisitor, Topology};
use std::hint::black_box;

const PER_THREAD: u64 = 1 << 16;

struct Drive;

impl SchedulerVisitor<u64> for Drive {
    type Output = ();
    fn visit<S: Scheduler<u64>>(self, s: &S) {
        std::thread::scope(|scope| {
            for w in 0..s.workers() {
                scope.spawn(move || {
                    let mut h = s.handle(w);
                    let mut x = w as u64 + 1;
                    let mut sum = 0u64;
                    // Two pushes per pop for a while, then drain: a queue that grows and empties.
                    for i in 0..PER_THREAD {
                        x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                        h.push(i, i / 4 + (x >> 58));
                        if i % 2 == 1 {
                            sum += h.pop().unwrap_or(0);
                        }
                    }
                    while let Some(t) = h.pop() {
                        sum += t;
                    }
                    h.flush();
                    black_box(sum);
                });
            }
        });
    }
}

fn bench(c: &mut Criterion) {
    let topo = Topology::detect();
    let mut group = c.benchmark_group("push_pop_pair");
    let d4 = vec![("delta".to_string(), "4".to_string())];
    let mut cases = vec![("serial", vec![], 1)];
    for threads in [1, 2] {
        cases.push(("obim", vec![], threads));
        cases.push(("obim", d4.clone(), threads));
        for name in [
            "pmod",
            "smq",
            "mq",
            "reld",
            "spraylist",
            "heap",
            "sheap",
            "pheap",
            "fifo",
        ] {
            cases.push((name, vec![], threads));
        }
    }
    for (name, params, threads) in cases {
        let cfg = SchedulerConfig::parse(name, &params).unwrap();
        group.throughput(Throughput::Elements(PER_THREAD * threads as u64));
        group.bench_function(format!("{}/t{threads}", cfg.label()), |b| {
            b.iter(|| cfg.with(threads, &topo, Drive).unwrap())
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
