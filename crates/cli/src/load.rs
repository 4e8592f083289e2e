//! Loading the input graph with the shared input flags, with a progress bar on a terminal.

use crate::args::InputArgs;
use crate::error::{CliError, CliResult};
use indicatif::{ProgressBar, ProgressStyle};
use ordo_graph::{load_graph, Format, Graph, LoadOptions, WeightSpec};
use std::io::IsTerminal;
use std::time::Instant;

pub struct LoadedInput {
    pub graph: Graph,
    pub format: Format,
    pub load_s: f64,
    /// The weights spec applied, if any (printed with the results).
    pub weights: Option<WeightSpec>,
    pub notes: Vec<String>,
    /// The file name, for reports.
    pub graph_name: String,
    /// `--shuffle`'s seed, if the nodes were renumbered.
    pub shuffle: Option<u64>,
}

pub fn load_options(a: &InputArgs) -> CliResult<LoadOptions> {
    a.flags.load_options().map_err(CliError::usage)
}

/// Large files show a progress bar, but only when stdout is a terminal.
const PROGRESS_MIN_BYTES: u64 = 8 << 20;

pub fn load(a: &InputArgs) -> CliResult<LoadedInput> {
    let opts = load_options(a)?;
    let size = std::fs::metadata(&a.graph).map(|m| m.len()).unwrap_or(0);
    let bar = (std::io::stdout().is_terminal() && size >= PROGRESS_MIN_BYTES).then(|| {
        let bar = ProgressBar::new(size);
        bar.set_style(
            ProgressStyle::with_template("loading {bar:40} {bytes}/{total_bytes} ({eta})")
                .expect("valid template"),
        );
        bar
    });
    let start = Instant::now();
    let mut tick = |done: u64, _total: u64| {
        if let Some(b) = &bar {
            b.set_position(done);
        }
    };
    let progress: Option<ordo_graph::Progress<'_>> =
        if bar.is_some() { Some(&mut tick) } else { None };
    let loaded = load_graph(&a.graph, &opts, progress)?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let graph = match a.shuffle {
        Some(seed) => loaded.graph.shuffled(seed)?,
        None => loaded.graph,
    };
    Ok(LoadedInput {
        graph,
        shuffle: a.shuffle,
        format: loaded.format,
        load_s: start.elapsed().as_secs_f64(),
        weights: opts.build.weights,
        notes: loaded.notes,
        graph_name: a.graph.file_name().map_or_else(
            || a.graph.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
    })
}

/// Loads the input for an application, printing the loader's notes on stderr.
pub fn load_noted(a: &InputArgs) -> CliResult<LoadedInput> {
    let li = load(a)?;
    for n in &li.notes {
        crate::error::note(n);
    }
    Ok(li)
}
