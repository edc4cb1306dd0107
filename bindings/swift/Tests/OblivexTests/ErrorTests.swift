import COblivex
import Foundation
@testable import Oblivex
import Testing

/// One test per C status the package can surface, each provoking it through
/// the public API; plus the mapping of every status code, including those
/// the package cannot surface (see `OblivexError`).
@Suite("error paths")
struct ErrorTests {
    @Test("every status code maps to its case and back")
    func mapping() throws {
        let cases: [(Int32, OblivexError)] = [
            (OBLIVEX_ERR_NULL_POINTER, .nullPointer),
            (OBLIVEX_ERR_BAD_LENGTH, .badLength),
            (OBLIVEX_ERR_EMPTY_INPUT, .emptyInput),
            (OBLIVEX_ERR_ZERO_MODULUS, .zeroModulus),
            (OBLIVEX_ERR_EVEN_MODULUS, .evenModulus),
            (OBLIVEX_ERR_MODULUS_TOO_LARGE, .modulusTooLarge),
            (OBLIVEX_ERR_BUFFER_TOO_SMALL, .bufferTooSmall),
            (OBLIVEX_ERR_UNSUPPORTED_BACKEND, .unsupportedBackend),
            (OBLIVEX_ERR_INVALID_ELEMENT, .invalidElement),
            (OBLIVEX_ERR_INVALID_SCALAR, .invalidScalar),
            (OBLIVEX_ERR_VERIFICATION_FAILED, .verificationFailed(cheaters: [4, 7])),
            (OBLIVEX_ERR_RNG_FAILURE, .rngFailure),
            (OBLIVEX_ERR_INVALID_INPUT, .invalidInput(cheaters: [4, 7])),
            (OBLIVEX_ERR_DERIVE_KEY_PAIR, .deriveKeyPair),
            (OBLIVEX_ERR_UNKNOWN_SUITE, .unknownSuite),
            (OBLIVEX_ERR_BATCH_USED, .batchUsed),
            (OBLIVEX_ERR_UNKNOWN_MODE, .unknownMode),
            (OBLIVEX_ERR_INVALID_KAPPA, .invalidKappa),
            (OBLIVEX_ERR_UNKNOWN_CHECK, .unknownCheck),
            (OBLIVEX_ERR_MISSING_PUBLIC_KEY, .missingPublicKey),
            (OBLIVEX_ERR_INVALID_PARTY_ID, .invalidPartyID),
            (OBLIVEX_ERR_INVALID_THRESHOLD, .invalidThreshold),
            (OBLIVEX_ERR_NOT_ENOUGH_RESPONSES, .notEnoughResponses(cheaters: [4, 7])),
            (OBLIVEX_ERR_UNKNOWN_TARGET, .unknownTarget),
            (OBLIVEX_ERR_SUITE_MISMATCH, .suiteMismatch),
            (OBLIVEX_ERR_MISSING_PROOF, .missingProof),
            (OBLIVEX_ERR_EQUAL_PRIMES, .equalPrimes),
            (OBLIVEX_ERR_UNSUPPORTED_KEY_SIZE, .unsupportedKeySize),
            (OBLIVEX_ERR_INVALID_CRT_EXPONENT, .invalidCRTExponent),
            (OBLIVEX_ERR_INVALID_CRT_COEFFICIENT, .invalidCRTCoefficient),
            (OBLIVEX_ERR_CIPHERTEXT_OUT_OF_RANGE, .ciphertextOutOfRange),
            (OBLIVEX_ERR_UNSUPPORTED_VERSION, .unsupportedVersion),
            (OBLIVEX_ERR_WRONG_MESSAGE_KIND, .wrongMessageKind),
            (OBLIVEX_ERR_WRONG_PARAMETERS, .wrongParameters),
            (OBLIVEX_ERR_WRONG_SESSION, .wrongSession),
            (OBLIVEX_ERR_WRONG_SENDER, .wrongSender),
            (OBLIVEX_ERR_WRONG_RECIPIENT, .wrongRecipient),
            (OBLIVEX_ERR_UNSORTED_PARTY_IDS, .unsortedPartyIDs),
            (OBLIVEX_ERR_DUPLICATE_MESSAGE, .duplicateMessage),
            (OBLIVEX_ERR_NO_QUALIFIED_PARTY, .noQualifiedParty),
            (OBLIVEX_ERR_NOT_ENOUGH_REVEALED_SHARES, .notEnoughRevealedShares),
            (OBLIVEX_ERR_DEGENERATE_KEY, .degenerateKey),
            (OBLIVEX_ERR_SHARE_MISMATCH, .shareMismatch),
            (OBLIVEX_ERR_WRONG_ROUND, .wrongRound),
            (OBLIVEX_ERR_OLD_COMMITMENTS_MISMATCH, .oldCommitmentsMismatch),
            (OBLIVEX_ERR_PANIC, .panic),
        ]
        // Every code from 1 to the last, and the panic code: none missing.
        #expect(cases.map(\.0) == Array(1...45) + [100])
        var descriptions = Set<String>()
        for (status, error) in cases {
            #expect(OblivexError(status: status, cheaters: [4, 7]) == error)
            #expect(error.status == status)
            let message = String(cString: oblivex_status_str(status))
            #expect(error.description.hasPrefix("oblivex: " + message))
            #expect(message != "unknown status code")
            descriptions.insert(error.description)
        }
        #expect(descriptions.count == cases.count)
        // Every code the C library describes (its text is not the one of an
        // unknown code, "unknown status code" in src/ffi/status.rs) has a
        // case of its own, and no other code has: a status added to the C
        // API without a case in OblivexError fails here.
        let unknownText = String(cString: oblivex_status_str(9999))
        #expect(unknownText == "unknown status code")
        var known: [Int32] = []
        for code: Int32 in 1...255 {
            let described = String(cString: oblivex_status_str(code)) != unknownText
            let error = try #require(OblivexError(status: code), "status \(code)")
            var mapped = true
            if case .unknownStatus = error {
                mapped = false
            }
            #expect(mapped == described, "status \(code): described by the C library \(described), mapped \(mapped)")
            #expect(error.status == code, "status \(code)")
            if described {
                known.append(code)
            }
        }
        #expect(known == cases.map(\.0), "the table above is every status the C library knows")
        #expect(OblivexError(status: OBLIVEX_OK) == nil)
        #expect(OblivexError(status: 9999) == .unknownStatus(9999))
        #expect(OblivexError.unknownStatus(9999).description == "oblivex: unknown status code (status 9999)")
        #expect(OblivexError.verificationFailed(cheaters: [4, 7]).description
            .hasSuffix("(servers caught cheating: 4, 7)"))
        #expect(OblivexError.verificationFailed(cheaters: []).cheaters.isEmpty)
        #expect(OblivexError.badLength.cheaters.isEmpty)
        // The enums' raw values are the C API's.
        #expect(Suite.allCases.map(\.rawValue) == [
            OBLIVEX_SUITE_RISTRETTO255_SHA512, OBLIVEX_SUITE_P256_SHA256, OBLIVEX_SUITE_BLS12381G1_SHA256,
            OBLIVEX_SUITE_FFDHE2048_SHA512, OBLIVEX_SUITE_FFDHE3072_SHA512, OBLIVEX_SUITE_FFDHE4096_SHA512,
        ])
        #expect(Mode.allCases.map(\.rawValue) == [OBLIVEX_OPRF_MODE_OPRF, OBLIVEX_OPRF_MODE_VOPRF, OBLIVEX_OPRF_MODE_POPRF])
        #expect(Check.allCases.map(\.rawValue) == [OBLIVEX_CHECK_COMMITTED_KEY, OBLIVEX_CHECK_KEY_FREE])
        #expect(ElGamalTarget.allCases.map(\.rawValue) == [OBLIVEX_ELGAMAL_PLAINTEXTS, OBLIVEX_ELGAMAL_KEM_SECRETS])
    }

    @Test("badLength")
    func badLength() throws {
        let server = try OPRFServer.generate(suite: .ristretto255)
        #expect(throws: OblivexError.badLength) { try server.evaluate([UInt8](repeating: 1, count: 31)) }
        #expect(throws: OblivexError.badLength) { try PublicKey(suite: .p256, bytes: [2]) }
        #expect(throws: OblivexError.badLength) {
            try OPRFServer.derive(suite: .p256, seed: "seed".utf8,
                                  info: [UInt8](repeating: 0, count: Library.maxInputLength + 1))
        }
        #expect(throws: OblivexError.badLength) {
            _ = try OPRFClient(suite: .ristretto255).blind([[UInt8](repeating: 0, count: Library.maxInputLength + 1)])
        }
        #expect(throws: OblivexError.badLength) { try CheckedClient(suite: .ristretto255, check: .keyFree, publicKey: server.publicKey) }
        #expect(throws: OblivexError.badLength) { try KeyShare(suite: .p256, bytes: [0, 1, 2]) }
        let context = try ModulusContext(modulus: [0xff, 0xfb])
        #expect(throws: OblivexError.badLength) { try context.expBatch(bases: [[1], [2, 3]], exponents: [[1], [1]]) }
        #expect(throws: OblivexError.badLength) { try context.expBatch(bases: [[1]], exponents: [[1], [2]]) }
        #expect(throws: OblivexError.badLength) {
            try context.expBatch(bases: [[1]], exponents: [[UInt8](repeating: 1, count: Library.maxOperandBytes + 1)])
        }
    }

    @Test("emptyInput")
    func emptyInput() throws {
        #expect(throws: OblivexError.emptyInput) { _ = try OPRFClient(suite: .ristretto255).blind([[UInt8]]()) }
        let server = try OPRFServer.generate(suite: .ristretto255)
        let checked = try CheckedClient(suite: .ristretto255, check: .committedKey, publicKey: server.publicKey)
        #expect(throws: OblivexError.emptyInput) { _ = try checked.blind([[UInt8]]()) }
        let (_, commitments) = try KeyShare.deal(suite: .ristretto255, threshold: 1, parties: 1)
        #expect(throws: OblivexError.emptyInput) { _ = try ThresholdOPRFClient(commitments: commitments).blind([[UInt8]]()) }
        let context = try ModulusContext(modulus: [0xff, 0xfb])
        #expect(throws: OblivexError.emptyInput) { try context.expBatch(bases: [[UInt8]](), exponents: [[UInt8]]()) }
        #expect(throws: OblivexError.emptyInput) { try context.expBatch(bases: [[]], exponents: [[1]]) }
    }

    @Test("zeroModulus")
    func zeroModulus() {
        #expect(throws: OblivexError.zeroModulus) { try ModulusContext(modulus: [0, 0]) }
        #expect(throws: OblivexError.zeroModulus) { try ModulusContext(modulus: [UInt8]()) }
    }

    @Test("evenModulus")
    func evenModulus() {
        #expect(throws: OblivexError.evenModulus) { try ModulusContext(modulus: [0x10]) }
    }

    @Test("modulusTooLarge")
    func modulusTooLarge() {
        var huge = [UInt8](repeating: 0, count: 1100)
        huge[0] = 1
        huge[huge.count - 1] = 1
        #expect(throws: OblivexError.modulusTooLarge) { try ModulusContext(modulus: huge) }
    }

    /// The backend is chosen once per process from `OBLIVEX_BACKEND`, so
    /// this runs the test binary again with an unknown backend, where
    /// `unsupportedBackendInThisProcess` runs (Linux: the test runner is the
    /// binary itself).
    @Test("unsupportedBackend (in a child process)")
    func unsupportedBackend() throws {
        #if os(Linux)
        let marker = FileManager.default.temporaryDirectory
            .appendingPathComponent("oblivex-backend-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: marker) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", "ErrorTests/unsupportedBackendInThisProcess"]
        var environment = ProcessInfo.processInfo.environment
        environment["OBLIVEX_BACKEND"] = "no-such-backend"
        environment["OBLIVEX_SWIFT_TEST_MARKER"] = marker.path
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
        #expect(try String(contentsOf: marker, encoding: .utf8) == "unsupportedBackend")
        #endif
    }

    @Test(
        "unsupportedBackend: the child process's part (runs only there)",
        .enabled(if: ProcessInfo.processInfo.environment["OBLIVEX_BACKEND"] == "no-such-backend")
    )
    func unsupportedBackendInThisProcess() throws {
        #expect(Library.backendName == "unsupported")
        let context = try ModulusContext(modulus: [0x01, 0x00, 0x01])
        #expect(throws: OblivexError.unsupportedBackend) { try context.expBatch(bases: [[2]], exponents: [[10]]) }
        #expect(throws: OblivexError.unsupportedBackend) {
            try ModulusContext.expBatchMulti(contexts: [context], bases: [[2]], exponents: [[10]])
        }
        if let path = ProcessInfo.processInfo.environment["OBLIVEX_SWIFT_TEST_MARKER"] {
            try "unsupportedBackend".write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    @Test("invalidElement")
    func invalidElement() throws {
        let server = try OPRFServer.generate(suite: .ristretto255)
        #expect(throws: OblivexError.invalidElement) { try server.evaluate([UInt8](repeating: 0, count: 32)) } // the identity
        #expect(throws: OblivexError.invalidElement) { try PublicKey(suite: .ristretto255, bytes: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: OblivexError.invalidElement) { try BLSPublicKey(bytes: [UInt8](repeating: 0xff, count: BLSPublicKey.length)) }
        #expect(throws: OblivexError.invalidElement) {
            try Commitments(suite: .p256, bytes: [UInt8](repeating: 0xff, count: Suite.p256.elementLength))
        }
    }

    @Test("invalidScalar")
    func invalidScalar() {
        #expect(throws: OblivexError.invalidScalar) {
            try OPRFServer(suite: .ristretto255, secretKey: [UInt8](repeating: 0, count: 32))
        }
        #expect(throws: OblivexError.invalidScalar) { try OPRFServer(suite: .ristretto255, secretKey: [UInt8]()) }
        #expect(throws: OblivexError.invalidScalar) { try KeyShare.deal(suite: .p256, secret: [], threshold: 2, parties: 3) }
        #expect(throws: OblivexError.invalidScalar) {
            try KeyShare.deal(suite: .p256, secret: [UInt8](repeating: 0, count: 32), threshold: 2, parties: 3)
        }
        #expect(throws: OblivexError.invalidScalar) {
            try KeyShare(suite: .p256, bytes: [0, 1] + [UInt8](repeating: 0xff, count: 32))
        }
    }

    @Test("verificationFailed")
    func verificationFailed() throws {
        let (shares, commitments) = try KeyShare.deal(suite: .p256, threshold: 2, parties: 3)
        var moved = try shares[0].bytes()
        moved[1] = 2
        #expect(throws: OblivexError.verificationFailed(cheaters: [])) { try commitments.verify(KeyShare(suite: .p256, bytes: moved)) }
        let server = try OPRFServer.generate(suite: .p256)
        let client = try CheckedClient(suite: .p256, check: .committedKey, publicKey: server.publicKey)
        let batch = try client.blind(inputs(2))
        var response = try server.evaluate(batch.request)
        response.replaceSubrange(0..<33, with: response[33..<66]) // one element answered twice
        #expect(finalizeError(batch) { try $0.finalize(response) } == .verificationFailed(cheaters: []))
    }

    @Test("invalidInput")
    func invalidInput() throws {
        // A ciphertext whose plaintext is the identity.
        var secret = [UInt8](repeating: 0, count: 32)
        secret[31] = 3
        let (shares, commitments) = try KeyShare.deal(suite: .ristretto255, secret: secret, threshold: 1, parties: 1)
        let c1 = try ElGamal.encapsulate(to: commitments.publicKey).encapsulation
        let c2 = try OPRFServer(suite: .ristretto255, secretKey: secret).evaluate(c1)
        let batch = try ElGamalClient(commitments: commitments, target: .plaintexts, blinded: false).blind([c1 + c2])
        let responses = try respond(shares, batch.request, ids: [1])
        #expect(finalizeError(batch) { try $0.finalize(responses) } == .invalidInput(cheaters: []))
    }

    @Test("invalidKappa")
    func invalidKappa() throws {
        let server = try OPRFServer.generate(suite: .ristretto255)
        for kappa in [-1, 7, Library.kappaRange.upperBound + 1] {
            #expect(throws: OblivexError.invalidKappa) {
                try CheckedClient(suite: .ristretto255, check: .committedKey, publicKey: server.publicKey, kappa: kappa)
            }
        }
        let (_, commitments) = try KeyShare.deal(suite: .ristretto255, threshold: 1, parties: 2)
        #expect(throws: OblivexError.invalidKappa) { try ThresholdOPRFClient(commitments: commitments, kappa: 200) }
        #expect(throws: OblivexError.invalidKappa) { try ElGamalClient(commitments: commitments, target: .kemSecrets, kappa: 31) }
        let (_, keySet) = try BLSKeySet.deal(threshold: 1, parties: 1)
        #expect(throws: OblivexError.invalidKappa) { try BLSClient(keySet: keySet, kappa: 129) }
    }

    @Test("missingPublicKey")
    func missingPublicKey() {
        #expect(throws: OblivexError.missingPublicKey) { try CheckedClient(suite: .ristretto255, check: .committedKey) }
    }

    @Test("invalidPartyID")
    func invalidPartyID() throws {
        let (shares, commitments) = try KeyShare.deal(suite: .ristretto255, threshold: 3, parties: 5)
        for quorum: [UInt16] in [[1, 2], [1, 2, 2], [0, 1, 2], [1, 2, 3, 4]] {
            #expect(throws: OblivexError.invalidPartyID) { try ThresholdOPRFClient(commitments: commitments, quorum: quorum) }
        }
        #expect(throws: OblivexError.invalidPartyID) { try KeyShare(suite: .ristretto255, bytes: [UInt8](repeating: 0, count: 34)) }
        let request = try ThresholdOPRFClient(commitments: commitments).blind(inputs(1)).request
        #expect(throws: OblivexError.invalidPartyID) { try shares[0].evaluate(request, quorum: [2, 3, 4]) } // without this server
        let (_, keySet) = try BLSKeySet.deal(threshold: 2, parties: 3)
        #expect(throws: OblivexError.invalidPartyID) { try BLSClient(keySet: keySet, quorum: [1]) }
        #expect(throws: OblivexError.invalidPartyID) { try ElGamalClient(commitments: commitments, target: .plaintexts, quorum: [1, 2, 3, 4]) }
    }

    @Test("invalidThreshold")
    func invalidThreshold() {
        #expect(throws: OblivexError.invalidThreshold) { try KeyShare.deal(suite: .p256, threshold: 4, parties: 3) }
        #expect(throws: OblivexError.invalidThreshold) { try KeyShare.deal(suite: .p256, threshold: 0, parties: 3) }
        #expect(throws: OblivexError.invalidThreshold) { try KeyShare.deal(suite: .p256, threshold: 1, parties: Library.maxParties + 1) }
        #expect(throws: OblivexError.invalidThreshold) { try BLSKeySet.deal(threshold: 0, parties: 2) }
    }

    @Test("notEnoughResponses")
    func notEnoughResponses() throws {
        let (shares, commitments) = try KeyShare.deal(suite: .ristretto255, threshold: 2, parties: 3)
        let client = try ThresholdOPRFClient(commitments: commitments)
        let batch = try client.blind(inputs(2))
        let responses = try respond(shares, batch.request, ids: [1, 3], cheat: [3])
        #expect(finalizeError(batch) { try $0.finalize(responses) } == .notEnoughResponses(cheaters: [3]))
    }

    @Test("suiteMismatch")
    func suiteMismatch() throws {
        let server = try OPRFServer.generate(suite: .ristretto255)
        #expect(throws: OblivexError.suiteMismatch) {
            try CheckedClient(suite: .p256, check: .committedKey, publicKey: server.publicKey)
        }
        let (_, commitments) = try KeyShare.deal(suite: .p256, threshold: 1, parties: 1)
        let (otherShares, _) = try KeyShare.deal(suite: .ristretto255, threshold: 1, parties: 1)
        #expect(throws: OblivexError.suiteMismatch) { try commitments.verify(otherShares[0]) }
    }

    @Test("missingProof")
    func missingProof() throws {
        let server = try POPRFServer.generate(suite: .ristretto255)
        let client = POPRFClient(publicKey: server.publicKey)
        let batch = try client.blind(inputs(1), info: "info".utf8)
        let (evaluated, _) = try server.evaluate(batch.request, info: "info".utf8)
        #expect(finalizeError(batch) { try $0.finalize(evaluated, proof: [UInt8]()) } == .missingProof)
    }
}
