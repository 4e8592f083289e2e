//! `ordo info`, `ordo convert`, `ordo gen`, `ordo schedulers`.

use crate::args::InputArgs;
use crate::error::{CliError, CliResult};
use crate::load::load;
use ordo_graph::{gen, write_graph, BuildOptions, Format, Graph, WeightSpec};
use std::path::PathBuf;

#[derive(Debug, Clone, clap::Args)]
pub struct InfoArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Coordinates file (.co or .xyz) to check against the graph
    #[arg(long)]
    pub coords: Option<PathBuf>,
    /// Print one JSON object
    #[arg(long)]
    pub json: bool,
}

pub fn info_cmd(a: &InfoArgs) -> CliResult {
    let mut li = load(&a.input)?;
    if let Some(c) = &a.coords {
        ordo_graph::load_coords(c, &mut li.graph)?;
    }
    let g = &li.graph;
    let n = g.num_nodes();
    let degrees: Vec<usize> = (0..n as u32).map(|v| g.out_degree(v)).collect();
    let max_deg = degrees.iter().copied().max().unwrap_or(0);
    let isolated = degrees.iter().filter(|&&d| d == 0).count();
    let (wmin, wmax, wmean) = match g.weights() {
        Some(w) if !w.is_empty() => (
            *w.iter().min().unwrap() as f64,
            *w.iter().max().unwrap() as f64,
            w.iter().map(|&x| x as f64).sum::<f64>() / w.len() as f64,
        ),
        _ => (f64::NAN, f64::NAN, f64::NAN),
    };
    let j = serde_json::json!({
        "graph": li.graph_name,
        "format": li.format.name(),
        "nodes": n,
        "edges": g.num_edges(),
        "weighted": g.is_weighted(),
        "weight_min": g.is_weighted().then_some(wmin),
        "weight_max": g.is_weighted().then_some(wmax),
        "weight_mean": g.is_weighted().then_some(wmean),
        "max_out_degree": max_deg,
        "mean_out_degree": if n > 0 { g.num_edges() as f64 / n as f64 } else { 0.0 },
        "no_out_edges": isolated,
        "self_loops": g.num_self_loops(),
        "coordinates": g.coords().is_some(),
        "first_id": g.file_id(0),
        "load_s": li.load_s,
        "notes": li.notes,
    });
    if a.json {
        println!("{j}");
    } else {
        println!("{} ({} format)", li.graph_name, li.format.name());
        println!(
            "  nodes {n}  arcs {}  (ids from {})",
            g.num_edges(),
            j["first_id"]
        );
        println!(
            "  out-degree mean {:.2} max {max_deg}; {isolated} nodes without out-arcs; {} self-loops",
            j["mean_out_degree"].as_f64().unwrap_or(0.0),
            g.num_self_loops()
        );
        if g.is_weighted() {
            println!("  weights min {wmin} max {wmax} mean {wmean:.2}");
        } else {
            println!("  unweighted");
        }
        if g.coords().is_some() {
            println!("  coordinates: yes");
        }
        for note in &li.notes {
            println!("  note: {note}");
        }
        println!("  loaded in {:.3} s", li.load_s);
    }
    Ok(())
}

#[derive(Debug, Clone, clap::Args)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output file; .ordo (binary), .gr (DIMACS), .el, .wel, each optionally .gz
    pub output: PathBuf,
    /// Output format, overriding the extension
    #[arg(long, value_name = "FORMAT")]
    pub to: Option<String>,
    /// Coordinates (.co / .xyz) to store with the graph (binary format only)
    #[arg(long)]
    pub coords: Option<PathBuf>,
}

pub fn convert_cmd(a: &ConvertArgs) -> CliResult {
    let mut li = load(&a.input)?;
    if let Some(c) = &a.coords {
        ordo_graph::load_coords(c, &mut li.graph)?;
    }
    let to = parse_format(a.to.as_deref())?;
    let fmt = write_graph(&li.graph, &a.output, to)?;
    eprintln!(
        "wrote {} ({} format): {} nodes, {} arcs",
        a.output.display(),
        fmt.name(),
        li.graph.num_nodes(),
        li.graph.num_edges()
    );
    Ok(())
}

fn parse_format(f: Option<&str>) -> CliResult<Option<Format>> {
    f.map(|f| {
        Format::from_name(f).ok_or_else(|| {
            CliError::usage(format!(
                "unknown format '{f}'; valid: {}",
                Format::NAMES.join(", ")
            ))
        })
    })
    .transpose()
}

/// Flags every generator takes.
#[derive(Debug, Clone, clap::Args)]
pub struct GenCommon {
    /// Output file (.ordo, .gr, .el, .wel, optionally .gz)
    #[arg(long, short = 'o')]
    pub output: PathBuf,
    /// Random seed (same seed, same graph)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Add reverse arcs (undirected graph)
    #[arg(long)]
    pub symmetrize: bool,
    /// Random integer weights lo:hi:seed
    #[arg(long, value_name = "LO:HI:SEED")]
    pub weights: Option<String>,
}

#[derive(Debug, Clone, clap::Subcommand)]
pub enum GenKind {
    /// Graph500 Kronecker graph (A=.57, B=C=.19): 2^scale nodes, edge-factor * 2^scale arcs
    Kronecker {
        #[arg(long)]
        scale: u32,
        #[arg(long, default_value_t = 16)]
        edge_factor: u32,
        #[command(flatten)]
        common: GenCommon,
    },
    /// Uniform random graph with the given numbers of nodes and arcs
    Uniform {
        #[arg(long)]
        nodes: u64,
        #[arg(long)]
        edges: u64,
        #[command(flatten)]
        common: GenCommon,
    },
    /// Road-like grid with coordinates and Euclidean weights
    Road {
        #[arg(long)]
        width: u32,
        #[arg(long)]
        height: u32,
        #[command(flatten)]
        common: GenCommon,
    },
}

pub fn gen_cmd(kind: &GenKind) -> CliResult {
    let a = match kind {
        GenKind::Kronecker { common, .. }
        | GenKind::Uniform { common, .. }
        | GenKind::Road { common, .. } => common,
    };
    let weights = match &a.weights {
        Some(w) => Some(w.parse::<WeightSpec>().map_err(CliError::usage)?),
        None => None,
    };
    let opts = BuildOptions {
        symmetrize: a.symmetrize,
        weights,
        ..Default::default()
    };
    let g: Graph = match kind {
        GenKind::Kronecker {
            scale, edge_factor, ..
        } => gen::kronecker(*scale, *edge_factor, a.seed, &opts),
        GenKind::Uniform { nodes, edges, .. } => gen::uniform_random(*nodes, *edges, a.seed, &opts),
        GenKind::Road { width, height, .. } => gen::road_grid(*width, *height, a.seed, &opts),
    }
    .map_err(CliError::usage)?;
    let fmt = write_graph(&g, &a.output, None)?;
    eprintln!(
        "wrote {} ({} format): {} nodes, {} arcs",
        a.output.display(),
        fmt.name(),
        g.num_nodes(),
        g.num_edges()
    );
    Ok(())
}

pub fn schedulers_cmd(json: bool) -> CliResult {
    let cat = ordo_sched::catalogue();
    if json {
        let j: Vec<serde_json::Value> = cat
            .iter()
            .map(|s| {
                serde_json::json!({
                    "name": s.name,
                    "summary": s.summary,
                    "params": s.params.iter().map(|p| serde_json::json!({"key": p.key, "default": p.default, "doc": p.doc})).collect::<Vec<_>>(),
                })
            })
            .collect();
        println!("{}", serde_json::Value::Array(j));
        return Ok(());
    }
    let key_w = cat
        .iter()
        .flat_map(|s| s.params.iter().map(|p| p.key.len()))
        .max()
        .unwrap_or(0);
    for s in cat {
        println!("{:<8} {}", s.name, s.summary);
        for p in s.params {
            println!("    {:<key_w$}  default {:<6} {}", p.key, p.default, p.doc);
        }
    }
    println!("\nSet parameters with --param key=value (repeatable), e.g. --scheduler obim --param delta=10");
    Ok(())
}
