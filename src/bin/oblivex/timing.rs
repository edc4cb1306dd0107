//! Timing and test data shared by the speed commands.

use std::time::{Duration, Instant};

/// Timed runs per measurement; the median is reported (this machine's
/// timings vary from run to run; `c_tests/bench_modexp` does the same).
pub const RUNS: usize = 5;

/// Microseconds per item of `run` (which processes `items` items and is
/// given fresh state by `prepare` before each call): the median of
/// [`RUNS`] runs sharing `seconds`.
pub fn median_us_per_item<S>(
    seconds: f64,
    items: usize,
    mut prepare: impl FnMut() -> S,
    mut run: impl FnMut(S),
) -> f64 {
    run(prepare()); // warm-up
    let budget = Duration::from_secs_f64(seconds / RUNS as f64);
    let timings: Vec<f64> = (0..RUNS)
        .map(|_| {
            let mut spent = Duration::ZERO;
            let mut done = 0usize;
            while spent < budget || done == 0 {
                let state = prepare();
                let start = Instant::now();
                run(state);
                spent += start.elapsed();
                done += items;
            }
            spent.as_secs_f64() * 1e6 / done as f64
        })
        .collect();
    median(timings)
}

/// The median of `values` (at least one).
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Benchmark inputs only (not a cryptographic generator): SplitMix64.
pub struct TestData(pub u64);

impl TestData {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}
