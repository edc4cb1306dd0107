import COblivex

/// One blinded batch of an ``RFC9497Client`` of the mode `Kind`
/// (``OPRFBatch``, ``VOPRFBatch``, ``POPRFBatch``): its request and the
/// secret blinds, kept until `finalize`, which takes a proof exactly in
/// VOPRF and POPRF.
///
/// Single use, enforced by the compiler: the batch is `~Copyable` and
/// `finalize` consumes it, so finalizing twice or using the batch after
/// finalizing does not compile. Its C handle is freed (the blinds wiped)
/// exactly once, in `deinit`: when `finalize` returns or throws, or when a
/// batch that is never finalized goes out of scope. Not `Sendable` (a C
/// batch is for one thread); it can still be moved.
public struct RFC9497Batch<Kind: RFC9497Mode>: ~Copyable {
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

    /// The C last step of every mode's `finalize` (which consumes the
    /// batch, so that its `deinit` frees it once this returns or throws):
    /// `proof` is nil in OPRF mode.
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

extension RFC9497Batch where Kind == OPRFMode {
    /// Takes the server's answer (`evaluated`, one element per input) and
    /// returns the PRF output of every input (``Suite/outputLength`` bytes
    /// each, in order). The answer is not verified: ``CheckedClient``
    /// catches a cheating server without a proof.
    ///
    /// Consumes the batch whatever the outcome: on any error, blind again.
    /// ``OblivexError/badLength`` (not one element per input) and
    /// ``OblivexError/invalidElement``: a malformed answer.
    public consuming func finalize(_ evaluated: some Collection<UInt8>) throws(OblivexError) -> [[UInt8]] {
        try outputs(evaluated, proof: [UInt8]?.none)
    }
}

extension RFC9497Batch where Kind: VerifiableRFC9497Mode {
    /// Checks the server's answer (`evaluated`, one element per input) and
    /// its `proof` (once for the whole batch; any collection of bytes),
    /// then returns the PRF output of every input (``Suite/outputLength``
    /// bytes each, in order). In POPRF the proof holds only for the info
    /// the batch was blinded with.
    ///
    /// Consumes the batch whatever the outcome: on any error, blind again.
    /// ``OblivexError/verificationFailed(cheaters:)``: the proof does not
    /// hold (a malicious server). ``OblivexError/missingProof`` (an empty
    /// proof), ``OblivexError/badLength`` (not one element per input, a
    /// proof of the wrong size), ``OblivexError/invalidElement``,
    /// ``OblivexError/invalidScalar``: a malformed answer.
    public consuming func finalize(
        _ evaluated: some Collection<UInt8>, proof: some Collection<UInt8>
    ) throws(OblivexError) -> [[UInt8]] {
        try outputs(evaluated, proof: Optional(proof))
    }
}

@available(*, unavailable, message: "a client batch is for one thread; move it, do not share it")
extension RFC9497Batch: Sendable {}
