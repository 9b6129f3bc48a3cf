//! Set-up arithmetic for keys: products, remainders, gcd, lcm and inverses over limb vectors.
//!
//! Nothing here runs per private operation (the blinding code's fresh pair, once every 32
//! blinded operations, uses [`inv_mod_odd_vartime`]). The functions without a suffix are
//! constant time in the values (they build on [`nat::mul`] and the bitwise [`nat::div_rem`])
//! and may see secrets; they leak only the announced lengths of their inputs (and, where they trim a
//! divisor, its limb length, which for RSA primes is the public key size). The `_vartime`
//! functions branch on values: they serve key generation (gcd/lcm of `rᵢ − 1`, the inverse
//! of `λ mod e`), where FIPS 186-5 permits it and the candidates that leak are discarded or
//! are functions of data an attacker never observes the timing of in isolation, and the
//! blinding code's inversion of a product of two fresh random numbers.

use alloc::vec;
use alloc::vec::Vec;
use core::cmp::Ordering;

use crate::nat;
use zeroize::Zeroizing;

/// `a·b` (`a.len() + b.len()` limbs). Constant time.
pub(crate) fn mul(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = vec![0u64; a.len() + b.len()];
    nat::mul(&mut out, a, b);
    out
}

/// `x − k` for a one-limb `k ≤ x` (same length as `x`). Constant time.
pub(crate) fn sub_u64(x: &[u64], k: u64) -> Vec<u64> {
    let mut out = x.to_vec();
    nat::sub_assign(&mut out, &[k]);
    out
}

/// `x mod m` with `m.len()`-after-trimming limbs. `m` MUST be non-zero. Constant time in the
/// values (bitwise long division); leaks the limb length of `m`.
pub(crate) fn rem(x: &[u64], m: &[u64]) -> Vec<u64> {
    nat::rem(x, nat::trim_vartime(m))
}

/// `Choice`-free test of `x == 1` used on public outcomes of validation (the answer decides
/// whether a key is rejected). Constant time over `x`'s length.
pub(crate) fn is_one(x: &[u64]) -> bool {
    let mut acc = x[0] ^ 1;
    for &l in &x[1..] {
        acc |= l;
    }
    acc == 0
}

/// `a == b` for possibly different lengths (zero-extended), constant time in the values.
pub(crate) fn eq(a: &[u64], b: &[u64]) -> bool {
    let len = a.len().max(b.len());
    let mut acc = 0u64;
    for i in 0..len {
        acc |= a.get(i).copied().unwrap_or(0) ^ b.get(i).copied().unwrap_or(0);
    }
    acc == 0
}

/// Compares two numbers of any lengths. Variable time.
pub(crate) fn cmp_vartime(a: &[u64], b: &[u64]) -> Ordering {
    nat::cmp_vartime(a, b)
}

fn is_zero_vartime(x: &[u64]) -> bool {
    x.iter().all(|&l| l == 0)
}

fn trailing_zeros_vartime(x: &[u64]) -> usize {
    let mut tz = 0;
    for &l in x {
        if l == 0 {
            tz += 64;
        } else {
            return tz + l.trailing_zeros() as usize;
        }
    }
    tz
}

/// `x >> k` in place. Variable time in `k`.
pub(crate) fn shr_vartime(x: &mut [u64], k: usize) {
    let (words, bits) = (k / 64, (k % 64) as u32);
    let len = x.len();
    for i in 0..len {
        let lo = x.get(i + words).copied().unwrap_or(0);
        let hi = x.get(i + words + 1).copied().unwrap_or(0);
        x[i] = if bits == 0 {
            lo
        } else {
            (lo >> bits) | (hi << (64 - bits))
        };
    }
}

/// `x << k` into a vector with room for the result. Variable time in `k`.
fn shl_vartime(x: &[u64], k: usize) -> Vec<u64> {
    let (words, bits) = (k / 64, (k % 64) as u32);
    let mut out = vec![0u64; x.len() + words + 1];
    for (i, &l) in x.iter().enumerate() {
        out[i + words] |= l << bits;
        if bits != 0 {
            out[i + words + 1] |= l >> (64 - bits);
        }
    }
    out
}

/// `gcd(a, b)` by the binary (Stein) algorithm. Variable time.
pub(crate) fn gcd_vartime(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut a = nat::trim_vartime(a).to_vec();
    let mut b = nat::trim_vartime(b).to_vec();
    if is_zero_vartime(&a) {
        return b;
    }
    if is_zero_vartime(&b) {
        return a;
    }
    let len = a.len().max(b.len());
    a.resize(len, 0);
    b.resize(len, 0);
    let za = trailing_zeros_vartime(&a);
    let zb = trailing_zeros_vartime(&b);
    let shift = za.min(zb);
    shr_vartime(&mut a, za);
    loop {
        let zb = trailing_zeros_vartime(&b);
        shr_vartime(&mut b, zb);
        // Both odd now; subtract the smaller from the larger.
        if cmp_vartime(&a, &b) == Ordering::Greater {
            core::mem::swap(&mut a, &mut b);
        }
        nat::sub_assign(&mut b, &a);
        if is_zero_vartime(&b) {
            break;
        }
    }
    let out = shl_vartime(&a, shift);
    nat::trim_vartime(&out).to_vec()
}

/// `lcm(a, b) = a·b / gcd(a, b)`. `a, b > 0`. Variable time.
pub(crate) fn lcm_vartime(a: &[u64], b: &[u64]) -> Vec<u64> {
    let g = gcd_vartime(a, b);
    let (q, _) = nat::div_rem(&mul(nat::trim_vartime(a), nat::trim_vartime(b)), &g);
    nat::trim_vartime(&q).to_vec()
}

/// `x / d` (quotient) for a non-zero `d`. Constant time in the values (bitwise division),
/// leaks `d`'s limb length.
pub(crate) fn div(x: &[u64], d: &[u64]) -> Vec<u64> {
    nat::div_rem(x, nat::trim_vartime(d)).0
}

/// `(a − b) mod m` for `a, b < m` (all `m.len()` limbs).
fn sub_mod(a: &[u64], b: &[u64], m: &[u64]) -> Vec<u64> {
    let mut out = vec![0u64; m.len()];
    let borrow = nat::sub(&mut out, a, b);
    if borrow != 0 {
        nat::add_assign(&mut out, m);
    }
    out
}

/// `a⁻¹ mod m` by the extended Euclidean algorithm, or `None` if `gcd(a, m) ≠ 1`. `m > 1`.
///
/// Variable time (quotient sizes and the number of steps depend on the values): keygen only,
/// on numbers the size of the public exponent.
pub(crate) fn inv_mod_vartime(a: &[u64], m: &[u64]) -> Option<Vec<u64>> {
    let m = nat::trim_vartime(m).to_vec();
    let s = m.len();
    // Invariant: rᵢ ≡ sᵢ·a (mod m), with (r₀, r₁) = (m, a mod m) and (s₀, s₁) = (0, 1).
    let mut r0 = m.clone();
    let mut r1 = rem(a, &m);
    let mut s0 = vec![0u64; s];
    let mut s1 = vec![0u64; s];
    s1[0] = 1;
    while !is_zero_vartime(&r1) {
        let (q, r2) = nat::div_rem(&r0, nat::trim_vartime(&r1));
        let qs = rem(&mul(nat::trim_vartime(&q), &s1), &m);
        let s2 = sub_mod(&s0, &qs, &m);
        r0 = r1;
        r1 = r2;
        s0 = s1;
        s1 = s2;
    }
    if is_one(nat::trim_vartime(&r0)) {
        Some(s0)
    } else {
        None
    }
}

/// `x⁻¹ mod n` for an odd `n > 1` and `x < n` (both `n.len()` limbs), or `None` when
/// `gcd(x, n) ≠ 1`: the binary extended Euclidean algorithm (Knuth, TAOCP vol. 2, §4.5.2,
/// exercise 39), with the invariants `x₁·x ≡ u` and `x₂·x ≡ v (mod n)`.
///
/// Variable time in `x` and `n`: only for values whose timing tells an attacker nothing (the
/// blinding code inverts, modulo the public `n`, the product of two fresh random numbers).
/// About `2·bits(n)` steps of a few passes over `n.len()` limbs.
pub(crate) fn inv_mod_odd_vartime(x: &[u64], n: &[u64]) -> Option<Vec<u64>> {
    let s = n.len();
    if s == 0 || n[0] & 1 == 0 || x.len() != s {
        return None;
    }
    // The working values are zeroized when dropped (the blinding code's are random, but
    // nothing the library frees should hold them).
    let mut u = Zeroizing::new(x.to_vec());
    let mut v = Zeroizing::new(n.to_vec());
    let mut x1 = Zeroizing::new(vec![0u64; s]);
    x1[0] = 1;
    let mut x2 = Zeroizing::new(vec![0u64; s]);
    // a ← a/2^k mod n for a < n and 1 ≤ k ≤ 63: adding m·n with m = a·(−n⁻¹) mod 2^k
    // clears the low k bits (Montgomery's trick), and (a + m·n)/2^k < n.
    let n_inv = crate::mont::neg_inv(n[0]);
    let div_pow2 = |a: &mut [u64], k: u32| {
        let m = a[0].wrapping_mul(n_inv) & ((1u64 << k) - 1);
        let mut carry = 0u64;
        for (ai, &ni) in a.iter_mut().zip(n) {
            let t = *ai as u128 + m as u128 * ni as u128 + carry as u128;
            *ai = t as u64;
            carry = (t >> 64) as u64;
        }
        for i in 0..s {
            let next = if i + 1 < s { a[i + 1] } else { carry };
            a[i] = (a[i] >> k) | (next << (64 - k));
        }
    };
    // Strips the factors 2 of `w` (odd afterwards, or zero) and divides `a` by as many.
    let strip = |w: &mut [u64], a: &mut [u64]| {
        let mut tz = trailing_zeros_vartime(w);
        if tz == 0 || tz >= 64 * s {
            return;
        }
        shr_vartime(w, tz);
        while tz > 0 {
            let k = tz.min(63);
            div_pow2(a, k as u32);
            tz -= k;
        }
    };
    // a ← a − b mod n for a, b < n.
    let sub_mod = |a: &mut [u64], b: &[u64]| {
        if nat::sub_assign(a, b) != 0 {
            nat::add_assign(a, n);
        }
    };
    while !is_zero_vartime(&u) {
        strip(&mut u, &mut x1);
        strip(&mut v, &mut x2);
        if cmp_vartime(&u, &v) != Ordering::Less {
            nat::sub_assign(&mut u, &v);
            sub_mod(&mut x1, &x2);
        } else {
            nat::sub_assign(&mut v, &u);
            sub_mod(&mut x2, &x1);
        }
    }
    // u = 0 and v = gcd(x, n).
    if is_one(&v) {
        Some(x2.to_vec())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gcd_lcm_inverse() {
        assert_eq!(gcd_vartime(&[12], &[18]), vec![6]);
        assert_eq!(gcd_vartime(&[0, 1], &[6]), vec![2]);
        assert_eq!(gcd_vartime(&[17], &[0]), vec![17]);
        assert_eq!(lcm_vartime(&[4], &[6]), vec![12]);
        assert_eq!(lcm_vartime(&[1 << 63], &[6]), vec![1 << 63, 1]);
        assert_eq!(inv_mod_vartime(&[3], &[7]), Some(vec![5]));
        assert_eq!(inv_mod_vartime(&[4], &[8]), None);
        assert_eq!(
            inv_mod_vartime(&[10, 5], &[65537]).map(|v| v.len()),
            Some(1)
        );
        let inv = inv_mod_vartime(&[123456789], &[1_000_000_007]).unwrap()[0] as u128;
        assert_eq!(inv * 123456789 % 1_000_000_007, 1);
        assert_eq!(div(&[0, 1], &[2]), vec![1 << 63, 0]);
        let mut x = vec![0u64, 1];
        shr_vartime(&mut x, 1);
        assert_eq!(x, vec![1 << 63, 0]);
    }

    #[test]
    fn binary_inverse_matches_the_definition() {
        use num_bigint::{BigUint, RandBigInt};
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let limbs = |x: &BigUint, s: usize| {
            let mut v = x.to_u64_digits();
            v.resize(s, 0);
            v
        };
        assert_eq!(inv_mod_odd_vartime(&[3], &[7]), Some(vec![5]));
        assert_eq!(inv_mod_odd_vartime(&[0], &[7]), None);
        assert_eq!(inv_mod_odd_vartime(&[1], &[7]), Some(vec![1]));
        assert_eq!(inv_mod_odd_vartime(&[6], &[9]), None);
        assert_eq!(inv_mod_odd_vartime(&[3], &[8]), None, "even modulus");
        for s in [1usize, 2, 5, 16, 32] {
            for round in 0..20 {
                let top = BigUint::from(1u8) << (64 * s - 1);
                let n = if round == 0 {
                    (BigUint::from(1u8) << (64 * s)) - 1u8
                } else {
                    rng.gen_biguint((64 * s) as u64) | &top | BigUint::from(1u8)
                };
                let x = if round == 1 {
                    &n - 1u8
                } else {
                    rng.gen_biguint_below(&n)
                };
                let got = inv_mod_odd_vartime(&limbs(&x, s), &limbs(&n, s));
                let g = num_integer::Integer::gcd(&x, &n);
                if g == BigUint::from(1u8) {
                    let inv = BigUint::from_slice(
                        &got.expect("invertible")
                            .iter()
                            .flat_map(|&w| [w as u32, (w >> 32) as u32])
                            .collect::<Vec<_>>(),
                    );
                    assert!(inv < n);
                    assert_eq!(inv * &x % &n, BigUint::from(1u8), "s {s} round {round}");
                } else {
                    assert_eq!(got, None, "s {s} round {round}");
                }
            }
        }
    }
}
