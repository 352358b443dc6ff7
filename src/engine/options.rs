//! The engine's settings: every option of every dialect is named, validated and applied
//! here, and nowhere else. [`parse_change`] turns `setoption` (UCI, UCCI) or CECP's
//! `option`/`memory`/`cores` into a typed [`Change`] without touching anything; the
//! controller then applies it whole.

use super::worker::Job;
use super::Engine;
use crate::eval;
use crate::eval::nnue::Network;
use crate::protocol::command::shown;
use crate::search::skill::{self, Skill};
use std::io::{self, Write};
use std::sync::Arc;
use std::time::Duration;

/// The engine's settings, both dialects.
#[derive(Clone, Debug)]
pub struct Options {
    pub threads: usize,
    pub hash_mb: usize,
    pub ponder: bool,
    pub multipv: usize,
    pub move_overhead: Duration,
    pub show_wdl: bool,
    /// UCCI: `go time` values are milliseconds instead of seconds.
    pub usemillisec: bool,
    pub batch: bool,
    pub debug: bool,
    /// `Skill Level` 0..=20 (UCCI `level`); 20 is full strength.
    pub skill_level: u8,
    /// `UCI_LimitStrength`: play at `UCI_Elo` instead of `Skill Level`.
    pub limit_strength: bool,
    pub elo: u32,
    /// `Skill Seed`: the weak levels' choices depend on it and on the position only.
    pub skill_seed: u64,
    /// `EvalFile`: the net file (empty: the embedded net).
    pub eval_file: String,
    /// `Use NNUE`: the search evaluates with the net instead of the hand-crafted evaluation.
    pub use_nnue: bool,
}

impl Options {
    /// The strength to play at, `None` at full strength.
    pub fn skill(&self) -> Option<Skill> {
        let skill = if self.limit_strength {
            Skill::from_elo(self.elo)
        } else {
            Skill::from_level(self.skill_level)
        };
        (!skill.is_full()).then_some(skill)
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: 1,
            hash_mb: 16,
            ponder: false,
            multipv: 1,
            move_overhead: Duration::from_millis(10),
            show_wdl: false,
            usemillisec: false,
            batch: false,
            debug: false,
            skill_level: skill::MAX_LEVEL,
            limit_strength: false,
            elo: skill::ELO_MAX,
            skill_seed: 0,
            eval_file: String::new(),
            use_nnue: eval::USE_NNUE_DEFAULT,
        }
    }
}

/// A change of settings, validated before anything is touched.
pub(super) enum Change {
    Threads(usize),
    Hash(usize),
    ClearHash,
    NewGame,
    Ponder(bool),
    MultiPv(usize),
    Overhead(u64),
    ShowWdl(bool),
    UseMillisec(bool),
    Batch(bool),
    Debug(bool),
    SkillLevel(u8),
    LimitStrength(bool),
    Elo(u32),
    SkillSeed(u64),
    /// `EvalFile`, already loaded and validated: the value and its net.
    EvalFile(String, Arc<Network>),
    UseNnue(bool),
    /// A search parameter of `search::params` (tune builds): its index and new value.
    #[cfg(feature = "tune")]
    Param(usize, i32),
}

impl<W: Write> Engine<W> {
    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) -> io::Result<()> {
        match parse_change(name, value) {
            Ok(c) => self.apply_change(c),
            Err(e) => self.error(&format!("setoption: {e}; settings unchanged")),
        }
    }

    /// Applies a validated change (after ending any search).
    pub(super) fn apply_change(&mut self, change: Change) -> io::Result<()> {
        self.finish_running()?;
        match change {
            Change::Threads(n) => {
                self.opts.threads = n;
                self.config(Job::SetThreads(n));
            }
            Change::Hash(mb) => {
                let cap = hash_cap_mb();
                let mb = if mb > cap {
                    self.note(&format!(
                        "Hash {mb} MB is more than this machine can give; using {cap} MB"
                    ))?;
                    cap
                } else {
                    mb
                };
                self.opts.hash_mb = mb;
                self.config(Job::SetHash(mb));
            }
            Change::ClearHash => self.config(Job::Clear),
            Change::NewGame => self.new_game(),
            Change::Ponder(b) => self.opts.ponder = b,
            Change::MultiPv(n) => self.opts.multipv = n,
            Change::Overhead(ms) => self.opts.move_overhead = Duration::from_millis(ms),
            Change::ShowWdl(b) => self.opts.show_wdl = b,
            Change::UseMillisec(b) => self.opts.usemillisec = b,
            Change::Batch(b) => self.opts.batch = b,
            Change::Debug(b) => self.opts.debug = b,
            Change::SkillLevel(l) => self.opts.skill_level = l,
            Change::LimitStrength(b) => self.opts.limit_strength = b,
            Change::Elo(e) => self.opts.elo = e,
            Change::SkillSeed(s) => self.opts.skill_seed = s,
            Change::EvalFile(file, net) => {
                let before = self.evaluator();
                self.opts.eval_file = file;
                self.net = Some(net);
                self.send_net(before)?;
            }
            Change::UseNnue(b) => {
                let before = self.evaluator();
                self.opts.use_nnue = b;
                self.send_net(before)?;
            }
            #[cfg(feature = "tune")]
            Change::Param(index, value) => crate::search::params::set(index, value),
        }
        Ok(())
    }

    /// The net the search evaluates with (`None`: the hand-crafted evaluation).
    fn evaluator(&self) -> Option<Arc<Network>> {
        self.net.clone().filter(|_| self.opts.use_nnue)
    }

    /// Hands the search the net `Use NNUE` and `EvalFile` select, when it differs from
    /// `before`. The hash table then holds the other evaluator's static evaluations, which
    /// the search would reuse: it is cleared, as by `Clear Hash`.
    fn send_net(&mut self, before: Option<Arc<Network>>) -> io::Result<()> {
        let net = self.evaluator();
        if self.opts.use_nnue && net.is_none() {
            self.error("Use NNUE: no net is loaded; the hand-crafted evaluation stays in use")?;
        }
        let same = match (&before, &net) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
            _ => false,
        };
        if !same {
            self.config(Job::SetNet(net));
            self.config(Job::Clear);
        }
        Ok(())
    }
}

/// The largest hash this machine can reasonably give, in MB: half its memory and no more
/// than three quarters of what is free now (65536 when that cannot be read). In WebAssembly
/// (4 GiB of address space at most, and often 2 GiB in a browser), [`WASM_HASH_CAP_MB`].
#[cfg(target_arch = "wasm32")]
fn hash_cap_mb() -> usize {
    WASM_HASH_CAP_MB
}

/// The WebAssembly build's largest hash: what a 32-bit memory still holds beside the net,
/// the stack and the rest (a larger one could not be allocated at all).
#[cfg(target_arch = "wasm32")]
const WASM_HASH_CAP_MB: usize = 1024;

#[cfg(not(target_arch = "wasm32"))]
fn hash_cap_mb() -> usize {
    let Ok(info) = std::fs::read_to_string("/proc/meminfo") else {
        return 65536;
    };
    let field = |name: &str| -> Option<usize> {
        let line = info.lines().find(|l| l.starts_with(name))?;
        line.split_whitespace().nth(1)?.parse::<usize>().ok()
    };
    match (field("MemTotal:"), field("MemAvailable:")) {
        (Some(total_kb), Some(avail_kb)) => ((total_kb / 2).min(avail_kb / 4 * 3) / 1024).clamp(1, 65536),
        _ => 65536,
    }
}

fn spin(name: &str, value: Option<&str>, min: u64, max: u64) -> Result<u64, String> {
    let v = value.ok_or_else(|| format!("{name} needs a value ({min}..{max})"))?;
    let n: u64 = v
        .parse()
        .map_err(|_| format!("{name} value '{}' is not a number ({min}..{max})", shown(v)))?;
    if n < min || n > max {
        return Err(format!("{name} value {n} is out of range {min}..{max}"));
    }
    Ok(n)
}

fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(|v| v.to_ascii_lowercase()).as_deref() {
        // true/false in UCI, on/off in UCCI, 1/0 from CECP's check boxes.
        Some("true" | "on" | "1") => Ok(true),
        Some("false" | "off" | "0") => Ok(false),
        Some(other) => Err(format!("{name} value '{}' is not true or false", shown(other))),
        None => Err(format!("{name} needs a value (true or false)")),
    }
}

/// Validates `setoption` for both dialects' option names (case-insensitive).
pub(super) fn parse_change(name: &str, value: Option<&str>) -> Result<Change, String> {
    let key = name.to_ascii_lowercase();
    let key = key.split_whitespace().collect::<Vec<_>>().join(" ");
    #[cfg(feature = "tune")]
    if let Some((index, p)) = crate::search::params::find(&key) {
        return Ok(Change::Param(index, signed_spin(p.name, value, p.min, p.max)?));
    }
    Ok(match key.as_str() {
        "threads" => Change::Threads(spin("Threads", value, 1, 256)? as usize),
        "hash" => Change::Hash(spin("Hash", value, 1, 65536)? as usize),
        // UCCI's range starts at 0, which we read as the smallest table.
        "hashsize" => Change::Hash(spin("hashsize", value, 0, 65536)?.max(1) as usize),
        "clear hash" => Change::ClearHash,
        "newgame" => Change::NewGame,
        "ponder" => Change::Ponder(check(name, value)?),
        "multipv" => Change::MultiPv(spin("MultiPV", value, 1, 128)? as usize),
        "move overhead" => Change::Overhead(spin("Move Overhead", value, 0, 5000)?),
        "uci_showwdl" => Change::ShowWdl(check(name, value)?),
        "usemillisec" => Change::UseMillisec(check(name, value)?),
        "batch" => Change::Batch(check(name, value)?),
        "debug" => Change::Debug(check(name, value)?),
        // UCCI has no strength convention; `level` is the nearest (ElephantEye-style) name.
        "skill level" | "level" => Change::SkillLevel(spin(name, value, 0, skill::MAX_LEVEL.into())? as u8),
        "uci_limitstrength" => Change::LimitStrength(check(name, value)?),
        "uci_elo" => Change::Elo(spin("UCI_Elo", value, skill::ELO_MIN.into(), skill::ELO_MAX.into())? as u32),
        "skill seed" => Change::SkillSeed(spin("Skill Seed", value, 0, u32::MAX.into())?),
        "evalfile" => {
            let file = value.unwrap_or("").trim().to_string();
            match eval::nnue::load_eval_file(&file) {
                Ok(net) => Change::EvalFile(file, Arc::new(net)),
                Err(e) => return Err(format!("EvalFile '{}': {e}", shown(&file))),
            }
        }
        "use nnue" | "usennue" => Change::UseNnue(check(name, value)?),
        _ => return Err(format!("unknown option '{}'", shown(name))),
    })
}

/// A spin option whose range may include negative numbers (the search's parameters).
#[cfg(feature = "tune")]
fn signed_spin(name: &str, value: Option<&str>, min: i32, max: i32) -> Result<i32, String> {
    let v = value.ok_or_else(|| format!("{name} needs a value ({min}..{max})"))?;
    let n: i64 = v
        .parse()
        .map_err(|_| format!("{name} value '{}' is not a number ({min}..{max})", shown(v)))?;
    if n < i64::from(min) || n > i64::from(max) {
        return Err(format!("{name} value {n} is out of range {min}..{max}"));
    }
    Ok(n as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_validation() {
        assert!(matches!(parse_change("HASH", Some("64")), Ok(Change::Hash(64))));
        assert!(matches!(
            parse_change("move  overhead", Some("0")),
            Ok(Change::Overhead(0))
        ));
        assert!(parse_change("Hash", Some("999999999999")).is_err());
        assert!(parse_change("Threads", Some("0")).is_err());
        assert!(parse_change("EvalFile", Some("x.nnue")).is_err());
        assert!(parse_change("Ponder", Some("maybe")).is_err());
        assert!(matches!(parse_change("hashsize", Some("0")), Ok(Change::Hash(1))));
        assert!(matches!(
            parse_change("skill  LEVEL", Some("3")),
            Ok(Change::SkillLevel(3))
        ));
        assert!(matches!(parse_change("level", Some("0")), Ok(Change::SkillLevel(0))));
        assert!(parse_change("Skill Level", Some("21")).is_err());
        assert!(parse_change("UCI_Elo", Some("100")).is_err());
        assert!(matches!(parse_change("UCI_Elo", Some("1500")), Ok(Change::Elo(1500))));
        let mut o = Options::default();
        assert!(o.skill().is_none());
        o.skill_level = 4;
        assert!(o.skill().is_some());
        o.limit_strength = true;
        assert!(o.skill().is_none(), "UCI_Elo at its maximum is full strength");
    }

    #[test]
    fn search_parameters_are_options_only_in_tune_builds() {
        let r = parse_change("RFP_margin", Some("90"));
        #[cfg(not(feature = "tune"))]
        {
            assert!(r.is_err());
            // No parameter shadows an option of either dialect.
            for p in crate::search::params::PARAMS {
                let e = parse_change(p.name, Some("1")).err().expect("not an option");
                assert!(e.starts_with("unknown option"), "{e}");
            }
        }
        #[cfg(feature = "tune")]
        {
            let (index, _) = crate::search::params::find("rfp_margin").unwrap();
            assert!(matches!(r, Ok(Change::Param(i, 90)) if i == index));
            assert!(matches!(
                parse_change("nmp_eval_base", Some("-100")),
                Ok(Change::Param(_, -100))
            ));
            for bad in [
                None,
                Some("x"),
                Some("29"),
                Some("201"),
                Some("99999999999"),
                Some("8.5"),
            ] {
                let e = parse_change("rfp_margin", bad).err().expect("rejected");
                assert!(e.starts_with("rfp_margin "), "{e}");
            }
        }
    }
}
