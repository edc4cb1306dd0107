/// A small arbitrary-precision unsigned integer, the independent reference
/// the batch exponentiation is checked against: schoolbook products, Knuth's
/// long division (TAOCP 4.3.1, algorithm D) for remainders, and left-to-right
/// square-and-multiply. Slow and variable-time; for tests only.
struct ReferenceBigUInt: Equatable, CustomStringConvertible {
    /// Little-endian 64-bit limbs, without high zero limbs (zero is []).
    private(set) var limbs: [UInt64]

    init(limbs: [UInt64]) {
        self.limbs = limbs
        while self.limbs.last == 0 {
            self.limbs.removeLast()
        }
    }

    init(_ value: UInt64) {
        self.init(limbs: [value])
    }

    /// The integer of big-endian bytes.
    init(bytes: some Collection<UInt8>) {
        var limbs = [UInt64]()
        var limb: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes.reversed() {
            limb |= UInt64(byte) << shift
            shift += 8
            if shift == 64 {
                limbs.append(limb)
                limb = 0
                shift = 0
            }
        }
        limbs.append(limb)
        self.init(limbs: limbs)
    }

    /// A random integer below 2^bits.
    static func random(bits: Int, using generator: inout some RandomNumberGenerator) -> ReferenceBigUInt {
        var limbs = (0..<((bits + 63) / 64)).map { _ in UInt64.random(in: .min ... .max, using: &generator) }
        if bits % 64 != 0 {
            limbs[limbs.count - 1] &= (1 << UInt64(bits % 64)) - 1
        }
        return ReferenceBigUInt(limbs: limbs)
    }

    var isZero: Bool { limbs.isEmpty }

    var bitWidth: Int { limbs.isEmpty ? 0 : limbs.count * 64 - limbs.last!.leadingZeroBitCount }

    func bit(_ index: Int) -> Bool {
        index / 64 < limbs.count && limbs[index / 64] >> UInt64(index % 64) & 1 == 1
    }

    /// Big-endian, left-padded to `count` bytes (the value must fit).
    func bytes(count: Int) -> [UInt8] {
        precondition((bitWidth + 7) / 8 <= count, "value does not fit")
        return (0..<count).map { position in
            let index = count - 1 - position // byte index from the least significant
            return index / 8 < limbs.count ? UInt8(truncatingIfNeeded: limbs[index / 8] >> UInt64(8 * (index % 8))) : 0
        }
    }

    var description: String {
        limbs.isEmpty ? "0x0" : "0x" + limbs.reversed().map { String($0, radix: 16) }.enumerated()
            .map { $0.offset == 0 ? $0.element : String(repeating: "0", count: 16 - $0.element.count) + $0.element }
            .joined()
    }

    static func * (a: ReferenceBigUInt, b: ReferenceBigUInt) -> ReferenceBigUInt {
        if a.isZero || b.isZero {
            return ReferenceBigUInt(limbs: [])
        }
        var product = [UInt64](repeating: 0, count: a.limbs.count + b.limbs.count)
        for i in 0..<a.limbs.count {
            var carry: UInt64 = 0
            for j in 0..<b.limbs.count {
                let (high, low) = a.limbs[i].multipliedFullWidth(by: b.limbs[j])
                let (sum1, overflow1) = low.addingReportingOverflow(product[i + j])
                let (sum2, overflow2) = sum1.addingReportingOverflow(carry)
                product[i + j] = sum2
                carry = high &+ (overflow1 ? 1 : 0) &+ (overflow2 ? 1 : 0) // no overflow: high <= 2^64 - 2
            }
            product[i + b.limbs.count] = carry
        }
        return ReferenceBigUInt(limbs: product)
    }

    static func + (a: ReferenceBigUInt, b: ReferenceBigUInt) -> ReferenceBigUInt {
        var sum = [UInt64](repeating: 0, count: max(a.limbs.count, b.limbs.count) + 1)
        var carry: UInt64 = 0
        for i in 0..<(sum.count - 1) {
            let x = i < a.limbs.count ? a.limbs[i] : 0
            let y = i < b.limbs.count ? b.limbs[i] : 0
            let (sum1, overflow1) = x.addingReportingOverflow(y)
            let (sum2, overflow2) = sum1.addingReportingOverflow(carry)
            sum[i] = sum2
            carry = (overflow1 ? 1 : 0) + (overflow2 ? 1 : 0)
        }
        sum[sum.count - 1] = carry
        return ReferenceBigUInt(limbs: sum)
    }

    /// The remainder of a by m (m not zero).
    static func % (a: ReferenceBigUInt, m: ReferenceBigUInt) -> ReferenceBigUInt {
        precondition(!m.isZero, "division by zero")
        let n = m.limbs.count
        if a.limbs.count < n {
            return a
        }
        if n == 1 {
            var remainder: UInt64 = 0
            for limb in a.limbs.reversed() {
                remainder = m.limbs[0].dividingFullWidth((remainder, limb)).remainder
            }
            return ReferenceBigUInt(limbs: [remainder])
        }
        // Normalize: the divisor's top bit set.
        let shift = UInt64(m.limbs[n - 1].leadingZeroBitCount)
        let v = shiftedLeft(m.limbs, by: shift, extraLimb: false)
        var u = shiftedLeft(a.limbs, by: shift, extraLimb: true)
        for j in stride(from: u.count - n - 1, through: 0, by: -1) {
            // Estimate the quotient digit from the top two limbs, then correct
            // it with the third (it is then exact or one too large).
            var qhat: UInt64
            var rhat: UInt64
            var rhatOverflow = false
            if u[j + n] >= v[n - 1] {
                qhat = .max
                (rhat, rhatOverflow) = u[j + n - 1].addingReportingOverflow(v[n - 1])
            } else {
                (qhat, rhat) = v[n - 1].dividingFullWidth((u[j + n], u[j + n - 1]))
            }
            while !rhatOverflow {
                let (high, low) = qhat.multipliedFullWidth(by: v[n - 2])
                guard high > rhat || (high == rhat && low > u[j + n - 2]) else { break }
                qhat -= 1
                (rhat, rhatOverflow) = rhat.addingReportingOverflow(v[n - 1])
            }
            // u[j...j+n] -= qhat * v
            var borrow: UInt64 = 0
            var carry: UInt64 = 0
            for i in 0..<n {
                let (high, low) = qhat.multipliedFullWidth(by: v[i])
                let (productLow, overflow) = low.addingReportingOverflow(carry)
                carry = high &+ (overflow ? 1 : 0)
                let (difference1, borrow1) = u[i + j].subtractingReportingOverflow(productLow)
                let (difference2, borrow2) = difference1.subtractingReportingOverflow(borrow)
                u[i + j] = difference2
                borrow = (borrow1 ? 1 : 0) + (borrow2 ? 1 : 0)
            }
            let (top1, borrow1) = u[j + n].subtractingReportingOverflow(carry)
            let (top2, borrow2) = top1.subtractingReportingOverflow(borrow)
            u[j + n] = top2
            if borrow1 || borrow2 {
                // qhat was one too large: add v back.
                var addCarry: UInt64 = 0
                for i in 0..<n {
                    let (sum1, overflow1) = u[i + j].addingReportingOverflow(v[i])
                    let (sum2, overflow2) = sum1.addingReportingOverflow(addCarry)
                    u[i + j] = sum2
                    addCarry = (overflow1 ? 1 : 0) + (overflow2 ? 1 : 0)
                }
                u[j + n] &+= addCarry
            }
        }
        // The remainder is u[0..<n], shifted back.
        var remainder = [UInt64](repeating: 0, count: n)
        for i in 0..<n {
            remainder[i] = shift == 0 ? u[i] : (u[i] >> shift) | (u[i + 1] << (64 - shift))
        }
        return ReferenceBigUInt(limbs: remainder)
    }

    private static func shiftedLeft(_ limbs: [UInt64], by shift: UInt64, extraLimb: Bool) -> [UInt64] {
        var out = [UInt64](repeating: 0, count: limbs.count + (extraLimb ? 1 : 0))
        for i in 0..<limbs.count {
            out[i] |= shift == 0 ? limbs[i] : limbs[i] << shift
            if shift != 0 && i + 1 < out.count {
                out[i + 1] = limbs[i] >> (64 - shift)
            }
        }
        return out
    }

    /// base^exponent mod m, as `BN_mod_exp` defines it (1 mod 1 is 0).
    static func modPow(_ base: ReferenceBigUInt, _ exponent: ReferenceBigUInt, _ m: ReferenceBigUInt) -> ReferenceBigUInt {
        var result = ReferenceBigUInt(1) % m
        let b = base % m
        for index in stride(from: exponent.bitWidth - 1, through: 0, by: -1) {
            result = (result * result) % m
            if exponent.bit(index) {
                result = (result * b) % m
            }
        }
        return result
    }
}
