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
use oblivex::threshold::deal;
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
    const KERNEL: u8 = 31 << 1;
    for (name, flags, exponent_len, modulus) in [
        ("m128", 0, 8, odd_modulus(16)),
        ("m256-long-exponent", LONG_EXPONENT, 80, odd_modulus(32)),
        ("m1280", LARGE_MODULUS, 8, odd_modulus(160)),
        ("m2040", LARGE_MODULUS, 8, odd_modulus(255)),
    ] {
        let mut seed = vec![flags, 9, 32, exponent_len, modulus.len() as u8];
        seed.extend(&modulus);
        seed.extend(b"bases and exponents");
        write("modexp", name, &seed);
    }
    // The kernel sizes: a length selector and a short field to stretch.
    for (selector, name) in ["k1024", "k2048", "k3072", "k4096", "too-large"]
        .iter()
        .enumerate()
    {
        let mut seed = vec![KERNEL, 9, 32, 2, selector as u8, 4, 0xC3, 0x5A, 0x96, 0x3C];
        seed.extend(b"bases and exponents");
        write("modexp", name, &seed);
    }
    let mut multi = vec![1u8, 3, 16, 8];
    for m in [odd_modulus(8), odd_modulus(16), odd_modulus(3)] {
        multi.push(m.len() as u8);
        multi.extend(m);
    }
    write("modexp", "per-value-moduli", &multi);
    write("modexp", "even-modulus", &[0, 1, 1, 1, 1, 0x10, 0x02]);
}

fn client_verify_seeds() {
    for selector in 0u8..9 {
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
    for suite in 0u8..4 {
        let element_len = [32usize, 33, 48, 256][usize::from(suite)];
        let g = match suite {
            0 => encode_to_vec::<Ristretto255>(&Ristretto255::generator()),
            1 => encode_to_vec::<P256>(&P256::generator()),
            2 => encode_to_vec::<Bls12381G1>(&Bls12381G1::generator()),
            _ => encode_to_vec::<Ffdhe2048>(&Ffdhe2048::generator()),
        };
        let mut evaluate = vec![1u8, suite, (element_len / 8) as u8];
        evaluate.extend(g.iter().cycle().take(element_len / 8 * 8));
        evaluate.extend([0xFF, 0xFF]);
        write("c_abi", &format!("server-evaluate-{suite}"), &evaluate);
        let two_inputs = [2u8, 3, b'a', b'b', b'c', 1, b'd'];
        write(
            "c_abi",
            &format!("oprf-client-{suite}"),
            &[&[2u8, suite, 0][..], &two_inputs, &[0, 0, 0xFF, 0xFF]].concat(),
        );
        for check in 1u8..3 {
            write(
                "c_abi",
                &format!("checked-{suite}-{check}"),
                &[
                    &[3u8, suite, check, 64][..],
                    &two_inputs,
                    &[0xFF, 0x1F, 0, 0, 0xFF, 0x03],
                ]
                .concat(),
            );
        }
        write(
            "c_abi",
            &format!("threshold-server-{suite}"),
            &[
                &[5u8, suite, 2, 1, 0, 2, 0, (element_len / 8) as u8][..],
                &g.iter()
                    .cycle()
                    .take(element_len / 8 * 8)
                    .copied()
                    .collect::<Vec<_>>(),
                &[0xFF, 0x0F, 0],
            ]
            .concat(),
        );
        write(
            "c_abi",
            &format!("threshold-client-{suite}"),
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
    c_abi_seeds();
}
