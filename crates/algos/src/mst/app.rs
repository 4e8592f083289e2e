//! `mst` in the application registry.

use crate::app::{
    by_name, Answer, App, AppError, AppSpec, Prepared, RunContext, Source, Undirected, Values,
};
use crate::mst::{self, Edge, MstOutput, MstTask};
use crate::variants::{FewThreads, Method, Variant, Variants};
use crate::VerifyError;
use ordo_exec::ExecConfig;
use ordo_graph::Graph;
use ordo_sched::SchedulerConfig;
use serde_json::json;

by_name!(
    /// [`mst::run`] on an undirected weighted graph, on a scheduler chosen by name.
    <MstTask> -> MstOutput { g: &'a Graph }
    |me, s, cfg| mst::run(me.g, s, cfg));

pub const VARIANTS: Variants = Variants {
    app: "mst",
    // Filter-Kruskal does about half of Boruvka's work, so Boruvka needs more than two
    // threads to catch up: filter-Kruskal on one thread took 0.65-0.89x the time of Boruvka
    // on two, on seven road, social and Kronecker graphs. Where Boruvka overtakes it above two
    // threads is not measured.
    few_threads: Some(FewThreads {
        method: Method::FilterKruskal,
        up_to: 2,
    }),
    list: &[
        Variant {
            method: Method::Boruvka,
            about: "parallel Boruvka rounds with edge filtering and union-find hooking, on the frontier executor",
            scheduled: false,
            serial: false,
        },
        Variant {
            method: Method::FilterKruskal,
            about: "filter-Kruskal (Osipov, Sanders, Singler 2009): edges split around sampled pivots, heavy ones filtered by union-find before they are sorted; the edge listing and large filters shared by the threads",
            scheduled: false,
            serial: false,
        },
        Variant {
            method: Method::Priority,
            about: "Boruvka with merging by priority (the PMOD paper, Yesil et al., SC'19: \
                    smallest component first), on --scheduler",
            scheduled: true,
            serial: false,
        },
    ],
};

pub struct Mst;

type P = Prepared<Undirected>;

impl App for Mst {
    type Setup = Undirected;
    type Output = MstOutput;
    type Expected = Vec<Edge>;

    const SPEC: AppSpec = AppSpec {
        name: "mst",
        about: "Minimum spanning forest, by filter-Kruskal on up to 2 threads and parallel \
                Boruvka on more (verified against Kruskal)",
        after_help: None,
        examples: &["ordo mst USA-road-d.NY.gr.gz --threads 2"],
        params: &[],
        variants: &VARIANTS,
        headline: &["algo", "weight", "forest_edges", "components"],
        no_per_node: Some(
            "mst's answer is a set of edges (their count and weight are in the output): it has \
             no per-node output for --out",
        ),
        no_scheduler: None,
        simulated: true,
    };

    fn prepare(
        source: &mut dyn Source,
        _values: &Values,
        _method: &Variant,
        notes: &mut Vec<String>,
    ) -> Result<P, AppError> {
        // The view of the weighted input: both arcs of an edge agree once the undirected
        // view keeps the lighter of the two.
        Undirected::of(source, true, notes)
    }

    /// Priority = component degree, one bucket each.
    fn delta_hint(_p: &P) -> Option<u32> {
        Some(0)
    }

    fn run(
        p: &P,
        method: &Variant,
        sched: Option<&SchedulerConfig>,
        exec: &ExecConfig,
    ) -> Result<MstOutput, AppError> {
        match sched {
            Some(s) => Ok(by_name(s, exec, &p.graph)?),
            None if method.method == Method::FilterKruskal => {
                Ok(mst::filter_kruskal::run(&p.graph, exec)?)
            }
            None => Ok(mst::boruvka::run(&p.graph, exec)?),
        }
    }

    fn oracle(p: &P) -> Vec<Edge> {
        mst::kruskal(&p.graph)
    }

    fn verify(_p: &P, expected: &Vec<Edge>, out: &MstOutput) -> Result<(), VerifyError> {
        let weight: u64 = expected.iter().map(|e| e.weight as u64).sum();
        // Kruskal's edges and their weight both: the weight reported (the headline figure) is
        // the run's own sum, and a wrong one must not pass beside the right edges.
        if &out.edges == expected && out.weight == weight {
            return Ok(());
        }
        Err(VerifyError::Answer(format!(
            "forest of {} edges and weight {}, Kruskal's has {} edges and weight {weight}",
            out.edges.len(),
            out.weight,
            expected.len(),
        )))
    }

    /// Three columns: the edges' ends (`a < b`) and weights.
    fn answer(_p: &P, out: MstOutput) -> Answer {
        let column =
            |f: fn(&Edge) -> u32| Answer::Ints(out.edges.iter().map(|e| f(e) as i64).collect());
        Answer::Tuple(vec![column(|e| e.a), column(|e| e.b), column(|e| e.weight)])
    }

    fn summary(
        p: &P,
        out: &MstOutput,
        _expected: Option<&Vec<Edge>>,
        ctx: &RunContext<'_>,
    ) -> serde_json::Value {
        json!({
            "algo": ctx.method.name(),
            "undirected_edges": p.graph.num_edges() / 2,
            "prep_s": p.setup.prep_s,
            "weights": p.setup.weights.map(|w| w.to_string()),
            "weight": out.weight,
            "forest_edges": out.edges.len(),
            "components": p.graph.num_nodes() - out.edges.len(),
            "merges": out.merges,
            "stale_tasks": out.stale_tasks,
            "edges_scanned": out.edges_scanned,
        })
    }
}
