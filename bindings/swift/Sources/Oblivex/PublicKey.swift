import COblivex

/// A validated public key of a suite: the element k·B of an RFC 9497
/// server (``RFC9497Server/publicKey``) or of a shared key
/// (``Commitments/publicKey``), or one received and checked with
/// ``init(suite:bytes:)``. VOPRF, POPRF and checked clients are made with
/// it; ElGamal encrypts to it.
public struct PublicKey: Hashable, Sendable {
    /// The key's suite.
    public let suite: Suite
    /// The key's encoding (``Suite/elementLength`` bytes).
    public let bytes: [UInt8]

    /// Decodes and validates a public key of `suite` (an element encoding,
    /// ``Suite/elementLength`` bytes): ``OblivexError/badLength``, or
    /// ``OblivexError/invalidElement`` for an encoding that is not
    /// canonical, not in the prime-order group, or the identity.
    public init(suite: Suite, bytes: some Collection<UInt8>) throws(OblivexError) {
        let encoded = Array(bytes)
        try check(withBytes(encoded) { oblivex_suite_check_element(suite.rawValue, $0, $1) })
        self.init(suite: suite, trusted: encoded)
    }

    /// A key the library produced (already valid).
    init(suite: Suite, trusted bytes: [UInt8]) {
        self.suite = suite
        self.bytes = bytes
    }
}

/// A validated BLS public key (a compressed G2 point,
/// ``BLSPublicKey/length`` bytes): the key every signature of a threshold
/// BLS key set verifies under (``BLSKeySet/publicKey``), or one received
/// and checked with ``init(bytes:)``.
public struct BLSPublicKey: Hashable, Sendable {
    /// Bytes of a BLS public key (`OBLIVEX_BLS_PUBLIC_KEY_LEN`).
    public static let length = Int(OBLIVEX_BLS_PUBLIC_KEY_LEN)
    /// Bytes of a BLS signature (`OBLIVEX_BLS_SIGNATURE_LEN`: a compressed
    /// G1 point, `min_sig`).
    public static let signatureLength = Int(OBLIVEX_BLS_SIGNATURE_LEN)

    /// The key's encoding (``length`` bytes).
    public let bytes: [UInt8]

    /// Decodes and validates a BLS public key: ``OblivexError/badLength``
    /// (not ``length`` bytes) or ``OblivexError/invalidElement`` (not a
    /// canonical compressed G2 point of the prime-order subgroup, or the
    /// identity).
    public init(bytes: some Collection<UInt8>) throws(OblivexError) {
        let encoded = Array(bytes)
        try check(withBytes(encoded) { oblivex_bls_check_public_key($0, $1) })
        self.bytes = encoded
    }

    /// A key the library produced (already valid).
    init(trusted bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Standard BLS verification (`BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_`,
    /// blst `min_sig`, with the signature's subgroup check) of `signature`
    /// on `message`: returns if it holds, throws
    /// ``OblivexError/verificationFailed(cheaters:)`` (with no cheaters) if
    /// not, a malformed signature included.
    public func verify(_ signature: some Collection<UInt8>, for message: some Collection<UInt8>) throws(OblivexError) {
        try check(bytes.withUnsafeBufferPointer { key in
            withOptionalBytes(message) { messagePointer, messageLength in
                withBytes(signature) { signaturePointer, signatureLength in
                    oblivex_bls_verify(key.baseAddress, key.count, messagePointer, messageLength,
                                       signaturePointer, signatureLength)
                }
            }
        })
    }

    /// Whether `signature` is a valid signature on `message` under the key
    /// (``verify(_:for:)`` as a Boolean).
    public func isValidSignature(_ signature: some Collection<UInt8>, for message: some Collection<UInt8>) -> Bool {
        do {
            try verify(signature, for: message)
            return true
        } catch {
            return false
        }
    }
}
