//! Ratio-to-best tables (Yesil et al., SC'19, Table 5): each configuration's value over the
//! best in its group, summarized by the geometric mean per column.

use super::run::{number, text};
use super::spec::RatioTable;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

type Row = Map<String, Value>;

/// The column over every group.
const ALL: &str = "all";

/// The table as CSV text (a header, then one line per configuration), or `None` when no row
/// has the value.
pub fn table(t: &RatioTable, rows: &[Row]) -> Option<String> {
    let key = |r: &Row, fields: &[String]| {
        let parts: Vec<String> = fields.iter().map(|k| text(r, k)).collect();
        parts.join(" ")
    };
    // The best value of each group.
    let mut best: BTreeMap<String, f64> = BTreeMap::new();
    for r in rows.iter().filter(|r| !r.contains_key("error")) {
        if let Some(v) = number(r, &t.value).filter(|v| *v > 0.0) {
            let b = best.entry(key(r, &t.group)).or_insert(v);
            *b = b.min(v);
        }
    }
    // log-ratios per (configuration, column).
    let mut logs: BTreeMap<(String, String), Vec<f64>> = BTreeMap::new();
    for r in rows.iter().filter(|r| !r.contains_key("error")) {
        let (Some(v), Some(b)) = (number(r, &t.value), best.get(&key(r, &t.group))) else {
            continue;
        };
        if v > 0.0 {
            let log = if t.speedup {
                (b / v).ln()
            } else {
                (v / b).ln()
            };
            for column in [text(r, &t.per), ALL.to_string()] {
                logs.entry((key(r, &t.by), column)).or_default().push(log);
            }
        }
    }
    if logs.is_empty() {
        return None;
    }
    let mut columns: Vec<String> = logs.keys().map(|(_, c)| c.clone()).collect();
    columns.sort();
    columns.dedup();
    // `all` last.
    columns.retain(|c| c != ALL);
    columns.push(ALL.to_string());
    let mut configs: Vec<String> = logs.keys().map(|(c, _)| c.clone()).collect();
    configs.dedup();
    let mut csv = format!("{},{}\n", t.by.join(" "), columns.join(","));
    for c in &configs {
        let cells: Vec<String> = columns
            .iter()
            .map(|col| match logs.get(&(c.clone(), col.clone())) {
                Some(l) => format!("{:.3}", (l.iter().sum::<f64>() / l.len() as f64).exp()),
                None => String::new(),
            })
            .collect();
        csv += &format!("{c},{}\n", cells.join(","));
    }
    Some(csv)
}
