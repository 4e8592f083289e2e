//! The command line: parse on every rank, print on rank 0, agree on failures.

use clap::{Parser, ValueEnum};
use mpi::datatype::Equivalence;
use mpi::Threading;
use ordo_dist::apps::{bfs, cc::Cc, gather_values, pagerank::PageRank, sssp::Paths, tc::Tc};
use ordo_dist::graph::LocalGraph;
use ordo_dist::load::{self, Source};
use ordo_dist::mail::MailConfig;
use ordo_dist::net::{DistError, DistResult, Net};
use ordo_dist::runtime::{self, Ran};
use ordo_exec::ExecConfig;
use ordo_graph::{Graph, WeightSpec};
use ordo_sched::SchedulerConfig;
use serde_json::{json, Map, Value};
use std::time::{Duration, Instant};

#[derive(Parser, Debug)]
#[command(
    name = "ordo-dist",
    version,
    about = "Distributed ordo on MPI: graph analytics over partitioned graphs",
    after_help = "Launch with mpirun (as root add --allow-run-as-root; more ranks than cores need --oversubscribe):
  mpirun -np 4 ordo-dist tc gen:er:16 --json
  mpirun -np 2 ordo-dist sssp USA-road-d.NY.gr.gz --scheduler obim
  mpirun -np 4 ordo-dist bfs ny.ordo --partition hash --threads 1
  mpirun -np 2 ordo-dist pagerank soc-Slashdot0902.txt.gz --no-verify
  mpirun -np 8 --hostfile hosts ordo-dist cc gen:kronecker:24 --no-verify --json

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
struct Args {
    /// Application
    #[arg(value_enum)]
    app: App,
    /// Graph file or generator (see below)
    graph: String,
    #[command(flatten)]
    input: ordo_graph::InputFlags,
    /// Source node (bfs, sssp), as the file numbers nodes [default: the first node]
    #[arg(long)]
    source: Option<u64>,
    /// Scheduler inside every rank (see `ordo schedulers`)
    #[arg(long, short = 's', default_value = "auto")]
    scheduler: String,
    /// Scheduler parameter key=value (repeatable)
    #[arg(long = "param", short = 'p', value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// Worker threads per rank [default: the cores divided among the ranks on this host]
    #[arg(long, short = 't')]
    threads: Option<usize>,
    /// Node-to-rank layout: ranges (contiguous, balanced by edges) or hash (v mod ranks)
    #[arg(long, value_enum, default_value = "ranges")]
    partition: Layout,
    /// Bytes of records aggregated per destination before a message is sent
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u64).range(64..=(1 << 30)))]
    aggregate: u64,
    /// Send a partly filled buffer once it is this old (microseconds)
    #[arg(long, default_value_t = 200)]
    flush_us: u64,
    /// Send every record: do not fold records for the same remote node at the sender
    /// (keeping the best distance or label, summing PageRank shares)
    #[arg(long)]
    no_combine: bool,
    /// Bound on each rank's buffered message bytes (e.g. 64M, 1G)
    #[arg(long, default_value = "256M", value_parser = parse_bytes)]
    buffer_limit: u64,
    /// PageRank convergence, as `ordo pagerank --tolerance`
    #[arg(long, default_value_t = 1e-6)]
    tolerance: f64,
    /// Seed of the generators
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Skip gathering the result on rank 0 and checking it against the serial oracle
    #[arg(long)]
    no_verify: bool,
    /// Do not pin worker threads to cores
    #[arg(long)]
    no_pin: bool,
    /// Cap each rank's address space (e.g. 8G): a rank that needs more fails with an
    /// allocation error and mpirun stops the whole job, instead of the machine swapping
    #[arg(long, value_parser = parse_bytes)]
    max_memory: Option<u64>,
    /// Print one JSON object (rank 0) instead of the text summary
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum App {
    Bfs,
    Sssp,
    Cc,
    Pagerank,
    Tc,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Layout {
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

pub fn main() -> i32 {
    let Some((universe, _level)) = mpi::initialize_with_threading(Threading::Funneled) else {
        eprintln!("ordo-dist: MPI could not be initialized");
        return 1;
    };
    let net = Net::new(universe.world());
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => {
            if net.rank == 0 {
                let _ = e.print();
            }
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    if let Some(bytes) = args.max_memory {
        let lim = libc::rlimit {
            rlim_cur: bytes,
            rlim_max: bytes,
        };
        // SAFETY: setrlimit reads the struct we pass; lowering our own limit is always allowed.
        if unsafe { libc::setrlimit(libc::RLIMIT_AS, &lim) } != 0 {
            eprintln!(
                "ordo-dist: rank {}: --max-memory: {}",
                net.rank,
                std::io::Error::last_os_error()
            );
            return 2;
        }
    }
    let code = match run(&net, &args) {
        Ok(()) => 0,
        Err(e) => {
            match &e {
                DistError::Elsewhere(_) if net.rank != 0 => {}
                DistError::Usage(_) if net.rank != 0 => {}
                _ => eprintln!("ordo-dist: rank {}: {e}", net.rank),
            }
            if matches!(e, DistError::Usage(_)) {
                2
            } else {
                1
            }
        }
    };
    drop(universe);
    code
}

fn usage(msg: impl Into<String>) -> DistError {
    DistError::Usage(msg.into())
}

/// Worker threads per rank: the cores of this host shared among its ranks.
fn default_threads() -> usize {
    let local: usize = std::env::var("OMPI_COMM_WORLD_LOCAL_SIZE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    (ordo_exec::cores() / local.max(1)).max(1)
}

fn scheduler(a: &Args, delta: Option<u32>) -> DistResult<SchedulerConfig> {
    let params: Vec<(String, String)> = a
        .params
        .iter()
        .map(|p| {
            p.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| usage(format!("--param '{p}' is not KEY=VALUE")))
        })
        .collect::<DistResult<_>>()?;
    let mut cfg =
        SchedulerConfig::parse(&a.scheduler, &params).map_err(|e| usage(e.to_string()))?;
    if let Some(d) = delta {
        cfg.hint_delta(d, &params)
            .map_err(|e| usage(e.to_string()))?;
    }
    Ok(cfg)
}

fn run(net: &Net, a: &Args) -> DistResult<()> {
    // Options first, identically on every rank, so a usage error stops everyone together.
    let threads = a.threads.unwrap_or_else(default_threads);
    if threads == 0 || threads > ordo_exec::MAX_THREADS {
        return Err(usage(format!(
            "--threads must be in 1..={}",
            ordo_exec::MAX_THREADS
        )));
    }
    let probe = scheduler(a, None)?;
    if probe.max_workers().is_some_and(|m| threads > m) {
        return Err(usage(format!(
            "scheduler {} runs {} worker(s); pass --threads 1",
            probe.name(),
            probe.max_workers().unwrap_or(1)
        )));
    }
    if !(a.tolerance > 0.0 && a.tolerance < 1.0) {
        return Err(usage("--tolerance must be in (0, 1)"));
    }
    let aggregate = a.aggregate as usize;
    if a.buffer_limit < 4 * a.aggregate * net.size as u64 {
        return Err(usage(format!(
            "--buffer-limit {} is too small for --aggregate {} on {} ranks (need at least 4 x aggregate x ranks)",
            a.buffer_limit, a.aggregate, net.size
        )));
    }
    let mail = MailConfig {
        aggregate,
        flush_age: Duration::from_micros(a.flush_us),
        buffer_limit: a.buffer_limit,
        combine: !a.no_combine,
    };
    let source = Source::parse(&a.graph)?;
    let mut exec = ExecConfig::new(threads);
    exec.pin = !a.no_pin && net.size == 1;

    let opts = a.input.load_options().map_err(usage)?;

    let t = Instant::now();
    let mut g = load::load(net, &source, &opts, a.partition == Layout::Hash, a.seed)?;
    // As `ordo sssp`: an unweighted graph gets the papers' random weights, with a note.
    let mut weights = opts.build.weights;
    if a.app == App::Sssp && g.weights.is_none() {
        let spec = WeightSpec::DEFAULT;
        if net.rank == 0 {
            eprintln!(
                "ordo-dist: note: the graph has no weights: using random weights {spec} (set with --weights)"
            );
        }
        g.assign_weights(spec);
        weights = Some(spec);
    }
    let g = match a.app {
        App::Cc | App::Tc => g.undirected_simple(net)?,
        _ => g,
    };
    net.world_barrier();
    let load_s = t.elapsed().as_secs_f64();

    let mut out = Map::new();
    out.insert("app".into(), json!(format!("{:?}", a.app).to_lowercase()));
    out.insert("graph".into(), json!(a.graph));
    out.insert("format".into(), json!(g.origin));
    if let Some(spec) = weights {
        out.insert("weights".into(), json!(spec.to_string()));
    }
    out.insert("nodes".into(), json!(g.num_nodes()));
    out.insert("edges".into(), json!(g.m));
    out.insert("ranks".into(), json!(net.size));
    out.insert("threads".into(), json!(threads));
    out.insert("partition".into(), json!(g.part.name()));
    out.insert("load_s".into(), json!(load_s));
    out.insert(
        "local_edges".into(),
        json!(gather_all(net, g.targets.len() as u64)),
    );

    let ran = match a.app {
        App::Bfs | App::Sssp => paths(net, a, &g, exec, &mail, &mut out)?,
        App::Cc => components(net, a, &g, exec, &mail, &mut out)?,
        App::Tc => triangles(net, a, &g, exec, &mail, &mut out)?,
        App::Pagerank => pagerank(net, a, &g, exec, &mail, &mut out)?,
    };
    comm_fields(net, &ran, &mut out);
    if net.rank == 0 {
        print(a, &out);
    }
    let verified = out.get("verified").and_then(Value::as_bool);
    if verified == Some(false) {
        return Err(DistError::Failed("verification failed".into()));
    }
    Ok(())
}

fn gather_all(net: &Net, x: u64) -> Vec<u64> {
    use mpi::collective::CommunicatorCollectives;
    let mut all = vec![0u64; net.size];
    net.world.all_gather_into(&x, &mut all[..]);
    all
}

/// Records, messages, bytes and buffering over the whole job.
fn comm_fields(net: &Net, ran: &Ran, out: &mut Map<String, Value>) {
    let time = ran.time.as_secs_f64();
    let max_time = net.max_f64(time);
    let messages = net.sum_u64(ran.comm.sent);
    let records = net.sum_u64(ran.records);
    let bytes = net.sum_u64(ran.comm.bytes_sent);
    out.insert("time_s".into(), json!(max_time));
    out.insert("messages".into(), json!(messages));
    out.insert("records".into(), json!(records));
    out.insert("folded".into(), json!(net.sum_u64(ran.folded)));
    out.insert("bytes".into(), json!(bytes));
    out.insert(
        "aggregation".into(),
        json!(if messages > 0 {
            records as f64 / messages as f64
        } else {
            0.0
        }),
    );
    out.insert(
        "peak_buffered_bytes".into(),
        json!(net.max_u64(ran.peak_buffered)),
    );
    out.insert(
        "credit_messages".into(),
        json!(net.sum_u64(ran.comm.credit_messages)),
    );
    out.insert(
        "held_for_credit".into(),
        json!(net.sum_u64(ran.comm.held_for_credit)),
    );
    out.insert(
        "congested_waits".into(),
        json!(net.sum_u64(ran.congested_waits)),
    );
    out.insert("termination_waves".into(), json!(ran.comm.waves));
    out.insert("tasks".into(), json!(net.sum_u64(ran.report.total.tasks)));
}

fn print(a: &Args, out: &Map<String, Value>) {
    if a.json {
        println!("{}", Value::Object(out.clone()));
        return;
    }
    let get = |k: &str| out.get(k).map_or(String::from("-"), |v| v.to_string());
    println!(
        "{} on {} ({} nodes, {} arcs), {} ranks x {} threads, partition {}",
        get("app"),
        a.graph,
        get("nodes"),
        get("edges"),
        get("ranks"),
        get("threads"),
        get("partition")
    );
    let result: Vec<String> = [
        "reached",
        "level_sum",
        "max_level",
        "dist_sum",
        "max_dist",
        "components",
        "largest",
        "triangles",
        "top",
    ]
    .iter()
    .filter_map(|k| out.get(*k).map(|v| format!("{k} {v}")))
    .collect();
    println!("  result: {}", result.join(", "));
    println!(
        "  time {:.4} s (load {:.3} s); {} messages, {} records (aggregation {:.1}), {} bytes, peak buffered {} bytes",
        out["time_s"].as_f64().unwrap_or(0.0),
        out["load_s"].as_f64().unwrap_or(0.0),
        get("messages"),
        get("records"),
        out["aggregation"].as_f64().unwrap_or(0.0),
        get("bytes"),
        get("peak_buffered_bytes")
    );
    match out.get("verified").and_then(Value::as_bool) {
        Some(true) => println!("  verified against the serial oracle"),
        Some(false) => println!("  VERIFICATION FAILED: {}", get("verify_error")),
        None => println!("  not verified (--no-verify)"),
    }
}

/// The whole graph on rank 0 when verifying.
fn oracle_graph(net: &Net, a: &Args, g: &LocalGraph) -> DistResult<Option<Graph>> {
    if a.no_verify {
        return Ok(None);
    }
    g.gather(net)
}

/// The whole graph and every rank's per-node `values` (in global node order) on rank 0 when
/// verifying.
fn for_oracle<T: Equivalence + Copy + Default>(
    net: &Net,
    a: &Args,
    g: &LocalGraph,
    values: &[T],
) -> DistResult<Option<(Graph, Vec<T>)>> {
    let full = oracle_graph(net, a, g)?;
    if a.no_verify {
        return Ok(None);
    }
    Ok(full.zip(gather_values(net, &g.part, values)?))
}

/// The `k` best-scoring global ids on rank 0, ranked as `ordo_algos::pagerank::top` ranks
/// them, from every rank's own `k` best: no rank gathers all the scores.
fn top_ids(net: &Net, g: &LocalGraph, score: &[f64], k: usize) -> DistResult<Option<Vec<u32>>> {
    let local: Vec<u32> = ordo_algos::pagerank::top(score, k);
    let ids: Vec<u32> = local.iter().map(|&l| g.global(l)).collect();
    let scores: Vec<f64> = local.iter().map(|&l| score[l as usize]).collect();
    let (Some(ids), Some(scores)) = (net.gather(&ids)?, net.gather(&scores)?) else {
        return Ok(None);
    };
    let mut best: Vec<(f64, u32)> = scores.into_iter().zip(ids).collect();
    best.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    Ok(Some(best.into_iter().take(k).map(|(_, v)| v).collect()))
}

fn paths(
    net: &Net,
    a: &Args,
    g: &LocalGraph,
    exec: ExecConfig,
    mail: &MailConfig,
    out: &mut Map<String, Value>,
) -> DistResult<Ran> {
    let unit = a.app == App::Bfs;
    let n = g.num_nodes() as u64;
    let source = match a.source {
        None => 0,
        Some(id) => {
            let base = g.id_base.offset();
            if id < base || id - base >= n {
                return Err(usage(format!(
                    "--source {id} is not a node of this graph (ids {base}..{})",
                    n + base - 1
                )));
            }
            (id - base) as u32
        }
    };
    let delta = if unit {
        0
    } else {
        let local = g.delta_inputs();
        ordo_algos::delta::delta_for(&ordo_algos::delta::DeltaInputs {
            active_nodes: net.sum_u64(local.active_nodes),
            arcs: net.sum_u64(local.arcs),
            weight_sum: net.sum_f64(local.weight_sum),
            max_degree: net.max_u64(local.max_degree),
        })
    };
    let sched = scheduler(a, Some(delta))?;
    let app = if unit {
        bfs::new(g)
    } else {
        Paths::new(g, false)
    };
    let initial = app.start(source);
    let ran = runtime::run(net, &sched, &exec, mail, &app, initial)?;
    let (stale, improving, scanned) = Paths::counters(&ran.report);
    let dist = app.into_dist();
    let reached: Vec<u64> = dist
        .iter()
        .copied()
        .filter(|&d| d != ordo_dist::apps::sssp::UNREACHABLE)
        .collect();
    let count = net.sum_u64(reached.len() as u64);
    let sum = net.sum_u64(reached.iter().sum());
    let max = net.max_u64(reached.iter().copied().max().unwrap_or(0));
    out.insert("source".into(), json!(source as u64 + g.id_base.offset()));
    out.insert("scheduler".into(), json!(sched.label()));
    out.insert("reached".into(), json!(count));
    if unit {
        out.insert("level_sum".into(), json!(sum));
        out.insert("max_level".into(), json!(max));
    } else {
        out.insert("delta".into(), json!(delta));
        out.insert("dist_sum".into(), json!(sum));
        out.insert("max_dist".into(), json!(max));
        out.insert(
            "improving_relaxations".into(),
            json!(net.sum_u64(improving)),
        );
        out.insert("edges_scanned".into(), json!(net.sum_u64(scanned)));
    }
    out.insert("stale_tasks".into(), json!(net.sum_u64(stale)));
    if let Some((full, all)) = for_oracle(net, a, g, &dist)? {
        let t = Instant::now();
        let expect: Vec<u64> = if unit {
            ordo_algos::bfs::serial_bfs(&full, source)
                .into_iter()
                .map(|l| {
                    if l == ordo_algos::bfs::UNREACHED {
                        u64::MAX
                    } else {
                        l as u64
                    }
                })
                .collect()
        } else {
            ordo_algos::sssp::dijkstra(&full, source)
        };
        let check = ordo_algos::compare(
            &all,
            &expect,
            |d| {
                if d == u64::MAX {
                    "unreached".into()
                } else {
                    d.to_string()
                }
            },
            |v| full.file_id(v),
        );
        record_check(out, check, t);
    }
    Ok(ran)
}

fn record_check<E: std::fmt::Display>(
    out: &mut Map<String, Value>,
    check: Result<(), E>,
    t: Instant,
) {
    out.insert("oracle_s".into(), json!(t.elapsed().as_secs_f64()));
    match check {
        Ok(()) => {
            out.insert("verified".into(), json!(true));
        }
        Err(e) => {
            out.insert("verified".into(), json!(false));
            out.insert("verify_error".into(), json!(e.to_string()));
        }
    }
}

fn components(
    net: &Net,
    a: &Args,
    g: &LocalGraph,
    exec: ExecConfig,
    mail: &MailConfig,
    out: &mut Map<String, Value>,
) -> DistResult<Ran> {
    let sched = scheduler(a, Some(ordo_algos::cc::delta_for(g.num_nodes() as u64)))?;
    let app = Cc::new(g);
    let initial = app.initial();
    let ran = runtime::run(net, &sched, &exec, mail, &app, initial)?;
    let stale = Cc::stale(&ran.report);
    let label = app.into_labels();
    // A component's label is its smallest id, owned by the rank that owns that node.
    let roots = (0..g.local_nodes())
        .filter(|&l| label[l as usize] == g.global(l))
        .count() as u64;
    // Component sizes: count locally per label, add up at the label's owner.
    let mut sorted = label.clone();
    sorted.sort_unstable();
    let mut to: Vec<Vec<u64>> = vec![Vec::new(); net.size];
    let mut i = 0;
    while i < sorted.len() {
        let j = i + sorted[i..].partition_point(|&x| x == sorted[i]);
        to[g.part.owner(sorted[i])].extend_from_slice(&[sorted[i] as u64, (j - i) as u64]);
        i = j;
    }
    let (got, _) = net.exchange(&to)?;
    let mut size = std::collections::HashMap::<u64, u64>::new();
    for c in got.chunks_exact(2) {
        *size.entry(c[0]).or_default() += c[1];
    }
    let largest = net.max_u64(size.values().copied().max().unwrap_or(0));
    out.insert("scheduler".into(), json!(sched.label()));
    out.insert("undirected_edges".into(), json!(g.m / 2));
    out.insert("components".into(), json!(net.sum_u64(roots)));
    out.insert("largest".into(), json!(largest));
    out.insert("stale_tasks".into(), json!(net.sum_u64(stale)));
    if let Some((full, all)) = for_oracle(net, a, g, &label)? {
        let t = Instant::now();
        let expect = ordo_algos::cc::serial_cc(&full);
        let check = ordo_algos::compare(&all, &expect, |l| l.to_string(), |v| full.file_id(v));
        record_check(out, check, t);
    }
    Ok(ran)
}

fn triangles(
    net: &Net,
    a: &Args,
    g: &LocalGraph,
    exec: ExecConfig,
    mail: &MailConfig,
    out: &mut Map<String, Value>,
) -> DistResult<Ran> {
    let sched = scheduler(a, None)?;
    let t = Instant::now();
    let app = Tc::new(net, g, exec.threads)?;
    let prep_s = t.elapsed().as_secs_f64();
    let initial = app.initial();
    let ran = runtime::run(net, &sched, &exec, mail, &app, initial)?;
    let (found, intersections) = app.totals(&ran.report);
    let total = net.sum_u64(found);
    out.insert("scheduler".into(), json!(sched.label()));
    out.insert("undirected_edges".into(), json!(g.m / 2));
    out.insert("prep_s".into(), json!(prep_s));
    out.insert("triangles".into(), json!(total));
    out.insert("intersections".into(), json!(net.sum_u64(intersections)));
    if let Some(full) = oracle_graph(net, a, g)? {
        let t = Instant::now();
        let expect = ordo_algos::tc::serial_tc(&full);
        let check = if expect == total {
            Ok(())
        } else {
            Err(format!("{total} triangles, the serial count is {expect}"))
        };
        record_check(out, check, t);
    }
    Ok(ran)
}

fn pagerank(
    net: &Net,
    a: &Args,
    g: &LocalGraph,
    exec: ExecConfig,
    mail: &MailConfig,
    out: &mut Map<String, Value>,
) -> DistResult<Ran> {
    let sched = scheduler(a, None)?;
    let app = PageRank::new(g, a.tolerance);
    let initial = app.initial();
    let ran = runtime::run(net, &sched, &exec, mail, &app, initial)?;
    let x: Vec<f64> = app.x.iter().map(|v| v.get()).collect();
    let leftover = net.sum_f64(app.r.iter().map(|v| v.get()).sum());
    let total = net.sum_f64(x.iter().sum());
    let (score, error_bound) =
        ordo_algos::pagerank::normalize(&x, total, leftover, g.num_nodes() as usize);
    out.insert("scheduler".into(), json!(sched.label()));
    out.insert("damping".into(), json!(ordo_algos::pagerank::DAMPING));
    out.insert("tolerance".into(), json!(a.tolerance));
    out.insert("priority".into(), json!("pr"));
    out.insert("leftover_residual".into(), json!(leftover));
    out.insert("error_bound".into(), json!(error_bound));
    out.insert(
        "empty_takes".into(),
        json!(net.sum_u64(PageRank::empty_takes(&ran.report))),
    );
    if let Some(top) = top_ids(net, g, &score, 10)? {
        let top: Vec<u64> = top
            .into_iter()
            .map(|v| v as u64 + g.id_base.offset())
            .collect();
        out.insert("top".into(), json!(top));
    }
    if let Some((full, all)) = for_oracle(net, a, g, &score)? {
        let t = Instant::now();
        let result = ordo_algos::pagerank::PrOutput {
            score: all,
            leftover,
            error_bound,
            empty_takes: 0,
            report: ran.report.clone(),
        };
        let check = ordo_algos::pagerank::verify(&full, &result);
        if let Ok(l1) = &check {
            out.insert("l1_vs_oracle".into(), json!(l1));
        }
        record_check(out, check.map(|_| ()).map_err(|e| e.to_string()), t);
    }
    Ok(ran)
}
