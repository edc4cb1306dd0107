import COblivex

/// A precomputed odd modulus (the role of OpenSSL's `BN_MONT_CTX`) for
/// constant-time batch exponentiation.
///
/// Immutable and `Sendable`: one context may serve many tasks at once;
/// `deinit` frees (and wipes) it, once.
public final class ModulusContext: @unchecked Sendable {
    // @unchecked: the only state is the immutable C handle, which the C
    // API documents as safe to share between threads.

    /// The modulus length in bytes, without leading zeros: the size of
    /// every result.
    public let modulusLength: Int
    let handle: OpaquePointer

    /// Precomputes the constants of an odd modulus `1 <= m < 2^8192` given
    /// as big-endian bytes (leading zero bytes are ignored):
    /// ``OblivexError/zeroModulus`` (also for no bytes),
    /// ``OblivexError/evenModulus``, ``OblivexError/modulusTooLarge``.
    public init(modulus: some Collection<UInt8>) throws(OblivexError) {
        var handle: OpaquePointer?
        try check(withBytes(modulus) { oblivex_mont_ctx_new($0, $1, &handle) })
        self.handle = handle!
        self.modulusLength = oblivex_mont_ctx_modulus_len(handle)
    }

    deinit {
        oblivex_mont_ctx_free(handle)
    }

    /// `bases[i] ^ exponents[i] mod m` for every `i`, in constant time: the
    /// values are secret, only their byte lengths (equal across the batch
    /// for the bases, and for the exponents: ``OblivexError/badLength``
    /// otherwise, at most ``Library/maxOperandBytes``) set the work,
    /// leading zero bytes included. Bases of any value are reduced. Results
    /// are big-endian, left-padded to ``modulusLength`` bytes; exponent 0
    /// gives 1 (0 when m = 1), base 0 gives 0. ``OblivexError/emptyInput``
    /// for no values or zero-length operands; ``OblivexError/badLength``
    /// when the counts differ.
    public func expBatch<Bases: Collection, Exponents: Collection>(
        bases: Bases, exponents: Exponents
    ) throws(OblivexError) -> [[UInt8]] where Bases.Element: Collection<UInt8>, Exponents.Element: Collection<UInt8> {
        guard bases.count == exponents.count else { throw .badLength }
        var (b, e) = try flattenOperands(bases, exponents)
        defer {
            wipe(&b)
            wipe(&e)
        }
        let count = bases.count
        let width = modulusLength
        var results = try withOutput(capacity: count * width) { out, capacity, written in
            withBytes(b) { basesPointer, basesLength in
                withBytes(e) { exponentsPointer, exponentsLength in
                    oblivex_mod_exp_batch(handle, basesPointer, basesLength, exponentsPointer, exponentsLength, count,
                                          out, capacity, written)
                }
            }
        }
        return split(&results, width: width)
    }

    /// `bases[i] ^ exponents[i] mod m_i`, `m_i` the modulus of
    /// `contexts[i]` (e.g. the p and q halves of several RSA-CRT
    /// decryptions in one call), in constant time; operands as in
    /// ``expBatch(bases:exponents:)``. Every result is as long as the
    /// longest modulus among `contexts`, big-endian and left-padded.
    /// ``OblivexError/badLength`` when the three counts differ.
    public static func expBatchMulti<Bases: Collection, Exponents: Collection>(
        contexts: [ModulusContext], bases: Bases, exponents: Exponents
    ) throws(OblivexError) -> [[UInt8]] where Bases.Element: Collection<UInt8>, Exponents.Element: Collection<UInt8> {
        try expBatchMulti(oblivex_mod_exp_batch_multi, contexts: contexts, bases: bases, exponents: exponents)
    }

    /// ``expBatchMulti(contexts:bases:exponents:)`` for public exponents,
    /// such as RSA public exponents when a private result is checked
    /// (`r^e mod n`): square-and-multiply, 16 squarings and one product for
    /// `e = 65537`, about half the work of the constant-time call. Variable
    /// time in the exponents: never pass a secret one. Constant time in the
    /// bases.
    public static func expBatchMultiVartime<Bases: Collection, Exponents: Collection>(
        contexts: [ModulusContext], bases: Bases, exponents: Exponents
    ) throws(OblivexError) -> [[UInt8]] where Bases.Element: Collection<UInt8>, Exponents.Element: Collection<UInt8> {
        try expBatchMulti(oblivex_mod_exp_batch_multi_vartime, contexts: contexts, bases: bases, exponents: exponents)
    }

    /// The C call of a per-value-modulus batch: the constant-time one or
    /// the public-exponent one, which take the same arguments.
    typealias MultiCall = (UnsafePointer<OpaquePointer?>?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int,
                           Int, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?) -> oblivex_status

    private static func expBatchMulti<Bases: Collection, Exponents: Collection>(
        _ call: MultiCall, contexts: [ModulusContext], bases: Bases, exponents: Exponents
    ) throws(OblivexError) -> [[UInt8]] where Bases.Element: Collection<UInt8>, Exponents.Element: Collection<UInt8> {
        let count = contexts.count
        guard bases.count == count, exponents.count == count else { throw .badLength }
        var (b, e) = try flattenOperands(bases, exponents)
        defer {
            wipe(&b)
            wipe(&e)
        }
        let width = contexts.map(\.modulusLength).max() ?? 0
        let handles: [OpaquePointer?] = contexts.map(\.handle)
        var results = try withExtendedLifetime(contexts) { () throws(OblivexError) -> [UInt8] in
            try withOutput(capacity: count * width) { out, capacity, written in
                withBytes(b) { basesPointer, basesLength in
                    withBytes(e) { exponentsPointer, exponentsLength in
                        handles.withUnsafeBufferPointer { contextPointers in
                            call(contextPointers.baseAddress, basesPointer, basesLength,
                                 exponentsPointer, exponentsLength, count, out, capacity, written)
                        }
                    }
                }
            }
        }
        return split(&results, width: width)
    }
}

/// Packs the bases and the exponents of a batch (each of one width).
func flattenOperands<Bases: Collection, Exponents: Collection>(
    _ bases: Bases, _ exponents: Exponents
) throws(OblivexError) -> ([UInt8], [UInt8]) where Bases.Element: Collection<UInt8>, Exponents.Element: Collection<UInt8> {
    var (b, _) = try flatten(bases)
    do {
        let (e, _) = try flatten(exponents)
        return (b, e)
    } catch {
        wipe(&b)
        throw error
    }
}
