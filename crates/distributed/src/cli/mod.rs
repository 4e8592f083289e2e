//! The command line: parse on every rank, print on rank 0, agree on failures.
//!
//! `args.rs` holds the flags, `drivers/` one driver per application, `oracle.rs` what the
//! serial oracle needs on rank 0, and `report.rs` the figures and the summary.

mod args;
mod drivers;
mod oracle;
mod report;

use args::{scheduler, usage, Algo, App, Args, Layout};
use clap::Parser;
use mpi::Threading;
use ordo_dist::load::{self, Source};
use ordo_dist::mail::MailConfig;
use ordo_dist::net::{self, DistError, DistResult, Net};
use ordo_exec::ExecConfig;
use ordo_graph::WeightSpec;
use report::{comm_fields, print};
use serde_json::{json, Map, Value};
use std::time::{Duration, Instant};

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
            let e = std::io::Error::last_os_error();
            net::say(net.rank, format_args!("--max-memory: {e}"));
            return 2;
        }
    }
    let code = match run(&net, &args) {
        Ok(()) => 0,
        Err(e) => {
            match &e {
                DistError::Elsewhere(_) if net.rank != 0 => {}
                DistError::Usage(_) if net.rank != 0 => {}
                _ => net::say(net.rank, &e),
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

/// Worker threads per rank: the cores of this host shared among its ranks.
fn default_threads() -> usize {
    let local: usize = std::env::var("OMPI_COMM_WORLD_LOCAL_SIZE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    (ordo_exec::cores() / local.max(1)).max(1)
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
    if a.tolerance.is_some_and(|t| !(t > 0.0 && t < 1.0)) {
        return Err(usage("--tolerance must be in (0, 1)"));
    }
    let method = a.method()?;
    if a.iterations.is_some() && a.app != App::Pagerank {
        return Err(usage("--iterations applies to pagerank only"));
    }
    if a.iterations.is_some() && method == Algo::Tasks {
        return Err(usage(
            "--iterations counts pull iterations; --algo tasks pushes residuals until none reaches the tolerance",
        ));
    }
    let aggregate = a.aggregate as usize;
    let buffer_limit = a
        .buffer_limit
        .unwrap_or_else(|| MailConfig::default_buffer_limit(a.aggregate, net.size));
    if buffer_limit < 4 * a.aggregate * net.size as u64 {
        return Err(usage(format!(
            "--buffer-limit {} is too small for --aggregate {} on {} ranks (need at least 4 x aggregate x ranks)",
            buffer_limit, a.aggregate, net.size
        )));
    }
    let mail = MailConfig {
        aggregate,
        flush_age: Duration::from_micros(a.flush_us),
        buffer_limit,
        combine: !a.no_combine,
        tasking: a.tasking(net.size)?,
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
    let (g, view) = match a.app {
        App::Cc | App::Tc => {
            let (g, view) = g.undirected_simple(net)?;
            (g, Some(view))
        }
        _ => (g, None),
    };
    net.world_barrier();
    let load_s = t.elapsed().as_secs_f64();

    let mut out = Map::new();
    out.insert("app".into(), json!(format!("{:?}", a.app).to_lowercase()));
    out.insert("algo".into(), json!(method.name()));
    if method == Algo::Tasks {
        out.insert("tasking".into(), json!(mail.tasking.name()));
    }
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
    if let Some(view) = view {
        out.insert("undirected_view".into(), json!(view.name()));
    }
    out.insert(
        "local_edges".into(),
        json!(net.all_gather_u64s(&[g.targets.len() as u64])),
    );

    let ran = match a.app {
        App::Bfs | App::Sssp => drivers::paths(net, a, &g, exec, &mail, &mut out)?,
        App::Cc => drivers::components(net, a, &g, exec, &mail, &mut out)?,
        App::Tc => drivers::triangles(net, a, &g, exec, &mail, &mut out)?,
        App::Pagerank => drivers::pagerank(net, a, &g, exec, &mail, &mut out)?,
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
