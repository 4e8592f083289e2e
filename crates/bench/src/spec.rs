//! A benchmark matrix as written in TOML: sweeps (applications x graphs x schedulers x
//! threads x parameter sets) and the figures drawn from their results.

use serde::Deserialize;

/// A whole experiment: what to run and what to draw.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    pub name: String,
    /// The paper whose experiment the matrix reproduces, if any (`ordo bench --list`).
    #[serde(default)]
    pub paper: Option<String>,
    #[serde(default)]
    pub description: String,
    /// Runs per configuration (`--repeat`; the median time is reported).
    #[serde(default = "three")]
    pub repeat: u32,
    #[serde(default, rename = "sweep")]
    pub sweeps: Vec<Sweep>,
    #[serde(default, rename = "figure")]
    pub figures: Vec<Figure>,
    #[serde(default, rename = "ratio_table")]
    pub ratio_tables: Vec<RatioTable>,
    /// Result fields the printed table shows after its own columns (e.g. `lmf_path`).
    #[serde(default)]
    pub columns: Vec<String>,
}

/// PMOD Table 5's summary (Yesil et al., SC'19): within each group (an application on a
/// graph), every configuration's `value` over the group's best; then per configuration and
/// `per` value (an application), the geometric mean of those ratios. 1.0 is "always the best".
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatioTable {
    /// CSV file name without extension.
    pub file: String,
    pub title: String,
    /// The measured field (lower is better), e.g. `time_s`.
    pub value: String,
    /// Fields that make a group whose best is the reference.
    pub group: Vec<String>,
    /// Fields naming a configuration (a table row).
    pub by: Vec<String>,
    /// Field naming a column; the geometric mean is taken over the groups sharing it. A last
    /// column, `all`, takes it over every group.
    pub per: String,
    /// Report the best over the value instead (Yesil et al.'s Table 5, "speedup compared to the
    /// best CPS": 1.0 is always the best, 0.5 twice the best's time).
    #[serde(default)]
    pub speedup: bool,
}

fn three() -> u32 {
    3
}

fn auto() -> Vec<String> {
    vec!["auto".into()]
}

/// One cartesian product of runs.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sweep {
    /// Run `ordo simulate` (threads are then logical workers) instead of the application.
    #[serde(default)]
    pub simulate: bool,
    pub apps: Vec<String>,
    /// Graph files: a name under the data folder, a path, or `amsterdam` (embedded).
    pub graphs: Vec<String>,
    #[serde(default = "auto")]
    pub schedulers: Vec<String>,
    /// What figures and tables call this sweep's runs (the results' `label`), e.g. `obim-D`
    /// for the paper's obim with Galois' fixed delta; default: the scheduler's name.
    #[serde(default)]
    pub label: Option<String>,
    /// Thread (or simulated worker) counts; empty means the default (every core).
    #[serde(default)]
    pub threads: Vec<usize>,
    /// Parameter sets, each a list of `key=value` (an empty list is the defaults).
    #[serde(default)]
    pub params: Vec<Vec<String>>,
    /// Extra flags for every run, e.g. `--breakdown`. `{data}` in a flag stands for the data
    /// folder and `{embedded}` for the repository's `data/` (e.g. A*'s `--coords` file).
    #[serde(default)]
    pub flags: Vec<String>,
    /// What `--quick` replaces.
    #[serde(default)]
    pub quick: Quick,
}

/// `--quick` overrides of a sweep: smaller graphs, fewer threads or parameter values.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quick {
    pub apps: Option<Vec<String>>,
    pub graphs: Option<Vec<String>>,
    pub schedulers: Option<Vec<String>>,
    pub threads: Option<Vec<usize>>,
    pub params: Option<Vec<Vec<String>>>,
    /// Flags that name something of the full graphs (A*'s coordinates and target).
    pub flags: Option<Vec<String>>,
}

impl Sweep {
    /// This sweep with its `--quick` overrides applied.
    pub fn quick(&self) -> Sweep {
        let q = &self.quick;
        Sweep {
            apps: q.apps.clone().unwrap_or_else(|| self.apps.clone()),
            graphs: q.graphs.clone().unwrap_or_else(|| self.graphs.clone()),
            schedulers: q
                .schedulers
                .clone()
                .unwrap_or_else(|| self.schedulers.clone()),
            threads: q.threads.clone().unwrap_or_else(|| self.threads.clone()),
            params: q.params.clone().unwrap_or_else(|| self.params.clone()),
            flags: q.flags.clone().unwrap_or_else(|| self.flags.clone()),
            ..self.clone()
        }
    }
}

/// How a figure shows the results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// `y` against a numeric `x`, one line per `series` value.
    Line,
    /// One bar per result (labelled by `series`), its `ys` fields stacked.
    Stacked,
    /// One group of bars per result, one bar per `ys` field.
    Bars,
    /// A grid over the values of `x` and `y`, each cell coloured by `z` (Postnikova et al.'s
    /// p_steal x steal size maps).
    Heatmap,
    /// Each result's `trace`: the priorities its workers ran against time, one colour per
    /// worker (Lenharth et al., Fig. 1). One panel per result.
    Trace,
    /// Each result's `stats.events` named `y` (PMOD's `lmf`): the new value against time, one
    /// line per result (the dynamics of Yesil et al., Table 6).
    Events,
}

/// A figure drawn from the results, one panel per distinct `facet` value.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    /// File name without extension (`.svg` is added).
    pub file: String,
    pub kind: Kind,
    pub title: String,
    /// Result field on the x axis (line figures).
    #[serde(default)]
    pub x: String,
    /// Result field on the y axis (line figures).
    #[serde(default)]
    pub y: String,
    /// Result field that colours a heatmap's cells.
    #[serde(default)]
    pub z: String,
    /// Result fields per bar (stacked and bar figures).
    #[serde(default)]
    pub ys: Vec<String>,
    /// The x axis's label [default: `x`].
    #[serde(default)]
    pub x_label: Option<String>,
    /// The y axis's label [default: `y`, or the `ys` fields' last names].
    #[serde(default)]
    pub y_label: Option<String>,
    /// Result fields whose values name a line or a bar, joined with spaces.
    pub series: Vec<String>,
    /// Result fields whose values split the figure into panels.
    #[serde(default)]
    pub facet: Vec<String>,
    #[serde(default)]
    pub log_x: bool,
    #[serde(default)]
    pub log_y: bool,
    /// Keep only results whose field equals the value (`key=value`).
    #[serde(default)]
    pub only: Vec<String>,
}
