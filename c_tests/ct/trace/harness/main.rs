//! The harness of the constant-time trace check (`c_tests/ct/trace`, ctest
//! `ct_trace`): one measured call of the library on secrets per run, for
//! `ct_trace` to single-step.
//!
//! ```text
//! ct_trace_harness --list             # every case and its number of runs
//! ct_trace_harness CASE RUN           # one run (ct_trace appends RUN)
//! ```
//!
//! A run builds every secret variant of its case (the same code and
//! allocations whichever variant it is), keeps the one its RUN tries
//! ([`variants::variant_of_run`]; run 0 is the reference the others are compared with), runs the call
//! once on fixed warm-up secrets (lazy statics, caches and allocator state
//! settle outside the region), then makes the call again between the
//! region's marks (`marks.rs`), and last checks the result against another
//! path of the library, exiting non-zero if it is wrong. Inside the region
//! nothing depends on the variant but the secrets' values: randomness
//! comes from [`variants::PatternRng`], whose code is the same for every
//! pattern.
//!
//! It runs on the backend `OBLIVEX_BACKEND` names, which `ct_trace`'s
//! script sets: `ifma` for every case (the AVX-512 paths valgrind cannot
//! run), `avx2` for the exponentiation cases and those of the suites whose
//! engines run on AVX2 (P-256, ristretto255).

mod cases;
mod marks;
mod variants;

use std::process::ExitCode;

use oblivex::mp::Backend;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [flag] if flag == "--list" => {
            for case in cases::ALL {
                println!("{} {}", case.name, case.runs);
            }
            ExitCode::SUCCESS
        }
        [name, run] => {
            let Some(case) = cases::ALL.iter().find(|c| c.name == name) else {
                eprintln!("ct_trace_harness: no case {name} (--list lists them)");
                return ExitCode::from(2);
            };
            let Some(run) = run.parse().ok().filter(|&r| r < case.runs) else {
                eprintln!("ct_trace_harness: {name} has runs 0..{}", case.runs);
                return ExitCode::from(2);
            };
            let variant = variants::variant_of_run(case.runs, run);
            if let Err(e) = Backend::selected() {
                eprintln!("ct_trace_harness: {e} ({})", oblivex::mp::BACKEND_ENV);
                return ExitCode::from(2);
            }
            match (case.run)(variant) {
                Ok(()) => ExitCode::SUCCESS,
                Err(why) => {
                    eprintln!("ct_trace_harness: {name} variant {variant}: {why}");
                    ExitCode::FAILURE
                }
            }
        }
        _ => {
            eprintln!("usage: ct_trace_harness --list | CASE RUN");
            ExitCode::from(2)
        }
    }
}
