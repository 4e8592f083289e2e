//! Node coordinates: DIMACS `.co` (`p aux sp co N`, `v id x y`, 1-based) and DIMACS10 `.xyz`
//! (one `x y [z]` line per node).

use crate::error::{GraphError, Result};
use crate::input::check_node_count;
use crate::text::LineScanner;
use std::path::Path;

/// Reads coordinates for a graph of `num_nodes` nodes; returns x, y interleaved.
pub fn read(path: &Path, text: &[u8], num_nodes: usize) -> Result<Vec<f64>> {
    let first = text
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii_start())
        .find(|l| !l.is_empty() && l[0] != b'c' && l[0] != b'%');
    match first {
        Some(l) if l.starts_with(b"p") || l.starts_with(b"v") => read_co(path, text, num_nodes),
        Some(_) => read_xyz(path, text, num_nodes),
        None => Err(GraphError::in_file(path, "the coordinate file is empty")),
    }
}

fn read_co(path: &Path, text: &[u8], num_nodes: usize) -> Result<Vec<f64>> {
    let mut lines = LineScanner::new(path, text);
    let mut xy: Option<Vec<f64>> = None;
    let mut seen: Vec<bool> = Vec::new();
    let mut header_line = 0;
    while let Some(line) = lines.next_line() {
        let t = line.trimmed();
        match t.first() {
            None | Some(b'c') => {}
            Some(b'p') => {
                if xy.is_some() {
                    return Err(line.error("second 'p' line"));
                }
                let words = line.tokens_lossy();
                if words.len() != 5 || words[1] != "aux" || words[2] != "sp" || words[3] != "co" {
                    return Err(line.error("expected 'p aux sp co NODES'"));
                }
                let n = crate::text::parse_u64(words[4].as_bytes())
                    .ok_or_else(|| line.error(format!("bad node count '{}'", words[4])))?;
                let n = check_node_count(path, line.no, n, text.len())? as usize;
                if n != num_nodes {
                    return Err(line.error(format!(
                        "{n} coordinates declared for a graph of {num_nodes} nodes"
                    )));
                }
                xy = Some(vec![f64::NAN; 2 * n]);
                seen = vec![false; n];
                header_line = line.no;
            }
            Some(b'v') => {
                let Some(xy) = xy.as_mut() else {
                    return Err(line.error("'v' line before the 'p aux sp co NODES' line"));
                };
                let mut tok = line.tokens();
                tok.next_raw();
                let id = tok.next_u64("node id")?;
                let x = tok.next_f64("x coordinate")?;
                let y = tok.next_f64("y coordinate")?;
                tok.expect_end()?;
                if id == 0 || id as usize > num_nodes {
                    return Err(line.error(format!("node id {id} is out of range 1..={num_nodes}")));
                }
                let i = id as usize - 1;
                if seen[i] {
                    return Err(line.error(format!("node {id} has a second coordinate line")));
                }
                seen[i] = true;
                xy[2 * i] = x;
                xy[2 * i + 1] = y;
            }
            Some(_) => return Err(line.error("unexpected line (expected 'c', 'p' or 'v')")),
        }
    }
    let xy = xy.ok_or_else(|| GraphError::in_file(path, "no 'p aux sp co NODES' line"))?;
    if let Some(missing) = seen.iter().position(|s| !s) {
        return Err(GraphError::at_line(
            path,
            header_line,
            format!("node {} has no coordinates", missing + 1),
        ));
    }
    Ok(xy)
}

fn read_xyz(path: &Path, text: &[u8], num_nodes: usize) -> Result<Vec<f64>> {
    let mut lines = LineScanner::new(path, text);
    let mut xy = Vec::with_capacity(2 * num_nodes.min(text.len() / 4 + 1));
    while let Some(line) = lines.next_line() {
        if line.is_blank() || line.starts_with(b"%") {
            continue;
        }
        if xy.len() == 2 * num_nodes {
            return Err(line.error(format!("more coordinate lines than the {num_nodes} nodes")));
        }
        let mut tok = line.tokens();
        xy.push(tok.next_f64("x coordinate")?);
        xy.push(tok.next_f64("y coordinate")?);
        if tok.next_raw().is_some() {
            tok.expect_end()?;
        }
    }
    if xy.len() != 2 * num_nodes {
        return Err(GraphError::in_file(
            path,
            format!("{} coordinate lines for {num_nodes} nodes", xy.len() / 2),
        ));
    }
    Ok(xy)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_co_and_xyz() {
        let co = b"c x\np aux sp co 2\nv 2 3 4\nv 1 -1 2.5\n";
        assert_eq!(
            read(Path::new("a.co"), co, 2).unwrap(),
            vec![-1.0, 2.5, 3.0, 4.0]
        );
        let xyz = b"1 2 0\n3 4 0\n";
        assert_eq!(
            read(Path::new("a.xyz"), xyz, 2).unwrap(),
            vec![1.0, 2.0, 3.0, 4.0]
        );
    }

    #[test]
    fn rejects_mismatches() {
        let e = |t: &[u8], n| read(Path::new("a.co"), t, n).unwrap_err().to_string();
        assert!(e(b"p aux sp co 3\n", 2).contains("3 coordinates declared"));
        assert!(e(b"p aux sp co 2\nv 1 0 0\n", 2).contains("node 2 has no coordinates"));
        assert!(e(b"p aux sp co 2\nv 1 0 nan\n", 2).contains("y coordinate"));
        assert!(e(b"1 2\n", 2).contains("1 coordinate lines for 2 nodes"));
    }
}
