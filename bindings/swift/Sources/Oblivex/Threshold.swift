import COblivex

/// One server's share of a t-of-m key: its party id and secret scalar. The
/// whole server side of every threshold protocol (threshold OPRF, blind BLS
/// signing, ElGamal decryption) is ``evaluate(_:quorum:)``.
///
/// Immutable and `Sendable`: one share may answer from many tasks at once.
/// Wiped when the last reference goes (`deinit` frees the handle, once).
public final class KeyShare: @unchecked Sendable {
    // @unchecked: the only state is the immutable C handle, which the C
    // API documents as safe to share between threads.

    /// The share's suite.
    public let suite: Suite
    /// The share's party id (1...``Library/maxParties``).
    public let id: UInt16
    let handle: OpaquePointer

    /// Takes ownership of a new handle.
    init(suite: Suite, taking handle: OpaquePointer) {
        self.suite = suite
        self.id = oblivex_key_share_id(handle)
        self.handle = handle
    }

    /// Decodes a key share of `suite` (the 2-byte big-endian party id, then
    /// the scalar; ``bytes()`` makes it): ``OblivexError/badLength``,
    /// ``OblivexError/invalidPartyID`` (0 or above ``Library/maxParties``),
    /// ``OblivexError/invalidScalar``. Check it against the sharing's
    /// commitments (``Commitments/verify(_:)``) when it is received.
    public convenience init(suite: Suite, bytes: some Collection<UInt8>) throws(OblivexError) {
        var handle: OpaquePointer?
        try check(withBytes(bytes) { oblivex_key_share_from_bytes(suite.rawValue, $0, $1, &handle) })
        self.init(suite: suite, taking: handle!)
    }

    deinit {
        oblivex_key_share_free(handle)
    }

    /// A dealer's t-of-m sharing (`1 <= t <= m <= maxParties`) of a key of
    /// `suite`: `secret` is the key to share (a scalar encoding) or nil for
    /// a fresh random one. Returns the shares of parties 1...m, in order
    /// (give each server its share over a private channel), and the
    /// commitments to publish. ``OblivexError/invalidThreshold``,
    /// ``OblivexError/invalidScalar`` (the secret, an empty one included).
    public static func deal(
        suite: Suite, secret: [UInt8]? = nil, threshold: Int, parties: Int
    ) throws(OblivexError) -> (shares: [KeyShare], commitments: Commitments) {
        try dealing(suite: suite, secret: secret, threshold: threshold, parties: parties)
    }

    /// ``deal(suite:secret:threshold:parties:)`` with the secret as any
    /// collection of bytes (`Data`, a slice, …): the same checks and
    /// results.
    public static func deal(
        suite: Suite, secret: some Collection<UInt8>, threshold: Int, parties: Int
    ) throws(OblivexError) -> (shares: [KeyShare], commitments: Commitments) {
        try dealing(suite: suite, secret: Optional(secret), threshold: threshold, parties: parties)
    }

    /// The dealing of both `deal`s (`secret` nil for a fresh key).
    private static func dealing<Secret: Collection<UInt8>>(
        suite: Suite, secret: Secret?, threshold: Int, parties: Int
    ) throws(OblivexError) -> (shares: [KeyShare], commitments: Commitments) {
        try checkDealing(secret: secret, threshold: threshold, parties: parties)
        var shares = [OpaquePointer?](repeating: nil, count: parties)
        var commitments: OpaquePointer?
        try check(withOptionalBytes(secret) { secretPointer, secretLength in
            oblivex_threshold_deal(suite.rawValue, secretPointer, secretLength, threshold, parties, &shares, &commitments)
        })
        let keyShares = shares.map { KeyShare(suite: suite, taking: $0!) }
        return (keyShares, try Commitments(suite: suite, taking: commitments!))
    }

    /// The share's encoding, for storing it (the 2-byte big-endian party
    /// id, then the scalar): a secret, the caller's; wipe it after use.
    public func bytes() throws(OblivexError) -> [UInt8] {
        try withOutput(capacity: oblivex_key_share_encoded_len(suite.rawValue)) {
            oblivex_key_share_to_bytes(handle, $0, $1, $2)
        }
    }

    /// The server's answer to a threshold request (OPRF evaluation, blind
    /// signing, decryption): every element of `request` raised to the
    /// share, times the server's Lagrange coefficient when the client names
    /// a `quorum` (the client's quorum, which must include this server;
    /// empty for none). The response is as long as the request.
    ///
    /// A server cannot tell the balancer from a real input, so every element
    /// is an evaluation, a signature or a decryption the client can use:
    /// issuance and rate limits must count the elements of the request.
    ///
    /// ``OblivexError/badLength`` for a request that is not a whole,
    /// non-zero number of elements, ``OblivexError/invalidElement`` for an
    /// element that does not decode, ``OblivexError/invalidPartyID`` for a
    /// quorum without this server, or with a zero or repeated id.
    public func evaluate(_ request: some Collection<UInt8>, quorum: [UInt16] = []) throws(OblivexError) -> [UInt8] {
        try withOutput(capacity: request.count) { out, capacity, written in
            withPartyIDs(quorum) { quorumPointer, quorumLength in
                withBytes(request) { requestPointer, requestLength in
                    oblivex_threshold_server_evaluate(handle, quorumPointer, quorumLength, requestPointer, requestLength,
                                                      out, capacity, written)
                }
            }
        }
    }
}

/// Checks a dealer's arguments as the Go binding does: a usable threshold
/// and a secret that is nil (fresh) or not empty (the C API would take an
/// empty one for "fresh").
func checkDealing<Secret: Collection<UInt8>>(secret: Secret?, threshold: Int, parties: Int) throws(OblivexError) {
    guard parties >= 1, parties <= Library.maxParties, threshold >= 1, threshold <= parties else {
        throw .invalidThreshold
    }
    if let secret, secret.isEmpty {
        throw .invalidScalar
    }
}

/// The public Feldman commitments of a t-of-m sharing (t elements; the
/// first is the shared key's public key). Threshold clients are made with
/// them and check every server's answer against them.
///
/// Immutable and `Sendable`; `deinit` frees the handle, once.
public final class Commitments: @unchecked Sendable {
    // @unchecked: the only state is the immutable C handle, which the C
    // API documents as safe to share between threads.

    /// The commitments' suite.
    public let suite: Suite
    /// t: how many servers must answer.
    public let threshold: Int
    /// The shared key's public key: the key ElGamal encrypts to, and the
    /// public key of the single-key OPRF with the shared key.
    public let publicKey: PublicKey
    let handle: OpaquePointer

    /// Takes ownership of a new handle (freeing it if its public key cannot
    /// be read).
    init(suite: Suite, taking handle: OpaquePointer) throws(OblivexError) {
        let key: [UInt8]
        do {
            key = try withOutput(capacity: suite.elementLength) { oblivex_commitments_public_key(handle, $0, $1, $2) }
        } catch {
            oblivex_commitments_free(handle)
            throw error
        }
        self.suite = suite
        self.threshold = oblivex_commitments_threshold(handle)
        self.publicKey = PublicKey(suite: suite, trusted: key)
        self.handle = handle
    }

    /// Decodes a commitment set of `suite` (t element encodings,
    /// concatenated; ``bytes()`` makes it) with full validation:
    /// ``OblivexError/badLength``, ``OblivexError/invalidThreshold`` (more
    /// than ``Library/maxParties``), ``OblivexError/invalidElement``.
    public convenience init(suite: Suite, bytes: some Collection<UInt8>) throws(OblivexError) {
        var handle: OpaquePointer?
        try check(withBytes(bytes) { oblivex_commitments_from_bytes(suite.rawValue, $0, $1, &handle) })
        try self.init(suite: suite, taking: handle!)
    }

    deinit {
        oblivex_commitments_free(handle)
    }

    /// The commitments' encoding (t element encodings), to publish.
    public func bytes() throws(OblivexError) -> [UInt8] {
        try withOutput(capacity: threshold * suite.elementLength) { oblivex_commitments_to_bytes(handle, $0, $1, $2) }
    }

    /// Checks a share against the commitments (k_id·B = C_id): returns if
    /// it is consistent, throws ``OblivexError/verificationFailed(cheaters:)``
    /// if not, ``OblivexError/suiteMismatch`` for a share of another suite.
    /// Run it when a share is received.
    public func verify(_ share: KeyShare) throws(OblivexError) {
        try withExtendedLifetime(share) { () throws(OblivexError) in
            try check(oblivex_commitments_verify_share(handle, share.handle))
        }
    }
}

/// One server's answer to a threshold request: its party id and the bytes
/// ``KeyShare/evaluate(_:quorum:)`` returned.
public struct ThresholdResponse: Hashable, Sendable {
    /// The answering server's party id.
    public var party: UInt16
    /// Its response (as long as the request). Stored as `[UInt8]` (so that
    /// the response is `Hashable` and `Sendable`): the initializer takes
    /// any collection of bytes.
    public var elements: [UInt8]

    /// The answer `elements` of server `party` (any collection of bytes:
    /// `[UInt8]`, `Data`, a slice, …; copied unless it is an array).
    public init(party: UInt16, elements: some Collection<UInt8>) {
        self.party = party
        self.elements = Array(elements)
    }
}

/// Throws ``OblivexError/invalidPartyID`` for the party ids the library
/// refuses: zero, above ``Library/maxParties``, repeated, or outside the
/// named quorum (empty: any).
func checkResponses(_ responses: [ThresholdResponse], quorum: [UInt16]) throws(OblivexError) {
    var seen = Set<UInt16>()
    let named = Set(quorum)
    for response in responses {
        let id = response.party
        if id == 0 || Int(id) > Library.maxParties || !seen.insert(id).inserted || (!named.isEmpty && !named.contains(id)) {
            throw .invalidPartyID
        }
    }
}

/// Runs a threshold batch's C check of one response (`call` gets the
/// party id and the response's bytes): returns if the response passes;
/// throws ``OblivexError/verificationFailed(cheaters:)`` naming its server
/// if it does not, or the error of any other status.
func checkThresholdResponse(
    _ response: ThresholdResponse, _ call: (UInt16, UnsafePointer<UInt8>, Int) -> oblivex_status
) throws(OblivexError) {
    let status = withBytes(response.elements) { call(response.party, $0, $1) }
    if status == OBLIVEX_ERR_VERIFICATION_FAILED {
        throw .verificationFailed(cheaters: [response.party])
    }
    try check(status)
}

/// The C last step shared by the threshold clients (its batch bound):
/// party ids, responses and their lengths, their count, the output buffer
/// and the cheater buffer.
typealias ThresholdFinalize = (
    UnsafePointer<UInt16>, UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int>, Int,
    UnsafeMutablePointer<UInt8>, Int, UnsafeMutablePointer<Int>,
    UnsafeMutablePointer<UInt16>, Int, UnsafeMutablePointer<Int>
) -> Int32

/// Runs a threshold client's last step: on success the outputs (`count` of
/// `width` bytes) and the servers caught cheating; on a failure that
/// carries the cheater list, the error with it.
func finalizeThreshold(
    _ responses: [ThresholdResponse], quorum: [UInt16], count: Int, width: Int, _ call: ThresholdFinalize
) throws(OblivexError) -> (outputs: [[UInt8]], cheaters: [UInt16]) {
    try checkResponses(responses, quorum: quorum)
    let parties = responses.map(\.party) + [0] // never empty: a valid pointer
    var cheaters = [UInt16](repeating: 0, count: responses.count + 1)
    var cheatersWritten = 0
    var status = OBLIVEX_OK
    var flat = [UInt8](unsafeUninitializedCapacity: max(count * width, 1)) { out, initialized in
        var written = 0
        status = withByteStrings(responses.lazy.map(\.elements)) { pointers, lengths, n in
            parties.withUnsafeBufferPointer { ids in
                cheaters.withUnsafeMutableBufferPointer { named in
                    call(ids.baseAddress!, pointers, lengths, n, out.baseAddress!, count * width, &written,
                         named.baseAddress!, named.count, &cheatersWritten)
                }
            }
        }
        initialized = status == OBLIVEX_OK ? min(written, count * width) : 0
    }
    let named = Array(cheaters.prefix(min(cheatersWritten, cheaters.count)))
    if let error = OblivexError(status: status, cheaters: named) {
        throw error
    }
    return (split(&flat, width: width), named)
}

/// The client of an OPRF whose key is shared by m servers, t of which
/// must answer: the commitments of the sharing, an optional quorum and κ.
/// Every answer is checked against its server's commitment and cheaters
/// are named. The outputs equal the single-key OPRF's under the shared
/// key. A value; `Sendable` (it keeps its ``Commitments`` alive).
public struct ThresholdOPRFClient: Sendable {
    /// The sharing's commitments the client checks against.
    public let commitments: Commitments
    /// The client's quorum (empty for none).
    public let quorum: [UInt16]
    /// The client's κ (0: the default, 64).
    public let kappa: Int

    /// A threshold OPRF client for the servers sharing the key of
    /// `commitments`. `quorum` names exactly t servers that will answer
    /// (empty for none: any t correct answers combine), so that they
    /// pre-multiply by their Lagrange coefficients (give them the same
    /// quorum); ``OblivexError/invalidPartyID`` otherwise. `kappa` as in
    /// ``CheckedClient/init(suite:check:publicKey:kappa:)``.
    public init(commitments: Commitments, quorum: [UInt16] = [], kappa: Int = 0) throws(OblivexError) {
        try checkQuorum(quorum, threshold: commitments.threshold)
        try checkKappa(kappa)
        self.commitments = commitments
        self.quorum = quorum
        self.kappa = kappa
    }

    /// Hashes and blinds the inputs (each at most ``Library/maxInputLength``
    /// bytes), hides the balancer among them, and returns the batch, whose
    /// ``ThresholdOPRFBatch/request`` every server evaluates (count + 1
    /// element encodings). ``OblivexError/emptyInput`` for no input,
    /// ``OblivexError/invalidInput(cheaters:)`` if an input hashes to the
    /// identity.
    public func blind<Inputs: Collection>(_ inputs: Inputs) throws(OblivexError) -> ThresholdOPRFBatch
    where Inputs.Element: Collection<UInt8> {
        let suite = commitments.suite
        var handle: OpaquePointer?
        let request = try withExtendedLifetime(commitments) { () throws(OblivexError) -> [UInt8] in
            try withOutput(capacity: (inputs.count + 1) * suite.elementLength) { out, capacity, written in
                withByteStrings(inputs) { pointers, lengths, count in
                    withPartyIDs(quorum) { quorumPointer, quorumLength in
                        oblivex_threshold_oprf_batch_blind(commitments.handle, pointers, lengths, count,
                                                           quorumPointer, quorumLength, UInt32(kappa),
                                                           out, capacity, written, &handle)
                    }
                }
            }
        }
        return ThresholdOPRFBatch(suite: suite, count: inputs.count, quorum: quorum, request: request, handle: handle!)
    }
}

/// One blinded batch of a ``ThresholdOPRFClient``: its request, and the
/// inputs, blinds and check secrets, kept until ``finalize(_:)``.
///
/// Single use, enforced by the compiler (`~Copyable`, consumed by
/// `finalize`); its handle is freed and its secrets wiped exactly once, in
/// `deinit`. Not `Sendable`.
public struct ThresholdOPRFBatch: ~Copyable {
    /// The batch's suite.
    public let suite: Suite
    /// The number of inputs.
    public let count: Int
    /// What to send to every server (count + 1 element encodings).
    public let request: [UInt8]
    private let quorum: [UInt16]
    private let handle: OpaquePointer

    init(suite: Suite, count: Int, quorum: [UInt16], request: [UInt8], handle: OpaquePointer) {
        self.suite = suite
        self.count = count
        self.quorum = quorum
        self.request = request
        self.handle = handle
    }

    deinit {
        oblivex_threshold_oprf_batch_free(handle)
    }

    /// Checks one server's response against that server's commitment
    /// (weighted, with a named quorum) without spending the batch: returns
    /// if it passes, throws ``OblivexError/verificationFailed(cheaters:)``
    /// naming the server if it cheated (the answer fails its check, does
    /// not decode, or is not as long as the request),
    /// ``OblivexError/invalidPartyID`` for an id zero, above
    /// ``Library/maxParties`` or outside the named quorum. Check each
    /// response as it arrives and call ``finalize(_:)`` with the first t
    /// that passed. Constant time in the batch's secrets; each response
    /// checked gives its server one try at passing wrongly, with
    /// probability at most 2^-κ.
    public func check(_ response: ThresholdResponse) throws(OblivexError) {
        try checkThresholdResponse(response) { oblivex_threshold_oprf_batch_check(handle, $0, $1, $2) }
    }

    /// Checks every server's response against its commitment, combines t
    /// correct ones and returns the PRF output of every input
    /// (``Suite/outputLength`` bytes each, in order) and the servers caught
    /// cheating (an answer that fails its check or does not decode).
    ///
    /// Blame: every server whose answer is checked on its own and fails is
    /// named; when the combined check of t answers passes, their outputs are
    /// right, and servers whose wrong answers cancel out in the combination
    /// (colluders) change nothing and may go unnamed.
    ///
    /// Failures after the answers were checked carry the cheaters:
    /// ``OblivexError/notEnoughResponses(cheaters:)`` (fewer than t correct
    /// answers) and ``OblivexError/verificationFailed(cheaters:)`` (a cheater
    /// in a named quorum: ask another quorum with a fresh batch).
    /// ``OblivexError/invalidPartyID``: an id zero or repeated, or a server
    /// outside the named quorum. Consumes the batch whatever the outcome.
    public consuming func finalize(_ responses: [ThresholdResponse]) throws(OblivexError) -> (outputs: [[UInt8]], cheaters: [UInt16]) {
        return try finalizeThreshold(responses, quorum: quorum, count: count, width: suite.outputLength) {
            oblivex_threshold_oprf_batch_finalize(self.handle, $0, $1, $2, $3, $4, $5, $6, $7, $8, $9)
        }
    }
}

@available(*, unavailable, message: "a client batch is for one thread; move it, do not share it")
extension ThresholdOPRFBatch: Sendable {}
