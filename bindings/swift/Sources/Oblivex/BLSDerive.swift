import COblivex

extension KeyShare {
    /// The G2 key of this signer's share (`sk_j` times the G2 generator):
    /// what each signer publishes after a DKG so that anyone can build the
    /// key set with ``BLSKeySet/derive(commitments:parties:signerKeys:)``.
    /// ``OblivexError/suiteMismatch`` for a share of another suite than
    /// ``Suite/bls12381G1``.
    public func blsSignerKey() throws(OblivexError) -> BLSPublicKey {
        let key = try withOutput(capacity: BLSPublicKey.length) { oblivex_bls_signer_key(handle, $0, $1, $2) }
        return BLSPublicKey(trusted: key)
    }
}

extension BLSKeySet {
    /// The key set of a t-of-m BLS key shared by a DKG, which nobody can
    /// compute the G2 public key of alone: `commitments` are the run's
    /// (suite ``Suite/bls12381G1``, t of them), `parties` is m, and
    /// `signerKeys` the G2 keys the signers published
    /// (``KeyShare/blsSignerKey()``; `party` the signer, `elements` its
    /// key), from any signers of 1...m. Each key is checked against the
    /// signer's public share by a pairing; the public key is interpolated
    /// from t right keys and checked against the commitments' public key,
    /// and the keys of signers that published none or a wrong one are
    /// interpolated too. Returns the key set and the signers whose key was
    /// wrong (did not decode or failed its check). Public data only.
    ///
    /// ``OblivexError/notEnoughResponses(cheaters:)`` (fewer than t right
    /// keys) names the wrong ones; ``OblivexError/suiteMismatch``,
    /// ``OblivexError/invalidThreshold`` (not `1 <= t <= m <= maxParties`),
    /// ``OblivexError/invalidPartyID`` (an id zero, repeated or above m).
    public static func derive(
        commitments: Commitments, parties: Int, signerKeys: [ThresholdResponse]
    ) throws(OblivexError) -> (keySet: BLSKeySet, cheaters: [UInt16]) {
        var cheaters = [UInt16](repeating: 0, count: signerKeys.count + 1)
        var cheatersWritten = 0
        var handle: OpaquePointer?
        let status = withExtendedLifetime(commitments) {
            withPartyIDs(signerKeys.map(\.party)) { ids, _ in
                withByteStrings(signerKeys.lazy.map(\.elements)) { pointers, lengths, count in
                    cheaters.withUnsafeMutableBufferPointer { named in
                        oblivex_bls_key_set_derive(commitments.handle, parties, ids, pointers, lengths, count,
                                                    named.baseAddress!, named.count, &cheatersWritten, &handle)
                    }
                }
            }
        }
        let named = Array(cheaters.prefix(min(cheatersWritten, cheaters.count)))
        if let error = OblivexError(status: status, cheaters: named) {
            throw error
        }
        let keySet = try BLSKeySet(taking: handle!, threshold: commitments.threshold, parties: parties)
        return (keySet, named)
    }
}
