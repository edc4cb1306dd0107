import COblivex

/// An RFC 9497 server: a suite, a mode and a secret key.
///
/// Immutable and `Sendable`: one server may evaluate from many tasks at
/// once (the C handle is thread-safe). Its key is wiped when the last
/// reference goes (`deinit` frees the handle, once).
public final class OPRFServer: @unchecked Sendable {
    // @unchecked: the only state is the immutable C handle, which the C
    // API documents as safe to share between threads.

    /// The server's suite.
    public let suite: Suite
    /// The server's mode.
    public let mode: Mode
    /// The server's public key k·B, to publish: what VOPRF, POPRF and
    /// checked clients verify against.
    public let publicKey: PublicKey
    private let handle: OpaquePointer

    /// Takes ownership of a new handle (freeing it if its public key cannot
    /// be read).
    private init(suite: Suite, mode: Mode, taking handle: OpaquePointer) throws(OblivexError) {
        let key: [UInt8]
        do {
            key = try withOutput(capacity: suite.elementLength) { oblivex_oprf_server_public_key(handle, $0, $1, $2) }
        } catch {
            oblivex_oprf_server_free(handle)
            throw error
        }
        self.suite = suite
        self.mode = mode
        self.publicKey = PublicKey(suite: suite, trusted: key)
        self.handle = handle
    }

    /// A server of `suite` in `mode` with an encoded secret key
    /// (``Suite/scalarLength`` bytes): ``OblivexError/invalidScalar`` for a
    /// key of the wrong length, not canonical, or zero.
    public convenience init(suite: Suite, mode: Mode, secretKey: some Collection<UInt8>) throws(OblivexError) {
        var handle: OpaquePointer?
        try check(withBytes(secretKey) { oblivex_oprf_server_new(suite.rawValue, mode.rawValue, $0, $1, &handle) })
        try self.init(suite: suite, mode: mode, taking: handle!)
    }

    /// A server whose key is RFC 9497 `DeriveKeyPair(seed, info)` for this
    /// suite and mode (the key depends on the mode, as in the RFC):
    /// ``OblivexError/badLength`` for an info longer than
    /// ``Library/maxInputLength``, ``OblivexError/deriveKeyPair`` if no key
    /// was found.
    public static func derive(
        suite: Suite, mode: Mode, seed: some Collection<UInt8>, info: some Collection<UInt8> = [UInt8]()
    ) throws(OblivexError) -> OPRFServer {
        var handle: OpaquePointer?
        try check(withBytes(seed) { seedPointer, seedLength in
            withOptionalBytes(info) { infoPointer, infoLength in
                oblivex_oprf_server_derive(suite.rawValue, mode.rawValue, seedPointer, seedLength, infoPointer, infoLength, &handle)
            }
        })
        return try OPRFServer(suite: suite, mode: mode, taking: handle!)
    }

    /// A server with a fresh key from the operating system's random source.
    public static func generate(suite: Suite, mode: Mode) throws(OblivexError) -> OPRFServer {
        var handle: OpaquePointer?
        try check(oblivex_oprf_server_generate(suite.rawValue, mode.rawValue, &handle))
        return try OPRFServer(suite: suite, mode: mode, taking: handle!)
    }

    deinit {
        oblivex_oprf_server_free(handle)
    }

    /// The encoded secret key (``Suite/scalarLength`` bytes), for storing
    /// it: the bytes are the caller's; handle them as the secret they are.
    public func secretKey() throws(OblivexError) -> [UInt8] {
        try withOutput(capacity: suite.scalarLength) { oblivex_oprf_server_secret_key(handle, $0, $1, $2) }
    }

    /// The server's step in its mode: raises every blinded element
    /// (concatenated element encodings, as a client sends them) to the key,
    /// and returns the evaluated elements (same length, same order) and, in
    /// VOPRF and POPRF mode, one proof for the whole batch (nil in OPRF
    /// mode). `info` is the POPRF public input (empty in the other modes).
    /// Checked and threshold clients need no proof: serve them in
    /// ``Mode/oprf``.
    ///
    /// Every element is an evaluation the client can use (a checked
    /// request's balancer looks like any input): rate limits must count
    /// elements, not calls.
    ///
    /// Throws ``OblivexError/badLength`` for a request that is not a whole,
    /// non-zero number of elements (at most 65535), an info too long or
    /// given outside POPRF; ``OblivexError/invalidElement`` for any element
    /// not canonical, not in the group, or the identity;
    /// ``OblivexError/invalidInput(cheaters:)`` if the POPRF info gives an
    /// unusable key.
    public func evaluate(
        _ blinded: some Collection<UInt8>, info: some Collection<UInt8> = [UInt8]()
    ) throws(OblivexError) -> (evaluated: [UInt8], proof: [UInt8]?) {
        let proofLength = mode == .oprf ? 0 : suite.proofLength
        var proof = [UInt8](repeating: 0, count: max(proofLength, 1))
        var proofWritten = 0
        let evaluated = try withOutput(capacity: blinded.count) { out, capacity, written in
            withBytes(blinded) { blindedPointer, blindedLength in
                withOptionalBytes(info) { infoPointer, infoLength in
                    proof.withUnsafeMutableBufferPointer { proofBuffer in
                        oblivex_oprf_server_evaluate(handle, blindedPointer, blindedLength, infoPointer, infoLength,
                                                     out, capacity, written,
                                                     proofBuffer.baseAddress, proofLength, &proofWritten)
                    }
                }
            }
        }
        if mode == .oprf {
            return (evaluated, nil)
        }
        return (evaluated, Array(proof.prefix(proofWritten)))
    }
}

/// An RFC 9497 client: its suite, its mode and (VOPRF, POPRF) the server's
/// public key, obtained authentically. A value; `Sendable`: each
/// ``blind(_:info:)`` makes an independent batch.
public struct OPRFClient: Sendable {
    /// The client's suite.
    public let suite: Suite
    /// The client's mode.
    public let mode: Mode
    /// The server's public key the client verifies against (nil in OPRF
    /// mode).
    public let publicKey: PublicKey?

    /// A client of `suite` in `mode`. `publicKey` is the server's: in VOPRF
    /// and POPRF mode required (``OblivexError/missingPublicKey``) and of
    /// the same suite (``OblivexError/suiteMismatch``); in OPRF mode
    /// ignored, whatever its suite (as the C API, which takes no key there).
    public init(suite: Suite, mode: Mode, publicKey: PublicKey? = nil) throws(OblivexError) {
        if mode != .oprf {
            guard let publicKey else { throw .missingPublicKey }
            guard publicKey.suite == suite else { throw .suiteMismatch }
        }
        self.suite = suite
        self.mode = mode
        self.publicKey = mode == .oprf ? nil : publicKey
    }

    /// Hashes and blinds a batch of inputs (each at most
    /// ``Library/maxInputLength`` bytes; an empty input is an input) with
    /// fresh random blinds, and returns the batch holding them, whose
    /// ``OPRFBatch/request`` goes to the server. `info` is the POPRF public
    /// input (empty in the other modes: ``OblivexError/badLength``
    /// otherwise). ``OblivexError/emptyInput`` for no input,
    /// ``OblivexError/invalidInput(cheaters:)`` if an input hashes to the
    /// identity or the info gives an unusable key.
    public func blind<Inputs: Collection>(
        _ inputs: Inputs, info: some Collection<UInt8> = [UInt8]()
    ) throws(OblivexError) -> OPRFBatch where Inputs.Element: Collection<UInt8> {
        let key = publicKey?.bytes ?? []
        var handle: OpaquePointer?
        let request = try withOutput(capacity: inputs.count * suite.elementLength) { out, capacity, written in
            withByteStrings(inputs) { pointers, lengths, count in
                withOptionalBytes(info) { infoPointer, infoLength in
                    withOptionalBytes(key) { keyPointer, keyLength in
                        oblivex_oprf_batch_blind(suite.rawValue, mode.rawValue, pointers, lengths, count,
                                                 infoPointer, infoLength, keyPointer, keyLength,
                                                 out, capacity, written, &handle)
                    }
                }
            }
        }
        return OPRFBatch(suite: suite, count: inputs.count, request: request, handle: handle!)
    }
}

/// One blinded batch of an ``OPRFClient``: its request and the secret
/// blinds, kept until ``finalize(_:proof:)``.
///
/// Single use, enforced by the compiler: the batch is `~Copyable` and
/// `finalize` consumes it, so finalizing twice or using the batch after
/// finalizing does not compile. Its C handle is freed (the blinds wiped)
/// exactly once, in `deinit`: when `finalize` returns or throws, or when a
/// batch that is never finalized goes out of scope. Not `Sendable` (a C
/// batch is for one thread); it can still be moved.
public struct OPRFBatch: ~Copyable {
    /// The batch's suite.
    public let suite: Suite
    /// The number of inputs.
    public let count: Int
    /// What to send to the server: the blinded elements, concatenated.
    public let request: [UInt8]
    private let handle: OpaquePointer

    init(suite: Suite, count: Int, request: [UInt8], handle: OpaquePointer) {
        self.suite = suite
        self.count = count
        self.request = request
        self.handle = handle
    }

    deinit {
        oblivex_oprf_batch_free(handle)
    }

    /// Checks the server's answer (`evaluated`, one element per input) and,
    /// in VOPRF and POPRF mode, its `proof` (once for the whole batch; nil
    /// in OPRF mode), then returns the PRF output of every input
    /// (``Suite/outputLength`` bytes each, in order).
    ///
    /// Consumes the batch whatever the outcome: on any error, blind again.
    /// ``OblivexError/verificationFailed(cheaters:)``: the proof does not
    /// hold (a malicious server). ``OblivexError/missingProof``,
    /// ``OblivexError/badLength`` (not one element per input, a proof of
    /// the wrong size), ``OblivexError/invalidElement``,
    /// ``OblivexError/invalidScalar``: a malformed answer.
    public consuming func finalize(_ evaluated: some Collection<UInt8>, proof: [UInt8]? = nil) throws(OblivexError) -> [[UInt8]] {
        try outputs(evaluated, proof: proof)
    }

    /// ``finalize(_:proof:)`` with the proof as any collection of bytes
    /// (`Data`, a slice, …): the same checks and outputs, and it consumes
    /// the batch whatever the outcome.
    public consuming func finalize(_ evaluated: some Collection<UInt8>, proof: some Collection<UInt8>) throws(OblivexError) -> [[UInt8]] {
        try outputs(evaluated, proof: Optional(proof))
    }

    /// The C last step of both `finalize`s (which consume the batch, so
    /// that its `deinit` frees it once this returns or throws).
    private func outputs<Proof: Collection<UInt8>>(
        _ evaluated: some Collection<UInt8>, proof: Proof?
    ) throws(OblivexError) -> [[UInt8]] {
        let width = suite.outputLength
        var outputs = try withOutput(capacity: count * width) { out, capacity, written in
            withBytes(evaluated) { evaluatedPointer, evaluatedLength in
                withOptionalBytes(proof) { proofPointer, proofLength in
                    oblivex_oprf_batch_finalize(handle, evaluatedPointer, evaluatedLength, proofPointer, proofLength,
                                                out, capacity, written)
                }
            }
        }
        return split(&outputs, width: width)
    }
}

@available(*, unavailable, message: "a client batch is for one thread; move it, do not share it")
extension OPRFBatch: Sendable {}
