import COblivex

/// Every failure of the package: one case per status code of the C API
/// (`OBLIVEX_ERR_*`), thrown with typed throws (`throws(OblivexError)`).
///
/// The three failures that come after a threshold client checked the
/// servers' answers carry the party ids of the servers caught cheating
/// (possibly none): ``notEnoughResponses(cheaters:)``,
/// ``verificationFailed(cheaters:)`` (a cheater in a named quorum) and, for
/// ElGamal, ``invalidInput(cheaters:)``; so do the first two when
/// ``BLSKeySet/derive(commitments:parties:signerKeys:)`` checked the
/// signers' keys. Elsewhere those lists are empty.
/// Match a case without its list as `catch .verificationFailed`.
///
/// Some cases cannot come out of this package and exist to map every
/// status: ``nullPointer`` and ``bufferTooSmall`` (the package never passes
/// NULL where a pointer is needed and sizes every buffer), ``unknownSuite``,
/// ``unknownCheck`` and ``unknownTarget`` (``Suite``, ``Check`` and
/// ``ElGamalTarget`` are enums), ``unknownMode`` (each RFC 9497 mode has
/// its own types, which pass only their own mode), and ``batchUsed``
/// (a batch is `~Copyable` and its `finalize` consumes it, so a spent batch
/// cannot be used: the compiler refuses it), and ``wrongRound`` (likewise
/// for a DKG round state and its step).
public enum OblivexError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `OBLIVEX_ERR_NULL_POINTER`: a required pointer argument was NULL.
    case nullPointer
    /// `OBLIVEX_ERR_BAD_LENGTH`: a length does not fit the operation (not a
    /// whole number of elements, counts that disagree, an input, operand or
    /// batch longer than supported, a public key where none is taken).
    case badLength
    /// `OBLIVEX_ERR_EMPTY_INPUT`: a batch of zero items, or an operand of
    /// zero bytes.
    case emptyInput
    /// `OBLIVEX_ERR_ZERO_MODULUS`: the modulus is zero (or has no bytes).
    case zeroModulus
    /// `OBLIVEX_ERR_EVEN_MODULUS`: the modulus is even.
    case evenModulus
    /// `OBLIVEX_ERR_MODULUS_TOO_LARGE`: the modulus is longer than
    /// ``Library/maxModulusBits``.
    case modulusTooLarge
    /// `OBLIVEX_ERR_BUFFER_TOO_SMALL`: an output buffer was too small (the
    /// package sizes every buffer, so this would be a bug in it).
    case bufferTooSmall
    /// `OBLIVEX_ERR_UNSUPPORTED_BACKEND`: the environment variable
    /// `OBLIVEX_BACKEND` names a backend that is unknown or that this CPU
    /// cannot run, or `OBLIVEX_AVX2_PROFILE` a tuning profile that is
    /// unknown (see ``Library/backendName``).
    case unsupportedBackend
    /// `OBLIVEX_ERR_INVALID_ELEMENT`: an encoded group element is not
    /// canonical, not in the prime-order group, or the identity.
    case invalidElement
    /// `OBLIVEX_ERR_INVALID_SCALAR`: an encoded scalar is not canonical, or
    /// zero where a key or a share is expected.
    case invalidScalar
    /// `OBLIVEX_ERR_VERIFICATION_FAILED`: a proof or the check of a server's
    /// answers failed (a malicious server), a share does not match its
    /// commitments, or a signature does not verify. No output. From a
    /// threshold client (a cheater in a named quorum: ask another quorum
    /// with a fresh batch) `cheaters` names the servers caught.
    case verificationFailed(cheaters: [UInt16])
    /// `OBLIVEX_ERR_RNG_FAILURE`: the operating system's random number
    /// generator failed.
    case rngFailure
    /// `OBLIVEX_ERR_INVALID_INPUT`: a protocol input was rejected: it hashes
    /// to the identity, a POPRF info gives an unusable key, or (ElGamal) a
    /// ciphertext decrypts to the identity, in which case `cheaters` names
    /// the servers already caught.
    case invalidInput(cheaters: [UInt16])
    /// `OBLIVEX_ERR_DERIVE_KEY_PAIR`: RFC 9497 DeriveKeyPair found no valid
    /// key in 256 attempts.
    case deriveKeyPair
    /// `OBLIVEX_ERR_UNKNOWN_SUITE`: a suite value the library does not know.
    case unknownSuite
    /// `OBLIVEX_ERR_BATCH_USED`: a client batch was finalized already.
    case batchUsed
    /// `OBLIVEX_ERR_UNKNOWN_MODE`: a mode value the library does not know.
    case unknownMode
    /// `OBLIVEX_ERR_INVALID_KAPPA`: κ is neither 0 (the default, 64) nor in
    /// ``Library/kappaRange``.
    case invalidKappa
    /// `OBLIVEX_ERR_UNKNOWN_CHECK`: a check value the library does not know.
    case unknownCheck
    /// `OBLIVEX_ERR_MISSING_PUBLIC_KEY`: the server's public key is needed
    /// (``Check/committedKey``) and was not given.
    case missingPublicKey
    /// `OBLIVEX_ERR_INVALID_PARTY_ID`: a party (server) id is zero, above
    /// ``Library/maxParties`` or repeated, a quorum is not exactly t ids, or
    /// a server answered from outside the named quorum.
    case invalidPartyID
    /// `OBLIVEX_ERR_INVALID_THRESHOLD`: a threshold t of m is unusable
    /// (t = 0, t > m, or m above ``Library/maxParties``; for a DKG also
    /// m < 2 or m < 2t − 1, or t = 1 in a refresh).
    case invalidThreshold
    /// `OBLIVEX_ERR_NOT_ENOUGH_RESPONSES`: fewer than t servers answered
    /// correctly (or published a right key); `cheaters` names the servers
    /// caught cheating.
    case notEnoughResponses(cheaters: [UInt16])
    /// `OBLIVEX_ERR_UNKNOWN_TARGET`: an ElGamal target value the library
    /// does not know.
    case unknownTarget
    /// `OBLIVEX_ERR_SUITE_MISMATCH`: values of different suites were used
    /// together (a key share and commitments, a public key and a checked
    /// client), or a DKG message is of another suite than the run's.
    case suiteMismatch
    /// `OBLIVEX_ERR_MISSING_PROOF`: the proof is missing where the mode
    /// needs one (an empty proof given to a VOPRF or POPRF batch).
    case missingProof
    /// `OBLIVEX_ERR_EQUAL_PRIMES`: the two primes of an RSA key are equal.
    case equalPrimes
    /// `OBLIVEX_ERR_UNSUPPORTED_KEY_SIZE`: the primes of an RSA key have
    /// different bit lengths, or lengths outside 2...4096 bits.
    case unsupportedKeySize
    /// `OBLIVEX_ERR_INVALID_CRT_EXPONENT`: an RSA key's dp or dq is even or
    /// not below its prime.
    case invalidCRTExponent
    /// `OBLIVEX_ERR_INVALID_CRT_COEFFICIENT`: an RSA key's qinv is not
    /// q^-1 mod p.
    case invalidCRTCoefficient
    /// `OBLIVEX_ERR_CIPHERTEXT_OUT_OF_RANGE`: an RSA ciphertext (or message
    /// to sign) is not below the modulus n.
    case ciphertextOutOfRange
    /// `OBLIVEX_ERR_UNSUPPORTED_VERSION`: a DKG message's format version is not one
    /// this library reads.
    case unsupportedVersion
    /// `OBLIVEX_ERR_WRONG_MESSAGE_KIND`: a DKG message is of another kind than the
    /// one expected (or a key generation's message in a refresh).
    case wrongMessageKind
    /// `OBLIVEX_ERR_WRONG_PARAMETERS`: a DKG message's threshold or party count
    /// differs from the run's.
    case wrongParameters
    /// `OBLIVEX_ERR_WRONG_SESSION`: a DKG message carries another session id.
    case wrongSession
    /// `OBLIVEX_ERR_WRONG_SENDER`: the sender written in a DKG message is not
    /// the party the transport authenticated.
    case wrongSender
    /// `OBLIVEX_ERR_WRONG_RECIPIENT`: a DKG share pair is addressed to another
    /// party.
    case wrongRecipient
    /// `OBLIVEX_ERR_UNSORTED_PARTY_IDS`: a list of party ids in a DKG message is
    /// not strictly increasing, or names its sender.
    case unsortedPartyIDs
    /// `OBLIVEX_ERR_DUPLICATE_MESSAGE`: two DKG messages of one round from the
    /// same sender, or one from the receiving party itself.
    case duplicateMessage
    /// `OBLIVEX_ERR_NO_QUALIFIED_PARTY`: every party of a DKG run was
    /// disqualified.
    case noQualifiedParty
    /// `OBLIVEX_ERR_NOT_ENOUGH_REVEALED_SHARES`: fewer than t valid shares of an
    /// exposed DKG dealer were revealed.
    case notEnoughRevealedShares
    /// `OBLIVEX_ERR_DEGENERATE_KEY`: a DKG's key, a joint commitment or a share
    /// came out as the identity or zero: run again with a new session id.
    case degenerateKey
    /// `OBLIVEX_ERR_SHARE_MISMATCH`: a key share does not match the commitments
    /// it should (a refresh started from a share of another key).
    case shareMismatch
    /// `OBLIVEX_ERR_WRONG_ROUND`: a DKG step out of turn (the package's round
    /// states are consumed by their step, so this would be a bug in it).
    case wrongRound
    /// `OBLIVEX_ERR_OLD_COMMITMENTS_MISMATCH`: a refresh or resharing message
    /// names other old commitments than the run's (its sender, or this
    /// party, started from another sharing of the key).
    case oldCommitmentsMismatch
    /// `OBLIVEX_ERR_PANIC`: internal error, a panic caught at the library's
    /// C boundary (a bug in oblivex; please report it).
    case panic
    /// A status code this package does not know (one added to a newer
    /// library), with its value.
    case unknownStatus(Int32)

    /// The error of a failed C status, with the cheater list for the three
    /// statuses that carry one. `nil` for `OBLIVEX_OK`.
    init?(status: oblivex_status, cheaters: [UInt16] = []) {
        switch status {
        case OBLIVEX_OK: return nil
        case OBLIVEX_ERR_NULL_POINTER: self = .nullPointer
        case OBLIVEX_ERR_BAD_LENGTH: self = .badLength
        case OBLIVEX_ERR_EMPTY_INPUT: self = .emptyInput
        case OBLIVEX_ERR_ZERO_MODULUS: self = .zeroModulus
        case OBLIVEX_ERR_EVEN_MODULUS: self = .evenModulus
        case OBLIVEX_ERR_MODULUS_TOO_LARGE: self = .modulusTooLarge
        case OBLIVEX_ERR_BUFFER_TOO_SMALL: self = .bufferTooSmall
        case OBLIVEX_ERR_UNSUPPORTED_BACKEND: self = .unsupportedBackend
        case OBLIVEX_ERR_INVALID_ELEMENT: self = .invalidElement
        case OBLIVEX_ERR_INVALID_SCALAR: self = .invalidScalar
        case OBLIVEX_ERR_VERIFICATION_FAILED: self = .verificationFailed(cheaters: cheaters)
        case OBLIVEX_ERR_RNG_FAILURE: self = .rngFailure
        case OBLIVEX_ERR_INVALID_INPUT: self = .invalidInput(cheaters: cheaters)
        case OBLIVEX_ERR_DERIVE_KEY_PAIR: self = .deriveKeyPair
        case OBLIVEX_ERR_UNKNOWN_SUITE: self = .unknownSuite
        case OBLIVEX_ERR_BATCH_USED: self = .batchUsed
        case OBLIVEX_ERR_UNKNOWN_MODE: self = .unknownMode
        case OBLIVEX_ERR_INVALID_KAPPA: self = .invalidKappa
        case OBLIVEX_ERR_UNKNOWN_CHECK: self = .unknownCheck
        case OBLIVEX_ERR_MISSING_PUBLIC_KEY: self = .missingPublicKey
        case OBLIVEX_ERR_INVALID_PARTY_ID: self = .invalidPartyID
        case OBLIVEX_ERR_INVALID_THRESHOLD: self = .invalidThreshold
        case OBLIVEX_ERR_NOT_ENOUGH_RESPONSES: self = .notEnoughResponses(cheaters: cheaters)
        case OBLIVEX_ERR_UNKNOWN_TARGET: self = .unknownTarget
        case OBLIVEX_ERR_SUITE_MISMATCH: self = .suiteMismatch
        case OBLIVEX_ERR_MISSING_PROOF: self = .missingProof
        case OBLIVEX_ERR_EQUAL_PRIMES: self = .equalPrimes
        case OBLIVEX_ERR_UNSUPPORTED_KEY_SIZE: self = .unsupportedKeySize
        case OBLIVEX_ERR_INVALID_CRT_EXPONENT: self = .invalidCRTExponent
        case OBLIVEX_ERR_INVALID_CRT_COEFFICIENT: self = .invalidCRTCoefficient
        case OBLIVEX_ERR_CIPHERTEXT_OUT_OF_RANGE: self = .ciphertextOutOfRange
        case OBLIVEX_ERR_UNSUPPORTED_VERSION: self = .unsupportedVersion
        case OBLIVEX_ERR_WRONG_MESSAGE_KIND: self = .wrongMessageKind
        case OBLIVEX_ERR_WRONG_PARAMETERS: self = .wrongParameters
        case OBLIVEX_ERR_WRONG_SESSION: self = .wrongSession
        case OBLIVEX_ERR_WRONG_SENDER: self = .wrongSender
        case OBLIVEX_ERR_WRONG_RECIPIENT: self = .wrongRecipient
        case OBLIVEX_ERR_UNSORTED_PARTY_IDS: self = .unsortedPartyIDs
        case OBLIVEX_ERR_DUPLICATE_MESSAGE: self = .duplicateMessage
        case OBLIVEX_ERR_NO_QUALIFIED_PARTY: self = .noQualifiedParty
        case OBLIVEX_ERR_NOT_ENOUGH_REVEALED_SHARES: self = .notEnoughRevealedShares
        case OBLIVEX_ERR_DEGENERATE_KEY: self = .degenerateKey
        case OBLIVEX_ERR_SHARE_MISMATCH: self = .shareMismatch
        case OBLIVEX_ERR_WRONG_ROUND: self = .wrongRound
        case OBLIVEX_ERR_OLD_COMMITMENTS_MISMATCH: self = .oldCommitmentsMismatch
        case OBLIVEX_ERR_PANIC: self = .panic
        default: self = .unknownStatus(status)
        }
    }

    /// The C status code of the error (`OBLIVEX_ERR_*`).
    public var status: Int32 {
        switch self {
        case .nullPointer: OBLIVEX_ERR_NULL_POINTER
        case .badLength: OBLIVEX_ERR_BAD_LENGTH
        case .emptyInput: OBLIVEX_ERR_EMPTY_INPUT
        case .zeroModulus: OBLIVEX_ERR_ZERO_MODULUS
        case .evenModulus: OBLIVEX_ERR_EVEN_MODULUS
        case .modulusTooLarge: OBLIVEX_ERR_MODULUS_TOO_LARGE
        case .bufferTooSmall: OBLIVEX_ERR_BUFFER_TOO_SMALL
        case .unsupportedBackend: OBLIVEX_ERR_UNSUPPORTED_BACKEND
        case .invalidElement: OBLIVEX_ERR_INVALID_ELEMENT
        case .invalidScalar: OBLIVEX_ERR_INVALID_SCALAR
        case .verificationFailed: OBLIVEX_ERR_VERIFICATION_FAILED
        case .rngFailure: OBLIVEX_ERR_RNG_FAILURE
        case .invalidInput: OBLIVEX_ERR_INVALID_INPUT
        case .deriveKeyPair: OBLIVEX_ERR_DERIVE_KEY_PAIR
        case .unknownSuite: OBLIVEX_ERR_UNKNOWN_SUITE
        case .batchUsed: OBLIVEX_ERR_BATCH_USED
        case .unknownMode: OBLIVEX_ERR_UNKNOWN_MODE
        case .invalidKappa: OBLIVEX_ERR_INVALID_KAPPA
        case .unknownCheck: OBLIVEX_ERR_UNKNOWN_CHECK
        case .missingPublicKey: OBLIVEX_ERR_MISSING_PUBLIC_KEY
        case .invalidPartyID: OBLIVEX_ERR_INVALID_PARTY_ID
        case .invalidThreshold: OBLIVEX_ERR_INVALID_THRESHOLD
        case .notEnoughResponses: OBLIVEX_ERR_NOT_ENOUGH_RESPONSES
        case .unknownTarget: OBLIVEX_ERR_UNKNOWN_TARGET
        case .suiteMismatch: OBLIVEX_ERR_SUITE_MISMATCH
        case .missingProof: OBLIVEX_ERR_MISSING_PROOF
        case .equalPrimes: OBLIVEX_ERR_EQUAL_PRIMES
        case .unsupportedKeySize: OBLIVEX_ERR_UNSUPPORTED_KEY_SIZE
        case .invalidCRTExponent: OBLIVEX_ERR_INVALID_CRT_EXPONENT
        case .invalidCRTCoefficient: OBLIVEX_ERR_INVALID_CRT_COEFFICIENT
        case .ciphertextOutOfRange: OBLIVEX_ERR_CIPHERTEXT_OUT_OF_RANGE
        case .unsupportedVersion: OBLIVEX_ERR_UNSUPPORTED_VERSION
        case .wrongMessageKind: OBLIVEX_ERR_WRONG_MESSAGE_KIND
        case .wrongParameters: OBLIVEX_ERR_WRONG_PARAMETERS
        case .wrongSession: OBLIVEX_ERR_WRONG_SESSION
        case .wrongSender: OBLIVEX_ERR_WRONG_SENDER
        case .wrongRecipient: OBLIVEX_ERR_WRONG_RECIPIENT
        case .unsortedPartyIDs: OBLIVEX_ERR_UNSORTED_PARTY_IDS
        case .duplicateMessage: OBLIVEX_ERR_DUPLICATE_MESSAGE
        case .noQualifiedParty: OBLIVEX_ERR_NO_QUALIFIED_PARTY
        case .notEnoughRevealedShares: OBLIVEX_ERR_NOT_ENOUGH_REVEALED_SHARES
        case .degenerateKey: OBLIVEX_ERR_DEGENERATE_KEY
        case .shareMismatch: OBLIVEX_ERR_SHARE_MISMATCH
        case .wrongRound: OBLIVEX_ERR_WRONG_ROUND
        case .oldCommitmentsMismatch: OBLIVEX_ERR_OLD_COMMITMENTS_MISMATCH
        case .panic: OBLIVEX_ERR_PANIC
        case .unknownStatus(let code): code
        }
    }

    /// The party ids of the servers caught cheating that the error carries
    /// (empty for every other failure).
    public var cheaters: [UInt16] {
        switch self {
        case .verificationFailed(let cheaters), .invalidInput(let cheaters), .notEnoughResponses(let cheaters):
            cheaters
        default:
            []
        }
    }

    /// "oblivex: " and the library's description of the status, then the
    /// servers caught cheating if any; an unknown status adds its value.
    public var description: String {
        var text = "oblivex: " + String(cString: oblivex_status_str(status))
        if case .unknownStatus(let code) = self {
            text += " (status \(code))"
        }
        if !cheaters.isEmpty {
            text += " (servers caught cheating: \(cheaters.map(String.init).joined(separator: ", ")))"
        }
        return text
    }
}

/// Throws the error of a failed status.
@inline(__always)
func check(_ status: oblivex_status) throws(OblivexError) {
    if let error = OblivexError(status: status) {
        throw error
    }
}
