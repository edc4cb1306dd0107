import COblivex
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Passing bytes to and from the C API. Every pointer given to C is non-NULL
// where C needs one (an empty input points at a valid zero-byte buffer, and
// C reports it by its own status); optional inputs are NULL when empty, the
// C API's "NULL/0 for none". Temporary copies the package makes of caller
// bytes (which may be secret: inputs, keys, exponents) are wiped before
// they are released.

/// Zeroes `count` bytes at `pointer` in a way the optimizer keeps (memory
/// about to be freed is a dead store otherwise).
func wipe(_ pointer: UnsafeMutableRawPointer, count: Int) {
    guard count > 0 else { return }
    #if canImport(Darwin)
    _ = memset_s(pointer, count, 0, count)
    #else
    explicit_bzero(pointer, count)
    #endif
}

/// Zeroes an array in place (for buffers that held secrets).
func wipe(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { buffer in
        if let base = buffer.baseAddress {
            wipe(base, count: buffer.count)
        }
    }
}

/// Calls `body` with a pointer to the bytes of `bytes` (never nil) and
/// their count. A collection without contiguous storage is copied into a
/// temporary buffer, wiped afterwards.
func withBytes<Bytes: Collection<UInt8>, R>(
    _ bytes: Bytes, _ body: (UnsafePointer<UInt8>, Int) -> R
) -> R {
    let direct = bytes.withContiguousStorageIfAvailable { buffer -> R? in
        guard let base = buffer.baseAddress else { return nil }
        return body(base, buffer.count)
    }
    if let result = direct ?? nil {
        return result
    }
    let count = bytes.count
    let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(count, 1))
    defer {
        wipe(copy.baseAddress!, count: count)
        copy.deallocate()
    }
    _ = copy.initialize(fromContentsOf: bytes)
    return body(copy.baseAddress!, count)
}

/// `withBytes` for an optional input of the C API: a nil pointer (and 0)
/// when `bytes` is empty.
func withOptionalBytes<Bytes: Collection<UInt8>, R>(
    _ bytes: Bytes, _ body: (UnsafePointer<UInt8>?, Int) -> R
) -> R {
    if bytes.isEmpty {
        return body(nil, 0)
    }
    return withBytes(bytes) { body($0, $1) }
}

/// `withOptionalBytes` for an input that may be absent: a nil pointer (and
/// 0) when `bytes` is nil or empty.
func withOptionalBytes<Bytes: Collection<UInt8>, R>(
    _ bytes: Bytes?, _ body: (UnsafePointer<UInt8>?, Int) -> R
) -> R {
    guard let bytes else { return body(nil, 0) }
    return withOptionalBytes(bytes, body)
}

/// Calls `body` with the C API's form of an array of byte strings
/// (`noun`, `noun_lens`, `count`): the items copied into one temporary
/// buffer, their pointers and their lengths. The copies are wiped
/// afterwards (items may be secret inputs).
func withByteStrings<Items: Collection, R>(
    _ items: Items,
    _ body: (UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int>, Int) -> R
) -> R where Items.Element: Collection<UInt8> {
    let count = items.count
    let lengths = UnsafeMutableBufferPointer<Int>.allocate(capacity: max(count, 1))
    let pointers = UnsafeMutableBufferPointer<UnsafePointer<UInt8>?>.allocate(capacity: max(count, 1))
    lengths.initialize(repeating: 0)
    for (index, item) in items.enumerated() {
        lengths[index] = item.count
    }
    let total = lengths.reduce(0, +)
    let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(total, 1))
    defer {
        wipe(storage.baseAddress!, count: total)
        storage.deallocate()
        pointers.deallocate()
        lengths.deallocate()
    }
    pointers.initialize(repeating: UnsafePointer(storage.baseAddress!))
    var offset = 0
    for (index, item) in items.enumerated() {
        let slot = UnsafeMutableBufferPointer(rebasing: storage[offset..<offset + lengths[index]])
        _ = slot.initialize(fromContentsOf: item)
        pointers[index] = UnsafePointer(storage.baseAddress! + offset)
        offset += lengths[index]
    }
    return body(UnsafePointer(pointers.baseAddress!), UnsafePointer(lengths.baseAddress!), count)
}

/// Calls `body` with a pointer to the party ids of `ids`, or nil (and 0)
/// for none: the C API's optional quorum.
func withPartyIDs<R>(_ ids: [UInt16], _ body: (UnsafePointer<UInt16>?, Int) -> R) -> R {
    if ids.isEmpty {
        return body(nil, 0)
    }
    return ids.withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
}

/// Runs a C call that writes up to `capacity` bytes to an output buffer
/// (`noun`, `noun_capacity`, `noun_written`) and returns what it wrote, or
/// throws the status's error (nothing is written then).
func withOutput(
    capacity: Int,
    _ body: (UnsafeMutablePointer<UInt8>, Int, UnsafeMutablePointer<Int>) -> Int32
) throws(OblivexError) -> [UInt8] {
    try withOutputValues(capacity: capacity, body)
}

/// ``withOutput(capacity:_:)`` for an output array of any plain C value
/// (`uint16_t` party ids, say), `capacity` values.
func withOutputValues<Value: BitwiseCopyable>(
    capacity: Int,
    _ body: (UnsafeMutablePointer<Value>, Int, UnsafeMutablePointer<Int>) -> Int32
) throws(OblivexError) -> [Value] {
    var status = OBLIVEX_OK
    let output = [Value](unsafeUninitializedCapacity: max(capacity, 1)) { buffer, initialized in
        var written = 0
        status = body(buffer.baseAddress!, capacity, &written)
        initialized = status == OBLIVEX_OK ? min(written, capacity) : 0
    }
    try check(status)
    return output
}

/// Cuts `bytes` into parts of `width` bytes, then wipes `bytes` (outputs
/// may be secret: the separate parts are the caller's).
func split(_ bytes: inout [UInt8], width: Int) -> [[UInt8]] {
    defer { wipe(&bytes) }
    guard width > 0 else { return [] }
    return stride(from: 0, to: bytes.count, by: width).map { Array(bytes[$0..<min($0 + width, bytes.count)]) }
}

/// Packs equal-width items into one buffer: ``OblivexError/emptyInput`` for
/// none, ``OblivexError/badLength`` if their widths differ (nothing is
/// kept then). The caller wipes the result.
func flatten<Items: Collection>(_ items: Items) throws(OblivexError) -> (bytes: [UInt8], width: Int)
where Items.Element: Collection<UInt8> {
    guard let first = items.first else { throw .emptyInput }
    let width = first.count
    var out = [UInt8]()
    out.reserveCapacity(width * items.count)
    for item in items {
        guard item.count == width else {
            wipe(&out)
            throw .badLength
        }
        out.append(contentsOf: item)
    }
    return (out, width)
}

