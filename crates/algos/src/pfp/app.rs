//! `pfp` in the application registry.

use crate::app::{
    node_or_first, Answer, App, AppError, AppSpec, Param, PerNode, Prepared, RunContext, Source,
    Values,
};
use crate::pfp::{self, PfpError, PfpOutput};
use crate::variants::{Variant, Variants, PRIORITY};
use crate::VerifyError;
use ordo_exec::ExecConfig;
use ordo_sched::SchedulerConfig;
use serde_json::json;

/// One method: preflow-push on the scheduler (priority: highest label first).
pub const VARIANTS: Variants = Variants {
    app: "pfp",
    few_threads: None,
    list: &[PRIORITY],
};

pub struct Pfp;

type P = Prepared<Setup>;

pub struct Setup {
    /// The graph's network, made once for every run and the oracle.
    network: pfp::Prebuilt,
    /// Seconds spent making it.
    network_s: f64,
    source: u32,
    sink: u32,
    goal: pfp::Goal,
}

impl App for Pfp {
    type Setup = Setup;
    type Output = PfpOutput;
    /// The maximum flow's value (Dinic's algorithm).
    type Expected = u64;

    const SPEC: AppSpec = AppSpec {
        name: "pfp",
        about: "Maximum flow by preflow-push with global relabelling and the gap heuristic \
                (verified: preflow, minimum cut, Dinic)",
        after_help: Some(
            "Capacities are the edge weights (1 when unweighted). --out writes each node's \
             side of the minimum cut: `id S` or `id T`.",
        ),
        examples: &["ordo pfp USA-road-d.NY.gr.gz --source 1 --sink 264346 --out cut.txt"],
        params: &[
            Param::node(
                "source",
                "Source node (the file's numbering) [default: the first node]",
            ),
            Param::node(
                "sink",
                "Sink node (the file's numbering) [default: the last node]",
            ),
            Param::flag(
                "flow",
                "Also return the excess stranded on the source side to the source (phase 2), \
                 so the result is a flow conserved at every node; the value and the cut are \
                 known without it",
            ),
        ],
        variants: &VARIANTS,
        headline: &["flow", "source_side", "relabels", "global_relabels"],
        no_per_node: None,
        no_scheduler: None,
        simulated: false,
    };

    fn prepare(
        source: &mut dyn Source,
        values: &Values,
        _method: &Variant,
        notes: &mut Vec<String>,
    ) -> Result<P, AppError> {
        let g = source.graph();
        let n = g.num_nodes();
        if n < 2 {
            return Err(AppError::Input("a flow needs at least two nodes".into()));
        }
        let sink = match values.int("sink") {
            Some(id) => source.node("sink", id)?,
            None => g.node_of_index(n as u32 - 1),
        };
        let source = node_or_first(source, "source", values.int("source"))?;
        if source == sink {
            return Err(AppError::Input(format!(
                "the source and the sink are the same node ({})",
                g.file_id(source)
            )));
        }
        if g.num_edges() > pfp::Network::MAX_INPUT_ARCS {
            return Err(AppError::Input(
                pfp::PfpError::TooLarge(g.num_edges()).to_string(),
            ));
        }
        if !g.is_weighted() {
            notes.push("no edge weights: every arc has capacity 1".into());
        }
        let goal = match values.flag("flow") {
            true => pfp::Goal::Flow,
            false => pfp::Goal::Preflow,
        };
        let start = std::time::Instant::now();
        let network = pfp::Prebuilt::new(&g);
        let setup = Setup {
            network_s: start.elapsed().as_secs_f64(),
            network,
            source,
            sink,
            goal,
        };
        Ok(Prepared::new(g, setup))
    }

    fn delta_hint(p: &P) -> Option<u32> {
        Some(pfp::default_delta(&p.graph))
    }

    fn run(
        p: &P,
        _method: &Variant,
        sched: Option<&SchedulerConfig>,
        exec: &ExecConfig,
    ) -> Result<PfpOutput, AppError> {
        let sched = sched.expect("pfp's one method is scheduled");
        let (g, s, t, goal) = (&*p.graph, p.setup.source, p.setup.sink, p.setup.goal);
        let out = p
            .setup
            .network
            .with(g, |net| pfp::run_on(g, net, s, t, goal, sched, exec));
        out.map_err(|e| match e {
            PfpError::Config(c) => c.into(),
            PfpError::Exec(e) => e.into(),
            e => AppError::Input(e.to_string()),
        })
    }

    fn oracle(p: &P) -> u64 {
        p.setup.network.with(&p.graph, |net| {
            pfp::dinic(net, p.setup.source, p.setup.sink)
        })
    }

    fn verify(p: &P, value: &u64, out: &PfpOutput) -> Result<(), VerifyError> {
        // The goal asked for, not the one the output claims: a preflow would otherwise pass
        // for a flow (`--flow`) without the conservation check.
        if out.goal != p.setup.goal {
            let name = |g| match g {
                pfp::Goal::Preflow => "preflow",
                pfp::Goal::Flow => "flow",
            };
            return Err(VerifyError::Answer(format!(
                "a {} was asked for, the run returned a {}",
                name(p.setup.goal),
                name(out.goal)
            )));
        }
        pfp::verify(&p.graph, p.setup.source, p.setup.sink, out).map_err(VerifyError::Answer)?;
        if out.flow != *value {
            return Err(VerifyError::Answer(format!(
                "flow {}, Dinic's algorithm finds {value}",
                out.flow
            )));
        }
        Ok(())
    }

    /// The minimum cut: which side each node is on.
    fn per_node<'a>(_p: &'a P, out: &'a PfpOutput) -> Option<PerNode<'a>> {
        Some(Box::new(|v| {
            if out.source_side[v as usize] {
                "S"
            } else {
                "T"
            }
            .to_string()
        }))
    }

    /// The flow's value and the source side of a minimum cut.
    fn answer(_p: &P, out: PfpOutput) -> Answer {
        Answer::Tuple(vec![Answer::Int(out.flow), Answer::Bools(out.source_side)])
    }

    fn summary(
        p: &P,
        out: &PfpOutput,
        _expected: Option<&u64>,
        _ctx: &RunContext<'_>,
    ) -> serde_json::Value {
        let st = &out.stats;
        json!({
            "source": p.graph.file_id(p.setup.source),
            "sink": p.graph.file_id(p.setup.sink),
            "flow": out.flow,
            "source_side": out.source_side.iter().filter(|&&x| x).count(),
            "pushes": st.pushes,
            "relabels": st.relabels,
            "global_relabels": st.global_relabels,
            "gaps": st.gaps,
            "rounds": st.rounds,
            "phase1_s": st.phase1_s,
            "network_s": p.setup.network_s,
            "goal": match out.goal {
                pfp::Goal::Preflow => "preflow",
                pfp::Goal::Flow => "flow",
            },
        })
    }
}
