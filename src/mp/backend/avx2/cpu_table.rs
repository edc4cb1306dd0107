//! Which AVX2 tuning profile (`tuning.rs`) each CPU family runs, chosen at
//! run time from the CPU's CPUID vendor, family and model, with where each
//! row's choice comes from.

use super::super::cpu::{CpuRow, Provenance, Vendor};
use super::tuning::ProfileId;

/// The rows, most specific first; the last takes every CPU no other row
/// names. Zen 3 is measured, and Intel's Emerald Rapids with the backend
/// forced (it has IFMA); the other Golden Cove and Raptor Cove cores run
/// its profile unmeasured, as they share its vector ports. Every other
/// CPU runs Zen 3's choices until measured. To add a CPU: run
/// `avx2::timing::tuning_sweep` on it; if its winners differ from an
/// existing profile's, add a profile (`tuning.rs`), then a row here before
/// the last, naming the machine and date.
pub(super) const TABLE: &[CpuRow<ProfileId>] = &[
    CpuRow {
        name: "AMD Zen 3",
        // Family 25 is Zen 3 and Zen 4; Zen 3's models are 0x00–0x0f
        // (EPYC 7003), 0x20–0x2f (Ryzen 5000) and 0x40–0x5f (mobile and
        // APUs).
        matches: |cpu| {
            cpu.vendor == Vendor::Amd
                && cpu.family == 0x19
                && matches!(cpu.model, 0x00..=0x0f | 0x20..=0x2f | 0x40..=0x5f)
        },
        provenance: Provenance::Measured(
            "avx2::timing::tuning_sweep on an AMD EPYC (family 25, model 1), December 2026",
        ),
        profile: ProfileId::Zen3,
    },
    CpuRow {
        name: "Intel Emerald Rapids",
        matches: |cpu| cpu.vendor == Vendor::Intel && cpu.family == 6 && cpu.model == 0xcf,
        provenance: Provenance::Measured(
            "avx2::timing::tuning_sweep on an Intel Xeon (family 6, model 207) with \
             OBLIVEX_BACKEND=avx2, 5 December 2026, three runs",
        ),
        profile: ProfileId::GoldenCove,
    },
    CpuRow {
        name: "Intel Golden Cove and Raptor Cove cores",
        // Sapphire Rapids (0x8f); Alder Lake (0x97, 0x9a) and Raptor Lake
        // (0xb7, 0xba, 0xbf), whose performance cores are these.
        matches: |cpu| {
            cpu.vendor == Vendor::Intel
                && cpu.family == 6
                && matches!(cpu.model, 0x8f | 0x97 | 0x9a | 0xb7 | 0xba | 0xbf)
        },
        provenance: Provenance::NotMeasured(
            "Emerald Rapids' profile: the same core's vector ports (VPMULUDQ on ports 0 and 1, \
             additions on 0, 1 and 5)",
        ),
        profile: ProfileId::GoldenCove,
    },
    CpuRow {
        name: "every other CPU",
        matches: |_| true,
        provenance: Provenance::NotMeasured("Zen 3's profile, the only one measured"),
        profile: ProfileId::Zen3,
    },
];

#[cfg(test)]
mod tests {
    use super::super::super::cpu::models;
    use super::*;

    #[test]
    fn rows_match_their_cpus() {
        let row = |cpu| CpuRow::for_cpu(TABLE, cpu);
        assert_eq!(row(models::MILAN).name, "AMD Zen 3");
        assert!(matches!(
            row(models::MILAN).provenance,
            Provenance::Measured(_)
        ));
        assert_eq!(row(models::EMERALD_RAPIDS).name, "Intel Emerald Rapids");
        assert_eq!(row(models::ALDER_LAKE).profile, ProfileId::GoldenCove);
        assert!(matches!(
            row(models::ALDER_LAKE).provenance,
            Provenance::NotMeasured(_)
        ));
        let last = TABLE.last().expect("the table has rows");
        assert_eq!(row(models::GENOA).name, last.name);
        assert!((last.matches)(models::UNKNOWN));
    }
}
