//! Matrix Market coordinate format: a `%%MatrixMarket matrix coordinate FIELD SYMMETRY` banner,
//! `%` comments, a `rows cols nnz` size line, then `nnz` lines `i j [value]` (1-based).
//!
//! Entry (i, j) is the arc i -> j. `symmetric` matrices list one triangle; both arcs are added.
//! `integer` values must be non-negative 32-bit weights; `real` values cannot be ordo's integer
//! weights and are dropped (reported as a note): use `--weights lo:hi:seed` for weights.

use crate::builder::EdgeList;
use crate::error::{GraphError, Result};
use crate::input::{bounded_capacity, check_node_count};
use crate::text::LineScanner;
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Pattern,
    Integer,
    Real,
}

/// The edge list, and a note when values were dropped.
pub fn read(path: &Path, text: &[u8]) -> Result<(EdgeList, Option<String>)> {
    let mut lines = LineScanner::new(path, text);
    let banner = lines
        .next_line()
        .ok_or_else(|| GraphError::in_file(path, "the file is empty"))?;
    let words: Vec<String> = banner
        .tokens_lossy()
        .into_iter()
        .map(|w| w.to_ascii_lowercase())
        .collect();
    if words.first().map(String::as_str) != Some("%%matrixmarket") {
        return Err(banner.error("missing '%%MatrixMarket' banner"));
    }
    if words.len() != 5 || words[1] != "matrix" {
        return Err(banner.error("expected '%%MatrixMarket matrix coordinate FIELD SYMMETRY'"));
    }
    if words[2] != "coordinate" {
        return Err(banner.error(format!(
            "'{}' matrices are not graphs ordo reads: only 'coordinate'",
            words[2]
        )));
    }
    let field = match words[3].as_str() {
        "pattern" => Field::Pattern,
        "integer" => Field::Integer,
        "real" | "double" => Field::Real,
        other => return Err(banner.error(format!("unsupported field '{other}'"))),
    };
    let symmetric = match words[4].as_str() {
        "general" => false,
        "symmetric" => true,
        other => {
            return Err(banner.error(format!(
                "unsupported symmetry '{other}': only 'general' and 'symmetric'"
            )))
        }
    };
    let size = loop {
        let line = lines
            .next_line()
            .ok_or_else(|| GraphError::in_file(path, "missing the 'rows cols nnz' size line"))?;
        if line.is_blank() || line.starts_with(b"%") {
            continue;
        }
        break line;
    };
    let mut tok = size.tokens();
    let rows = tok.next_u64("row count")?;
    let cols = tok.next_u64("column count")?;
    let nnz = tok.next_u64("entry count")?;
    tok.expect_end()?;
    let n = check_node_count(path, size.no, rows.max(cols), text.len())?;
    let factor = if symmetric { 2 } else { 1 };
    let cap = bounded_capacity(nnz, lines.remaining_bytes(), 4) * factor;
    let mut edges = EdgeList::with_capacity(n, cap, field == Field::Integer);
    let mut entries: u64 = 0;
    while let Some(line) = lines.next_line() {
        if line.is_blank() || line.starts_with(b"%") {
            continue;
        }
        entries += 1;
        if entries > nnz {
            return Err(line.error(format!(
                "more entries than the {nnz} declared on line {}",
                size.no
            )));
        }
        let mut tok = line.tokens();
        let i = tok.next_u64("row index")?;
        let j = tok.next_u64("column index")?;
        if i == 0 || i > rows || j == 0 || j > cols {
            return Err(line.error(format!(
                "entry ({i}, {j}) is outside the {rows} x {cols} matrix (indices are 1-based)"
            )));
        }
        let w = match field {
            Field::Pattern => 1,
            Field::Integer => {
                let v = tok.next_i64("value")?;
                if v < 0 {
                    return Err(line.error(format!("negative weight {v} is not allowed")));
                }
                u32::try_from(v)
                    .map_err(|_| line.error(format!("weight {v} does not fit in 32 bits")))?
            }
            Field::Real => {
                tok.next_f64("value")?;
                1
            }
        };
        tok.expect_end()?;
        let (u, v) = (i as u32 - 1, j as u32 - 1);
        edges.push(u, v, w);
        if symmetric && u != v {
            edges.push(v, u, w);
        }
    }
    if entries != nnz {
        return Err(GraphError::at_line(
            path,
            size.no,
            format!("the size line declares {nnz} entries but the file has {entries}"),
        ));
    }
    let note = (field == Field::Real)
        .then(|| "real-valued entries were read as an unweighted pattern".to_string());
    Ok((edges, note))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SYM: &str =
        "%%MatrixMarket matrix coordinate integer symmetric\n% c\n3 3 2\n2 1 4\n3 3 1\n";

    #[test]
    fn reads_symmetric_integer() {
        let (el, note) = read(Path::new("m.mtx"), SYM.as_bytes()).unwrap();
        assert!(note.is_none());
        assert_eq!(el.num_nodes, 3);
        assert_eq!(el.src, vec![1, 0, 2]);
        assert_eq!(el.weights.unwrap(), vec![4, 4, 1]);
    }

    #[test]
    fn rejects_bad_matrices() {
        let e = |t: &str| {
            read(Path::new("m.mtx"), t.as_bytes())
                .unwrap_err()
                .to_string()
        };
        assert!(e("3 3 1\n").contains("banner"));
        assert!(e("%%MatrixMarket matrix array real general\n").contains("coordinate"));
        let h = "%%MatrixMarket matrix coordinate integer general\n";
        assert!(e(&format!("{h}2 2 1\n1 3 1\n")).contains("m.mtx:3: entry (1, 3) is outside"));
        assert!(e(&format!("{h}2 2 1\n1 2 -1\n")).contains("negative weight"));
        assert!(e(&format!("{h}2 2 2\n1 2 1\n")).contains("declares 2 entries"));
        assert!(e(&format!("{h}2 2 1\n1 2 1\n2 1 1\n")).contains("more entries"));
    }

    #[test]
    fn real_values_become_a_pattern_with_a_note() {
        let t = "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 -0.5\n";
        let (el, note) = read(Path::new("m.mtx"), t.as_bytes()).unwrap();
        assert!(el.weights.is_none());
        assert!(note.unwrap().contains("real"));
    }
}
