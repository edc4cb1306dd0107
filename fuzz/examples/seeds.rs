//! Writes the named seeds of the committed corpus (`fuzz/corpus/<target>/`):
//! inputs that reach the deep paths at once (valid encodings of every kind,
//! honest protocol runs, each C entry point) so a bounded CI run starts
//! from coverage instead of rediscovering encodings. Deterministic; rerun
//! with `cargo run --manifest-path fuzz/Cargo.toml --example seeds` after a
//! format or target change. The corpus's other files (hash-named) are
//! inputs found by longer runs, folded in when they add an edge:
//! `<fuzz binary> -merge=1 -use_counters=0 fuzz/corpus/<target> <found dir>`.

use std::fs;
use std::path::Path;

use oblivex::bls;
use oblivex::elgamal::encrypt;
use oblivex::group::{
    encode_scalar_to_vec, encode_to_vec, Bls12381G1, Ffdhe2048, Ffdhe3072, Ffdhe4096,
    PrimeOrderGroup, Ristretto255, P256,
};
use oblivex::threshold::dkg::{DkgParams, DkgParty, Received};
use oblivex::threshold::{deal, PartyId};
use oblivex_fuzz::dkg::{old_sharing, SESSION};
use oblivex_fuzz::FuzzRng;

fn write(target: &str, name: &str, bytes: &[u8]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(target);
    fs::create_dir_all(&dir).expect("corpus directory");
    fs::write(dir.join(name), bytes).expect("seed file");
}

fn with_prefix(prefix: &[u8], rest: &[u8]) -> Vec<u8> {
    prefix.iter().chain(rest).copied().collect()
}

/// Seeds of the `decode` target for group number `g` (its selector).
fn decode_seeds<G: PrimeOrderGroup>(g: u8) {
    let mut rng = FuzzRng::new(&[g]);
    let x = G::mul_base(&G::scalar_from_u64(7));
    let y = G::mul_base(&G::scalar_from_u64(11));
    let element = encode_to_vec::<G>(&x);
    let batch = [element.clone(), encode_to_vec::<G>(&y)].concat();
    let scalar = encode_scalar_to_vec::<G>(&G::scalar_from_u64(5));
    let (shares, commitments) = deal::<G, _>(&G::scalar_from_u64(9), 2, 3, &mut rng).expect("deal");
    let ciphertext = encrypt::<G, _>(&x, &y, &mut rng)
        .expect("encrypt")
        .to_bytes();
    let selector = |which: u8| [g + 7 * which];
    let name = G::SUITE_ID;
    write(
        "decode",
        &format!("{name}-element"),
        &with_prefix(&selector(0), &element),
    );
    write(
        "decode",
        &format!("{name}-batch"),
        &with_prefix(&selector(1), &batch),
    );
    write(
        "decode",
        &format!("{name}-scalar"),
        &with_prefix(&selector(2), &scalar),
    );
    write(
        "decode",
        &format!("{name}-share"),
        &with_prefix(&selector(3), &shares[0].to_bytes()),
    );
    write(
        "decode",
        &format!("{name}-commitments"),
        &with_prefix(&selector(3), &commitments.to_bytes()),
    );
    write(
        "decode",
        &format!("{name}-ciphertext"),
        &with_prefix(&selector(4), &ciphertext),
    );
    write(
        "decode",
        &format!("{name}-request"),
        &with_prefix(&selector(5), &batch),
    );
}

fn bls_decode_seeds() {
    let mut rng = FuzzRng::new(b"bls");
    let secret = Bls12381G1::random_scalar(&mut rng);
    let (_, key_set) = bls::deal(&secret, 2, 3, &mut rng).expect("deal");
    write(
        "decode",
        "bls-public-key",
        &with_prefix(&[6], &key_set.public_key().to_bytes()),
    );
    write(
        "decode",
        "bls-key-set",
        &with_prefix(&[6 + 7], &key_set.to_bytes()),
    );
    let point = encode_to_vec::<Bls12381G1>(&Bls12381G1::mul_base(&Bls12381G1::scalar_from_u64(3)));
    write("decode", "bls-signature", &with_prefix(&[6 + 14], &point));
}

fn modexp_seeds() {
    // flags (bit 0: one modulus per value; bits 1-5: the operand size,
    // fuzz_targets/modexp.rs), count, base_len, exponent_len, modulus
    // field(s), then bases, exponents and a seed.
    let odd_modulus = |bytes: usize| {
        let mut m = vec![0xC3u8; bytes];
        m[bytes - 1] |= 1;
        m
    };
    const LONG_EXPONENT: u8 = 28 << 1;
    const LARGE_MODULUS: u8 = 30 << 1;
    for (name, flags, exponent_len, modulus) in [
        ("m128", 0, 8, odd_modulus(16)),
        ("m256-long-exponent", LONG_EXPONENT, 80, odd_modulus(32)),
        ("m1280", LARGE_MODULUS, 2, odd_modulus(160)),
        ("m2040", LARGE_MODULUS, 2, odd_modulus(255)),
    ] {
        // Count byte 8: 9 values (a full lane group and a partial one).
        let mut seed = vec![flags, 8, 32, exponent_len, modulus.len() as u8];
        seed.extend(&modulus);
        seed.extend(b"bases and exponents");
        write("modexp", name, &seed);
    }
    // The kernel sizes (the modexp_kernels target): flags, count,
    // base_len, exponent_len, then a length selector and a short field to
    // stretch; the per-value seed has two such moduli.
    for (selector, name) in ["k1024", "k2048", "k3072", "k4096", "too-large"]
        .iter()
        .enumerate()
    {
        let mut seed = vec![0, 8, 32, 2, selector as u8, 4, 0xC3, 0x5A, 0x96, 0x3C];
        seed.extend(b"bases and exponents");
        write("modexp_kernels", name, &seed);
    }
    let mut two_moduli = vec![1u8, 8, 32, 2];
    for selector in [3u8, 0] {
        two_moduli.extend([selector, 4, 0xC3, 0x5A, 0x96, 0x3C]);
    }
    two_moduli.extend(b"bases and exponents");
    write("modexp_kernels", "per-value-k4096-k1024", &two_moduli);
    let mut multi = vec![1u8, 3, 16, 8];
    for m in [odd_modulus(8), odd_modulus(16), odd_modulus(3)] {
        multi.push(m.len() as u8);
        multi.extend(m);
    }
    write("modexp", "per-value-moduli", &multi);
    write("modexp", "even-modulus", &[0, 1, 1, 1, 1, 0x10, 0x02]);
}

fn client_verify_seeds() {
    // Selector: group (bits 0-1; 3 is threshold blind BLS), then the flow
    // (selector / 4 % 5) on groups 0-2.
    for selector in (0u8..20).filter(|s| s % 4 != 3 || *s == 3) {
        // No edit: the honest run. Then one of each edit kind.
        write(
            "client_verify",
            &format!("honest-{selector}"),
            &[selector, 2, 0],
        );
        for op in 0u8..7 {
            write(
                "client_verify",
                &format!("edit-{selector}-{op}"),
                &[selector, 2, 1, op, op, 1, 0, 1, 0x80, 1],
            );
        }
    }
}

fn engines_seeds() {
    // The maps (selectors 0 and 1) on 9 inputs: two passes, one partial.
    let bytes = |len: usize, seed: u8| -> Vec<u8> {
        (0..len)
            .map(|i| (i as u8).wrapping_mul(167).wrapping_add(seed))
            .collect()
    };
    write(
        "engines",
        "ristretto255-map",
        &[&[0u8, 8][..], &bytes(9 * 96, 1)].concat(),
    );
    write(
        "engines",
        "p256-map",
        &[&[1u8, 8][..], &bytes(9 * 128, 2)].concat(),
    );
    // Decoding then evaluation, unblinding and the short MSM (selectors
    // 2 and 3): 9 valid elements (hashed from 4-byte seeds).
    for (selector, group) in [(2u8, "ristretto255"), (3, "p256")] {
        for (op, name) in ["evaluate", "unblind", "msm"].iter().enumerate() {
            let mut seed = vec![selector, 9];
            for i in 0..9u8 {
                seed.extend([0, i, i, i, i]);
            }
            seed.extend([0, op as u8, 64]);
            seed.extend(bytes(9 * 16, op as u8));
            write("engines", &format!("{group}-{name}"), &seed);
        }
    }
    // Hashing and blinding 9 inputs (selectors 4 and 5).
    for (selector, group) in [(4u8, "ristretto255"), (5, "p256")] {
        let mut seed = vec![selector, 8];
        for i in 0..9u8 {
            seed.extend([3, b'x', i, i]);
        }
        seed.extend([4, b'd', b's', b't', b'!']);
        seed.extend(bytes(9 * 8, selector));
        write("engines", &format!("{group}-hash-and-blind"), &seed);
    }
}

fn bn_mod_exp_seeds() {
    // flags (signs), modulus length, its stretched field, base kind, base
    // field, exponent length, its field, form.
    for (form, name) in [
        "single",
        "alias-base",
        "alias-exponent",
        "mont-ctx",
        "batch",
    ]
    .iter()
    .enumerate()
    {
        for (m_len, parity) in [(64u8, 0xC5u8), (16, 0xC4)] {
            let seed = [
                0, m_len, 2, 0x9D, parity, 0, 4, 1, 2, 3, 4, 16, 3, 0xA7, 0x5B, 0x01, form as u8,
            ];
            let odd = if parity & 1 == 1 { "odd" } else { "even" };
            write("bn_mod_exp", &format!("{name}-{odd}"), &seed);
        }
    }
    // 1024 bytes (8192 bits) and 1025 (past the limit), base m - 1, a
    // 2-byte exponent.
    for (extra, name) in [(0u8, "m8192"), (1, "m8200")] {
        write(
            "bn_mod_exp",
            name,
            &[1, 255, extra, 2, 0xB3, 0x5D, 3, 0, 2, 2, 0x77, 0x01, 0],
        );
    }
    // An exponent longer than a 512-bit modulus.
    write(
        "bn_mod_exp",
        "exponent-past-modulus",
        &[
            0, 64, 2, 0x9D, 0xC5, 0, 4, 1, 2, 3, 4, 250, 3, 0xA7, 0x5B, 0x01, 0,
        ],
    );
}

fn c_abi_seeds() {
    let odd = |bytes: usize| {
        let mut m = vec![0x9Du8; bytes];
        m[bytes - 1] |= 1;
        m
    };
    let mut modexp = vec![0u8, 64];
    modexp.extend(odd(64));
    modexp.extend([4, 40, 20]);
    modexp.extend(vec![0x5A; 4 * 60]);
    modexp.extend([0x00, 0x01]);
    write("c_abi", "modexp", &modexp);
    // The suite byte (fuzz_targets/c_abi.rs): ristretto255 0, P-256 208,
    // BLS12-381 G1 209.
    for (suite, name) in [(0u8, "ristretto255"), (208, "p256"), (209, "bls12381")] {
        let (g, element_len) = match suite {
            0 => (
                encode_to_vec::<Ristretto255>(&Ristretto255::generator()),
                32,
            ),
            208 => (encode_to_vec::<P256>(&P256::generator()), 33),
            _ => (encode_to_vec::<Bls12381G1>(&Bls12381G1::generator()), 48),
        };
        let mut evaluate = vec![1u8, suite, 0, element_len as u8];
        evaluate.extend(&g);
        evaluate.extend([0, 0xFF, 0xFF]);
        write("c_abi", &format!("server-evaluate-{name}"), &evaluate);
        let two_inputs = [2u8, 3, b'a', b'b', b'c', 1, b'd'];
        write(
            "c_abi",
            &format!("oprf-client-{name}"),
            &[&[2u8, suite, 0][..], &two_inputs, &[0, 0, 0xFF, 0xFF]].concat(),
        );
        for check in 1u8..3 {
            // kappa byte 0: kappa 64.
            write(
                "c_abi",
                &format!("checked-{name}-{check}"),
                &[
                    &[3u8, suite, check, 0][..],
                    &two_inputs,
                    &[0xFF, 0x1F, 0, 0, 0xFF, 0x03],
                ]
                .concat(),
            );
        }
        write(
            "c_abi",
            &format!("threshold-server-{name}"),
            &[
                &[5u8, suite, 2, 1, 0, 2, 0, element_len as u8][..],
                &g,
                &[0xFF, 0x0F, 0],
            ]
            .concat(),
        );
        write(
            "c_abi",
            &format!("threshold-client-{name}"),
            &[
                &[6u8, suite][..],
                &two_inputs,
                &[0xFF, 0x1F, 3, 1, 0, 0, 2, 0, 1, 3, 0, 2, 0xFF, 0x03, 5],
            ]
            .concat(),
        );
    }
    write("c_abi", "decoders", &[4u8, 0, 0, 5, 1, 2, 3, 4, 5, 6, 7, 8]);
    write("c_abi", "elgamal-bls", &[7u8, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8]);
}

/// One message's view as the round that receives it takes it.
fn from(party: PartyId, bytes: &[u8]) -> Received<'_> {
    Received { from: party, bytes }
}

/// Seeds of the `dkg_messages` target for group number `g`: every kind of
/// a key generation of 2 of 3 (party 1 misses party 3's pair and sees a
/// wrong Feldman value from party 2, so its complaints, party 3's
/// justification, party 1's Feldman complaint and its reveal list
/// entries), and the dealing, complaints, justification and Feldman
/// commitments of a refresh and of a resharing to 3 of 5.
fn dkg_messages_seeds<G: PrimeOrderGroup>(g: u8) {
    let mut rng = FuzzRng::new(&[b'd', g]);
    let name = G::SUITE_ID;
    let seed = |purpose: u8, kind: u8, label: &str, bytes: &[u8]| {
        let selector = [g + 3 * purpose + 9 * kind];
        write(
            "dkg_messages",
            &format!("{name}-{label}"),
            &with_prefix(&selector, bytes),
        );
    };
    // Key generation.
    let params = DkgParams::<G>::new(2, 3, SESSION).expect("valid");
    let started: Vec<_> = (1..=3)
        .map(|id| DkgParty::start(params, id, &mut rng).expect("start"))
        .collect();
    let commitments: Vec<Vec<u8>> = started
        .iter()
        .map(|(_, m)| m.commitments.to_bytes())
        .collect();
    let pair = |dealer: usize, to: PartyId| {
        started[dealer]
            .1
            .shares
            .iter()
            .find(|p| p.recipient() == to)
            .expect("a pair")
            .to_bytes()
    };
    seed(0, 0, "keygen-commitments", &commitments[0]);
    seed(0, 1, "keygen-pair", &pair(0, 2));
    let pairs_to_1 = [pair(1, 1)];
    let pairs_to_2 = [pair(0, 2), pair(2, 2)];
    let pairs_to_3 = [pair(0, 3), pair(1, 3)];
    let mut states = Vec::new();
    let mut complaints = Vec::new();
    for (index, (state, _)) in started.into_iter().enumerate() {
        let me = index as PartyId + 1;
        let others: Vec<PartyId> = (1..=3).filter(|&id| id != me).collect();
        let c: Vec<Received<'_>> = others
            .iter()
            .map(|&id| from(id, &commitments[usize::from(id) - 1]))
            .collect();
        let p: Vec<Received<'_>> = match me {
            1 => vec![from(2, &pairs_to_1[0])],
            2 => vec![from(1, &pairs_to_2[0]), from(3, &pairs_to_2[1])],
            _ => vec![from(1, &pairs_to_3[0]), from(2, &pairs_to_3[1])],
        };
        let (state, message) = state.round2(&c, &p).expect("round 2");
        states.push(state);
        complaints.push(message.to_bytes());
    }
    seed(0, 2, "keygen-complaints", &complaints[0]);
    /// The others' messages of one round, as party `me` receives them.
    fn inbox(me: PartyId, messages: &[Vec<u8>]) -> Vec<Received<'_>> {
        (1..=3)
            .filter(|&id| id != me)
            .map(|id| from(id, &messages[usize::from(id) - 1]))
            .collect()
    }
    let mut next = Vec::new();
    let mut justifications = Vec::new();
    for (index, state) in states.into_iter().enumerate() {
        let (state, message) = state
            .round3(&inbox(index as PartyId + 1, &complaints))
            .expect("round 3");
        next.push(state);
        justifications.push(message.to_bytes());
    }
    seed(0, 3, "keygen-justifications", &justifications[2]);
    let mut next4 = Vec::new();
    let mut feldman = Vec::new();
    for (index, state) in next.into_iter().enumerate() {
        let (state, message) = state
            .round4(&inbox(index as PartyId + 1, &justifications))
            .expect("round 4");
        next4.push(state);
        feldman.push(message.to_bytes());
    }
    seed(0, 4, "keygen-feldman", &feldman[0]);
    // Party 1 sees party 2's A_1 replaced by party 3's.
    let mut wrong = feldman.clone();
    let last = wrong[1].len() - G::ELEMENT_LEN;
    let replacement = feldman[2][last..].to_vec();
    wrong[1][last..].copy_from_slice(&replacement);
    let mut next5 = Vec::new();
    let mut feldman_complaints = Vec::new();
    for (index, state) in next4.into_iter().enumerate() {
        let seen = if index == 0 { &wrong } else { &feldman };
        let (state, message) = state
            .round5(&inbox(index as PartyId + 1, seen))
            .expect("round 5");
        next5.push(state);
        feldman_complaints.push(message.to_bytes());
    }
    seed(0, 5, "keygen-feldman-complaints", &feldman_complaints[0]);
    let first = next5.into_iter().next().expect("party 1");
    let (_, reveals) = first
        .round6(&inbox(1, &feldman_complaints))
        .expect("round 6");
    seed(0, 6, "keygen-reveals", &reveals.to_bytes());

    // Refresh and resharing, from the target's fixed 2-of-3 sharing (its
    // messages name the old commitments by digest).
    let (shares, old) = old_sharing::<G>();
    let mut shares = shares.into_iter();
    let refresh = DkgParams::<G>::refresh(&old, 3, SESSION).expect("valid");
    let (_, messages) =
        DkgParty::start_refresh(refresh, shares.next().expect("share 1"), &old, &mut rng)
            .expect("start");
    seed(
        1,
        0,
        "refresh-commitments",
        &messages.commitments.to_bytes(),
    );
    seed(1, 1, "refresh-pair", &messages.shares[0].to_bytes());
    let reshare = DkgParams::<G>::reshare(&old, 3, 3, 5, SESSION).expect("valid");
    let (dealer, messages) =
        DkgParty::start_reshare_dealer(reshare, shares.next().expect("share 2"), &old, &mut rng)
            .expect("start");
    let dealt = messages.commitments.to_bytes();
    seed(2, 0, "reshare-commitments", &dealt);
    seed(2, 1, "reshare-pair", &messages.shares[1].to_bytes());
    // New party 2 got old party 2's commitments and no pair: it complains.
    let receiver = DkgParty::start_reshare_receiver(reshare, 2, &old).expect("start");
    let (_, complaint) = receiver.round2(&[from(2, &dealt)], &[]).expect("round 2");
    let complaint = complaint.to_bytes();
    seed(2, 2, "reshare-complaints", &complaint);
    let (dealer, justification) = dealer.round3(&[from(2, &complaint)]).expect("round 3");
    seed(2, 3, "reshare-justifications", &justification.to_bytes());
    seed(2, 4, "reshare-feldman", &dealer.round4().to_bytes());
}

fn main() {
    decode_seeds::<Ristretto255>(0);
    decode_seeds::<P256>(1);
    decode_seeds::<Bls12381G1>(2);
    decode_seeds::<Ffdhe2048>(3);
    decode_seeds::<Ffdhe3072>(4);
    decode_seeds::<Ffdhe4096>(5);
    bls_decode_seeds();
    modexp_seeds();
    client_verify_seeds();
    engines_seeds();
    bn_mod_exp_seeds();
    c_abi_seeds();
    dkg_messages_seeds::<Ristretto255>(0);
    dkg_messages_seeds::<P256>(1);
    dkg_messages_seeds::<Bls12381G1>(2);
}
