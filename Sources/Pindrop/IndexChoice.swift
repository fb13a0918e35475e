import PindropCore
#if arch(wasm32)
import PindropSwiftIndex
#else
import PindropGEOSIndex
#endif

/// The spatial index and allowed-area reader behind every map: GEOS in the native library, the
/// pure Swift implementation in the WebAssembly module (docs/web.md), which answers alike.
@inline(__always)
func makeIndexFactory() throws(PindropError) -> IndexFactory {
    #if arch(wasm32)
    return SwiftIndexFactory()
    #else
    return try GEOSFactory()
    #endif
}
