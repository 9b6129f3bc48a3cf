//! CIOS and the constant-time fixed window against num-bigint (the foundation the RSA layer
//! stands on).

mod common;

use common::*;
use num_bigint::BigUint;
use rand::SeedableRng;
use redc::exp::fixed;
use redc::mont::{Algorithm, Kernel, Modulus, SqrVariant};
use redc::word::Word;

fn check<W: Word>(bits: u64, rng: &mut rand_chacha::ChaCha8Rng) {
    let mut moduli = edge_moduli(bits);
    moduli.push(random_modulus(rng, bits));
    for n in moduli {
        let s = limbs_needed::<W>(&n);
        let m = Modulus::<W>::new(&limbs::<W>(&n, s)).unwrap();
        let k = Kernel::<W>::portable(Algorithm::Cios, SqrVariant::Generic);
        let rinv = r_of::<W>(s).modinv(&n).unwrap();
        let ops = operands(rng, &n, 3);
        for a in &ops {
            for b in &ops {
                let got = big(&m.mont_mul(&limbs(a, s), &limbs(b, s), &k));
                assert_eq!(got, a * b * &rinv % &n, "cios {bits} bits");
            }
            let e = rand::Rng::gen::<[u8; 9]>(rng);
            for w in [1, 4, 5] {
                let mut out = vec![W::ZERO; s];
                fixed::pow(&mut out, &limbs(a, s), &e, &m, &k, w);
                assert_eq!(big(&out), a.modpow(&BigUint::from_bytes_be(&e), &n));
            }
            let mut out = vec![W::ZERO; s];
            fixed::pow(&mut out, &limbs(a, s), &[], &m, &k, 3);
            assert_eq!(big(&out), BigUint::from(1u32) % &n);
        }
    }
}

#[test]
fn cios_and_fixed_window_match_num_bigint() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    for &bits in SIZES.iter().filter(|&&b| b <= 2048) {
        check::<u32>(bits, &mut rng);
        check::<u64>(bits, &mut rng);
    }
}
