//! [`BoxedUint`]: the heap-allocated unsigned integer that carries RSA key components in and
//! out of the library (`n`, `e`, `d`, the primes and the CRT values).
//!
//! It is a container, not an arithmetic type: the arithmetic lives in [`crate::nat`],
//! [`crate::mont`] and [`crate::exp`], and [`crate::rsa`] converts to their limb slices. Its
//! *announced length* (the number of 64-bit limbs) is public; its value may be secret, so it
//! is zeroized on drop, compared in constant time and never printed.

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, Zeroizing};

use crate::nat;

/// An unsigned integer of any size as little-endian 64-bit limbs.
///
/// - Built from big-endian bytes ([`BoxedUint::from_be_bytes`]) or a `u64`.
/// - Equality is constant time in the values (it leaks only the two limb counts).
/// - `Debug` prints the limb count only, never the value: key components may be secret.
/// - The limbs are zeroized on drop.
///
/// ```
/// use redc::rsa::BoxedUint;
///
/// let e = BoxedUint::from_be_bytes(&[0x01, 0x00, 0x01]);
/// assert_eq!(e, BoxedUint::from_u64(65537));
/// assert_eq!((e.bits(), e.is_odd()), (17, true));
/// assert_eq!(&e.to_be_bytes()[..], &[0x01, 0x00, 0x01]);
/// assert_eq!(&e.to_be_bytes_padded(4).unwrap()[..], &[0, 0x01, 0x00, 0x01]);
/// assert_eq!(format!("{e:?}"), "BoxedUint { limbs: 1, .. }"); // never the value
/// ```
#[derive(Clone)]
pub struct BoxedUint {
    limbs: Vec<u64>,
}

impl BoxedUint {
    /// The value of the big-endian `bytes` (leading zeros allowed; empty means 0). The limb
    /// count is `⌈len/8⌉` (at least 1): it depends only on the length of `bytes`.
    pub fn from_be_bytes(bytes: &[u8]) -> Self {
        let len = nat::limbs_for_bits(bytes.len() * 8, 64).max(1);
        let mut limbs = vec![0u64; len];
        // Cannot fail: `len` limbs hold `bytes.len()` bytes.
        let fits = nat::from_be_bytes(&mut limbs, bytes);
        debug_assert!(fits);
        BoxedUint { limbs }
    }

    /// The value `x` in one limb.
    pub fn from_u64(x: u64) -> Self {
        BoxedUint { limbs: vec![x] }
    }

    /// The value of little-endian limbs (copied, announced length kept).
    pub fn from_limbs(limbs: &[u64]) -> Self {
        let mut v = limbs.to_vec();
        if v.is_empty() {
            v.push(0);
        }
        BoxedUint { limbs: v }
    }

    /// The little-endian limbs, of the announced length (high limbs may be zero).
    pub fn as_limbs(&self) -> &[u64] {
        &self.limbs
    }

    /// The minimal big-endian encoding (no leading zero bytes; `[0]` for zero).
    ///
    /// Leaks the value's byte length through the output length (and timing): use it for
    /// encoding keys, where the DER `INTEGER` form leaks the same.
    pub fn to_be_bytes(&self) -> Zeroizing<Vec<u8>> {
        let bytes = self.to_be_bytes_padded_unchecked(self.limbs.len() * 8);
        let skip = bytes
            .iter()
            .position(|&b| b != 0)
            .unwrap_or(bytes.len() - 1);
        Zeroizing::new(bytes[skip..].to_vec())
    }

    /// The big-endian encoding in exactly `len` bytes (left-padded with zeros), or `None` if
    /// the value does not fit. Constant time in the value except for the final fit check.
    pub fn to_be_bytes_padded(&self, len: usize) -> Option<Zeroizing<Vec<u8>>> {
        let mut out = Zeroizing::new(vec![0u8; len]);
        if nat::to_be_bytes(&self.limbs, &mut out) {
            Some(out)
        } else {
            None
        }
    }

    fn to_be_bytes_padded_unchecked(&self, len: usize) -> Zeroizing<Vec<u8>> {
        let mut out = Zeroizing::new(vec![0u8; len]);
        let _ = nat::to_be_bytes(&self.limbs, &mut out);
        out
    }

    /// Number of significant bits (0 for zero). Variable time: leaks the bit length, which is
    /// public for `n`, `e` and the primes' sizes.
    pub fn bits(&self) -> usize {
        nat::bit_len_vartime(&self.limbs)
    }

    /// Whether the value is odd (reads only the lowest bit).
    pub fn is_odd(&self) -> bool {
        self.limbs[0] & 1 == 1
    }

    /// A copy with leading zero limbs removed (at least one limb kept). Leaks the value's limb
    /// length: use on public values or where the length is public (primes of a known size).
    pub(crate) fn trimmed_limbs(&self) -> Vec<u64> {
        nat::trim_vartime(&self.limbs).to_vec()
    }
}

impl From<u64> for BoxedUint {
    fn from(x: u64) -> Self {
        BoxedUint::from_u64(x)
    }
}

impl ConstantTimeEq for BoxedUint {
    /// Constant time in the values; the shorter number is zero-extended (leaks only lengths).
    fn ct_eq(&self, other: &Self) -> Choice {
        let len = self.limbs.len().max(other.limbs.len());
        let mut acc = 0u64;
        for i in 0..len {
            let a = self.limbs.get(i).copied().unwrap_or(0);
            let b = other.limbs.get(i).copied().unwrap_or(0);
            acc |= a ^ b;
        }
        acc.ct_eq(&0)
    }
}

impl PartialEq for BoxedUint {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}

impl Eq for BoxedUint {}

impl fmt::Debug for BoxedUint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The value may be a secret key component: print only the public limb count.
        f.debug_struct("BoxedUint")
            .field("limbs", &self.limbs.len())
            .finish_non_exhaustive()
    }
}

impl Zeroize for BoxedUint {
    fn zeroize(&mut self) {
        self.limbs.zeroize();
    }
}

impl Drop for BoxedUint {
    fn drop(&mut self) {
        self.limbs.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip() {
        let x = BoxedUint::from_be_bytes(&[0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(x.as_limbs(), &[0x0203_0405_0607_0809, 0x01]);
        assert_eq!(&x.to_be_bytes()[..], &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(x.bits(), 65);
        assert_eq!(
            &x.to_be_bytes_padded(10).unwrap()[..],
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        );
        assert!(x.to_be_bytes_padded(8).is_none());
        assert_eq!(BoxedUint::from_be_bytes(&[]), BoxedUint::from_u64(0));
        assert_eq!(&BoxedUint::from_u64(0).to_be_bytes()[..], &[0]);
        assert_eq!(
            BoxedUint::from_u64(5),
            BoxedUint::from_be_bytes(&[0; 20][..19]).clone_plus(5)
        );
        assert_eq!(alloc::format!("{:?}", x), "BoxedUint { limbs: 2, .. }");
    }

    impl BoxedUint {
        fn clone_plus(&self, k: u64) -> Self {
            let mut v = self.limbs.clone();
            v[0] += k;
            BoxedUint { limbs: v }
        }
    }
}
