//! Wycheproof's primality vectors (Carmichael numbers, strong pseudoprimes to fixed bases,
//! negatives, ...) against `rsa::prime::is_probable_prime_vartime`.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use redc::rsa::prime::is_probable_prime_vartime;
use wycheproof::primality::{TestName, TestSet};
use wycheproof::TestResult;

#[test]
fn wycheproof_primality() {
    let set = TestSet::load(TestName::Primality).expect("primality vectors");
    let mut rng = ChaCha20Rng::seed_from_u64(0x5eed);
    let (mut valid, mut invalid) = (0, 0);
    for group in &set.test_groups {
        for t in &group.tests {
            let bytes: &[u8] = &t.value;
            // The values are two's complement: a set top bit is a negative number, never prime.
            let negative = bytes.first().is_some_and(|&b| b & 0x80 != 0);
            let prime = !negative && is_probable_prime_vartime(bytes, 24, &mut rng);
            match t.result {
                TestResult::Valid => {
                    assert!(prime, "tc {}: {} should be prime", t.tc_id, t.comment);
                    valid += 1;
                }
                TestResult::Invalid => {
                    assert!(!prime, "tc {}: {} should be composite", t.tc_id, t.comment);
                    invalid += 1;
                }
                TestResult::Acceptable => {}
            }
        }
    }
    assert!(
        valid > 10 && invalid > 10,
        "{valid} valid, {invalid} invalid"
    );
}
