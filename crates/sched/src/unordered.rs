//! `fifo` and `lifo`: one distributed chunked bag, priorities ignored. The no-priority
//! baseline (Galois' dChunkedFIFO / dChunkedLIFO).

use crate::bag::{Bag, BagShared, BagWorker, Order};
use crate::contract::{CounterSink, Counters, Handle, HandleClaims, Scheduler, Task};
use crate::params::{parse_in, Config, ConfigError, ParamInfo};
use crate::topology::{Topology, WorkerLayout};

macro_rules! bag_config {
    ($name:ident, $cli:literal, $summary:literal) => {
        #[derive(Debug, Clone)]
        pub struct $name {
            /// Tasks per chunk.
            pub chunk: usize,
        }

        impl Default for $name {
            fn default() -> Self {
                $name { chunk: 64 }
            }
        }

        impl Config for $name {
            const NAME: &'static str = $cli;
            const SUMMARY: &'static str = $summary;

            fn describe(&self) -> Vec<ParamInfo> {
                vec![ParamInfo {
                    key: "chunk",
                    default: self.chunk.to_string(),
                    doc: "tasks per chunk (the unit moved between workers)",
                }]
            }

            fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
                match key {
                    "chunk" => self.chunk = parse_in::<Self>(key, value, 1..=1 << 16)? as usize,
                    _ => return Err(Self::unknown_param(key)),
                }
                Ok(())
            }
        }
    };
}

bag_config!(
    FifoConfig,
    "fifo",
    "unordered chunked FIFO bag, priorities ignored (baseline)"
);
bag_config!(
    LifoConfig,
    "lifo",
    "unordered chunked LIFO bag, priorities ignored (baseline)"
);

pub struct Unordered<T> {
    bag: Bag<T>,
    shared: BagShared,
    layout: WorkerLayout,
    chunk: usize,
    claims: HandleClaims,
    sink: CounterSink,
}

impl<T: Task> Unordered<T> {
    pub fn fifo(cfg: &FifoConfig, workers: usize, topo: &Topology) -> Self {
        Self::new(Order::Fifo, cfg.chunk, workers, topo)
    }

    pub fn lifo(cfg: &LifoConfig, workers: usize, topo: &Topology) -> Self {
        Self::new(Order::Lifo, cfg.chunk, workers, topo)
    }

    fn new(order: Order, chunk: usize, workers: usize, topo: &Topology) -> Self {
        let layout = topo.layout(workers);
        Unordered {
            bag: Bag::new(workers, layout.packages()),
            shared: BagShared::new(order, layout.packages()),
            chunk,
            claims: HandleClaims::new(workers),
            sink: CounterSink::default(),
            layout,
        }
    }
}

pub struct UnorderedHandle<'s, T: Copy> {
    s: &'s Unordered<T>,
    w: BagWorker<T>,
}

impl<T: Task> Scheduler<T> for Unordered<T> {
    type Handle<'s> = UnorderedHandle<'s, T>;

    fn handle(&self, worker: usize) -> UnorderedHandle<'_, T> {
        self.claims.claim(worker);
        let p = self.layout.package_of[worker];
        UnorderedHandle {
            s: self,
            w: BagWorker::new(worker, p, self.layout.members[p].len(), self.chunk),
        }
    }

    fn workers(&self) -> usize {
        self.layout.workers()
    }

    fn counters(&self) -> Counters {
        self.sink.snapshot()
    }
}

impl<T: Task> Handle<T> for UnorderedHandle<'_, T> {
    #[inline]
    fn push(&mut self, task: T, _priority: u64) {
        self.s.bag.push(&mut self.w, task);
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        self.s.bag.pop(&self.s.shared, &mut self.w)
    }

    fn flush(&mut self) {
        self.s.bag.flush(&mut self.w);
    }
}

impl<T: Copy> Drop for UnorderedHandle<'_, T> {
    fn drop(&mut self) {
        self.s.sink.merge(&[
            ("chunks_published", self.w.chunks_published),
            ("remote_chunks", self.w.remote_chunks),
            ("hunts", self.w.hunts),
        ]);
        self.s.claims.release(self.w.worker);
    }
}
