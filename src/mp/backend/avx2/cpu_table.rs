//! Which AVX2 tuning profile (`tuning.rs`) each CPU family runs, chosen at
//! run time from the CPU's CPUID vendor, family and model, with where each
//! row's choice comes from.

use super::super::cpu::{CpuRow, Provenance, Vendor};
use super::tuning::ProfileId;

/// The rows, most specific first; the last takes every CPU no other row
/// names. Only Zen 3 is measured (the development machines without AVX-512
/// IFMA are Zen 3). Every other CPU runs Zen 3's choices until measured:
/// Intel cores since Haswell also issue two VPMULUDQ per cycle, but on
/// ports shared with the additions, so their best block shapes may differ.
/// To add a CPU: run `avx2::timing::tuning_sweep` on it; if its winners
/// differ from an existing profile's, add a profile (`tuning.rs`), then a
/// row here before the last, naming the machine and date.
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
        name: "every other CPU",
        matches: |_| true,
        provenance: Provenance::NotMeasured("Zen 3's profile, the only one measured"),
        profile: ProfileId::Zen3,
    },
];

#[cfg(test)]
mod tests {
    use super::super::super::cpu::CpuModel;
    use super::*;

    #[test]
    fn rows_match_their_cpus() {
        let milan = CpuModel {
            vendor: Vendor::Amd,
            family: 0x19,
            model: 0x01,
        };
        assert_eq!(CpuRow::for_cpu(TABLE, milan).name, "AMD Zen 3");
        assert!(matches!(
            CpuRow::for_cpu(TABLE, milan).provenance,
            Provenance::Measured(_)
        ));
        let genoa = CpuModel {
            vendor: Vendor::Amd,
            family: 0x19,
            model: 0x11,
        };
        let last = TABLE.last().expect("the table has rows");
        assert_eq!(CpuRow::for_cpu(TABLE, genoa).name, last.name);
        assert!((last.matches)(CpuModel {
            vendor: Vendor::Other,
            family: 0,
            model: 0
        }));
    }
}
