//! Modes and the domain separation of RFC 9497 (§3.1, §4).

use crate::group::PrimeOrderGroup;

/// The protocol variant (RFC 9497 §3): the byte in the context string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Mode {
    /// Oblivious PRF: no proof; the client trusts the server's key use.
    Oprf = 0x00,
    /// Verifiable OPRF: the server proves (DLEQ) it used the key whose
    /// public half the client holds.
    Voprf = 0x01,
    /// Partially-oblivious PRF: a public `info` string tweaks the key;
    /// verifiable as VOPRF.
    Poprf = 0x02,
}

/// The domain separation tags of one (mode, suite): each is a prefix and
/// the context string `"OPRFV1-" || I2OSP(mode, 1) || "-" || identifier`.
#[derive(Clone, Debug)]
pub(crate) struct Context {
    pub(crate) hash_to_group_dst: Vec<u8>,
    pub(crate) hash_to_scalar_dst: Vec<u8>,
    pub(crate) derive_key_pair_dst: Vec<u8>,
    pub(crate) seed_dst: Vec<u8>,
}

impl Context {
    pub(crate) fn new<G: PrimeOrderGroup>(mode: Mode) -> Context {
        let mut context_string = b"OPRFV1-".to_vec();
        context_string.push(mode as u8);
        context_string.push(b'-');
        context_string.extend_from_slice(G::SUITE_ID.as_bytes());
        let prefixed = |prefix: &[u8]| [prefix, &context_string].concat();
        Context {
            hash_to_group_dst: prefixed(b"HashToGroup-"),
            hash_to_scalar_dst: prefixed(b"HashToScalar-"),
            derive_key_pair_dst: prefixed(b"DeriveKeyPair"),
            seed_dst: prefixed(b"Seed-"),
        }
    }
}

/// `I2OSP(len(x), 2)`: every RFC 9497 transcript frames its parts with a
/// two-byte length. Parts longer than 65535 bytes are refused by the public
/// entry points before they get here.
pub(crate) fn len2(x: &[u8]) -> [u8; 2] {
    u16::try_from(x.len())
        .expect("inputs and info are at most 65535 bytes")
        .to_be_bytes()
}

pub(crate) use crate::blinding::MAX_INPUT_LEN;
