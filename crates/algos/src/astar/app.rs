//! `astar` in the application registry.

use crate::app::{
    by_name, node_or_first, Answer, App, AppError, AppSpec, Param, Prepared, RunContext, Source,
    Values,
};
use crate::astar::{self, AstarOutput, Geometry, Heuristic};
use crate::sssp::app::{delta_param, SOURCE};
use crate::sssp::{self, SsspTask};
use crate::variants::{Method, Variant, Variants};
use crate::VerifyError;
use ordo_exec::ExecConfig;
use ordo_graph::{Graph, WeightSpec};
use ordo_sched::SchedulerConfig;
use serde_json::json;

by_name!(
    /// [`astar::run`] from `src` to `dst` guided by `h`, on a scheduler chosen by name.
    <SsspTask> -> AstarOutput { g: &'a Graph, src: u32, dst: u32, h: &'a Heuristic }
    |me, s, cfg| astar::run(me.g, me.src, me.dst, me.h, s, cfg));

pub const VARIANTS: Variants = Variants {
    app: "astar",
    few_threads: None,
    list: &[
        Variant {
            method: Method::DeltaStepping,
            about: "delta-stepping on distance + estimate with pruning at the target's distance, on the frontier executor",
            scheduled: false,
            serial: false,
        },
        Variant {
            method: Method::Priority,
            about: "prioritized relaxation by distance + estimate (the PMOD paper, Yesil et al., \
                    SC'19), on --scheduler",
            scheduled: true,
            serial: false,
        },
    ],
};

pub struct Astar;

type P = Prepared<Setup>;

pub struct Setup {
    source: u32,
    target: u32,
    h: Heuristic,
    geometry: Geometry,
    delta: u32,
    weights: Option<WeightSpec>,
}

impl App for Astar {
    type Setup = Setup;
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
    ) -> Result<P, AppError> {
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
        let setup = Setup {
            source: src,
            target,
            h,
            geometry,
            delta,
            weights: source.weights(),
        };
        Ok(Prepared::new(graph, setup))
    }

    fn delta_hint(p: &P) -> Option<u32> {
        Some(p.setup.delta)
    }

    fn run(
        p: &P,
        _method: &Variant,
        sched: Option<&SchedulerConfig>,
        exec: &ExecConfig,
    ) -> Result<AstarOutput, AppError> {
        let (g, src, dst, h) = (&p.graph, p.setup.source, p.setup.target, &p.setup.h);
        match sched {
            Some(s) => Ok(by_name(s, exec, g, src, dst, h)?),
            None => Ok(astar::run_buckets(g, src, dst, h, p.setup.delta, exec)?),
        }
    }

    fn oracle(p: &P) -> u64 {
        sssp::dijkstra(&p.graph, p.setup.source)[p.setup.target as usize]
    }

    fn verify(p: &P, expected: &u64, out: &AstarOutput) -> Result<(), VerifyError> {
        astar::check(&p.graph, p.setup.target, out.dist, *expected)
    }

    fn answer(_p: &P, out: AstarOutput) -> Answer {
        match out.dist {
            sssp::UNREACHABLE => Answer::Float(f64::INFINITY),
            d => Answer::Float(d as f64),
        }
    }

    fn summary(
        p: &P,
        out: &AstarOutput,
        _expected: Option<&u64>,
        ctx: &RunContext<'_>,
    ) -> serde_json::Value {
        json!({
            "algo": ctx.method.name(),
            "source": p.graph.file_id(p.setup.source),
            "target": p.graph.file_id(p.setup.target),
            "delta": ctx.sched.map_or(Some(p.setup.delta), |s| s.delta()),
            "weights": p.setup.weights.map(|w| w.to_string()),
            "geometry": format!("{:?}", p.setup.geometry).to_lowercase(),
            "scale": p.setup.h.scale,
            "dist": (out.dist != sssp::UNREACHABLE).then_some(out.dist),
            "expanded": out.stats.expanded,
            "pruned": out.stats.pruned,
            "stale_tasks": out.stats.stale_tasks,
        })
    }
}
