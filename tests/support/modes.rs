//! One RFC 9497 batch in any mode, for the tests that run all three the
//! same way: the client built from one key pair's public key, the server
//! from another's (the same one for an honest run), fixed blinds and proof
//! nonce when given (the `danger` entry points), the server's answer
//! optionally edited on the way back.

use oblivex::group::{encode_to_vec, PrimeOrderGroup};
use oblivex::message::EvaluatedElements;
use oblivex::oprf::{
    KeyPair, OprfClient, OprfServer, PoprfClient, PoprfServer, Proof, VoprfClient, VoprfServer,
};
use oblivex::Error;
use rand_core::UnwrapErr;

/// An RFC 9497 mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Oprf,
    Voprf,
    Poprf,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Oprf, Mode::Voprf, Mode::Poprf];

    /// The name RFC 9497's vectors use.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Oprf => "OPRF",
            Mode::Voprf => "VOPRF",
            Mode::Poprf => "POPRF",
        }
    }

    pub fn from_name(name: &str) -> Mode {
        Mode::ALL.into_iter().find(|m| m.name() == name).unwrap()
    }

    /// The key of `derive(seed, info)` for this mode's server.
    pub fn derive<G: PrimeOrderGroup>(self, seed: &[u8], info: &[u8]) -> KeyPair<G> {
        match self {
            Mode::Oprf => OprfServer::<G>::derive(seed, info).unwrap().key().clone(),
            Mode::Voprf => VoprfServer::<G>::derive(seed, info).unwrap().key().clone(),
            Mode::Poprf => PoprfServer::<G>::derive(seed, info).unwrap().key().clone(),
        }
    }
}

/// Everything one batch put on the wire, and the outputs.
#[derive(Debug, PartialEq, Eq)]
pub struct Transcript {
    pub blinded: Vec<u8>,
    pub evaluated: Vec<u8>,
    pub proof: Option<Vec<u8>>,
    pub outputs: Vec<Vec<u8>>,
}

/// Fixed coins: the blinds and the proof nonce.
pub struct Coins<G: PrimeOrderGroup> {
    pub blinds: Vec<G::Scalar>,
    pub nonce: G::Scalar,
}

/// One batch: the client trusts `client_key`'s public key, the server
/// answers with `server_key`, `edit` changes the encoded answer in flight.
/// The outputs, or the error the client reports.
pub fn run<G: PrimeOrderGroup>(
    mode: Mode,
    client_key: &KeyPair<G>,
    server_key: &KeyPair<G>,
    inputs: &[&[u8]],
    info: &[u8],
    coins: Option<Coins<G>>,
    edit: impl FnOnce(&mut Vec<u8>),
) -> Result<Transcript, Error> {
    let rng = &mut UnwrapErr(getrandom::SysRng);
    let public = client_key.public_key().clone();
    let plain = |outputs: Vec<oblivex::oprf::Output>| -> Vec<Vec<u8>> {
        outputs.iter().map(|o| o.to_vec()).collect()
    };
    let received = |mut bytes: Vec<u8>, edit: &mut dyn FnMut(&mut Vec<u8>)| {
        edit(&mut bytes);
        EvaluatedElements::<G>::from_bytes(&bytes).map(|e| (bytes, e))
    };
    let mut edit = Some(edit);
    let mut edit = |bytes: &mut Vec<u8>| (edit.take().unwrap())(bytes);
    match mode {
        Mode::Oprf => {
            let client = OprfClient::<G>::new();
            let batch = match coins {
                Some(c) => client.blind_with(inputs, c.blinds)?,
                None => client.blind(inputs, rng)?,
            };
            let server = OprfServer::new(server_key.clone());
            let (evaluated, answer) =
                received(server.evaluate(batch.request()).to_bytes(), &mut edit)?;
            let blinded = batch.request().to_bytes();
            let outputs = plain(batch.finalize(&answer)?);
            Ok(Transcript {
                blinded,
                evaluated,
                proof: None,
                outputs,
            })
        }
        Mode::Voprf => {
            let client = VoprfClient::new(public)?;
            let server = VoprfServer::new(server_key.clone());
            let (batch, (answer, proof)) = match coins {
                Some(c) => {
                    let batch = client.blind_with(inputs, c.blinds)?;
                    let answer = server.evaluate_with_nonce(batch.request(), &c.nonce);
                    (batch, answer)
                }
                None => {
                    let batch = client.blind(inputs, rng)?;
                    let answer = server.evaluate(batch.request(), rng);
                    (batch, answer)
                }
            };
            let (evaluated, answer) = received(answer.to_bytes(), &mut edit)?;
            let proof = proof.to_bytes();
            let blinded = batch.request().to_bytes();
            let outputs = plain(batch.finalize(&answer, &Proof::from_bytes(&proof)?)?);
            Ok(Transcript {
                blinded,
                evaluated,
                proof: Some(proof),
                outputs,
            })
        }
        Mode::Poprf => {
            let client = PoprfClient::new(public)?;
            let server = PoprfServer::new(server_key.clone());
            let (batch, (answer, proof)) = match coins {
                Some(c) => {
                    let batch = client.blind_with(inputs, info, c.blinds)?;
                    let answer = server.evaluate_with_nonce(batch.request(), info, &c.nonce)?;
                    (batch, answer)
                }
                None => {
                    let batch = client.blind(inputs, info, rng)?;
                    let answer = server.evaluate(batch.request(), info, rng)?;
                    (batch, answer)
                }
            };
            let (evaluated, answer) = received(answer.to_bytes(), &mut edit)?;
            let proof = proof.to_bytes();
            let blinded = batch.request().to_bytes();
            let outputs = plain(batch.finalize(&answer, &Proof::from_bytes(&proof)?)?);
            Ok(Transcript {
                blinded,
                evaluated,
                proof: Some(proof),
                outputs,
            })
        }
    }
}

/// An honest batch of `mode` under `key`.
pub fn honest<G: PrimeOrderGroup>(
    mode: Mode,
    key: &KeyPair<G>,
    inputs: &[&[u8]],
    info: &[u8],
    coins: Option<Coins<G>>,
) -> Transcript {
    run(mode, key, key, inputs, info, coins, |_| ()).unwrap()
}

/// The encoding of the generator: a valid element no honest answer holds.
pub fn generator_bytes<G: PrimeOrderGroup>() -> Vec<u8> {
    encode_to_vec::<G>(&G::generator())
}
