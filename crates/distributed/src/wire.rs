//! Records inside message buffers: little-endian fields, no padding.

#[inline]
pub fn put_u32(b: &mut Vec<u8>, x: u32) {
    b.extend_from_slice(&x.to_le_bytes());
}

#[inline]
pub fn put_u64(b: &mut Vec<u8>, x: u64) {
    b.extend_from_slice(&x.to_le_bytes());
}

/// Reads fields in order from a buffer written by the same program on another rank.
pub struct Reader<'a> {
    b: &'a [u8],
}

impl<'a> Reader<'a> {
    pub fn new(b: &'a [u8]) -> Self {
        Reader { b }
    }

    pub fn is_empty(&self) -> bool {
        self.b.is_empty()
    }

    #[inline]
    pub fn u32(&mut self) -> u32 {
        let (x, rest) = self.b.split_at(4);
        self.b = rest;
        u32::from_le_bytes(x.try_into().expect("4 bytes"))
    }

    #[inline]
    pub fn u64(&mut self) -> u64 {
        let (x, rest) = self.b.split_at(8);
        self.b = rest;
        u64::from_le_bytes(x.try_into().expect("8 bytes"))
    }

    /// `len` u32s, as raw little-endian bytes (decode with [`u32_at`]).
    #[inline]
    pub fn u32s(&mut self, len: usize) -> &'a [u8] {
        let (x, rest) = self.b.split_at(4 * len);
        self.b = rest;
        x
    }
}

#[inline]
pub fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().expect("4 bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut b = Vec::new();
        put_u32(&mut b, 7);
        put_u64(&mut b, u64::MAX - 3);
        put_u32(&mut b, 1);
        put_u32(&mut b, 2);
        let mut r = Reader::new(&b);
        assert_eq!(r.u32(), 7);
        assert_eq!(r.u64(), u64::MAX - 3);
        let xs = r.u32s(2);
        assert_eq!((u32_at(xs, 0), u32_at(xs, 1)), (1, 2));
        assert!(r.is_empty());
    }
}
