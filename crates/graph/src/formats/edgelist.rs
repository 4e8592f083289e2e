//! Edge lists: SNAP (`#` comments, tab or space separated), plain `.el` (`u v`) and `.wel`
//! (`u v w`). Ids are used as written (0-based inside); the node count is the largest id + 1.

use crate::builder::EdgeList;
use crate::error::{GraphError, Result};
use crate::input::{bounded_capacity, check_node_count};
use crate::text::LineScanner;
use std::path::Path;

/// Whether the third column is a weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Columns {
    /// `u v` only.
    Two,
    /// `u v w`.
    Three,
    /// Decided by the first data line, then required on every line.
    Detect,
}

pub fn read(path: &Path, text: &[u8], columns: Columns) -> Result<EdgeList> {
    let mut lines = LineScanner::new(path, text);
    let cap = bounded_capacity(u64::MAX, text.len(), 6);
    let mut src = Vec::with_capacity(cap);
    let mut dst = Vec::with_capacity(cap);
    let mut weights: Option<Vec<u32>> = None;
    let mut cols = columns;
    let mut max_id: Option<u64> = None;
    let mut max_line = 0;
    while let Some(line) = lines.next_line() {
        let t = line.trimmed();
        if t.is_empty() || t[0] == b'#' || t[0] == b'%' {
            continue;
        }
        let mut tok = line.tokens();
        let u = tok.next_u64("source id")?;
        let v = tok.next_u64("target id")?;
        if cols == Columns::Detect {
            let mut probe = line.tokens();
            probe.next_raw();
            probe.next_raw();
            cols = if probe.next_raw().is_some() {
                Columns::Three
            } else {
                Columns::Two
            };
            if cols == Columns::Three {
                weights = Some(Vec::with_capacity(cap));
            }
        } else if cols == Columns::Three && weights.is_none() {
            weights = Some(Vec::with_capacity(cap));
        }
        if cols == Columns::Three {
            let w = tok.next_u64("weight")?;
            if w > u32::MAX as u64 {
                return Err(line.error(format!("weight {w} does not fit in 32 bits")));
            }
            weights.as_mut().expect("weighted").push(w as u32);
        }
        tok.expect_end()?;
        let hi = u.max(v);
        if max_id.is_none_or(|m| hi > m) {
            if hi >= u32::MAX as u64 {
                return Err(line.error(format!("node id {hi} does not fit in 32 bits")));
            }
            max_id = Some(hi);
            max_line = line.no;
        }
        src.push(u as u32);
        dst.push(v as u32);
    }
    let n = match max_id {
        Some(m) => check_node_count(path, max_line, m + 1, text.len())?,
        None if text.iter().all(u8::is_ascii_whitespace) => {
            return Err(GraphError::in_file(path, "the file is empty"))
        }
        None => 0,
    };
    Ok(EdgeList {
        num_nodes: n,
        src,
        dst,
        weights,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_snap_with_comments_and_tabs() {
        let el = read(Path::new("s.txt"), b"# c\n0\t1\n2 0\n\n", Columns::Detect).unwrap();
        assert_eq!(el.num_nodes, 3);
        assert!(el.weights.is_none());
        let el = read(Path::new("s.wel"), b"0 1 7\n1 2 8\n", Columns::Detect).unwrap();
        assert_eq!(el.weights.unwrap(), vec![7, 8]);
    }

    #[test]
    fn rejects_inconsistent_and_bad_lines() {
        let e = read(Path::new("s.txt"), b"0 1\n1 2 3\n", Columns::Detect).unwrap_err();
        assert!(
            e.to_string().contains("s.txt:2: unexpected extra token"),
            "{e}"
        );
        let e = read(Path::new("s.el"), b"0 1\n1\n", Columns::Two).unwrap_err();
        assert!(e.to_string().contains("s.el:2: missing target id"), "{e}");
        let e = read(Path::new("s.el"), b"0 4294967295\n", Columns::Two).unwrap_err();
        assert!(e.to_string().contains("does not fit"), "{e}");
        let e = read(Path::new("s.el"), b"0 4000000000\n", Columns::Two).unwrap_err();
        assert!(e.to_string().contains("too many"), "{e}");
        let e = read(Path::new("s.el"), b"  \n", Columns::Two).unwrap_err();
        assert!(e.to_string().contains("empty"), "{e}");
        let e = read(Path::new("s.el"), b"\x00\xff\x13 1\n", Columns::Two).unwrap_err();
        assert!(e.to_string().contains("s.el:1:"), "{e}");
    }
}
