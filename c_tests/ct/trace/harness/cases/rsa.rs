//! RSA-CRT private operations with a secret key ([`RsaCrtKey`]): the key
//! made from its parameters (validation, the primes' Montgomery contexts,
//! `qinv` in Montgomery form), then one batch of 4 ciphertexts, whose 8
//! half exponentiations fill one vector of the engine at 1024 bits, and
//! Garner's recombination. The key varies between runs; the ciphertexts
//! (public) do not.
//!
//! The exponents `dp` and `dq` are cut to their low 64 bits
//! ([`cut_exponents_for_trace`]), as FFDHE's are: a full 1024-bit exponent
//! would take most of an hour to single-step, and the fixed-window loop's
//! structure depends only on the exponent's public length. So the results
//! are checked against the portable backend's, under the same cut, not
//! against RSA.

use oblivex::mp::{cut_exponents_for_trace, Backend, RsaCrtKey};

use crate::marks::traced;
use crate::variants::random_bytes;

/// Ciphertexts per batch: 8 half exponentiations.
const CIPHERTEXTS: usize = 4;
/// Bytes of `n`; each prime and parameter has half as many.
const MODULUS_BYTES: usize = 256;

/// Four RSA-2048 keys (p, q, dp, dq, qinv; 128 bytes each, hex), e = 65537,
/// made once for this case by a seeded prime search.
const KEYS: [[&str; 5]; 4] = [
    [
        "e8352499944afc8f008407e92dfc8fb1862de88f03f683e4cb50f0598c36bd172500e4186a5e8317bd6db9559302d9bd41aaedff2dc0125461e2e59590433a12755c8d61072f0007a72ba4ac82fa02cf55b434971f99a275f6bedc496b8e559b38e9c3631f25e43fb7ff701840d65966b7e3ec0db6d83c0524b05a9ab896d557",
        "c8842ebf2ebd46494cc2e0b243c2a4332e01cf37dd6acff2f45e03f1e42c063532a1e0c29acfc3a99484b16b6bdb799564292f6d323455d403d7287872360b0de05461b1641fc624f0a8acb805eb3f5ab81f493cfc65c9ff0e036e8ca045948bf4a5c6f4c9848a8419187faa51bb837583953644731dddfea0082646d450fc05",
        "dd5d9437a8ec579ac826161890937e3501b2904a8ebf9a7b29ec4e453feb0b169e5b1c17be87bd378b89a7ae51c8dce4944eac36a159c2df98b5a2a29375d34db77e74f533d0f599561fc00c098ce7d2da6441e273e895bd196e5838d2054dccfd53b4c5b0f3018651157dba514d46cb2ab168dea619bc163724bc2b559fcd5f",
        "241b3133b9ddd93f2fb453b3a5e1f1a149a287c6be771254e44ddd95fc093560f4ea1347d78a9be7f857607f405fb7e7ffae2edd11d23cb63daecb99ccaf109482158fb5da9aa21a5abf74c27a465f151ddc7c5a9ff450483e24be0e5279d502d29ddb528ecaf00a535e86f68b5b2193d28ad6c7c296d93795678244f4cc5465",
        "a40c9b1a94ac45eea775365841ac68b08827c4790eff78c09995e99b5997efe8926e4cc80e406725fcd4bc9fcd6efdacb79cb3b3b438bd1f98b412201cf84e1e24f088454317f237cd213ae1a24d6fcd6c455bd3f96c784c742f3cd63671bb9d79f5168fcfade0e09aefe0df4e694fdeadc68f77b4f55cbda094fd5282a0ca2e",
    ],
    [
        "f5e4476d0f51260dbdf5073ee452b48ec44a5285a364f1b1a27b1a2a7b019236f84e74da2b38102659d085c18e216a9e6b0268cc0f42402e6e6e1ab9355441f61a266c268067a7efa4a7210d08b2487a10c9fa4877c3062e492b6e283d694e4db6dc428447e6b9f2ea043f42dc9c00745f7d2a0b9c13a3d9b5f2bb5c1df4317f",
        "ec3c3ede4e8c7b804bb130cddb27aac1a80a4320d771c2ba27c6f4951e20f9208a5f379f98863503cf80f5344a76bcbd994b2c745742e67b1ab20c0b058115c3ee58e6c39c2afcaa1a5e35d1a70df476cefffbb14231d255b2e62dc8fdeb79ab1af826199cf0cd8f8c9ed4dcbabfa4035f16262a6ab0e4ac92c0c48ec6eb10c1",
        "1aa859f9ffdc1b550810056e1310c85466016cbae240f25700b779d9bb262b74dc2c9d4c7dbd013b37277d28c3c0e9af2d08c0d5c69db719918d4c4661fab57ff9cbca93cdfdeeddf32acf517b6ce0a0a32b528002c3d8eab1b20caa3e262980116005b2139d76f157df880036ac8efc0ed221f9ca3cf2d98a793b48bc5299ff",
        "e79c518f27b7f845daf048872bbd025f87df37dd751d65eb99a028a022bff541002946a1c4aaa043b2281f403b599ac6d10ab0f507b0e1c4047257f85e5726fdc82b8564773276325853d1b451730f2184e5d8e0fba359330889408e74d56f9e607cb6ee19bec5eb5dd543a17dbef29113a2e59c64aa36293460a6d5cd151e81",
        "d6c45e7a314438eda8101e699031cd0c3628af6ed4a282a812d49218afbeb9d84026d7351bb6cf66c7aca692bf033e68616c4b8e6a03293ae7aee513399a870c625312b39ef9c7f9aec399ae22e5cba938bbadbe2a99d9e9da3614c7626307517c957426257703e2c30a0d3a213f50c4d4c9a663c06fe4e8b35de9b0269dfe89",
    ],
    [
        "d4d4f6567e5a528bb251aee230a1299eec51182eae8a8188102009baf3d4e034b70a7b93c7ca5375e202b82d70eb34ce8f2d582bd58d30a8bdc4ad610bd11dbef3e60fd023e5eb36d83618c2ce5711af618f2d7bf5574d114364db2d4860495fc627ceaa1e8dd1939342ebd48a4c31b72d315051626409fd193cfbd7e8f98637",
        "f77ad6de5a2f73cdeff4990f70c095062aa9ed0b798709dcdc6aa00a06e80903f9f97f6e125dae655efc69242759a562c20f5bc4e93b4be1fc707cb432d193b548e019998e7dbbb91113a49dff22cc53eafac5a12729f21c20d3f0a6b26eb0886cc07d71bf6c7077eedb690f5b4a5fe1edd89b759bb515b9e4000a37892c3d1d",
        "a75de56df524f03edcf6b1313c8eb01d42b72eee1ee1daa4f6114bb591e3b8809be48973982c7a5f7c612916caf29bef47d69fbcb0cdbc132650510bbcf030952655a7dfc52b1c425fda82b446f15f7dec995c6a5b6fd0b21fae635183d5fc3d6da586366f9a94d1997f89d6f4fea025ed4b175f38a174dd6d0870ffc43cdd17",
        "6e07cd949aa0526a936f3ac624a95b189ccb643b1fd32c4d682a77f13d54d8fd4d9ce24d3c192eba9f5ab61c7eea5a9fe80c100f226b5cb7a317183abe057418bbc7f759d082927e1bdb91eb354e716e36213cd103aaa09c64f41620e7605358b49178b4a419407ff250d70b1ed9987bc8d5ef7880bc2866b7ba54d0904a7cf9",
        "7876a6ca0a57ec2f7c56fade56648af5db15187efe733ad1d8b9711135072980dc0c27669f01e4c34243042081f1a92fff66b95e46e8121cfe70aed1de2596e6e4398bb3b7c2147fcc130ff2647b9ac480a71af6d581aaa71298248b47491220c0d8fcbe1582c917420f36da7ec5b598eb63f0409a73193348e38cd5ba9a8058",
    ],
    [
        "f6e1123b7a89238add7a624fe684d15511c6b39b6e525cf0761c71096b464da0b60cd13d640e17a757ad22bd5d3b31b2d70c4d0fe4744a5ce1089b76fa37df7c036775ab89041ab1a47661e692f2cbadd6a2581edd6bbf1e1c72bda4f092f5e2543b1f5e62503b2b917e59be1b0b5fb6b8cf1fe5b262f8a14fb7d7106cc109b5",
        "f2400ea1daf6dabaebf9c6276a64823cb1508a3cc8597209c9d2e6ed887af5a0dd1a6cfaad34d844366cb486f6407f52b68bb4262090195f0e395f5be09c1cfc5d51413958d79d2263ccc9b64977a988928cbfee70acc90f228b6f28fdd418bd39b5e990508e068d9fb62ef23d416adbdf8ecc9ea766d03ebdc196f137756d3f",
        "d9ed05c6213d8b755a5a5d0c40e57f4f83b88df52766670a1088bcb35ed19956c33cff3b1ce65fb4e56d3cdc41bf2df8bb61ed6898f69a69f06f43a4bbedb446694edb8d470eab6da24aa9d2fa667eaafe6b223464aa66f372934a9a9d8e6ca4944bf83dbdb52af623a190208309003d7057cdc55a39895603e3b961934eb77d",
        "17de19d2f698e5ba0eefe007182368f583ded48fe2897583e35fa522f8146d48f91fd666e853d18efef1bce3a3357d95efa85a0a7ba0d6ef179ead7786ecbaaa5ea357d2c79f0ebb49abee9fc823430fd2a88d6c77ab7e6fc04e8e9832520851f472a8dd70225e20ec006e25adc5593aea8ece383f7410c66db9ba1e700160cf",
        "bfe750300997cc16754ebb360796a3c09b6fc575a505ef6d9f82f445c634e09deba12da70ecdf851a6cb9c808483eea1da9ab7eeb8b41901ef066a93bb6c0ac384daee92dad43293419ab891f5fbedfde8a1e093609b67c51aa785c6be169ad66f974407e13dc9bac47cbe8d25b2d83339bdf4461b0cbb969330f0cb8e10d36c",
    ],
];

/// The traced call: key `variant` made, then 4 ciphertexts decrypted.
pub fn private_batch(variant: usize) -> Result<(), String> {
    cut_exponents_for_trace();
    let parameters = KEYS[variant].map(from_hex);
    let [p, q, dp, dq, qinv] = &parameters;
    // Below every key's n (each n has its top bit set).
    let mut ciphertexts = random_bytes(41, CIPHERTEXTS * MODULUS_BYTES);
    for c in ciphertexts.chunks_exact_mut(MODULUS_BYTES) {
        c[0] &= 0x7f;
    }
    let warm = make_key(&KEYS[0].map(from_hex))?;
    drop(warm.private_batch(&ciphertexts));
    let results = traced((p, q, dp, dq, qinv), |(p, q, dp, dq, qinv)| {
        RsaCrtKey::new(p, q, dp, dq, qinv).and_then(|key| key.private_batch(&ciphertexts))
    })
    .map_err(|e| e.to_string())?;
    let expected = make_key(&parameters)?
        .private_batch_on(Backend::Portable, &ciphertexts)
        .map_err(|e| e.to_string())?;
    if *results != *expected {
        return Err("the RSA private operations differ from the portable backend's".into());
    }
    Ok(())
}

fn make_key([p, q, dp, dq, qinv]: &[Vec<u8>; 5]) -> Result<RsaCrtKey, String> {
    RsaCrtKey::new(p, q, dp, dq, qinv).map_err(|e| e.to_string())
}

/// The bytes of a hex string (the keys above: well formed).
fn from_hex(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("the keys are hex"))
        .collect()
}
