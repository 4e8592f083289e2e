//! ordo-dist's command line: the application, the graph, and how the ranks run it.

use clap::{Parser, ValueEnum};
use ordo_algos::app::RunRequest;
use ordo_dist::net::{DistError, DistResult};
use ordo_dist::slots::{Tasking, GMT_BLOCK, GMT_POOL};
use ordo_sched::{parse_param, SchedulerConfig, Topology};

#[derive(Parser, Debug)]
#[command(
    name = "ordo-dist",
    version,
    about = "Distributed ordo on MPI: graph analytics over partitioned graphs",
    after_help = "Launch with mpirun (as root add --allow-run-as-root; more ranks than cores need --oversubscribe):
  mpirun -np 4 ordo-dist tc gen:er:16 --json
  mpirun -np 2 ordo-dist sssp USA-road-d.NY.gr.gz
  mpirun -np 2 ordo-dist sssp USA-road-d.NY.gr.gz --scheduler obim    # as tasks
  mpirun -np 4 ordo-dist bfs ny.ordo --partition hash --threads 1
  mpirun -np 2 ordo-dist cc ny.ordo --algo tasks
  mpirun -np 4 ordo-dist tc gen:er:16 --tasking static --task-pool 65536   # GMT's baseline
  mpirun -np 2 ordo-dist pagerank soc-Slashdot0902.txt.gz --no-verify
  mpirun -np 2 ordo-dist pagerank kron20.ordo --iterations 20    # Gemini's fixed count
  mpirun -np 8 --hostfile hosts ordo-dist cc gen:kronecker:24 --no-verify --json

Each application runs ordo's default method by default, in bulk-synchronous rounds across
the ranks (bfs: direction-optimizing, sssp: delta-stepping, cc: Afforest then labels across
the cut, pagerank: pull); --algo tasks runs asynchronous tasks under --scheduler, remote
tasks travelling in aggregated messages (tc runs that way only). The JSON's algo says which.

GRAPH is a file (an .ordo binary is read in parts by every rank, by offsets; other formats
are parsed once by rank 0 and scattered) or a generator that every rank runs for its share.
The input flags (--format, --symmetrize, --drop-self-loops, --merge-parallel, --weights)
are ordo's and give the same graph; sssp on an unweighted graph uses weights 1:255:1, as
ordo does. Generators:
  gen:kronecker:SCALE[:EDGE_FACTOR]   Graph500 Kronecker, 2^SCALE nodes
  gen:er:SCALE[:FACTOR]               Erdos-Renyi like DIMACS10 er-fact1.5-scaleN
  gen:uniform:N:M                     M uniform random arcs over N nodes
Generated graphs are simple, with weights 1..255, and the same for any number of ranks.

Verification gathers the graph and the result on rank 0 and compares with ordo's serial
oracle; pass --no-verify when the graph does not fit on one machine.

Exit status: 0 success, 1 bad input, a failed rank or failed verification, 2 bad usage."
)]
pub struct Args {
    /// Application
    #[arg(value_enum)]
    pub app: App,
    /// Graph file or generator (see below)
    pub graph: String,
    #[command(flatten)]
    pub input: ordo_graph::InputFlags,
    /// Source node (bfs, sssp), as the file numbers nodes [default: the first node]
    #[arg(long)]
    pub source: Option<u64>,
    /// Method: bulk-synchronous rounds as ordo's defaults (bfs: direction, sssp: delta,
    /// cc: afforest, pagerank: pull), or `tasks`, asynchronous tasks under --scheduler with
    /// aggregated messages (tc runs as tasks only) [default: the bulk-synchronous one, or
    /// tasks when --scheduler or --param is given]
    #[arg(long, value_enum)]
    pub algo: Option<Algo>,
    /// Scheduler inside every rank, for --algo tasks (see `ordo schedulers`); naming one
    /// other than auto selects tasks
    #[arg(long, short = 's', default_value = "auto")]
    pub scheduler: String,
    /// Scheduler parameter key=value (repeatable)
    #[arg(long = "param", short = 'p', value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// Worker threads per rank [default: the cores divided among the ranks on this host]
    #[arg(long, short = 't')]
    pub threads: Option<usize>,
    /// Node-to-rank layout: ranges (contiguous, balanced by edges) or hash (v mod ranks)
    #[arg(long, value_enum, default_value = "ranges")]
    pub partition: Layout,
    /// Bytes of records aggregated per destination before a message is sent
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u64).range(64..=(1 << 30)))]
    pub aggregate: u64,
    /// Send a partly filled buffer once it is this old (microseconds)
    #[arg(long, default_value_t = 200)]
    pub flush_us: u64,
    /// Send every record: do not fold records for the same remote node at the sender
    /// (keeping the best distance or label, summing PageRank shares)
    #[arg(long)]
    pub no_combine: bool,
    /// Bound on each rank's buffered message bytes (e.g. 64M, 1G) [default: 16M, or 16 x
    /// --aggregate x ranks where that is more: four buffers of credit per destination]
    #[arg(long, value_parser = parse_bytes)]
    pub buffer_limit: Option<u64>,
    /// How --algo tasks spawns a task on another rank: dynamic (sent at once, buffered at the
    /// receiver under back-pressure; the dynamic-tasking paper's design) or static (GMT's
    /// baseline: a slot reserved at the receiver first, from a fixed pool per rank)
    #[arg(long, value_enum, default_value = "dynamic")]
    pub tasking: TaskingArg,
    /// --tasking static: task slots per rank [default: 2097152, GMT's 2^20 per queue, two
    /// queues]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub task_pool: Option<u64>,
    /// --tasking static: slots a rank asks another for at a time [default: 1024, GMT's
    /// MTASKS_RES_BLOCK]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub reserve_block: Option<u64>,
    /// PageRank convergence, networkx's per-node meaning, as `ordo pagerank --tolerance`
    /// [default: 1e-4 / nodes as ordo's (GAPBS's rule: an L1 change below 1e-4); 1e-6 for
    /// --algo tasks]
    #[arg(long)]
    pub tolerance: Option<f64>,
    /// PageRank (--algo pull): exactly N iterations, whatever the change, as `ordo pagerank
    /// --iterations` (the fixed count of Gemini's benchmark, which runs 20)
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=ordo_algos::pagerank::pull::MAX_ITERATIONS as i64))]
    pub iterations: Option<u32>,
    /// cc: the most links between local components (pairs joined by a cut edge) that rank 0
    /// gathers and joins itself, in five collectives; past it, labels cross the cut one edge a
    /// round (0: always rounds)
    #[arg(long, default_value_t = ordo_dist::bsp::cc::GATHERED_LINKS)]
    pub gather_links: u64,
    /// Seed of the generators
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Skip gathering the result on rank 0 and checking it against the serial oracle
    #[arg(long)]
    pub no_verify: bool,
    /// Do not pin worker threads to cores
    #[arg(long)]
    pub no_pin: bool,
    /// Cap each rank's address space (e.g. 8G): a rank that needs more fails with an
    /// allocation error and mpirun stops the whole job, instead of the machine swapping
    #[arg(long, value_parser = parse_bytes)]
    pub max_memory: Option<u64>,
    /// Print one JSON object (rank 0) instead of the text summary
    #[arg(long)]
    pub json: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum App {
    Bfs,
    Sssp,
    Cc,
    Pagerank,
    Tc,
}

/// How an application runs across the ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Algo {
    /// Direction-optimizing BFS, level by level (bfs)
    Direction,
    /// Pull iteration (pagerank)
    Pull,
    /// Afforest within each rank, labels across the cut (cc)
    Afforest,
    /// Delta-stepping, bucket by bucket (sssp)
    Delta,
    /// Asynchronous tasks under --scheduler, records in aggregated messages (every app)
    Tasks,
}

impl Algo {
    /// The method `app` runs when none is asked for.
    pub fn default_for(app: App) -> Algo {
        match app {
            App::Bfs => Algo::Direction,
            App::Pagerank => Algo::Pull,
            App::Cc => Algo::Afforest,
            App::Sssp => Algo::Delta,
            App::Tc => Algo::Tasks,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Algo::Direction => "direction",
            Algo::Pull => "pull",
            Algo::Afforest => "afforest",
            Algo::Delta => "delta",
            Algo::Tasks => "tasks",
        }
    }
}

impl Args {
    /// The method to run, checked against the application. Naming a scheduler (or its
    /// parameters) asks for tasks, as `ordo APP --scheduler S` runs the scheduled version.
    pub fn method(&self) -> DistResult<Algo> {
        let default = Algo::default_for(self.app);
        let scheduled = self.scheduler != "auto" || !self.params.is_empty();
        match self.algo {
            None if scheduled => Ok(Algo::Tasks),
            None => Ok(default),
            Some(a) if scheduled && a != Algo::Tasks => Err(usage(format!(
                "--scheduler and --param apply to --algo tasks, not {}",
                a.name()
            ))),
            Some(a) if a == default || a == Algo::Tasks => Ok(a),
            Some(a) => Err(usage(format!(
                "--algo {} is not a method of {}: use {} (the default) or tasks",
                a.name(),
                format!("{:?}", self.app).to_lowercase(),
                default.name()
            ))),
        }
    }

    /// How remote tasks are spawned on `ranks` ranks, checked against the method.
    pub fn tasking(&self, ranks: usize) -> DistResult<Tasking> {
        let pool_or_block_given = self.task_pool.is_some() || self.reserve_block.is_some();
        let (pool, block) = (
            self.task_pool.unwrap_or(GMT_POOL),
            self.reserve_block.unwrap_or(GMT_BLOCK),
        );
        match self.tasking {
            TaskingArg::Dynamic if pool_or_block_given => Err(usage(
                "--task-pool and --reserve-block apply to --tasking static",
            )),
            TaskingArg::Dynamic => Ok(Tasking::Dynamic),
            TaskingArg::Static if self.method()? != Algo::Tasks => Err(usage(format!(
                "--tasking static applies to --algo tasks, not {}",
                self.method()?.name()
            ))),
            TaskingArg::Static => {
                let needed = block.saturating_mul(ranks as u64 - 1);
                if pool < needed {
                    return Err(usage(format!(
                        "--task-pool {pool} is too small: every other rank holds a block of --reserve-block {block} from the start ({needed} slots on {ranks} ranks)"
                    )));
                }
                Ok(Tasking::Static { pool, block })
            }
        }
    }

    /// PageRank's tolerance for a graph of `n` nodes.
    pub fn tolerance_for(&self, n: u64) -> f64 {
        self.tolerance.unwrap_or(match self.method() {
            Ok(Algo::Tasks) => 1e-6,
            _ => ordo_algos::pagerank::app::DEFAULT_L1_CHANGE / n.max(1) as f64,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TaskingArg {
    Dynamic,
    Static,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Layout {
    Ranges,
    Hash,
}

fn parse_bytes(s: &str) -> Result<u64, String> {
    let (num, mult) = match s.as_bytes().last() {
        Some(b'K' | b'k') => (&s[..s.len() - 1], 1u64 << 10),
        Some(b'M' | b'm') => (&s[..s.len() - 1], 1 << 20),
        Some(b'G' | b'g') => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    let n: u64 = num
        .parse()
        .map_err(|_| format!("'{s}' is not a byte count (like 4096, 64K, 256M, 2G)"))?;
    n.checked_mul(mult)
        .filter(|&b| b >= 1 << 12)
        .ok_or_else(|| format!("'{s}' must be at least 4K"))
}

/// The scheduler inside every rank, by ordo's run-spec builder (the same names, parameters
/// and delta hint as `ordo`).
pub fn scheduler(a: &Args, delta: Option<u32>) -> DistResult<SchedulerConfig> {
    let mut params = Vec::new();
    for p in &a.params {
        params.push(parse_param(p).map_err(usage)?);
    }
    let request = RunRequest {
        scheduler: a.scheduler.clone(),
        params,
        ..RunRequest::new(Topology::detect())
    };
    request.scheduler(delta).map_err(|e| usage(e.to_string()))
}

/// A usage error (exit status 2), reported by rank 0.
pub fn usage(msg: impl Into<String>) -> DistError {
    DistError::Usage(msg.into())
}
