import Foundation
import Oblivex

/// The repository's root (this file is bindings/swift/Tests/OblivexTests/Support.swift).
let repositoryRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<5 {
        url.deleteLastPathComponent()
    }
    return url
}()

/// The bytes of a hex string.
func unhex(_ text: String) -> [UInt8] {
    let digits = Array(text.utf8)
    precondition(digits.count % 2 == 0, "odd hex length")
    func value(_ c: UInt8) -> UInt8 {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: preconditionFailure("not hex")
        }
    }
    return stride(from: 0, to: digits.count, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
}

/// `n` distinct inputs.
func inputs(_ n: Int) -> [[UInt8]] {
    (0..<n).map { Array("input \($0)".utf8) }
}

/// Every server of `ids` answers `request`; a server whose id is in `cheat`
/// answers with the next server's share instead (and no quorum).
func respond(
    _ shares: [KeyShare], _ request: [UInt8], quorum: [UInt16] = [], ids: [UInt16], cheat: Set<UInt16> = []
) throws -> [ThresholdResponse] {
    try ids.map { id in
        var share = shares[Int(id) - 1]
        var q = quorum
        if cheat.contains(id) {
            share = shares[Int(id) % shares.count]
            q = []
        }
        return ThresholdResponse(party: id, elements: try share.evaluate(request, quorum: q))
    }
}

let allFive: [UInt16] = [1, 2, 3, 4, 5]

/// Finalizes `batch` with `finalize` (which consumes it) and returns the
/// error it threw, or nil if it succeeded. (A `~Copyable` batch cannot be
/// consumed inside a closure that captures it, as `#expect(throws:)` would.)
func finalizeError<Batch: ~Copyable, R>(
    _ batch: consuming Batch, _ finalize: (consuming Batch) throws -> R
) -> OblivexError? {
    do {
        _ = try finalize(batch)
        return nil
    } catch let error as OblivexError {
        return error
    } catch {
        preconditionFailure("not an OblivexError: \(error)")
    }
}
