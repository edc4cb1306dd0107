import COblivex

/// What a threshold BLS deployment publishes: the G2 public key, every
/// signer's G2 key and the G1 commitments, checked against each other by
/// pairings when it was made. Signers hold ``KeyShare``s of suite
/// ``Suite/bls12381G1``.
///
/// Immutable and `Sendable`; `deinit` frees the handle, once.
public final class BLSKeySet: @unchecked Sendable {
    // @unchecked: the only state is the immutable C handle, which the C
    // API documents as safe to share between threads.

    /// t: how many signers must answer.
    public let threshold: Int
    /// m: the number of signers.
    public let parties: Int
    /// The key every signature verifies under.
    public let publicKey: BLSPublicKey
    let handle: OpaquePointer

    /// Takes ownership of a new handle of a t-of-m key set (freeing it if
    /// its public key cannot be read).
    init(taking handle: OpaquePointer, threshold: Int, parties: Int) throws(OblivexError) {
        let key: [UInt8]
        do {
            key = try withOutput(capacity: BLSPublicKey.length) { oblivex_bls_key_set_public_key(handle, $0, $1, $2) }
        } catch {
            oblivex_bls_key_set_free(handle)
            throw error
        }
        self.threshold = threshold
        self.parties = parties
        self.publicKey = BLSPublicKey(trusted: key)
        self.handle = handle
    }

    /// Decodes a key set (``bytes()`` makes it), validating every point and
    /// checking the pairings that tie them: ``OblivexError/badLength``,
    /// ``OblivexError/invalidThreshold``, ``OblivexError/invalidElement``,
    /// or ``OblivexError/verificationFailed(cheaters:)`` for keys
    /// inconsistent with the commitments.
    public convenience init(bytes: some Collection<UInt8>) throws(OblivexError) {
        let encoded = Array(bytes)
        var handle: OpaquePointer?
        try check(withBytes(encoded) { oblivex_bls_key_set_from_bytes($0, $1, &handle) })
        // A valid encoding starts with t and m, 2 bytes big-endian each.
        let threshold = Int(encoded[0]) << 8 | Int(encoded[1])
        let parties = Int(encoded[2]) << 8 | Int(encoded[3])
        try self.init(taking: handle!, threshold: threshold, parties: parties)
    }

    deinit {
        oblivex_bls_key_set_free(handle)
    }

    /// A dealer's t-of-m threshold BLS key (`1 <= t <= m <= maxParties`):
    /// `secret` is the signing key to share (32 bytes big-endian) or nil for
    /// a fresh random one. Returns the signers' shares (parties 1...m, in
    /// order, suite ``Suite/bls12381G1``) and the key set to publish.
    /// ``OblivexError/invalidThreshold``, ``OblivexError/invalidScalar``
    /// (the secret).
    public static func deal(
        secret: [UInt8]? = nil, threshold: Int, parties: Int
    ) throws(OblivexError) -> (shares: [KeyShare], keySet: BLSKeySet) {
        try dealing(secret: secret, threshold: threshold, parties: parties)
    }

    /// ``deal(secret:threshold:parties:)`` with the secret as any
    /// collection of bytes (`Data`, a slice, …): the same checks and
    /// results.
    public static func deal(
        secret: some Collection<UInt8>, threshold: Int, parties: Int
    ) throws(OblivexError) -> (shares: [KeyShare], keySet: BLSKeySet) {
        try dealing(secret: Optional(secret), threshold: threshold, parties: parties)
    }

    /// The dealing of both `deal`s (`secret` nil for a fresh key).
    private static func dealing<Secret: Collection<UInt8>>(
        secret: Secret?, threshold: Int, parties: Int
    ) throws(OblivexError) -> (shares: [KeyShare], keySet: BLSKeySet) {
        try checkDealing(secret: secret, threshold: threshold, parties: parties)
        var shares = [OpaquePointer?](repeating: nil, count: parties)
        var keySet: OpaquePointer?
        try check(withOptionalBytes(secret) { secretPointer, secretLength in
            oblivex_bls_deal(secretPointer, secretLength, threshold, parties, &shares, &keySet)
        })
        let keyShares = shares.map { KeyShare(suite: .bls12381G1, taking: $0!) }
        return (keyShares, try BLSKeySet(taking: keySet!, threshold: threshold, parties: parties))
    }

    /// The key set's encoding, to publish (t and m as 2 bytes big-endian
    /// each, the public key, the m signers' keys, the t commitments).
    public func bytes() throws(OblivexError) -> [UInt8] {
        let length = 4 + (parties + 1) * BLSPublicKey.length + threshold * BLSPublicKey.signatureLength
        return try withOutput(capacity: length) { oblivex_bls_key_set_to_bytes(handle, $0, $1, $2) }
    }
}

/// The client of threshold blind BLS signing: the key set, an optional
/// quorum and κ. Signers cannot see the messages; every answer is checked
/// (in G1, no pairing) and cheaters are named; the signatures are standard
/// BLS. A value; `Sendable` (it keeps its ``BLSKeySet`` alive).
public struct BLSClient: Sendable {
    /// The key set the client checks against.
    public let keySet: BLSKeySet
    /// The client's quorum (empty for none).
    public let quorum: [UInt16]
    /// The client's κ (0: the default, 64).
    public let kappa: Int

    /// A signing client for the signers of `keySet`; `quorum` and `kappa`
    /// as in ``ThresholdOPRFClient/init(commitments:quorum:kappa:)``.
    public init(keySet: BLSKeySet, quorum: [UInt16] = [], kappa: Int = 0) throws(OblivexError) {
        try checkQuorum(quorum, threshold: keySet.threshold)
        try checkKappa(kappa)
        self.keySet = keySet
        self.quorum = quorum
        self.kappa = kappa
    }

    /// Hashes the messages (each at most ``Library/maxInputLength`` bytes)
    /// to G1, blinds them, hides the balancer among them and returns the
    /// batch, whose ``BLSBatch/request`` every signer signs (count + 1 G1
    /// encodings) with ``KeyShare/evaluate(_:quorum:)``.
    /// ``OblivexError/emptyInput`` for no message,
    /// ``OblivexError/invalidInput(cheaters:)`` if a message hashes to the
    /// identity.
    public func blind<Messages: Collection>(_ messages: Messages) throws(OblivexError) -> BLSBatch
    where Messages.Element: Collection<UInt8> {
        var handle: OpaquePointer?
        let request = try withExtendedLifetime(keySet) { () throws(OblivexError) -> [UInt8] in
            try withOutput(capacity: (messages.count + 1) * BLSPublicKey.signatureLength) { out, capacity, written in
                withByteStrings(messages) { pointers, lengths, count in
                    withPartyIDs(quorum) { quorumPointer, quorumLength in
                        oblivex_bls_batch_blind(keySet.handle, pointers, lengths, count, quorumPointer, quorumLength,
                                                UInt32(kappa), out, capacity, written, &handle)
                    }
                }
            }
        }
        return BLSBatch(count: messages.count, quorum: quorum, request: request, handle: handle!)
    }
}

/// One blinded batch of a ``BLSClient``: its request and its secrets, kept
/// until ``finalize(_:)``.
///
/// Single use, enforced by the compiler (`~Copyable`, consumed by
/// `finalize`); its handle is freed and its secrets wiped exactly once, in
/// `deinit`. Not `Sendable`.
public struct BLSBatch: ~Copyable {
    /// The number of messages.
    public let count: Int
    /// What to send to every signer (count + 1 G1 encodings).
    public let request: [UInt8]
    private let quorum: [UInt16]
    private let handle: OpaquePointer

    init(count: Int, quorum: [UInt16], request: [UInt8], handle: OpaquePointer) {
        self.count = count
        self.quorum = quorum
        self.request = request
        self.handle = handle
    }

    deinit {
        oblivex_bls_batch_free(handle)
    }

    /// Checks one signer's response without spending the batch, as
    /// ``ThresholdOPRFBatch/check(_:)``; then ``finalize(_:)`` with the
    /// first t that passed.
    public func check(_ response: ThresholdResponse) throws(OblivexError) {
        try checkThresholdResponse(response) { oblivex_bls_batch_check(handle, $0, $1, $2) }
    }

    /// Checks every signer's response, combines t correct ones, unblinds,
    /// and returns the signatures (``BLSPublicKey/signatureLength`` bytes
    /// each, standard `min_sig`, in message order:
    /// ``BLSPublicKey/verify(_:for:)`` accepts them) and the signers caught
    /// cheating. Blame and failures as
    /// ``ThresholdOPRFBatch/finalize(_:)``. Consumes the batch whatever the
    /// outcome.
    public consuming func finalize(_ responses: [ThresholdResponse]) throws(OblivexError) -> (signatures: [[UInt8]], cheaters: [UInt16]) {
        let result = try finalizeThreshold(responses, quorum: quorum, count: count, width: BLSPublicKey.signatureLength) {
            oblivex_bls_batch_finalize(self.handle, $0, $1, $2, $3, $4, $5, $6, $7, $8, $9)
        }
        return (result.outputs, result.cheaters)
    }
}

@available(*, unavailable, message: "a client batch is for one thread; move it, do not share it")
extension BLSBatch: Sendable {}
