//! What a speed run ran on, for its header and its chart: figures differ
//! by CPU (up to 2x between machines of one kind), so a chart that does
//! not name its machine and date cannot be compared with anything.

use std::time::{SystemTime, UNIX_EPOCH};

/// One line naming the CPU, its logical CPU count and whether it has the
/// AVX-512 IFMA that the `ifma` backend needs (else whether it has the
/// AVX2 of the `avx2` one), e.g. `AMD EPYC (family 25, model 17), 2
/// logical CPUs, AVX-512 IFMA` or `…, no AVX-512 IFMA, AVX2`.
pub fn description() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        cpuinfo.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            (key.trim() == name).then(|| value.trim().to_string())
        })
    };
    let model_name = field("model name").unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let family_and_model = match (field("cpu family"), field("model")) {
        (Some(family), Some(model)) => format!(" (family {family}, model {model})"),
        _ => String::new(),
    };
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let has = |flag: &str| field("flags").is_some_and(|flags| flags.split(' ').any(|f| f == flag));
    format!(
        "{model_name}{family_and_model}, {cpus} logical CPU{}, {}",
        if cpus == 1 { "" } else { "s" },
        match (has("avx512ifma"), has("avx2")) {
            (true, _) => "AVX-512 IFMA",
            (false, true) => "no AVX-512 IFMA, AVX2",
            (false, false) => "no AVX-512 IFMA, no AVX2",
        }
    )
}

/// Today's date in UTC, `YYYY-MM-DD`.
pub fn today() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_date(seconds / 86_400);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The proleptic Gregorian date of day `days` since 1970-01-01 (Howard
/// Hinnant's `civil_from_days`, for days on or after the epoch): counted
/// in 400-year eras of 146,097 days from 0000-03-01, so that the leap day
/// ends each year.
fn civil_date(days: u64) -> (u64, u64, u64) {
    let shifted = days + 719_468; // days from 0000-03-01 to 1970-01-01
    let era = shifted / 146_097;
    let day_of_era = shifted % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = era * 400 + year_of_era + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::civil_date;

    #[test]
    fn civil_dates_of_known_days() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(59), (1970, 3, 1));
        assert_eq!(civil_date(10_956), (1999, 12, 31));
        assert_eq!(civil_date(11_016), (2000, 2, 29)); // a leap day of a 400-year
        assert_eq!(civil_date(11_017), (2000, 3, 1));
        assert_eq!(civil_date(47_540), (2100, 2, 28)); // 2100 is not a leap year
        assert_eq!(civil_date(47_541), (2100, 3, 1));
        assert_eq!(civil_date(20_789), (2026, 12, 2));
    }
}
