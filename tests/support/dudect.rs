//! The statistics of the dudect-style timing tests (Reparaz, Balasch,
//! Verbauwhede, "Dude, is my code constant time?"): two classes of inputs
//! timed in random interleaved order, the slowest samples cropped
//! (interrupts), Welch's t of the two distributions. |t| above 4.5 would be
//! evidence of a leak.

/// Welch's t of two samples.
pub fn welch_t(a: &[f64], b: &[f64]) -> f64 {
    let stats = |x: &[f64]| {
        let n = x.len() as f64;
        let mean = x.iter().sum::<f64>() / n;
        let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (mean, var, n)
    };
    let (ma, va, na) = stats(a);
    let (mb, vb, nb) = stats(b);
    (ma - mb) / (va / na + vb / nb).sqrt()
}

/// Drops the slowest `fraction` of the samples (pre-emption, interrupts).
pub fn crop(mut x: Vec<f64>, fraction: f64) -> Vec<f64> {
    x.sort_by(f64::total_cmp);
    x.truncate(((1.0 - fraction) * x.len() as f64) as usize);
    x
}

/// Welch's t of the two classes after cropping the slowest 5 % of each.
pub fn cropped_t(low: Vec<f64>, high: Vec<f64>) -> f64 {
    welch_t(&crop(low, 0.05), &crop(high, 0.05))
}

/// Calls `run(class_high, pick)` again and again for about `seconds`, the
/// class of each call drawn at random (`pick`: more random bits for its
/// input); `run` returns the time of the operation alone (its input is
/// prepared outside the timing). Returns Welch's t of the two classes
/// (cropped) and the number of samples.
pub fn sample(
    seconds: f64,
    state: &mut u64,
    mut run: impl FnMut(bool, u64) -> f64,
) -> (f64, usize) {
    let (mut low, mut high) = (Vec::new(), Vec::new());
    let start = std::time::Instant::now();
    while start.elapsed().as_secs_f64() < seconds {
        let pick = next(state);
        let class_high = pick & 1 == 1;
        let elapsed = run(class_high, pick >> 1);
        if class_high {
            high.push(elapsed);
        } else {
            low.push(elapsed);
        }
    }
    let samples = low.len() + high.len();
    (cropped_t(low, high), samples)
}

/// SplitMix64: test data only.
pub fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The sampling time per case: `DUDECT_SECONDS`, default 20.
pub fn seconds() -> f64 {
    std::env::var("DUDECT_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20.0)
}
