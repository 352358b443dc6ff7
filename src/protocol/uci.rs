//! UCI output (Pikafish's xiangqi dialect): the handshake, info lines and `bestmove`.

use crate::core::Move;
use crate::eval::USE_NNUE_DEFAULT;
use crate::search::skill::{ELO_MAX, ELO_MIN, MAX_LEVEL};
use crate::search::{Bound, Info, Score};
use std::fmt::Write;

/// The `uci` answer: identity, one line per option (with its default and range), `uciok`.
/// Built with `--features tune`, the search's parameters are options too, before `uciok`.
pub fn handshake() -> String {
    #[cfg(feature = "tune")]
    let tune = crate::search::params::uci_options();
    #[cfg(not(feature = "tune"))]
    let tune = "";
    format!(
        "id name Chariot {}\n\
         id author the Chariot developers\n\
         option name Threads type spin default 1 min 1 max 256\n\
         option name Hash type spin default 16 min 1 max 65536\n\
         option name Clear Hash type button\n\
         option name Ponder type check default false\n\
         option name MultiPV type spin default 1 min 1 max 128\n\
         option name Move Overhead type spin default 10 min 0 max 5000\n\
         option name UCI_ShowWDL type check default false\n\
         option name Skill Level type spin default {MAX_LEVEL} min 0 max {MAX_LEVEL}\n\
         option name UCI_LimitStrength type check default false\n\
         option name UCI_Elo type spin default {ELO_MAX} min {ELO_MIN} max {ELO_MAX}\n\
         option name Skill Seed type spin default 0 min 0 max 4294967295\n\
         option name EvalFile type string default <empty>\n\
         option name Use NNUE type check default {USE_NNUE_DEFAULT}\n\
         {tune}uciok",
        env!("CARGO_PKG_VERSION")
    )
}

/// `score cp X` or `score mate M`.
fn score(s: Score) -> String {
    match s {
        Score::Cp(v) => format!("cp {v}"),
        Score::Mate(m) => format!("mate {m}"),
    }
}

/// One progress line, fields in the contract's order:
/// `info depth D seldepth S multipv K score … [lowerbound|upperbound] [wdl W D L] nodes N nps P
/// hashfull H tbhits 0 time T pv …`.
pub fn info(info: &Info, show_wdl: bool) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score(info.score)
    );
    match info.bound {
        Bound::Exact => {}
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
    }
    if show_wdl {
        let (w, d, l) = info.wdl;
        let _ = write!(s, " wdl {w} {d} {l}");
    }
    let _ = write!(
        s,
        " nodes {} nps {} hashfull {} tbhits 0 time {} pv",
        info.nodes,
        info.nps(),
        info.hashfull,
        info.time.as_millis()
    );
    for m in &info.pv {
        let _ = write!(s, " {m}");
    }
    s
}

/// `bestmove m [ponder p]`, or `bestmove (none)`.
pub fn bestmove(best: Option<Move>, ponder: Option<Move>) -> String {
    match (best, ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(b), None) => format!("bestmove {b}"),
        (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn sample() -> Info {
        Info {
            depth: 7,
            seldepth: 12,
            multipv: 2,
            score: Score::Cp(-35),
            bound: Bound::Lower,
            wdl: (100, 700, 200),
            nodes: 50_000,
            time: Duration::from_millis(250),
            hashfull: 3,
            pv: vec![
                Move::parse("h2e2").unwrap_or_else(|_| unreachable!()),
                Move::parse("h9g7").unwrap_or_else(|_| unreachable!()),
            ],
        }
    }

    #[test]
    fn info_fields_in_contract_order() {
        assert_eq!(
            info(&sample(), true),
            "info depth 7 seldepth 12 multipv 2 score cp -35 lowerbound wdl 100 700 200 nodes 50000 nps 200000 hashfull 3 tbhits 0 time 250 pv h2e2 h9g7"
        );
        let mut i = sample();
        i.bound = Bound::Upper;
        i.score = Score::Mate(-3);
        assert_eq!(
            info(&i, false),
            "info depth 7 seldepth 12 multipv 2 score mate -3 upperbound nodes 50000 nps 200000 hashfull 3 tbhits 0 time 250 pv h2e2 h9g7"
        );
    }

    #[test]
    fn bestmove_forms() {
        let m = Move::parse("h2e2").ok();
        let p = Move::parse("h9g7").ok();
        assert_eq!(bestmove(m, p), "bestmove h2e2 ponder h9g7");
        assert_eq!(bestmove(m, None), "bestmove h2e2");
        assert_eq!(bestmove(None, None), "bestmove (none)");
    }
}
