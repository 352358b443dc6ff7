//! The CECP (XBoard protocol 2) half of the controller: the game state XBoard expects an
//! engine to keep (the moves so far, which side the engine plays, force and analyze modes,
//! the clocks and time control) and its commands, turned into the controller's own steps:
//! the same positions, the same `go` → limits conversion ([`super::from_go`]), the same
//! worker and stop flag. The text lives in [`crate::protocol::cecp`].
//!
//! After a search the engine plays its move itself (`move M`) and claims the result
//! (`1-0 {…}`, `0-1 {…}`, `1/2-1/2 {…}`) when Chariot's rules end the game; it claims too
//! when the opponent's move ends it. A search the game has moved past (after `force`,
//! `new`, `undo`, `exit`, …) is abandoned without a word.
//!
//! Pondering (`hard`): after playing its move in a game, the engine searches the position
//! after the reply its search expects (the principal variation's second move), as a UCI
//! `go ponder` on the same worker and stop flag, the clock held. When that reply arrives
//! (`usermove`) the search becomes the timed search of the move, as with `ponderhit`: its
//! clock starts then. Any other reply, and every command that changes the game or the
//! settings (`new`, `setboard`, `force`, `undo`, `remove`, `go`, `playother`, `analyze`,
//! `level`, `st`, `sd`, `easy`, `result`, options, `quit`), ends the ponder search without a
//! word: its move is for a position the game has not reached and is never printed.

use super::options::parse_change;
use super::Engine;
use crate::board::rules::{self, Outcome};
use crate::board::Position;
use crate::core::clock::Instant;
use crate::core::{Color, Move};
use crate::protocol::cecp::{self, Cmd};
use crate::protocol::command::{shown, GoParams};
use crate::search::{Info, Limits};
use std::io::{self, Write};
use std::time::Duration;

/// What XBoard expects the engine to remember.
#[derive(Clone, Debug)]
pub(super) struct State {
    /// Force mode: take moves for both sides, think about none.
    force: bool,
    /// The side the engine plays (not in force mode).
    engine_side: Color,
    /// Print thinking lines.
    post: bool,
    analyze: bool,
    /// The game has ended (claimed or `result`): play no more moves until `new`/`setboard`.
    over: bool,
    /// The game's starting position and the moves since, for `undo`/`remove`.
    start: Position,
    moves: Vec<Move>,
    /// `level`: moves per session (0: all), base time, increment.
    mps: u32,
    base: Duration,
    inc: Duration,
    /// `st`: a fixed time per move.
    st: Option<Duration>,
    /// `sd`: a depth limit.
    sd: Option<u32>,
    /// `time`/`otim`, in centiseconds.
    time: Option<i64>,
    otim: Option<i64>,
    /// The latest thinking line, for `.`.
    last: Option<Info>,
    /// The reply the engine's last search expects, to ponder on once that move is out.
    ponder_next: Option<Move>,
    /// The same reply and the position it is for, for `hint`.
    hint: Option<(u64, Move)>,
    /// When the engine's latest think began (or its ponder search was hit).
    thinking_since: Option<Instant>,
}

impl Default for State {
    fn default() -> State {
        State {
            force: false,
            engine_side: Color::Black,
            post: true,
            analyze: false,
            over: false,
            start: Position::startpos(),
            moves: Vec::new(),
            mps: 0,
            base: Duration::from_secs(300),
            inc: Duration::ZERO,
            st: None,
            sd: None,
            time: None,
            otim: None,
            last: None,
            ponder_next: None,
            hint: None,
            thinking_since: None,
        }
    }
}

/// The result claim for an ended game, `None` while it goes on.
fn claim(outcome: Outcome) -> Option<String> {
    match outcome {
        Outcome::Ongoing => None,
        Outcome::Win { winner: Color::Red, .. } => Some(format!("1-0 {{{outcome}}}")),
        Outcome::Win {
            winner: Color::Black, ..
        } => Some(format!("0-1 {{{outcome}}}")),
        Outcome::Draw(_) => Some(format!("1/2-1/2 {{{outcome}}}")),
    }
}

impl<W: Write> Engine<W> {
    /// `xboard`: a fresh CECP game state at the start position.
    pub(super) fn cecp_reset(&mut self) {
        self.cecp = State::default();
        self.pos = Position::startpos();
        self.banmoves.clear();
    }

    /// Handles one CECP command; `Ok(false)` means quit.
    pub(super) fn cecp(&mut self, cmd: Cmd) -> io::Result<bool> {
        match cmd {
            Cmd::Xboard | Cmd::Ignored => {}
            Cmd::Protover(_) => self.say(&cecp::features())?,
            Cmd::New => {
                self.abandon_running()?;
                let keep = (
                    self.cecp.mps,
                    self.cecp.base,
                    self.cecp.inc,
                    self.cecp.post,
                    self.cecp.analyze,
                );
                self.cecp_reset();
                (
                    self.cecp.mps,
                    self.cecp.base,
                    self.cecp.inc,
                    self.cecp.post,
                    self.cecp.analyze,
                ) = keep;
                self.new_game();
            }
            Cmd::Variant(v) => {
                if v != "xiangqi" {
                    self.say(&format!(
                        "Error (unsupported variant, only xiangqi): variant {}",
                        shown(&v)
                    ))?;
                }
            }
            Cmd::SetBoard(fen) => self.cecp_setboard(&fen)?,
            Cmd::UserMove(text) => self.cecp_usermove(&text)?,
            Cmd::Force => {
                self.abandon_running()?;
                self.cecp.force = true;
            }
            Cmd::Go => {
                self.abandon_running()?;
                self.cecp.force = false;
                self.cecp.engine_side = self.pos.side_to_move();
                self.cecp_think()?;
            }
            Cmd::PlayOther => {
                self.abandon_running()?;
                self.cecp.force = false;
                self.cecp.engine_side = !self.pos.side_to_move();
            }
            // A new time control or depth: a ponder search under the old one is dropped.
            Cmd::Level { mps, base, inc } => {
                self.stop_pondering()?;
                (self.cecp.mps, self.cecp.base, self.cecp.inc) = (mps, base, inc);
                self.cecp.st = None;
            }
            Cmd::St(t) => {
                self.stop_pondering()?;
                self.cecp.st = Some(t);
            }
            Cmd::Sd(d) => {
                self.stop_pondering()?;
                self.cecp.sd = Some(d);
            }
            Cmd::Time(cs) => self.cecp.time = Some(cs),
            Cmd::Otim(cs) => self.cecp.otim = Some(cs),
            // While pondering it is the opponent's turn: there is no move to make now.
            Cmd::MoveNow => {
                if !self.cecp.analyze && self.pondering().is_none() {
                    self.stop()?;
                }
            }
            Cmd::Ping(n) => self.answer_when_configured(format!("pong {n}"))?,
            Cmd::Undo => self.cecp_take_back(1)?,
            Cmd::Remove => self.cecp_take_back(2)?,
            Cmd::Analyze => {
                self.abandon_running()?;
                self.cecp.analyze = true;
                self.cecp_analyse()?;
            }
            Cmd::Exit => {
                self.abandon_running()?;
                self.cecp.analyze = false;
            }
            Cmd::Status => {
                if let (true, Some(i)) = (self.cecp.analyze && self.running.is_some(), &self.cecp.last) {
                    let legal = self.pos.legal_moves().len();
                    let text = format!(
                        "stat01 {} {} {} {legal} {legal}",
                        i.time.as_millis() / 10,
                        i.nodes,
                        i.depth
                    );
                    self.say(&text)?;
                }
            }
            Cmd::Post(on) => self.cecp.post = on,
            // The same setting as UCI's Ponder; `easy` ends a ponder search now.
            Cmd::Hard(on) => {
                self.opts.ponder = on;
                if !on {
                    self.stop_pondering()?;
                }
            }
            Cmd::Hint => {
                if let Some((key, m)) = self.cecp.hint {
                    if key == self.pos.key() && self.pos.is_legal(m) {
                        self.say(&format!("Hint: {m}"))?;
                    }
                }
            }
            Cmd::Memory(mb) => self.cecp_option("Hash", Some(&mb.to_string()), &format!("memory {mb}"))?,
            Cmd::Cores(n) => self.cecp_option("Threads", Some(&n.to_string()), &format!("cores {n}"))?,
            Cmd::Option { name, value } => {
                let line = match &value {
                    Some(v) => format!("option {name}={v}"),
                    None => format!("option {name}"),
                };
                self.cecp_option(&name, value.as_deref(), &line)?;
            }
            Cmd::Result(_) => {
                self.abandon_running()?;
                self.cecp.over = true;
            }
            Cmd::Display => self.display()?,
            Cmd::Quit => {
                self.quit()?;
                return Ok(false);
            }
            Cmd::Invalid { reason, line } => self.say(&format!("Error ({reason}): {}", shown(&line)))?,
        }
        Ok(true)
    }

    /// Sets an option through the one option parser (once: an `EvalFile` is loaded once); a
    /// bad one is answered `Error (…): …`.
    fn cecp_option(&mut self, name: &str, value: Option<&str>, line: &str) -> io::Result<()> {
        match parse_change(name, value) {
            Err(e) => self.say(&format!("Error ({e}): {}", shown(line))),
            Ok(change) => {
                // Options are set between moves; one arriving mid-search must not play a move.
                self.abandon_running()?;
                self.apply_change(change)?;
                if self.cecp.analyze {
                    self.cecp_analyse()?;
                }
                Ok(())
            }
        }
    }

    fn cecp_setboard(&mut self, fen: &str) -> io::Result<()> {
        let text = cecp::fen_from_xboard(fen);
        match Position::from_fen(&text) {
            Err(e) => self.say(&format!("Error (illegal position: {e}): setboard {}", shown(fen))),
            Ok(pos) => {
                self.abandon_running()?;
                self.cecp.start = pos.clone();
                self.cecp.moves.clear();
                self.pos = pos;
                self.cecp.over = false;
                self.composed_warning()?;
                if self.cecp.analyze {
                    self.cecp_analyse()?;
                }
                Ok(())
            }
        }
    }

    fn cecp_usermove(&mut self, text: &str) -> io::Result<()> {
        let mv = match self.pos.parse_move(text) {
            Ok(m) => m,
            Err(_) => return self.say(&format!("Illegal move: {}", shown(text))),
        };
        if self.cecp.over && !self.cecp.analyze && !self.cecp.force {
            return self.say(&format!("Illegal move (the game is over): {}", shown(text)));
        }
        if self.pondering() == Some(mv) {
            return self.cecp_ponderhit(mv);
        }
        self.abandon_running()?;
        self.cecp_play(mv);
        if self.cecp.analyze {
            return self.cecp_analyse();
        }
        if self.cecp_claim()? {
            return Ok(());
        }
        if !self.cecp.force && self.pos.side_to_move() == self.cecp.engine_side {
            self.cecp_think()?;
        }
        Ok(())
    }

    /// The predicted reply of the ponder search in progress, if one is.
    fn pondering(&self) -> Option<Move> {
        self.running.as_ref().filter(|r| r.pondering).and_then(|r| r.expected)
    }

    /// Ends a ponder search, if one is in progress, without a word.
    fn stop_pondering(&mut self) -> io::Result<()> {
        if self.pondering().is_some() {
            self.abandon_running()?;
        }
        Ok(())
    }

    /// The opponent played the predicted reply `mv`: the ponder search goes on as the
    /// engine's timed search of its move, its clock starting now (UCI's `ponderhit`), and
    /// bounded too by the clock XBoard has just sent.
    fn cecp_ponderhit(&mut self, mv: Move) -> io::Result<()> {
        self.cecp_play(mv);
        if self.cecp_claim()? {
            return self.abandon_running();
        }
        let pos = self.pos.clone();
        let fresh = self.cecp_limits(&pos, None);
        let budget = super::watchdog(fresh.movetime, fresh.clock, self.opts.move_overhead);
        if let Some(r) = self.running.as_mut() {
            r.budget = match (r.budget, budget) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        self.cecp.thinking_since = Some(Instant::now());
        self.ponderhit(false)
    }

    /// After the engine's move (see [`super::Engine::run`]): with `hard`, searches the
    /// position after the expected reply, the clock held until that reply is played.
    pub(super) fn cecp_ponder(&mut self) -> io::Result<()> {
        let Some(reply) = self.cecp.ponder_next.take() else {
            return Ok(());
        };
        let c = &self.cecp;
        if self.dialect != crate::protocol::Dialect::Cecp
            || !self.opts.ponder
            || self.running.is_some()
            || c.force
            || c.analyze
            || c.over
            || self.pos.side_to_move() == c.engine_side
            || !self.pos.is_legal(reply)
        {
            return Ok(());
        }
        let mut after = self.pos.clone();
        after.make_move(reply);
        if rules::outcome(&after) != Outcome::Ongoing {
            return Ok(());
        }
        // The engine's clock as XBoard will give it: what was left when it began to think,
        // less that think, plus the increment. The clock XBoard sends with the reply bounds
        // the search too (`cecp_ponderhit`).
        let base = self.cecp.base.as_millis() as i64;
        let before = self.cecp.time.map_or(base, |cs| cs.saturating_mul(10));
        let used = self.cecp.thinking_since.map_or(0, |t| t.elapsed().as_millis() as i64);
        let own = before
            .saturating_sub(used)
            .saturating_add(self.cecp.inc.as_millis() as i64);
        let limits = self.cecp_limits(&after, Some(own));
        self.search_position(after, limits, true, false, Some(reply))
    }

    /// Makes a move of the game.
    fn cecp_play(&mut self, mv: Move) {
        self.pos.make_move(mv);
        self.cecp.moves.push(mv);
    }

    /// `undo` (1) and `remove` (2): takes back plies, replaying the game from its start.
    fn cecp_take_back(&mut self, plies: usize) -> io::Result<()> {
        if self.cecp.moves.len() < plies {
            let what = if plies == 1 { "undo" } else { "remove" };
            return self.say(&format!("Error (no move to take back): {what}"));
        }
        self.abandon_running()?;
        let keep = self.cecp.moves.len() - plies;
        self.cecp.moves.truncate(keep);
        let mut pos = self.cecp.start.clone();
        for &m in &self.cecp.moves {
            pos.make_move(m);
        }
        self.pos = pos;
        self.cecp.over = false;
        if self.cecp.analyze {
            self.cecp_analyse()?;
        }
        Ok(())
    }

    /// Claims the result if the game has ended; `true` when it has.
    fn cecp_claim(&mut self) -> io::Result<bool> {
        match claim(rules::outcome(&self.pos)) {
            Some(text) => {
                self.cecp.over = true;
                self.say(&text)?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Thinks about the engine's move under the time control, unless the game is over.
    fn cecp_think(&mut self) -> io::Result<()> {
        if self.cecp_claim()? {
            return Ok(());
        }
        let pos = self.pos.clone();
        let limits = self.cecp_limits(&pos, None);
        self.cecp.thinking_since = Some(Instant::now());
        self.start_search(limits, false, false)
    }

    /// The limits of a think about the move in `pos` under the time control (`own_ms`: the
    /// engine's clock instead of the last `time`).
    fn cecp_limits(&self, pos: &Position, own_ms: Option<i64>) -> Limits {
        let side = pos.side_to_move();
        let mut g = GoParams {
            depth: self.cecp.sd,
            ..GoParams::default()
        };
        if let Some(st) = self.cecp.st {
            g.movetime = Some(st.as_millis() as i64);
        } else {
            let base = self.cecp.base.as_millis() as i64;
            let own = own_ms.unwrap_or_else(|| self.cecp.time.map_or(base, |cs| cs.saturating_mul(10)));
            let opp = self.cecp.otim.map_or(base, |cs| cs.saturating_mul(10));
            let inc = self.cecp.inc.as_millis() as i64;
            (g.wtime, g.btime) = if side == Color::Red {
                (Some(own), Some(opp))
            } else {
                (Some(opp), Some(own))
            };
            (g.winc, g.binc) = (Some(inc), Some(inc));
            if self.cecp.mps > 0 {
                let done = pos.fullmove().saturating_sub(1);
                g.movestogo = Some(self.cecp.mps - done % self.cecp.mps);
            }
        }
        super::from_go(&g, side, &self.opts, &[]).0
    }

    /// Starts (or restarts) the analysis of the current position: an infinite search.
    fn cecp_analyse(&mut self) -> io::Result<()> {
        self.abandon_running()?;
        if rules::outcome(&self.pos) != Outcome::Ongoing {
            return Ok(());
        }
        let (limits, _) = super::from_go(&GoParams::default(), self.pos.side_to_move(), &self.opts, &[]);
        self.start_search(limits, false, false)
    }

    /// A thinking line (first line only; with `post`).
    pub(super) fn cecp_info(&mut self, info: Info) -> io::Result<()> {
        if info.multipv > 1 {
            return Ok(());
        }
        if self.cecp.post {
            self.say(&cecp::thinking(&info))?;
        }
        self.cecp.last = Some(info);
        Ok(())
    }

    /// The search's answer: play it (`move M`), then claim the result if the game is over;
    /// else keep the expected reply `ponder` for `hint` and pondering.
    pub(super) fn cecp_played(&mut self, best: Option<Move>, ponder: Option<Move>) -> io::Result<()> {
        if self.cecp.analyze || self.cecp.force {
            return Ok(());
        }
        self.cecp.hint = None;
        let Some(m) = best else {
            self.cecp_claim()?;
            return Ok(());
        };
        self.say(&cecp::move_line(m))?;
        self.cecp_play(m);
        if self.cecp_claim()? {
            return Ok(());
        }
        if let Some(p) = ponder {
            self.cecp.hint = Some((self.pos.key(), p));
            self.cecp.ponder_next = Some(p);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims() {
        assert_eq!(claim(Outcome::Ongoing), None);
        // Black to move, not in check, with no legal move: a loss in xiangqi.
        let stuck = Position::from_fen("3k5/4R4/4R4/9/9/9/9/9/9/4K4 b - - 0 1").map(|p| rules::outcome(&p));
        assert_eq!(
            stuck.ok().and_then(claim).as_deref(),
            Some("1-0 {Red wins (stalemate)}")
        );
    }
}
