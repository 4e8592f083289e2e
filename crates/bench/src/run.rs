//! Expanding a [`Spec`] into runs, running each as a child `ordo` process with `--json`, and
//! keeping every result (flattened to `a.b` keys) for the table, the CSV and the figures.

use super::spec::{Spec, Sweep};
use crate::error::{BenchError, BenchResult};
use crate::placement::Placement;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Map, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One configuration to run.
#[derive(Debug, Clone)]
pub struct Job {
    pub simulate: bool,
    pub app: String,
    pub graph: String,
    pub path: PathBuf,
    pub scheduler: String,
    /// The sweep's `label`, else the scheduler.
    pub label: String,
    pub threads: Option<usize>,
    pub params: Vec<String>,
    pub flags: Vec<String>,
    pub repeat: u32,
}

impl Job {
    /// The `ordo` arguments of this run.
    pub fn args(&self) -> Vec<String> {
        let mut a = vec![];
        if self.simulate {
            a.push("simulate".to_string());
        }
        a.push(self.app.clone());
        a.push(self.path.to_string_lossy().into_owned());
        a.extend(["--scheduler".into(), self.scheduler.clone()]);
        for p in &self.params {
            a.extend(["--param".into(), p.clone()]);
        }
        match (self.simulate, self.threads) {
            (true, Some(t)) => a.extend(["--workers".into(), t.to_string()]),
            (false, Some(t)) => a.extend(["--threads".into(), t.to_string()]),
            _ => {}
        }
        if !self.simulate {
            a.extend(["--repeat".into(), self.repeat.to_string()]);
        }
        a.extend(self.flags.iter().cloned());
        // A matrix compares schedulers: where the app also has methods without one, run its
        // scheduled version (`--scheduler auto` alone would pick the frontier method).
        let has_variants = ordo_algos::APPS
            .iter()
            .any(|spec| spec.name == self.app && spec.has_methods());
        if !self.simulate && has_variants && !self.flags.iter().any(|f| f == "--algo") {
            a.extend(["--algo".into(), "priority".into()]);
        }
        a.push("--json".into());
        a
    }

    /// The short description in the progress bar and in errors.
    pub fn label(&self) -> String {
        let mut s = format!("{} {} {}", self.app, self.graph, self.label);
        for p in &self.params {
            s += &format!(" {p}");
        }
        if let Some(t) = self.threads {
            s += &format!(" {}{t}", if self.simulate { "P=" } else { "t=" });
        }
        s
    }
}

/// Where graphs named in a spec are found.
pub struct GraphDirs {
    pub data: PathBuf,
    pub embedded: PathBuf,
}

impl GraphDirs {
    /// `flag` with `{data}` and `{embedded}` replaced by the folders.
    pub fn fill(&self, flag: &str) -> String {
        flag.replace("{data}", &self.data.to_string_lossy())
            .replace("{embedded}", &self.embedded.to_string_lossy())
    }

    /// The file behind a graph name, or `None` (with the reason) when it is not here.
    pub fn resolve(&self, name: &str) -> Result<PathBuf, String> {
        let p = if name == "amsterdam" {
            self.embedded.join("osm-amsterdam.gr.gz")
        } else if Path::new(name).is_absolute() || name.starts_with('.') {
            PathBuf::from(name)
        } else {
            self.data.join(name)
        };
        if p.is_file() {
            Ok(p)
        } else {
            Err(format!("{}: not found", p.display()))
        }
    }
}

/// Every run of `spec` whose graph exists; the graphs that do not are returned as notes.
pub fn expand(spec: &Spec, quick: bool, dirs: &GraphDirs) -> (Vec<Job>, Vec<String>) {
    let mut jobs = vec![];
    let mut skipped = vec![];
    for sweep in &spec.sweeps {
        let s: Sweep = if quick { sweep.quick() } else { sweep.clone() };
        let threads: Vec<Option<usize>> = if s.threads.is_empty() {
            vec![None]
        } else {
            s.threads.iter().map(|&t| Some(t)).collect()
        };
        let flags: Vec<String> = s.flags.iter().map(|f| dirs.fill(f)).collect();
        let params = if s.params.is_empty() {
            vec![vec![]]
        } else {
            s.params.clone()
        };
        for graph in &s.graphs {
            let path = match dirs.resolve(graph) {
                Ok(p) => p,
                Err(why) => {
                    if !skipped.contains(&why) {
                        skipped.push(why);
                    }
                    continue;
                }
            };
            for app in &s.apps {
                for scheduler in &s.schedulers {
                    for ps in &params {
                        for &t in &threads {
                            jobs.push(Job {
                                simulate: s.simulate,
                                app: app.clone(),
                                graph: graph.clone(),
                                path: path.clone(),
                                scheduler: scheduler.clone(),
                                label: s.label.clone().unwrap_or_else(|| scheduler.clone()),
                                threads: t,
                                params: ps.clone(),
                                flags: flags.clone(),
                                repeat: if quick { 1 } else { spec.repeat },
                            });
                        }
                    }
                }
            }
        }
    }
    (jobs, skipped)
}

/// Runs every job with `ordo` at `exe`, appending each result to `jsonl` as it comes.
/// A run that fails (bad input, failed verification) is kept with its `error`; one still
/// running after `limit` is stopped and kept with `timed_out: true`. Each row also carries
/// the host's CPU round trip at the time (`host_round_trip_ns`, see `placement.rs`).
pub fn run_all(
    exe: &Path,
    jobs: &[Job],
    jsonl: &Path,
    limit: Duration,
    interrupted: &dyn Fn() -> bool,
) -> BenchResult<Vec<Map<String, Value>>> {
    let file = std::fs::File::create(jsonl)
        .map_err(|e| BenchError::input(format!("{}: {e}", jsonl.display())))?;
    let mut out = std::io::BufWriter::new(file);
    let bar = ProgressBar::new(jobs.len() as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} runs, {elapsed} elapsed, ETA {eta}  {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut results = Vec::with_capacity(jobs.len());
    let mut placement = Placement::default();
    for job in jobs {
        if interrupted() {
            bar.abandon();
            return Err(BenchError::Interrupted {
                done: results.len(),
                total: jobs.len(),
            });
        }
        bar.set_message(job.label());
        let host = placement.reading_for_next_run();
        let mut row = run_one(exe, job, limit);
        if let Some(ns) = host {
            row.insert("host_round_trip_ns".into(), (ns.round() as u64).into());
        }
        writeln!(out, "{}", Value::Object(row.clone()))
            .and_then(|_| out.flush())
            .map_err(|e| BenchError::input(format!("{}: {e}", jsonl.display())))?;
        results.push(row);
        bar.inc(1);
    }
    bar.finish_and_clear();
    if let Some(line) = placement.summary() {
        crate::error::note(&line);
    }
    Ok(results)
}

/// One run: the job's own fields, then the run's JSON flattened.
fn run_one(exe: &Path, job: &Job, limit: Duration) -> Map<String, Value> {
    let mut row = Map::new();
    row.insert("app".into(), job.app.clone().into());
    row.insert("graph".into(), job.graph.clone().into());
    row.insert("scheduler".into(), job.scheduler.clone().into());
    row.insert(
        "threads".into(),
        job.threads.map_or(Value::Null, Value::from),
    );
    row.insert("param_set".into(), job.params.join(",").into());
    row.insert("simulate".into(), job.simulate.into());
    row.insert(
        "command".into(),
        format!("ordo {}", job.args().join(" ")).into(),
    );
    match run_limited(Command::new(exe).args(job.args()), limit) {
        Ok(Finished::Exited(o)) if o.status.success() => {
            match serde_json::from_slice::<Value>(&o.stdout) {
                Ok(v) => {
                    flatten("", &v, &mut row);
                    add_lmf_dynamics(&mut row);
                }
                Err(e) => {
                    row.insert("error".into(), format!("unreadable JSON: {e}").into());
                }
            }
        }
        Ok(Finished::Exited(o)) => {
            let err = String::from_utf8_lossy(&o.stderr);
            let line = err.lines().last().unwrap_or("failed").to_string();
            row.insert("error".into(), line.into());
        }
        Ok(Finished::TimedOut) => {
            row.insert("timed_out".into(), true.into());
            row.insert("run_limit_s".into(), limit.as_secs().into());
        }
        Err(e) => {
            row.insert(
                "error".into(),
                format!("cannot run {}: {e}", exe.display()).into(),
            );
        }
    }
    // The job's names win over the run's own (`scheduler` stays as asked, e.g. `auto`).
    row.insert("scheduler".into(), job.scheduler.clone().into());
    row.insert("label".into(), job.label.clone().into());
    row.insert("graph".into(), job.graph.clone().into());
    row
}

enum Finished {
    Exited(std::process::Output),
    TimedOut,
}

/// Runs `cmd` to completion, or kills it once it has run for `limit`. Its output is read on
/// two threads while it runs, so a large JSON cannot fill a pipe and stall it.
fn run_limited(cmd: &mut Command, limit: Duration) -> std::io::Result<Finished> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let out = read_on_a_thread(child.stdout.take());
    let err = read_on_a_thread(child.stderr.take());
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if start.elapsed() >= limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (stdout, stderr) = (
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    );
    Ok(match status {
        Some(status) => Finished::Exited(std::process::Output {
            status,
            stdout,
            stderr,
        }),
        None => Finished::TimedOut,
    })
}

/// Reads all of `pipe` on its own thread.
fn read_on_a_thread<R: std::io::Read + Send + 'static>(
    pipe: Option<R>,
) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut buf);
        }
        buf
    })
}

/// Adds `speedup` to every timed row: the median of the serial oracle's times over all rows
/// of the same application and graph, over the row's `time_s`. Each run times the oracle
/// once, and a single oracle run of a few milliseconds varies by several times from run to
/// run (page faults, frequency), which made the per-run `vs_oracle` a noisy baseline.
pub fn add_speedup(rows: &mut [Map<String, Value>]) {
    let key = |r: &Map<String, Value>| (text(r, "app"), text(r, "graph"));
    let mut oracle: std::collections::BTreeMap<(String, String), Vec<f64>> = Default::default();
    for r in rows.iter() {
        if let Some(o) = number(r, "oracle_s") {
            oracle.entry(key(r)).or_default().push(o);
        }
    }
    let median: std::collections::BTreeMap<(String, String), f64> = oracle
        .into_iter()
        .map(|(k, mut times)| {
            times.sort_by(f64::total_cmp);
            (k, times[times.len() / 2])
        })
        .collect();
    for r in rows.iter_mut() {
        let (Some(&median), Some(t)) = (median.get(&key(r)), number(r, "time_s")) else {
            continue;
        };
        r.insert("oracle_median_s".into(), median.into());
        r.insert("speedup".into(), (median / t.max(1e-9)).into());
    }
}

/// PMOD's dynamics as Yesil et al.'s Table 6 gives them: `lmf_path`, the values lmf took
/// (`0-10-11`), and `first_merge_share`, the share of the tasks popped before the first merge
/// (null without a merge).
fn add_lmf_dynamics(row: &mut Map<String, Value>) {
    let Some(before) = number(row, "stats.scheduler.tasks_before_first_merge") else {
        return;
    };
    let lmf: Vec<(u64, u64)> = match row.get("stats.events") {
        Some(Value::Array(events)) => events
            .iter()
            .filter(|e| e["name"] == "lmf")
            .filter_map(|e| Some((e["old"].as_u64()?, e["new"].as_u64()?)))
            .collect(),
        _ => vec![],
    };
    let start = lmf
        .first()
        .map_or(number(row, "params.lmf").unwrap_or(0.0) as u64, |e| e.0);
    let path: Vec<String> = std::iter::once(start)
        .chain(lmf.iter().map(|e| e.1))
        .map(|v| v.to_string())
        .collect();
    row.insert("lmf_path".into(), path.join("-").into());
    let share = match (lmf.is_empty(), number(row, "stats.tasks")) {
        (false, Some(tasks)) if tasks > 0.0 => Value::from(before / tasks),
        _ => Value::Null,
    };
    row.insert("first_merge_share".into(), share);
}

/// Arrays kept in a result for the figures that draw them (the CSV leaves them out).
const KEPT_ARRAYS: [&str; 2] = ["trace", "stats.events"];

/// Scalars of `v` under dotted keys; arrays are left out but for [`KEPT_ARRAYS`].
fn flatten(prefix: &str, v: &Value, row: &mut Map<String, Value>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, x, row);
            }
        }
        Value::Array(_) if KEPT_ARRAYS.contains(&prefix) => {
            row.insert(prefix.to_string(), v.clone());
        }
        Value::Array(_) => {}
        x => {
            row.insert(prefix.to_string(), x.clone());
        }
    }
}

/// A numeric view of a result field (numbers, and strings holding numbers such as
/// `params.chunk`).
pub fn number(row: &Map<String, Value>, key: &str) -> Option<f64> {
    match row.get(key)? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.parse().ok(),
        Value::Bool(b) => Some(*b as u8 as f64),
        _ => None,
    }
}

/// A field as text (empty when absent).
pub fn text(row: &Map<String, Value>, key: &str) -> String {
    match row.get(key) {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
    }
}
