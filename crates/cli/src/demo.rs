//! `ordo demo`: ordo's main job on the embedded Amsterdam road network: SSSP with several
//! schedulers and thread counts, each verified, in one comparison table.

use crate::error::{CliError, CliResult};
use crate::run::{app_error, Runs};
use ordo_algos::{named, sssp};
use ordo_exec::ExecConfig;
use ordo_graph::{load_graph_from_bytes, LoadOptions};
use ordo_sched::{SchedulerConfig, Topology};
use std::path::Path;
use std::time::Instant;

static AMSTERDAM: &[u8] = include_bytes!("../../../data/osm-amsterdam.gr.gz");

pub fn demo_cmd(repeat: u32) -> CliResult {
    let name = Path::new("osm-amsterdam.gr.gz");
    let start = Instant::now();
    let g = load_graph_from_bytes(name, AMSTERDAM.to_vec(), &LoadOptions::default())?.graph;
    println!(
        "ordo demo: SSSP on the Amsterdam road network (OpenStreetMap, {} nodes, {} arcs; loaded in {:.0} ms)",
        g.num_nodes(),
        g.num_edges(),
        start.elapsed().as_secs_f64() * 1e3
    );
    let cores = ordo_exec::cores();
    let delta = sssp::default_delta(&g);
    println!("source node 1; obim delta {delta} (chosen from the graph); median of {repeat} runs; {cores} cores\n");
    let expected = sssp::dijkstra(&g, 0);
    let mut rows: Vec<(SchedulerConfig, usize)> = Vec::new();
    let obim =
        |d: u32| SchedulerConfig::parse("obim", &[("delta".into(), d.to_string())]).expect("valid");
    rows.push((SchedulerConfig::parse("serial", &[]).expect("valid"), 1));
    let mut threads: Vec<usize> = vec![1, 2, cores.max(2) * 2];
    threads.dedup();
    for &t in &threads {
        rows.push((obim(delta), t));
    }
    for name in ["pmod", "smq", "fifo"] {
        rows.push((SchedulerConfig::parse(name, &[]).expect("valid"), 2));
    }
    println!(
        "{:<22} {:>7} {:>10} {:>10} {:>9} {:>8} {:>9}",
        "scheduler", "threads", "time ms", "tasks", "stale", "vs serial", "verified"
    );
    let mut serial_ms = None;
    for (sched, t) in rows {
        let cfg = ExecConfig::with_topology(t, Topology::detect());
        let mut ok = true;
        let runs = Runs::collect(
            repeat,
            |o: &sssp::SsspOutput| &o.report,
            || named::sssp(&sched, &cfg, &g, 0).map_err(|e| app_error(e.into())),
            |r| {
                ok &= r.dist == expected;
                Ok(())
            },
        )?;
        let ms = runs.median_time().as_secs_f64() * 1e3;
        let base = *serial_ms.get_or_insert(ms);
        let r = &runs.first;
        println!(
            "{:<22} {:>7} {:>10.2} {:>10} {:>9} {:>8.2}x {:>9}",
            sched.label(),
            t,
            ms,
            r.report.total.tasks,
            r.stats.stale_tasks,
            base / ms,
            if ok { "yes" } else { "NO" }
        );
        if !ok {
            return Err(CliError::input(format!(
                "{} gave wrong distances",
                sched.label()
            )));
        }
    }
    println!("\n'vs serial' is serial Dijkstra's time over this row's; 'stale' counts tasks skipped because");
    println!("their node had already been reached by a shorter path (the price of relaxed order).");
    Ok(())
}
