//! `oblivex speed modexp`: constant-time batch exponentiation per modulus
//! size and backend (full-length random exponents, one core), beside
//! OpenSSL and GMP on the same operands, and Intel's crypto_mb where it is
//! installed.

use oblivex::mp::MontContext;
use oblivex::Backend;

use crate::anchors;
use crate::crypto_mb::CryptoMb;
use crate::report::Report;
use crate::timing::{median_us_per_item, TestData};

/// A random odd modulus of exactly `bits` bits.
fn random_modulus(data: &mut TestData, bits: usize) -> Vec<u8> {
    let len = bits.div_ceil(8);
    let mut m = data.bytes(len);
    let top_bits = bits - 8 * (len - 1);
    m[0] &= 0xffu8 >> (8 - top_bits);
    m[0] |= 1 << (top_bits - 1);
    m[len - 1] |= 1;
    m
}

/// Microseconds per exponentiation of `bits`-bit operands on `backend`.
fn measure(backend: Backend, modulus: &[u8], data: &mut TestData, seconds: f64) -> f64 {
    let ctx = MontContext::new(modulus).expect("valid modulus");
    let len = ctx.modulus_len();
    let batch = 16; // two groups of 8 lanes on the IFMA backend
    let bases = data.bytes(batch * len);
    let exponents = data.bytes(batch * len);
    median_us_per_item(
        seconds,
        batch,
        || (),
        |()| {
            ctx.mod_exp_batch_on(backend, &bases, len, &exponents, len)
                .expect("valid batch");
        },
    )
}

/// crypto_mb's figure for `modulus`: 8 full-length exponentiations per
/// call, its results checked against oblivex's.
fn crypto_mb_us(
    library: Option<&CryptoMb>,
    modulus: &[u8],
    data: &mut TestData,
    seconds: f64,
) -> Result<f64, &'static str> {
    let library = library.ok_or("crypto_mb not installed (scripts/install-crypto-mb)")?;
    let len = modulus.len();
    let mut bases = data.bytes(8 * len);
    // Below the modulus, whose top bit is set, as crypto_mb requires.
    for base in bases.chunks_mut(len) {
        base[0] &= 0x7f;
    }
    let exponents = data.bytes(8 * len);
    let ctx = MontContext::new(modulus).expect("valid modulus");
    let expected = ctx
        .mod_exp_batch(&bases, len, &exponents, len)
        .expect("valid batch");
    library.exp_us(modulus, &bases, &exponents, &expected, seconds)
}

/// Prints the table (or JSON lines) for `sizes`, oblivex on every backend
/// (those this CPU cannot run named as such, with what they need), then the
/// anchors (OpenSSL, GMP, crypto_mb) with each
/// one's time over oblivex's fastest; records every figure in `report`.
pub fn speed(sizes: &[usize], seconds: f64, json: bool, report: &mut Report) {
    let backends = Backend::ALL;
    let crypto_mb = CryptoMb::load();
    if !json {
        println!("constant-time modular exponentiation, full-length exponents, one core (median of 5 runs)");
        println!(
            "{:>6}  {:>16}  {:>12}  {:>10}  {:>12}",
            "bits", "implementation", "exp/s", "µs/exp", "time/oblivex"
        );
    }
    for &bits in sizes {
        let mut data = TestData(bits as u64);
        let modulus = random_modulus(&mut data, bits);
        let mut figures: Vec<(String, Result<f64, String>)> = backends
            .iter()
            .map(|&b| {
                let name = format!("oblivex-{}", b.name());
                if !b.is_available() {
                    return (name, Err(crate::not_run_here(b)));
                }
                (name, Ok(measure(b, &modulus, &mut data, seconds)))
            })
            .collect();
        let fastest = figures
            .iter()
            .filter_map(|(_, us)| us.as_ref().ok().copied())
            .fold(f64::INFINITY, f64::min);
        figures.extend(
            anchors::measure(&modulus, &mut data, seconds)
                .into_iter()
                .map(|f| (f.name.to_string(), f.us.map_err(str::to_string))),
        );
        let crypto_mb_us = crypto_mb_us(crypto_mb.as_ref(), &modulus, &mut data, seconds);
        figures.push((
            "crypto_mb".to_string(),
            crypto_mb_us.map_err(str::to_string),
        ));
        for (name, us) in figures {
            match us {
                Ok(us) => {
                    report.modexp(bits, &name, us);
                    if json {
                        println!(
                            "{{\"impl\":\"{name}\",\"bits\":{bits},\"us_per_op\":{us:.2},\"ops_per_s\":{:.1},\"over_oblivex\":{:.3}}}",
                            1e6 / us,
                            us / fastest
                        );
                    } else {
                        println!(
                            "{bits:>6}  {name:>16}  {:>12.1}  {us:>10.2}  {:>12.2}",
                            1e6 / us,
                            us / fastest
                        );
                    }
                }
                Err(why) if !json => println!("{bits:>6}  {name:>16}  {why}"),
                Err(_) => {}
            }
        }
    }
}
