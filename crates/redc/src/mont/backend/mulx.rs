//! The x86-64 MULX/ADCX/ADOX backend (needs BMI2 and ADX).
//!
//! MULX multiplies without touching the flags, and ADCX/ADOX add with carry through CF and OF
//! only, so one row of a Montgomery product carries two independent chains (the low halves on
//! CF, the high halves on OF) while the multiplier runs ahead: Itoh's pipelined REDC and
//! Furukawa et al.'s enhancement (paper 002) in today's instructions.
//!
//! - The RSA prime sizes 6, 8, 11, 12, 16, 22, 24, 32, 48 and 64 limbs (the primes of 1024- to
//!   8192-bit keys with 2, 3 or 4 primes) have one `asm!` block per operation with the size
//!   fixed at compile time (`mulx_sized`): fully unrolled at 6 and 8 limbs, rows looped inside
//!   the block from 11 limbs up.
//! - Every other size runs the same rows as short `asm!` loops (`lea` and `jrcxz` keep CF and
//!   OF intact across iterations) driven from Rust.
//!
//! The sized kernels finish with an unrolled assembly copy of the masked final subtraction
//! (`mulx_sized::final_sub`), the looped ones with [`nat::final_sub`]; either way the output
//! is bit-identical to the portable kernels'. The kernel also carries the almost Montgomery
//! pair of `mont`'s contract (the same rows, finished by `mulx_sized::final_sub_almost` or
//! `finish_almost`: outputs `< R`), which the exponentiations loop on; at 8 limbs the kernel
//! finishes the almost form itself, from the registers of its reduction window.
//!
//! The assembly is only sound on CPUs with BMI2 and ADX: the kernel function pointers are
//! handed out only through [`kernel`], which needs a [`Token`], which only [`Token::get`] makes
//! after the CPU said so.

use super::mulx_sized as sized;

/// The limb counts with kernels of their own (unrolled or register-window forms); every other
/// count runs the looped rows. The one list the kernels and the dispatch are built from.
pub const SIZED_LIMBS: &[usize] = sized::SIZES;
use crate::mont::{scratch_len, Kernel};
use crate::nat;
use crate::word::Word;

/// Proof that this CPU supports BMI2 and ADX (ring's `(Adx, Bmi2)` token idea).
#[derive(Clone, Copy, Debug)]
pub struct Token(());

static DETECTED: super::Detected = super::Detected::new();

impl Token {
    /// The token if the CPU supports BMI2 and ADX. Asks the CPU once, then answers from a cache.
    pub fn get() -> Option<Token> {
        DETECTED.get(cpu_has_adx_bmi2).then_some(Token(()))
    }
}

#[cfg(feature = "std")]
fn cpu_has_adx_bmi2() -> bool {
    std::is_x86_feature_detected!("adx") && std::is_x86_feature_detected!("bmi2")
}

#[cfg(not(feature = "std"))]
#[allow(unused_unsafe)]
fn cpu_has_adx_bmi2() -> bool {
    use core::arch::x86_64::__cpuid_count;
    // SAFETY: CPUID exists on every x86-64 CPU; leaf 0 reports the highest leaf, and leaf 7 is
    // only read if present. (Newer Rust versions declare these functions safe.)
    unsafe {
        if __cpuid_count(0, 0).eax < 7 {
            return false;
        }
        let ebx = __cpuid_count(7, 0).ebx;
        // Leaf 7 sub-leaf 0, EBX bit 8: BMI2; bit 19: ADX.
        ebx & (1 << 8) != 0 && ebx & (1 << 19) != 0
    }
}

/// The MULX/ADCX/ADOX kernel; needs the [`Token`] proving the CPU can run it.
/// At 16 limbs it runs the form [`super::cpu::Forms::current`] names for this CPU
/// ([`super::cpu::Mulx16`]); every other size has one form.
pub fn kernel(_: Token) -> Kernel<u64> {
    match super::cpu::Forms::current().mulx16 {
        super::cpu::Mulx16::Rows => Kernel {
            mul: mont_mul::<false, false>,
            sqr: mont_sqr::<false, false>,
            name: "mulx",
            almost: Some((mont_mul::<true, false>, mont_sqr::<true, false>)),
            lanes: false,
        },
        super::cpu::Mulx16::Window => Kernel {
            mul: mont_mul::<false, true>,
            sqr: mont_sqr::<false, true>,
            name: "mulx",
            almost: Some((mont_mul::<true, true>, mont_sqr::<true, true>)),
            lanes: false,
        },
    }
}

/// Checks the kernel contract's lengths; a violation panics (it would otherwise let the
/// assembly read or write out of bounds). Returns `s`.
fn check(out: &[u64], a: &[u64], n: &[u64], scratch: &[u64]) -> usize {
    let s = n.len();
    assert!(s >= 1 && out.len() == s && a.len() == s && scratch.len() >= scratch_len(s));
    s
}

/// `out = a·b·R⁻¹ mod n` by SOS rows (product, then reduction); the kernel contract of
/// [`crate::mont`] (`ALMOST = false`), or its almost Montgomery form (`ALMOST = true`: inputs
/// and output `< R`). Only reachable through [`kernel`], i.e. on a CPU with BMI2 and ADX.
fn mont_mul<const ALMOST: bool, const WINDOW16: bool>(
    out: &mut [u64],
    a: &[u64],
    b: &[u64],
    n: &[u64],
    n0: u64,
    scratch: &mut [u64],
) {
    let s = check(out, a, n, scratch);
    assert_eq!(b.len(), s);
    let t = scratch.as_mut_ptr();
    let (a, b, np) = (a.as_ptr(), b.as_ptr(), n.as_ptr());
    let o = out.as_mut_ptr();
    // The sized kernels finish with the unrolled assembly final subtraction.
    macro_rules! sized_mul {
        ($f:ident, $s:literal) => {{
            let cy = sized::$f::<false>(t, a, b, np, n0, o);
            finish_sized::<$s, ALMOST>(o, t, cy, np);
            return;
        }};
        ($f:ident, $s:literal, inline) => {{
            sized_mul!($f, $s)
        }};
        // The register-window sizes finish the almost form inside the kernel.
        ($f:ident, $s:literal, window) => {{
            if ALMOST {
                sized::$f::<true>(t, a, b, np, n0, o);
                return;
            }
            sized_mul!($f, $s)
        }};
    }
    // SAFETY: this function is only handed out by `kernel`, whose `Token` proves BMI2 and ADX;
    // `check` proved out, a, b, n have s limbs and scratch at least 2s + 4 limbs (the sized
    // kernels use T[2s..2s+4) for spilled values; the looped ones need 2s + 1).
    let cy = unsafe {
        macro_rules! dispatch {
            ($(($s:literal, $mul:ident, $sqr:ident, $full:tt, $red:tt, $tri:tt),)*) => {
                match s {
                    16 if WINDOW16 => sized_mul!(mul16w, 16, window),
                    $($s => sized_mul!($mul, $s, $red),)*
                    _ => {
                        product_any(t, a, b, s);
                        reduce_any(t, np, n0, s)
                    }
                }
            };
        }
        sized::with_sizes!(dispatch)
    };
    finish::<ALMOST>(out, scratch, n, cy);
}

/// `out = a²·R⁻¹ mod n` by the dedicated squaring; the kernel contract of [`crate::mont`]
/// (or its almost form, as for [`mont_mul`]). Only reachable through [`kernel`].
fn mont_sqr<const ALMOST: bool, const WINDOW16: bool>(
    out: &mut [u64],
    a: &[u64],
    n: &[u64],
    n0: u64,
    scratch: &mut [u64],
) {
    let s = check(out, a, n, scratch);
    let t = scratch.as_mut_ptr();
    let (a, np) = (a.as_ptr(), n.as_ptr());
    let o = out.as_mut_ptr();
    macro_rules! sized_sqr {
        ($f:ident, $s:literal) => {{
            let cy = sized::$f::<false>(t, a, np, n0, o);
            finish_sized::<$s, ALMOST>(o, t, cy, np);
            return;
        }};
        ($f:ident, $s:literal, inline) => {{
            sized_sqr!($f, $s)
        }};
        ($f:ident, $s:literal, window) => {{
            if ALMOST {
                sized::$f::<true>(t, a, np, n0, o);
                return;
            }
            sized_sqr!($f, $s)
        }};
    }
    // SAFETY: as in `mont_mul`.
    let cy = unsafe {
        macro_rules! dispatch {
            ($(($s:literal, $mul:ident, $sqr:ident, $full:tt, $red:tt, $tri:tt),)*) => {
                match s {
                    16 if WINDOW16 => sized_sqr!(sqr16w, 16, window),
                    $($s => sized_sqr!($sqr, $s, $red),)*
                    _ => {
                        square_any(t, a, s);
                        reduce_any(t, np, n0, s)
                    }
                }
            };
        }
        sized::with_sizes!(dispatch)
    };
    finish::<ALMOST>(out, scratch, n, cy);
}

/// The sized kernels' final step in assembly: the full masked subtraction, or the almost
/// Montgomery one when `ALMOST`.
///
/// # Safety
/// As for `mulx_sized::final_sub`.
#[inline(always)]
unsafe fn finish_sized<const S: usize, const ALMOST: bool>(
    out: *mut u64,
    t: *const u64,
    cy: u64,
    n: *const u64,
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        if ALMOST {
            sized::final_sub_almost::<S>(out, t, cy, n);
        } else {
            sized::final_sub::<S>(out, t, cy, n);
        }
    }
}

/// The looped kernels' final step: [`finish_full`], or [`finish_almost`] when `ALMOST`.
fn finish<const ALMOST: bool>(out: &mut [u64], scratch: &mut [u64], n: &[u64], cy: u64) {
    if ALMOST {
        finish_almost(out, scratch, n, cy);
    } else {
        finish_full(out, scratch, n, cy);
    }
}

/// The final step: `u = T[s..2s] + cy·R < 2n`, `out = u − n` if that does not borrow, else `u`
/// (masked, [`nat::final_sub`]).
fn finish_full(out: &mut [u64], scratch: &mut [u64], n: &[u64], cy: u64) {
    let s = n.len();
    scratch[2 * s] = cy;
    nat::final_sub(out, &scratch[s..2 * s + 1], n);
}

/// The almost Montgomery final step: `out = T[s..2s] + cy·R − n` if `cy = 1`, else
/// `T[s..2s]`, as `out = T[s..2s] − (n & mask)` with `mask` all ones iff `cy = 1`: no branch,
/// the same addresses either way. (`cy = 1` means `u ≥ R`, and `u < R + n`, so the borrow
/// out of the top word cancels `cy` and `out < R`.)
fn finish_almost(out: &mut [u64], scratch: &[u64], n: &[u64], cy: u64) {
    let s = n.len();
    let mask = crate::ct::mask_from_bit(cy);
    let mut borrow = 0u64;
    for ((o, &u), &nj) in out.iter_mut().zip(&scratch[s..2 * s]).zip(n) {
        (*o, borrow) = u64::sbb(u, nj & mask, borrow);
    }
}

/// `t[0..=len] = v[0..len]·x`: one ADCX chain over `lo_j + hi_{j−1}`.
///
/// # Safety
/// BMI2 and ADX; `len ≥ 1`; `t` valid for `len + 1` writes and `v` for `len` reads.
unsafe fn mul1_any(t: *mut u64, v: *const u64, x: u64, len: usize) {
    // SAFETY: the caller guarantees the features and sizes; the loop index runs from −len
    // to 0 (exclusive) over the ends of both buffers; `lea` and `jrcxz` leave CF alone.
    unsafe {
        core::arch::asm!(
            "xor {hp:e}, {hp:e}",
            "2:",
            "mulx ({v}, %rcx, 8), {lo}, {hc}",
            "adcx {hp}, {lo}",
            "mov {lo}, ({t}, %rcx, 8)",
            "mov {hc}, {hp}",
            "lea 1(%rcx), %rcx",
            "jrcxz 3f",
            "jmp 2b",
            "3:",
            "adc $0, {hp}",
            "mov {hp}, ({t})",
            t = in(reg) t.add(len),
            v = in(reg) v.add(len),
            lo = out(reg) _,
            hc = out(reg) _,
            hp = out(reg) _,
            inout("rcx") len.wrapping_neg() => _,
            in("rdx") x,
            options(att_syntax, nostack),
        );
    }
}

/// `t[0..len] += v[0..len]·x`, returning the carry word (column `len`): the low halves on the
/// ADCX chain, the high halves on the ADOX chain.
///
/// # Safety
/// BMI2 and ADX; `len ≥ 1`; `t` valid for `len` reads and writes, `v` for `len` reads.
unsafe fn addmul_any(t: *mut u64, v: *const u64, x: u64, len: usize) -> u64 {
    let c: u64;
    // SAFETY: as in `mul1_any`; `lea`/`jrcxz`/`jmp`/`mov` keep CF and OF.
    unsafe {
        core::arch::asm!(
            "xor {z:e}, {z:e}",
            "mov ({t}, %rcx, 8), {hp}",
            "2:",
            "mulx ({v}, %rcx, 8), {lo}, {hc}",
            "adcx {lo}, {hp}",
            "mov {hp}, ({t}, %rcx, 8)",
            "lea 1(%rcx), %rcx",
            "jrcxz 3f",
            "adox ({t}, %rcx, 8), {hc}",
            "mov {hc}, {hp}",
            "jmp 2b",
            "3:",
            "adox {z}, {hc}",
            "adcx {z}, {hc}",
            t = in(reg) t.add(len),
            v = in(reg) v.add(len),
            lo = out(reg) _,
            hc = out(reg) c,
            hp = out(reg) _,
            z = out(reg) _,
            inout("rcx") len.wrapping_neg() => _,
            in("rdx") x,
            options(att_syntax, nostack),
        );
    }
    c
}

/// `T[0..2s] = a·b` by product rows (any `s ≥ 1`).
///
/// # Safety
/// BMI2 and ADX; `t` valid for `2s` writes, `a`, `b` for `s` reads.
unsafe fn product_any(t: *mut u64, a: *const u64, b: *const u64, s: usize) {
    // SAFETY: every row stays inside T[0..2s], a[0..s], b[0..s].
    unsafe {
        mul1_any(t, a, *b, s);
        for i in 1..s {
            let c = addmul_any(t.add(i), a, *b.add(i), s);
            *t.add(i + s) = c;
        }
    }
}

/// `T[0..2s] = a²` by the off-diagonal triangle, one doubling pass and the diagonal (any `s`).
///
/// # Safety
/// BMI2 and ADX; `t` valid for `2s` writes, `a` for `s` reads.
unsafe fn square_any(t: *mut u64, a: *const u64, s: usize) {
    // SAFETY: every row stays inside T[0..2s] and a[0..s] (row i covers T[2i+1..=i+s]).
    unsafe {
        *t = 0;
        *t.add(2 * s - 1) = 0;
        if s >= 2 {
            mul1_any(t.add(1), a.add(1), *a, s - 1);
        }
        for i in 1..s.saturating_sub(1) {
            let c = addmul_any(t.add(2 * i + 1), a.add(i + 1), *a.add(i), s - 1 - i);
            *t.add(i + s) = c;
        }
        // T = 2T + Σ a_k²·W^(2k), in portable Rust: a carry chain over u128.
        let mut carry = 0u128;
        for k in 0..s {
            let ak = *a.add(k) as u128;
            let sq = ak * ak;
            for (idx, part) in [(2 * k, sq as u64), (2 * k + 1, (sq >> 64) as u64)] {
                let x = *t.add(idx) as u128;
                let v = (x << 1) + part as u128 + carry;
                *t.add(idx) = v as u64;
                carry = v >> 64;
            }
        }
    }
}

/// The `s` reduction rows over `T[0..2s]`, returning the top carry bit (any `s`).
///
/// # Safety
/// BMI2 and ADX; `t` valid for `2s` reads and writes, `n` for `s` reads.
unsafe fn reduce_any(t: *mut u64, n: *const u64, n0: u64, s: usize) -> u64 {
    let mut cy = 0u64;
    // SAFETY: row i covers T[i..=i+s] ⊂ T[0..2s].
    unsafe {
        for i in 0..s {
            let m = (*t.add(i)).wrapping_mul(n0);
            let c = addmul_any(t.add(i), n, m, s);
            // T[i+s] + c + cy < 2W: one carry bit out.
            let (x, c1) = (*t.add(i + s)).overflowing_add(c);
            let (x, c2) = x.overflowing_add(cy);
            *t.add(i + s) = x;
            cy = (c1 as u64) + (c2 as u64);
        }
    }
    cy
}
