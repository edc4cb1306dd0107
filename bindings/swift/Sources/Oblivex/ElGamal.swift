import COblivex

/// ElGamal encryption to a (shared) public key, for decryption by t of m
/// servers with an ``ElGamalClient``. Plain CPA ElGamal: not CCA-secure (a
/// decryption server raises any element to its share).
public enum ElGamal {
    /// Encrypts `message` (an element encoding of the key's suite, not the
    /// identity) under `publicKey` (e.g. ``Commitments/publicKey``) and
    /// returns the ciphertext `c1 || c2` (two element encodings).
    /// ``OblivexError/invalidElement`` for a message that does not decode
    /// or is the identity.
    public static func encrypt(_ message: some Collection<UInt8>, to publicKey: PublicKey) throws(OblivexError) -> [UInt8] {
        let suite = publicKey.suite
        return try withOutput(capacity: 2 * suite.elementLength) { out, capacity, written in
            withBytes(publicKey.bytes) { keyPointer, keyLength in
                withBytes(message) { messagePointer, messageLength in
                    oblivex_elgamal_encrypt(suite.rawValue, keyPointer, keyLength, messagePointer, messageLength,
                                            out, capacity, written)
                }
            }
        }
    }

    /// The KEM form: a fresh encapsulation (an element encoding) under
    /// `publicKey` and its shared secret (``Suite/outputLength`` bytes; the
    /// caller's: wipe it after use).
    public static func encapsulate(to publicKey: PublicKey) throws(OblivexError) -> (encapsulation: [UInt8], secret: [UInt8]) {
        let suite = publicKey.suite
        var secret = [UInt8](repeating: 0, count: suite.outputLength)
        var secretWritten = 0
        let encapsulation = try withOutput(capacity: suite.elementLength) { out, capacity, written in
            withBytes(publicKey.bytes) { keyPointer, keyLength in
                secret.withUnsafeMutableBufferPointer { secretBuffer in
                    oblivex_elgamal_encapsulate(suite.rawValue, keyPointer, keyLength, out, capacity, written,
                                                secretBuffer.baseAddress, secretBuffer.count, &secretWritten)
                }
            }
        }
        // Keep what the library wrote (the whole buffer for a valid call);
        // wipe the rest before dropping it.
        let kept = min(secretWritten, secret.count)
        secret.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress {
                wipe(base + kept, count: buffer.count - kept)
            }
        }
        secret.removeSubrange(kept...)
        return (encapsulation, secret)
    }
}

/// The client of threshold ElGamal decryption: the commitments of the
/// servers' sharing, what to recover (``ElGamalTarget``), whether to blind,
/// an optional quorum and κ. Every answer is checked and cheaters are
/// named. A value; `Sendable` (it keeps its ``Commitments`` alive).
public struct ElGamalClient: Sendable {
    /// The sharing's commitments the client checks against.
    public let commitments: Commitments
    /// What the client recovers.
    public let target: ElGamalTarget
    /// Whether the client blinds its requests.
    public let blinded: Bool
    /// The client's quorum (empty for none).
    public let quorum: [UInt16]
    /// The client's κ (0: the default, 64).
    public let kappa: Int

    /// A decryption client for the servers sharing the key of
    /// `commitments`. `target` is ``ElGamalTarget/plaintexts`` (items are
    /// ciphertexts) or ``ElGamalTarget/kemSecrets`` (items are
    /// encapsulations). With `blinded` the servers see r_i·c1_i for fresh
    /// secret r_i and cannot link the request to the ciphertexts. `quorum`
    /// and `kappa` as in ``ThresholdOPRFClient/init(commitments:quorum:kappa:)``.
    public init(
        commitments: Commitments, target: ElGamalTarget, blinded: Bool = true, quorum: [UInt16] = [], kappa: Int = 0
    ) throws(OblivexError) {
        try checkQuorum(quorum, threshold: commitments.threshold)
        try checkKappa(kappa)
        self.commitments = commitments
        self.target = target
        self.blinded = blinded
        self.quorum = quorum
        self.kappa = kappa
    }

    /// Prepares the decryption of `items` (ciphertexts for
    /// ``ElGamalTarget/plaintexts``, encapsulations for
    /// ``ElGamalTarget/kemSecrets``) and returns the batch, whose
    /// ``ElGamalBatch/request`` every server answers (count + 1 element
    /// encodings) with ``KeyShare/evaluate(_:quorum:)``.
    /// ``OblivexError/emptyInput`` for no item, ``OblivexError/badLength``
    /// for items not all of the target's width,
    /// ``OblivexError/invalidElement`` for an item that does not decode.
    public func blind<Items: Collection>(_ items: Items) throws(OblivexError) -> ElGamalBatch
    where Items.Element: Collection<UInt8> {
        var (flat, _) = try flatten(items)
        defer { wipe(&flat) }
        let count = items.count
        let suite = commitments.suite
        var handle: OpaquePointer?
        let request = try withExtendedLifetime(commitments) { () throws(OblivexError) -> [UInt8] in
            try withOutput(capacity: (count + 1) * suite.elementLength) { out, capacity, written in
                withBytes(flat) { itemsPointer, itemsLength in
                    withPartyIDs(quorum) { quorumPointer, quorumLength in
                        oblivex_elgamal_batch_blind(commitments.handle, target.rawValue, itemsPointer, itemsLength, count,
                                                    blinded, quorumPointer, quorumLength, UInt32(kappa),
                                                    out, capacity, written, &handle)
                    }
                }
            }
        }
        return ElGamalBatch(count: count, quorum: quorum, request: request, handle: handle!)
    }
}

/// One batch of an ``ElGamalClient``: its request and its secrets, kept
/// until ``finalize(_:)``.
///
/// Single use, enforced by the compiler (`~Copyable`, consumed by
/// `finalize`); its handle is freed and its secrets wiped exactly once, in
/// `deinit`. Not `Sendable`.
public struct ElGamalBatch: ~Copyable {
    /// The number of items.
    public let count: Int
    /// The size of each output: an element encoding for plaintexts,
    /// ``Suite/outputLength`` for KEM secrets.
    public let outputLength: Int
    /// What to send to every server (count + 1 element encodings).
    public let request: [UInt8]
    private let quorum: [UInt16]
    private let handle: OpaquePointer

    init(count: Int, quorum: [UInt16], request: [UInt8], handle: OpaquePointer) {
        self.count = count
        self.outputLength = oblivex_elgamal_batch_output_len(handle)
        self.quorum = quorum
        self.request = request
        self.handle = handle
    }

    deinit {
        oblivex_elgamal_batch_free(handle)
    }

    /// Checks one server's response without spending the batch, as
    /// ``ThresholdOPRFBatch/check(_:)``; then ``finalize(_:)`` with the
    /// first t that passed.
    public func check(_ response: ThresholdResponse) throws(OblivexError) {
        try checkThresholdResponse(response) { oblivex_elgamal_batch_check(handle, $0, $1, $2) }
    }

    /// Checks every server's response, combines t correct ones, unblinds,
    /// and returns the plaintexts (element encodings) or KEM secrets, in
    /// order, and the servers caught cheating. Blame and failures as
    /// ``ThresholdOPRFBatch/finalize(_:)``, plus
    /// ``OblivexError/invalidInput(cheaters:)`` for a ciphertext whose
    /// plaintext is the identity (not a valid encryption): no output for
    /// the whole batch, the servers already caught named. Consumes the
    /// batch whatever the outcome.
    public consuming func finalize(_ responses: [ThresholdResponse]) throws(OblivexError) -> (outputs: [[UInt8]], cheaters: [UInt16]) {
        return try finalizeThreshold(responses, quorum: quorum, count: count, width: outputLength) {
            oblivex_elgamal_batch_finalize(self.handle, $0, $1, $2, $3, $4, $5, $6, $7, $8, $9)
        }
    }
}

@available(*, unavailable, message: "a client batch is for one thread; move it, do not share it")
extension ElGamalBatch: Sendable {}
