//! `cc` in the application registry.

use crate::app::{
    by_name, ints, same, widen, Answer, App, AppError, AppSpec, PerNode, Prepared, RunContext,
    Source, Undirected, Values,
};
use crate::cc::{self, CcOutput, CcTask};
use crate::variants::{Method, Variant, Variants, PRIORITY};
use crate::VerifyError;
use ordo_exec::ExecConfig;
use ordo_graph::Graph;
use ordo_sched::SchedulerConfig;
use serde_json::json;

by_name!(
    /// [`cc::run`] on an undirected graph, on a scheduler chosen by name.
    <CcTask> -> CcOutput { g: &'a Graph }
    |me, s, cfg| cc::run(me.g, s, cfg));

pub const VARIANTS: Variants = Variants {
    app: "cc",
    few_threads: None,
    list: &[
        Variant {
            method: Method::Afforest,
            about: "Afforest (Sutton et al., IPDPS 2018): sampled linking, union-find, on the frontier executor",
            scheduled: false,
            serial: false,
        },
        PRIORITY,
    ],
};

pub struct Cc;

type P = Prepared<Undirected>;

impl App for Cc {
    type Setup = Undirected;
    type Output = CcOutput;
    type Expected = Vec<u32>;

    const SPEC: AppSpec = AppSpec {
        name: "cc",
        about: "Connected components of the undirected view, by Afforest by default (verified \
                against union-find)",
        after_help: None,
        examples: &["ordo cc soc-Slashdot0902.txt.gz --threads 2"],
        params: &[],
        variants: &VARIANTS,
        headline: &["algo", "components", "largest"],
        no_per_node: None,
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

    fn delta_hint(p: &P) -> Option<u32> {
        Some(cc::default_delta(&p.graph))
    }

    fn run(
        p: &P,
        _method: &Variant,
        sched: Option<&SchedulerConfig>,
        exec: &ExecConfig,
    ) -> Result<CcOutput, AppError> {
        match sched {
            Some(s) => Ok(by_name(s, exec, &p.graph)?),
            None => Ok(cc::afforest::run(&p.graph, exec)?),
        }
    }

    fn oracle(p: &P) -> Vec<u32> {
        cc::serial_cc(&p.graph)
    }

    fn oracle_labels(_p: &P, expected: &Vec<u32>) -> Option<Vec<u64>> {
        Some(widen(expected))
    }

    fn verify(p: &P, expected: &Vec<u32>, out: &CcOutput) -> Result<(), VerifyError> {
        same(&p.graph, &out.label, expected)
    }

    /// Each node's component as the file's id of its smallest node (by the file's ids, also
    /// on a renumbered graph, whose labels are its own smallest nodes).
    fn per_node<'a>(p: &'a P, out: &'a CcOutput) -> Option<PerNode<'a>> {
        let g = &p.graph;
        if !g.is_renumbered() {
            return Some(Box::new(|v| g.file_id(out.label[v as usize]).to_string()));
        }
        let mut smallest = vec![u64::MAX; g.num_nodes()];
        for (v, &label) in out.label.iter().enumerate() {
            let s = &mut smallest[label as usize];
            *s = (*s).min(g.file_id(v as u32));
        }
        Some(Box::new(move |v| {
            smallest[out.label[v as usize] as usize].to_string()
        }))
    }

    fn answer(_p: &P, out: CcOutput) -> Answer {
        ints(&out.label)
    }

    fn summary(
        p: &P,
        out: &CcOutput,
        _expected: Option<&Vec<u32>>,
        ctx: &RunContext<'_>,
    ) -> serde_json::Value {
        let scheduled = ctx.method.scheduled;
        json!({
            "algo": ctx.method.name(),
            "undirected_edges": p.graph.num_edges() / 2,
            "prep_s": p.setup.prep_s,
            "components": cc::count(&out.label),
            "largest": cc::largest(&out.label),
            "stale_tasks": out.stats.stale_tasks,
            "relabels": scheduled.then_some(out.stats.relabels),
            "links": (!scheduled).then_some(out.stats.relabels),
        })
    }
}
