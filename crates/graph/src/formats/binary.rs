//! ordo's binary graph format: a CSR image, used in place once read.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "ORDOGRF\0"
//!      8     4  version (1), little-endian like every field
//!     12     4  flags: bit 0 weights, bit 1 coordinates, bit 2 ids are 1-based in the source
//!     16     8  n, the node count
//!     24     8  m, the arc count
//!     32     8  xxh3-64 checksum of every byte after the header
//!     40    24  reserved, zero
//!     64        offsets: (n + 1) x u64
//!               targets: m x u32, zero-padded to a multiple of 8 bytes
//!               weights: m x u32, padded likewise (if flag bit 0)
//!               coordinates: n x (f64 x, f64 y) (if flag bit 1)
//! ```
//! Every section starts 8-byte aligned, so a mapped file is used in place. Loading checks the
//! exact file size implied by n and m (a header can never cause an allocation), the checksum,
//! and the CSR invariants, so a corrupt file is an error and never undefined behaviour.

use crate::buf::Buf;
use crate::csr::{Graph, IdBase};
use crate::error::{GraphError, Result};
use std::any::Any;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::Arc;

pub use crate::input::BINARY_MAGIC as MAGIC;
pub const VERSION: u32 = 1;
const HEADER: usize = 64;
const FLAG_WEIGHTS: u32 = 1;
const FLAG_COORDS: u32 = 2;
const FLAG_ONE_BASED: u32 = 4;

#[derive(Debug, Clone, Copy)]
struct Layout {
    offsets: usize,
    targets: usize,
    weights: Option<usize>,
    coords: Option<usize>,
    total: usize,
}

fn pad8(x: usize) -> usize {
    x.div_ceil(8) * 8
}

fn layout(n: u64, m: u64, flags: u32) -> Option<Layout> {
    let n = usize::try_from(n).ok()?;
    let m = usize::try_from(m).ok()?;
    let offsets = HEADER;
    let targets = offsets.checked_add(n.checked_add(1)?.checked_mul(8)?)?;
    let mut end = targets.checked_add(pad8(m.checked_mul(4)?))?;
    let weights = if flags & FLAG_WEIGHTS != 0 {
        let at = end;
        end = end.checked_add(pad8(m.checked_mul(4)?))?;
        Some(at)
    } else {
        None
    };
    let coords = if flags & FLAG_COORDS != 0 {
        let at = end;
        end = end.checked_add(n.checked_mul(16)?)?;
        Some(at)
    } else {
        None
    };
    Some(Layout {
        offsets,
        targets,
        weights,
        coords,
        total: end,
    })
}

/// Loads a binary graph from a file, read whole into memory.
///
/// Read rather than memory-mapped: a mapped file's pages are the page cache's 4 KiB pages,
/// while an allocation of ordo's programs gets 2 MiB pages (`ordo_exec::HugePageAlloc`), and
/// the kernels' random reads of offsets and targets then miss the TLB far less often
/// (GAPBS reads its files too; Galois copies its mapped file into arrays of its own): BFS
/// on Kronecker 20 (260 MB) takes 0.87x the time it takes on the mapped file, and a graph
/// within the TLB's reach (USA-road-d.NY, 8 MB) runs level. The cost is the copy:
/// Kronecker 20 loads in about 100 ms instead of 45. The process holds the same bytes either
/// way: a mapped file's pages count in its resident set once touched, and the checksum
/// touches them all. A file changed while it is read fails its checksum; a mapped one could have
/// changed under the run.
pub fn load(path: &Path) -> Result<Graph> {
    if crate::input::is_gzip(path)? {
        let bytes = crate::input::read_input(path, None)?;
        return from_bytes(path, bytes);
    }
    let mut file = std::fs::File::open(path).map_err(|e| GraphError::io(path, e))?;
    let len = file.metadata().map_err(|e| GraphError::io(path, e))?.len();
    let len = usize::try_from(len).map_err(|_| GraphError::in_file(path, "file too large"))?;
    // The header first: a file that is not a graph, or whose sizes do not match its length,
    // is refused before its length is allocated.
    let mut head = Vec::with_capacity(HEADER);
    (&file)
        .take(HEADER as u64)
        .read_to_end(&mut head)
        .map_err(|e| GraphError::io(path, e))?;
    // Checks that the header is whole (HEADER bytes) as well.
    let h = parse_header(path, &head, len as u64)?;
    let io = |e| GraphError::io(path, e);
    // Offsets and targets in one block, as long as they are (the header matched the file's
    // length, so no size here is merely claimed). Weights and coordinates get blocks of
    // their own, so an application that ignores weights frees them (`Graph::drop_weights`:
    // 15 of a 1000x1000 grid's 37 MiB, 120 of Kronecker 20's 248).
    let csr_end = h.weights.or(h.coords).unwrap_or(len as u64);
    let mut checksum = xxhash_rust::xxh3::Xxh3Default::new();
    let csr = read_block(&mut file, &head, csr_end, &mut checksum).map_err(io)?;
    let (n, m) = (h.n as usize, h.m as usize);
    let weights = match h.weights {
        Some(at) => {
            let end = h.coords.unwrap_or(len as u64);
            let block = read_block(&mut file, &[], end - at, &mut checksum).map_err(io)?;
            Some(section::<u32>(block, 0, m))
        }
        None => None,
    };
    let coords = match h.coords {
        Some(at) => {
            let block = read_block(&mut file, &[], len as u64 - at, &mut checksum).map_err(io)?;
            Some(section::<f64>(block, 0, 2 * n))
        }
        None => None,
    };
    check_sum(path, &head, checksum.digest())?;
    let offsets = section::<u64>(csr.clone(), h.offsets as usize, n + 1);
    let targets = section::<u32>(csr, h.targets as usize, m);
    assemble(path, &h, offsets, targets, weights, coords)
}

/// A block of `bytes` bytes: `prefix` (already read, not checksummed: the header), then the
/// file's next bytes, added to the checksum. In u64 words, so every section in it starting at
/// a multiple of 8 is aligned; zeroed, so its pages stay untouched until the read fills them.
fn read_block(
    file: &mut std::fs::File,
    prefix: &[u8],
    bytes: u64,
    checksum: &mut xxhash_rust::xxh3::Xxh3Default,
) -> std::io::Result<Arc<Vec<u64>>> {
    let len = bytes as usize;
    let mut words = vec![0u64; len.div_ceil(8)];
    // SAFETY: the words' memory is initialized and at least `len` bytes long; every byte
    // pattern is a valid u64.
    let view = unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr() as *mut u8, len) };
    view[..prefix.len()].copy_from_slice(prefix);
    file.read_exact(&mut view[prefix.len()..])?;
    checksum.update(&view[prefix.len()..]);
    Ok(Arc::new(words))
}

/// A view of `count` values at byte `at` of a block [`read_block`] read, where
/// `parse_header` placed a section.
fn section<T: crate::buf::Pod>(block: Arc<Vec<u64>>, at: usize, count: usize) -> Buf<T> {
    // SAFETY: the words are initialized, and `block` keeps them alive as long as the view.
    let bytes: &'static [u8] =
        unsafe { std::slice::from_raw_parts(block.as_ptr() as *const u8, block.len() * 8) };
    // SAFETY: `parse_header` placed the section 8-byte aligned (and the block starts so) and
    // sized the block to hold `count` values from `at`.
    unsafe { Buf::from_owner(block, bytes, at, count) }
}

/// Compares the checksum stored in `head` with the one computed.
fn check_sum(path: &Path, head: &[u8], actual: u64) -> Result<()> {
    let stored = read_u64(head, 32);
    if stored != actual {
        return Err(GraphError::in_file(
            path,
            format!(
                "checksum mismatch (stored {stored:#018x}, computed {actual:#018x}): the file is corrupt"
            ),
        ));
    }
    Ok(())
}

/// Parses a binary graph held in memory (for example decompressed from `.ordo.gz`).
pub fn from_bytes(path: &Path, bytes: Vec<u8>) -> Result<Graph> {
    // Copy into u64-aligned storage so every section is aligned.
    let mut words = vec![0u64; bytes.len().div_ceil(8)];
    // SAFETY: `words` has at least `bytes.len()` bytes; u64 has no invalid bit patterns.
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), words.as_mut_ptr() as *mut u8, bytes.len());
    }
    let len = bytes.len();
    drop(bytes);
    let owner: Arc<Vec<u64>> = Arc::new(words);
    // SAFETY: the view covers `len` initialized bytes of the Vec kept alive by `owner`.
    let view: &'static [u8] =
        unsafe { std::slice::from_raw_parts(owner.as_ptr() as *const u8, len) };
    parse(path, owner, view)
}

fn read_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn read_u64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// A checked header: the sizes, the flags, and where each section starts.
#[derive(Debug, Clone, Copy)]
pub struct Header {
    pub n: u64,
    pub m: u64,
    pub one_based: bool,
    /// Byte offsets of the sections (`weights`, `coords`: when present).
    pub offsets: u64,
    pub targets: u64,
    pub weights: Option<u64>,
    pub coords: Option<u64>,
}

/// The bytes of a header.
pub const HEADER_BYTES: usize = HEADER;

/// Checks the first [`HEADER_BYTES`] of a binary graph file whose total size is `file_len`:
/// magic, version, flags, 32-bit node count, and the exact size the sizes imply. A reader of
/// only part of the file (ordo-dist) relies on this before it allocates anything.
pub fn parse_header(path: &Path, head: &[u8], file_len: u64) -> Result<Header> {
    if cfg!(target_endian = "big") {
        return Err(GraphError::in_file(
            path,
            "ordo's binary format needs a little-endian machine",
        ));
    }
    let bad = |msg: String| GraphError::in_file(path, msg);
    if head.len() < HEADER || &head[..8] != MAGIC {
        return Err(bad("not an ordo binary graph (bad magic number)".into()));
    }
    let version = read_u32(head, 8);
    if version != VERSION {
        return Err(bad(format!(
            "binary format version {version} is not supported (this ordo reads version {VERSION})"
        )));
    }
    let flags = read_u32(head, 12);
    if flags & !(FLAG_WEIGHTS | FLAG_COORDS | FLAG_ONE_BASED) != 0 {
        return Err(bad(format!("unknown flags {flags:#x}")));
    }
    let (n, m) = (read_u64(head, 16), read_u64(head, 24));
    if n >= u32::MAX as u64 {
        return Err(bad(format!("{n} nodes exceed ordo's 32-bit node ids")));
    }
    let lay =
        layout(n, m, flags).ok_or_else(|| bad(format!("header sizes n={n}, m={m} overflow")))?;
    if lay.total as u64 != file_len {
        return Err(bad(format!(
            "the header (n={n}, m={m}) implies {} bytes but the file has {} (truncated or corrupt)",
            lay.total, file_len
        )));
    }
    Ok(Header {
        n,
        m,
        one_based: flags & FLAG_ONE_BASED != 0,
        offsets: lay.offsets as u64,
        targets: lay.targets as u64,
        weights: lay.weights.map(|w| w as u64),
        coords: lay.coords.map(|c| c as u64),
    })
}

fn parse(path: &Path, owner: Arc<dyn Any + Send + Sync>, bytes: &[u8]) -> Result<Graph> {
    let h = parse_header(path, bytes, bytes.len() as u64)?;
    // The sizes fit in usize: parse_header matched them against the buffer's length.
    let (n, m) = (h.n as usize, h.m as usize);
    check_sum(path, bytes, xxhash_rust::xxh3::xxh3_64(&bytes[HEADER..]))?;
    // SAFETY (all four views): `layout` (through parse_header) placed each section 8-byte
    // aligned inside `bytes`, whose size it checked, and `owner` keeps the memory alive.
    let offsets: Buf<u64> =
        unsafe { Buf::from_owner(owner.clone(), bytes, h.offsets as usize, n + 1) };
    let targets: Buf<u32> = unsafe { Buf::from_owner(owner.clone(), bytes, h.targets as usize, m) };
    let weights: Option<Buf<u32>> = h
        .weights
        .map(|at| unsafe { Buf::from_owner(owner.clone(), bytes, at as usize, m) });
    let coords: Option<Buf<f64>> = h
        .coords
        .map(|at| unsafe { Buf::from_owner(owner.clone(), bytes, at as usize, 2 * n) });
    assemble(path, &h, offsets, targets, weights, coords)
}

/// The graph of a checked header's sections.
fn assemble(
    path: &Path,
    h: &Header,
    offsets: Buf<u64>,
    targets: Buf<u32>,
    weights: Option<Buf<u32>>,
    coords: Option<Buf<f64>>,
) -> Result<Graph> {
    let base = if h.one_based {
        IdBase::One
    } else {
        IdBase::Zero
    };
    let mut g = Graph::from_csr(offsets, targets, weights, base)
        .map_err(|e| GraphError::in_file(path, format!("invalid CSR: {e}")))?;
    if let Some(c) = coords {
        g.set_coords_buf(c);
    }
    Ok(g)
}

/// Writes `g` in the binary format.
pub fn write(g: &Graph, out: &mut dyn Write) -> std::io::Result<()> {
    let mut flags = 0;
    if g.is_weighted() {
        flags |= FLAG_WEIGHTS;
    }
    if g.coords().is_some() {
        flags |= FLAG_COORDS;
    }
    if g.id_base() == IdBase::One {
        flags |= FLAG_ONE_BASED;
    }
    let mut body: Vec<u8> = Vec::new();
    for &o in g.offsets() {
        body.extend_from_slice(&o.to_le_bytes());
    }
    let section_u32 = |body: &mut Vec<u8>, xs: &[u32]| {
        for &x in xs {
            body.extend_from_slice(&x.to_le_bytes());
        }
        body.resize(pad8(body.len()), 0);
    };
    section_u32(&mut body, g.targets());
    if let Some(w) = g.weights() {
        section_u32(&mut body, w);
    }
    if let Some(c) = g.coords() {
        for &x in c.xy.iter() {
            body.extend_from_slice(&x.to_le_bytes());
        }
    }
    let mut header = [0u8; HEADER];
    header[..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&VERSION.to_le_bytes());
    header[12..16].copy_from_slice(&flags.to_le_bytes());
    header[16..24].copy_from_slice(&(g.num_nodes() as u64).to_le_bytes());
    header[24..32].copy_from_slice(&(g.num_edges() as u64).to_le_bytes());
    header[32..40].copy_from_slice(&xxhash_rust::xxh3::xxh3_64(&body).to_le_bytes());
    out.write_all(&header)?;
    out.write_all(&body)
}
