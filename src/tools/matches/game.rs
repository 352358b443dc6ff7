//! One game between two engines: the tool keeps and measures both clocks, forfeits an engine
//! that overruns by more than the margin, and judges the position after every move with
//! Chariot's own rules (`rules::outcome`), a max-plies draw and optional score adjudication.
//! An illegal move, a crash or silence loses for that engine, with the reason recorded.

use super::engine::{Answer, Engine, Protocol, Thought, WaitError};
use super::openings::Opening;
use super::tc::TimeControl;
use crate::board::{rules, Position};
use crate::core::{Color, Move};
use anyhow::{anyhow, bail};
use std::time::{Duration, Instant};

/// Score-based resign adjudication: the game is lost for a side when, for `moves` consecutive
/// moves of each engine, the loser's engine reported at most `-score` and the winner's engine at
/// least `+score` (both engines agree).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub moves: usize,
    pub score: i32,
}

/// Score-based draw adjudication: after move number `from_move`, when both engines reported
/// |score| ≤ `score` for `moves` consecutive moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub from_move: usize,
    pub moves: usize,
    pub score: i32,
}

/// Everything a game needs besides the engines.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The time control of an engine without its own (`tc=` in its spec).
    pub tc: TimeControl,
    /// How far beyond its clock (or movetime) an engine may go before it forfeits.
    pub margin: Duration,
    /// For depth/nodes time controls: how long to wait for a move before declaring silence.
    pub move_timeout: Duration,
    /// `isready` / `ucinewgame` answer time.
    pub ready_timeout: Duration,
    /// Plies played by the engines (opening moves excluded) before a draw is declared; 0 = none.
    pub max_plies: usize,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    RedWins,
    BlackWins,
    Draw,
}

impl GameResult {
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    fn win(c: Color) -> GameResult {
        match c {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The points `side` scored.
    pub fn points(self, side: Color) -> f64 {
        match (self, side) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::RedWins, Color::Red) | (GameResult::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
    }
}

/// The PGN `Termination` class of an ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// Ended by the rules (mate, stalemate, repetition, 60-move rule, material).
    Normal,
    /// Max plies or score adjudication.
    Adjudication,
    TimeForfeit,
    /// Illegal move or no move.
    RulesInfraction,
    /// Crash, exit or silence.
    Abandoned,
}

impl Termination {
    /// The PGN tag value.
    pub fn pgn(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
        }
    }
}

/// A played move with what the engine said and how long it took (measured by the tool).
#[derive(Clone, Debug)]
pub struct PlayedMove {
    pub mv: Move,
    pub thought: Thought,
    pub elapsed_ms: u64,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub red: String,
    pub black: String,
    pub opening: Opening,
    /// The time controls Red's and Black's engines played under.
    pub red_tc: TimeControl,
    pub black_tc: TimeControl,
    pub moves: Vec<PlayedMove>,
    pub result: GameResult,
    pub termination: Termination,
    /// For people: `Red wins (checkmate)`, `Black wins (Red played illegal move a0a0)` …
    pub reason: String,
    /// Which side's engine faulted (to be restarted), if any.
    pub faulty: Option<Color>,
}

/// Plays one game. `Err` only when the match is being stopped (the game is then discarded).
pub fn play(red: &mut Engine, black: &mut Engine, opening: &Opening, s: &GameSettings) -> anyhow::Result<GameRecord> {
    let mut pos = opening.position();
    let red_tc = red.spec.tc.unwrap_or(s.tc);
    let black_tc = black.spec.tc.unwrap_or(s.tc);
    let mut rec = GameRecord {
        red: red.name().to_string(),
        black: black.name().to_string(),
        opening: opening.clone(),
        red_tc,
        black_tc,
        moves: Vec::new(),
        result: GameResult::Draw,
        termination: Termination::Normal,
        reason: String::new(),
        faulty: None,
    };
    let finish = |rec: &mut GameRecord, result, term, reason: String, faulty| {
        rec.result = result;
        rec.termination = term;
        rec.reason = reason;
        rec.faulty = faulty;
    };
    for (color, eng) in [(Color::Red, &mut *red), (Color::Black, &mut *black)] {
        match eng.new_game(s.ready_timeout) {
            Ok(()) => {}
            Err(WaitError::Stopped) => bail!("stopped"),
            Err(e) => {
                let why = match e {
                    WaitError::Exited(how) => format!("engine exited before the game ({how})"),
                    _ => "no 'readyok' before the game".to_string(),
                };
                finish(
                    &mut rec,
                    GameResult::win(!color),
                    Termination::Abandoned,
                    format!("{} wins ({}: {why})", (!color).name(), color.name()),
                    Some(color),
                );
                return Ok(rec);
            }
        }
    }

    // The clocks, and for UCCI the position after the last capture (its FEN is sent with the
    // moves since).
    let base = |tc: TimeControl| match tc {
        TimeControl::Clock { base_ms, .. } => base_ms,
        _ => 0,
    };
    let (mut red_ms, mut black_ms) = (base(red_tc), base(black_tc));
    let mut game_moves: Vec<Move> = opening.moves.clone();
    let start_fen = opening.fen.clone();
    let is_startpos = start_fen == Position::startpos().fen();
    let mut ucci_base = (start_fen.clone(), 0usize);
    {
        // Account for captures inside the opening.
        let mut p = Position::from_fen(&start_fen).map_err(|e| anyhow!("{e}"))?;
        for (i, &m) in game_moves.iter().enumerate() {
            let capture = p.is_capture(m);
            p.make_move(m);
            if capture {
                ucci_base = (p.fen(), i + 1);
            }
        }
    }
    // Red-view scores of the engines' moves, for adjudication.
    let mut scores: Vec<Option<i32>> = Vec::new();
    let mut plies = 0usize;

    loop {
        let verdict = rules::outcome(&pos);
        match verdict {
            rules::Outcome::Ongoing => {}
            rules::Outcome::Win { winner, .. } => {
                finish(
                    &mut rec,
                    GameResult::win(winner),
                    Termination::Normal,
                    verdict.to_string(),
                    None,
                );
                return Ok(rec);
            }
            rules::Outcome::Draw(_) => {
                finish(
                    &mut rec,
                    GameResult::Draw,
                    Termination::Normal,
                    verdict.to_string(),
                    None,
                );
                return Ok(rec);
            }
        }
        if s.max_plies > 0 && plies >= s.max_plies {
            finish(
                &mut rec,
                GameResult::Draw,
                Termination::Adjudication,
                format!("draw (adjudicated: {} plies played)", plies),
                None,
            );
            return Ok(rec);
        }
        let side = pos.side_to_move();
        let eng: &mut Engine = if side == Color::Red { &mut *red } else { &mut *black };
        let (own_ms, opp_ms) = if side == Color::Red {
            (red_ms, black_ms)
        } else {
            (black_ms, red_ms)
        };
        let position = position_command(eng.proto, is_startpos, &start_fen, &game_moves, &ucci_base);
        let (tc, opp_tc) = if side == Color::Red {
            (red_tc, black_tc)
        } else {
            (black_tc, red_tc)
        };
        let go = eng.go_command(&tc, &opp_tc, side == Color::Red, own_ms, opp_ms);
        let allowed = match tc {
            TimeControl::Clock { .. } => Some(Duration::from_millis(own_ms)),
            TimeControl::MoveTime(ms) => Some(Duration::from_millis(ms)),
            _ => None,
        };
        let wait = allowed.map(|a| a + s.margin).unwrap_or(s.move_timeout);
        let t0 = Instant::now();
        let answer = eng.think(&position, &go, t0 + wait);
        let elapsed = t0.elapsed();
        let who = side.name();
        let winner = GameResult::win(!side);
        let other = (!side).name();
        let (answer, thought) = match answer {
            Ok(a) => a,
            Err(WaitError::Stopped) => bail!("stopped"),
            Err(WaitError::Timeout) => {
                eng.broken = true;
                let (term, why) = if allowed.is_some() {
                    (
                        Termination::TimeForfeit,
                        format!("{who} lost on time: no move after {} ms", elapsed.as_millis()),
                    )
                } else {
                    (
                        Termination::Abandoned,
                        format!("{who} did not answer within {} s", s.move_timeout.as_secs_f64()),
                    )
                };
                finish(&mut rec, winner, term, format!("{other} wins ({why})"), Some(side));
                return Ok(rec);
            }
            Err(WaitError::Exited(how)) => {
                eng.broken = true;
                finish(
                    &mut rec,
                    winner,
                    Termination::Abandoned,
                    format!("{other} wins ({who}'s engine crashed or exited: {how})"),
                    Some(side),
                );
                return Ok(rec);
            }
        };
        if let Some(a) = allowed {
            if elapsed > a + s.margin {
                eng.broken = true;
                finish(
                    &mut rec,
                    winner,
                    Termination::TimeForfeit,
                    format!(
                        "{other} wins ({who} lost on time: {} ms used, {} ms allowed)",
                        elapsed.as_millis(),
                        a.as_millis()
                    ),
                    Some(side),
                );
                return Ok(rec);
            }
        }
        if let TimeControl::Clock { inc_ms, .. } = tc {
            let left = own_ms.saturating_sub(elapsed.as_millis() as u64) + inc_ms;
            if side == Color::Red {
                red_ms = left;
            } else {
                black_ms = left;
            }
        }
        let text = match answer {
            // ElephantEye-style engines answer `nobestmove` when they hold the game drawn by
            // their own rules (50 moves without capture, a threefold repetition). Honour such
            // a claim only where it is plausible; anywhere else no move is a forfeit.
            Answer::NoMove if draw_claim_plausible(&pos) => {
                finish(
                    &mut rec,
                    GameResult::Draw,
                    Termination::Adjudication,
                    format!(
                        "draw ({who} claimed a draw with no move: {} plies since the last capture)",
                        pos.rule60()
                    ),
                    None,
                );
                return Ok(rec);
            }
            Answer::NoMove => {
                finish(
                    &mut rec,
                    winner,
                    Termination::RulesInfraction,
                    format!("{other} wins ({who} returned no move in a position with legal moves)"),
                    None,
                );
                return Ok(rec);
            }
            Answer::Move { resign: true, .. } => {
                finish(
                    &mut rec,
                    winner,
                    Termination::Normal,
                    format!("{other} wins ({who} resigned)"),
                    None,
                );
                return Ok(rec);
            }
            Answer::Move { text, .. } => text,
        };
        let mv = match pos.parse_move(&text) {
            Ok(m) => m,
            Err(e) => {
                eng.broken = true;
                finish(
                    &mut rec,
                    winner,
                    Termination::RulesInfraction,
                    format!("{other} wins ({who} played illegal move '{text}': {e})"),
                    Some(side),
                );
                return Ok(rec);
            }
        };
        let capture = pos.is_capture(mv);
        pos.make_move(mv);
        game_moves.push(mv);
        if capture {
            ucci_base = (pos.fen(), game_moves.len());
        }
        plies += 1;
        rec.moves.push(PlayedMove {
            mv,
            thought,
            elapsed_ms: elapsed.as_millis() as u64,
        });
        let sign = if side == Color::Red { 1 } else { -1 };
        scores.push(thought.score.map(|sc| sign * sc.as_cp()));
        if let Some((result, why)) = adjudicate(&scores, plies, opening, s) {
            finish(&mut rec, result, Termination::Adjudication, why, None);
            return Ok(rec);
        }
    }
}

/// The `position` command: UCI gets the whole game from its start (`startpos` when it is the
/// standard start); UCCI gets the position after the last capture and the moves since, as
/// its convention asks.
fn position_command(
    proto: Protocol,
    is_startpos: bool,
    start_fen: &str,
    moves: &[Move],
    ucci_base: &(String, usize),
) -> String {
    let (mut cmd, from) = match proto {
        Protocol::Uci if is_startpos => ("position startpos".to_string(), 0),
        Protocol::Uci => (format!("position fen {start_fen}"), 0),
        Protocol::Ucci if ucci_base.1 == 0 && is_startpos => ("position startpos".to_string(), 0),
        Protocol::Ucci => (format!("position fen {}", ucci_base.0), ucci_base.1),
    };
    if from < moves.len() {
        cmd.push_str(" moves");
        for m in &moves[from..] {
            cmd.push(' ');
            cmd.push_str(&m.to_string());
        }
    }
    cmd
}

/// Score adjudication over the Red-view scores of the engines' moves so far.
fn adjudicate(
    scores: &[Option<i32>],
    plies: usize,
    opening: &Opening,
    s: &GameSettings,
) -> Option<(GameResult, String)> {
    if let Some(r) = s.resign {
        let n = 2 * r.moves;
        if r.moves > 0 && scores.len() >= n {
            let last = &scores[scores.len() - n..];
            if last.iter().all(|v| matches!(v, Some(x) if *x >= r.score)) {
                return Some((
                    GameResult::RedWins,
                    format!(
                        "Red wins (adjudicated: both engines scored it ≥ {} for {} moves)",
                        r.score, r.moves
                    ),
                ));
            }
            if last.iter().all(|v| matches!(v, Some(x) if *x <= -r.score)) {
                return Some((
                    GameResult::BlackWins,
                    format!(
                        "Black wins (adjudicated: both engines scored it ≥ {} for Black for {} moves)",
                        r.score, r.moves
                    ),
                ));
            }
        }
    }
    if let Some(d) = s.draw {
        let n = 2 * d.moves;
        // Full-move number of the game, counting the opening moves.
        let move_number = (opening.moves.len() + plies) / 2;
        if d.moves > 0 && move_number >= d.from_move && scores.len() >= n {
            let last = &scores[scores.len() - n..];
            if last.iter().all(|v| matches!(v, Some(x) if x.abs() <= d.score)) {
                return Some((
                    GameResult::Draw,
                    format!(
                        "draw (adjudicated: both engines scored |score| ≤ {} for {} moves)",
                        d.score, d.moves
                    ),
                ));
            }
        }
    }
    None
}

/// Whether an engine that returns no move could be claiming a draw by a common rule: at least
/// 100 plies without a capture, or the current position seen three times.
fn draw_claim_plausible(pos: &Position) -> bool {
    let key = pos.key();
    let seen = pos
        .history()
        .iter()
        .rev()
        .take(pos.rule60() as usize)
        .filter(|st| st.key == key)
        .count()
        + 1;
    pos.rule60() >= 100 || seen >= 3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjudication_rules() {
        let s = GameSettings {
            tc: TimeControl::Depth(1),
            margin: Duration::ZERO,
            move_timeout: Duration::ZERO,
            ready_timeout: Duration::ZERO,
            max_plies: 0,
            resign: Some(ResignRule { moves: 2, score: 500 }),
            draw: Some(DrawRule {
                from_move: 10,
                moves: 2,
                score: 10,
            }),
        };
        let o = Opening::startpos();
        let red_up = [Some(600), Some(700), Some(800), Some(900)];
        assert_eq!(adjudicate(&red_up, 4, &o, &s).map(|r| r.0), Some(GameResult::RedWins));
        // One engine disagrees: no resignation.
        let split = [Some(600), Some(-700), Some(800), Some(900)];
        assert!(adjudicate(&split, 4, &o, &s).is_none());
        let black_up = [None, Some(-600), Some(-700), Some(-800), Some(-900)];
        assert_eq!(
            adjudicate(&black_up, 5, &o, &s).map(|r| r.0),
            Some(GameResult::BlackWins)
        );
        let level = [Some(0), Some(5), Some(-3), Some(10)];
        assert!(adjudicate(&level, 4, &o, &s).is_none(), "too early for a draw");
        assert_eq!(adjudicate(&level, 20, &o, &s).map(|r| r.0), Some(GameResult::Draw));
    }

    #[test]
    fn position_commands() {
        let start = Position::startpos().fen();
        let mvs: Vec<Move> = ["h2e2", "h9g7"].iter().map(|m| Move::parse(m).unwrap()).collect();
        assert_eq!(
            position_command(Protocol::Uci, true, &start, &mvs, &(start.clone(), 0)),
            "position startpos moves h2e2 h9g7"
        );
        assert_eq!(
            position_command(Protocol::Uci, false, "F", &[], &("F".into(), 0)),
            "position fen F"
        );
        assert_eq!(
            position_command(Protocol::Ucci, false, "F", &mvs, &("G".into(), 1)),
            "position fen G moves h9g7"
        );
        assert_eq!(
            position_command(Protocol::Ucci, false, "F", &mvs, &("G".into(), 2)),
            "position fen G"
        );
    }
}
