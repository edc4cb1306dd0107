import COblivex

/// An RSA private key in CRT form with its constants precomputed, for
/// constant-time batch private operations (raw RSA: decryption, or signing
/// an encoded message).
///
/// Immutable and `Sendable`: one key may serve many tasks at once; `deinit`
/// frees (and wipes) it, once.
public final class RSAKey: @unchecked Sendable {
    // @unchecked: the only state is the immutable C handle, which the C
    // API documents as safe to share between threads.

    /// The length in bytes of the modulus n: the width of every ciphertext
    /// and result.
    public let modulusLength: Int
    let handle: OpaquePointer

    /// Makes the key from its CRT parameters, each big-endian (leading zero
    /// bytes allowed), as in PKCS #1: the primes `p` and `q`, `dp = d mod
    /// (p-1)`, `dq = d mod (q-1)` and `qinv = q^-1 mod p`. Throws
    /// ``OblivexError/zeroModulus`` or ``OblivexError/evenModulus`` (a zero
    /// or even prime), ``OblivexError/unsupportedKeySize`` (primes of
    /// different bit lengths, or outside 2...4096 bits),
    /// ``OblivexError/equalPrimes``, ``OblivexError/invalidCRTExponent``
    /// (dp or dq even or not below its prime),
    /// ``OblivexError/invalidCRTCoefficient``, ``OblivexError/badLength``
    /// (a parameter longer than ``Library/maxOperandBytes``). The primality
    /// of p and q is not checked.
    public init(
        p: some Collection<UInt8>, q: some Collection<UInt8>, dp: some Collection<UInt8>,
        dq: some Collection<UInt8>, qinv: some Collection<UInt8>
    ) throws(OblivexError) {
        var handle: OpaquePointer?
        try check(withBytes(p) { pPointer, pLength in
            withBytes(q) { qPointer, qLength in
                withBytes(dp) { dpPointer, dpLength in
                    withBytes(dq) { dqPointer, dqLength in
                        withBytes(qinv) { qinvPointer, qinvLength in
                            oblivex_rsa_crt_key_new(pPointer, pLength, qPointer, qLength, dpPointer, dpLength,
                                                    dqPointer, dqLength, qinvPointer, qinvLength, &handle)
                        }
                    }
                }
            }
        })
        self.handle = handle!
        self.modulusLength = oblivex_rsa_crt_key_modulus_len(handle)
    }

    deinit {
        oblivex_rsa_crt_key_free(handle)
    }

    /// `c^d mod n` for every ciphertext (``modulusLength`` bytes each,
    /// big-endian, each below n), in constant time in the key and the
    /// results, with the CRT: both halves of every ciphertext in one batch
    /// of the engine. Results are big-endian, ``modulusLength`` bytes each.
    /// Throws ``OblivexError/emptyInput`` for none,
    /// ``OblivexError/badLength`` for a ciphertext of another width,
    /// ``OblivexError/ciphertextOutOfRange`` for one not below n.
    public func privateBatch<Ciphertexts: Collection>(
        _ ciphertexts: Ciphertexts
    ) throws(OblivexError) -> [[UInt8]] where Ciphertexts.Element: Collection<UInt8> {
        let width = modulusLength
        guard ciphertexts.allSatisfy({ $0.count == width }) else { throw .badLength }
        let (flat, _) = try flatten(ciphertexts)
        let count = ciphertexts.count
        var results = try withOutput(capacity: count * width) { out, capacity, written in
            withBytes(flat) { pointer, length in
                oblivex_rsa_private_batch(handle, pointer, length, count, out, capacity, written)
            }
        }
        return split(&results, width: width)
    }

    /// `c_i^d_i mod n_i` with one key per ciphertext (`keys[i]` for
    /// `ciphertexts[i]`), so that callers of different keys (a server with
    /// several certificates) share one batch of the engine. The keys'
    /// primes must all have one bit length
    /// (``OblivexError/unsupportedKeySize`` otherwise), so every
    /// ciphertext and result has the keys' ``modulusLength``. As
    /// ``privateBatch(_:)`` in every other respect;
    /// ``OblivexError/badLength`` unless there are as many keys as
    /// ciphertexts.
    public static func privateBatch<Ciphertexts: Collection>(
        keys: [RSAKey], ciphertexts: Ciphertexts
    ) throws(OblivexError) -> [[UInt8]] where Ciphertexts.Element: Collection<UInt8> {
        guard keys.count == ciphertexts.count else { throw .badLength }
        guard let width = keys.first?.modulusLength else { throw .emptyInput }
        guard ciphertexts.allSatisfy({ $0.count == width }) else { throw .badLength }
        let (flat, _) = try flatten(ciphertexts)
        let count = keys.count
        let handles: [OpaquePointer?] = keys.map(\.handle)
        var results = try withExtendedLifetime(keys) { () throws(OblivexError) -> [UInt8] in
            try withOutput(capacity: count * width) { out, capacity, written in
                withBytes(flat) { pointer, length in
                    handles.withUnsafeBufferPointer { keyPointers in
                        oblivex_rsa_private_batch_keys(keyPointers.baseAddress, pointer, length, count, out,
                                                       capacity, written)
                    }
                }
            }
        }
        return split(&results, width: width)
    }
}
