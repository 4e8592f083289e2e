//! Writers: ordo binary, DIMACS `.gr`, and edge lists (`.el`, `.wel`), gzip when the name ends
//! in `.gz`. Text writers use the ids a reader of that format would assign: DIMACS is 1-based,
//! edge lists are 0-based, so reading a written file gives back the same graph.

use crate::csr::Graph;
use crate::error::{GraphError, Result};
use crate::formats::binary;
use crate::input::Format;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// Writes `g` to `path` in `format` (or the format the extension names).
pub fn write_graph(g: &Graph, path: &Path, format: Option<Format>) -> Result<Format> {
    let format = format
        .or_else(|| Format::from_extension(path))
        .ok_or_else(|| {
            GraphError::Invalid(format!(
                "cannot tell the output format from '{}': use an extension (.ordo, .gr, .el, .wel) or --format",
                path.display()
            ))
        })?;
    let file = File::create(path).map_err(|e| GraphError::io(path, e))?;
    let gz = path.extension().is_some_and(|e| e == "gz");
    let mut out: Box<dyn Write> = if gz {
        Box::new(flate2::write::GzEncoder::new(
            BufWriter::new(file),
            flate2::Compression::default(),
        ))
    } else {
        Box::new(BufWriter::with_capacity(1 << 20, file))
    };
    let res = match format {
        Format::Binary => binary::write(g, &mut out),
        Format::Dimacs => write_dimacs(g, &mut out),
        Format::EdgeList => write_edge_list(g, &mut out, false),
        Format::WeightedEdgeList | Format::Snap => write_edge_list(g, &mut out, g.is_weighted()),
        Format::MatrixMarket | Format::Metis => {
            return Err(GraphError::Invalid(format!(
                "writing {} is not supported: write .ordo, .gr, .el or .wel",
                format.name()
            )))
        }
    };
    res.and_then(|_| out.flush())
        .map_err(|e| GraphError::io(path, e))?;
    Ok(format)
}

fn write_dimacs(g: &Graph, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "c written by ordo")?;
    writeln!(out, "p sp {} {}", g.num_nodes(), g.num_edges())?;
    for v in 0..g.num_nodes() as u32 {
        for (t, w) in g.out_edges(v) {
            writeln!(out, "a {} {} {}", v + 1, t + 1, w)?;
        }
    }
    Ok(())
}

fn write_edge_list(g: &Graph, out: &mut dyn Write, weighted: bool) -> std::io::Result<()> {
    for v in 0..g.num_nodes() as u32 {
        for (t, w) in g.out_edges(v) {
            if weighted {
                writeln!(out, "{v} {t} {w}")?;
            } else {
                writeln!(out, "{v} {t}")?;
            }
        }
    }
    Ok(())
}
