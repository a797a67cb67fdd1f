//! Position keys for the search's table: a fast hasher over the fields a variant names
//! (those that decide repetition), instead of hashing its position text.
//!
//! Our own rather than a crate's: the multiply-rotate step is the one `rustc-hash` uses,
//! with a final avalanche so that the table's index (the low bits) depends on every field.

use std::hash::{Hash, Hasher};

#[derive(Default)]
pub struct KeyHasher(u64);

impl KeyHasher {
    #[inline]
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.add(i as u64);
        self.add((i >> 64) as u64);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    /// MurmurHash3's finaliser: every bit of the state reaches every bit of the key.
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// The key of `fields` (a tuple of the fields that decide repetition).
#[inline]
pub fn key_of<T: Hash + ?Sized>(fields: &T) -> u64 {
    let mut h = KeyHasher::default();
    fields.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_differ_by_every_field_and_spread_the_low_bits() {
        assert_ne!(key_of(&(1u8, 2u8)), key_of(&(2u8, 1u8)));
        assert_ne!(key_of(&[0u64; 3]), key_of(&[0u64, 0, 1]));
        // Keys of consecutive numbers fill the low bits of a 1,024-slot table evenly.
        let mut slots = [0u32; 1024];
        for i in 0..102_400u64 {
            slots[(key_of(&i) & 1023) as usize] += 1;
        }
        assert!(slots.iter().all(|&n| (50..=150).contains(&n)), "{slots:?}");
    }
}
