//! The flags every subcommand shares (STYLE.md 16): input, then run.

use clap::Args;
use std::path::PathBuf;

/// The graph file and the input flags `ordo-dist` shares ([`ordo_graph::InputFlags`]).
#[derive(Debug, Clone, Args)]
pub struct InputArgs {
    /// Graph file: .gr (DIMACS), .txt (SNAP), .mtx, .graph (METIS), .el, .wel, .ordo; .gz is fine
    pub graph: PathBuf,
    #[command(flatten)]
    pub flags: ordo_graph::InputFlags,
    /// Renumber the nodes in a random order drawn from SEED once loaded (inputs often come in
    /// an order with locality that a real input may lack); every node id in and out keeps the
    /// file's numbering. `ordo convert` writes the shuffled order
    #[arg(long, value_name = "SEED")]
    pub shuffle: Option<u64>,
}

/// Which scheduler, configured how, on what topology: shared by the applications and
/// `ordo simulate`.
#[derive(Debug, Clone, Args)]
pub struct SchedArgs {
    /// Scheduler (see `ordo schedulers`)
    #[arg(long, short = 's', default_value = "auto")]
    pub scheduler: String,
    /// Scheduler parameter key=value (repeatable), e.g. --param chunk=32
    #[arg(long = "param", short = 'p', value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// Chunk size (shorthand for --param chunk=C)
    #[arg(long, value_name = "C")]
    pub chunk: Option<usize>,
    /// Machine topology: auto, or PACKAGESxCORES (e.g. 2x4) to simulate sockets
    #[arg(long, default_value = "auto")]
    pub topology: String,
}

impl SchedArgs {
    /// The exact serial scheduler on the same topology (a baseline).
    pub fn serial(&self) -> SchedArgs {
        SchedArgs {
            scheduler: "serial".into(),
            params: vec![],
            chunk: None,
            topology: self.topology.clone(),
        }
    }
}

#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub sched: SchedArgs,
    /// Worker threads [default: all cores]
    #[arg(long, short = 't')]
    pub threads: Option<usize>,
    /// Do not pin worker threads to cores
    #[arg(long)]
    pub no_pin: bool,
    /// Runs to time; the reported time is the median
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeat: u32,
    /// Skip checking the result against the serial oracle
    #[arg(long)]
    pub no_verify: bool,
    /// Print one JSON object on stdout instead of the text summary
    #[arg(long)]
    pub json: bool,
    /// Time every scheduler operation and task (TSC cycles) and report where the cycles went:
    /// good work, useless work, enqueue, dequeue, failed dequeue, other (Yesil et al., SC'19,
    /// Table 1)
    #[arg(long)]
    pub breakdown: bool,
    /// Record each worker's sampled task priorities over time (Lenharth et al., Euro-Par'15,
    /// Fig. 1), in the JSON
    #[arg(long)]
    pub trace: bool,
    /// Sample the rank error of the tasks run (pending tasks with a better priority); every
    /// push and task then takes one shared lock, so times are not meaningful
    #[arg(long)]
    pub rank_error: bool,
    /// Write `id value` per node to FILE (`inf` where unreachable)
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}
