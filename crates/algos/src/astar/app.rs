//! `astar` in the application registry.

use crate::app::{
    by_name, node_or_first, Answer, App, AppError, AppSpec, Param, RunContext, Source, Values,
};
use crate::astar::{self, AstarOutput, Geometry, Heuristic};
use crate::sssp::app::{delta_param, SOURCE};
use crate::sssp::{self, SsspTask};
use crate::variants::{Variant, Variants};
use crate::VerifyError;
use ordo_exec::{ExecConfig, RunReport};
use ordo_graph::{Graph, WeightSpec};
use ordo_sched::SchedulerConfig;
use serde_json::json;
use std::sync::Arc;

by_name!(
    /// [`astar::run`] from `src` to `dst` guided by `h`, on a scheduler chosen by name.
    <SsspTask> -> AstarOutput { g: &'a Graph, src: u32, dst: u32, h: &'a Heuristic }
    |me, s, cfg| astar::run(me.g, me.src, me.dst, me.h, s, cfg));

pub const VARIANTS: Variants = Variants {
    app: "astar",
    few_threads: None,
    list: &[
        Variant {
            name: "delta-stepping",
            about: "delta-stepping on distance + estimate with pruning at the target's distance, on the frontier executor",
            scheduled: false,
            serial: false,
        },
        Variant {
            name: "priority",
            about: "prioritized relaxation by distance + estimate (seed 000), on --scheduler",
            scheduled: true,
            serial: false,
        },
    ],
};

pub struct Astar;

pub struct Prepared {
    graph: Arc<Graph>,
    source: u32,
    target: u32,
    h: Heuristic,
    geometry: Geometry,
    delta: u32,
    weights: Option<WeightSpec>,
}

impl App for Astar {
    type Prepared = Prepared;
    type Output = AstarOutput;
    type Expected = u64;

    const SPEC: AppSpec = AppSpec {
        name: "astar",
        about: "A* shortest path to one target with a straight-line estimate (verified against \
                Dijkstra)",
        after_help: None,
        examples: &["ordo astar osm-rome.gr.gz --coords osm-rome.co.gz --source 1 --target 3000"],
        params: &[
            Param::path(
                "coords",
                "Node coordinates: DIMACS .co (longitude/latitude in millionths of a degree) or \
                 .xyz [default: the coordinates stored in an .ordo input]",
            )
            .value_name("FILE"),
            Param::choice(
                "geometry",
                &["auto", "lonlat", "planar"],
                "How coordinates map to distances: lonlat (equirectangular, metres), planar \
                 (Euclidean), or auto (lonlat for .co files, else planar)",
            )
            .default("auto"),
            SOURCE,
            Param::node("target", "Target node, as the file numbers nodes").required(),
            delta_param(
                "Bucket width of delta-stepping and of bucketing schedulers (auto, obim), on \
                 distance + estimate [default: as for sssp]",
            ),
        ],
        variants: &VARIANTS,
        headline: &["algo", "dist", "expanded", "scale"],
        no_per_node: Some(
            "astar computes one distance (in the output) and has no per-node output for --out",
        ),
        no_scheduler: None,
        simulated: false,
    };

    fn prepare(
        source: &mut dyn Source,
        values: &Values,
        _method: &Variant,
        notes: &mut Vec<String>,
    ) -> Result<Prepared, AppError> {
        if let Some(path) = values.path("coords") {
            source.attach_coords(path)?;
        } else if source.graph().coords().is_none() {
            return Err(AppError::NoCoordinates);
        }
        let geometry = match values.text("geometry") {
            Some("lonlat") => Geometry::LonLat,
            Some("planar") => Geometry::Planar,
            _ => source.geometry(),
        };
        let src = node_or_first(source, "source", values.int("source"))?;
        let target = node_or_first(source, "target", values.int("target"))?;
        let graph = source.weighted(notes);
        let h = Heuristic::new(&graph, target, geometry).ok_or(AppError::NoCoordinates)?;
        let delta = match values.int("delta") {
            Some(d) => d as u32,
            None => sssp::default_delta(&graph),
        };
        Ok(Prepared {
            graph,
            source: src,
            target,
            h,
            geometry,
            delta,
            weights: source.weights(),
        })
    }

    fn graph(p: &Prepared) -> &Graph {
        &p.graph
    }

    fn delta_hint(p: &Prepared) -> Option<u32> {
        Some(p.delta)
    }

    fn run(
        p: &Prepared,
        _method: &Variant,
        sched: Option<&SchedulerConfig>,
        exec: &ExecConfig,
    ) -> Result<AstarOutput, AppError> {
        let (g, src, dst, h) = (&p.graph, p.source, p.target, &p.h);
        match sched {
            Some(s) => Ok(by_name(s, exec, g, src, dst, h)?),
            None => Ok(astar::run_buckets(g, src, dst, h, p.delta, exec)?),
        }
    }

    fn report(out: &AstarOutput) -> &RunReport {
        &out.report
    }

    fn oracle(p: &Prepared) -> u64 {
        sssp::dijkstra(&p.graph, p.source)[p.target as usize]
    }

    fn verify(p: &Prepared, expected: &u64, out: &AstarOutput) -> Result<(), VerifyError> {
        astar::check(&p.graph, p.target, out.dist, *expected)
    }

    fn answer(_p: &Prepared, out: AstarOutput) -> Answer {
        match out.dist {
            sssp::UNREACHABLE => Answer::Float(f64::INFINITY),
            d => Answer::Float(d as f64),
        }
    }

    fn summary(
        p: &Prepared,
        out: &AstarOutput,
        _expected: Option<&u64>,
        ctx: &RunContext<'_>,
    ) -> serde_json::Value {
        json!({
            "algo": ctx.method.name,
            "source": p.graph.file_id(p.source),
            "target": p.graph.file_id(p.target),
            "delta": ctx.sched.map_or(Some(p.delta), |s| s.delta()),
            "weights": p.weights.map(|w| w.to_string()),
            "geometry": format!("{:?}", p.geometry).to_lowercase(),
            "scale": p.h.scale,
            "dist": (out.dist != sssp::UNREACHABLE).then_some(out.dist),
            "expanded": out.stats.expanded,
            "pruned": out.stats.pruned,
            "stale_tasks": out.stats.stale_tasks,
        })
    }
}
