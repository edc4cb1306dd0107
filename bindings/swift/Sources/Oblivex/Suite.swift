import COblivex

/// A ciphersuite: a prime-order group with its hash. The first two are
/// RFC 9497's; the others are this library's, built the same way. The raw
/// value is the C API's `OBLIVEX_SUITE_*`.
public enum Suite: Int32, CaseIterable, Sendable, CustomStringConvertible {
    /// ristretto255-SHA512 (RFC 9497 §4.1).
    case ristretto255 = 1
    /// P256-SHA256 (RFC 9497 §4.3).
    case p256 = 2
    /// BLS12381G1-SHA256 (the group of the blind BLS signatures' key
    /// shares).
    case bls12381G1 = 3
    /// FFDHE2048-SHA512 (the RFC 7919 group).
    case ffdhe2048 = 4
    /// FFDHE3072-SHA512.
    case ffdhe3072 = 5
    /// FFDHE4096-SHA512.
    case ffdhe4096 = 6

    /// The suite's identifier, e.g. "ristretto255-SHA512".
    public var description: String {
        switch self {
        case .ristretto255: "ristretto255-SHA512"
        case .p256: "P256-SHA256"
        case .bls12381G1: "BLS12381G1-SHA256"
        case .ffdhe2048: "FFDHE2048-SHA512"
        case .ffdhe3072: "FFDHE3072-SHA512"
        case .ffdhe4096: "FFDHE4096-SHA512"
        }
    }

    /// The suite whose identifier is `identifier` (``description``), if any.
    public init?(identifier: String) {
        guard let suite = Suite.allCases.first(where: { $0.description == identifier }) else { return nil }
        self = suite
    }

    /// Bytes of an encoded group element: a public key, and every element a
    /// request or response holds.
    public var elementLength: Int { oblivex_suite_element_len(rawValue) }

    /// Bytes of an encoded scalar: a secret key.
    public var scalarLength: Int { oblivex_suite_scalar_len(rawValue) }

    /// Bytes of one PRF output, and of a KEM secret.
    public var outputLength: Int { oblivex_suite_output_len(rawValue) }

    /// Bytes of a VOPRF/POPRF proof.
    public var proofLength: Int { oblivex_suite_proof_len(rawValue) }
}

/// A protocol mode of RFC 9497, as a value: what the servers and clients
/// report as `mode` (the mode itself is in their type: ``RFC9497Mode``).
/// The raw value is the C API's `OBLIVEX_OPRF_MODE_*`.
public enum Mode: Int32, CaseIterable, Sendable, CustomStringConvertible {
    /// OPRF: no proof; the server's answer is not verified.
    case oprf = 0
    /// VOPRF: one DLEQ proof per batch against the server's public key.
    case voprf = 1
    /// POPRF: VOPRF with a public info string that tweaks the key.
    case poprf = 2

    /// The mode's name: "OPRF", "VOPRF" or "POPRF".
    public var description: String {
        switch self {
        case .oprf: "OPRF"
        case .voprf: "VOPRF"
        case .poprf: "POPRF"
        }
    }
}

/// The relation a checked batch hides in its request (see
/// ``CheckedClient``). The raw value is the C API's `OBLIVEX_CHECK_*`.
public enum Check: Int32, CaseIterable, Sendable, CustomStringConvertible {
    /// Every answer must use the key of the server's public key (the usual
    /// choice; the client is made with that key).
    case committedKey = 1
    /// One key, whichever, for the whole batch. Needs no public key but
    /// proves less (a server may use another key throughout), and pads
    /// batches of fewer than 256/κ inputs.
    case keyFree = 2

    /// The check's name: "CommittedKey" or "KeyFree".
    public var description: String {
        switch self {
        case .committedKey: "CommittedKey"
        case .keyFree: "KeyFree"
        }
    }
}

/// What a threshold ElGamal batch recovers (see ``ElGamalClient``). The raw
/// value is the C API's `OBLIVEX_ELGAMAL_*`.
public enum ElGamalTarget: Int32, CaseIterable, Sendable, CustomStringConvertible {
    /// The plaintexts (element encodings) of ciphertexts `c1 || c2` (two
    /// element encodings each, from ``ElGamal/encrypt(_:to:)``).
    case plaintexts = 1
    /// The shared secrets (``Suite/outputLength`` bytes each) of KEM
    /// encapsulations (one element encoding each, from
    /// ``ElGamal/encapsulate(to:)``).
    case kemSecrets = 2

    /// The target's name: "Plaintexts" or "KEMSecrets".
    public var description: String {
        switch self {
        case .plaintexts: "Plaintexts"
        case .kemSecrets: "KEMSecrets"
        }
    }
}

/// The linked library: its version, its arithmetic backend, its thread
/// count, and its limits.
public enum Library {
    /// The version of the linked library, "MAJOR.MINOR.PATCH".
    public static var version: String { String(cString: oblivex_version()) }

    /// The version of the header this package was compiled against
    /// (`OBLIVEX_VERSION_*`), "MAJOR.MINOR.PATCH".
    public static var headerVersion: String {
        "\(OBLIVEX_VERSION_MAJOR).\(OBLIVEX_VERSION_MINOR).\(OBLIVEX_VERSION_PATCH)"
    }

    /// The arithmetic backend that runs batch exponentiations in this
    /// process: "portable", "mulx", "avx2" or "ifma", chosen once from the
    /// environment variable `OBLIVEX_BACKEND` (`portable`, `mulx`, `avx2`, `ifma` or
    /// `auto`, the default: the fastest this CPU runs), or "unsupported" when that names a backend this CPU cannot
    /// run (exponentiations then fail with
    /// ``OblivexError/unsupportedBackend``).
    public static var backendName: String { String(cString: oblivex_backend_name()) }

    /// How many threads a large batch exponentiation may use, for the whole
    /// process: 1 (the default) runs everything in the calling thread.
    /// Setting 0 (or a negative value) restores the default, taken from the
    /// environment variable `OBLIVEX_THREADS` (1 when unset); values above
    /// ``maxThreads`` are clamped.
    public static var threads: Int {
        get { oblivex_threads() }
        set { oblivex_set_threads(max(newValue, 0)) }
    }

    /// The κ values accepted (bits of the secret verification factors of
    /// the checked and threshold clients); κ 0 picks the default, 64. A
    /// cheating server passes a check with probability at most 2^-κ.
    public static let kappaRange: ClosedRange<Int> = Int(OBLIVEX_KAPPA_MIN)...Int(OBLIVEX_KAPPA_MAX)

    /// The longest OPRF input, POPRF info or message to sign, in bytes.
    public static let maxInputLength = Int(OBLIVEX_MAX_INPUT_LEN)

    /// The largest number of parties of a sharing (party ids are
    /// `1...maxParties`).
    public static let maxParties = Int(OBLIVEX_MAX_PARTIES)
    /// Bytes of a DKG run's session id (``DKGRound1``).
    public static let dkgSessionIDLength = Int(OBLIVEX_DKG_SESSION_ID_LEN)

    /// The largest modulus of a ``ModulusContext``, in bits.
    public static let maxModulusBits = Int(OBLIVEX_MAX_MODULUS_BITS)

    /// The longest base or exponent of a batch exponentiation, in bytes.
    public static let maxOperandBytes = Int(OBLIVEX_MAX_OPERAND_BYTES)

    /// The largest thread count ``threads`` keeps.
    public static let maxThreads = Int(OBLIVEX_MAX_THREADS)
}

/// Throws ``OblivexError/invalidKappa`` unless κ is 0 (the default) or in
/// ``Library/kappaRange``.
func checkKappa(_ kappa: Int) throws(OblivexError) {
    if kappa != 0 && !Library.kappaRange.contains(kappa) {
        throw .invalidKappa
    }
}

/// Throws ``OblivexError/invalidPartyID`` unless the quorum is empty (none)
/// or exactly `threshold` distinct ids in `1...maxParties`, as the library
/// requires.
func checkQuorum(_ quorum: [UInt16], threshold: Int) throws(OblivexError) {
    if quorum.isEmpty {
        return
    }
    guard quorum.count == threshold else { throw .invalidPartyID }
    var seen = Set<UInt16>()
    for id in quorum {
        if id == 0 || Int(id) > Library.maxParties || !seen.insert(id).inserted {
            throw .invalidPartyID
        }
    }
}
