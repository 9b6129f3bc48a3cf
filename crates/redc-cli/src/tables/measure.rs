//! Timing (median of repeated runs over `Instant`) and the benchmark operands.

use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use redc::mont::Modulus;
use redc::nat;
use redc::word::Word;

/// How long to measure one figure.
///
/// Many short runs rather than a few long ones: on a shared machine a short run often escapes
/// preemption entirely, and the median of many runs then ignores the ones that did not.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Target duration of one timed run (a batch of calls).
    pub window: Duration,
    /// Timed runs at least (slow operations get this many single-call runs).
    pub min_reps: usize,
    /// Timed runs at most.
    pub max_reps: usize,
    /// Target total time of the timed runs of one figure (between the two bounds above).
    pub total: Duration,
}

/// Figures measured so far, and how many of them fell back to on-CPU time (see
/// [`per_call_ns`]); the report states both.
pub static FIGURES: AtomicUsize = AtomicUsize::new(0);
/// See [`FIGURES`].
pub static ON_CPU_FALLBACKS: AtomicUsize = AtomicUsize::new(0);

/// This thread's run-queue wait so far in ns (`/proc/thread-self/schedstat`, Linux), if known.
fn queue_wait_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().nth(1)?.parse().ok()
}

/// Median time of one call of `f`, in nanoseconds.
///
/// The batch size is calibrated so that a run lasts about `window` (an operation slower than
/// the window runs once per run); as many runs as fit in `total` (within `min_reps` and
/// `max_reps`) are timed with [`Instant`]. On Linux each run also reads how long the thread
/// waited in the scheduler's run queue during it: runs another process interrupted are
/// dropped and the median of the undisturbed ones is returned. When too few runs are
/// undisturbed (a loaded machine and a slow operation), the median of `wall − wait` over all
/// runs (the time actually spent on the CPU) is returned instead, and counted in
/// [`ON_CPU_FALLBACKS`].
pub fn per_call_ns<F: FnMut()>(budget: &Budget, mut f: F) -> f64 {
    let window = budget.window.as_secs_f64().max(1e-6);
    // (wall ns per call, run-queue wait ns per call or None if unknown).
    let mut samples: Vec<(f64, Option<f64>)> = Vec::new();
    let timed = |iters: u64, f: &mut F| {
        let w0 = queue_wait_ns();
        let t = Instant::now();
        for _ in 0..iters {
            f();
        }
        let e = t.elapsed().as_secs_f64() * 1e9;
        let wait = match (w0, queue_wait_ns()) {
            (Some(a), Some(b)) => Some(b.saturating_sub(a) as f64 / iters as f64),
            _ => None,
        };
        (e / iters as f64, wait)
    };
    // Calibrate (and warm up): double the batch until it takes a quarter of the window.
    let mut iters: u64 = 1;
    let (batch, run_s) = loop {
        let (per, wait) = timed(iters, &mut f);
        let e = per * iters as f64 / 1e9;
        if e >= window {
            // Already a full window: keep it as the first sample.
            samples.push((per, wait));
            break (iters, e);
        }
        if e >= window / 4.0 || iters >= 1 << 40 {
            let per_s = (per - wait.unwrap_or(0.0)).max(0.1) / 1e9;
            let batch = ((window / per_s) as u64).max(1);
            break (batch, per_s * batch as f64);
        }
        iters *= 2;
    };
    let fit = (budget.total.as_secs_f64() / run_s.max(1e-9)) as usize;
    let reps = fit.clamp(budget.min_reps.max(1), budget.max_reps.max(1));
    while samples.len() < reps {
        samples.push(timed(batch, &mut f));
    }
    FIGURES.fetch_add(1, Ordering::Relaxed);
    let mut clean: Vec<f64> = samples
        .iter()
        .filter(|(per, wait)| !matches!(wait, Some(w) if *w > per * 0.002))
        .map(|s| s.0)
        .collect();
    if clean.len() >= 3.max(samples.len() / 4) {
        return median(&mut clean);
    }
    ON_CPU_FALLBACKS.fetch_add(1, Ordering::Relaxed);
    let mut on_cpu: Vec<f64> = samples
        .iter()
        .map(|(per, wait)| (per - wait.unwrap_or(0.0)).max(per * 0.01))
        .collect();
    median(&mut on_cpu)
}

/// The median (mean of the two middle values for an even count).
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n == 0 {
        return 0.0;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// SplitMix64: reproducible operands (benchmarks need no cryptographic randomness).
pub struct Rng(u64);

impl Rng {
    /// A generator for one table; the same seed gives the same operands in every run.
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A random number of exactly `bits` bits (top bit set), big-endian, `ceil(bits/8)` bytes.
    pub fn exact_bits(&mut self, bits: usize) -> Vec<u8> {
        let len = bits.div_ceil(8);
        let mut v: Vec<u8> = (0..len).map(|_| self.next_u64() as u8).collect();
        let top = bits - (len - 1) * 8; // bits used in v[0], 1..=8
        v[0] &= (0xffu16 >> (8 - top)) as u8;
        v[0] |= 1 << (top - 1);
        v
    }

    /// An odd modulus of exactly `bits` bits, big-endian.
    pub fn odd_modulus(&mut self, bits: usize) -> Vec<u8> {
        let mut v = self.exact_bits(bits);
        if let Some(last) = v.last_mut() {
            *last |= 1;
        }
        v
    }

    /// A random number below `2^(bits-1)`, hence below any `bits`-bit modulus.
    pub fn below(&mut self, bits: usize) -> Vec<u8> {
        let mut v = self.exact_bits(bits);
        let top = bits - (v.len() - 1) * 8;
        v[0] &= !(1u8 << (top - 1));
        v
    }
}

/// A `bits`-bit odd modulus and two operands below it, in `W` limbs.
pub struct Operands<W: Word> {
    /// The modulus with its Montgomery constants.
    pub m: Modulus<W>,
    /// First operand (`< n`, `s` limbs).
    pub a: Vec<W>,
    /// Second operand (`< n`, `s` limbs).
    pub b: Vec<W>,
}

impl<W: Word> Operands<W> {
    /// Operands from big-endian bytes (so 32- and 64-bit runs can share the same numbers).
    pub fn from_bytes(n: &[u8], a: &[u8], b: &[u8]) -> Result<Self, String> {
        let m = Modulus::<W>::from_be_bytes(n).map_err(|e| format!("modulus: {e:?}"))?;
        let s = m.limbs();
        let a = nat::from_be_bytes_vec::<W>(a, s).ok_or("operand a too long")?;
        let b = nat::from_be_bytes_vec::<W>(b, s).ok_or("operand b too long")?;
        Ok(Operands { m, a, b })
    }

    /// Fresh random operands of `bits` bits.
    pub fn random(rng: &mut Rng, bits: usize) -> Result<Self, String> {
        let n = rng.odd_modulus(bits);
        let a = rng.below(bits);
        let b = rng.below(bits);
        Self::from_bytes(&n, &a, &b)
    }
}

/// Median ns of one `mul(out, a, b, n, n0, scratch)`; each call's output is the next call's
/// `a`, so calls depend on each other as in an exponentiation.
pub fn mul_ns<W: Word>(budget: &Budget, ops: &Operands<W>, mul: redc::mont::MulFn<W>) -> f64 {
    let m = &ops.m;
    let mut acc = ops.a.clone();
    let mut out = vec![W::ZERO; m.limbs()];
    let mut scratch = m.scratch();
    per_call_ns(budget, || {
        mul(
            black_box(&mut out),
            black_box(&acc),
            black_box(&ops.b),
            m.n(),
            m.n0(),
            &mut scratch,
        );
        std::mem::swap(&mut acc, &mut out);
    })
}

/// Median ns of one `sqr(out, a, n, n0, scratch)`, chained like [`mul_ns`].
pub fn sqr_ns<W: Word>(budget: &Budget, ops: &Operands<W>, sqr: redc::mont::SqrFn<W>) -> f64 {
    let m = &ops.m;
    let mut acc = ops.a.clone();
    let mut out = vec![W::ZERO; m.limbs()];
    let mut scratch = m.scratch();
    per_call_ns(budget, || {
        sqr(
            black_box(&mut out),
            black_box(&acc),
            m.n(),
            m.n0(),
            &mut scratch,
        );
        std::mem::swap(&mut acc, &mut out);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_odd_and_even() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
    }

    #[test]
    fn operand_sizes() {
        let mut rng = Rng::new(1);
        for bits in [9, 64, 352, 512, 1023] {
            let n = rng.odd_modulus(bits);
            assert_eq!(n.len(), bits.div_ceil(8));
            let lead = n[0].leading_zeros() as usize;
            assert_eq!(n.len() * 8 - lead, bits, "exact bit length");
            assert_eq!(n[n.len() - 1] & 1, 1);
            let a = rng.below(bits);
            assert!(a < n, "below the modulus");
        }
    }

    #[test]
    fn timing_is_positive() {
        let b = Budget {
            window: Duration::from_micros(200),
            min_reps: 3,
            max_reps: 5,
            total: Duration::from_millis(1),
        };
        let mut x = 0u64;
        let ns = per_call_ns(&b, || x = black_box(x.wrapping_add(1)));
        assert!(ns > 0.0 && ns.is_finite());
    }
}
