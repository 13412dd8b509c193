#!/usr/bin/env bash
# The one build entry point.
#   ./build.sh            build what is missing or stale: the WASM builds (web/*.wasm) and the native test build
#   ./build.sh wasm       the release WASM builds only
#   ./build.sh native     native C tests and tools, with AddressSanitizer + UndefinedBehaviorSanitizer
#   ./build.sh setup      install what the build and tests need (emscripten, chromium, npm packages)
#   ./build.sh test       setup + build + every test (what `npm test` runs)
#   ./build.sh gamedata   the tests against the games' own files (tests/gamedata/, npm run test:gamedata):
#                         installs the Debian packages of tests/gamedata/packages.txt that are missing
#   ./build.sh fuzz [--minutes N] [--only NAME]
#                         a fuzzing campaign of about N minutes over every libFuzzer harness (or one),
#                         on the committed seeds and the shared corpus (npm run fuzz -- --minutes N)
#   ./build.sh coverage   line coverage of every src/ file by the native tests and the fuzz corpora
#   ./build.sh size       print the gzip size of what a page downloads
#   ./build.sh web        the WASM, the viewer's demo model (web/demo/, from tools/make-demo.mjs) and
#                         the one-file viewer bundle (web/interquake-viewer.min.js, esbuild)
set -euo pipefail
cd "$(dirname "$0")"

# Every src/**/iq_*.c is part of the library, found in its layer folder (CONTRIBUTING.md, "Layout");
# src/wasm/ (the exports, the tables JS reads) goes into the WASM only. Objects are named by basename,
# so basenames are unique (tests/js/core/layers.test.mjs checks).
mapfile -t SOURCES < <(find src -name 'iq_*.c' ! -path 'src/wasm/*' | LC_ALL=C sort)
mapfile -t WASM_ONLY < <(find src/wasm -name 'iq_*.c' | LC_ALL=C sort)
mapfile -t HEADERS < <(find src -name '*.h' | LC_ALL=C sort)
WASM_SOURCES=("${SOURCES[@]}" "${WASM_ONLY[@]}")
# Readers the one-file element leaves out of interquake-viewer.wasm: interquake-readers.wasm (the
# viewer's build with them) is fetched the first time a file needs one (iq.loadReaders()). One path
# per line: a new reader adds its files here and its line to src/formats/iq_readers.c, which the
# viewer's build compiles with IQI_WITHOUT_ON_DEMAND_READERS (an empty list).
ON_DEMAND_SOURCES=(
  src/formats/iq_readers.c
  src/formats/iq_anorms.c
  src/formats/iq_frame_clips.c
  src/formats/iq_framegroups.c
  src/formats/iq_md2.c
  src/formats/iq_mdl.c
  src/formats/iq_mdc.c
  src/formats/iq_quake_palette.c
  src/formats/iq_md5.c
  src/formats/iq_darkplaces.c
  src/formats/iq_mdr.c
  src/formats/iq_skeletal.c
)
CFLAGS_COMMON=(-std=c11 -Wall -Wextra -Wshadow -Wno-unused-parameter -Isrc)
# Debian's emcc runs its JS optimizer with the system node, which only finds acorn here.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"

log() { printf '[build] %s\n' "$*" >&2; }

can_apt() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }
APT_UPDATED=0
apt_install() {
  if ! can_apt; then
    log "missing: $*. Install them (Debian/Ubuntu: sudo apt-get install -y $*) and run again."
    exit 1
  fi
  if [ "$APT_UPDATED" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    APT_UPDATED=1
  fi
  log "installing $* with apt-get"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}

ensure_emcc() {
  command -v emcc >/dev/null || apt_install emscripten
}

ensure_test_tools() {
  local missing=()
  command -v emcc >/dev/null || missing+=(emscripten)
  command -v clang >/dev/null || missing+=(clang)
  command -v chromium >/dev/null || missing+=(chromium)
  # netpbm's tgatoppm: an independent TGA decoder the TGA tests compare against
  command -v tgatoppm >/dev/null || missing+=(netpbm)
  # libFuzzer and LeakSanitizer runtimes for clang 14
  [ -e /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a ] || missing+=(libclang-rt-14-dev)
  if [ "${#missing[@]}" -gt 0 ]; then apt_install "${missing[@]}"; fi
  ensure_npm_packages
}

# The viewer needs them too (fflate opens .pk3 files, esbuild makes the one-file element).
ensure_npm_packages() {
  # npm writes node_modules/.package-lock.json on every install: older than the lockfile means stale.
  if stale node_modules/.package-lock.json package-lock.json; then
    log "installing npm packages"
    if [ -f package-lock.json ]; then npm ci --no-audit --no-fund >&2; else npm install --no-audit --no-fund >&2; fi
  fi
}

stale() { # stale TARGET SOURCES...: true when TARGET is missing or older than a source
  local target=$1; shift
  [ -e "$target" ] || return 0
  local s
  for s in "$@"; do [ "$s" -nt "$target" ] && return 0; done
  return 1
}

# Five WASM files from the same C, linked from objects in build/wasm/ (the linker drops what a
# build's exports never reach):
#   web/interquake.wasm, interquake-baseline.wasm   everything: the library (npm, Node, the CLI)
#   web/interquake-viewer.wasm, -viewer-baseline    the one-file element's: no writers, no shader
#       scripts; what runs once per load is built for size (-Os), what runs every frame at -O2
#   web/interquake-shaders.wasm                     shader scripts only, fetched by the one-file
#       element for a model with script blocks (no SIMD build: nothing there vectorises)
# Each comes with SIMD (autovectorised; ~1.6x faster skinning) and a baseline for engines without
# it (Safari before 16.4); init() picks one.
WASM_OBJ=build/wasm
# What runs every frame in the viewer (posing, skinning, morphs, tags, the clocks): -O2 everywhere.
FRAME_SOURCES=(src/anim/iq_anim.c src/anim/iq_anim_skin.c src/anim/iq_morph.c src/anim/iq_instance.c src/anim/iq_tags.c src/anim/iq_q3play.c)
WASM_LINK=(-sSTANDALONE_WASM=1 --no-entry -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2147483648
  -sMALLOC=emmalloc -sFILESYSTEM=0 -sTOTAL_STACK=1048576)

wasm_objects() { # wasm_objects DIR FLAGS... -- SOURCES...: compiles the sources into DIR when stale
  local dir=$1; shift
  local flags=() src
  while [ "$1" != -- ]; do flags+=("$1"); shift; done; shift
  mkdir -p "$dir"
  if ! stale "$dir/.stamp" "$@" "${HEADERS[@]}" build.sh; then return 0; fi
  log "emcc -c ${flags[*]} (${#} files) -> $dir/"
  rm -f "$dir"/*.o
  local root=$PWD abs=()
  for src in "$@"; do abs+=("$root/$src"); done
  (cd "$dir" && emcc -c "${flags[@]}" "${CFLAGS_COMMON[@]}" -I"$root/src" -DNDEBUG "${abs[@]}")
  touch "$dir/.stamp"
}

objects_of() { # objects_of DIR SOURCES...: their object paths
  local dir=$1 src; shift
  for src in "$@"; do printf '%s\n' "$dir/$(basename "$src" .c).o"; done
}

link_wasm() { # link_wasm OUT OBJECTS...
  local out=$1; shift
  if ! stale "$out" "$@"; then return 0; fi
  log "emcc -> $out"
  emcc -O2 "$@" "${WASM_LINK[@]}" -o "$out"
}

build_wasm() {
  ensure_emcc
  local cold=() viewer_cold=() src hot
  for src in "${SOURCES[@]}"; do
    hot=0; for f in "${FRAME_SOURCES[@]}"; do [ "$src" = "$f" ] && hot=1; done
    [ $hot = 1 ] || cold+=("$src")
    for f in "${ON_DEMAND_SOURCES[@]}"; do [ "$src" = "$f" ] && hot=1; done
    [ $hot = 1 ] || viewer_cold+=("$src")
  done
  local variant simd
  for variant in simd baseline; do
    simd=(); [ $variant = simd ] && simd=(-msimd128)
    # The two object sets of a variant side by side (2 cores).
    wasm_objects "$WASM_OBJ/$variant" -O2 "${simd[@]}" -- "${WASM_SOURCES[@]}" & local pid=$!
    # (the element's two builds have no renderer exports: their layout table leaves its records out)
    wasm_objects "$WASM_OBJ/$variant-size" -Os "${simd[@]}" -DIQ_WASM_ELEMENT -- "${cold[@]}" src/wasm/iq_wasm.c src/wasm/iq_wasm_tables.c src/wasm/iq_wasm_readers.c
    wait "$pid"
    wasm_objects "$WASM_OBJ/$variant-no-readers" -Os "${simd[@]}" -DIQI_WITHOUT_ON_DEMAND_READERS -- src/formats/iq_readers.c
  done
  local suffix
  for variant in simd baseline; do
    suffix=; [ $variant = baseline ] && suffix=-baseline
    mapfile -t all < <(objects_of "$WASM_OBJ/$variant" "${WASM_SOURCES[@]}")
    link_wasm "web/interquake$suffix.wasm" "${all[@]}"
    mapfile -t viewer < <(objects_of "$WASM_OBJ/$variant" "${FRAME_SOURCES[@]}"; objects_of "$WASM_OBJ/$variant-size" "${viewer_cold[@]}" src/wasm/iq_wasm.c src/wasm/iq_wasm_tables.c; objects_of "$WASM_OBJ/$variant-no-readers" src/formats/iq_readers.c)
    link_wasm "web/interquake-viewer$suffix.wasm" "${viewer[@]}"
    # the same with the readers it leaves out: fetched by the element for a file that needs one
    mapfile -t readers < <(objects_of "$WASM_OBJ/$variant" "${FRAME_SOURCES[@]}"; objects_of "$WASM_OBJ/$variant-size" "${cold[@]}" src/wasm/iq_wasm.c src/wasm/iq_wasm_tables.c src/wasm/iq_wasm_readers.c)
    link_wasm "web/interquake-readers$suffix.wasm" "${readers[@]}"
  done
  mapfile -t shaders < <(objects_of "$WASM_OBJ/baseline" "${SOURCES[@]}" src/wasm/iq_wasm_shader.c src/wasm/iq_wasm_tables.c)
  link_wasm web/interquake-shaders.wasm "${shaders[@]}"
}

# The viewer's built-in demo model, regenerated when its generator (or the IQM writer it uses) changes.
build_demo() {
  if stale web/demo/critter.iqm tools/make-demo.mjs tests/js/lib/iqm-build.mjs; then
    log "node tools/make-demo.mjs -> web/demo/"
    node tools/make-demo.mjs >&2
  fi
}

# The element's modules as a page loads them unbundled: web/*.js and web/viewer/*.js, less the
# shader-script drawer (fetched only for a model with script blocks).
viewer_modules() { find web -maxdepth 2 -name '*.js' ! -name '*.min.js' ! -name '*-embedded.js' ! -path 'web/demo/*' ! -name shaderdraw.js | sort; }

# The element as one minified file (web/interquake-viewer.min.js: the element, renderer, UI and JS
# API bundled by esbuild; it loads interquake.wasm from beside itself). Needs the npm packages.
build_viewer_bundle() {
  local out=web/interquake-viewer.min.js
  mapfile -t modules < <(viewer_modules)
  if ! stale "$out" "${modules[@]}" build.sh tools/build-viewer.mjs && ! stale web/interquake-shaders.min.js web/viewer/shaderdraw.js web/core/mat4.js build.sh \
    && ! stale web/interquake-ui.min.js "${modules[@]}" \
    && ! stale web/interquake-software.min.js "${modules[@]}" web/viewer/shaderdraw.js \
    && ! stale web/interquake-modelcfg.min.js web/core/modelcfg.js web/core/paths.js build.sh \
    && ! stale web/interquake-modelskins.min.js web/quake3/modelskins.js web/quake3/text.js web/core/paths.js build.sh; then return 0; fi
  if [ ! -x node_modules/.bin/esbuild ]; then log "skipping $out: run npm install (esbuild)"; return 0; fi
  log "esbuild -> $out, web/interquake-inflate.min.js, web/interquake-shaders.min.js, web/interquake-ui.min.js, web/interquake-modelcfg.min.js, web/interquake-modelskins.min.js, web/interquake-software.min.js"
  node tools/build-viewer.mjs
}

# The WASM as base64 inside JS, for the `interquake/embedded` entry (tools without asset handling).
build_embedded() {
  local out=web/interquake-wasm-embedded.js
  if ! stale "$out" web/interquake.wasm web/interquake-baseline.wasm build.sh; then return 0; fi
  log "base64 -> $out"
  node -e '
    const fs = require("fs");
    const b64 = (f) => fs.readFileSync(f).toString("base64");
    fs.writeFileSync(process.argv[1], "// Generated by build.sh from web/interquake.wasm and web/interquake-baseline.wasm.\n" +
      "export const SIMD_WASM = \"" + b64("web/interquake.wasm") + "\";\n" +
      "export const BASELINE_WASM = \"" + b64("web/interquake-baseline.wasm") + "\";\n");
  ' "$out"
}

NATIVE_DIR=build/native
SAN_FLAGS=(-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)

native_objects() { # native_objects DIR FLAGS...: the library's objects in DIR (named by basename), rebuilt when stale
  # (OBJ_CC=clang for the libFuzzer and coverage builds)
  local dir=$1 compiler=${OBJ_CC:-cc}; shift
  mkdir -p "$dir"
  if ! stale "$dir/.stamp" "${SOURCES[@]}" "${HEADERS[@]}" build.sh; then return 0; fi
  log "$compiler -c $* (${#SOURCES[@]} files) -> $dir/"
  rm -f "$dir"/*.o
  local root=$PWD abs=() src
  for src in "${SOURCES[@]}"; do abs+=("$root/$src"); done
  (cd "$dir" && "$compiler" -c "${CFLAGS_COMMON[@]}" -I"$root/src" "$@" "${abs[@]}")
  touch "$dir/.stamp"
}

build_native() {
  mkdir -p "$NATIVE_DIR"
  # The library once (IQI_TEST_ALLOC: allocations counted and failable, base/iq_internal.h, for
  # the allocation sweeps), then each test linked against it.
  native_objects "$NATIVE_DIR/obj" "${SAN_FLAGS[@]}" -DIQI_TEST_ALLOC
  mapfile -t objs < <(objects_of "$NATIVE_DIR/obj" "${SOURCES[@]}")
  local t
  for t in tests/c/test_*.c; do
    local bin="$NATIVE_DIR/$(basename "$t" .c)"
    if stale "$bin" "$NATIVE_DIR/obj/.stamp" tests/c/*.h "$t" build.sh; then
      log "cc $t (ASan+UBSan)"
      cc "${CFLAGS_COMMON[@]}" "${SAN_FLAGS[@]}" -DIQI_TEST_ALLOC "$t" "${objs[@]}" -lm -o "$bin"
    fi
  done
  # Uninstrumented optimised build of the same C for the benchmark.
  local deps=("${SOURCES[@]}" "${HEADERS[@]}" tests/c/*.c tests/c/*.h build.sh)
  if [ -f tests/c/bench_native.c ] && stale "$NATIVE_DIR/bench_native" "${deps[@]}"; then
    cc "${CFLAGS_COMMON[@]}" -O2 -DNDEBUG tests/c/bench_native.c "${SOURCES[@]}" -lm -o "$NATIVE_DIR/bench_native"
  fi
}

FUZZ_FLAGS=(-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all)
build_fuzz() {
  mkdir -p "$NATIVE_DIR"
  OBJ_CC=clang native_objects build/fuzz-obj "${FUZZ_FLAGS[@]}" -fsanitize=fuzzer-no-link
  local f
  for f in tests/c/fuzz_*.c; do
    local bin="$NATIVE_DIR/$(basename "$f" .c)"
    if stale "$bin" build/fuzz-obj/.stamp "$f" tests/c/*.h; then
      log "clang $f (libFuzzer+ASan+UBSan)"
      clang "${CFLAGS_COMMON[@]}" "${FUZZ_FLAGS[@]}" -fsanitize=fuzzer "$f" build/fuzz-obj/*.o -lm -o "$bin"
    fi
  done
}

# A harness's seeds: its `// seeds:` line (small committed files: tests/c/seeds/, tests/fixtures/),
# plus, for campaigns, its `// campaign seeds:` line (the shared corpus's real files, large and slow).
fuzz_seeds() { # fuzz_seeds HARNESS.c [campaign]
  sed -n 's|^// seeds: ||p' "$1"
  [ "${2:-}" = campaign ] && sed -n 's|^// campaign seeds: ||p' "$1"
  return 0
}

fuzz_one() { # fuzz_one HARNESS.c SECONDS [campaign]: runs it, 1 on a finding
  local f=$1 seconds=$2 kind=${3:-}
  local name; name=$(basename "$f" .c)
  local corpus="build/fuzz-corpus/$name" dict="tests/c/seeds/$name.dict" opts=()
  mkdir -p "$corpus"
  [ -f "$dict" ] && opts+=(-dict="$dict")
  local seeds; seeds=$(fuzz_seeds "$f" "$kind" | tr '\n' ' ')
  log "fuzzing $name for ${seconds}s (seeds: ${seeds:-none})"
  # shellcheck disable=SC2086
  "$NATIVE_DIR/$name" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix=build/ "${opts[@]}" "$corpus" $seeds 2> "build/$name.log" \
    || { tail -40 "build/$name.log" >&2; log "FUZZER FAILED: $name"; return 1; }
  local runs rate
  runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "build/$name.log" | grep -Eo '[0-9]+$' | tail -1)
  rate=$(grep -Eo 'stat::average_exec_per_sec: *[0-9]+' "build/$name.log" | grep -Eo '[0-9]+$' | tail -1)
  log "$name: ${runs:-?} runs, ${rate:-?}/s, corpus $(ls "$corpus" | wc -l) files"
}

run_fuzz() { # run_fuzz SECONDS: every harness for SECONDS on its committed seeds (what npm test runs)
  local seconds=$1 f failed=0
  build_fuzz
  for f in tests/c/fuzz_*.c; do fuzz_one "$f" "$seconds" || failed=1; done
  return $failed
}

# npm run fuzz -- --minutes N [--only NAME]: a campaign of about N minutes in all (default 10 per
# harness), the harnesses sharing it, as many at once as there are cores, seeded with the committed
# seeds and the shared corpus; findings stay in build/fuzz-corpus/ for the next campaign and for
# `npm run coverage`.
fuzz_campaign() {
  local minutes="" only="" harnesses=()
  while [ $# -gt 0 ]; do
    case $1 in
      --minutes)
        # Whole or decimal minutes (0.5 is 30 s); anything else is a usage error.
        [[ "${2:-}" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "npm run fuzz: --minutes takes a number, not '${2:-}'" >&2; exit 2; }
        minutes=$2; shift 2 ;;
      --only) only=$2; shift 2 ;;
      *) echo "usage: npm run fuzz -- [--minutes N] [--only fuzz_NAME]" >&2; exit 2 ;;
    esac
  done
  build_fuzz
  local f
  for f in tests/c/fuzz_*.c; do
    [ -z "$only" ] || [ "$(basename "$f" .c)" = "$only" ] || [ "$(basename "$f" .c)" = "fuzz_$only" ] && harnesses+=("$f")
  done
  [ ${#harnesses[@]} -gt 0 ] || { echo "no harness named $only" >&2; exit 2; }
  local jobs; jobs=$(nproc 2>/dev/null || echo 2)
  [ -n "$minutes" ] || minutes=$(( 10 * ${#harnesses[@]} / jobs ))
  # Each harness gets an equal share of the wall-clock budget, $jobs running at once.
  local rounds=$(( (${#harnesses[@]} + jobs - 1) / jobs ))
  local seconds; seconds=$(awk -v m="$minutes" -v r="$rounds" 'BEGIN { printf "%d", m * 60 / r }'); [ "$seconds" -ge 1 ] || seconds=1
  log "campaign: ${#harnesses[@]} harnesses, ${seconds}s each, $jobs at a time (about $minutes min)"
  local failed=0 pids=() i=0
  for f in "${harnesses[@]}"; do
    fuzz_one "$f" "$seconds" campaign & pids+=($!)
    i=$((i + 1))
    if [ $((i % jobs)) = 0 ]; then for p in "${pids[@]}"; do wait "$p" || failed=1; done; pids=(); fi
  done
  for p in "${pids[@]}"; do wait "$p" || failed=1; done
  return $failed
}

# npm run coverage: line coverage of each src/ file by the native tests plus the fuzz seeds and
# whatever campaigns left in build/fuzz-corpus/ (clang source-based coverage, no sanitizers).
# Writes build/coverage/summary.txt (the table printed) and build/coverage/html/.
coverage_report() {
  local dir=build/coverage
  rm -rf "$dir/profiles"; mkdir -p "$dir/profiles" "$dir/bin"
  local cov=(-g -O0 -fprofile-instr-generate -fcoverage-mapping -DIQI_TEST_ALLOC)
  OBJ_CC=clang native_objects build/coverage-obj "${cov[@]}"
  local t bins=()
  for t in tests/c/test_*.c; do
    local bin="$dir/bin/$(basename "$t" .c)"
    if stale "$bin" build/coverage-obj/.stamp "$t" tests/c/*.h; then
      log "clang $t (coverage)"
      clang "${CFLAGS_COMMON[@]}" "${cov[@]}" "$t" build/coverage-obj/*.o -lm -o "$bin"
    fi
    bins+=("$bin")
    LLVM_PROFILE_FILE="$dir/profiles/$(basename "$t" .c).profraw" "$bin" > /dev/null || log "warning: $t failed under coverage"
  done
  # The harnesses replay their seeds and the saved campaign corpus once (-runs=0), no fuzzing.
  for t in tests/c/fuzz_*.c; do
    local name; name=$(basename "$t" .c)
    local bin="$dir/bin/$name"
    if stale "$bin" build/coverage-obj/.stamp "$t" tests/c/*.h; then
      log "clang $t (coverage replay)"
      clang "${CFLAGS_COMMON[@]}" "${cov[@]}" -fsanitize=fuzzer "$t" build/coverage-obj/*.o -lm -o "$bin"
    fi
    bins+=("$bin")
    mkdir -p "build/fuzz-corpus/$name"
    # shellcheck disable=SC2046
    LLVM_PROFILE_FILE="$dir/profiles/$name.profraw" "$bin" -runs=0 "build/fuzz-corpus/$name" $(fuzz_seeds "$t" campaign) \
      > /dev/null 2>&1 || log "warning: $name replay failed"
  done
  llvm-profdata merge -sparse "$dir"/profiles/*.profraw -o "$dir/all.profdata"
  local objs=() b; for b in "${bins[@]:1}"; do objs+=(-object "$b"); done
  llvm-cov report "${bins[0]}" "${objs[@]}" -instr-profile="$dir/all.profdata" -ignore-filename-regex='tests/' \
    > "$dir/report.txt"
  llvm-cov show "${bins[0]}" "${objs[@]}" -instr-profile="$dir/all.profdata" -ignore-filename-regex='tests/' \
    -format=html -output-dir="$dir/html" > /dev/null
  # file, lines, lines missed, line coverage: the columns llvm-cov's report gives per file
  awk -v root="$PWD/" 'NR > 2 && $1 != "TOTAL" && NF >= 10 && $8 > 0 { f = $1; sub(root, "", f); printf "%-40s %7s lines %7s missed %8s\n", f, $8, $9, $10 }
    $1 == "TOTAL" { printf "%-40s %7s lines %7s missed %8s\n", "TOTAL", $8, $9, $10 }' "$dir/report.txt" | tee "$dir/summary.txt"
  log "html: $dir/html/index.html"
}

run_tests() {
  ensure_test_tools
  build_wasm
  build_demo
  build_viewer_bundle
  build_embedded
  build_native
  local failed=0 t
  log "native C tests (ASan + UBSan)"
  for t in "$NATIVE_DIR"/test_*; do
    "$t" || failed=1
  done
  run_fuzz "${FUZZ_SECONDS:-20}" || failed=1
  log "node --test"
  node --test --test-reporter=spec tests/js/ tests/browser/ tests/package/ || failed=1
  return $failed
}

# npm run test:gamedata: the checks against the games' own files, which `npm test` (and so CI) does
# not install (hundreds of MB each): the Debian packages tests/gamedata/packages.txt names are
# installed when a file they hold is missing (as root; otherwise the command says what to install
# and fails), then each tests/gamedata/*.c runs as a sanitizer-built binary (build/native/gamedata_*)
# and node --test runs tests/gamedata/*.test.mjs. A missing file there is a failure, never a skip.
GAMEDATA=tests/gamedata
ensure_gamedata() {
  local missing=() pkg version path
  while read -r pkg version path; do
    case $pkg in ''|'#'*) continue ;; esac
    [ -e "$path" ] || missing+=("$pkg")
  done < "$GAMEDATA/packages.txt"
  if [ "${#missing[@]}" -gt 0 ]; then apt_install "${missing[@]}"; fi
}

run_gamedata() {
  ensure_gamedata
  ensure_emcc
  ensure_npm_packages
  build_wasm
  native_objects "$NATIVE_DIR/obj" "${SAN_FLAGS[@]}" -DIQI_TEST_ALLOC
  mapfile -t objs < <(objects_of "$NATIVE_DIR/obj" "${SOURCES[@]}")
  local failed=0 t
  for t in "$GAMEDATA"/*.c; do
    local bin="$NATIVE_DIR/gamedata_$(basename "$t" .c)"
    if stale "$bin" "$NATIVE_DIR/obj/.stamp" tests/c/*.h "$t" build.sh; then
      log "cc $t (ASan+UBSan)"
      cc "${CFLAGS_COMMON[@]}" "${SAN_FLAGS[@]}" -DIQI_TEST_ALLOC -Itests/c "$t" "${objs[@]}" -lm -o "$bin"
    fi
    log "$bin"
    "$bin" || failed=1
  done
  log "node --test $GAMEDATA/"
  node --test --test-reporter=spec "$GAMEDATA/" || failed=1
  return $failed
}

size_report() {
  build_wasm
  local f
  for f in web/interquake.wasm web/interquake-baseline.wasm web/interquake-viewer.wasm web/interquake-viewer-baseline.wasm \
      web/interquake-shaders.wasm web/interquake.js "$@"; do
    [ -f "$f" ] && printf '%-44s %8d bytes, %7d gzipped\n' "$f" "$(wc -c < "$f")" "$(gzip -9c "$f" | wc -c)"
  done
  # What a page embedding <interquake-viewer> downloads, each file gzipped as a server sends it:
  # the modules as they are in web/ (the element, its renderer and UI, the JS API) with
  # interquake.wasm, or the one minified bundle with its smaller interquake-viewer.wasm.
  build_viewer_bundle
  local raw=0 gz=0
  mapfile -t modules < <(viewer_modules | grep -v 'interquake-lite\.js$')
  for f in "${modules[@]}" web/interquake.wasm; do
    raw=$((raw + $(wc -c < "$f"))); gz=$((gz + $(gzip -9c "$f" | wc -c)))
  done
  printf '%-44s %8d bytes, %7d gzipped\n' "<interquake-viewer> as modules (${#modules[@]} + wasm)" "$raw" "$gz"
  f=web/interquake-viewer.min.js
  local w=web/interquake-viewer.wasm
  if [ -f "$f" ]; then
    printf '%-44s %8d bytes, %7d gzipped\n' "$f" "$(wc -c < "$f")" "$(gzip -9c "$f" | wc -c)"
    printf '%-44s %8d bytes, %7d gzipped\n' "<interquake-viewer> as bundle + viewer wasm" \
      "$(( $(wc -c < "$f") + $(wc -c < "$w") ))" "$(( $(gzip -9c "$f" | wc -c) + $(gzip -9c "$w" | wc -c) ))"
  fi
  # Fetched only for a file in a format the viewer's WASM leaves out (MD2, MDL...) or a .framegroups:
  # the page keeps interquake-viewer.wasm and adds this one.
  f=web/interquake-readers.wasm
  printf '%-44s %8d bytes, %7d gzipped\n' "+ $f (MD5, DPM, ZYM, MDR, MD2, MDL, MDC, .framegroups)" "$(wc -c < "$f")" "$(gzip -9c "$f" | wc -c)"
  # Fetched only for a model whose surfaces name shader-script blocks.
  for f in web/viewer/shaderdraw.js web/interquake-shaders.min.js web/interquake-shaders.wasm; do
    printf '%-44s %8d bytes, %7d gzipped\n' "+ $f (scripts only)" "$(wc -c < "$f")" "$(gzip -9c "$f" | wc -c)"
  done
  # Fetched only by an element with controls (controls="minimal" or "full").
  f=web/interquake-ui.min.js
  [ -f "$f" ] && printf '%-44s %8d bytes, %7d gzipped\n' "+ $f (controls only)" "$(wc -c < "$f")" "$(gzip -9c "$f" | wc -c)"
  # Fetched only by an element that draws in software (renderer="software", or no WebGL 2): the
  # drawer and the renderer's JS, and the full WASM in place of interquake-viewer.wasm.
  for f in web/interquake-software.min.js web/interquake.wasm; do
    [ -f "$f" ] && printf '%-44s %8d bytes, %7d gzipped\n' "+ $f (software drawing only)" "$(wc -c < "$f")" "$(gzip -9c "$f" | wc -c)"
  done
  # Fetched only when a folder or an archive is opened (model .cfg files, the folder's model).
  for f in web/interquake-modelcfg.min.js web/interquake-modelskins.min.js; do
    [ -f "$f" ] && printf '%-44s %8d bytes, %7d gzipped\n' "+ $f (folders only)" "$(wc -c < "$f")" "$(gzip -9c "$f" | wc -c)"
  done
  # Fetched only when a deflated .pk3/.zip is opened.
  for f in web/interquake-inflate.min.js node_modules/fflate/umd/index.js; do
    [ -f "$f" ] && printf '%-44s %8d bytes, %7d gzipped\n' "+ $f (first .pk3 only)" "$(wc -c < "$f")" "$(gzip -9c "$f" | wc -c)"
  done
  return 0
}

case "${1:-all}" in
  all) build_wasm; build_demo; build_viewer_bundle; build_embedded; build_native ;;
  wasm) build_wasm ;;
  native) build_native ;;
  setup) ensure_test_tools ;;
  test) run_tests ;;
  gamedata) run_gamedata ;;
  fuzz) shift; fuzz_campaign "$@" ;;
  coverage) ensure_test_tools; coverage_report ;;
  size) shift; size_report "$@" ;;
  web) ensure_npm_packages; build_wasm; build_demo; build_viewer_bundle; build_embedded ;;
  *) echo "usage: $0 [all|wasm|native|setup|test|gamedata|fuzz [--minutes N] [--only NAME]|coverage|size|web]" >&2; exit 2 ;;
esac
