import COblivex

/// An RFC 9497 server of the mode `Kind`: a suite and a secret key. Use it
/// as ``OPRFServer``, ``VOPRFServer`` or ``POPRFServer``; each has the
/// `evaluate` of its mode (see ``RFC9497Mode``).
///
/// Immutable and `Sendable`: one server may evaluate from many tasks at
/// once (the C handle is thread-safe). Its key is wiped when the last
/// reference goes (`deinit` frees the handle, once).
public final class RFC9497Server<Kind: RFC9497Mode>: @unchecked Sendable {
    // @unchecked: the only state is the immutable C handle, which the C
    // API documents as safe to share between threads.

    /// The server's suite.
    public let suite: Suite
    /// The server's public key k·B, to publish: what VOPRF, POPRF and
    /// checked clients verify against.
    public let publicKey: PublicKey
    private let handle: OpaquePointer

    /// The server's mode, the one its type names.
    public var mode: Mode { Kind.mode }

    /// Takes ownership of a new handle (freeing it if its public key cannot
    /// be read).
    private init(suite: Suite, taking handle: OpaquePointer) throws(OblivexError) {
        let key: [UInt8]
        do {
            key = try withOutput(capacity: suite.elementLength) { oblivex_oprf_server_public_key(handle, $0, $1, $2) }
        } catch {
            oblivex_oprf_server_free(handle)
            throw error
        }
        self.suite = suite
        self.publicKey = PublicKey(suite: suite, trusted: key)
        self.handle = handle
    }

    /// A server of `suite` with an encoded secret key
    /// (``Suite/scalarLength`` bytes): ``OblivexError/invalidScalar`` for a
    /// key of the wrong length, not canonical, or zero.
    public convenience init(suite: Suite, secretKey: some Collection<UInt8>) throws(OblivexError) {
        var handle: OpaquePointer?
        try check(withBytes(secretKey) { oblivex_oprf_server_new(suite.rawValue, Kind.mode.rawValue, $0, $1, &handle) })
        try self.init(suite: suite, taking: handle!)
    }

    /// A server whose key is RFC 9497 `DeriveKeyPair(seed, info)` for this
    /// suite and the type's mode (the key depends on the mode, as in the
    /// RFC): ``OblivexError/badLength`` for an info longer than
    /// ``Library/maxInputLength``, ``OblivexError/deriveKeyPair`` if no key
    /// was found.
    public static func derive(
        suite: Suite, seed: some Collection<UInt8>, info: some Collection<UInt8> = [UInt8]()
    ) throws(OblivexError) -> RFC9497Server {
        var handle: OpaquePointer?
        try check(withBytes(seed) { seedPointer, seedLength in
            withOptionalBytes(info) { infoPointer, infoLength in
                oblivex_oprf_server_derive(suite.rawValue, Kind.mode.rawValue, seedPointer, seedLength,
                                           infoPointer, infoLength, &handle)
            }
        })
        return try RFC9497Server(suite: suite, taking: handle!)
    }

    /// A server with a fresh key from the operating system's random source.
    public static func generate(suite: Suite) throws(OblivexError) -> RFC9497Server {
        var handle: OpaquePointer?
        try check(oblivex_oprf_server_generate(suite.rawValue, Kind.mode.rawValue, &handle))
        return try RFC9497Server(suite: suite, taking: handle!)
    }

    deinit {
        oblivex_oprf_server_free(handle)
    }

    /// The encoded secret key (``Suite/scalarLength`` bytes), for storing
    /// it: the bytes are the caller's; handle them as the secret they are.
    public func secretKey() throws(OblivexError) -> [UInt8] {
        try withOutput(capacity: suite.scalarLength) { oblivex_oprf_server_secret_key(handle, $0, $1, $2) }
    }

    /// The C server step of every mode's `evaluate`: the evaluated elements
    /// and the proof (empty in OPRF mode, where `proofLength` is 0); `info`
    /// is nil except in POPRF mode.
    private func evaluating<Info: Collection<UInt8>>(
        _ blinded: some Collection<UInt8>, info: Info?, proofLength: Int
    ) throws(OblivexError) -> (evaluated: [UInt8], proof: [UInt8]) {
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
        return (evaluated, Array(proof.prefix(proofWritten)))
    }
}

extension RFC9497Server where Kind == OPRFMode {
    /// Raises every blinded element (concatenated element encodings, as a
    /// client sends them) to the key and returns the evaluated elements
    /// (same length, same order). Serves ``OPRFClient`` and
    /// ``CheckedClient``, which need no proof.
    ///
    /// Every element is an evaluation the client can use (a checked
    /// request's balancer looks like any input): rate limits must count
    /// elements, not calls.
    ///
    /// Throws ``OblivexError/badLength`` for a request that is not a whole,
    /// non-zero number of elements (at most 65535);
    /// ``OblivexError/invalidElement`` for any element not canonical, not
    /// in the group, or the identity.
    public func evaluate(_ blinded: some Collection<UInt8>) throws(OblivexError) -> [UInt8] {
        try evaluating(blinded, info: [UInt8]?.none, proofLength: 0).evaluated
    }
}

extension RFC9497Server where Kind == VOPRFMode {
    /// ``OPRFServer``'s `evaluate(_:)` with one proof for the whole batch
    /// (``Suite/proofLength`` bytes), for the client to verify against
    /// ``publicKey``.
    public func evaluate(_ blinded: some Collection<UInt8>) throws(OblivexError) -> (evaluated: [UInt8], proof: [UInt8]) {
        try evaluating(blinded, info: [UInt8]?.none, proofLength: suite.proofLength)
    }
}

extension RFC9497Server where Kind == POPRFMode {
    /// ``VOPRFServer``'s `evaluate(_:)` under the key tweaked by `info`, the
    /// public input the client blinds with (at most
    /// ``Library/maxInputLength`` bytes, ``OblivexError/badLength``
    /// otherwise; an empty info is an info).
    /// ``OblivexError/invalidInput(cheaters:)`` if the info gives an
    /// unusable key.
    public func evaluate(
        _ blinded: some Collection<UInt8>, info: some Collection<UInt8>
    ) throws(OblivexError) -> (evaluated: [UInt8], proof: [UInt8]) {
        try evaluating(blinded, info: info, proofLength: suite.proofLength)
    }
}
