#!/bin/sh
# Builds dist/pindrop.wasm from the library's own sources with Embedded Swift
# (wasm32-unknown-none-wasm): PindropCore, PindropSwiftIndex and the C layer (Sources/Pindrop),
# each one module as SwiftPM would build them, linked with wasi-libc and compiler-rt's builtins.
# The exports are every pindrop_* function declared in include/pindrop.h, plus memory, malloc,
# free and the function table (growable, for a host's callbacks). Usage: wasm/build.sh [OUT] (default dist/pindrop.wasm). See docs/web.md.
#
# Optimised for speed (-O), across the three modules at link time (-lto=llvm-full: the C layer's
# calls into Core inline like Core's own), then by binaryen's wasm-opt -O3: against -Osize alone
# the module is 36 KB larger gzipped (323 KB, under the 400 KB budget) and add_many runs 1.4-1.7
# times faster, frame_clusters 2.0, a drag's MOVE 1.4 (in Node). Environment: SWIFT_OPT (default -O), WASM_LTO (default
# -lto=llvm-full; empty for none), SWIFT_EXTRA (more swiftc flags), WASM_STRIP (default
# --strip-all; --strip-debug keeps the function names for a profiler), WASM_OPT (default
# wasm-opt, run when installed; empty for none), WASM_BUILD_DIR (default .build-wasm).
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-dist/pindrop.wasm}
SWIFTC=${SWIFTC:-swiftc}
B=${WASM_BUILD_DIR:-.build-wasm}
WASI_SYSROOT=${WASI_SYSROOT:-/usr}
WASI_LIB=$WASI_SYSROOT/lib/wasm32-wasi
BUILTINS=${BUILTINS:-$(ls /usr/lib/llvm-*/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a 2>/dev/null | head -n 1)}
TOOLCHAIN=$(dirname "$(realpath "$(command -v "$SWIFTC")")")
EMBEDDED=$TOOLCHAIN/../lib/swift/embedded/wasm32-unknown-none-wasm
[ -f "$WASI_LIB/libc.a" ] || { echo "wasm/build.sh: wasi-libc is missing ($WASI_LIB/libc.a): apt-get install wasi-libc" >&2; exit 1; }
[ -n "$BUILTINS" ] || { echo "wasm/build.sh: libclang_rt.builtins-wasm32.a is missing: apt-get install libclang-rt-dev-wasm32" >&2; exit 1; }
mkdir -p "$B" "$(dirname "$OUT")"

FLAGS="-target wasm32-unknown-none-wasm -enable-experimental-feature Embedded -wmo -parse-as-library ${SWIFT_OPT:--O}
  ${WASM_LTO--lto=llvm-full} -enforce-exclusivity=unchecked ${SWIFT_EXTRA:-} -Xcc -isystem -Xcc $WASI_SYSROOT/include/wasm32-wasi -Xcc -fmodule-map-file=wasm/libc/module.modulemap
  -I wasm/libc -I $B -Xcc -D__wasi__ -Xfrontend -disable-stack-protector"

module() {  # name, sources...
  name=$1; shift
  # shellcheck disable=SC2086
  $SWIFTC $FLAGS -module-name "$name" -emit-module -emit-module-path "$B/$name.swiftmodule" -c "$@" -o "$B/$name.o"
}
module PindropCore $(find Sources/PindropCore -name '*.swift' | sort)
module PindropSwiftIndex $(find Sources/PindropSwiftIndex -name '*.swift' | sort)
# shellcheck disable=SC2086
$SWIFTC $FLAGS -module-name Pindrop -I include -c $(find Sources/Pindrop -name '*.swift' | sort) -o "$B/Pindrop.o"

# The exports: the functions of the header, so that functions added to it are exported with no
# list to keep. The function table is exported and growable, so that a host can add its own
# functions to it and pass their index where the C API takes a function pointer (the Python
# package's set_projection on the wasm backend, bindings/python/pindrop/_wasm.py).
sed -n 's/^[^#/ *].*[ *]\(pindrop_[a-z0-9_]*\)(.*/\1/p' include/pindrop.h | sort -u > "$B/exports.txt"
EXPORTS=$(sed 's/^/--export=/' "$B/exports.txt")
# shellcheck disable=SC2086
"$TOOLCHAIN/wasm-ld" --no-entry --gc-sections ${WASM_STRIP:---strip-all} -O2 \
  --export=malloc --export=free $EXPORTS --export-table --growable-table \
  -z stack-size=1048576 --initial-memory=2097152 \
  "$B/PindropCore.o" "$B/PindropSwiftIndex.o" "$B/Pindrop.o" \
  "$EMBEDDED/libswiftUnicodeDataTables.a" \
  "$WASI_LIB/libc.a" "$WASI_LIB/libm.a" "$BUILTINS" \
  -o "$OUT"
# Binaryen's optimiser over the linked module (Debian's binaryen; `make wasm` installs it):
# frame_clusters and a drag's MOVE 5-12 % faster, 19 KB smaller gzipped. WASM_OPT= skips it.
WASM_OPT=${WASM_OPT-wasm-opt}
if [ -n "$WASM_OPT" ] && command -v "$WASM_OPT" >/dev/null 2>&1; then
  "$WASM_OPT" --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    -O3 "$OUT" -o "$B/opt.wasm"
  mv "$B/opt.wasm" "$OUT"
elif [ -n "$WASM_OPT" ]; then
  echo "wasm/build.sh: $WASM_OPT is missing (apt-get install binaryen): the module is not post-optimised" >&2
fi
echo "wrote $OUT ($(wc -c < "$OUT") bytes, $(gzip -9 -c "$OUT" | wc -c) gzipped; $(wc -l < "$B/exports.txt") pindrop_* exports)"
