//! ordo-bench, behind `ordo bench`: run an experiment matrix from a preset or a TOML file,
//! verify every run, keep every result, and draw the papers' figures.
//!
//! Each run is a child `ordo` process with `--json` (verification on), so a run that crashes
//! or fails verification is recorded with its error and the matrix goes on. The `ordo`
//! binary is the running executable: this crate is a library of that binary.

mod error;
mod placement;
mod png;
mod ratio;
mod run;
pub mod spec;
mod svg;

use error::note;
pub use error::{BenchError, BenchResult};
use run::{expand, number, run_all, text, GraphDirs};
use serde_json::{Map, Value};
use spec::Spec;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The presets, by name: the papers' experiments on this machine and the shared graphs.
pub const PRESETS: [(&str, &str); 20] = [
    ("pmod-fig5", include_str!("presets/pmod-fig5.toml")),
    ("pmod-fig6", include_str!("presets/pmod-fig6.toml")),
    ("pmod-fig7", include_str!("presets/pmod-fig7.toml")),
    ("pmod-fig8", include_str!("presets/pmod-fig8.toml")),
    ("pmod-fig10", include_str!("presets/pmod-fig10.toml")),
    ("pmod-fig11", include_str!("presets/pmod-fig11.toml")),
    ("pmod-fig12", include_str!("presets/pmod-fig12.toml")),
    ("pmod-table5", include_str!("presets/pmod-table5.toml")),
    ("pmod-table6", include_str!("presets/pmod-table6.toml")),
    ("numa-bc-fig6", include_str!("presets/numa-bc-fig6.toml")),
    ("numa-bc-fig12", include_str!("presets/numa-bc-fig12.toml")),
    ("numa-bc-fig13", include_str!("presets/numa-bc-fig13.toml")),
    ("obim-fig1", include_str!("presets/obim-fig1.toml")),
    ("obim-table1", include_str!("presets/obim-table1.toml")),
    ("obim-fig5", include_str!("presets/obim-fig5.toml")),
    ("smq-compare", include_str!("presets/smq-compare.toml")),
    ("smq-heatmap", include_str!("presets/smq-heatmap.toml")),
    ("smq-mq", include_str!("presets/smq-mq.toml")),
    ("smq-obim-pmod", include_str!("presets/smq-obim-pmod.toml")),
    ("simulate", include_str!("presets/simulate.toml")),
];

#[derive(Debug, Clone, clap::Args)]
pub struct BenchArgs {
    /// A preset name (see --list) or a TOML file describing the matrix
    pub matrix: Option<String>,
    /// Where results.jsonl, summary.csv and the figures go
    #[arg(long, default_value = "bench-out")]
    pub out: PathBuf,
    /// Smaller graphs, fewer points, one repeat: any preset in a few minutes on 2 cores
    #[arg(long)]
    pub quick: bool,
    /// Folder of the graphs the matrix names [default: $ORDO_DATA, else ../shared/data]
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// List the presets and exit
    #[arg(long)]
    pub list: bool,
    /// Print the runs the matrix expands to, without running them
    #[arg(long)]
    pub dry_run: bool,
    /// Run nothing: draw the figures and tables again from OUT/results.jsonl of an earlier
    /// run of the same matrix (after a figure's spec changed)
    #[arg(long, conflicts_with_all = ["dry_run", "quick"])]
    pub redraw: bool,
    /// Stop a run (all its repeats) after this many seconds and keep it as timed out, so one
    /// pathological configuration (lifo on a road graph) cannot stall the matrix
    #[arg(long, value_name = "SECS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
    pub run_limit: u64,
    /// Time the sequential peers (scipy, NetworKit, igraph, rustworkx, networkx: whichever
    /// are installed) against ordo's Python package on SSSP, BFS, PageRank, CC, MST and BC,
    /// check they agree, and report ratios (runs scripts/py_bench.py with the repository's
    /// .venv)
    #[arg(long, conflicts_with = "matrix")]
    pub peers: bool,
    /// The ordo repository, for --peers (scripts/py_bench.py, .venv) and the embedded graph
    /// [default: $ORDO_REPO, else the first folder holding scripts/py_bench.py, walking up
    /// from the current directory, then from this binary's]
    #[arg(long, value_name = "DIR")]
    pub repo: Option<PathBuf>,
}

fn load_spec(matrix: &str) -> BenchResult<Spec> {
    let (origin, source) = match PRESETS.iter().find(|(n, _)| *n == matrix) {
        Some((_, text)) => (format!("preset {matrix}"), text.to_string()),
        None if Path::new(matrix).is_file() => (
            matrix.to_string(),
            std::fs::read_to_string(matrix)
                .map_err(|e| BenchError::input(format!("{matrix}: {e}")))?,
        ),
        None => {
            let names: Vec<&str> = PRESETS.iter().map(|(n, _)| *n).collect();
            return Err(BenchError::usage(format!(
                "{matrix}: neither a preset ({}) nor a file",
                names.join(", ")
            )));
        }
    };
    toml::from_str(&source).map_err(|e| BenchError::input(format!("{origin}: {e}")))
}

/// Runs `ordo bench` as `a` asks; `interrupted` says whether Ctrl-C asked to stop (checked
/// between runs).
pub fn bench_cmd(a: &BenchArgs, interrupted: &dyn Fn() -> bool) -> BenchResult {
    if a.list {
        for (name, text) in PRESETS {
            let spec: Spec = toml::from_str(text)
                .map_err(|e| BenchError::input(format!("preset {name}: {e}")))?;
            match &spec.paper {
                Some(paper) => println!("{name:16} {} [{paper}]", spec.description),
                None => println!("{name:16} {}", spec.description),
            }
        }
        return Ok(());
    }
    if a.peers {
        return peers(a);
    }
    let Some(matrix) = &a.matrix else {
        return Err(BenchError::usage(
            "name a preset or a TOML file (ordo bench --list shows the presets)",
        ));
    };
    let spec = load_spec(matrix)?;
    let rows = if a.redraw {
        read_results(&a.out.join("results.jsonl"))?
    } else {
        match run_matrix(a, &spec, interrupted)? {
            Some(rows) => rows,
            None => return Ok(()),
        }
    };
    report(a, &spec, &rows)
}

/// The rows an earlier run wrote to `jsonl`.
fn read_results(jsonl: &Path) -> BenchResult<Vec<Map<String, Value>>> {
    let text = std::fs::read_to_string(jsonl).map_err(|e| {
        BenchError::input(format!(
            "{}: {e} (--redraw needs an earlier run's --out folder)",
            jsonl.display()
        ))
    })?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| match serde_json::from_str::<Value>(l) {
            Ok(Value::Object(row)) => Ok(row),
            _ => Err(BenchError::input(format!(
                "{} line {}: not a result object",
                jsonl.display(),
                i + 1
            ))),
        })
        .collect()
}

/// Runs the matrix and writes results.jsonl; `None` when there was nothing to run
/// (`--dry-run` printed the runs).
fn run_matrix(
    a: &BenchArgs,
    spec: &Spec,
    interrupted: &dyn Fn() -> bool,
) -> BenchResult<Option<Vec<Map<String, Value>>>> {
    let dirs = GraphDirs {
        data: data_dir(a),
        embedded: repo(a).unwrap_or_default().join("data"),
    };
    let (jobs, skipped) = expand(spec, a.quick, &dirs);
    for s in &skipped {
        note(&format!("skipping a graph: {s}"));
    }
    if a.dry_run {
        for j in &jobs {
            println!("ordo {}", j.args().join(" "));
        }
        return Ok(None);
    }
    if jobs.is_empty() {
        return Err(BenchError::input(format!(
            "{}: no run left to do (no graph found; set --data)",
            spec.name
        )));
    }
    std::fs::create_dir_all(&a.out)
        .map_err(|e| BenchError::input(format!("{}: {e}", a.out.display())))?;
    let exe =
        std::env::current_exe().map_err(|e| BenchError::input(format!("ordo itself: {e}")))?;
    note(&format!(
        "{}: {} runs{}, results in {}",
        spec.name,
        jobs.len(),
        if a.quick { " (quick)" } else { "" },
        a.out.display()
    ));
    let limit = std::time::Duration::from_secs(a.run_limit);
    let jsonl = a.out.join("results.jsonl");
    let mut rows = run_all(&exe, &jobs, &jsonl, limit, interrupted)?;
    // Fields derived from the whole matrix: results.jsonl is written again with them.
    run::add_speedup(&mut rows);
    let lines: String = rows
        .iter()
        .map(|r| format!("{}\n", Value::Object(r.clone())))
        .collect();
    write_file(&jsonl, lines.as_bytes())?;
    Ok(Some(rows))
}

/// The CSV, the table, the figures and the ratio tables of `rows`; an error at the end if
/// any run failed.
fn report(a: &BenchArgs, spec: &Spec, rows: &[Map<String, Value>]) -> BenchResult {
    write_csv(rows, &a.out.join("summary.csv"))?;
    print_table(rows, &spec.columns);
    let renderer = png::Renderer::new();
    for fig in &spec.figures {
        match svg::draw(fig, rows) {
            Some(svg) => {
                let path = a.out.join(format!("{}.svg", fig.file));
                write_file(&path, svg.as_bytes())?;
                match renderer.render(&svg) {
                    Ok(png) => write_file(&path.with_extension("png"), &png)?,
                    Err(e) => note(&format!("{}: no PNG: {e}", fig.file)),
                }
                println!("figure: {} (and .png)", path.display());
            }
            None => note(&format!("figure {}: no result has its fields", fig.file)),
        }
    }
    for t in &spec.ratio_tables {
        match ratio::table(t, rows) {
            Some(csv) => {
                let path = a.out.join(format!("{}.csv", t.file));
                std::fs::write(&path, &csv)
                    .map_err(|e| BenchError::input(format!("{}: {e}", path.display())))?;
                println!("\n{} ({}):", t.title, path.display());
                for line in csv.lines() {
                    let cells: Vec<String> = line.split(',').map(|c| format!("{c:>12}")).collect();
                    println!("{}", cells.join(" "));
                }
            }
            None => note(&format!("table {}: no result has {}", t.file, t.value)),
        }
    }
    // A run past the limit is a measurement (this configuration takes longer than that),
    // not a failure: it is reported and the bench still succeeds.
    for r in rows.iter().filter(|r| r.contains_key("timed_out")) {
        note(&format!(
            "stopped at the {} s run limit (timed_out in results.jsonl): {}",
            a.run_limit,
            text(r, "command")
        ));
    }
    let failed: Vec<&Map<String, Value>> =
        rows.iter().filter(|r| r.contains_key("error")).collect();
    if !failed.is_empty() {
        for r in &failed {
            eprintln!("failed: {}: {}", text(r, "command"), text(r, "error"));
        }
        return Err(BenchError::input(format!(
            "{} of {} runs failed (kept in results.jsonl with their error)",
            failed.len(),
            rows.len()
        )));
    }
    Ok(())
}

fn write_file(path: &Path, bytes: &[u8]) -> BenchResult {
    std::fs::write(path, bytes).map_err(|e| BenchError::input(format!("{}: {e}", path.display())))
}

/// The ordo repository (its scripts, `.venv` and embedded data): `--repo`, else
/// `$ORDO_REPO`, else found from where the user is or where the binary lies (an installed
/// binary has no build-time path to rely on).
fn repo(a: &BenchArgs) -> Option<PathBuf> {
    if let Some(dir) = a
        .repo
        .clone()
        .or_else(|| std::env::var_os("ORDO_REPO").map(PathBuf::from))
    {
        return Some(dir);
    }
    let is_repo = |d: &Path| d.join("scripts/py_bench.py").is_file();
    let from_cwd = std::env::current_dir().ok();
    let from_exe = std::env::current_exe().ok();
    [from_cwd, from_exe]
        .into_iter()
        .flatten()
        .find_map(|start| {
            start
                .ancestors()
                .find(|d| is_repo(d))
                .map(Path::to_path_buf)
        })
}

/// `--data`, else `$ORDO_DATA`, else `../shared/data`.
fn data_dir(a: &BenchArgs) -> PathBuf {
    a.data
        .clone()
        .or_else(|| std::env::var_os("ORDO_DATA").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("../shared/data"))
}

/// `--peers`: `scripts/py_bench.py` with the repository's Python environment, its rows also
/// in `OUT/peers.jsonl`.
fn peers(a: &BenchArgs) -> BenchResult {
    let repo = repo(a).ok_or_else(|| {
        BenchError::input(
            "--peers needs ordo's repository (scripts/py_bench.py): run from inside it, or \
             pass --repo DIR or set ORDO_REPO",
        )
    })?;
    let python = std::env::var_os("ORDO_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join(".venv/bin/python"));
    let script = repo.join("scripts/py_bench.py");
    let ready = std::process::Command::new(&python)
        .args(["-c", "import ordo, scipy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ready || !script.is_file() {
        return Err(BenchError::input(format!(
            "--peers needs ordo's Python package and scipy in {} (set ORDO_PYTHON to use \
             another): scripts/python_env.sh && .venv/bin/pip install . \
             (ORDO_PEERS=1 scripts/python_env.sh adds NetworKit, igraph and rustworkx)",
            python.display()
        )));
    }
    std::fs::create_dir_all(&a.out)
        .map_err(|e| BenchError::input(format!("{}: {e}", a.out.display())))?;
    let jsonl = a.out.join("peers.jsonl");
    let _ = std::fs::remove_file(&jsonl);
    let mut cmd = std::process::Command::new(&python);
    cmd.arg(&script)
        .arg("--data")
        .arg(data_dir(a))
        .arg("--json")
        .arg(&jsonl);
    if a.quick {
        let embedded = repo.join("data/osm-amsterdam.gr.gz");
        let embedded = std::fs::canonicalize(&embedded).unwrap_or(embedded);
        cmd.arg("--graphs")
            .arg(format!("{},email-Enron.txt.gz", embedded.display()))
            .args(["--repeat", "1"]);
    }
    let status = cmd
        .status()
        .map_err(|e| BenchError::input(format!("{}: {e}", python.display())))?;
    if !status.success() {
        return Err(BenchError::input(
            "the peer comparison failed or a library disagreed with ordo (see above)",
        ));
    }
    println!("peers: {}", jsonl.display());
    Ok(())
}

/// Every field any result has, one row per run.
fn write_csv(rows: &[Map<String, Value>], path: &Path) -> BenchResult {
    let keys: BTreeSet<&String> = rows
        .iter()
        .flat_map(|r| r.iter().filter(|(_, v)| !v.is_array()).map(|(k, _)| k))
        .collect();
    let first = [
        "app",
        "graph",
        "scheduler",
        "label",
        "param_set",
        "threads",
        "time_s",
        "verified",
    ];
    let mut cols: Vec<&str> = first.to_vec();
    cols.extend(
        keys.iter()
            .map(|k| k.as_str())
            .filter(|k| !first.contains(k)),
    );
    let cell = |s: String| {
        if s.contains([',', '"', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s
        }
    };
    let mut out = cols.join(",") + "\n";
    for r in rows {
        let line: Vec<String> = cols.iter().map(|k| cell(text(r, k))).collect();
        out += &(line.join(",") + "\n");
    }
    std::fs::write(path, out).map_err(|e| BenchError::input(format!("{}: {e}", path.display())))
}

/// The table printed after a run: the fixed columns, then the spec's own `columns`.
fn print_table(rows: &[Map<String, Value>], columns: &[String]) {
    let extra = |cells: Vec<String>| {
        cells
            .iter()
            .zip(columns)
            .map(|(c, k)| format!(" {c:>w$}", w = k.len().max(8)))
            .collect::<String>()
    };
    println!(
        "{:<9} {:<26} {:<10} {:<28} {:>5} {:>10} {:>9} {:>9}{}  verified",
        "app",
        "graph",
        "scheduler",
        "params",
        "t/P",
        "time ms",
        "speedup",
        "work+",
        extra(columns.to_vec())
    );
    for r in rows {
        let f = |k: &str, scale: f64, prec: usize| {
            number(r, k).map_or("-".to_string(), |v| format!("{:.*}", prec, v * scale))
        };
        let verified = match r.get("error") {
            Some(e) => format!("FAILED: {}", e.as_str().unwrap_or("?")),
            None if r.contains_key("timed_out") => {
                format!("over the {} s limit", text(r, "run_limit_s"))
            }
            None => text(r, "verified"),
        };
        let threads = match text(r, "threads") {
            t if t.is_empty() => text(r, "workers"),
            t => t,
        };
        let own = columns
            .iter()
            .map(|k| match number(r, k) {
                Some(v) if r.get(k).is_some_and(Value::is_f64) => format!("{v:.3}"),
                _ => text(r, k),
            })
            .collect();
        println!(
            "{:<9} {:<26} {:<10} {:<28} {:>5} {:>10} {:>9} {:>9}{}  {}",
            text(r, "app"),
            text(r, "graph"),
            text(r, "label"),
            text(r, "param_set"),
            threads,
            f("time_s", 1e3, 2),
            f("speedup", 1.0, 2),
            f("work_increase", 1.0, 3),
            extra(own),
            verified
        );
    }
}
