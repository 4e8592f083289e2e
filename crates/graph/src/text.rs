//! Line-numbered scanning of text graph formats: every reader walks the file through
//! [`LineScanner`] so that each error can name its line.

use crate::error::{GraphError, Result};
use std::path::Path;

/// Iterates over the lines of an in-memory text file, tracking 1-based line numbers.
pub struct LineScanner<'a> {
    rest: &'a [u8],
    line_no: u64,
    pub path: &'a Path,
}

impl<'a> LineScanner<'a> {
    pub fn new(path: &'a Path, text: &'a [u8]) -> Self {
        LineScanner {
            rest: text,
            line_no: 0,
            path,
        }
    }

    /// The next line without its terminator, or `None` at the end of the file.
    #[inline]
    pub fn next_line(&mut self) -> Option<Line<'a>> {
        if self.rest.is_empty() {
            return None;
        }
        let end = memchr_newline(self.rest);
        let mut line = &self.rest[..end];
        self.rest = if end < self.rest.len() {
            &self.rest[end + 1..]
        } else {
            &[]
        };
        if let [head @ .., b'\r'] = line {
            line = head;
        }
        self.line_no += 1;
        Some(Line {
            bytes: line,
            no: self.line_no,
            path: self.path,
        })
    }

    /// Bytes not yet scanned: lets readers bound pre-allocation by what the file can hold.
    pub fn remaining_bytes(&self) -> usize {
        self.rest.len()
    }
}

#[inline]
fn memchr_newline(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(bytes.len())
}

/// One line of input with its number, split into whitespace-separated tokens on demand.
#[derive(Clone, Copy)]
pub struct Line<'a> {
    pub bytes: &'a [u8],
    pub no: u64,
    pub path: &'a Path,
}

impl<'a> Line<'a> {
    pub fn is_blank(&self) -> bool {
        self.bytes.iter().all(|b| b.is_ascii_whitespace())
    }

    pub fn starts_with(&self, prefix: &[u8]) -> bool {
        self.trimmed().starts_with(prefix)
    }

    pub fn trimmed(&self) -> &'a [u8] {
        let start = self
            .bytes
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(self.bytes.len());
        &self.bytes[start..]
    }

    pub fn tokens(&self) -> Tokens<'a> {
        Tokens {
            rest: self.bytes,
            line: *self,
        }
    }

    pub fn error(&self, message: impl Into<String>) -> GraphError {
        GraphError::at_line(self.path, self.no, message)
    }
}

/// Whitespace-separated tokens of one line with typed, checked parsing.
pub struct Tokens<'a> {
    rest: &'a [u8],
    line: Line<'a>,
}

impl<'a> Tokens<'a> {
    /// The next raw token, if any.
    #[inline]
    pub fn next_raw(&mut self) -> Option<&'a [u8]> {
        let start = self.rest.iter().position(|b| !is_space(*b))?;
        let rest = &self.rest[start..];
        let end = rest.iter().position(|b| is_space(*b)).unwrap_or(rest.len());
        self.rest = &rest[end..];
        Some(&rest[..end])
    }

    /// The next token as an unsigned integer; `what` names it in the error message.
    #[inline]
    pub fn next_u64(&mut self, what: &str) -> Result<u64> {
        let tok = self
            .next_raw()
            .ok_or_else(|| self.line.error(format!("missing {what}")))?;
        parse_u64(tok).ok_or_else(|| self.bad_number(what, tok))
    }

    /// The next token as a signed integer.
    pub fn next_i64(&mut self, what: &str) -> Result<i64> {
        let tok = self
            .next_raw()
            .ok_or_else(|| self.line.error(format!("missing {what}")))?;
        std::str::from_utf8(tok)
            .ok()
            .and_then(|s| s.parse::<i64>().ok())
            .ok_or_else(|| self.bad_number(what, tok))
    }

    /// The next token as a finite floating-point number.
    pub fn next_f64(&mut self, what: &str) -> Result<f64> {
        let tok = self
            .next_raw()
            .ok_or_else(|| self.line.error(format!("missing {what}")))?;
        std::str::from_utf8(tok)
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .filter(|v| v.is_finite())
            .ok_or_else(|| self.bad_number(what, tok))
    }

    /// Fails if tokens are left on the line.
    pub fn expect_end(&mut self) -> Result<()> {
        match self.next_raw() {
            None => Ok(()),
            Some(tok) => Err(self.line.error(format!(
                "unexpected extra token '{}'",
                String::from_utf8_lossy(tok)
            ))),
        }
    }

    fn bad_number(&self, what: &str, tok: &[u8]) -> GraphError {
        let shown: String = String::from_utf8_lossy(tok).chars().take(40).collect();
        if tok.first() == Some(&b'-') && tok.len() > 1 && tok[1..].iter().all(u8::is_ascii_digit) {
            self.line
                .error(format!("negative {what} '{shown}' is not allowed"))
        } else if !tok.is_empty() && tok.iter().all(u8::is_ascii_digit) {
            self.line.error(format!("{what} '{shown}' is too large"))
        } else {
            self.line
                .error(format!("{what} '{shown}' is not a non-negative integer"))
        }
    }
}

#[inline]
fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t' || b == b'\r' || b == b'\x0b' || b == b'\x0c'
}

/// Parses a decimal unsigned integer; `None` on any non-digit or overflow.
#[inline]
pub fn parse_u64(tok: &[u8]) -> Option<u64> {
    if tok.is_empty() || tok.len() > 20 {
        return None;
    }
    let mut v: u64 = 0;
    for &b in tok {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v.checked_mul(10)?.checked_add(d as u64)?;
    }
    Some(v)
}

impl Line<'_> {
    /// All tokens as (lossy) strings: for short header lines only.
    pub fn tokens_lossy(&self) -> Vec<String> {
        let mut t = self.tokens();
        let mut out = Vec::new();
        while let Some(raw) = t.next_raw() {
            out.push(String::from_utf8_lossy(raw).into_owned());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_numbers_and_rejects_junk() {
        assert_eq!(parse_u64(b"0"), Some(0));
        assert_eq!(parse_u64(b"18446744073709551615"), Some(u64::MAX));
        assert_eq!(parse_u64(b"18446744073709551616"), None);
        assert_eq!(parse_u64(b"12a"), None);
        assert_eq!(parse_u64(b""), None);
    }

    #[test]
    fn numbers_lines_and_handles_crlf() {
        let path = Path::new("t");
        let mut s = LineScanner::new(path, b"a 1\r\n\nb 2");
        let l1 = s.next_line().unwrap();
        assert_eq!((l1.no, l1.bytes), (1, &b"a 1"[..]));
        assert!(s.next_line().unwrap().is_blank());
        let l3 = s.next_line().unwrap();
        let mut t = l3.tokens();
        assert_eq!(t.next_raw(), Some(&b"b"[..]));
        assert_eq!(t.next_u64("x").unwrap(), 2);
        assert!(s.next_line().is_none());
    }

    #[test]
    fn negative_numbers_get_a_specific_message() {
        let path = Path::new("t");
        let mut s = LineScanner::new(path, b"-5");
        let err = s
            .next_line()
            .unwrap()
            .tokens()
            .next_u64("weight")
            .unwrap_err();
        assert!(err.to_string().contains("negative weight"), "{err}");
    }
}
