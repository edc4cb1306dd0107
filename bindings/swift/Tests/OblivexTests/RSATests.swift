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

    /// `c^67121 mod 1022117` by square-and-multiply.
    func reference(_ c: UInt64) -> UInt64 {
        let n: UInt64 = 1009 * 1013
        var (result, base, e): (UInt64, UInt64, UInt64) = (1, c % n, 67121)
        while e > 0 {
            if e & 1 == 1 {
                result = result * base % n
            }
            base = base * base % n
            e >>= 1
        }
        return result
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
