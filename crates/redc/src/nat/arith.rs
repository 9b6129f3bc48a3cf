//! Set-up arithmetic for RSA keys (variable-length limb vectors, below the RSA layer): products, remainders, gcd, lcm and inverses over limb vectors.
//!
//! Nothing here runs per private operation (the blinding code's fresh pairs, four at a time
//! once every 128 blinded operations, use [`inv_mod_odd_vartime`] and [`random_between`],
//! which Miller–Rabin also draws its bases with). The functions without a suffix are
//! constant time in the values (they build on [`nat::mul`] and the bitwise [`nat::div_rem`])
//! and may see secrets; they leak only the announced lengths of their inputs (and, where they
//! trim a divisor, its limb length, which for RSA primes is the public key size). The
//! `_vartime` functions branch on values: they serve key generation (gcd/lcm of `rᵢ − 1`, the
//! inverse of `λ mod e` modulo the odd `e`), where FIPS 186-5 permits it and the candidates
//! that leak are discarded or are functions of data an attacker never observes the timing of in
//! isolation, and the blinding code's inversion of a product of two fresh random numbers.

use alloc::vec;
use alloc::vec::Vec;
use core::cmp::Ordering;

use rand_core::CryptoRngCore;
use zeroize::Zeroizing;

use crate::nat;

/// `out` = a uniformly random number with `lo < out < hi` (all three of `out.len()` limbs,
/// `1 ≤ bits ≤ 64·out.len()`, `hi ≤ 2^bits`), by rejection sampling: `bits`-bit draws from
/// `rng` (big-endian bytes, the excess top bits cleared) until one lands in range. The range
/// tests are constant time, so the only thing that shows is whether a draw was rejected, and a
/// rejected draw is discarded. [`RngFailed`] after `tries` draws out of range (or if `rng`
/// fails).
pub(crate) fn random_between(
    rng: &mut (impl CryptoRngCore + ?Sized),
    out: &mut [u64],
    lo: &[u64],
    hi: &[u64],
    bits: usize,
    tries: u32,
) -> Result<(), RngFailed> {
    debug_assert!(bits >= 1 && bits <= 64 * out.len());
    let mut bytes = Zeroizing::new(vec![0u8; bits.div_ceil(8)]);
    let excess = bytes.len() * 8 - bits;
    for _ in 0..tries {
        rng.try_fill_bytes(&mut bytes).map_err(|_| RngFailed)?;
        bytes[0] &= 0xff >> excess;
        let _ = nat::from_be_bytes(out, &bytes);
        if bool::from(nat::ct_lt(lo, out) & nat::ct_lt(out, hi)) {
            return Ok(());
        }
    }
    Err(RngFailed)
}

/// The generator failed, or gave no draw in range within the tries allowed
/// ([`random_between`]); the RSA layer reports it as its `Error::Rng`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RngFailed;

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

/// `x⁻¹ mod n` (`n.len()` limbs) for an odd `n > 1` and any `x` (reduced modulo `n` first
/// unless it is already below `n` in `n.len()` limbs), or `None` when `gcd(x, n) ≠ 1` or `n` is
/// even: the binary extended Euclidean algorithm in Pornin's word-batched form
/// ("Optimized Binary GCD for Modular Inversion", IACR ePrint 2020/972, algorithm 2).
///
/// With `a = x`, `b = n` and the invariants `a ≡ u·x`, `b ≡ v·x (mod n)`, each outer step runs
/// 31 binary-GCD steps on 64-bit approximations of `a` and `b` (their low 31 bits and top 33
/// bits), which decide the same subtractions and halvings as the full values would for those
/// low bits, and records them as a matrix of small signed factors; the full `a`, `b` are then
/// updated once (`(f·a + g·b)/2³¹`, negated if negative) and `u`, `v` likewise modulo `n`
/// (division by `2³¹` by Montgomery's trick). When `a` reaches 0, `b = gcd(x, n)` and, if it is
/// 1, `v = x⁻¹`.
///
/// Variable time in `x` and `n`: only for values whose timing tells an attacker nothing (the
/// blinding code inverts, modulo the public `n`, the product of two fresh random numbers; key
/// generation inverts `λ mod e` modulo the public exponent).
pub(crate) fn inv_mod_odd_vartime(x: &[u64], n: &[u64]) -> Option<Vec<u64>> {
    let s = n.len();
    if s == 0 || n[0] & 1 == 0 {
        return None;
    }
    let reduced;
    let x = if x.len() == s && cmp_vartime(x, n) == Ordering::Less {
        x
    } else {
        let mut r = rem(x, n);
        r.resize(s, 0);
        reduced = Zeroizing::new(r);
        &reduced[..]
    };
    // −n⁻¹ mod 2³¹, for dividing u and v by 2³¹ modulo n.
    let n31 = crate::mont::neg_inv(n[0]) & LOW31;
    // a and b carry a spare top limb: |f·a + g·b|/2³¹ can reach n's bit length.
    let mut a = Zeroizing::new(x.to_vec());
    a.push(0);
    let mut b = Zeroizing::new(n.to_vec());
    b.push(0);
    let mut u = Zeroizing::new(vec![0u64; s + 1]);
    u[0] = 1;
    let mut v = Zeroizing::new(vec![0u64; s + 1]);
    let mut n_ext = n.to_vec();
    n_ext.push(0);
    // The next a, b, u, v (swapped in after each step).
    let mut na = Zeroizing::new(vec![0u64; s + 1]);
    let mut nb = Zeroizing::new(vec![0u64; s + 1]);
    let mut nu = Zeroizing::new(vec![0u64; s + 1]);
    let mut nv = Zeroizing::new(vec![0u64; s + 1]);
    // Each outer step removes at least 31 bits from a·b (Pornin, §3), which starts below
    // 2^(2·64·s); two steps of margin.
    for _ in 0..(2 * 64 * s).div_ceil(31) + 2 {
        if is_zero_vartime(&a) {
            break;
        }
        // The approximations: bits [len−33, len) above the low 31 bits, with len the larger
        // bit length (at least 64, where they are exact).
        let len = nat::bit_len_vartime(&a)
            .max(nat::bit_len_vartime(&b))
            .max(64);
        let approx = |w: &[u64]| -> u64 {
            let p = len - 33;
            let (i, sh) = (p / 64, p % 64);
            let mut top = w[i] >> sh;
            if sh > 31 && i + 1 < w.len() {
                top |= w[i + 1] << (64 - sh);
            }
            ((top & ((1 << 33) - 1)) << 31) | (w[0] & LOW31)
        };
        let (mut xa, mut xb) = (approx(&a), approx(&b));
        // 2^j·a_j = f0·a + g0·b, 2^j·b_j = f1·a + g1·b.
        let (mut f0, mut g0, mut f1, mut g1) = (1i64, 0i64, 0i64, 1i64);
        // Without branches: on random values each decision is a coin toss, which a branch
        // predictor loses half the time (about a third of the inversion's time went there).
        for _ in 0..31 {
            // odd: all ones when xa is odd; swap: all ones when it is odd and below xb.
            let odd = (xa & 1).wrapping_neg();
            let swap = u64::from(xa < xb).wrapping_neg() & odd;
            let t = (xa ^ xb) & swap;
            (xa, xb) = (xa ^ t, xb ^ t);
            let t = (f0 ^ f1) & swap as i64;
            (f0, f1) = (f0 ^ t, f1 ^ t);
            let t = (g0 ^ g1) & swap as i64;
            (g0, g1) = (g0 ^ t, g1 ^ t);
            xa = xa.wrapping_sub(xb & odd);
            f0 = f0.wrapping_sub(f1 & odd as i64);
            g0 = g0.wrapping_sub(g1 & odd as i64);
            xa >>= 1;
            f1 <<= 1;
            g1 <<= 1;
        }
        if combine_shift31(&mut na, &a, &b, f0, g0) {
            (f0, g0) = (-f0, -g0);
        }
        if combine_shift31(&mut nb, &a, &b, f1, g1) {
            (f1, g1) = (-f1, -g1);
        }
        core::mem::swap(&mut a, &mut na);
        core::mem::swap(&mut b, &mut nb);
        combine_mod(&mut nu, &u, &v, f0, g0, &n_ext, n31);
        combine_mod(&mut nv, &u, &v, f1, g1, &n_ext, n31);
        core::mem::swap(&mut u, &mut nu);
        core::mem::swap(&mut v, &mut nv);
    }
    if is_zero_vartime(&a) && is_one(&b) {
        Some(v[..s].to_vec())
    } else {
        None
    }
}

/// `2³¹ − 1`.
const LOW31: u64 = (1 << 31) - 1;

/// `out = |f·a + g·b| / 2³¹` (exact); returns whether `f·a + g·b` was negative. `a`, `b`,
/// `out` of one length with a zero top limb in `a` and `b`, `|f|, |g| ≤ 2³¹`.
fn combine_shift31(out: &mut [u64], a: &[u64], b: &[u64], f: i64, g: i64) -> bool {
    let mut carry: i128 = 0;
    for (o, (&x, &y)) in out.iter_mut().zip(a.iter().zip(b)) {
        let acc = x as i128 * f as i128 + y as i128 * g as i128 + carry;
        *o = acc as u64;
        carry = acc >> 64;
    }
    shift31_signed(out, carry)
}

/// `out = (f·u + g·v)·2⁻³¹ mod n` in `[0, n)` for `u, v < n` and `|f|, |g| ≤ 2³¹`, all of
/// `n_ext`'s length (`n` with a zero top limb): adds `k·n` with `k = (f·u + g·v)·(−n⁻¹) mod
/// 2³¹` (`n31` is `−n⁻¹ mod 2³¹`), which makes the sum divisible by `2³¹`, divides, and
/// brings the result (in `(−3n, 3n)`) into range.
fn combine_mod(out: &mut [u64], u: &[u64], v: &[u64], f: i64, g: i64, n_ext: &[u64], n31: u64) {
    let low = (u[0] as i128 * f as i128 + v[0] as i128 * g as i128) as u64;
    let k = low.wrapping_mul(n31) & LOW31;
    let mut carry: i128 = 0;
    for i in 0..out.len() {
        let acc = u[i] as i128 * f as i128
            + v[i] as i128 * g as i128
            + n_ext[i] as i128 * k as i128
            + carry;
        out[i] = acc as u64;
        carry = acc >> 64;
    }
    if shift31_signed(out, carry) {
        // out holds |value| < 3n and value = −out: the result is n − (out mod n).
        while cmp_vartime(out, n_ext) == Ordering::Greater {
            nat::sub_assign(out, n_ext);
        }
        // out ← n − out, as −(out − n).
        nat::sub_assign(out, n_ext);
        negate(out);
    }
    while cmp_vartime(out, n_ext) != Ordering::Less {
        nat::sub_assign(out, n_ext);
    }
}

/// Shifts the signed number `out + top·2^(64·len)` right by 31 (exactly divisible) in place,
/// leaving its magnitude; returns whether it was negative.
fn shift31_signed(out: &mut [u64], top: i128) -> bool {
    let len = out.len();
    let top_word = top as u64;
    for i in 0..len {
        let next = if i + 1 < len { out[i + 1] } else { top_word };
        out[i] = (out[i] >> 31) | (next << 33);
    }
    let neg = top < 0;
    if neg {
        // The magnitude fits, the top limb having room.
        negate(out);
    }
    neg
}

/// `x ← −x` in two's complement over `x.len()` limbs.
fn negate(x: &mut [u64]) {
    let mut c = 1u64;
    for w in x.iter_mut() {
        let (v, o) = (!*w).overflowing_add(c);
        *w = v;
        c = o as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_rng::constant;

    #[test]
    fn random_between_stays_strictly_inside_and_reaches_every_value() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        // 1 < x < 6 from 3-bit draws: 2, 3, 4, 5, each about a quarter of the time.
        let mut seen = [0u32; 8];
        for _ in 0..400 {
            let mut x = [0u64; 2];
            random_between(&mut rng, &mut x, &[1, 0], &[6, 0], 3, 100).unwrap();
            assert_eq!(x[1], 0);
            seen[x[0] as usize] += 1;
        }
        assert_eq!(seen[..2], [0, 0]);
        assert_eq!(seen[6..], [0, 0]);
        assert!(seen[2..6].iter().all(|&c| c > 50), "{seen:?}");
        // A range in the top limb, drawn from 70 bits (the excess top bits of byte 0 cleared).
        let hi = [0, 1 << 5];
        for _ in 0..50 {
            let mut x = [0u64; 2];
            random_between(&mut rng, &mut x, &[0, 0], &hi, 70, 100).unwrap();
            assert!(cmp_vartime(&x, &hi) == Ordering::Less && x != [0, 0]);
        }
    }

    #[test]
    fn random_between_gives_up_on_a_generator_that_never_lands() {
        // All-ones draws are 7 with 3 bits, never below 6; with 8 bits from 0x01 bytes, 1 is
        // never above 1.
        let mut x = [0u64; 1];
        assert_eq!(
            random_between(&mut constant(0xff), &mut x, &[1], &[6], 3, 10),
            Err(RngFailed)
        );
        assert_eq!(
            random_between(&mut constant(0x01), &mut x, &[1], &[6], 8, 10),
            Err(RngFailed)
        );
        random_between(&mut constant(0x03), &mut x, &[1], &[6], 8, 1).unwrap();
        assert_eq!(x, [3]);
    }

    #[test]
    fn gcd_lcm_inverse() {
        assert_eq!(gcd_vartime(&[12], &[18]), vec![6]);
        assert_eq!(gcd_vartime(&[0, 1], &[6]), vec![2]);
        assert_eq!(gcd_vartime(&[17], &[0]), vec![17]);
        assert_eq!(lcm_vartime(&[4], &[6]), vec![12]);
        assert_eq!(lcm_vartime(&[1 << 63], &[6]), vec![1 << 63, 1]);
        assert_eq!(inv_mod_odd_vartime(&[3], &[7]), Some(vec![5]));
        assert_eq!(inv_mod_odd_vartime(&[4], &[8]), None);
        assert_eq!(
            inv_mod_odd_vartime(&[10, 5], &[65537]).map(|v| v.len()),
            Some(1)
        );
        let inv = inv_mod_odd_vartime(&[123456789], &[1_000_000_007]).unwrap()[0] as u128;
        assert_eq!(inv * 123456789 % 1_000_000_007, 1);
        assert_eq!(div(&[0, 1], &[2]), vec![1 << 63, 0]);
        let mut x = vec![0u64, 1];
        shr_vartime(&mut x, 1);
        assert_eq!(x, vec![1 << 63, 0]);
    }

    #[test]
    fn binary_inverse_matches_the_definition() {
        use num_bigint::{BigUint, RandBigInt};
        use rand::{Rng, SeedableRng};
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
        for s in [1usize, 2, 3, 5, 16, 32, 64] {
            for round in 0..40 {
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
            // Lopsided sizes: x and n of any bit length (n may have zero top limbs), x a power
            // of two or 2^k ± 1 (long runs of halvings or of subtractions), n = 2^k ± 1.
            for round in 0..60 {
                let nbits = rng.gen_range(2..64 * s as u64 + 1);
                let n = match round % 3 {
                    0 => (BigUint::from(1u8) << nbits) - 1u8,
                    1 => (BigUint::from(1u8) << (nbits - 1)) + 1u8,
                    _ => {
                        rng.gen_biguint(nbits)
                            | BigUint::from(1u8)
                            | (BigUint::from(1u8) << (nbits - 1))
                    }
                };
                let k = rng.gen_range(0..(n.bits() - 1).max(1));
                let x = match round % 4 {
                    0 => BigUint::from(1u8) << k,
                    1 => (BigUint::from(1u8) << k) + 1u8,
                    2 => (BigUint::from(1u8) << (k + 1)) - 1u8,
                    _ => rng.gen_biguint_below(&n),
                };
                let got = inv_mod_odd_vartime(&limbs(&x, s), &limbs(&n, s));
                match x.modinv(&n) {
                    Some(inv) => assert_eq!(got, Some(limbs(&inv, s)), "s {s} n {n} x {x}"),
                    None => assert_eq!(got, None, "s {s} n {n} x {x}"),
                }
            }
            // A composite modulus and a multiple of one of its factors: no inverse.
            if s >= 2 {
                let half = (64 * s / 2) as u64;
                let p =
                    rng.gen_biguint(half) | BigUint::from(1u8) | (BigUint::from(1u8) << (half - 1));
                let q =
                    rng.gen_biguint(half) | BigUint::from(1u8) | (BigUint::from(1u8) << (half - 1));
                let n = &p * &q;
                let x = &p * rng.gen_biguint_below(&q);
                if n.bits() as usize <= 64 * s && x > BigUint::from(0u8) {
                    assert_eq!(
                        inv_mod_odd_vartime(&limbs(&x, s), &limbs(&n, s)),
                        None,
                        "s {s}"
                    );
                }
            }
        }
    }
}
