//! What verifiers report.

/// A parallel result that disagrees with its serial oracle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("verification failed: {mismatches} node(s) differ from the serial oracle; first: node {node} has {got}, expected {expected}")]
pub struct VerifyError {
    pub mismatches: usize,
    /// The node's id as the input file numbers it.
    pub node: u64,
    pub got: String,
    pub expected: String,
}

/// Compares `got` with `expected` element by element; `show` formats a value, `file_id` maps
/// an index to the file's node id.
pub fn compare<V: PartialEq + Copy>(
    got: &[V],
    expected: &[V],
    show: impl Fn(V) -> String,
    file_id: impl Fn(u32) -> u64,
) -> Result<(), VerifyError> {
    assert_eq!(got.len(), expected.len());
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
        Some(i) => Err(VerifyError {
            mismatches,
            node: file_id(i as u32),
            got: show(got[i]),
            expected: show(expected[i]),
        }),
    }
}
