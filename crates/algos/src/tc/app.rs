//! `tc` in the application registry.

use crate::app::{
    by_name, same, Answer, App, AppError, AppSpec, Param, PerNode, Prepared, RunContext, Source,
    Undirected, Values,
};
use crate::tc::{self, Counting, TcOutput, TcTask};
use crate::variants::{Method, Variant, Variants, PRIORITY};
use crate::VerifyError;
use ordo_exec::ExecConfig;
use ordo_graph::Graph;
use ordo_sched::SchedulerConfig;
use serde_json::json;

by_name!(
    /// [`tc::run`] on an undirected simple graph, on a scheduler chosen by name.
    <TcTask> -> TcOutput { g: &'a Graph, counting: Counting }
    |me, s, cfg| tc::run_counting(me.g, s, cfg, me.counting));

/// Counting has no order dependence: the scheduled version only orders the work (heaviest
/// nodes first); the loop hands out chunks of nodes without a scheduler.
pub const VARIANTS: Variants = Variants {
    app: "tc",
    few_threads: None,
    list: &[
        Variant {
            method: Method::Loop,
            about: "chunks of nodes on the frontier executor, edges oriented by id where \
                    degrees are even and none exceeds 2 sqrt(m), else by degree",
            scheduled: false,
            serial: false,
        },
        PRIORITY,
    ],
};

pub struct Tc;

/// The undirected view's preparation, and whether each node's triangles are asked for.
pub struct TcSetup {
    pub prep_s: f64,
    pub counting: Counting,
}

/// The serial oracle's answer: the total, and each node's count where asked for.
pub struct TcExpected {
    pub triangles: u64,
    pub per_node: Option<Vec<u64>>,
}

type P = Prepared<TcSetup>;

impl App for Tc {
    type Setup = TcSetup;
    type Output = TcOutput;
    type Expected = TcExpected;

    const SPEC: AppSpec = AppSpec {
        name: "tc",
        about: "Triangle count of the undirected view (verified against a serial count)",
        after_help: None,
        examples: &[
            "ordo tc facebook_combined.txt.gz --scheduler fifo",
            "ordo tc facebook_combined.txt.gz --out triangles.txt   # each node's triangles",
        ],
        params: &[Param::flag(
            "per-node",
            "Count each node's triangles too (networkx's triangles); set by --out, which \
             writes them",
        )
        .per_node()],
        variants: &VARIANTS,
        headline: &["algo", "triangles"],
        no_per_node: None,
        no_scheduler: None,
        simulated: true,
    };

    fn prepare(
        source: &mut dyn Source,
        values: &Values,
        _method: &Variant,
        notes: &mut Vec<String>,
    ) -> Result<P, AppError> {
        let view = Undirected::of(source, false, notes)?;
        let counting = match values.flag("per-node") {
            true => Counting::PerNode,
            false => Counting::Total,
        };
        let setup = TcSetup {
            prep_s: view.setup.prep_s,
            counting,
        };
        Ok(Prepared::new(view.graph, setup))
    }

    fn run(
        p: &P,
        _method: &Variant,
        sched: Option<&SchedulerConfig>,
        exec: &ExecConfig,
    ) -> Result<TcOutput, AppError> {
        let counting = p.setup.counting;
        match sched {
            Some(s) => Ok(by_name(s, exec, &p.graph, counting)?),
            None => Ok(tc::run_loop_counting(&p.graph, exec, counting)?),
        }
    }

    /// The serial count, its nodes shared by the machine's cores ([`tc::serial_tc_split`]);
    /// each node's count serially ([`tc::serial_per_node`]) where asked for.
    fn oracle(p: &P) -> TcExpected {
        TcExpected {
            triangles: tc::serial_tc_split(&p.graph, ordo_graph::prep_threads()),
            per_node: match p.setup.counting {
                Counting::PerNode => Some(tc::serial_per_node(&p.graph)),
                Counting::Total => None,
            },
        }
    }

    fn verify(p: &P, expected: &TcExpected, out: &TcOutput) -> Result<(), VerifyError> {
        if out.triangles != expected.triangles {
            return Err(VerifyError::Answer(format!(
                "{} triangles, the serial oracle counts {}",
                out.triangles, expected.triangles
            )));
        }
        match (&out.per_node, &expected.per_node) {
            (Some(got), Some(want)) => same(&p.graph, got, want),
            (None, None) => Ok(()),
            _ => Err(VerifyError::Answer(
                "per-node counts asked for but not given, or the reverse".into(),
            )),
        }
    }

    fn per_node<'a>(_p: &'a P, out: &'a TcOutput) -> Option<PerNode<'a>> {
        let counts = out.per_node.as_ref()?;
        Some(Box::new(|v| counts[v as usize].to_string()))
    }

    /// The total, or each node's count when asked for.
    fn answer(_p: &P, out: TcOutput) -> Answer {
        match out.per_node {
            Some(counts) => Answer::Ints(counts.into_iter().map(|c| c as i64).collect()),
            None => Answer::Int(out.triangles),
        }
    }

    fn summary(
        p: &P,
        out: &TcOutput,
        _expected: Option<&TcExpected>,
        ctx: &RunContext<'_>,
    ) -> serde_json::Value {
        json!({
            "algo": ctx.method.name(),
            "undirected_edges": p.graph.num_edges() / 2,
            "prep_s": p.setup.prep_s,
            "triangles": out.triangles,
            "intersections": out.intersections,
            "per_node": p.setup.counting == Counting::PerNode,
        })
    }
}
