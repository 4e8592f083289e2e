//! Sender-side combining: records for the same remote node fold together before they leave.
//!
//! An asynchronous relaxation sends a record every time a task improves a remote node, and
//! on a cut with many arcs into one node most of those records are overtaken before they
//! arrive. Each worker keeps, per destination, a direct-mapped table of the targets it sent
//! to recently: a slot holds a target, the best value sent to it, and where its record sits
//! in the buffer not yet handed over (if it is there). A new record for a target in the table
//!
//! * with a min-fold ([`Fold::MinU32`], [`Fold::MinU64`]: distances, labels) is **dropped**
//!   when its value is not below the best already sent, because that record reaches the
//!   owner and the owner keeps the minimum; when it is below, it **overwrites** the record
//!   still in the buffer, or is appended when that record has left;
//! * with a sum-fold ([`Fold::SumF64`]: PageRank shares) is **added** to the record still in
//!   the buffer, or appended when that record has left (a share sent is spent).
//!
//! A collision replaces the slot, so the table only forgets: nothing is ever dropped that
//! the owner has not been sent. The wire format is unchanged (target u32, then the value:
//! u32 for `MinU32`, u64 for the others), so the receiver's handler does not know.

/// How records to the same target fold together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// A u32 value; the smaller wins.
    MinU32,
    /// A u64 value; the smaller wins.
    MinU64,
    /// An f64 value (as its bits); values add.
    SumF64,
}

/// Appends the record `(target, value)` in `fold`'s wire format; returns the value's offset.
#[inline]
pub fn append(buf: &mut Vec<u8>, target: u32, value: u64, fold: Fold) -> usize {
    buf.extend_from_slice(&target.to_le_bytes());
    let at = buf.len();
    buf.resize(at + fold.value_bytes(), 0);
    put_value(&mut buf[at..], value, fold);
    at
}

/// Writes `value` at the start of `to` in `fold`'s width.
#[inline]
fn put_value(to: &mut [u8], value: u64, fold: Fold) {
    match fold {
        Fold::MinU32 => to[..4].copy_from_slice(&(value as u32).to_le_bytes()),
        Fold::MinU64 | Fold::SumF64 => to[..8].copy_from_slice(&value.to_le_bytes()),
    }
}

impl Fold {
    /// Bytes of a record's value (the target before it takes 4).
    fn value_bytes(self) -> usize {
        match self {
            Fold::MinU32 => 4,
            Fold::MinU64 | Fold::SumF64 => 8,
        }
    }
}

#[derive(Clone, Copy, Default)]
struct Slot {
    /// Generation of the buffer holding this target's record; 0: the slot is empty.
    generation: u32,
    target: u32,
    /// Byte offset of the record's value in that buffer.
    at: u32,
    /// The best (min-folds) value sent to this target.
    best: u64,
}

/// One worker's table for one destination.
#[derive(Default)]
pub struct Combiner {
    slots: Vec<Slot>,
    /// Generation of the buffer being filled; bumped when it is handed over.
    generation: u32,
    shift: u32,
}

impl Combiner {
    /// A table of `slots` entries (a power of two, at least 2).
    pub fn new(slots: usize) -> Combiner {
        assert!(slots.is_power_of_two() && slots >= 2);
        Combiner {
            slots: vec![Slot::default(); slots],
            generation: 1,
            shift: 64 - slots.trailing_zeros(),
        }
    }

    pub fn is_enabled(&self) -> bool {
        !self.slots.is_empty()
    }

    #[inline]
    fn index(&self, target: u32) -> usize {
        // Fibonacci hashing: neighbouring ids (a mesh's, a road's) spread over the table.
        ((target as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Sends `(target, value)` into `buf`, the buffer being filled for this table's
    /// destination: folds it into an earlier record, drops it as no better, or appends it.
    /// True when it was appended.
    #[inline]
    pub fn send(&mut self, buf: &mut Vec<u8>, target: u32, value: u64, fold: Fold) -> bool {
        let generation = self.generation;
        let i = self.index(target);
        let slot = &mut self.slots[i];
        if slot.generation != 0 && slot.target == target {
            // The earlier record is still in `buf` when it is of this buffer's generation.
            let here = slot.generation == generation;
            let at = slot.at as usize;
            match fold {
                Fold::MinU32 | Fold::MinU64 => {
                    if value >= slot.best {
                        return false;
                    }
                    slot.best = value;
                    if here {
                        put_value(&mut buf[at..], value, fold);
                        return false;
                    }
                }
                Fold::SumF64 => {
                    if here {
                        let old = f64::from_le_bytes(buf[at..at + 8].try_into().expect("8 bytes"));
                        let sum = old + f64::from_bits(value);
                        put_value(&mut buf[at..], sum.to_bits(), fold);
                        return false;
                    }
                }
            }
        }
        let at = append(buf, target, value, fold);
        *slot = Slot {
            generation,
            target,
            at: at as u32,
            best: value,
        };
        true
    }

    /// The buffer was handed over: its records can no longer change.
    pub fn buffer_left(&mut self) {
        if !self.is_enabled() {
            return;
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 2^32 buffers a stale slot could look current: start the table afresh.
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }
}

/// Slots per table: four per record a full buffer holds, so a buffer's records rarely
/// collide and older targets stay a while for the min-folds, within `budget` bytes for
/// `tables` tables.
pub fn table_slots(aggregate: usize, tables: usize, budget: u64) -> usize {
    let want = (4 * aggregate / 8).next_power_of_two().max(64);
    let afford = budget / (tables.max(1) * std::mem::size_of::<Slot>()) as u64;
    let afford = if afford < 2 {
        0
    } else {
        1usize << (63 - afford.leading_zeros())
    };
    want.min(afford)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(buf: &[u8], fold: Fold) -> Vec<(u32, u64)> {
        buf.chunks(4 + fold.value_bytes())
            .map(|r| {
                let t = u32::from_le_bytes(r[..4].try_into().unwrap());
                let v = if fold == Fold::MinU32 {
                    u32::from_le_bytes(r[4..8].try_into().unwrap()) as u64
                } else {
                    u64::from_le_bytes(r[4..12].try_into().unwrap())
                };
                (t, v)
            })
            .collect()
    }

    #[test]
    fn min_keeps_the_best_in_the_buffer_and_drops_worse_later() {
        for fold in [Fold::MinU32, Fold::MinU64] {
            let mut c = Combiner::new(64);
            let mut buf = Vec::new();
            assert!(c.send(&mut buf, 5, 90, fold));
            assert!(c.send(&mut buf, 6, 10, fold));
            assert!(!c.send(&mut buf, 5, 70, fold));
            assert!(!c.send(&mut buf, 5, 80, fold));
            assert_eq!(records(&buf, fold), vec![(5, 70), (6, 10)]);
            // The buffer leaves: a worse value is still dropped, a better one is a new record.
            c.buffer_left();
            let mut next = Vec::new();
            assert!(!c.send(&mut next, 5, 75, fold));
            assert!(c.send(&mut next, 5, 60, fold));
            assert!(!c.send(&mut next, 5, 65, fold));
            assert_eq!(records(&next, fold), vec![(5, 60)]);
        }
    }

    #[test]
    fn sums_fold_only_inside_the_buffer() {
        let mut c = Combiner::new(64);
        let mut buf = Vec::new();
        let f = |x: f64| x.to_bits();
        assert!(c.send(&mut buf, 3, f(0.25), Fold::SumF64));
        assert!(!c.send(&mut buf, 3, f(0.5), Fold::SumF64));
        let got = records(&buf, Fold::SumF64);
        assert_eq!(got.len(), 1);
        assert_eq!(f64::from_bits(got[0].1), 0.75);
        c.buffer_left();
        let mut next = Vec::new();
        assert!(c.send(&mut next, 3, f(0.125), Fold::SumF64));
    }

    #[test]
    fn collisions_only_forget() {
        // Two slots: many targets collide, and every value still reaches the buffer unless
        // an equal or better one for the same target was sent.
        let mut c = Combiner::new(2);
        let mut buf = Vec::new();
        let mut best = std::collections::HashMap::new();
        let mut x = 12345u64;
        for _ in 0..10_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (t, v) = ((x >> 40) as u32 % 50, (x >> 20) % 1000);
            c.send(&mut buf, t, v, Fold::MinU64);
            let b = best.entry(t).or_insert(u64::MAX);
            *b = (*b).min(v);
            if x.is_multiple_of(7) {
                c.buffer_left();
            }
        }
        let mut seen = std::collections::HashMap::new();
        for (t, v) in records(&buf, Fold::MinU64) {
            let s = seen.entry(t).or_insert(u64::MAX);
            *s = (*s).min(v);
        }
        assert_eq!(seen, best);
    }

    #[test]
    fn table_size_follows_the_budget() {
        assert_eq!(table_slots(16 << 10, 4, 1 << 30), 8192);
        assert_eq!(table_slots(16 << 10, 1 << 20, 1 << 30), 32);
        assert_eq!(table_slots(16 << 10, 4, 0), 0);
    }
}
