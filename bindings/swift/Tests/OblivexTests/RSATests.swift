import Oblivex
import Testing

/// The RSA key API on a small key whose answers 64-bit arithmetic checks:
/// p = 1009, q = 1013, e = 65537, so dp = 593, dq = 329, qinv = 757 and
/// d = 67121 (mod lcm(1008, 1012)).
@Suite("RSA private keys")
struct RSATests {
    let p: [UInt8] = [0x03, 0xf1]
    let q: [UInt8] = [0x03, 0xf5]
    let dp: [UInt8] = [0x02, 0x51]
    let dq: [UInt8] = [0x01, 0x49]
    let qinv: [UInt8] = [0x02, 0xf5]

    /// `c^67121 mod 1022117`: the first key's private operation.
    func reference(_ c: UInt64) -> UInt64 {
        power(c, 67121, 1009 * 1013)
    }

    @Test("private operations match 64-bit arithmetic")
    func privateBatch() throws {
        let key = try RSAKey(p: p, q: q, dp: dp, dq: dq, qinv: qinv)
        #expect(key.modulusLength == 3)
        let values: [UInt64] = [0, 1, 2, 1_022_116, 1009, 7091, 65536, 123_456, 999_999, 31]
        let ciphertexts = values.map { v in [UInt8(v >> 16), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
        let results = try key.privateBatch(ciphertexts)
        for (value, result) in zip(values, results) {
            let got = UInt64(result[0]) << 16 | UInt64(result[1]) << 8 | UInt64(result[2])
            #expect(got == reference(value), "\(value)")
        }
    }

    @Test("one key per ciphertext: each result under its own key")
    func privateBatchKeys() throws {
        let first = try RSAKey(p: p, q: q, dp: dp, dq: dq, qinv: qinv)
        // p = 1019, q = 1021 (primes of the first key's 10 bits), e = 65537:
        // dp = 431, dq = 893, qinv = 510, d = 284453.
        let second = try RSAKey(p: [0x03, 0xfb], q: [0x03, 0xfd], dp: [0x01, 0xaf], dq: [0x03, 0x7d],
                                qinv: [0x01, 0xfe])
        let values: [UInt64] = [0, 2, 1_022_116, 65536, 123_456, 31, 999_999]
        let keys = values.indices.map { $0 % 2 == 0 ? first : second }
        let ciphertexts = values.map { v in [UInt8(v >> 16), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
        let results = try RSAKey.privateBatch(keys: keys, ciphertexts: ciphertexts)
        for (i, (value, result)) in zip(values, results).enumerated() {
            let got = UInt64(result[0]) << 16 | UInt64(result[1]) << 8 | UInt64(result[2])
            let want = i % 2 == 0 ? reference(value) : power(value, 284_453, 1019 * 1021)
            #expect(got == want, "\(value) under key \(i % 2)")
        }
        #expect(throws: OblivexError.badLength) { try RSAKey.privateBatch(keys: [first], ciphertexts: ciphertexts) }
        #expect(throws: OblivexError.emptyInput) { try RSAKey.privateBatch(keys: [], ciphertexts: [[UInt8]]()) }
    }

    /// `c^e mod n` by square-and-multiply.
    func power(_ c: UInt64, _ exponent: UInt64, _ n: UInt64) -> UInt64 {
        var (result, base, e): (UInt64, UInt64, UInt64) = (1, c % n, exponent)
        while e > 0 {
            if e & 1 == 1 {
                result = result * base % n
            }
            base = base * base % n
            e >>= 1
        }
        return result
    }

    @Test("bad keys and ciphertexts are refused by cause")
    func refusals() throws {
        #expect(throws: OblivexError.evenModulus) { try RSAKey(p: [0x03, 0xf0], q: q, dp: dp, dq: dq, qinv: qinv) }
        #expect(throws: OblivexError.equalPrimes) { try RSAKey(p: p, q: p, dp: dp, dq: dp, qinv: qinv) }
        #expect(throws: OblivexError.unsupportedKeySize) { try RSAKey(p: p, q: [0x07, 0xf7], dp: dp, dq: dq, qinv: qinv) }
        #expect(throws: OblivexError.invalidCRTExponent) { try RSAKey(p: p, q: q, dp: [0x02, 0x52], dq: dq, qinv: qinv) }
        #expect(throws: OblivexError.invalidCRTCoefficient) { try RSAKey(p: p, q: q, dp: dp, dq: dq, qinv: [0x02, 0xf6]) }
        let key = try RSAKey(p: p, q: q, dp: dp, dq: dq, qinv: qinv)
        #expect(throws: OblivexError.ciphertextOutOfRange) { try key.privateBatch([[0x0f, 0x98, 0xa5]]) }
        #expect(throws: OblivexError.badLength) { try key.privateBatch([[0x01]]) }
        #expect(throws: OblivexError.emptyInput) { try key.privateBatch([[UInt8]]()) }
    }
}
