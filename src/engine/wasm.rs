//! The WebAssembly exports (`wasm32-unknown-unknown`): the engine on one thread through
//! [`super::inline`], its input and output through two imported host functions. The
//! JavaScript glue is `web/src/chariot.mjs`.
//!
//! Imports (module `env`): `chariot_write(ptr, len)` takes output text (whole lines, each
//! ending in `\n`); `chariot_read(ptr, cap) -> i32` copies the next pending input line (at
//! most `cap` bytes) to `ptr` and returns its full length, or -1 when no line is pending;
//! `chariot_now() -> f64` is `performance.now()` (`crate::core::clock`).

use std::io::{self, Write};

#[link(wasm_import_module = "env")]
extern "C" {
    fn chariot_write(ptr: *const u8, len: usize);
    fn chariot_read(ptr: *mut u8, cap: usize) -> i32;
}

/// The output: lines are handed to the host as they are flushed.
struct HostOut(Vec<u8>);

impl Write for HostOut {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.0.is_empty() {
            // SAFETY: the host reads `len` bytes at `ptr` during the call and keeps nothing.
            unsafe { chariot_write(self.0.as_ptr(), self.0.len()) };
            self.0.clear();
        }
        Ok(())
    }
}

/// The next pending input line from the host.
fn read_host() -> Option<Vec<u8>> {
    let cap = crate::protocol::MAX_LINE + 1;
    let mut buf = vec![0u8; cap];
    // SAFETY: the host writes at most `cap` bytes at the pointer, during the call.
    let n = unsafe { chariot_read(buf.as_mut_ptr(), cap) };
    if n < 0 {
        return None;
    }
    // A longer line than the buffer: keep the bytes that came and say the line's length
    // by padding, so the parser refuses it as too long.
    let n = n as usize;
    buf.truncate(n.min(cap));
    Some(buf)
}

/// Starts the engine (at the start position, default options).
#[no_mangle]
pub extern "C" fn chariot_start() {
    super::inline::start(Box::new(HostOut(Vec::new())), Box::new(read_host));
}

/// Acts on every pending input line; 0 once the engine has quit, else 1.
#[no_mangle]
pub extern "C" fn chariot_run() -> i32 {
    i32::from(super::inline::run_pending())
}

/// Memory for the host to pass bytes in (`chariot_review`); give it back with `chariot_free`.
#[no_mangle]
pub extern "C" fn chariot_alloc(len: usize) -> *mut u8 {
    let mut v = vec![0u8; len.max(1)];
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// Gives back memory from `chariot_alloc`.
///
/// # Safety
/// `ptr` and `len` must come from one `chariot_alloc` call, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn chariot_free(ptr: *mut u8, len: usize) {
    drop(Vec::from_raw_parts(ptr, len.max(1), len.max(1)));
}

/// Reviews the first game of a game file (PGN, XQF or CBF; `len` bytes at `ptr`) at `nodes`
/// nodes a position, as `chariot analyse` does; writes the review as one JSON object to
/// the output, on one line beginning `review `.
///
/// # Safety
/// `ptr` must point at `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn chariot_review(ptr: *const u8, len: usize, nodes: u32) {
    let bytes = std::slice::from_raw_parts(ptr, len);
    let json = crate::tools::analyse::export::review_json(bytes, u64::from(nodes.max(1)));
    let mut out = HostOut(Vec::new());
    let _ = writeln!(out, "review {json}");
    let _ = out.flush();
}

/// The rules' view of a position for the page (legal moves, check, the game's end, moves in
/// WXF and Chinese; [`super::rules_json`]): `len` bytes of text at `ptr`, a `position …`
/// command and optional `line …` lines. Writes one output line `rules {json}`. Needs no
/// `chariot_start`: the page calls it on its own instance, on its main thread.
///
/// # Safety
/// `ptr` must point at `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn chariot_rules(ptr: *const u8, len: usize) {
    let bytes = std::slice::from_raw_parts(ptr, len);
    let json = super::rules_json::rules_json(&String::from_utf8_lossy(bytes));
    let mut out = HostOut(Vec::new());
    let _ = writeln!(out, "rules {json}");
    let _ = out.flush();
}
