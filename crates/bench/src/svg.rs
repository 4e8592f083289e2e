//! The figures, drawn as SVG by hand: line charts (speedup curves, sweeps, simulation curves)
//! and stacked or grouped bars (cycle breakdowns, cycles per operation), one panel per facet.

use super::run::{number, text};
use super::spec::{Figure, Kind};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt::Write;

const PANEL_W: f64 = 420.0;
const PANEL_H: f64 = 300.0;
const MARGIN: f64 = 56.0;
/// The plot area's top: above it, the panel title and the legend row of bar figures.
const TOP: f64 = 44.0;
const COLORS: [&str; 10] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

type Row = Map<String, Value>;

/// The SVG text of `fig` over `rows` (failed runs left out), or `None` when no row has the
/// figure's fields.
pub fn draw(fig: &Figure, rows: &[Row]) -> Option<String> {
    let rows: Vec<&Row> = rows
        .iter()
        .filter(|r| !r.contains_key("error"))
        .filter(|r| {
            fig.only.iter().all(|kv| match kv.split_once('=') {
                Some((k, v)) => text(r, k) == v,
                None => true,
            })
        })
        .collect();
    // A series keeps its colour in every panel: colours go by the figure's sorted names.
    let mut names: Vec<String> = rows.iter().map(|r| series_name(fig, r)).collect();
    names.sort();
    names.dedup();
    let mut panels: BTreeMap<String, Vec<&Row>> = BTreeMap::new();
    for r in rows {
        let facet: Vec<String> = fig.facet.iter().map(|k| text(r, k)).collect();
        panels.entry(facet.join(" ")).or_default().push(r);
    }
    let mut bodies = vec![];
    for (name, rows) in &panels {
        let body = match fig.kind {
            Kind::Line => line_panel(fig, rows, &names),
            Kind::Stacked | Kind::Bars => bar_panel(fig, rows),
            Kind::Heatmap => heat_panel(fig, rows),
            Kind::Trace => trace_panel(fig, rows),
            Kind::Events => events_panel(fig, rows),
        };
        if let Some(b) = body {
            bodies.push((name.clone(), b));
        }
    }
    if bodies.is_empty() {
        return None;
    }
    let cols = bodies.len().min(3);
    let rows_n = bodies.len().div_ceil(cols);
    // Wide enough for the title (about 8 px per character at 15 px).
    let w = (cols as f64 * PANEL_W).max(fig.title.chars().count() as f64 * 8.0 + 40.0);
    let h = rows_n as f64 * PANEL_H + 40.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"11\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"24\" font-size=\"15\" text-anchor=\"middle\">{}</text>\n",
        w / 2.0,
        esc(&fig.title)
    );
    for (i, (name, body)) in bodies.iter().enumerate() {
        let (x, y) = (
            (i % cols) as f64 * PANEL_W,
            40.0 + (i / cols) as f64 * PANEL_H,
        );
        let _ = write!(
            s,
            "<g transform=\"translate({x},{y})\">\n<text x=\"{}\" y=\"12\" \
             text-anchor=\"middle\" font-weight=\"bold\">{}</text>\n{body}</g>\n",
            PANEL_W / 2.0,
            esc(name)
        );
    }
    s.push_str("</svg>\n");
    Some(s)
}

/// A scale from data to pixels.
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
    from: f64,
    to: f64,
}

impl Axis {
    fn new(values: impl Iterator<Item = f64>, log: bool, from: f64, to: f64) -> Option<Axis> {
        let v: Vec<f64> = values
            .filter(|x| x.is_finite() && (!log || *x > 0.0))
            .collect();
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if v.is_empty() {
            return None;
        }
        let (lo, hi) = match (log, lo == hi) {
            (true, true) => (lo / 2.0, hi * 2.0),
            // From the decade below half the smallest value, so that its bar or point
            // stands clear of the axis.
            (true, false) => (10f64.powf((lo / 2.0).log10().floor()), hi),
            (false, true) => (lo.min(0.0), hi.max(lo + 1.0)),
            (false, false) if lo >= 0.0 => (0.0, hi),
            _ => (lo, hi),
        };
        Some(Axis {
            lo,
            hi,
            log,
            from,
            to,
        })
    }

    fn at(&self, x: f64) -> f64 {
        let f = if self.log {
            (x.ln() - self.lo.ln()) / (self.hi.ln() - self.lo.ln())
        } else {
            (x - self.lo) / (self.hi - self.lo)
        };
        self.from + f * (self.to - self.from)
    }

    /// About five tick values.
    fn ticks(&self) -> Vec<f64> {
        if self.log {
            let (a, b) = (
                self.lo.log10().floor() as i32,
                self.hi.log10().ceil() as i32,
            );
            let step = ((b - a) / 6).max(1);
            return (a..=b)
                .step_by(step as usize)
                .map(|e| 10f64.powi(e))
                .filter(|t| *t >= self.lo * 0.999 && *t <= self.hi * 1.001)
                .collect();
        }
        let raw = (self.hi - self.lo) / 5.0;
        let mag = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * mag)
            .find(|s| *s >= raw)
            .unwrap_or(raw);
        let mut t = (self.lo / step).ceil() * step;
        let mut out = vec![];
        while t <= self.hi + step * 1e-9 {
            out.push(t);
            t += step;
        }
        out
    }
}

/// A tick or cell label: three significant digits, no trailing zeros.
fn fmt_num(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    if x.abs() >= 1e6 || x.abs() < 1e-3 {
        return format!("{x:.2e}");
    }
    let digits = (2 - x.abs().log10().floor() as i32).clamp(0, 5) as usize;
    let s = format!("{x:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The axes frame, ticks and labels.
fn frame(s: &mut String, x: Option<&Axis>, y: &Axis, x_label: &str, y_label: &str) {
    let (l, r, t, b) = (MARGIN, PANEL_W - 12.0, TOP, PANEL_H - 40.0);
    let _ = writeln!(
        s,
        "<rect x=\"{l}\" y=\"{t}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#444\"/>",
        r - l,
        b - t
    );
    for v in y.ticks() {
        let py = y.at(v);
        let _ = writeln!(
            s,
            "<line x1=\"{l}\" x2=\"{r}\" y1=\"{py:.1}\" y2=\"{py:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            l - 4.0,
            py + 4.0,
            fmt_num(v)
        );
    }
    if let Some(x) = x {
        for v in x.ticks() {
            let px = x.at(v);
            let _ = writeln!(
                s,
                "<line x1=\"{px:.1}\" x2=\"{px:.1}\" y1=\"{b}\" y2=\"{}\" stroke=\"#444\"/>\
                 <text x=\"{px:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                b + 4.0,
                b + 16.0,
                fmt_num(v)
            );
        }
    }
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\
         <text transform=\"translate(14,{}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
        (l + r) / 2.0,
        PANEL_H - 8.0,
        esc(x_label),
        (t + b) / 2.0,
        esc(y_label)
    );
}

fn series_name(fig: &Figure, r: &Row) -> String {
    let parts: Vec<String> = fig
        .series
        .iter()
        .map(|k| text(r, k))
        .filter(|s| !s.is_empty())
        .collect();
    parts.join(" ")
}

fn line_panel(fig: &Figure, rows: &[&Row], names: &[String]) -> Option<String> {
    let mut lines: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for r in rows {
        if let (Some(x), Some(y)) = (number(r, &fig.x), number(r, &fig.y)) {
            lines.entry(series_name(fig, r)).or_default().push((x, y));
        }
    }
    if lines.is_empty() {
        return None;
    }
    let pts = || lines.values().flatten();
    let xa = Axis::new(pts().map(|p| p.0), fig.log_x, MARGIN, PANEL_W - 12.0)?;
    let ya = Axis::new(pts().map(|p| p.1), fig.log_y, PANEL_H - 40.0, TOP)?;
    let mut s = String::new();
    let y_label = fig.y_label.clone().unwrap_or_else(|| fig.y.clone());
    let x_label = fig.x_label.clone().unwrap_or_else(|| fig.x.clone());
    frame(&mut s, Some(&xa), &ya, &x_label, &y_label);
    for (i, (name, p)) in lines.iter_mut().enumerate() {
        p.sort_by(|a, b| a.0.total_cmp(&b.0));
        let c = COLORS[names.binary_search(name).unwrap_or(i) % COLORS.len()];
        let path: Vec<String> = p
            .iter()
            .filter(|(x, y)| (!fig.log_x || *x > 0.0) && (!fig.log_y || *y > 0.0))
            .map(|&(x, y)| format!("{:.1},{:.1}", xa.at(x), ya.at(y)))
            .collect();
        let _ = writeln!(
            s,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"1.8\"/>",
            path.join(" ")
        );
        for pt in &path {
            let (x, y) = pt.split_once(',').unwrap_or(("0", "0"));
            let _ = writeln!(s, "<circle cx=\"{x}\" cy=\"{y}\" r=\"2.5\" fill=\"{c}\"/>");
        }
        let ly = TOP + 12.0 + i as f64 * 13.0;
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"3\" fill=\"{c}\"/>\
             <text x=\"{}\" y=\"{ly}\">{}</text>",
            MARGIN + 6.0,
            ly - 4.0,
            MARGIN + 20.0,
            esc(name)
        );
    }
    Some(s)
}

fn bar_panel(fig: &Figure, rows: &[&Row]) -> Option<String> {
    let bars: Vec<(String, Vec<f64>)> = rows
        .iter()
        .map(|r| {
            let v = fig.ys.iter().map(|k| number(r, k).unwrap_or(0.0)).collect();
            (series_name(fig, r), v)
        })
        .filter(|(_, v): &(String, Vec<f64>)| v.iter().any(|x| *x != 0.0))
        .collect();
    if bars.is_empty() {
        return None;
    }
    let stacked = fig.kind == Kind::Stacked;
    let tops = bars.iter().flat_map(|(_, v)| {
        if stacked {
            vec![v.iter().sum::<f64>()]
        } else {
            v.clone()
        }
    });
    let ya = Axis::new(tops.chain([0.0]), fig.log_y, PANEL_H - 40.0, TOP)?;
    let mut s = String::new();
    let y_label = fig.y_label.clone().unwrap_or_else(|| {
        let names: Vec<&str> = fig.ys.iter().map(|k| short(k)).collect();
        names.join(", ")
    });
    frame(&mut s, None, &ya, "", &y_label);
    let (l, r) = (MARGIN, PANEL_W - 12.0);
    let slot = (r - l) / bars.len() as f64;
    let base = ya.at(if fig.log_y { ya.lo } else { 0.0 });
    for (i, (name, v)) in bars.iter().enumerate() {
        let x0 = l + i as f64 * slot + slot * 0.15;
        let width = slot * 0.7;
        let mut acc = 0.0;
        for (j, &y) in v.iter().enumerate() {
            let c = COLORS[j % COLORS.len()];
            let (bx, bw, y_lo, y_hi) = if stacked {
                let lo = acc;
                acc += y;
                (x0, width, lo, acc)
            } else {
                let w = width / v.len() as f64;
                (x0 + j as f64 * w, w, 0.0, y)
            };
            let (p_lo, p_hi) = if fig.log_y && y_lo <= 0.0 {
                (base, ya.at(y_hi.max(ya.lo)))
            } else {
                (ya.at(y_lo), ya.at(y_hi))
            };
            let _ = writeln!(
                s,
                "<rect x=\"{bx:.1}\" y=\"{:.1}\" width=\"{bw:.1}\" height=\"{:.1}\" fill=\"{c}\">\
                 <title>{}: {} = {}</title></rect>",
                p_hi,
                (p_lo - p_hi).max(0.0),
                esc(name),
                esc(&fig.ys[j]),
                fmt_num(y)
            );
        }
        let cx = x0 + width / 2.0;
        let _ = writeln!(
            s,
            "<text transform=\"translate({cx:.1},{}) rotate(35)\" font-size=\"9\">{}</text>",
            PANEL_H - 36.0,
            esc(name)
        );
    }
    // The legend: one row between the panel title and the plot.
    let per = ((r - l) / fig.ys.len().max(1) as f64).min(120.0);
    for (j, k) in fig.ys.iter().enumerate() {
        let lx = l + j as f64 * per;
        let ly = TOP - 8.0;
        let _ = writeln!(
            s,
            "<rect x=\"{lx}\" y=\"{}\" width=\"9\" height=\"9\" fill=\"{}\"/>\
             <text x=\"{}\" y=\"{ly}\" font-size=\"9\">{}</text>",
            ly - 8.0,
            COLORS[j % COLORS.len()],
            lx + 12.0,
            esc(short(k))
        );
    }
    Some(s)
}

/// A result field's last name (`breakdown.gwork` is `gwork`).
fn short(key: &str) -> &str {
    key.rsplit('.').next().unwrap_or(key)
}

/// Distinct values of a field, in numeric order where they are numbers.
fn levels(rows: &[&Row], key: &str) -> Vec<String> {
    let mut v: Vec<String> = rows.iter().map(|r| text(r, key)).collect();
    v.sort_by(|a, b| match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => x.total_cmp(&y),
        _ => a.cmp(b),
    });
    v.dedup();
    v
}

/// White to dark blue as `f` goes from 0 to 1.
fn shade(f: f64) -> String {
    let f = f.clamp(0.0, 1.0);
    let (r, g, b) = (
        255.0 - f * (255.0 - 8.0),
        255.0 - f * (255.0 - 48.0),
        255.0 - f * (255.0 - 107.0),
    );
    format!("rgb({r:.0},{g:.0},{b:.0})")
}

fn heat_panel(fig: &Figure, rows: &[&Row]) -> Option<String> {
    let rows: Vec<&Row> = rows
        .iter()
        .copied()
        .filter(|r| number(r, &fig.z).is_some())
        .collect();
    if rows.is_empty() {
        return None;
    }
    let (xs, ys) = (levels(&rows, &fig.x), levels(&rows, &fig.y));
    let zs: Vec<f64> = rows.iter().filter_map(|r| number(r, &fig.z)).collect();
    let lo = zs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = zs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (l, r, t, b) = (MARGIN, PANEL_W - 12.0, TOP, PANEL_H - 40.0);
    let (cw, ch) = ((r - l) / xs.len() as f64, (b - t) / ys.len() as f64);
    let mut s = String::new();
    for row in &rows {
        let (Some(i), Some(j), Some(z)) = (
            xs.iter().position(|x| *x == text(row, &fig.x)),
            ys.iter().position(|y| *y == text(row, &fig.y)),
            number(row, &fig.z),
        ) else {
            continue;
        };
        let f = if hi > lo { (z - lo) / (hi - lo) } else { 0.5 };
        let (x, y) = (l + i as f64 * cw, b - (j + 1) as f64 * ch);
        let ink = if f > 0.55 { "white" } else { "black" };
        let _ = writeln!(
            s,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{cw:.1}\" height=\"{ch:.1}\" fill=\"{}\" \
             stroke=\"white\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" \
             fill=\"{ink}\">{}</text>",
            shade(f),
            x + cw / 2.0,
            y + ch / 2.0 + 4.0,
            fmt_num(z)
        );
    }
    for (i, v) in xs.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            l + (i as f64 + 0.5) * cw,
            b + 14.0,
            esc(v)
        );
    }
    for (j, v) in ys.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            l - 4.0,
            b - (j as f64 + 0.5) * ch + 4.0,
            esc(v)
        );
    }
    let x_label = fig.x_label.clone().unwrap_or_else(|| fig.x.clone());
    let y_label = fig.y_label.clone().unwrap_or_else(|| fig.y.clone());
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{} (cells: {})</text>\
         <text transform=\"translate(14,{}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
        (l + r) / 2.0,
        PANEL_H - 8.0,
        esc(&x_label),
        esc(short(&fig.z)),
        (t + b) / 2.0,
        esc(&y_label)
    );
    Some(s)
}

/// Points of every row's `trace` (`[[[seconds, priority], ...] per worker]`), by worker.
fn trace_points(r: &Row) -> Vec<Vec<(f64, f64)>> {
    let Some(Value::Array(workers)) = r.get("trace") else {
        return vec![];
    };
    workers
        .iter()
        .map(|w| {
            w.as_array()
                .into_iter()
                .flatten()
                .filter_map(|p| Some((p.get(0)?.as_f64()?, p.get(1)?.as_f64()?)))
                .collect()
        })
        .collect()
}

fn trace_panel(fig: &Figure, rows: &[&Row]) -> Option<String> {
    let workers: Vec<Vec<(f64, f64)>> = rows.iter().flat_map(|r| trace_points(r)).collect();
    let all = || workers.iter().flatten();
    let xa = Axis::new(all().map(|p| p.0), false, MARGIN, PANEL_W - 12.0)?;
    let ya = Axis::new(all().map(|p| p.1), fig.log_y, PANEL_H - 40.0, TOP)?;
    let mut s = String::new();
    let y_label = fig.y_label.clone().unwrap_or_else(|| "priority".into());
    frame(&mut s, Some(&xa), &ya, "seconds", &y_label);
    for (w, pts) in workers.iter().enumerate() {
        let c = COLORS[w % COLORS.len()];
        for &(x, y) in pts.iter().filter(|p| !fig.log_y || p.1 > 0.0) {
            let _ = writeln!(
                s,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"1\" fill=\"{c}\" fill-opacity=\"0.6\"/>",
                xa.at(x),
                ya.at(y)
            );
        }
    }
    Some(s)
}

/// The value named `name` over the run as step points `(seconds, value)`: from 0 at its
/// starting value (the first event's `old`, or the run's `params.NAME` when it never
/// changed), through each event, to the end of the run (`time_s`). A run without events
/// still draws its constant line.
fn event_points(r: &Row, name: &str) -> Vec<(f64, f64)> {
    let events: Vec<(f64, f64, f64)> = match r.get("stats.events") {
        Some(Value::Array(events)) => events
            .iter()
            .filter(|e| e.get("name").and_then(Value::as_str) == Some(name))
            .filter_map(|e| {
                Some((
                    e.get("time_s")?.as_f64()?,
                    e.get("old")?.as_f64()?,
                    e.get("new")?.as_f64()?,
                ))
            })
            .collect(),
        _ => vec![],
    };
    let start = match events.first() {
        Some(&(_, old, _)) => old,
        None => match number(r, &format!("params.{name}")) {
            Some(v) => v,
            None => return vec![],
        },
    };
    let mut points = vec![(0.0, start)];
    points.extend(events.iter().map(|&(t, _, new)| (t, new)));
    let last = points[points.len() - 1];
    if let Some(end) = number(r, "time_s").filter(|&end| end > last.0) {
        points.push((end, last.1));
    }
    points
}

fn events_panel(fig: &Figure, rows: &[&Row]) -> Option<String> {
    let lines: Vec<(String, Vec<(f64, f64)>)> = rows
        .iter()
        .map(|r| (series_name(fig, r), event_points(r, &fig.y)))
        .filter(|(_, p)| !p.is_empty())
        .collect();
    let all = || lines.iter().flat_map(|(_, p)| p.iter());
    let xa = Axis::new(all().map(|p| p.0), false, MARGIN, PANEL_W - 12.0)?;
    let ya = Axis::new(all().map(|p| p.1), false, PANEL_H - 40.0, TOP)?;
    let mut s = String::new();
    let y_label = fig.y_label.clone().unwrap_or_else(|| fig.y.clone());
    frame(&mut s, Some(&xa), &ya, "seconds", &y_label);
    for (i, (name, p)) in lines.iter().enumerate() {
        let c = COLORS[i % COLORS.len()];
        // A step line: the value holds until the next event.
        let mut path = vec![];
        for (k, &(x, y)) in p.iter().enumerate() {
            if k > 0 {
                path.push(format!("{:.1},{:.1}", xa.at(x), ya.at(p[k - 1].1)));
            }
            path.push(format!("{:.1},{:.1}", xa.at(x), ya.at(y)));
        }
        let _ = writeln!(
            s,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"1.2\"/>\
             <text x=\"{}\" y=\"{}\" fill=\"{c}\">{}</text>",
            path.join(" "),
            MARGIN + 6.0,
            TOP + 12.0 + i as f64 * 13.0,
            esc(name)
        );
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_have_three_significant_digits() {
        assert_eq!(fmt_num(0.0), "0");
        assert_eq!(fmt_num(0.015), "0.015");
        assert_eq!(fmt_num(0.01), "0.01");
        assert_eq!(fmt_num(12345.0), "12345");
        assert_eq!(fmt_num(1.5), "1.5");
        assert_eq!(fmt_num(2.0e7), "2.00e7");
    }

    #[test]
    fn event_lines_span_the_run_even_without_events() {
        let row = |v: Value| -> Row { v.as_object().unwrap().clone() };
        let changed = row(serde_json::json!({
            "time_s": 2.0,
            "params.lmf": "0",
            "stats.events": [
                {"name": "lmf", "time_s": 0.5, "old": 0, "new": 3},
                {"name": "other", "time_s": 0.7, "old": 9, "new": 9},
                {"name": "lmf", "time_s": 1.0, "old": 3, "new": 2}
            ]
        }));
        assert_eq!(
            event_points(&changed, "lmf"),
            vec![(0.0, 0.0), (0.5, 3.0), (1.0, 2.0), (2.0, 2.0)]
        );
        let constant = row(serde_json::json!({"time_s": 1.5, "params.lmf": "4"}));
        assert_eq!(event_points(&constant, "lmf"), vec![(0.0, 4.0), (1.5, 4.0)]);
        let unknown = row(serde_json::json!({"time_s": 1.5}));
        assert!(event_points(&unknown, "lmf").is_empty());
    }

    #[test]
    fn ticks_cover_the_range_in_round_steps() {
        let a = Axis::new([0.0, 0.037].into_iter(), false, 0.0, 100.0).unwrap();
        let t = a.ticks();
        assert_eq!(t.first(), Some(&0.0));
        assert!(t.len() >= 4 && t.len() <= 8, "{t:?}");
        let labels: Vec<String> = t.iter().map(|&x| fmt_num(x)).collect();
        let mut unique = labels.clone();
        unique.dedup();
        assert_eq!(labels, unique, "distinct tick labels");
        // A log axis starts at the decade below half its smallest value.
        let log = Axis::new([1.0, 256.0].into_iter(), true, 0.0, 100.0).unwrap();
        assert_eq!(log.ticks(), vec![0.1, 1.0, 10.0, 100.0]);
        let log = Axis::new([3.0, 256.0].into_iter(), true, 0.0, 100.0).unwrap();
        assert_eq!(log.ticks(), vec![1.0, 10.0, 100.0]);
    }
}
