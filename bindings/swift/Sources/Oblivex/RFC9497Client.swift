import COblivex

/// An RFC 9497 client of the mode `Kind`: its suite and, in VOPRF and
/// POPRF, the server's public key, obtained authentically. Use it as
/// ``OPRFClient``, ``VOPRFClient`` or ``POPRFClient``; each has the
/// initializer and `blind` of its mode (see ``RFC9497Mode``). A value;
/// `Sendable`: each `blind` makes an independent batch.
public struct RFC9497Client<Kind: RFC9497Mode>: Sendable {
    /// The client's suite (in VOPRF and POPRF, its public key's).
    public let suite: Suite
    /// The encoding of the server's public key (empty in OPRF mode, where
    /// the C API takes none).
    private let serverKey: [UInt8]

    /// The client's mode, the one its type names.
    public var mode: Mode { Kind.mode }

    private init(suite: Suite, serverKey: [UInt8]) {
        self.suite = suite
        self.serverKey = serverKey
    }

    /// The C client step of every mode's `blind`: `info` is nil except in
    /// POPRF mode.
    private func blinding<Inputs: Collection, Info: Collection<UInt8>>(
        _ inputs: Inputs, info: Info?
    ) throws(OblivexError) -> RFC9497Batch<Kind> where Inputs.Element: Collection<UInt8> {
        var handle: OpaquePointer?
        let request = try withOutput(capacity: inputs.count * suite.elementLength) { out, capacity, written in
            withByteStrings(inputs) { pointers, lengths, count in
                withOptionalBytes(info) { infoPointer, infoLength in
                    withOptionalBytes(serverKey) { keyPointer, keyLength in
                        oblivex_oprf_batch_blind(suite.rawValue, Kind.mode.rawValue, pointers, lengths, count,
                                                 infoPointer, infoLength, keyPointer, keyLength,
                                                 out, capacity, written, &handle)
                    }
                }
            }
        }
        return RFC9497Batch(suite: suite, count: inputs.count, request: request, handle: handle!)
    }
}

extension RFC9497Client where Kind == OPRFMode {
    /// An OPRF client of `suite`.
    public init(suite: Suite) {
        self.init(suite: suite, serverKey: [])
    }

    /// Hashes and blinds a batch of inputs (each at most
    /// ``Library/maxInputLength`` bytes; an empty input is an input) with
    /// fresh random blinds, and returns the batch holding them, whose
    /// ``RFC9497Batch/request`` goes to the server.
    /// ``OblivexError/emptyInput`` for no input,
    /// ``OblivexError/invalidInput(cheaters:)`` if an input hashes to the
    /// identity.
    public func blind<Inputs: Collection>(_ inputs: Inputs) throws(OblivexError) -> OPRFBatch
    where Inputs.Element: Collection<UInt8> {
        try blinding(inputs, info: [UInt8]?.none)
    }
}

extension RFC9497Client where Kind: VerifiableRFC9497Mode {
    /// A client that verifies against `publicKey`, the server's: the
    /// client's suite is the key's.
    public init(publicKey: PublicKey) {
        self.init(suite: publicKey.suite, serverKey: publicKey.bytes)
    }

    /// The server's public key the client verifies against.
    public var publicKey: PublicKey { PublicKey(suite: suite, trusted: serverKey) }
}

extension RFC9497Client where Kind == VOPRFMode {
    /// ``OPRFClient``'s `blind(_:)` for a VOPRF batch.
    public func blind<Inputs: Collection>(_ inputs: Inputs) throws(OblivexError) -> VOPRFBatch
    where Inputs.Element: Collection<UInt8> {
        try blinding(inputs, info: [UInt8]?.none)
    }
}

extension RFC9497Client where Kind == POPRFMode {
    /// ``OPRFClient``'s `blind(_:)` for a POPRF batch under `info`, the
    /// public input the server evaluates with (at most
    /// ``Library/maxInputLength`` bytes, ``OblivexError/badLength``
    /// otherwise; an empty info is an info).
    /// ``OblivexError/invalidInput(cheaters:)`` also if the info gives an
    /// unusable key.
    public func blind<Inputs: Collection>(
        _ inputs: Inputs, info: some Collection<UInt8>
    ) throws(OblivexError) -> POPRFBatch where Inputs.Element: Collection<UInt8> {
        try blinding(inputs, info: info)
    }
}
