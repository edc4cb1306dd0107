//! Which tuning profile (`tuning.rs`) each CPU family runs, chosen at run
//! time from the CPU's CPUID vendor, family and model (`cpu.rs`), with
//! where each row's choice comes from.

use super::super::cpu::{CpuRow, Provenance, Vendor};
use super::tuning::ProfileId;
/// The rows, most specific first; the last takes every CPU no other row
/// names. Zen 4, Zen 5 and Intel's Emerald Rapids are measured (Zen 5 and
/// Emerald Rapids keep Zen 4's choices). Every other CPU runs Zen 4's
/// choices until it is measured. Emerald Rapids issues two 512-bit
/// VPMADD52 per cycle, on ports 0 and 5, which its additions and shifts
/// share; the fused 1024-bit squaring still reaches 81 % of that rate
/// there (`kernel_timing`), and the sweep moves only one choice. To
/// add a CPU: run `tuning_sweep` on it (it prints the CPU's family and
/// model and the thresholds its figures choose); if they differ from an
/// existing profile's, add a profile (`tuning.rs`), then a row here
/// before the last, naming the machine and date.
pub(super) const TABLE: &[CpuRow<ProfileId>] = &[
    CpuRow {
        name: "AMD Zen 4",
        // Every family-25 CPU with AVX-512 IFMA is a Zen 4 (Zen 3, the
        // other family-25 core, has no AVX-512).
        matches: |cpu| cpu.vendor == Vendor::Amd && cpu.family == 0x19,
        provenance: Provenance::Measured(
            "tuning_sweep on an AMD EPYC (family 25, model 17), November and December 2026",
        ),
        profile: ProfileId::Zen4,
    },
    CpuRow {
        name: "AMD Zen 5",
        // Family 26 (0x1a) is Zen 5; every one has AVX-512 IFMA.
        matches: |cpu| cpu.vendor == Vendor::Amd && cpu.family == 0x1a,
        provenance: Provenance::Measured(
            "tuning_sweep on an AMD EPYC (family 26, model 2), 5 December 2026: Zen 4's \
             choices are the fastest at 1024 bits (30.2 µs per value); at 2048 to 4096 bits \
             the sweep's own winners were 1 to 2 % ahead of them in one run, within the \
             spread, so Zen 5 keeps Zen 4's profile",
        ),
        profile: ProfileId::Zen4,
    },
    CpuRow {
        name: "Intel Emerald Rapids",
        matches: |cpu| cpu.vendor == Vendor::Intel && cpu.family == 6 && cpu.model == 0xcf,
        provenance: Provenance::Measured(
            "tuning_sweep on an Intel Xeon (family 6, model 207), 5 December 2026, three runs: \
             Zen 4's choices win or are within the spread at every size but 3072 bits, where \
             squares by Karatsuba were 1.5 and 2.3 % faster in two runs (and 2048 bits, where \
             they were 1 % faster in one run and 4.5 % slower in another); a profile of its \
             own would compile every kernel a second time for that, so it keeps Zen 4's",
        ),
        profile: ProfileId::Zen4,
    },
    CpuRow {
        name: "every other CPU",
        matches: |_| true,
        provenance: Provenance::NotMeasured(
            "Zen 4's profile, measured on Zen 4, Zen 5 and Emerald Rapids",
        ),
        profile: ProfileId::Zen4,
    },
];

#[cfg(test)]
mod tests {
    use super::super::super::cpu::models;
    use super::*;

    #[test]
    fn rows_match_their_cpus() {
        let row = |cpu| CpuRow::for_cpu(TABLE, cpu);
        assert_eq!(row(models::GENOA).name, "AMD Zen 4");
        assert!(matches!(
            row(models::GENOA).provenance,
            Provenance::Measured(_)
        ));
        assert_eq!(row(models::TURIN).name, "AMD Zen 5");
        assert_eq!(row(models::EMERALD_RAPIDS).name, "Intel Emerald Rapids");
        let last = TABLE.last().expect("the table has rows");
        assert_eq!(row(models::SAPPHIRE_RAPIDS).name, last.name);
        assert!((last.matches)(models::UNKNOWN));
    }
}
