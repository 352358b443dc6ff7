#!/usr/bin/env bash
# Builds Chariot for every released target into dist/chariot-<version>-<target>.{tar.gz,zip}
# (the binary, README.md, LICENSE and the net) and checks each binary this machine can run:
# the bench signature equals the x86-64 build's, and `uci`/`quit` gives `uciok`. The x86-64
# binary is also run as an old CPU without AVX2, BMI2 or popcnt (`qemu-x86_64 -cpu qemu64`).
#
# Needs (Debian): rustup targets aarch64-unknown-linux-musl aarch64-unknown-linux-gnu
# x86_64-pc-windows-gnu; packages gcc-aarch64-linux-gnu libc6-dev-arm64-cross mingw-w64
# qemu-user, and wine for the Windows check (skipped, with a note, where it is missing).
# Not part of .ci/run. Usage: scripts/release.sh [TARGET...]   (default: all of them)
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
host=x86_64-unknown-linux-gnu
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(x86_64-unknown-linux-gnu aarch64-unknown-linux-musl aarch64-unknown-linux-gnu x86_64-pc-windows-gnu)
out=${CARGO_TARGET_DIR:-target}
mkdir -p dist
failed=0

# How this machine runs a target's binary (empty: it cannot).
runner() {
    case "$1" in
        x86_64-unknown-linux-gnu) echo "" ;;
        aarch64-unknown-linux-musl) command -v qemu-aarch64 ;;
        aarch64-unknown-linux-gnu) command -v qemu-aarch64 >/dev/null && echo "qemu-aarch64 -L /usr/aarch64-linux-gnu" ;;
        x86_64-pc-windows-gnu) command -v wine64 || command -v wine ;;
    esac
}

exe() { case "$1" in *windows*) echo chariot.exe ;; *) echo chariot ;; esac; }

signature() { "$@" bench 2>/dev/null | sed -n 's/^Nodes searched *: *//p' | tr -d '\r'; }

check() { # name, command...
    local name=$1
    shift
    local sig
    sig=$(signature "$@" || true)
    if [ "$sig" != "$expected" ]; then
        echo "FAIL $name: bench signature '${sig}', expected $expected"
        [ -n "$sig" ] || echo "     its last words: $("$@" bench 2>&1 | tr -d '\r' | tail -n 1)"
        failed=1
        return
    fi
    if printf 'uci\nquit\n' | "$@" 2>/dev/null | tr -d '\r' | grep -x uciok >/dev/null; then
        echo "ok   $name: bench $sig, uci/quit answered"
    else
        echo "FAIL $name: no uciok"
        failed=1
    fi
}

cargo build --release --target "$host" --bin chariot
expected=$(signature "$out/$host/release/chariot")
echo "x86-64 bench signature: $expected"

for t in "${targets[@]}"; do
    cargo build --release --target "$t" --bin chariot
    bin="$out/$t/release/$(exe "$t")"
    name="chariot-$version-$t"
    stage="dist/$name"
    rm -rf "$stage"
    mkdir -p "$stage"
    cp "$bin" README.md LICENSE nets/default.chnn "$stage/"
    case "$t" in
        *windows*) (cd dist && rm -f "$name.zip" && python3 -m zipfile -c "$name.zip" "$name") ;;
        *) tar -C dist -czf "dist/$name.tar.gz" "$name" ;;
    esac
    rm -rf "$stage"
    echo "built dist/$name.$(case "$t" in *windows*) echo zip ;; *) echo tar.gz ;; esac)"
    if [ "$t" = "$host" ]; then
        check "$t" "$bin"
        if command -v qemu-x86_64 >/dev/null; then
            check "$t under qemu64 (no AVX2/BMI2/popcnt)" qemu-x86_64 -cpu qemu64 "$bin"
        fi
        continue
    fi
    run=$(runner "$t" || true)
    if [ -z "$run" ]; then
        echo "skip $t: nothing here runs it"
        continue
    fi
    # shellcheck disable=SC2086
    check "$t" $run "$bin"
done
exit $failed
