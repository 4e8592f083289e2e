//! `tc` in the application registry.

use crate::app::{
    by_name, Answer, App, AppError, AppSpec, Prepared, RunContext, Source, Undirected, Values,
};
use crate::tc::{self, TcOutput, TcTask};
use crate::variants::{Method, Variant, Variants, PRIORITY};
use crate::VerifyError;
use ordo_exec::ExecConfig;
use ordo_graph::Graph;
use ordo_sched::SchedulerConfig;
use serde_json::json;

by_name!(
    /// [`tc::run`] on an undirected simple graph, on a scheduler chosen by name.
    <TcTask> -> TcOutput { g: &'a Graph }
    |me, s, cfg| tc::run(me.g, s, cfg));

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

type P = Prepared<Undirected>;

impl App for Tc {
    type Setup = Undirected;
    type Output = TcOutput;
    type Expected = u64;

    const SPEC: AppSpec = AppSpec {
        name: "tc",
        about: "Triangle count of the undirected view (verified against a serial count)",
        after_help: None,
        examples: &["ordo tc facebook_combined.txt.gz --scheduler fifo"],
        params: &[],
        variants: &VARIANTS,
        headline: &["algo", "triangles"],
        no_per_node: Some("tc counts triangles in total and has no per-node output for --out"),
        no_scheduler: None,
        simulated: true,
    };

    fn prepare(
        source: &mut dyn Source,
        _values: &Values,
        _method: &Variant,
        notes: &mut Vec<String>,
    ) -> Result<P, AppError> {
        Undirected::of(source, false, notes)
    }

    fn run(
        p: &P,
        _method: &Variant,
        sched: Option<&SchedulerConfig>,
        exec: &ExecConfig,
    ) -> Result<TcOutput, AppError> {
        match sched {
            Some(s) => Ok(by_name(s, exec, &p.graph)?),
            None => Ok(tc::run_loop(&p.graph, exec)?),
        }
    }

    /// The serial count, its nodes shared by the machine's cores ([`tc::serial_tc_split`]).
    fn oracle(p: &P) -> u64 {
        tc::serial_tc_split(&p.graph, ordo_graph::prep_threads())
    }

    fn verify(_p: &P, expected: &u64, out: &TcOutput) -> Result<(), VerifyError> {
        if out.triangles == *expected {
            return Ok(());
        }
        Err(VerifyError::Answer(format!(
            "{} triangles, the serial oracle counts {expected}",
            out.triangles
        )))
    }

    fn answer(_p: &P, out: TcOutput) -> Answer {
        Answer::Int(out.triangles)
    }

    fn summary(
        p: &P,
        out: &TcOutput,
        _expected: Option<&u64>,
        ctx: &RunContext<'_>,
    ) -> serde_json::Value {
        json!({
            "algo": ctx.method.name(),
            "undirected_edges": p.graph.num_edges() / 2,
            "prep_s": p.setup.prep_s,
            "triangles": out.triangles,
            "intersections": out.intersections,
        })
    }
}
