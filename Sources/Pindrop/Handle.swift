import CPindrop
import Glibc
import PindropCore

/// What a `pindrop_map *` points to: the Core map and the last error message the C caller reads.
final class Handle {
    let map: Map
    private var message: UnsafeMutablePointer<CChar>?
    /// The bytes `message` can hold: a message that fits is copied in place (a hit test's miss,
    /// an ordinary answer, allocates nothing).
    private var capacity = 0

    /// The pin count whose cluster levels frame_clusters last checked the heap for
    /// (`clusterBuildBytes`): the check is made again once pins were added or removed.
    var clustersCheckedFor = -1

    init(map: Map) { self.map = map }
    deinit { free(message) }

    var lastError: UnsafePointer<CChar> { UnsafePointer(message) ?? emptyString }

    func fail(_ error: PindropError) -> pindrop_status {
        setMessage(error.message)
        return pindrop_status(rawValue: error.status.rawValue)
    }

    /// Remembers a failure's message on the map and as the calling thread's last error.
    func setMessage(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            let n = bytes.count + 1
            if capacity < n {
                // Out of memory: the map keeps no message rather than trapping.
                guard let grown = realloc(message, n) else { free(message); message = nil; capacity = 0; return }
                message = grown.assumingMemoryBound(to: CChar.self); capacity = n
            }
            guard let message else { return }
            if let base = bytes.baseAddress { memcpy(message, base, bytes.count) }
            message[bytes.count] = 0
        }
        ThreadError.set(message)
    }

    /// Empties the message, keeping its buffer for the next one (a few hundred bytes at most).
    func clearMessage() {
        message?[0] = 0
    }
}

/// A NUL-terminated string literal of the binary as a C string: no allocation (a block allocated
/// on first use would stay wherever the heap had room then, maybe in the middle of a large map's
/// freed memory, where it keeps the next large map from reusing it whole).
@inline(__always)
func cString(_ s: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}

let emptyString: UnsafePointer<CChar> = cString("")
let nullMapMessage: UnsafePointer<CChar> = cString("the map is NULL")

@inline(__always)
func handle(_ p: OpaquePointer?) -> Handle? {
    guard let p else { return nil }
    return Unmanaged<Handle>.fromOpaque(UnsafeRawPointer(p)).takeUnretainedValue()
}

let statusOK = PINDROP_OK
let statusInvalid = PINDROP_ERR_INVALID_ARGUMENT

/// Runs `body` against the map: OK when it returns, the error's status (remembered as the map's
/// last error) when it throws. A NULL map is PINDROP_ERR_INVALID_ARGUMENT.
@inline(__always)
func call(_ p: OpaquePointer?, _ body: (Map) throws(PindropError) -> Void) -> pindrop_status {
    guard let h = handle(p) else { return nullMap() }
    do throws(PindropError) {
        try body(h.map)
        return statusOK
    } catch {
        return h.fail(error)
    }
}

/// Runs a query that returns how many results exist: the count when `body` returns (the map's
/// last error cleared, so that a 0 can be told from a failure), 0 with the error remembered as the
/// map's last error when it throws. A NULL map is a count of 0.
@inline(__always)
func countCall(_ p: OpaquePointer?, _ body: (Map) throws(PindropError) -> Int) -> Int {
    guard let h = handle(p) else { _ = nullMap(); return 0 }
    do throws(PindropError) {
        let total = try body(h.map)
        h.clearMessage()
        return total
    } catch {
        _ = h.fail(error)
        return 0
    }
}

/// A caller's buffer of `capacity` items: the capacity checked as `checkedCount` does, and NULL
/// allowed only with a capacity of 0.
@inline(__always)
func checkedBuffer<T>(_ out: UnsafeMutablePointer<T>?, _ capacity: Int, _ name: String) throws(PindropError) -> Int {
    let capacity = try checkedCount(capacity, stride: MemoryLayout<T>.stride, "capacity")
    if capacity > 0 && out == nil { throw PindropError(.invalidArgument, "\(name) is NULL with capacity \(capacity)") }
    return capacity
}

/// The heap a map takes before its first pin (the Core map, its index, the handle), with room to
/// spare: pindrop_map_create checks that much is free.
let mapCreateBytes = 64 << 10
/// The heap add_many takes per pin, with 1 MB more, as one block at most: its peak while the pins
/// go in is 0.8 MB and 100-110 bytes a pin (measured from 2,000 to 916,114 LA trees); the
/// JavaScript package's ADD_MANY_BYTES_PER_PIN.
let addManyBytesPerPin = 112

/// The heap a first frame_clusters takes to build the cluster levels of `pins` pins, at most
/// (measured on 2,000 to 916,114 LA trees: 2.3 MB for 2,000, 8.2 MB for 20,000, 38 MB for 200,000,
/// 72 MB for 916,114, each as one block).
func clusterBuildBytes(_ pins: Int) -> Int {
    let small = bytes(pins, times: 220, plus: 4 << 20), large = bytes(pins, times: 48, plus: 32 << 20)
    return small < 0 || large < 0 ? -1 : min(small, large)
}

/// PINDROP_ERR_NO_MEMORY, before anything changes, when the module's heap cannot give `bytes`.
/// In the WebAssembly module (a 4 GB heap at most) an allocation that fails inside Swift traps,
/// and the trap stops every map of the module: the entry points that allocate in proportion to
/// their input check first. While the memory can still grow by `bytes` that is all (no
/// allocation: the check costs nothing and the heap grows only as it is used); near the limit, a
/// block of `bytes` is taken and given back at once. Natively (an address space that is not the
/// limit) it does nothing.
@inline(__always)
func needMemory(_ bytes: Int, _ what: @autoclosure () -> String) throws(PindropError) {
    #if arch(wasm32)
    guard bytes >= 0, bytes <= growableBytes() || heapCanGive(bytes) else {
        let size = bytes < 0 ? "more than 2 GB" : "about \(bytes >> 20) MB"
        throw PindropError(.noMemory, "out of memory: \(what()) needs \(size) in one block, more than the module's heap (4 GB at most) has left")
    }
    #endif
}

#if arch(wasm32)
/// How far the module's memory can still grow: 4 GB less its size (wasi-libc's sbrk(0) is the
/// memory's size, which reads 0 at 4 GB on wasm32).
@inline(__always)
func growableBytes() -> Int {
    let size = UInt64(UInt(bitPattern: sbrk(0)))
    let limit: UInt64 = 1 << 32
    return Int(clamping: limit - (size == 0 ? limit : size))
}
#endif

/// Whether malloc can give `bytes` in one block now (taken and given back at once). Not optimised:
/// the optimiser may remove a malloc whose block is freed unused, and assume it succeeded.
@_optimize(none)
func heapCanGive(_ bytes: Int) -> Bool {
    guard let p = malloc(bytes) else { return false }
    free(p)
    return true
}

/// `a * b + c` bytes, or -1 when it does not fit an Int (32 bits in the wasm module).
@inline(__always)
func bytes(_ a: Int, times b: Int, plus c: Int = 0) -> Int {
    let (m, o1) = a.multipliedReportingOverflow(by: b)
    let (s, o2) = m.addingReportingOverflow(c)
    return o1 || o2 ? -1 : s
}

/// A required output pointer: NULL is an invalid argument naming the parameter.
@inline(__always)
func required<T>(_ p: T?, _ name: String) throws(PindropError) -> T {
    guard let p else { throw PindropError(.invalidArgument, "\(name) is NULL") }
    return p
}

/// A NULL map: PINDROP_ERR_INVALID_ARGUMENT, with the calling thread's last error saying so.
func nullMap() -> pindrop_status {
    ThreadError.set(nullMapMessage)
    return statusInvalid
}

/// The status of a failed call made without a map, its message kept as the thread's last error.
func failWithoutMap(_ error: PindropError) -> pindrop_status {
    error.message.withCString { ThreadError.set($0) }
    return pindrop_status(rawValue: error.status.rawValue)
}

/// A `size_t` count or capacity (received as Int) of items of `stride` bytes: one no buffer could
/// hold (2^63 and above arrives negative; or its byte size overflows) is an invalid argument,
/// checked before any buffer pointer is built from it.
@inline(__always)
func checkedCount(_ n: Int, stride: Int, _ name: String) throws(PindropError) -> Int {
    guard n >= 0, n <= Int.max / stride else {
        throw PindropError(.invalidArgument, "\(name) = \(UInt(bitPattern: n)) is more than any buffer could hold")
    }
    return n
}

#if arch(wasm32)
/// The message of the last failed call (`pindrop_last_error`). A WebAssembly module runs on one
/// thread (the wasm build has no threads), so one buffer, grown when a message needs more. Its
/// first kilobyte is taken when the first map is made (`prepare`), early in the heap, rather than
/// by the first failure, which may come while a large map fills the heap: a small block left in
/// the middle of that map's memory once it is freed splits it, and the next large map grows the
/// module instead of reusing it (916k pins, dispose, 916k: 120 MB then 180 MB).
enum ThreadError {
    private static var bytes: UnsafeMutablePointer<CChar>?
    private static var capacity = 0

    static func prepare() {
        guard bytes == nil, let p = malloc(1024) else { return }
        bytes = p.assumingMemoryBound(to: CChar.self); capacity = 1024; p.storeBytes(of: 0, as: CChar.self)
    }

    static func set(_ text: UnsafePointer<CChar>?) {
        guard let text else { return }
        let n = strlen(text) + 1
        if capacity < n {
            // Out of memory: the previous message stays rather than trapping.
            guard let grown = realloc(bytes, n) else { return }
            bytes = grown.assumingMemoryBound(to: CChar.self); capacity = n
        }
        if let bytes { memcpy(bytes, text, n) }
    }

    static var current: UnsafePointer<CChar> { bytes.map { UnsafePointer($0) } ?? emptyString }
}
#else
/// The message of the last failed call on each thread (`pindrop_last_error`), libgit2's
/// `git_error_last`: a per-thread buffer, grown when a message needs more, freed with the thread.
enum ThreadError {
    private struct Buffer { var bytes: UnsafeMutablePointer<CChar>; var capacity: Int }

    static func prepare() {}

    private static let key: pthread_key_t = {
        var k = pthread_key_t()
        pthread_key_create(&k) { p in
            guard let p else { return }
            let b = p.assumingMemoryBound(to: Buffer.self)
            free(b.pointee.bytes)
            free(b)
        }
        return k
    }()

    static func set(_ text: UnsafePointer<CChar>?) {
        guard let text else { return }
        let n = strlen(text) + 1
        let b: UnsafeMutablePointer<Buffer>
        if let p = pthread_getspecific(key) {
            b = p.assumingMemoryBound(to: Buffer.self)
        } else {
            guard let raw = malloc(MemoryLayout<Buffer>.size), let bytes = malloc(64) else { return }
            b = raw.bindMemory(to: Buffer.self, capacity: 1)
            b.initialize(to: Buffer(bytes: bytes.assumingMemoryBound(to: CChar.self), capacity: 64))
            pthread_setspecific(key, raw)
        }
        if b.pointee.capacity < n {
            // Out of memory: the thread keeps its previous message rather than trapping.
            guard let grown = realloc(b.pointee.bytes, n) else { return }
            b.pointee.bytes = grown.assumingMemoryBound(to: CChar.self); b.pointee.capacity = n
        }
        memcpy(b.pointee.bytes, text, n)
    }

    static var current: UnsafePointer<CChar> {
        guard let p = pthread_getspecific(key) else { return emptyString }
        return UnsafePointer(p.assumingMemoryBound(to: Buffer.self).pointee.bytes)
    }
}

#endif

@_cdecl("pindrop_last_error")
public func pindrop_last_error() -> UnsafePointer<CChar> { ThreadError.current }
