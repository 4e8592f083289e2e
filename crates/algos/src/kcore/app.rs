//! `kcore` in the application registry.

use crate::app::{
    by_name, ints, or_inf, same, widen, Answer, App, AppError, AppSpec, PerNode, Prepared,
    RunContext, Source, Undirected, Values,
};
use crate::kcore::{self, KcoreOutput, KcoreTask};
use crate::variants::{Method, Variant, Variants};
use crate::VerifyError;
use ordo_exec::ExecConfig;
use ordo_graph::Graph;
use ordo_sched::SchedulerConfig;
use serde_json::json;

by_name!(
    /// [`kcore::run`] on an undirected graph, on a scheduler chosen by name.
    <KcoreTask> -> KcoreOutput { g: &'a Graph }
    |me, s, cfg| kcore::run(me.g, s, cfg));

pub const VARIANTS: Variants = Variants {
    app: "kcore",
    // No choice by threads alone: on one thread `serial` wins on small graphs only
    // (`Kcore::auto_for_graph`, `kcore::bucket::auto_prefers`).
    few_threads: None,
    list: &[
        Variant {
            method: Method::Peel,
            about: "bucketed peeling by levels (Julienne, SPAA 2017; PKC) on the frontier executor",
            scheduled: false,
            serial: false,
        },
        Variant {
            method: Method::Serial,
            about: "bucket peeling (Batagelj and Zaversnik 2003) on one thread; auto's choice on one thread for graphs of at most 2^19 nodes, on two for 2^18",
            scheduled: false,
            serial: true,
        },
        Variant {
            method: Method::Priority,
            about:
                "asynchronous h-index updates by priority (lowest estimate first), on --scheduler",
            scheduled: true,
            serial: false,
        },
    ],
};

pub struct Kcore;

type P = Prepared<Undirected>;

impl App for Kcore {
    type Setup = Undirected;
    type Output = KcoreOutput;
    type Expected = Vec<u32>;

    const SPEC: AppSpec = AppSpec {
        name: "kcore",
        about: "Core numbers, by parallel bucketed peeling by default, bucket peeling on one \
                thread for graphs of at most 2^19 nodes (2^18 on two threads; verified \
                against bucket peeling)",
        after_help: None,
        examples: &["ordo kcore email-Enron.txt.gz --out core.txt"],
        params: &[],
        variants: &VARIANTS,
        headline: &["algo", "max_core", "in_max_core"],
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

    fn auto_for_graph(p: &P, method: &'static Variant, threads: usize) -> &'static Variant {
        let small = kcore::bucket::auto_prefers(p.graph.num_nodes(), threads);
        match VARIANTS.of(Method::Serial) {
            Some(serial) if small && method.method == Method::Peel => serial,
            _ => method,
        }
    }

    fn delta_hint(p: &P) -> Option<u32> {
        Some(kcore::default_delta(&p.graph))
    }

    fn run(
        p: &P,
        method: &Variant,
        sched: Option<&SchedulerConfig>,
        exec: &ExecConfig,
    ) -> Result<KcoreOutput, AppError> {
        match sched {
            Some(s) => Ok(by_name(s, exec, &p.graph)?),
            None if method.method == Method::Serial => Ok(kcore::bucket::run(&p.graph)),
            None => Ok(kcore::peel::run(&p.graph, exec)?),
        }
    }

    fn oracle(p: &P) -> Vec<u32> {
        kcore::serial_kcore(&p.graph)
    }

    fn oracle_labels(_p: &P, expected: &Vec<u32>) -> Option<Vec<u64>> {
        Some(widen(expected))
    }

    fn verify(p: &P, expected: &Vec<u32>, out: &KcoreOutput) -> Result<(), VerifyError> {
        same(&p.graph, &out.core, expected)
    }

    fn per_node<'a>(_p: &'a P, out: &'a KcoreOutput) -> Option<PerNode<'a>> {
        Some(Box::new(|v| or_inf(out.core[v as usize], u32::MAX)))
    }

    fn answer(_p: &P, out: KcoreOutput) -> Answer {
        ints(&out.core)
    }

    fn summary(
        p: &P,
        out: &KcoreOutput,
        _expected: Option<&Vec<u32>>,
        ctx: &RunContext<'_>,
    ) -> serde_json::Value {
        let max_core = out.core.iter().copied().max().unwrap_or(0);
        let scheduled = ctx.method.scheduled;
        json!({
            "algo": ctx.method.name(),
            "undirected_edges": p.graph.num_edges() / 2,
            "prep_s": p.setup.prep_s,
            "max_core": max_core,
            "in_max_core": out.core.iter().filter(|&&c| c == max_core).count(),
            "lowered": scheduled.then_some(out.stats.lowered),
            "unchanged": scheduled.then_some(out.stats.unchanged),
            "decrements": (!scheduled).then_some(out.stats.lowered),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ordo_graph::{gen, BuildOptions};
    use std::sync::Arc;

    #[test]
    fn auto_runs_bucket_peeling_on_one_or_two_threads_for_small_graphs_only() {
        let g = gen::road_grid(10, 10, 1, &BuildOptions::default()).unwrap();
        let setup = Undirected {
            prep_s: 0.0,
            weights: None,
        };
        let p = Prepared::new(Arc::new(g), setup);
        let of = |method| VARIANTS.of(method).unwrap();
        let auto = |method, threads| Kcore::auto_for_graph(&p, of(method), threads).method;
        assert_eq!(auto(Method::Peel, 1), Method::Serial);
        assert_eq!(auto(Method::Peel, 2), Method::Serial);
        assert_eq!(auto(Method::Peel, 3), Method::Peel);
        // A scheduler was asked for: `auto` had resolved to the scheduled method.
        assert_eq!(auto(Method::Priority, 1), Method::Priority);
        assert!(kcore::bucket::auto_prefers(
            kcore::bucket::AUTO_MAX_NODES,
            1
        ));
        assert!(!kcore::bucket::auto_prefers(
            kcore::bucket::AUTO_MAX_NODES + 1,
            1
        ));
        assert!(kcore::bucket::auto_prefers(
            kcore::bucket::AUTO_MAX_NODES / 2,
            2
        ));
        assert!(!kcore::bucket::auto_prefers(
            kcore::bucket::AUTO_MAX_NODES / 2 + 1,
            2
        ));
    }
}
