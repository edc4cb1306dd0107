//! `oblivex` command-line tool.
//!
//! `oblivex speed [--json] [--seconds S] [--bits 1024,2048,...]` measures
//! constant-time batch exponentiation (full-length random exponents, one
//! core) on every backend this CPU runs and prints exponentiations per second
//! per modulus size.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use oblivex::mp::{Backend, MontContext};

const USAGE: &str = "\
usage: oblivex speed [--json] [--seconds S] [--bits B1,B2,...]
       oblivex version

speed    exponentiations per second per modulus size and backend
         (default sizes 1024,2048,3072,4096; about S seconds each, default 1;
         median of 5 runs)";

/// Benchmark inputs only (not a cryptographic generator): SplitMix64.
struct TestData(u64);

impl TestData {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

struct SpeedOptions {
    json: bool,
    seconds: f64,
    sizes: Vec<usize>,
}

fn parse_speed(args: &[String]) -> Result<SpeedOptions, String> {
    let mut options = SpeedOptions {
        json: false,
        seconds: 1.0,
        sizes: vec![1024, 2048, 3072, 4096],
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--json" => options.json = true,
            "--seconds" => {
                let value = args.next().ok_or("--seconds needs a value")?;
                options.seconds = value
                    .parse()
                    .map_err(|_| format!("bad --seconds value: {value}"))?;
            }
            "--bits" => {
                let value = args.next().ok_or("--bits needs a value")?;
                options.sizes = value
                    .split(',')
                    .map(|b| {
                        b.trim()
                            .parse::<usize>()
                            .map_err(|_| format!("bad size: {b}"))
                    })
                    .collect::<Result<_, _>>()?;
                if options
                    .sizes
                    .iter()
                    .any(|&b| !(2..=oblivex::mp::MAX_MODULUS_BITS).contains(&b))
                {
                    return Err("sizes must be between 2 and 8192 bits".into());
                }
            }
            other => return Err(format!("unknown option: {other}")),
        }
    }
    Ok(options)
}

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

/// Microseconds per exponentiation of `bits`-bit operands on `backend`: the
/// median of 5 timed runs sharing `seconds` (this machine's timings vary
/// from run to run; the median is what `c_tests/bench_modexp` reports too).
fn measure(backend: Backend, bits: usize, seconds: f64) -> f64 {
    let mut data = TestData(bits as u64);
    let ctx = MontContext::new(&random_modulus(&mut data, bits)).expect("valid modulus");
    let len = ctx.modulus_len();
    let batch = 16; // two groups of 8 lanes on the IFMA backend
    let bases = data.bytes(batch * len);
    let exponents = data.bytes(batch * len);
    let mut out = vec![0u8; batch * len];
    let mut run = || {
        ctx.mod_exp_batch_on(backend, &bases, len, &exponents, len, &mut out)
            .expect("valid batch");
    };
    run(); // warm-up
    let budget = Duration::from_secs_f64(seconds / RUNS as f64);
    let mut timings: Vec<f64> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            let mut done = 0usize;
            while start.elapsed() < budget || done == 0 {
                run();
                done += batch;
            }
            start.elapsed().as_secs_f64() * 1e6 / done as f64
        })
        .collect();
    timings.sort_by(f64::total_cmp);
    timings[RUNS / 2]
}

/// Timed runs per measurement.
const RUNS: usize = 5;

fn speed(options: &SpeedOptions) {
    let backends: Vec<Backend> = Backend::ALL
        .iter()
        .copied()
        .filter(|b| b.is_available())
        .collect();
    if !options.json {
        println!(
            "oblivex {} — constant-time modular exponentiation, full-length exponents, one core",
            oblivex_version()
        );
        println!(
            "{:>6}  {:>9}  {:>12}  {:>10}",
            "bits", "backend", "exp/s", "µs/exp"
        );
    }
    for &bits in &options.sizes {
        for &backend in &backends {
            let us = measure(backend, bits, options.seconds);
            if options.json {
                println!(
                    "{{\"impl\":\"oblivex-{}\",\"bits\":{bits},\"us_per_op\":{us:.2},\"ops_per_s\":{:.1}}}",
                    backend.name(),
                    1e6 / us
                );
            } else {
                println!(
                    "{bits:>6}  {:>9}  {:>12.1}  {us:>10.2}",
                    backend.name(),
                    1e6 / us
                );
            }
        }
    }
}

fn oblivex_version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("speed") => match parse_speed(&args[1..]) {
            Ok(options) => {
                speed(&options);
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("oblivex speed: {message}\n{USAGE}");
                ExitCode::from(2)
            }
        },
        Some("version") => {
            println!("{}", oblivex_version());
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}
