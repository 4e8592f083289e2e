//! Loading a graph from any supported file, and coordinates beside it.

use crate::builder::{BuildOptions, EdgeList};
use crate::csr::{Graph, IdBase};
use crate::error::{GraphError, Result};
use crate::formats::{binary, coords, dimacs, edgelist, metis, mtx};
use crate::input::{read_input, Format, Progress};

use std::path::Path;

/// How to read a graph file.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// Overrides detection from the extension and content.
    pub format: Option<Format>,
    pub build: BuildOptions,
}

/// A loaded graph and what the loader wants the user to know.
pub struct Loaded {
    pub graph: Graph,
    pub format: Format,
    pub notes: Vec<String>,
}

/// Reads a graph, detecting its format from the extension, else from the content.
pub fn load_graph(
    path: &Path,
    opts: &LoadOptions,
    progress: Option<Progress<'_>>,
) -> Result<Loaded> {
    let by_name = opts.format.or_else(|| Format::from_extension(path));
    let rebuild = opts.build.changes_graph();
    if by_name == Some(Format::Binary) || (by_name.is_none() && sniff_binary(path)?) {
        let g = binary::load(path)?;
        let g = if rebuild {
            rebuild_graph(g, &opts.build)?
        } else {
            g
        };
        return Ok(Loaded {
            graph: g,
            format: Format::Binary,
            notes: vec![],
        });
    }
    let text = read_input(path, progress)?;
    parse_text(path, text, by_name, opts)
}

/// Reads a graph held in memory (optionally gzipped); `name` stands for the file in errors and
/// its extension selects the format unless `opts.format` does.
pub fn load_graph_from_bytes(name: &Path, bytes: Vec<u8>, opts: &LoadOptions) -> Result<Loaded> {
    let by_name = opts.format.or_else(|| Format::from_extension(name));
    let text = crate::input::decode_bytes(name, bytes)?;
    parse_text(name, text, by_name, opts)
}

fn parse_text(
    path: &Path,
    text: Vec<u8>,
    by_name: Option<Format>,
    opts: &LoadOptions,
) -> Result<Loaded> {
    let rebuild = opts.build.changes_graph();
    let format = by_name.unwrap_or_else(|| Format::sniff(&text));
    let mut notes = Vec::new();
    let (edges, base) = match format {
        Format::Dimacs => (dimacs::read(path, &text)?, IdBase::One),
        Format::Snap => (
            edgelist::read(path, &text, edgelist::Columns::Detect)?,
            IdBase::Zero,
        ),
        Format::EdgeList => (
            edgelist::read(path, &text, edgelist::Columns::Two)?,
            IdBase::Zero,
        ),
        Format::WeightedEdgeList => (
            edgelist::read(path, &text, edgelist::Columns::Three)?,
            IdBase::Zero,
        ),
        Format::MatrixMarket => {
            let (e, note) = mtx::read(path, &text)?;
            notes.extend(note);
            (e, IdBase::One)
        }
        Format::Metis => (metis::read(path, &text)?, IdBase::One),
        Format::Binary => {
            let g = binary::from_bytes(path, text)?;
            let g = if rebuild {
                rebuild_graph(g, &opts.build)?
            } else {
                g
            };
            return Ok(Loaded {
                graph: g,
                format,
                notes,
            });
        }
    };
    drop(text);
    let graph = edges.build(&opts.build, base)?;
    Ok(Loaded {
        graph,
        format,
        notes,
    })
}

fn sniff_binary(path: &Path) -> Result<bool> {
    use std::io::Read;
    let mut f = std::fs::File::open(path).map_err(|e| GraphError::io(path, e))?;
    let mut head = [0u8; 8];
    let got = f.read(&mut head).map_err(|e| GraphError::io(path, e))?;
    Ok(got == 8 && &head == binary::MAGIC)
}

/// Rebuilds a CSR with new build options (used when a binary input is loaded with options).
pub(crate) fn rebuild_graph(g: Graph, opts: &BuildOptions) -> Result<Graph> {
    let mut el = EdgeList::with_capacity(g.num_nodes() as u32, g.num_edges(), g.is_weighted());
    for v in 0..g.num_nodes() as u32 {
        for (t, w) in g.out_edges(v) {
            el.push(v, t, w);
        }
    }
    let coords = g.coords().map(|c| c.xy.to_vec());
    let mut out = el.build(opts, g.id_base())?;
    if let Some(xy) = coords {
        out.set_coords(xy)?;
    }
    Ok(out)
}

/// The undirected simple view of `g`: every arc in both directions, no self-loops, one arc per
/// node pair (the lightest). Algorithms on undirected graphs (components, cores, triangles,
/// spanning trees) run on this. Coordinates are kept. A graph that already is its view
/// ([`Graph::is_undirected_simple`], one pass) is shared, not rebuilt.
pub fn undirected_simple(g: &Graph) -> Result<Graph> {
    match g.is_undirected_simple(prep_threads()) {
        true => Ok(g.clone()),
        false => rebuilt_undirected_simple(g),
    }
}

/// [`undirected_simple`] built afresh from `g`'s arcs, whatever `g` is.
pub(crate) fn rebuilt_undirected_simple(g: &Graph) -> Result<Graph> {
    crate::undirected::build(g)
}

/// Threads for preparing a view of a graph: the machine's cores (preparation is not timed,
/// and no worker pool exists yet).
pub fn prep_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Reads a `.co` or `.xyz` coordinate file (optionally gzipped) and attaches it to `g`.
pub fn load_coords(path: &Path, g: &mut Graph) -> Result<()> {
    let text = read_input(path, None)?;
    let xy = coords::read(path, &text, g.num_nodes())?;
    g.set_coords(xy)
}
