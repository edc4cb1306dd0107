import Oblivex
import Testing

/// A random odd modulus of exactly `bits` bits.
func randomOddModulus(bits: Int, using generator: inout some RandomNumberGenerator) -> ReferenceBigUInt {
    var limbs = ReferenceBigUInt.random(bits: bits, using: &generator).limbs
    limbs += [UInt64](repeating: 0, count: (bits + 63) / 64 - limbs.count)
    limbs[0] |= 1
    limbs[(bits - 1) / 64] |= 1 << UInt64((bits - 1) % 64)
    return ReferenceBigUInt(limbs: limbs)
}

@Suite("batch modular exponentiation")
struct ModExpTests {
    /// The reference itself, against facts it did not compute: Fermat's
    /// little theorem on Mersenne primes (521 bits: not a multiple of 64),
    /// and 64-bit arithmetic.
    @Test("the reference implementation")
    func reference() {
        var rng = SystemRandomNumberGenerator()
        for exponent in [127, 521] {
            let p = ReferenceBigUInt(limbs: (0..<((exponent + 63) / 64)).map { i in
                i < exponent / 64 ? UInt64.max : (1 << UInt64(exponent % 64)) - 1
            })
            var pMinus1 = p.limbs
            pMinus1[0] -= 1
            let a = ReferenceBigUInt.random(bits: exponent - 1, using: &rng)
            #expect(ReferenceBigUInt.modPow(a, ReferenceBigUInt(limbs: pMinus1), p) == ReferenceBigUInt(1))
        }
        for _ in 0..<200 {
            let m = UInt64.random(in: 1 ... .max, using: &rng)
            let a = UInt64.random(in: 0 ... .max, using: &rng)
            let b = UInt64.random(in: 0 ... .max, using: &rng)
            let product = ReferenceBigUInt(a) * ReferenceBigUInt(b)
            let want = m.dividingFullWidth((a % m).multipliedFullWidth(by: b % m)).remainder // high < m
            #expect(product % ReferenceBigUInt(m) == ReferenceBigUInt(want))
        }
        // Multi-limb division: (k·m + r) mod m = r for r < m.
        for bits in [65, 128, 200, 1000, 2050] {
            let m = randomOddModulus(bits: bits, using: &rng)
            let k = ReferenceBigUInt.random(bits: bits + 100, using: &rng)
            let r = ReferenceBigUInt.random(bits: bits - 1, using: &rng)
            #expect((k * m + r) % m == r, "\(bits) bits")
        }
        #expect(ReferenceBigUInt.modPow(ReferenceBigUInt(2), ReferenceBigUInt(10), ReferenceBigUInt(65537)) == ReferenceBigUInt(1024))
        #expect(ReferenceBigUInt.modPow(ReferenceBigUInt(5), ReferenceBigUInt(0), ReferenceBigUInt(1)).isZero)
        #expect(ReferenceBigUInt(bytes: [0x01, 0x00, 0x01]).bytes(count: 4) == [0, 1, 0, 1])
    }

    /// One modulus per batch, at sizes that are and are not multiples of 64
    /// bits, with bases above the modulus, base 0 and exponent 0.
    @Test("one modulus: matches the reference", arguments: [17, 64, 255, 521, 1000, 1024, 1536, 2048, 2050, 3072, 4096, 4100])
    func oneModulus(bits: Int) throws {
        var rng = SystemRandomNumberGenerator()
        let m = randomOddModulus(bits: bits, using: &rng)
        let byteLength = (bits + 7) / 8
        let context = try ModulusContext(modulus: m.bytes(count: byteLength))
        #expect(context.modulusLength == byteLength)
        // Full-length exponents up to 2050 bits, 512-bit ones above (the
        // reference is slow; the library's work is set by the width).
        let exponentBits = bits <= 2050 ? bits : 512
        let baseWidth = byteLength + 1 // some bases above m
        let exponentWidth = (exponentBits + 7) / 8
        let count = bits <= 1024 ? 9 : 3 // 9: a full group of 8 and a tail (IFMA; two groups of 4 and a tail on AVX2)
        var bases = (0..<count).map { _ in ReferenceBigUInt.random(bits: baseWidth * 8, using: &rng) }
        var exponents = (0..<count).map { _ in ReferenceBigUInt.random(bits: exponentBits, using: &rng) }
        bases[0] = ReferenceBigUInt(limbs: [])
        exponents[1] = ReferenceBigUInt(limbs: [])
        let results = try context.expBatch(bases: bases.map { $0.bytes(count: baseWidth) },
                                           exponents: exponents.map { $0.bytes(count: exponentWidth) })
        #expect(results.count == count)
        for i in 0..<count {
            let want = ReferenceBigUInt.modPow(bases[i], exponents[i], m)
            #expect(results[i] == want.bytes(count: byteLength), "\(bits) bits, value \(i): \(bases[i])^\(exponents[i]) mod \(m)")
        }
    }

    @Test("bytes in, left-padded bytes out")
    func bytes() throws {
        let context = try ModulusContext(modulus: [0x01, 0x00, 0x01]) // 65537
        #expect(try context.expBatch(bases: [[2], [3]], exponents: [[10], [4]]) == [[0, 4, 0], [0, 0, 81]])
        let one = try ModulusContext(modulus: [0, 0, 1]) // leading zeros are ignored
        #expect(one.modulusLength == 1)
        #expect(try one.expBatch(bases: [[5]], exponents: [[0]]) == [[0]])
    }

    /// One modulus per value (RSA-CRT halves): contexts of different
    /// lengths, repeated; every result as long as the longest modulus.
    @Test("one modulus per value: matches the reference")
    func perValueModuli() throws {
        var rng = SystemRandomNumberGenerator()
        let p = randomOddModulus(bits: 1024, using: &rng)
        let q = randomOddModulus(bits: 1000, using: &rng)
        let r = randomOddModulus(bits: 61, using: &rng)
        let cp = try ModulusContext(modulus: p.bytes(count: 128))
        let cq = try ModulusContext(modulus: q.bytes(count: 125))
        let cr = try ModulusContext(modulus: r.bytes(count: 8))
        let contexts = [cp, cq, cp, cr, cq]
        let moduli = [p, q, p, r, q]
        let bases = moduli.map { _ in ReferenceBigUInt.random(bits: 1024, using: &rng) }
        let exponents = moduli.map { _ in ReferenceBigUInt.random(bits: 512, using: &rng) }
        let results = try ModulusContext.expBatchMulti(contexts: contexts,
                                                       bases: bases.map { $0.bytes(count: 128) },
                                                       exponents: exponents.map { $0.bytes(count: 64) })
        let publicResults = try ModulusContext.expBatchMultiVartime(contexts: contexts,
                                                                    bases: bases.map { $0.bytes(count: 128) },
                                                                    exponents: exponents.map { $0.bytes(count: 64) })
        for i in contexts.indices {
            let want = ReferenceBigUInt.modPow(bases[i], exponents[i], moduli[i])
            #expect(results[i] == want.bytes(count: 128), "value \(i)")
            #expect(publicResults[i] == want.bytes(count: 128), "public-exponent value \(i)")
        }
        #expect(throws: OblivexError.badLength) {
            try ModulusContext.expBatchMulti(contexts: contexts, bases: [[1]], exponents: [[1]])
        }
    }

    @Test("backend and version")
    func configuration() {
        #expect(["portable", "mulx", "avx2", "ifma"].contains(Library.backendName))
        #expect(Library.version == "0.2.0" && Library.headerVersion == Library.version)
    }
}

/// The tests that set ``Library/threads``, a process-wide setting: one at a
/// time (`.serialized`), each restoring the value it found. No other test
/// sets it, and results do not depend on it, so the suites running
/// alongside are unaffected.
@Suite("thread count", .serialized)
struct ThreadCountTests {
    @Test("the setting is kept, clamped and reset")
    func setting() {
        let saved = Library.threads
        defer { Library.threads = saved }
        Library.threads = 2
        #expect(Library.threads == 2)
        Library.threads = Library.maxThreads + 5
        #expect(Library.threads == Library.maxThreads)
        Library.threads = 0
        #expect(Library.threads >= 1)
    }

    /// A batch spread over 4 threads: 41 values, more than 4 groups on
    /// any backend (8 values per group on IFMA, 4 on AVX2, 1 on the portable one),
    /// with a tail, against the reference.
    @Test("4 threads: matches the reference")
    func fourThreads() throws {
        let saved = Library.threads
        defer { Library.threads = saved }
        Library.threads = 4
        #expect(Library.threads == 4)
        var rng = SystemRandomNumberGenerator()
        let m = randomOddModulus(bits: 1024, using: &rng)
        let context = try ModulusContext(modulus: m.bytes(count: 128))
        let count = 41
        let bases = (0..<count).map { _ in ReferenceBigUInt.random(bits: 1024, using: &rng) }
        let exponents = (0..<count).map { _ in ReferenceBigUInt.random(bits: 256, using: &rng) }
        let results = try context.expBatch(bases: bases.map { $0.bytes(count: 128) },
                                           exponents: exponents.map { $0.bytes(count: 32) })
        #expect(results.count == count)
        for i in 0..<count {
            let want = ReferenceBigUInt.modPow(bases[i], exponents[i], m)
            #expect(results[i] == want.bytes(count: 128), "value \(i)")
        }
    }
}
