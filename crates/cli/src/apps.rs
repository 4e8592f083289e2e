//! `ordo sssp`, `ordo bfs` and `ordo astar`: the path applications.

use crate::algo::{in_edges, prepare_in_edges, resolve, run_method};
use crate::args::{InputArgs, RunArgs};
use crate::error::{note, CliError, CliResult};
use crate::load::{load_noted, LoadedInput};
use crate::output::{finish_runs, verify_runs, verify_with, write_out};
use crate::run::{run_app, run_app_labelled};
use ordo_algos::{astar, bfs, named, sssp, variants};
use ordo_graph::WeightSpec;
use serde_json::json;

#[derive(Debug, Clone, clap::Args)]
pub struct SsspArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Source node, as the file numbers nodes (1-based for DIMACS/METIS/MTX) [default: first node]
    #[arg(long)]
    pub source: Option<u64>,
    /// Bucket width of delta-stepping and of bucketing schedulers (auto, obim): one bucket per
    /// 2^K distance units [default: from the graph: log2(2 x mean weight / mean degree), wider
    /// on road networks and meshes (about 4000 tasks per bucket)]
    #[arg(long, value_name = "K")]
    pub delta: Option<u32>,
    /// Method: auto (delta-stepping, or priority when a scheduler is asked for),
    /// delta-stepping (per-worker bins and bucket fusion, as GAPBS, on the frontier executor),
    /// priority (prioritized relaxation, seed 000, on --scheduler)
    #[arg(long, default_value = "auto", value_parser = variants::SSSP.names())]
    pub algo: String,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Clone, clap::Args)]
pub struct BfsArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Source node, as the file numbers nodes [default: first node]
    #[arg(long)]
    pub source: Option<u64>,
    /// Method: auto (direction-optimizing, or priority when a scheduler is asked for),
    /// direction (direction-optimizing BFS, Beamer et al. SC 2012, on the frontier executor),
    /// priority (the priority-scheduled version of seed 000, on --scheduler)
    #[arg(long, default_value = "auto", value_parser = variants::BFS.names())]
    pub algo: String,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Clone, clap::Args)]
pub struct AstarArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Node coordinates: DIMACS .co (longitude/latitude in millionths of a degree) or .xyz
    /// [default: the coordinates stored in an .ordo input]
    #[arg(long, value_name = "FILE")]
    pub coords: Option<std::path::PathBuf>,
    /// How coordinates map to distances: lonlat (equirectangular, metres), planar (Euclidean),
    /// or auto (lonlat for .co files, else planar)
    #[arg(long, default_value = "auto", value_parser = ["auto", "lonlat", "planar"])]
    pub geometry: String,
    /// Source node, as the file numbers nodes [default: first node]
    #[arg(long)]
    pub source: Option<u64>,
    /// Target node, as the file numbers nodes
    #[arg(long)]
    pub target: u64,
    /// Bucket width of delta-stepping and of bucketing schedulers (auto, obim), on distance +
    /// estimate [default: as for sssp]
    #[arg(long, value_name = "K")]
    pub delta: Option<u32>,
    /// Method: auto (delta-stepping, or priority when a scheduler is asked for),
    /// delta-stepping (on the frontier executor, pruning at the target's distance), priority
    /// (prioritized relaxation, seed 000, on --scheduler)
    #[arg(long, default_value = "auto", value_parser = variants::ASTAR.names())]
    pub algo: String,
    #[command(flatten)]
    pub run: RunArgs,
}

fn source_of(li: &LoadedInput, source: Option<u64>) -> CliResult<u32> {
    let g = &li.graph;
    if g.num_nodes() == 0 {
        return Err(CliError::input("the graph has no nodes"));
    }
    match source {
        None => Ok(0),
        Some(id) => g.node_from_file_id(id).map_err(CliError::input),
    }
}

pub fn sssp_cmd(a: &SsspArgs) -> CliResult {
    let mut li = load_noted(&a.input)?;
    ensure_weights(&mut li);
    let src = source_of(&li, a.source)?;
    let g = &li.graph;
    let algo = resolve(&variants::SSSP, &a.algo, &a.run)?;
    let delta = a.delta.unwrap_or_else(|| sssp::default_delta(g));
    let scheduled = || {
        run_app_labelled(
            &a.run,
            Some(delta),
            || sssp::dijkstra(g, src),
            |s, cfg| named::sssp(s, cfg, g, src),
        )
    };
    let r = run_method(&a.run, algo, scheduled, |cfg| {
        sssp::delta_step::run(g, src, delta, cfg)
    })?;
    let runs = &r.runs;
    let verified = verify_runs(&a.run, g, runs.results.iter().map(|o| &o.dist[..]), || {
        sssp::dijkstra(g, src)
    })?;
    let out = &runs.results[0];
    write_out(g, &a.run, &out.dist, sssp::UNREACHABLE)?;
    let (reached, sum, max) = sssp::summarize(&out.dist);
    let delta_used = r.delta(delta);
    finish_runs(
        "sssp",
        &li,
        &a.run,
        r.sched,
        r.threads,
        runs,
        &verified,
        json!({
            "algo": algo.name,
            "source": g.file_id(src),
            "delta": delta_used,
            "rounds": (!algo.scheduled).then_some(out.stats.rounds),
            "weights": li.weights.map(|w| w.to_string()),
            "stale_tasks": out.stats.stale_tasks,
            "improving_relaxations": out.stats.improving_relaxations,
            "edges_scanned": out.stats.edges_scanned,
            "work": out.stats.good_relaxations.map(|good| json!({
                "good": good,
                "bad": out.stats.improving_relaxations - good,
                "empty": out.stats.edges_scanned - out.stats.improving_relaxations,
            })),
            "reached": reached,
            "dist_sum": sum as u64,
            "max_dist": max,
        }),
        &["algo", "reached", "dist_sum", "max_dist"],
    );
    Ok(())
}

/// Weights for apps that need them: the file's, else `--weights`, else the default spec with
/// a note.
pub fn ensure_weights(li: &mut LoadedInput) {
    if !li.graph.is_weighted() {
        let spec = WeightSpec::DEFAULT;
        note(&format!(
            "the graph has no weights: using random weights {spec} (set with --weights)"
        ));
        li.graph.assign_weights(spec);
        li.weights = Some(spec);
    }
}

/// A DIMACS coordinate file by its name (`.co`, optionally gzipped): longitude/latitude.
fn is_dimacs_co(path: &std::path::Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    name.ends_with(".co") || name.ends_with(".co.gz")
}

pub fn astar_cmd(a: &AstarArgs) -> CliResult {
    if a.run.out.is_some() {
        return Err(CliError::usage(
            "astar computes one distance (in the output) and has no per-node output for --out",
        ));
    }
    let mut li = load_noted(&a.input)?;
    let geometry = match (a.geometry.as_str(), &a.coords) {
        ("lonlat", _) => astar::Geometry::LonLat,
        ("planar", _) => astar::Geometry::Planar,
        (_, Some(p)) if is_dimacs_co(p) => astar::Geometry::LonLat,
        _ => astar::Geometry::Planar,
    };
    if let Some(path) = &a.coords {
        if !path.exists() {
            return Err(CliError::input(format!(
                "{}: coordinate file not found",
                path.display()
            )));
        }
        ordo_graph::load_coords(path, &mut li.graph)?;
    } else if li.graph.coords().is_none() {
        return Err(CliError::input(
            "A* needs node coordinates: pass --coords FILE (.co or .xyz)",
        ));
    }
    ensure_weights(&mut li);
    let src = source_of(&li, a.source)?;
    let dst = li
        .graph
        .node_from_file_id(a.target)
        .map_err(CliError::input)?;
    let g = &li.graph;
    let h = astar::Heuristic::new(g, dst, geometry).expect("coordinates were attached above");
    let algo = resolve(&variants::ASTAR, &a.algo, &a.run)?;
    let delta = a.delta.unwrap_or_else(|| sssp::default_delta(g));
    let scheduled = || {
        run_app(&a.run, Some(delta), |s, cfg| {
            named::astar(s, cfg, g, src, dst, &h)
        })
    };
    let r = run_method(&a.run, algo, scheduled, |cfg| {
        astar::run_buckets(g, src, dst, &h, delta, cfg)
    })?;
    let runs = &r.runs;
    let verified = verify_with(
        &a.run,
        || sssp::dijkstra(g, src)[dst as usize],
        |&expected| {
            for o in &runs.results {
                astar::check(g, dst, o.dist, expected).map_err(CliError::input)?;
            }
            Ok(())
        },
    )?;
    let out = &runs.results[0];
    let delta_used = r.delta(delta);
    finish_runs(
        "astar",
        &li,
        &a.run,
        r.sched,
        r.threads,
        runs,
        &verified,
        json!({
            "algo": algo.name,
            "source": g.file_id(src),
            "target": g.file_id(dst),
            "delta": delta_used,
            "weights": li.weights.map(|w| w.to_string()),
            "geometry": format!("{geometry:?}").to_lowercase(),
            "scale": h.scale,
            "dist": (out.dist != sssp::UNREACHABLE).then_some(out.dist),
            "expanded": out.stats.expanded,
            "pruned": out.stats.pruned,
            "stale_tasks": out.stats.stale_tasks,
        }),
        &["algo", "dist", "expanded", "scale"],
    );
    Ok(())
}

pub fn bfs_cmd(a: &BfsArgs) -> CliResult {
    let mut li = load_noted(&a.input)?;
    let src = source_of(&li, a.source)?;
    let algo = resolve(&variants::BFS, &a.algo, &a.run)?;
    // Bottom-up steps read in-edges.
    let prep_s = (!algo.scheduled).then(|| prepare_in_edges(&mut li, &a.input.flags));
    let g = &li.graph;
    let scheduled = || {
        run_app_labelled(
            &a.run,
            Some(0),
            || widen(&bfs::serial_bfs(g, src)),
            |s, cfg| named::bfs(s, cfg, g, src),
        )
    };
    let r = run_method(&a.run, algo, scheduled, |cfg| {
        let incoming = in_edges(g, &a.input.flags);
        bfs::direction::run(g, incoming, src, cfg)
    })?;
    let runs = &r.runs;
    let verified = verify_runs(&a.run, g, runs.results.iter().map(|o| &o.level[..]), || {
        bfs::serial_bfs(g, src)
    })?;
    let out = &runs.results[0];
    write_out(g, &a.run, &out.level, bfs::UNREACHED)?;
    let (reached, sum, max) = bfs::summarize(&out.level);
    finish_runs(
        "bfs",
        &li,
        &a.run,
        r.sched,
        r.threads,
        runs,
        &verified,
        json!({
            "algo": algo.name,
            "source": g.file_id(src),
            "prep_s": prep_s,
            "stale_tasks": out.stats.stale_tasks,
            "top_down_steps": (!algo.scheduled).then_some(out.stats.top_down_steps),
            "bottom_up_steps": (!algo.scheduled).then_some(out.stats.bottom_up_steps),
            "reached": reached,
            "level_sum": sum,
            "max_level": max,
        }),
        &["algo", "reached", "level_sum", "max_level"],
    );
    Ok(())
}

/// Labels as the u64s the probes' oracle holds.
pub fn widen(labels: &[u32]) -> Vec<u64> {
    labels.iter().map(|&l| l as u64).collect()
}
