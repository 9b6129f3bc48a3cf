//! Which fixed window is fastest here? Times the constant-time fixed-window exponentiation
//! (`redc::exp::fixed::pow`, on the backend `REDC_BACKEND` selects) at the CRT prime sizes of
//! 1024- to 4096-bit keys, for windows 3 to 7, with the exponent as long as the modulus.
//!
//! The windows take turns in short chunks (so a noisy neighbour slows them alike) and the
//! report gives, per window, the fastest chunk and the median chunk, with the window
//! `window_for_bits` picks marked. A last line per size gives the two costs that model
//! trades: ns per limb of the masked table scan (`select_entry` over 32 entries) and ns per
//! word product of a Montgomery multiplication (`2·s²` of them). Run it pinned to one core:
//!
//! ```text
//! taskset -c 1 cargo run --release -p redc --example pow_windows [ROUNDS]
//! ```

use std::hint::black_box;
use std::time::Instant;

use redc::exp::fixed::{pow, select_entry, window_for_bits};
use redc::mont::backend::Backend;
use redc::mont::Modulus;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rounds: usize = match std::env::args().nth(1) {
        Some(r) => r.parse()?,
        None => 40,
    };
    let backend = Backend::active()?;
    let kernel = backend.kernel()?;
    println!(
        "backend {}, {rounds} rounds, µs per exponentiation",
        kernel.name()
    );
    for limbs in [8usize, 16, 24, 32] {
        // An odd modulus with its top bit set, a base below it, an exponent of full length.
        let mut n: Vec<u64> = (0..limbs as u64)
            .map(|i| (i + 3).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        n[0] |= 1;
        n[limbs - 1] |= 1 << 63;
        let m = Modulus::new(&n)?;
        let base: Vec<u64> = n.iter().map(|x| x.rotate_left(17) >> 1).collect();
        let exp: Vec<u8> = (0..limbs * 8).map(|i| (i * 37 + 11) as u8).collect();
        let mut out = vec![0u64; limbs];

        let windows = 3..=7u32;
        let reps = (3000 / limbs).max(1);
        let mut chunks: Vec<Vec<f64>> = windows.clone().map(|_| Vec::new()).collect();
        for _ in 0..rounds {
            for (w, times) in windows.clone().zip(chunks.iter_mut()) {
                let start = Instant::now();
                for _ in 0..reps {
                    pow(&mut out, black_box(&base), &exp, &m, &kernel, w);
                }
                times.push(start.elapsed().as_secs_f64() * 1e6 / reps as f64);
            }
        }
        let picked = window_for_bits(limbs * 64);
        print!("{:4}-bit modulus:", limbs * 64);
        for (w, times) in windows.zip(chunks.iter_mut()) {
            times.sort_by(f64::total_cmp);
            let mark = if w == picked { "*" } else { " " };
            print!(
                "  w{w}{mark} min {:7.1} med {:7.1}",
                times[0],
                times[times.len() / 2]
            );
        }
        println!();

        // The model's two unit costs, best chunk of each.
        let entries = 32usize;
        let table: Vec<u64> = (0..(entries * limbs) as u64)
            .map(|i| i.wrapping_mul(3))
            .collect();
        let (mut scan, mut product) = (f64::MAX, f64::MAX);
        let mut scratch = m.scratch();
        let reps = 1000;
        for _ in 0..rounds {
            let start = Instant::now();
            for i in 0..reps {
                select_entry(&mut out, black_box(&table), (i % entries) as u32);
            }
            scan = scan.min(start.elapsed().as_secs_f64() * 1e9 / (reps * entries * limbs) as f64);
            let start = Instant::now();
            for _ in 0..reps {
                (kernel.mul())(
                    &mut out,
                    black_box(&base),
                    &base,
                    m.n(),
                    m.n0(),
                    &mut scratch,
                );
            }
            product = product
                .min(start.elapsed().as_secs_f64() * 1e9 / (reps * 2 * limbs * limbs) as f64);
        }
        println!(
            "{:>16}  scan {scan:.3} ns/limb, multiplication {product:.3} ns/word product (ratio {:.1})",
            "",
            product / scan
        );
    }
    Ok(())
}
