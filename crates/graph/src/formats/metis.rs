//! METIS / DIMACS10 adjacency format (`.graph`): `%` comments, a header `n m [fmt [ncon]]`,
//! then exactly `n` lines, line i listing the 1-based neighbours of node i (with an edge
//! weight after each neighbour when fmt's last digit is 1, and `ncon` node weights first when
//! its middle digit is 1). `m` counts undirected edges: the file lists `2m` arcs.

use crate::builder::EdgeList;
use crate::error::{GraphError, Result};
use crate::input::{bounded_capacity, check_node_count};
use crate::text::LineScanner;
use std::path::Path;

pub fn read(path: &Path, text: &[u8]) -> Result<EdgeList> {
    let mut lines = LineScanner::new(path, text);
    let header = loop {
        let line = lines
            .next_line()
            .ok_or_else(|| GraphError::in_file(path, "the file is empty"))?;
        if line.is_blank() || line.starts_with(b"%") {
            continue;
        }
        break line;
    };
    let mut tok = header.tokens();
    let n = tok.next_u64("node count")?;
    let m = tok.next_u64("edge count")?;
    let fmt = match tok.next_raw() {
        None => 0,
        Some(raw) => {
            if raw.len() > 3 || !raw.iter().all(|b| *b == b'0' || *b == b'1') {
                return Err(header.error(format!(
                    "fmt '{}' must be up to three 0/1 digits",
                    String::from_utf8_lossy(raw)
                )));
            }
            raw.iter().fold(0u32, |acc, b| acc * 10 + (b - b'0') as u32)
        }
    };
    let edge_weights = fmt % 10 == 1;
    let node_weights = (fmt / 10) % 10 == 1;
    let node_sizes = fmt / 100 == 1;
    let ncon = if node_weights {
        tok.next_u64("ncon").unwrap_or(1)
    } else {
        0
    };
    tok.expect_end()?;
    let n = check_node_count(path, header.no, n, text.len())?;
    let cap = bounded_capacity(m.saturating_mul(2), lines.remaining_bytes(), 2);
    let mut edges = EdgeList::with_capacity(n, cap, edge_weights);
    let mut node: u32 = 0;
    while let Some(line) = lines.next_line() {
        if line.starts_with(b"%") {
            continue;
        }
        if node == n {
            if line.is_blank() {
                continue;
            }
            return Err(line.error(format!(
                "more adjacency lines than the {n} nodes declared on line {}",
                header.no
            )));
        }
        let mut tok = line.tokens();
        if node_sizes {
            tok.next_u64("node size")?;
        }
        for _ in 0..ncon {
            tok.next_u64("node weight")?;
        }
        while let Some(raw) = tok.next_raw() {
            let v = crate::text::parse_u64(raw).ok_or_else(|| {
                line.error(format!(
                    "neighbour '{}' is not a positive integer",
                    String::from_utf8_lossy(raw)
                ))
            })?;
            if v == 0 || v > n as u64 {
                return Err(line.error(format!("neighbour {v} is out of range 1..={n}")));
            }
            let w = if edge_weights {
                let w = tok.next_u64("edge weight")?;
                u32::try_from(w)
                    .map_err(|_| line.error(format!("edge weight {w} does not fit in 32 bits")))?
            } else {
                1
            };
            edges.push(node, v as u32 - 1, w);
        }
        node += 1;
    }
    if node < n {
        return Err(GraphError::at_line(
            path,
            header.no,
            format!("the header declares {n} nodes but the file has {node} adjacency lines"),
        ));
    }
    if edges.len() as u64 != m.saturating_mul(2) {
        return Err(GraphError::at_line(
            path,
            header.no,
            format!(
                "the header declares {m} edges ({} arcs) but the file lists {} arcs",
                m.saturating_mul(2),
                edges.len()
            ),
        ));
    }
    Ok(edges)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_plain_and_weighted() {
        let el = read(Path::new("g.graph"), b"% c\n3 2\n2\n1 3\n2\n").unwrap();
        assert_eq!(el.num_nodes, 3);
        assert_eq!(el.len(), 4);
        let el = read(Path::new("g.graph"), b"2 1 011 1\n5 2 9\n7 1 9\n").unwrap();
        assert_eq!(el.weights.unwrap(), vec![9, 9]);
        // Blank lines are isolated nodes.
        let el = read(Path::new("g.graph"), b"3 1\n3\n\n1\n").unwrap();
        assert_eq!((el.src, el.dst), (vec![0, 2], vec![2, 0]));
    }

    #[test]
    fn rejects_lies() {
        let e = |t: &str| {
            read(Path::new("g.graph"), t.as_bytes())
                .unwrap_err()
                .to_string()
        };
        assert!(e("3 5\n2\n1\n\n").contains("declares 5 edges"));
        assert!(e("2 1\n2\n1\n2\n").contains("g.graph:4: more adjacency lines"));
        assert!(e("4 1\n2\n1\n").contains("declares 4 nodes"));
        assert!(e("2 1\n3\n1\n").contains("g.graph:2: neighbour 3 is out of range"));
        assert!(e("2 1 7\n").contains("fmt"));
    }
}
