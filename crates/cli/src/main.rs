//! `ordo`: parallel graph analytics on concurrent priority schedulers.

mod app_args;
mod application;
mod args;
mod demo;
mod error;
mod interrupt;
mod load;
mod output;
mod run;
mod simulate;
mod tools;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use error::{CliError, CliResult};

#[derive(Parser)]
#[command(
    name = "ordo",
    version,
    about = "Parallel graph analytics on relaxed concurrent priority schedulers"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands besides the applications, which [`command`] adds from the registry.
#[derive(Subcommand)]
enum Command {
    /// Run an application on P logical workers interleaved deterministically on one thread:
    /// work increase over the exact serial scheduler and rank error, for P beyond this
    /// machine's cores
    #[command(after_help = "Examples:
  ordo simulate sssp USA-road-d.NY.gr.gz --scheduler smq --workers 1,16,64,256
  ordo simulate bfs soc-Slashdot0902.txt.gz --scheduler obim --param chunk=16 -P 128 --json

The simulation models the order in which tasks are popped and when buffered tasks become
visible to other workers (chunks, insert buffers, local heaps); it does not model time:
no contention, cache misses or lock waits. Work increase is tasks executed over the serial
scheduler's; rank error is how many pending tasks had a better priority than the one popped
(sampled; sssp, bfs and cc report task priorities).")]
    Simulate(simulate::SimulateArgs),
    /// Run an experiment matrix (a preset or a TOML file): every run verified, results in
    /// results.jsonl and summary.csv, a table, and the figures as SVG and PNG
    #[command(after_help = "Examples:
  ordo bench --list
  ordo bench pmod-fig6 --quick --out fig6
  ordo bench simulate --data ../shared/data --out sim
  ordo bench my-matrix.toml --dry-run

Runs are child `ordo ... --json` processes; a failed run is kept with its error and makes
the exit status 1 at the end. Graph names resolve under --data; `amsterdam` is the graph
embedded in the repository. A graph that is missing is skipped with a note.")]
    Bench(ordo_bench::BenchArgs),
    /// Describe a graph file
    Info(tools::InfoArgs),
    /// Convert a graph between formats (e.g. to ordo's fast binary format)
    Convert(tools::ConvertArgs),
    /// Generate a seeded synthetic graph
    #[command(subcommand)]
    Gen(tools::GenKind),
    /// List the schedulers with their parameters and defaults
    Schedulers {
        #[arg(long)]
        json: bool,
    },
    /// SSSP on the embedded Amsterdam road graph with several schedulers: a comparison table
    Demo {
        /// Runs per row; the median is shown
        #[arg(long, default_value_t = 5)]
        repeat: u32,
    },
}

/// The tools' examples, after the applications' own (from the registry).
const TOOL_EXAMPLES: &[&str] = &[
    "ordo simulate sssp USA-road-d.NY.gr.gz --scheduler smq --workers 1,16,64,256",
    "ordo bench pmod-fig6 --quick --out fig6",
    "ordo info email-Enron.txt.gz",
    "ordo convert USA-road-d.NY.gr.gz ny.ordo",
    "ordo gen kronecker --scale 16 -o kron16.ordo",
    "ordo schedulers",
];

const EXIT_STATUS: &str = "Exit status: 0 success, 1 bad input or failed verification, 2 bad \
usage, 130 interrupted
(the first Ctrl-C stops the run and prints what it did; a second one quits at once).";

/// The command line: the applications of the registry (generated from their declarations,
/// `app_args.rs`) listed first, then the tools.
fn command() -> clap::Command {
    let examples: Vec<&str> = std::iter::once("ordo demo")
        .chain(
            ordo_algos::APPS
                .iter()
                .flat_map(|a| a.examples.iter().copied()),
        )
        .chain(TOOL_EXAMPLES.iter().copied())
        .collect();
    let after_help = format!("Examples:\n  {}\n\n{EXIT_STATUS}", examples.join("\n  "));
    let mut cmd = Cli::command().after_help(after_help);
    let tools: Vec<String> = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    let apps: Vec<&str> = ordo_algos::APPS.iter().map(|a| a.name).collect();
    for app in ordo_algos::APPS {
        cmd = cmd.subcommand(app_args::command(app));
    }
    for (order, name) in apps
        .iter()
        .copied()
        .chain(tools.iter().map(String::as_str))
        .enumerate()
    {
        cmd = cmd.mut_subcommand(name, |c| c.display_order(order));
    }
    cmd
}

fn bench_error(e: ordo_bench::BenchError) -> CliError {
    use ordo_bench::BenchError;
    match e {
        BenchError::Input(m) => CliError::input(m),
        BenchError::Usage(m) => CliError::usage(m),
        BenchError::Interrupted { done, total } => {
            CliError::interrupted_between(done as u32, total as u32)
        }
    }
}

fn run(matches: &clap::ArgMatches) -> CliResult {
    if let Some((name, sub)) = matches.subcommand() {
        if let Some(result) = application::run_by_name(name, sub) {
            return result;
        }
    }
    let cli = Cli::from_arg_matches(matches).unwrap_or_else(|e| e.exit());
    match &cli.command {
        Command::Simulate(a) => simulate::simulate_cmd(a),
        Command::Bench(a) => ordo_bench::bench_cmd(a, &interrupt::requested).map_err(bench_error),
        Command::Info(a) => tools::info_cmd(a),
        Command::Convert(a) => tools::convert_cmd(a),
        Command::Gen(a) => tools::gen_cmd(a),
        Command::Schedulers { json } => tools::schedulers_cmd(*json),
        Command::Demo { repeat } => demo::demo_cmd((*repeat).max(1)),
    }
}

/// Large arrays get transparent huge pages (see `HugePageAlloc`).
#[global_allocator]
static ALLOCATOR: ordo_exec::malloc::HugePageAlloc = ordo_exec::malloc::HugePageAlloc;

fn main() {
    // Like other Unix tools, end quietly when the reader of our output goes away
    // (`ordo schedulers | head`) instead of panicking on a failed print.
    // SAFETY: setting a signal's disposition to the default before any thread exists.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    ordo_exec::malloc::keep_freed_memory();
    let matches = command().get_matches();
    if let Err(CliError { code, message }) = run(&matches) {
        if code == interrupt::EXIT_INTERRUPTED {
            eprintln!("ordo: {message}");
        } else {
            eprintln!("ordo: error: {message}");
        }
        std::process::exit(code);
    }
}
