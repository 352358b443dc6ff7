#!/usr/bin/env bash
# The WebAssembly build, the JavaScript package and the page (issue 54).
#   scripts/web.sh build        the wasm (cargo, wasm32-unknown-unknown), the package and the
#                               page into web/dist/
#   scripts/web.sh serve [PORT] serves web/dist/ at http://127.0.0.1:PORT/ (default 8000) with
#                               the cross-origin isolation headers the page wants
#   scripts/web.sh test         the Node tests (web/test/node/, where present) and the browser
#                               test (web/test/browser/; needs chromium and `npm ci` in web/)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${CARGO_TARGET_DIR:-target}

build() {
    if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
        rustup target add wasm32-unknown-unknown
    fi
    cargo rustc --release --lib --crate-type cdylib --target wasm32-unknown-unknown
    rm -rf web/dist
    mkdir -p web/dist
    cp web/src/*.mjs web/src/*.html web/src/*.css web/dist/
    cp "$out/wasm32-unknown-unknown/release/chariot.wasm" web/dist/
    cp web/serve.mjs web/README.md LICENSE web/dist/
    echo "built web/dist/ ($(du -sh web/dist | cut -f1)): $(cd web/dist && ls | tr '\n' ' ')"
}

case "${1:-}" in
    build) build ;;
    serve)
        [ -f web/dist/chariot.wasm ] || build
        exec node web/serve.mjs web/dist "${2:-8000}"
        ;;
    test)
        [ -f web/dist/chariot.wasm ] || build
        if [ -d web/test/node ] && ls web/test/node/*.test.mjs >/dev/null 2>&1; then
            node --test web/test/node/
        fi
        [ -d web/node_modules/puppeteer-core ] || (cd web && npm ci --no-audit --no-fund)
        [ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "the browser test needs chromium: apt-get install chromium chromium-driver (or set CHROMIUM)" >&2; exit 1; }
        node web/test/browser/page.test.mjs
        ;;
    *)
        echo "usage: scripts/web.sh build | serve [PORT] | test" >&2
        exit 2
        ;;
esac
