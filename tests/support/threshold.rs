//! What the threshold tests share (tests/threshold.rs, tests/dkg.rs,
//! tests/dkg_reshare.rs).

use oblivex::threshold::{PartyId, Response};

/// The clients' view of the servers' answers `(party, bytes)`.
pub fn responses_of(answers: &[(PartyId, Vec<u8>)]) -> Vec<Response<'_>> {
    answers
        .iter()
        .map(|(party, elements)| Response {
            party: *party,
            elements,
        })
        .collect()
}
