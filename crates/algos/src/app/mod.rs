//! One application, one place: the [`App`] trait every application implements, the registry
//! ([`crate::APPS`], [`crate::visit`]) that the command line, `ordo simulate` and the Python
//! package read, and the run protocol they all follow ([`Plan`]).
//!
//! An application declares its name, parameters, methods (`--algo`, [`crate::variants`]) and
//! the figures it reports ([`AppSpec`]), and implements the steps of the protocol ([`App`]):
//!
//! 1. [`App::prepare`] the graph for the method chosen, from the front end's [`Source`] of
//!    views (weighted, undirected, with in-edges, with coordinates), and read the
//!    parameters;
//! 2. [`App::run`] the method on the scheduler and executor the request configures, with the
//!    application's bucket-width hint ([`App::delta_hint`]), `--repeat` times;
//! 3. compute the serial oracle's answer ([`App::oracle`], timed: the baseline every parallel
//!    time is compared with) and [`App::verify`] every run against it;
//! 4. report: [`App::summary`] (named figures for the JSON and the text summary),
//!    [`App::per_node`] (the `--out` column) and [`App::answer`] (Python's arrays).
//!
//! [`Plan`] runs these steps for every front end, which only parses its input, prints and
//! converts. Adding an application is then its module, its `app.rs` (this trait), its line in
//! the registry in `lib.rs`, its tests, and its Python function (`python/ordo/_algorithms.py`,
//! which gives it a Python signature and docstring). `tests/registry.rs` runs every registered
//! application and method through the protocol, and the stress test and the Python parity test
//! read the registry too.

mod param;
mod plan;
mod request;
mod source;

pub use param::{Kind, Param, Value, Values};
pub use plan::{Oracle, Plan};
pub use request::{RunRequest, SpecError};
pub use source::{OwnedSource, Source};

use crate::variants::{Variant, VariantError, Variants};
use crate::VerifyError;
use ordo_exec::{ExecConfig, ExecError, RunReport};
use ordo_graph::{Graph, WeightSpec};
use ordo_sched::{ConfigError, SchedulerConfig};
use std::sync::Arc;

/// What an application declares about itself: what a front end needs to offer it.
#[derive(Debug, Clone, Copy)]
pub struct AppSpec {
    /// The subcommand and Python function name.
    pub name: &'static str,
    /// One line for the list of subcommands.
    pub about: &'static str,
    /// More help after the flags, if any.
    pub after_help: Option<&'static str>,
    /// Command lines that show it off, for `--help`.
    pub examples: &'static [&'static str],
    pub params: &'static [Param],
    /// Its methods; one method means no `--algo`.
    pub variants: &'static Variants,
    /// The summary's figures the text output ends with.
    pub headline: &'static [&'static str],
    /// Why `--out` does not apply, for applications without a per-node answer.
    pub no_per_node: Option<&'static str>,
    /// Why scheduler flags do not apply, for applications with no scheduled method.
    pub no_scheduler: Option<&'static str>,
    /// Runs under `ordo simulate` (its scheduled method reports work and rank error).
    pub simulated: bool,
}

impl AppSpec {
    /// The method `--algo asked` runs on `threads` workers; `scheduler_request` names what in
    /// the run asks for a priority scheduler, if anything does.
    pub fn method(
        &self,
        asked: &str,
        scheduler_request: Option<&str>,
        threads: usize,
    ) -> Result<&'static Variant, AppError> {
        let scheduled = self.variants.list.iter().any(|v| v.scheduled);
        match (self.no_scheduler, scheduler_request) {
            (Some(why), Some(_)) if !scheduled => Err(AppError::Usage(why.into())),
            // Nothing is scheduled, so a scheduler request cannot choose the method.
            (_, _) if !scheduled => Ok(self.variants.resolve(asked, None, threads)?),
            _ => Ok(self.variants.resolve(asked, scheduler_request, threads)?),
        }
    }

    /// Whether the application offers more than one method (`--algo`).
    pub fn has_methods(&self) -> bool {
        self.variants.list.len() > 1
    }
}

/// Why an application did not produce a verified result.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The request cannot be run as asked (a bad flag or combination): exit status 2.
    #[error("{0}")]
    Usage(String),
    /// The input cannot be used (a malformed file, too few nodes): exit status 1.
    #[error("{0}")]
    Input(String),
    /// A node the user named does not exist (Python's `IndexError`).
    #[error("{0}")]
    NoSuchNode(String),
    /// A* on a graph without coordinates; each front end says how to give them.
    #[error("A* needs node coordinates")]
    NoCoordinates,
    /// The scheduler or executor cannot be configured as asked; each front end words it in
    /// its own terms (`--threads` or `threads=`).
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The run failed or was cancelled.
    #[error(transparent)]
    Exec(#[from] ExecError),
    #[error(transparent)]
    Verify(#[from] VerifyError),
}

impl From<ConfigError> for AppError {
    fn from(e: ConfigError) -> Self {
        AppError::Usage(e.to_string())
    }
}

impl From<VariantError> for AppError {
    fn from(e: VariantError) -> Self {
        AppError::Usage(e.to_string())
    }
}

impl From<ordo_graph::GraphError> for AppError {
    fn from(e: ordo_graph::GraphError) -> Self {
        AppError::Input(e.to_string())
    }
}

impl From<NamedRunError> for AppError {
    fn from(e: NamedRunError) -> Self {
        match e {
            NamedRunError::Scheduler(e) => e.into(),
            NamedRunError::Exec(e) => e.into(),
        }
    }
}

/// Why a run on a scheduler chosen by name ([`crate::named`]) did not produce a result.
#[derive(Debug, thiserror::Error)]
pub enum NamedRunError {
    /// The scheduler cannot be built as configured (e.g. `serial` on two threads).
    #[error(transparent)]
    Scheduler(#[from] ConfigError),
    /// The run itself failed or was cancelled.
    #[error(transparent)]
    Exec(#[from] ExecError),
}

/// What a summary knows about the runs besides their outputs.
pub struct RunContext<'a> {
    /// The method that ran.
    pub method: &'static Variant,
    /// The scheduler it ran on (the scheduled method only).
    pub sched: Option<&'a SchedulerConfig>,
    /// The median run's seconds.
    pub median_s: f64,
}

/// A node's value in the `--out` column, as text.
pub type PerNode<'a> = Box<dyn Fn(u32) -> String + 'a>;

/// A graph made ready for one method: the graph the answer is about, and what the application
/// read from its parameters or built for its method (`setup`).
pub struct Prepared<S> {
    pub graph: Arc<Graph>,
    pub setup: S,
}

impl<S> Prepared<S> {
    pub fn new(graph: Arc<Graph>, setup: S) -> Prepared<S> {
        Prepared { graph, setup }
    }
}

/// An application: the steps of the protocol (module docs) over its own types.
pub trait App {
    /// What [`App::prepare`] reads and builds beside the graph.
    type Setup: Sync;
    type Output: Send + Reported;
    /// The serial oracle's answer.
    type Expected;

    const SPEC: AppSpec;

    /// Readies the graph from `source` for `method`; `notes` collects what the user should
    /// hear (defaults taken, data ignored).
    fn prepare(
        source: &mut dyn Source,
        values: &Values,
        method: &Variant,
        notes: &mut Vec<String>,
    ) -> Result<Prepared<Self::Setup>, AppError>;

    /// The method `--algo auto` runs, now that the graph is known: `method` is what `auto`
    /// chose from the thread count alone ([`AppSpec::method`]), and an application whose
    /// fastest method also depends on the graph (its size) may return another of its
    /// variants. [`Plan`] calls it only when the user asked for `auto`.
    fn auto_for_graph(
        _p: &Prepared<Self::Setup>,
        method: &'static Variant,
        _threads: usize,
    ) -> &'static Variant {
        method
    }

    /// The bucket width (a priority shift) the scheduled method suggests to a bucketing
    /// scheduler.
    fn delta_hint(_p: &Prepared<Self::Setup>) -> Option<u32> {
        None
    }

    /// One run of `method`; `sched` is the scheduler when the method is scheduled.
    fn run(
        p: &Prepared<Self::Setup>,
        method: &Variant,
        sched: Option<&SchedulerConfig>,
        exec: &ExecConfig,
    ) -> Result<Self::Output, AppError>;

    /// The serial oracle's answer.
    fn oracle(p: &Prepared<Self::Setup>) -> Self::Expected;

    /// The oracle's answer as one label per node, for the probes that tell useful work from
    /// useless work (`--breakdown`); `None` for applications without per-node labels.
    fn oracle_labels(_p: &Prepared<Self::Setup>, _expected: &Self::Expected) -> Option<Vec<u64>> {
        None
    }

    /// Checks one run against the oracle.
    fn verify(
        p: &Prepared<Self::Setup>,
        expected: &Self::Expected,
        out: &Self::Output,
    ) -> Result<(), VerifyError>;

    /// The `--out` column; `None` where [`AppSpec::no_per_node`] says why there is none.
    fn per_node<'a>(_p: &'a Prepared<Self::Setup>, _out: &'a Self::Output) -> Option<PerNode<'a>> {
        None
    }

    /// The answer of one run, for front ends that hand it on as data (Python's arrays).
    fn answer(p: &Prepared<Self::Setup>, out: Self::Output) -> Answer;

    /// The named figures of a run (the first of `--repeat`; every run was verified) and
    /// `expected` when verified.
    fn summary(
        p: &Prepared<Self::Setup>,
        out: &Self::Output,
        expected: Option<&Self::Expected>,
        ctx: &RunContext<'_>,
    ) -> serde_json::Value;
}

/// An application's output, which carries the executor's report of its run.
pub trait Reported {
    fn report(&self) -> &RunReport;
}

/// Outputs whose report is their `report` field.
macro_rules! reported_in_field {
    ($($output:ty),* $(,)?) => {
        $(impl Reported for $output {
            fn report(&self) -> &RunReport {
                &self.report
            }
        })*
    };
}

reported_in_field!(
    crate::sssp::SsspOutput,
    crate::bfs::BfsOutput,
    crate::astar::AstarOutput,
    crate::cc::CcOutput,
    crate::kcore::KcoreOutput,
    crate::mst::MstOutput,
    crate::tc::TcOutput,
    crate::bc::BcOutput,
    crate::pfp::PfpOutput,
);

/// Something done with one application chosen by name ([`crate::visit`]).
pub trait AppVisitor {
    type Output;
    fn visit<A: App>(self) -> Self::Output;
}

/// Renders a per-node value, with `inf` for `unreached`.
pub fn or_inf<V: PartialEq + std::fmt::Display>(v: V, unreached: V) -> String {
    if v == unreached {
        "inf".into()
    } else {
        v.to_string()
    }
}

/// Declares `pub fn by_name(sched, cfg, inputs...)` running one application on a scheduler
/// chosen by name, through a private visitor that borrows the inputs: the applications are
/// generic over [`ordo_sched::Scheduler`], so each run is monomorphized for its scheduler.
macro_rules! by_name {
    ($(#[$doc:meta])* <$task:ty> -> $out:ty { $($field:ident: $ty:ty),* }
        |$me:ident, $s:ident, $cfg:ident| $run:expr) => {
        $(#[$doc])*
        pub fn by_name<'a>(
            sched: &ordo_sched::SchedulerConfig,
            cfg: &'a ordo_exec::ExecConfig,
            $($field: $ty),*
        ) -> Result<$out, $crate::app::NamedRunError> {
            struct Visit<'a> {
                $($field: $ty,)*
                cfg: &'a ordo_exec::ExecConfig,
            }
            impl ordo_sched::SchedulerVisitor<$task> for Visit<'_> {
                type Output = Result<$out, ordo_exec::ExecError>;
                fn visit<S: ordo_sched::Scheduler<$task>>(self, $s: &S) -> Self::Output {
                    let $me = self;
                    let $cfg = $me.cfg;
                    $run
                }
            }
            let visit = Visit { $($field,)* cfg };
            Ok(sched.with(cfg.threads, &cfg.topology, visit)??)
        }
    };
}
pub(crate) use by_name;

/// The node the user named as `what`, or the file's first node when none was named.
pub fn node_or_first(
    source: &mut dyn Source,
    what: &str,
    id: Option<u64>,
) -> Result<u32, AppError> {
    match id {
        Some(id) => source.node(what, id),
        None if source.graph().num_nodes() == 0 => {
            Err(AppError::Input("the graph has no nodes".into()))
        }
        None => Ok(source.graph().node_of_index(0)),
    }
}

/// What an application on the undirected simple view of its input (both directions of every
/// arc, no self-loops, no parallel arcs) keeps beside the view.
pub struct Undirected {
    /// Seconds building the view took (0 when the front end had it at hand).
    pub prep_s: f64,
    /// The random weights the input was given, if any.
    pub weights: Option<WeightSpec>,
}

impl Undirected {
    /// The view from `source`, of the weighted graph when `weighted`.
    pub fn of(
        source: &mut dyn Source,
        weighted: bool,
        notes: &mut Vec<String>,
    ) -> Result<Prepared<Undirected>, AppError> {
        let start = std::time::Instant::now();
        let graph = source.undirected(weighted, notes)?;
        let setup = Undirected {
            prep_s: start.elapsed().as_secs_f64(),
            weights: source.weights().filter(|_| weighted),
        };
        Ok(Prepared::new(graph, setup))
    }
}

/// Labels as the u64s the probes' oracle holds.
pub fn widen(labels: &[u32]) -> Vec<u64> {
    labels.iter().map(|&l| l as u64).collect()
}

/// Compares per-node answers, naming nodes as the file does.
pub fn same<V: PartialEq + Copy + std::fmt::Display>(
    g: &Graph,
    got: &[V],
    expected: &[V],
) -> Result<(), VerifyError> {
    crate::compare(got, expected, |v| v.to_string(), |v| g.file_id(v))
}

/// A graph with its in-edges at hand, for the pull-style methods (bottom-up BFS, pull
/// PageRank): the transpose, or the graph itself when it is symmetric.
pub struct WithInEdges {
    pub graph: Arc<Graph>,
    symmetric: bool,
    /// Seconds building the in-edges took (outside the timed runs, as GAPBS builds them while
    /// loading; 0 when the front end had them at hand).
    pub prep_s: f64,
}

impl WithInEdges {
    pub fn of(source: &mut dyn Source) -> WithInEdges {
        let start = std::time::Instant::now();
        let (graph, symmetric) = source.with_in_edges();
        WithInEdges {
            graph,
            symmetric,
            prep_s: start.elapsed().as_secs_f64(),
        }
    }

    pub fn in_edges(&self) -> crate::in_edges::InEdges<'_> {
        in_edges(&self.graph, self.symmetric)
    }
}

/// The in-edges of `g`: its own out-edges when `symmetric`, else its transpose.
fn in_edges(g: &Graph, symmetric: bool) -> crate::in_edges::InEdges<'_> {
    use crate::in_edges::InEdges;
    match symmetric {
        true => InEdges::symmetric(g),
        false => InEdges::transpose(g).expect("Source::with_in_edges built the transpose"),
    }
}

/// An application's answer as data, for front ends that hand it on (Python's numpy arrays).
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A float per node (`inf` where unreached).
    Floats(Vec<f64>),
    /// An integer per node or per edge.
    Ints(Vec<i64>),
    /// A yes or no per node.
    Bools(Vec<bool>),
    Float(f64),
    Int(u64),
    Tuple(Vec<Answer>),
}

/// Per-node values as floats, with `inf` for `unreached`.
pub fn floats<T: Copy + PartialEq + Into<u64>>(values: &[T], unreached: T) -> Answer {
    Answer::Floats(
        values
            .iter()
            .map(|&d| {
                if d == unreached {
                    f64::INFINITY
                } else {
                    d.into() as f64
                }
            })
            .collect(),
    )
}

/// Per-node values as integers.
pub fn ints<T: Copy + Into<i64>>(values: &[T]) -> Answer {
    Answer::Ints(values.iter().map(|&v| v.into()).collect())
}
