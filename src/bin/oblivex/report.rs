//! What a speed run measured, kept for the chart (`--svg FILE`).

/// One exponentiation figure: an implementation at one modulus size.
pub struct ModexpFigure {
    pub bits: usize,
    pub implementation: String,
    pub us_per_exp: f64,
}

/// One OPRF figure: a protocol on one suite and batch size, server and
/// client microseconds per input element.
pub struct OprfFigure {
    pub suite: &'static str,
    pub n: usize,
    pub protocol: &'static str,
    pub server_us: f64,
    pub client_us: f64,
}

/// Every figure of a run, in the order measured.
#[derive(Default)]
pub struct Report {
    pub modexp: Vec<ModexpFigure>,
    pub oprf: Vec<OprfFigure>,
}

impl Report {
    pub fn modexp(&mut self, bits: usize, implementation: &str, us_per_exp: f64) {
        self.modexp.push(ModexpFigure {
            bits,
            implementation: implementation.to_string(),
            us_per_exp,
        });
    }

    pub fn oprf(&mut self, figure: OprfFigure) {
        self.oprf.push(figure);
    }
}
