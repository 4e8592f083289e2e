//! Opening an input: transparent gzip, progress reporting, format detection, and the limit
//! that stops a header's claims from allocating more than the file could describe.

use crate::error::{GraphError, Result};
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The graph file formats ordo reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// 9th DIMACS challenge `.gr` (`p sp N M`, `a u v w`, 1-based).
    Dimacs,
    /// SNAP edge list: `#` comments, whitespace separated, ids as written; a third column is
    /// read as a weight.
    Snap,
    /// Matrix Market coordinate format (`.mtx`), 1-based.
    MatrixMarket,
    /// METIS / DIMACS10 adjacency format (`.graph`), 1-based.
    Metis,
    /// Plain `u v` edge list (`.el`), ids as written.
    EdgeList,
    /// Plain `u v w` weighted edge list (`.wel`), ids as written.
    WeightedEdgeList,
    /// ordo's own binary CSR format (`.ordo`).
    Binary,
}

impl Format {
    pub const NAMES: &'static [&'static str] =
        &["dimacs", "snap", "mtx", "metis", "el", "wel", "ordo"];

    pub fn from_name(name: &str) -> Option<Format> {
        Some(match name.to_ascii_lowercase().as_str() {
            "dimacs" | "gr" => Format::Dimacs,
            "snap" | "txt" => Format::Snap,
            "mtx" | "matrixmarket" => Format::MatrixMarket,
            "metis" | "graph" => Format::Metis,
            "el" => Format::EdgeList,
            "wel" => Format::WeightedEdgeList,
            "ordo" | "binary" | "bin" => Format::Binary,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Dimacs => "dimacs",
            Format::Snap => "snap",
            Format::MatrixMarket => "mtx",
            Format::Metis => "metis",
            Format::EdgeList => "el",
            Format::WeightedEdgeList => "wel",
            Format::Binary => "ordo",
        }
    }

    /// The format implied by a file name, ignoring a trailing `.gz`.
    pub fn from_extension(path: &Path) -> Option<Format> {
        let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
        let name = name.strip_suffix(".gz").unwrap_or(&name);
        let ext = name.rsplit_once('.')?.1;
        Some(match ext {
            "gr" => Format::Dimacs,
            "mtx" => Format::MatrixMarket,
            "graph" | "metis" => Format::Metis,
            "el" => Format::EdgeList,
            "wel" => Format::WeightedEdgeList,
            "txt" | "tsv" | "edges" | "snap" => Format::Snap,
            "ordo" => Format::Binary,
            _ => return None,
        })
    }

    /// Guesses the format from the first bytes of (decompressed) content.
    pub fn sniff(content: &[u8]) -> Format {
        if content.starts_with(BINARY_MAGIC) {
            return Format::Binary;
        }
        let head = &content[..content.len().min(4096)];
        if head.starts_with(b"%%MatrixMarket") {
            return Format::MatrixMarket;
        }
        for line in head.split(|&b| b == b'\n') {
            let t = line.trim_ascii_start();
            if t.is_empty() {
                continue;
            }
            return match t[0] {
                b'c' | b'p' | b'a' => Format::Dimacs,
                _ => Format::Snap,
            };
        }
        Format::Snap
    }
}

/// Receives (bytes read, total bytes) while a file loads.
pub type Progress<'a> = &'a mut dyn FnMut(u64, u64);

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The first bytes of an ordo binary graph (`formats::binary`, which re-exports it as `MAGIC`):
/// here, with the other formats' signatures, so detection needs no format module.
pub const BINARY_MAGIC: &[u8; 8] = b"ORDOGRF\0";

/// Reads a whole file, decompressing gzip when the content says so.
pub fn read_input(path: &Path, progress: Option<Progress<'_>>) -> Result<Vec<u8>> {
    let file = File::open(path).map_err(|e| GraphError::io(path, e))?;
    let total = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut reader = CountingReader {
        inner: file,
        read: 0,
        total,
        reported: 0,
        progress,
    };
    let mut magic = [0u8; 2];
    let got = read_fully(&mut reader, &mut magic).map_err(|e| GraphError::io(path, e))?;
    let mut out = Vec::with_capacity(total.min(1 << 30) as usize);
    if got == 2 && magic == GZIP_MAGIC {
        let chained = io::Cursor::new(magic).chain(reader);
        gunzip(path, chained, &mut out)?;
    } else {
        out.extend_from_slice(&magic[..got]);
        reader
            .read_to_end(&mut out)
            .map_err(|e| GraphError::io(path, e))?;
    }
    Ok(out)
}

/// Decompresses `bytes` if they are gzip; `path` only names the source in errors.
pub fn decode_bytes(path: &Path, bytes: Vec<u8>) -> Result<Vec<u8>> {
    if bytes.starts_with(&GZIP_MAGIC) {
        let mut out = Vec::with_capacity(bytes.len().saturating_mul(4).min(1 << 30));
        gunzip(path, &bytes[..], &mut out)?;
        Ok(out)
    } else {
        Ok(bytes)
    }
}

/// Decompresses all of `gz` into `out`, refusing to grow past this machine's memory: gzip
/// expands up to about 1000 times, so a small corrupt or hostile file could otherwise ask for
/// terabytes before any parsing starts.
fn gunzip(path: &Path, gz: impl Read, out: &mut Vec<u8>) -> Result<()> {
    let limit = memory_bytes();
    let mut decoder = flate2::read::MultiGzDecoder::new(gz).take(limit.saturating_add(1));
    decoder
        .read_to_end(out)
        .map_err(|e| GraphError::in_file(path, format!("truncated or corrupt gzip data ({e})")))?;
    if out.len() as u64 > limit {
        return Err(GraphError::in_file(
            path,
            format!(
                "the gzip data expands past {:.1} GiB, this machine's memory (corrupt, or a gzip \
                 bomb)",
                limit as f64 / (1u64 << 30) as f64
            ),
        ));
    }
    Ok(())
}

/// This machine's physical memory in bytes (`MemTotal`), or no limit where it is unknown.
/// `ORDO_MEMORY_LIMIT` (bytes) overrides it, so tests can show the refusal on small inputs.
fn memory_bytes() -> u64 {
    if let Some(v) = std::env::var("ORDO_MEMORY_LIMIT")
        .ok()
        .and_then(|v| v.trim().parse().ok())
    {
        return v;
    }
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let line = m.lines().find(|l| l.starts_with("MemTotal:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib.saturating_mul(1024))
        })
        .unwrap_or(u64::MAX)
}

/// True if the file starts with the gzip magic number.
pub fn is_gzip(path: &Path) -> Result<bool> {
    let mut f = File::open(path).map_err(|e| GraphError::io(path, e))?;
    let mut magic = [0u8; 2];
    let got = read_fully(&mut f, &mut magic).map_err(|e| GraphError::io(path, e))?;
    Ok(got == 2 && magic == GZIP_MAGIC)
}

fn read_fully(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

struct CountingReader<'p, R> {
    inner: R,
    read: u64,
    total: u64,
    reported: u64,
    progress: Option<Progress<'p>>,
}

impl<R: Read> Read for CountingReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let k = self.inner.read(buf)?;
        self.read += k as u64;
        if let Some(p) = self.progress.as_mut() {
            if self.read - self.reported >= 1 << 20 || (k == 0 && self.read != self.reported) {
                self.reported = self.read;
                p(self.read, self.total);
            }
        }
        Ok(k)
    }
}

/// The most nodes a header (or the largest id) may claim for an input of `input_bytes`.
///
/// Isolated nodes cost no bytes in most formats, so a small file may legitimately declare more
/// nodes than it has lines; the floor of 2^24 allows that, while 64 nodes per byte beyond it
/// stops a ten-byte file from asking for a terabyte of offsets.
pub fn node_limit(input_bytes: usize) -> u64 {
    let by_size = (input_bytes as u64).saturating_mul(64);
    by_size.max(1 << 24).min(u32::MAX as u64 - 1)
}

/// Checks a claimed node count against [`node_limit`].
pub fn check_node_count(path: &Path, line: u64, claimed: u64, input_bytes: usize) -> Result<u32> {
    let limit = node_limit(input_bytes);
    if claimed > limit {
        let why = if claimed >= u32::MAX as u64 {
            "ordo's node ids are 32-bit".to_string()
        } else {
            format!("a file of {input_bytes} bytes cannot describe that many (limit {limit})")
        };
        return Err(GraphError::at_line(
            path,
            line,
            format!("{claimed} nodes is too many: {why}"),
        ));
    }
    Ok(claimed as u32)
}

/// Capacity to reserve for `claimed` items of at least `min_bytes_each` in `remaining` bytes.
pub fn bounded_capacity(claimed: u64, remaining: usize, min_bytes_each: usize) -> usize {
    claimed.min((remaining / min_bytes_each.max(1)) as u64 + 1) as usize
}
