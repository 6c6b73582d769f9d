#!/usr/bin/env bash
# Build eboard-pico.uf2: MicroPython for the Raspberry Pi Pico with the eboard firmware
# frozen in (boards/pico-image/), from a MicroPython source tree.
#
#   boards/build-image.sh                  from ../shared/pico/micropython-rp2-src.tar.gz beside the repository
#                                          (EBOARD_MPY_TARBALL: another path to it)
#   boards/build-image.sh MICROPYTHON      from a MicroPython checkout with its submodules
#                                          (git submodule update --init, then make -C ports/rp2 submodules)
#                                          pico-sdk fetches picotool from GitHub, unless
#                                          PICOTOOL_FETCH_FROM_GIT_PATH names one built already
#   boards/build-image.sh --ci             as the first, but a missing tarball or toolchain is a
#                                          skip (one line saying why), not an error: ./run-tests.sh
#
# Writes build/eboard-pico.uf2 and build/micropython-32, the 32-bit unix port with the same
# frozen firmware and the virtual board's profile (the tests run the frozen firmware on it).
# Both are cached in ${XDG_CACHE_HOME:-~/.cache}/eboard under a hash of the firmware sources
# and of the MicroPython source: a second run only copies them.  EBOARD_CACHE moves the cache.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${EBOARD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/eboard}
TARBALL=${EBOARD_MPY_TARBALL:-$ROOT/../shared/pico/micropython-rp2-src.tar.gz}
JOBS=${JOBS:-2}
# The Pico's 2 MB flash, from its end: stock MicroPython's file system (as _boot.py has it,
# boards/pico-image/), then the journal's ring of raw sectors (firmware/ring.py); the
# firmware itself must end below both.
FS_KB=1408
RING_KB=128
STORAGE=$(( (FS_KB + RING_KB) * 1024 ))
PACKAGES="gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake make g++ gcc-multilib"

ci=0
src=
for a in "$@"; do
    case "$a" in
        --ci) ci=1 ;;
        -h | --help) sed -n "2,17p" "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "build-image.sh: unknown option $a" >&2; exit 2 ;;
        *) src=$a ;;
    esac
done

die() { echo "build-image.sh: $*" >&2; exit 1; }
publish() {  # copy the results into build/, each replaced at once: a test may be running one
    local f
    for f in eboard-pico.uf2 micropython-32; do
        cp "$1/$f" "$ROOT/build/.$f.tmp" && mv -f "$ROOT/build/.$f.tmp" "$ROOT/build/$f"
    done
}
skip() { echo "build-image.sh: skipped: $*" >&2; exit 0; }
say() { echo "build-image.sh: $*" >&2; }

# ---- the MicroPython source, and what identifies it ---------------------------------------
if [ -n "$src" ]; then
    [ -d "$src/ports/rp2" ] && [ -d "$src/py" ] || die "$src is not a MicroPython checkout (no ports/rp2)"
    [ -f "$src/lib/pico-sdk/CMakeLists.txt" ] || die "$src has no lib/pico-sdk: run make -C $src/ports/rp2 submodules"
    MPY=$(cd "$src" && pwd)
    if git -C "$MPY" rev-parse HEAD >/dev/null 2>&1; then
        src_id="checkout $(git -C "$MPY" rev-parse HEAD) $(git -C "$MPY" submodule status 2>/dev/null | sha256sum | cut -c1-16) $(git -C "$MPY" diff HEAD 2>/dev/null | sha256sum | cut -c1-16)"
    else
        src_id="checkout $MPY $(date +%s)"  # no git: nothing to know it by, so never cached
    fi
elif [ -f "$TARBALL" ]; then
    tar_hash=$(sha256sum "$TARBALL" | cut -c1-16)
    src_id="tarball $tar_hash"
else
    msg="no MicroPython source: $TARBALL is missing (a plain clone); give a checkout: boards/build-image.sh PATH"
    [ $ci = 1 ] && skip "$msg"
    die "$msg"
fi

# ---- the cache key: our frozen sources, this script, and the MicroPython source ----------
mapfile -t files < <(cd "$ROOT" && { find firmware -name '*.py' -not -path '*/__pycache__/*'; \
    find boards -name '*.py' -not -path '*/__pycache__/*' -not -path 'boards/hardware/*'; \
    find boards/pico-image/cmod -type f; \
    echo boards/build-image.sh; } | LC_ALL=C sort)
key=$( { echo "$src_id"; cd "$ROOT" && sha256sum "${files[@]}"; } | sha256sum | cut -c1-16)
out=$CACHE/images/$key
mkdir -p "$ROOT/build"
from_cache() {  # the results of these sources, if the cache has them: copied, and done
    if [ -f "$out/eboard-pico.uf2" ] && [ -x "$out/micropython-32" ]; then
        publish "$out"
        say "build/eboard-pico.uf2 from the cache ($key)"
        exit 0
    fi
}
from_cache

# ---- the toolchain --------------------------------------------------------------------
toolchain_ok() {
    command -v arm-none-eabi-gcc >/dev/null && command -v cmake >/dev/null && command -v make >/dev/null \
        && command -v g++ >/dev/null \
        && echo '#include <stdlib.h>' | arm-none-eabi-gcc -E - >/dev/null 2>&1 \
        && [ -d /usr/lib/arm-none-eabi/include/c++ ] \
        && echo 'int main(void){return 0;}' | gcc -m32 -x c -o /dev/null - >/dev/null 2>&1
}
if ! toolchain_ok; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        say "installing the toolchain: apt-get install $PACKAGES"
        apt-get install -y -q -o DPkg::Lock::Timeout=600 $PACKAGES >/dev/null 2>&1 \
            || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q -o DPkg::Lock::Timeout=600 $PACKAGES >/dev/null; } \
            || die "apt-get could not install $PACKAGES"
        toolchain_ok || die "the toolchain still does not work after apt-get install $PACKAGES"
    else
        msg="the toolchain is missing: sudo apt-get install $PACKAGES (Debian 12 / Ubuntu)"
        [ $ci = 1 ] && skip "$msg"
        die "$msg"
    fi
fi

# ---- the tree to build in (one at a time: a lock in the cache) ----------------------------
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9
from_cache  # built meanwhile, by another run?
if [ -z "$src" ]; then
    work=$CACHE/src-$tar_hash
    if [ ! -f "$work/.unpacked" ]; then
        say "unpacking $(basename "$TARBALL") into $work"
        rm -rf "$work" && mkdir -p "$work"
        tar xzf "$TARBALL" -C "$work"
        touch "$work/.unpacked"
    fi
    MPY=$work/micropython
    # pico-sdk 2.x needs picotool to make a UF2; built once from the tarball's source.
    if [ ! -f "$work/.picotool" ]; then
        say "building picotool"
        cmake -S "$work/picotool" -B "$work/picotool-build" -DPICO_SDK_PATH="$MPY/lib/pico-sdk" \
            -DPICOTOOL_NO_LIBUSB=1 -DPICOTOOL_FLAT_INSTALL=1 -DCMAKE_INSTALL_PREFIX="$work/picotool-install" \
            >"$work/picotool.log" 2>&1 \
            && make -j"$JOBS" -C "$work/picotool-build" >>"$work/picotool.log" 2>&1 \
            && make -C "$work/picotool-build" install >>"$work/picotool.log" 2>&1 \
            || die "picotool did not build: see $work/picotool.log"
        touch "$work/.picotool"
    fi
    export PICOTOOL_FETCH_FROM_GIT_PATH=$work/picotool-install
fi
# A build folder of our own per repository, beside the port's usual ones.
tag=eboard-$(echo "$ROOT" | sha256sum | cut -c1-8)
log=$CACHE/build-$tag.log
: >"$log"
say "building mpy-cross, the rp2 port (RPI_PICO) and the 32-bit unix port in $MPY (log: $log)"
make -j"$JOBS" -C "$MPY/mpy-cross" >>"$log" 2>&1 || die "mpy-cross did not build: see $log"
# Frozen modules are recompiled only when a source is newer than its .mpy: start them afresh,
# so a change of the manifest's options reaches them too (a few seconds).
rm -rf "$MPY/ports/rp2/build-$tag/frozen_mpy" "$MPY/ports/unix/build-$tag-32/frozen_mpy"
# The port configures its build folder once (cmake): one configured before the C module
# (boards/pico-image/cmod) is configured again, its objects kept.
rp2cache=$MPY/ports/rp2/build-$tag/CMakeCache.txt
# So is one configured with another storage size.
if [ -f "$rp2cache" ] && { ! grep -q "^USER_C_MODULES:.*=$ROOT/boards/pico-image/cmod/micropython.cmake\$" "$rp2cache" \
    || ! grep -q "^MICROPY_HW_FLASH_STORAGE_BYTES:.*=$STORAGE\$" "$rp2cache"; }; then
    rm -f "$MPY/ports/rp2/build-$tag/Makefile"
fi
make -j"$JOBS" -C "$MPY/ports/rp2" BOARD=RPI_PICO BUILD="build-$tag" \
    MICROPY_HW_FLASH_STORAGE_BYTES=$STORAGE FROZEN_MANIFEST="$ROOT/boards/pico-image/manifest.py" \
    USER_C_MODULES="$ROOT/boards/pico-image/cmod/micropython.cmake" >>"$log" 2>&1 \
    || die "the rp2 port did not build: see $log"
make -j"$JOBS" -C "$MPY/ports/unix" BUILD="build-$tag-32" CC="gcc -m32" MICROPY_PY_FFI=0 MICROPY_PY_BTREE=0 \
    MICROPY_PY_SSL=0 MICROPY_SSL_AXTLS=0 MICROPY_SSL_MBEDTLS=0 \
    FROZEN_MANIFEST="$ROOT/boards/pico-image/unix.py" >>"$log" 2>&1 \
    || die "the 32-bit unix port did not build: see $log"

bin_size=$(stat -c %s "$MPY/ports/rp2/build-$tag/firmware.bin")
[ "$bin_size" -le $(( 2048 * 1024 - STORAGE )) ] \
    || die "the firmware ($bin_size bytes) runs into the journal's ring at $(( 2048 * 1024 - STORAGE )): make RING_KB smaller"
mkdir -p "$out.tmp"
cp "$MPY/ports/rp2/build-$tag/firmware.uf2" "$out.tmp/eboard-pico.uf2"
cp "$MPY/ports/unix/build-$tag-32/micropython" "$out.tmp/micropython-32"
rm -rf "$out" && mv "$out.tmp" "$out"
publish "$out"
say "built build/eboard-pico.uf2 ($(stat -c %s "$ROOT/build/eboard-pico.uf2") bytes) and build/micropython-32 ($key)"
