//! `oblivex` command-line tool: the speed runs of the README's main job.
//!
//! ```text
//! oblivex speed [modexp|oprf|threshold|dkg] [--json] [--svg FILE] [--seconds S] [--bits B,..] [--n N,..]
//! oblivex version
//! ```

mod anchors;
mod crypto_mb;
mod dkg;
mod machine;
mod modexp;
mod oprf;
mod report;
mod svg;
mod threshold;
mod timing;

use std::process::ExitCode;

const USAGE: &str = "\
usage: oblivex speed [modexp|oprf|threshold|dkg] [--json] [--svg FILE] [--seconds S]
                    [--bits B1,B2,...] [--n N1,N2,...]
       oblivex version
       oblivex --help

speed modexp   constant-time exponentiations per second per modulus size and
               backend (default sizes 1024,2048,3072,4096), beside OpenSSL's
               BN_mod_exp_mont_consttime(_x2) and GMP's mpz_powm_sec when
               libcrypto.so.3 and libgmp.so.10 are installed, and Intel
               crypto_mb's mbx_exp{1024,2048,3072,4096}_mb8 when it is
               installed (its results checked against oblivex's)
speed oprf     the batch OPRF with the malicious-server check against the
               semi-honest OPRF and the VOPRF proof, server and client µs per
               element, per suite and batch size (default n = 1,16,256,1024,
               and 4096 for ristretto255; the slow suites stop at 1024 or 256
               unless --n is given), then the ristretto255, P-256 and
               FFDHE-2048 servers per backend, beside Intel crypto_mb's
               mbx_x25519_mb8 and mbx_nistp256_ecdh_mb8 when it is installed
speed threshold  threshold blind BLS (batch check vs a pairing per share)
               and threshold OPRF client costs (default n = 1,64,1024)
speed dkg      the distributed key generation and its refresh on ristretto255,
               3 of 5 and 5 of 9: one party's time per round and bytes sent
speed          all four
Figures are medians of runs sharing about S seconds (default 1) each.
crypto_mb is installed when OBLIVEX_CRYPTO_MB names its library, or
libcrypto_mb.so is on the loader's path (scripts/install-crypto-mb DIR, then
LD_LIBRARY_PATH=DIR/lib).
--json prints one JSON line per figure; --svg FILE also draws the
exponentiation and OPRF figures as bar charts in FILE.";

struct Options {
    json: bool,
    /// `--svg FILE`: where to draw the figures.
    svg: Option<std::path::PathBuf>,
    /// `--n` was given: every suite runs every batch size.
    ns_given: bool,
    seconds: f64,
    bits: Vec<usize>,
    ns: Vec<usize>,
}

fn list(value: &str) -> Result<Vec<usize>, String> {
    value
        .split(',')
        .map(|b| {
            b.trim()
                .parse::<usize>()
                .map_err(|_| format!("bad number: {b}"))
        })
        .collect()
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        json: false,
        svg: None,
        ns_given: false,
        seconds: 1.0,
        bits: vec![1024, 2048, 3072, 4096],
        ns: vec![1, 16, 256, 1024, 4096],
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().cloned().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--json" => options.json = true,
            "--svg" => options.svg = Some(value("--svg")?.into()),
            "--seconds" => {
                let v = value("--seconds")?;
                options.seconds = v.parse().map_err(|_| format!("bad --seconds value: {v}"))?;
            }
            "--bits" => options.bits = list(&value("--bits")?)?,
            "--n" => {
                options.ns = list(&value("--n")?)?;
                options.ns_given = true;
            }
            other => return Err(format!("unknown option: {other}")),
        }
    }
    if options
        .bits
        .iter()
        .any(|&b| !(2..=oblivex::mp::MAX_MODULUS_BITS).contains(&b))
    {
        return Err("sizes must be between 2 and 8192 bits".into());
    }
    if options.ns.iter().any(|&n| !(1..=65535).contains(&n)) {
        return Err("batch sizes must be between 1 and 65535".into());
    }
    Ok(options)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty()
        || args
            .iter()
            .any(|a| matches!(a.as_str(), "--help" | "-h" | "help"))
    {
        println!("{USAGE}");
        return if args.is_empty() {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        };
    }
    let (what, rest) = match args.first().map(String::as_str) {
        Some("speed") => match args.get(1).map(String::as_str) {
            Some(w @ ("modexp" | "oprf" | "threshold" | "dkg")) => (w, &args[2..]),
            // Internal: one server figure for `speed oprf`'s per-backend
            // comparison, in a child process.
            Some("server") => ("server", &args[2..]),
            _ => ("all", &args[1..]),
        },
        Some("version") => {
            println!("{}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let (suite, rest) = match (what, rest) {
        ("server", [suite, rest @ ..]) => (suite.as_str(), rest),
        _ => ("", rest),
    };
    let options = match parse(rest) {
        Ok(o) => o,
        Err(message) => {
            eprintln!("oblivex speed: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    // A backend forced by name (`OBLIVEX_BACKEND`) that this CPU cannot
    // run, or a name no backend has (or no AVX2 tuning profile, for
    // `OBLIVEX_AVX2_PROFILE`), is refused before anything runs: the curves
    // would otherwise run their portable paths and the tables print them
    // under the forced name.
    let backend = match oblivex::Backend::selected() {
        Ok(backend) => backend,
        Err(error) => {
            let forced = |name: &str| std::env::var_os(name).unwrap_or_default();
            eprintln!(
                "oblivex speed: {}={:?}, {}={:?}: {error}",
                oblivex::BACKEND_ENV,
                forced(oblivex::BACKEND_ENV),
                oblivex::AVX2_PROFILE_ENV,
                forced(oblivex::AVX2_PROFILE_ENV),
            );
            return ExitCode::from(2);
        }
    };
    if what == "server" {
        let n = options.ns.first().copied().unwrap_or(256);
        return match oprf::server_us_per_element(suite, n, options.seconds) {
            Some(us) => {
                println!("{us}");
                ExitCode::SUCCESS
            }
            None => {
                eprintln!("oblivex speed server: unknown suite {suite:?}");
                ExitCode::from(2)
            }
        };
    }
    let title = format!(
        "oblivex {}, arithmetic backend {}",
        env!("CARGO_PKG_VERSION"),
        backend.name()
    );
    let machine = format!("drawn on {}, {}", machine::today(), machine::description());
    if !options.json {
        println!("{title}\n{machine}");
    }
    // A path that cannot be written is refused now, not after the run.
    if let Some(path) = &options.svg {
        if let Err(error) = std::fs::File::create(path) {
            eprintln!("oblivex speed: cannot write {}: {error}", path.display());
            return ExitCode::from(2);
        }
    }
    let mut report = report::Report::default();
    if what == "all" || what == "modexp" {
        modexp::speed(&options.bits, options.seconds, options.json, &mut report);
    }
    if what == "all" || what == "oprf" {
        oprf::speed(
            &options.ns,
            options.ns_given,
            options.seconds,
            options.json,
            &mut report,
        );
    }
    if what == "all" || what == "threshold" {
        let ns = if options.ns_given {
            options.ns.clone()
        } else {
            vec![1, 64, 1024]
        };
        threshold::speed(&ns, options.seconds, options.json);
    }
    if what == "all" || what == "dkg" {
        dkg::speed(options.seconds, options.json);
    }
    if let Some(path) = &options.svg {
        let picture = svg::render(&title, &machine, &svg::charts(&report));
        if let Err(error) = std::fs::write(path, picture) {
            eprintln!("oblivex speed: cannot write {}: {error}", path.display());
            return ExitCode::FAILURE;
        }
        if !options.json {
            println!("charts written to {}", path.display());
        }
    }
    ExitCode::SUCCESS
}

/// Why a backend's row has no figure: this CPU cannot run it.
fn not_run_here(backend: oblivex::Backend) -> String {
    format!("not run: this CPU has no {}", backend.requirement())
}
