//! What verifiers report: one error type for every application.

/// A parallel result that disagrees with its serial oracle.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum VerifyError {
    /// Per-node answers differ (distances, levels, labels, cores, scores).
    #[error("verification failed: {mismatches} node(s) differ from the serial oracle; first: node {node} has {got}, expected {expected}")]
    Nodes {
        mismatches: usize,
        /// The node's id as the input file numbers it.
        node: u64,
        got: String,
        expected: String,
    },
    /// Scores further from the oracle than the run's own error bound allows (PageRank).
    #[error("verification failed: scores are {l1:.3e} from the power iteration (L1), more than the bound {bound:.3e}")]
    Scores { l1: f64, bound: f64 },
    /// An error bound too loose to reject anything: two score vectors summing to 1 are at most
    /// 2 apart in L1 (PageRank).
    #[error("verification failed: the error bound {bound:.3} admits every answer (scores summing to 1 are at most 2 apart in L1); a smaller tolerance or more iterations give a result that can be checked")]
    Vacuous { bound: f64 },
    /// A whole-graph answer differs or is malformed (a flow, a forest, a count).
    #[error("verification failed: {0}")]
    Answer(String),
}

/// Compares `got` with `expected` element by element; `show` formats a value, `file_id` maps
/// an index to the file's node id.
pub fn compare<V: PartialEq + Copy>(
    got: &[V],
    expected: &[V],
    show: impl Fn(V) -> String,
    file_id: impl Fn(u32) -> u64,
) -> Result<(), VerifyError> {
    if got.len() != expected.len() {
        return Err(VerifyError::Answer(format!(
            "{} values, the oracle has {}",
            got.len(),
            expected.len()
        )));
    }
    let mut first = None;
    let mut mismatches = 0;
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        if g != e {
            mismatches += 1;
            first.get_or_insert(i);
        }
    }
    match first {
        None => Ok(()),
        Some(i) => Err(VerifyError::Nodes {
            mismatches,
            node: file_id(i as u32),
            got: show(got[i]),
            expected: show(expected[i]),
        }),
    }
}
