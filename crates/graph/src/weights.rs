//! `lo:hi:seed` random integer weights for unweighted inputs.
//!
//! The weight of an edge is a hash of its (unordered) end points and the seed, so the two arcs
//! of an undirected edge always agree and the result does not depend on file order.

use crate::error::{GraphError, Result};
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WeightSpec {
    pub lo: u32,
    pub hi: u32,
    pub seed: u64,
}

impl WeightSpec {
    /// The range the source papers use for unweighted graphs.
    pub const DEFAULT: WeightSpec = WeightSpec {
        lo: 1,
        hi: 255,
        seed: 1,
    };

    #[inline]
    pub fn weight(&self, u: u32, v: u32) -> u32 {
        let (a, b) = if u <= v { (u, v) } else { (v, u) };
        let h =
            mix64(((a as u64) << 32 | b as u64) ^ self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let span = (self.hi - self.lo) as u64 + 1;
        // Multiply-shift maps the hash onto the span without modulo bias worth mentioning.
        self.lo + (((h >> 32) * span) >> 32) as u32
    }
}

/// SplitMix64's finalizer: a fast, well-mixed 64-bit hash.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl FromStr for WeightSpec {
    type Err = GraphError;
    fn from_str(s: &str) -> Result<Self> {
        let bad = || {
            GraphError::Invalid(format!(
                "bad weight spec '{s}': expected lo:hi:seed with 0 <= lo <= hi < 2^32, e.g. 1:255:1"
            ))
        };
        let parts: Vec<&str> = s.split(':').collect();
        if parts.len() != 3 {
            return Err(bad());
        }
        let lo: u32 = parts[0].trim().parse().map_err(|_| bad())?;
        let hi: u32 = parts[1].trim().parse().map_err(|_| bad())?;
        let seed: u64 = parts[2].trim().parse().map_err(|_| bad())?;
        if lo > hi {
            return Err(bad());
        }
        Ok(WeightSpec { lo, hi, seed })
    }
}

impl fmt::Display for WeightSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.lo, self.hi, self.seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_symmetric_in_range_and_deterministic() {
        let spec: WeightSpec = "3:7:42".parse().unwrap();
        for u in 0..50 {
            for v in 0..50 {
                let w = spec.weight(u, v);
                assert!((3..=7).contains(&w));
                assert_eq!(w, spec.weight(v, u));
            }
        }
        let seen: std::collections::BTreeSet<u32> =
            (0..1000).map(|i| spec.weight(i, i + 1)).collect();
        assert_eq!(seen.len(), 5, "every value of a small range appears");
    }

    #[test]
    fn bad_specs_are_rejected() {
        for s in ["", "1:2", "5:1:0", "a:2:3", "1:2:3:4", "-1:5:0"] {
            assert!(s.parse::<WeightSpec>().is_err(), "{s}");
        }
        assert_eq!("0:4294967295:7".parse::<WeightSpec>().unwrap().hi, u32::MAX);
    }
}
