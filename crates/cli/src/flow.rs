//! `ordo pfp`: maximum flow by preflow-push.

use crate::args::{InputArgs, RunArgs};
use crate::error::{note, CliError, CliResult};
use crate::load::load_noted;
use crate::output::{finish_runs, sched_json, verify_with};
use crate::run::{exec_config, exec_error, scheduler_config, write_values, Runs};
use ordo_algos::pfp::{self, PfpError};
use serde_json::json;

#[derive(Debug, Clone, clap::Args)]
pub struct PfpArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Source node (the file's numbering) [default: the first node]
    #[arg(long)]
    pub source: Option<u64>,
    /// Sink node (the file's numbering) [default: the last node]
    #[arg(long)]
    pub sink: Option<u64>,
    #[command(flatten)]
    pub run: RunArgs,
}

pub fn pfp_cmd(a: &PfpArgs) -> CliResult {
    let li = load_noted(&a.input)?;
    let g = &li.graph;
    let n = g.num_nodes();
    if n < 2 {
        return Err(CliError::input("a flow needs at least two nodes"));
    }
    let node = |id: Option<u64>, default: u32| match id {
        Some(id) => g.node_from_file_id(id).map_err(CliError::input),
        None => Ok(default),
    };
    let (s, t) = (node(a.source, 0)?, node(a.sink, n as u32 - 1)?);
    if s == t {
        return Err(CliError::input(format!(
            "the source and the sink are the same node ({})",
            g.file_id(s)
        )));
    }
    if !g.is_weighted() {
        note("no edge weights: every arc has capacity 1");
    }
    let sched = scheduler_config(&a.run.sched, Some(pfp::default_delta(g)))?;
    let cfg = exec_config(&a.run, &sched)?;
    let runs = Runs::collect(a.run.repeat, || {
        pfp::run(g, s, t, &sched, &cfg).map_err(|e| match e {
            PfpError::Config(c) => CliError::usage(c),
            PfpError::Exec(e) => exec_error(e),
            e => CliError::input(e),
        })
    })?;
    let verified = verify_with(
        &a.run,
        || pfp::dinic(&pfp::Network::new(g), s, t),
        |&value| {
            for o in &runs.results {
                pfp::verify(g, s, t, o)
                    .map_err(|e| CliError::input(format!("verification failed: {e}")))?;
                if o.flow != value {
                    return Err(CliError::input(format!(
                        "verification failed: flow {}, Dinic's algorithm finds {value}",
                        o.flow
                    )));
                }
            }
            Ok(())
        },
    )?;
    let out = &runs.results[0];
    if let Some(path) = &a.run.out {
        // The minimum cut: which side each node is on.
        let side: Vec<char> = out
            .source_side
            .iter()
            .map(|&in_s| if in_s { 'S' } else { 'T' })
            .collect();
        write_values(g, path, &side, |c| c.to_string())?;
    }
    let st = &out.stats;
    finish_runs(
        "pfp",
        &li,
        &a.run,
        sched_json(&sched),
        cfg.threads,
        &runs,
        &verified,
        json!({
            "source": g.file_id(s),
            "sink": g.file_id(t),
            "flow": out.flow,
            "source_side": out.source_side.iter().filter(|&&x| x).count(),
            "pushes": st.pushes,
            "relabels": st.relabels,
            "global_relabels": st.global_relabels,
            "rounds": st.rounds,
            "phase1_s": st.phase1_s,
        }),
        &["flow", "source_side", "relabels", "global_relabels"],
    );
    Ok(())
}
