//! Which CPU a SIMD backend runs on, as CPUID names it: vendor, family and
//! model, and the row type of the backends' per-CPU tuning tables
//! (`ifma/cpu_table.rs`, `avx2/cpu_table.rs`), keyed by them because the
//! best kernel shapes differ between cores with more or fewer vector pipes
//! beside the multiplier.

use core::arch::x86_64::{__cpuid, CpuidResult};
use std::sync::OnceLock;

/// The CPU's maker, from CPUID leaf 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::mp::backend) enum Vendor {
    /// "AuthenticAMD".
    Amd,
    /// "GenuineIntel".
    Intel,
    /// Any other vendor string (e.g. a hypervisor's or another maker's).
    Other,
}

/// A CPU model as CPUID leaf 1 names it, with the extended family and
/// model folded in the way both vendors document (the "display" family
/// and model that `/proc/cpuinfo` prints as `cpu family` and `model`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::mp::backend) struct CpuModel {
    pub(in crate::mp::backend) vendor: Vendor,
    pub(in crate::mp::backend) family: u32,
    pub(in crate::mp::backend) model: u32,
}

/// Runs CPUID for `leaf`.
fn cpuid(leaf: u32) -> CpuidResult {
    // Older toolchains (the crate's minimum) declare `__cpuid` unsafe;
    // newer ones made it safe.
    #[allow(unused_unsafe)]
    // SAFETY: CPUID exists on every x86-64 CPU and only reads identification
    // registers; leaves 0 and 1 are defined on all of them.
    unsafe {
        __cpuid(leaf)
    }
}

impl CpuModel {
    /// Decodes CPUID leaf 0 (`vendor`: EBX, EDX, ECX in that order, the
    /// vendor string's byte order) and leaf 1's EAX (`signature`).
    pub(in crate::mp::backend) fn from_cpuid(vendor: [u32; 3], signature: u32) -> CpuModel {
        let mut name = [0u8; 12];
        for (bytes, word) in name.chunks_exact_mut(4).zip(vendor) {
            bytes.copy_from_slice(&word.to_le_bytes());
        }
        let vendor = match &name {
            b"AuthenticAMD" => Vendor::Amd,
            b"GenuineIntel" => Vendor::Intel,
            _ => Vendor::Other,
        };
        let base_family = (signature >> 8) & 0xf;
        let base_model = (signature >> 4) & 0xf;
        let family = if base_family == 0xf {
            base_family + ((signature >> 20) & 0xff)
        } else {
            base_family
        };
        let model = if base_family == 0x6 || base_family == 0xf {
            base_model | (((signature >> 16) & 0xf) << 4)
        } else {
            base_model
        };
        CpuModel {
            vendor,
            family,
            model,
        }
    }

    /// This CPU, read once per process.
    pub(in crate::mp::backend) fn current() -> CpuModel {
        static CURRENT: OnceLock<CpuModel> = OnceLock::new();
        *CURRENT.get_or_init(|| {
            let leaf0 = cpuid(0);
            CpuModel::from_cpuid([leaf0.ebx, leaf0.edx, leaf0.ecx], cpuid(1).eax)
        })
    }
}

/// Where a tuning table row's choice comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::mp::backend) enum Provenance {
    /// Chosen by the backend's `tuning_sweep` on such a CPU (the machine
    /// and date named).
    Measured(&'static str),
    /// Not measured on such a CPU: the reason for the choice.
    NotMeasured(&'static str),
}

/// One family of CPUs and the tuning profile `P` it runs. The name and
/// provenance are the table's record, printed by the tuning sweeps (test
/// builds).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(test), allow(dead_code))]
pub(in crate::mp::backend) struct CpuRow<P: 'static> {
    /// The CPUs, as people name them.
    pub(in crate::mp::backend) name: &'static str,
    /// Which CPUs the row is for (the first matching row applies).
    pub(in crate::mp::backend) matches: fn(CpuModel) -> bool,
    pub(in crate::mp::backend) provenance: Provenance,
    pub(in crate::mp::backend) profile: P,
}

impl<P> CpuRow<P> {
    /// The row of `table` for `cpu`: the first that matches (a table's
    /// last row matches every CPU).
    pub(in crate::mp::backend) fn for_cpu(
        table: &'static [CpuRow<P>],
        cpu: CpuModel,
    ) -> &'static CpuRow<P> {
        table
            .iter()
            .find(|row| (row.matches)(cpu))
            .expect("a table's last row matches every CPU")
    }

    /// This CPU's row of `table` (the CPU is read once per process; a
    /// table's few rows are scanned per call).
    pub(in crate::mp::backend) fn current(table: &'static [CpuRow<P>]) -> &'static CpuRow<P> {
        Self::for_cpu(table, CpuModel::current())
    }
}

/// The CPUs the tuning tables' tests name, as `from_cpuid` decodes them.
#[cfg(test)]
pub(in crate::mp::backend) mod models {
    use super::{CpuModel, Vendor};

    const fn model(vendor: Vendor, family: u32, model: u32) -> CpuModel {
        CpuModel {
            vendor,
            family,
            model,
        }
    }

    /// AMD EPYC 7003 (Zen 3).
    pub(in crate::mp::backend) const MILAN: CpuModel = model(Vendor::Amd, 0x19, 0x01);
    /// AMD EPYC 9004 (Zen 4).
    pub(in crate::mp::backend) const GENOA: CpuModel = model(Vendor::Amd, 0x19, 0x11);
    /// AMD EPYC 9005 (Zen 5).
    pub(in crate::mp::backend) const TURIN: CpuModel = model(Vendor::Amd, 0x1a, 0x02);
    /// Intel Xeon, 4th generation (Golden Cove).
    pub(in crate::mp::backend) const SAPPHIRE_RAPIDS: CpuModel = model(Vendor::Intel, 6, 0x8f);
    /// Intel Xeon, 5th generation (Raptor Cove).
    pub(in crate::mp::backend) const EMERALD_RAPIDS: CpuModel = model(Vendor::Intel, 6, 0xcf);
    /// Intel Core, 12th generation (Golden Cove performance cores).
    pub(in crate::mp::backend) const ALDER_LAKE: CpuModel = model(Vendor::Intel, 6, 0x97);
    /// A CPU of no vendor the tables know.
    pub(in crate::mp::backend) const UNKNOWN: CpuModel = model(Vendor::Other, 0, 0);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vendor strings as CPUID returns them (EBX, EDX, ECX).
    const AMD: [u32; 3] = [0x6874_7541, 0x6974_6e65, 0x444d_4163];
    const INTEL: [u32; 3] = [0x756e_6547, 0x4965_6e69, 0x6c65_746e];

    #[test]
    fn signatures_decode_as_proc_cpuinfo_prints_them() {
        // AMD EPYC 9004 (Zen 4): family 25, model 17.
        assert_eq!(CpuModel::from_cpuid(AMD, 0x00a1_0f11), models::GENOA);
        // Intel Xeon (Sapphire Rapids): family 6, model 143.
        assert_eq!(
            CpuModel::from_cpuid(INTEL, 0x0008_06f8),
            models::SAPPHIRE_RAPIDS
        );
        // Extended fields are ignored where the base family says so.
        assert_eq!(
            CpuModel::from_cpuid([0; 3], 0x0fff_0543),
            CpuModel {
                vendor: Vendor::Other,
                family: 5,
                model: 4
            }
        );
    }

    #[test]
    fn this_cpu_matches_proc_cpuinfo() {
        let Ok(cpuinfo) = std::fs::read_to_string("/proc/cpuinfo") else {
            return;
        };
        let field = |name: &str| {
            cpuinfo.lines().find_map(|line| {
                let (key, value) = line.split_once(':')?;
                (key.trim() == name).then(|| value.trim().parse::<u32>().ok())?
            })
        };
        let current = CpuModel::current();
        assert_eq!(field("cpu family"), Some(current.family));
        assert_eq!(field("model"), Some(current.model));
    }
}
