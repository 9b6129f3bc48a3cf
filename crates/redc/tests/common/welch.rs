//! Welch's t statistic, shared by the timing gate (`tests/ct_dudect.rs`) and the Marvin-style
//! harness (`benches/marvin.rs`, which includes this file by path).

/// Welch's t statistic of two samples (each of at least two values).
pub fn welch(a: &[f64], b: &[f64]) -> f64 {
    let stats = |x: &[f64]| {
        let n = x.len() as f64;
        let m = x.iter().sum::<f64>() / n;
        let v = x.iter().map(|y| (y - m) * (y - m)).sum::<f64>() / (n - 1.0);
        (n, m, v)
    };
    let (na, ma, va) = stats(a);
    let (nb, mb, vb) = stats(b);
    (ma - mb) / (va / na + vb / nb).sqrt()
}
