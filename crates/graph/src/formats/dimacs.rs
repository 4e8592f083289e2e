//! 9th DIMACS Implementation Challenge shortest-path format (`.gr`):
//! `c` comment lines, one `p sp N M` problem line, then `M` lines `a u v w` with 1-based ids.

use crate::builder::EdgeList;
use crate::error::{GraphError, Result};
use crate::input::{bounded_capacity, check_node_count};
use crate::text::LineScanner;
use std::path::Path;

pub fn read(path: &Path, text: &[u8]) -> Result<EdgeList> {
    let mut lines = LineScanner::new(path, text);
    let mut header: Option<(u32, u64)> = None;
    let mut edges = EdgeList::default();
    let mut header_line = 0;
    while let Some(line) = lines.next_line() {
        let t = line.trimmed();
        match t.first() {
            None | Some(b'c') => continue,
            Some(b'p') => {
                if header.is_some() {
                    return Err(line.error("second 'p' problem line"));
                }
                let mut tok = line.tokens();
                tok.next_raw();
                match tok.next_raw() {
                    Some(b"sp") => {}
                    Some(other) => {
                        return Err(line.error(format!(
                            "problem type '{}' is not 'sp' (expected 'p sp NODES ARCS')",
                            String::from_utf8_lossy(other)
                        )))
                    }
                    None => return Err(line.error("expected 'p sp NODES ARCS'")),
                }
                let n = tok.next_u64("node count")?;
                let m = tok.next_u64("arc count")?;
                tok.expect_end()?;
                let n = check_node_count(path, line.no, n, text.len())?;
                let cap = bounded_capacity(m, lines.remaining_bytes(), 8);
                edges = EdgeList::with_capacity(n, cap, true);
                header = Some((n, m));
                header_line = line.no;
            }
            Some(b'a') => {
                let Some((n, _)) = header else {
                    return Err(line.error("arc line before the 'p sp NODES ARCS' line"));
                };
                let mut tok = line.tokens();
                tok.next_raw();
                let u = tok.next_u64("source id")?;
                let v = tok.next_u64("target id")?;
                let w = tok.next_u64("weight")?;
                tok.expect_end()?;
                for id in [u, v] {
                    if id == 0 || id > n as u64 {
                        return Err(line.error(format!(
                            "node id {id} is out of range 1..={n} declared by the 'p' line"
                        )));
                    }
                }
                if w > u32::MAX as u64 {
                    return Err(line.error(format!(
                        "weight {w} does not fit in 32 bits (max {})",
                        u32::MAX
                    )));
                }
                edges.push(u as u32 - 1, v as u32 - 1, w as u32);
            }
            Some(_) => {
                let shown: String = String::from_utf8_lossy(t).chars().take(30).collect();
                return Err(line.error(format!(
                    "unexpected line '{shown}' (expected 'c', 'p' or 'a')"
                )));
            }
        }
    }
    let Some((_, m)) = header else {
        return Err(GraphError::in_file(
            path,
            "no 'p sp NODES ARCS' line: not a DIMACS .gr file",
        ));
    };
    if edges.len() as u64 != m {
        return Err(GraphError::at_line(
            path,
            header_line,
            format!(
                "the 'p' line declares {m} arcs but the file has {}",
                edges.len()
            ),
        ));
    }
    Ok(edges)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        read(Path::new("x.gr"), text.as_bytes())
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn reads_a_small_file() {
        let el = read(Path::new("x.gr"), b"c hi\np sp 3 2\na 1 2 5\na 3 1 0\n").unwrap();
        assert_eq!(el.num_nodes, 3);
        assert_eq!((el.src.clone(), el.dst.clone()), (vec![0, 2], vec![1, 0]));
        assert_eq!(el.weights.unwrap(), vec![5, 0]);
    }

    #[test]
    fn rejects_bad_files_with_line_numbers() {
        assert!(err("p sp 3 1\na 1 4 1\n").contains("x.gr:2: node id 4 is out of range"));
        assert!(err("p sp 3 2\na 1 2 1\n").contains("x.gr:1: the 'p' line declares 2 arcs"));
        assert!(err("a 1 2 3\n").contains(":1: arc line before"));
        assert!(err("p sp 3 1\na 1 2 -4\n").contains(":2: negative weight"));
        assert!(err("p sp 3 1\na 1 2 99999999999\n").contains("does not fit in 32 bits"));
        assert!(err("p sp 3 1\na 1 x 1\n").contains("target id 'x'"));
        assert!(err("").contains("no 'p sp"));
        assert!(err("p sp 1000000000000 1\n").contains("too many"));
        assert!(err("p sp 3 1\nq\n").contains("unexpected line"));
    }
}
