//! Criterion benches of the Montgomery kernels: every algorithm and squaring variant, per size.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use redc::mont::{Algorithm, Kernel, Modulus, SqrVariant};

fn modulus(bits: usize) -> Modulus<u64> {
    // 2^bits − 1 is odd and has every limb in use: a fair worst case for the carry chains.
    let limbs = vec![u64::MAX; bits / 64];
    Modulus::new(&limbs).expect("odd modulus")
}

fn bench_mul(c: &mut Criterion) {
    let mut g = c.benchmark_group("mont_mul");
    for bits in [1024usize, 2048, 4096] {
        let m = modulus(bits);
        let a: Vec<u64> = (0..m.limbs() as u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        let b: Vec<u64> = a.iter().map(|x| x.rotate_left(17)).collect();
        let mut out = vec![0u64; m.limbs()];
        let mut scratch = m.scratch();
        for algo in Algorithm::ALL {
            let k = Kernel::<u64>::portable(algo, SqrVariant::Generic);
            g.bench_with_input(BenchmarkId::new(algo.name(), bits), &bits, |bch, _| {
                bch.iter(|| {
                    (k.mul)(
                        &mut out,
                        black_box(&a),
                        black_box(&b),
                        m.n(),
                        m.n0(),
                        &mut scratch,
                    )
                })
            });
        }
        for v in SqrVariant::ALL {
            let k = Kernel::<u64>::portable(Algorithm::Cios, v);
            g.bench_with_input(
                BenchmarkId::new(format!("sqr-{}", v.name()), bits),
                &bits,
                |bch, _| bch.iter(|| (k.sqr)(&mut out, black_box(&a), m.n(), m.n0(), &mut scratch)),
            );
        }
    }
    g.finish();
}

criterion_group!(benches, bench_mul);
criterion_main!(benches);
