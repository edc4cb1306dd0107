import COblivex

/// The batch OPRF client secure against a malicious server without any
/// proof (the balancer check of Baum et al., ePrint 2024/1613): its
/// request carries one extra element (more for ``Check/keyFree`` on small
/// batches), the server answers with its plain ``OPRFServer``'s
/// `evaluate(_:)`, and ``CheckedBatch/finalize(_:)`` returns every output
/// or throws ``OblivexError/verificationFailed(cheaters:)`` and gives none.
/// The outputs equal the plain OPRF's. A value; `Sendable`.
public struct CheckedClient: Sendable {
    /// The client's suite.
    public let suite: Suite
    /// The client's check.
    public let check: Check
    /// The server's public key (nil for ``Check/keyFree``).
    public let publicKey: PublicKey?
    /// The client's κ (0: the default, 64).
    public let kappa: Int

    /// A checked client of `suite`. ``Check/committedKey`` takes the
    /// server's public key (``OblivexError/missingPublicKey`` without one,
    /// ``OblivexError/suiteMismatch`` for another suite's);
    /// ``Check/keyFree`` takes none (``OblivexError/badLength`` otherwise).
    /// `kappa` is the bit length of the secret verification factors, in
    /// ``Library/kappaRange`` or 0 for the default, 64
    /// (``OblivexError/invalidKappa``): a cheating server passes with
    /// probability at most 2^-κ.
    public init(suite: Suite, check: Check, publicKey: PublicKey? = nil, kappa: Int = 0) throws(OblivexError) {
        switch check {
        case .committedKey:
            guard publicKey != nil else { throw .missingPublicKey }
        case .keyFree:
            guard publicKey == nil else { throw .badLength }
        }
        if let publicKey, publicKey.suite != suite {
            throw .suiteMismatch
        }
        try checkKappa(kappa)
        self.suite = suite
        self.check = check
        self.publicKey = publicKey
        self.kappa = kappa
    }

    /// The number of elements a request for `count` inputs holds: the
    /// inputs, the balancer and, for ``Check/keyFree``, random padding
    /// until the secret factors reach 256 bits. 0 for `count < 1` or a
    /// request above 65535 elements.
    public func requestLength(for count: Int) -> Int {
        guard count >= 1 else { return 0 }
        return oblivex_checked_oprf_request_len(check.rawValue, UInt32(kappa), count)
    }

    /// Hashes and blinds the inputs (each at most ``Library/maxInputLength``
    /// bytes), hides the balancer among them (and the padding of
    /// ``Check/keyFree``), and returns the batch, whose
    /// ``CheckedBatch/request`` goes to the server.
    /// ``OblivexError/emptyInput`` for no input, ``OblivexError/badLength``
    /// for a request above 65535 elements or an input too long,
    /// ``OblivexError/invalidInput(cheaters:)`` if an input hashes to the
    /// identity.
    public func blind<Inputs: Collection>(_ inputs: Inputs) throws(OblivexError) -> CheckedBatch
    where Inputs.Element: Collection<UInt8> {
        guard !inputs.isEmpty else { throw .emptyInput }
        let elements = requestLength(for: inputs.count)
        guard elements > 0 else { throw .badLength }
        let key = publicKey?.bytes ?? []
        var handle: OpaquePointer?
        let request = try withOutput(capacity: elements * suite.elementLength) { out, capacity, written in
            withByteStrings(inputs) { pointers, lengths, count in
                withOptionalBytes(key) { keyPointer, keyLength in
                    oblivex_checked_oprf_batch_blind(suite.rawValue, check.rawValue, UInt32(kappa), keyPointer, keyLength,
                                                     pointers, lengths, count, out, capacity, written, &handle)
                }
            }
        }
        return CheckedBatch(suite: suite, count: inputs.count, request: request, handle: handle!)
    }
}

/// One blinded batch of a ``CheckedClient``: its request, and the blinds
/// and the check's secret coins, kept until ``finalize(_:)``.
///
/// Single use, enforced by the compiler (`~Copyable`, consumed by
/// `finalize`); its handle is freed and its secrets wiped exactly once, in
/// `deinit`. Not `Sendable`.
public struct CheckedBatch: ~Copyable {
    /// The batch's suite.
    public let suite: Suite
    /// The number of inputs.
    public let count: Int
    /// What to send to the server (``CheckedClient/requestLength(for:)``
    /// element encodings, concatenated).
    public let request: [UInt8]
    private let handle: OpaquePointer

    init(suite: Suite, count: Int, request: [UInt8], handle: OpaquePointer) {
        self.suite = suite
        self.count = count
        self.request = request
        self.handle = handle
    }

    deinit {
        oblivex_checked_oprf_batch_free(handle)
    }

    /// Checks the server's response (one element per element of the
    /// request) and returns the PRF output of every input
    /// (``Suite/outputLength`` bytes each, in order), equal to the plain
    /// OPRF's; or throws ``OblivexError/verificationFailed(cheaters:)`` and
    /// gives none: the server did not apply its key to every element (stop
    /// using it). ``OblivexError/badLength`` and
    /// ``OblivexError/invalidElement`` for a malformed response.
    ///
    /// Consumes the batch whatever the outcome: on any error, blind again.
    public consuming func finalize(_ response: some Collection<UInt8>) throws(OblivexError) -> [[UInt8]] {
        let width = suite.outputLength
        var outputs = try withOutput(capacity: count * width) { out, capacity, written in
            withBytes(response) { responsePointer, responseLength in
                oblivex_checked_oprf_batch_finalize(self.handle, responsePointer, responseLength, out, capacity, written)
            }
        }
        return split(&outputs, width: width)
    }
}

@available(*, unavailable, message: "a client batch is for one thread; move it, do not share it")
extension CheckedBatch: Sendable {}
