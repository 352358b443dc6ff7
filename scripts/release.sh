#!/usr/bin/env bash
# Builds Chariot for every released target into dist/chariot-<version>-<target>.{tar.gz,zip}
# (the binary, README.md, LICENSE and the net), and the web build into
# dist/chariot-<version>-web.zip (the page and the JavaScript package from `scripts/web.sh
# build`, whose Node command must give the same bench signature), and checks each binary this machine can run:
# the bench signature equals the x86-64 build's, and `uci`/`quit` gives `uciok`. The x86-64
# binary is also run as an old CPU without AVX2, BMI2 or popcnt (`qemu-x86_64 -cpu qemu64`).
#
# Installs what the targets asked for need, where missing (Debian; apt-get through sudo unless
# root): the rustup targets; gcc for the host; gcc-aarch64-linux-gnu and libc6-dev-arm64-cross
# (the ARM64 linker and glibc), mingw-w64 (the Windows linker), qemu-user (to run the ARM64
# and qemu64 checks); wine for the Windows check is tried, and that check is skipped with a
# note where it cannot be installed; nodejs for the web build's check. RELEASE_NO_INSTALL=1
# only checks and says what is missing.
# Not part of .ci/run. Usage: scripts/release.sh [TARGET...|web]   (default: all of them)
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
host=x86_64-unknown-linux-gnu
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(x86_64-unknown-linux-gnu aarch64-unknown-linux-musl aarch64-unknown-linux-gnu x86_64-pc-windows-gnu web)
out=${CARGO_TARGET_DIR:-target}
mkdir -p dist
failed=0

# ---- what the targets need -----------------------------------------------------------------
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
missing_pkgs() { for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done; }
apt_updated=0
apt_install() { # packages...; returns non-zero when they could not be installed
    local need
    need=$(missing_pkgs "$@")
    [ -n "$need" ] || return 0
    if [ -n "${RELEASE_NO_INSTALL:-}" ] || ! command -v apt-get >/dev/null; then
        echo "missing packages: $need (install them, e.g. apt-get install $need)"
        return 1
    fi
    echo "installing: $need"
    if [ $apt_updated = 0 ]; then
        $sudo apt-get update -qq || return 1
        apt_updated=1
    fi
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $need
}
rust_target() {
    rustup target list --installed | grep -qx "$1" && return 0
    if [ -n "${RELEASE_NO_INSTALL:-}" ]; then
        echo "missing rustup target $1 (rustup target add $1)"
        return 1
    fi
    rustup target add "$1"
}
pkgs=()
command -v cc >/dev/null || pkgs+=(gcc libc6-dev)
for t in "${targets[@]}"; do
    case "$t" in
        aarch64-unknown-linux-gnu) pkgs+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user) ;;
        aarch64-unknown-linux-musl) pkgs+=(gcc-aarch64-linux-gnu qemu-user) ;;
        x86_64-pc-windows-gnu) pkgs+=(mingw-w64) ;;
        x86_64-unknown-linux-gnu) pkgs+=(qemu-user) ;;
        web) command -v node >/dev/null || pkgs+=(nodejs) ;;
        *) echo "unknown target '$t' (targets: x86_64-unknown-linux-gnu aarch64-unknown-linux-musl aarch64-unknown-linux-gnu x86_64-pc-windows-gnu web)"; exit 2 ;;
    esac
done
if [ ${#pkgs[@]} -gt 0 ]; then
    # shellcheck disable=SC2046
    apt_install $(printf '%s\n' "${pkgs[@]}" | sort -u) || { echo "FAIL: cannot install the packages the targets need"; exit 1; }
fi
for t in "${targets[@]}"; do
    [ "$t" = web ] && continue
    rust_target "$t" || exit 1
done
if printf '%s\n' "${targets[@]}" | grep -qx x86_64-pc-windows-gnu && ! command -v wine64 >/dev/null && ! command -v wine >/dev/null; then
    apt_install wine64 || apt_install wine || echo "note: wine could not be installed; the Windows binary's check will be skipped"
fi

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
    if [ "$t" = web ]; then
        scripts/web.sh build
        name="chariot-$version-web"
        stage="dist/$name"
        rm -rf "$stage" "dist/$name.zip"
        mkdir -p "$stage"
        cp -r web/dist/. "$stage/"
        cp README.md "$stage/README-chariot.md"
        (cd dist && python3 -m zipfile -c "$name.zip" "$name")
        rm -rf "$stage"
        echo "built dist/$name.zip"
        sig=$(node web/dist/chariot.mjs bench 2>/dev/null | sed -n 's/^Nodes searched *: *//p')
        if [ "$sig" = "$expected" ]; then
            echo "ok   web (node web/dist/chariot.mjs): bench $sig"
        else
            echo "FAIL web: bench signature '$sig', expected $expected"
            failed=1
        fi
        continue
    fi
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
