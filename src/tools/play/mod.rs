//! `chariot play`: a person plays Chariot at the terminal.
//!
//! The board is drawn with Chinese pieces in colour, or in ASCII (with `--ascii`, when
//! `NO_COLOR` is set, with `TERM=dumb`, or when standard output is not a terminal: then every
//! line is plain text, which is how the tests drive it). Moves are read in ICCS, WXF or
//! Chinese notation (`crate::notation`); an illegal move is refused with the reason and
//! changes nothing; an ambiguous one is asked back. Chariot searches with the same `Searcher`
//! as the protocol and reports through a `Reporter`, which prints the live line. The game
//! ends by the rules (`board::rules::outcome`), by resignation or on time; games are saved as
//! `chariot match` writes PGN, and loaded back with their comments; `review` marks the moves so
//! far as `chariot analyse` does.

mod board;
mod strength;

use crate::board::rules::{self, DrawReason, Outcome, WinReason};
use crate::board::{Position, START_FEN};
use crate::core::{Color, Move};
use crate::notation::{self, Notation, NotationError, Refusal};
use crate::search::skill::Skill;
use crate::search::{Clock, Control, Info, Limits, Reporter, Score, Searcher, DECISIVE_BOUND};
use crate::tools::analyse::review::{self, Plan};
use crate::tools::analyse::summary;
use crate::tools::matches::engine::{Score as PgnScore, Thought};
use crate::tools::matches::pgn;
use anyhow::{anyhow, bail};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// `chariot play [--red|--black] [--level N|--elo E] [--tc 5+3|--movetime MS] [--fen FEN] [--ascii]`.
#[derive(clap::Args, Debug, Default)]
pub struct PlayArgs {
    /// You play Red (the default; Red moves first).
    #[arg(long, conflicts_with = "black")]
    pub red: bool,
    /// You play Black.
    #[arg(long)]
    pub black: bool,
    /// Chariot's strength, 0 (weakest) to 20 (full strength, the default): `Skill Level`.
    #[arg(long, conflicts_with = "elo", value_parser = clap::value_parser!(u32).range(0..=20))]
    pub level: Option<u32>,
    /// Chariot's strength as an Elo rating (`UCI_Elo`: the measured level table in docs/levels.md).
    #[arg(long)]
    pub elo: Option<u32>,
    /// A clock for both sides: minutes for the game + seconds added per move (`5+3`, `10`).
    #[arg(long, conflicts_with = "movetime")]
    pub tc: Option<String>,
    /// Chariot thinks this many milliseconds a move (default 1000 without --tc).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Chariot searches exactly this many nodes a move, with no time limit (for scripts).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Start from this position instead of the standard one.
    #[arg(long)]
    pub fen: Option<String>,
    /// Plain text: ASCII letters, no colour (automatic with NO_COLOR or when output is not a terminal).
    #[arg(long)]
    pub ascii: bool,
}

/// The search budget of each position for `review`.
const REVIEW_NODES: u64 = 100_000;

/// One move of the game, with what Chariot thought when it played it.
#[derive(Clone, Debug)]
struct Ply {
    mv: Move,
    by_engine: bool,
    thought: Thought,
    elapsed_ms: u64,
    /// The comment a loaded game had after this move, written back on `save`.
    note: Option<String>,
}

/// How a finished game ended.
#[derive(Clone, Debug)]
struct End {
    /// `1-0`, `0-1` or `1/2-1/2`.
    result: &'static str,
    /// PGN Termination.
    termination: &'static str,
    /// The reason, in words.
    reason: String,
}

/// Both clocks, in milliseconds.
#[derive(Clone, Copy, Debug)]
struct Clocks {
    base_ms: i64,
    inc_ms: i64,
    left: [i64; 2],
}

/// Parses `5+3` (minutes + seconds) or `10` (minutes).
fn parse_tc(text: &str) -> anyhow::Result<Clocks> {
    let bad = || anyhow!("bad --tc '{text}': expected MINUTES+SECONDS like 5+3, or MINUTES like 10");
    let (base, inc) = text.trim().split_once('+').unwrap_or((text.trim(), "0"));
    let base: f64 = base.trim().parse().map_err(|_| bad())?;
    let inc: f64 = inc.trim().parse().map_err(|_| bad())?;
    if !(base > 0.0 && base <= 600.0 && (0.0..=600.0).contains(&inc)) {
        return Err(bad());
    }
    let base_ms = (base * 60_000.0).round() as i64;
    Ok(Clocks {
        base_ms,
        inc_ms: (inc * 1000.0).round() as i64,
        left: [base_ms; 2],
    })
}

fn clock_text(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}

/// A score for the player: `score` is from the view of the side that searched; `for_player`
/// says whether that side is the player.
fn score_text(score: Score, for_player: bool) -> String {
    let sign = if for_player { 1 } else { -1 };
    match score {
        Score::Cp(c) => {
            let c = c * sign;
            if c.abs() >= DECISIVE_BOUND {
                if c > 0 {
                    "won for you by a repetition rule"
                } else {
                    "lost for you by a repetition rule"
                }
                .to_string()
            } else {
                format!("{:+.2}", c as f64 / 100.0)
            }
        }
        Score::Mate(m) => {
            let m = m * sign;
            if m > 0 {
                format!("you mate in {m}")
            } else {
                format!("you are mated in {}", -m)
            }
        }
    }
}

/// The live line while Chariot thinks: depth, score from the player's view, main line in WXF.
struct LiveLine<'a> {
    out: &'a mut dyn Write,
    pos: &'a Position,
    fancy: bool,
    /// Whether the player is the side searching (a hint).
    for_player: bool,
    clock: String,
    last: Option<Info>,
}

impl LiveLine<'_> {
    fn text(&self, info: &Info) -> String {
        let line = notation::format_line(self.pos, &info.pv, Notation::Wxf);
        format!(
            "{}depth {} score {} line {}",
            self.clock,
            info.depth,
            score_text(info.score, self.for_player),
            line
        )
    }
}

impl Reporter for LiveLine<'_> {
    fn info(&mut self, info: &Info) {
        if self.fancy {
            let mut t = self.text(info);
            if t.chars().count() > 100 {
                t = t.chars().take(97).collect::<String>() + "...";
            }
            let _ = write!(self.out, "\r\x1b[K  thinking: {t}");
            let _ = self.out.flush();
        }
        self.last = Some(info.clone());
    }
}

/// What a command asks of the loop.
enum Flow {
    Continue,
    Quit,
}

/// A game in progress with everything `play` keeps.
struct Session<'a> {
    out: &'a mut dyn Write,
    fancy: bool,
    human: Color,
    bottom: Color,
    start_fen: String,
    pos: Position,
    plies: Vec<Ply>,
    over: Option<End>,
    skill: Skill,
    movetime: Option<u64>,
    nodes: Option<u64>,
    clocks: Option<Clocks>,
    searcher: Searcher,
    /// Candidates of an ambiguous move, waiting for the player to pick one.
    pending: Vec<Move>,
    /// When the player's turn began (their clock runs from here).
    turn_start: Instant,
}

/// Runs `chariot play` on the terminal.
pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    let fancy = !args.ascii
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && !std::env::var("TERM").is_ok_and(|t| t == "dumb")
        && std::io::IsTerminal::is_terminal(&std::io::stdout());
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    play(args, fancy, &mut stdin.lock(), &mut out)
}

/// Plays a game reading commands from `input` and writing to `out`.
pub fn play(args: &PlayArgs, fancy: bool, input: &mut dyn BufRead, out: &mut dyn Write) -> anyhow::Result<()> {
    let start_fen = match &args.fen {
        Some(f) => Position::from_fen(f)
            .map_err(|e| anyhow!("bad --fen '{f}': {e}"))?
            .fen(),
        None => START_FEN.to_string(),
    };
    let clocks = args.tc.as_deref().map(parse_tc).transpose()?;
    let skill = strength::chosen(args.level, args.elo);
    let human = if args.black { Color::Black } else { Color::Red };
    let pos = Position::from_fen(&start_fen).map_err(|e| anyhow!("{e}"))?;
    if rules::outcome(&pos) != Outcome::Ongoing {
        bail!("the game is already over in this position ({})", rules::outcome(&pos));
    }
    let mut s = Session {
        out,
        fancy,
        human,
        bottom: human,
        start_fen,
        pos,
        plies: Vec::new(),
        over: None,
        skill,
        movetime: args.movetime,
        nodes: args.nodes,
        clocks,
        searcher: Searcher::new(16, 1),
        pending: Vec::new(),
        turn_start: Instant::now(),
    };
    s.welcome()?;
    loop {
        if s.over.is_none() && s.pos.side_to_move() != s.human {
            s.engine_move()?;
            continue;
        }
        s.prompt()?;
        let mut raw = Vec::new();
        if input.read_until(b'\n', &mut raw)? == 0 {
            writeln!(s.out)?;
            break;
        }
        let line = String::from_utf8_lossy(&raw).trim().to_string();
        if !s.fancy {
            // Plain output is a transcript: show what was typed.
            writeln!(s.out, "{line}")?;
        }
        match s.handle(&line)? {
            Flow::Continue => {}
            Flow::Quit => break,
        }
    }
    s.out.flush()?;
    Ok(())
}

const HELP: &str = "\
Moves, in any of three notations:
  ICCS     h2e2  H2-E2          (from and to: files a-i from Red's left, ranks 0-9 from Red's side)
  WXF      C2=5  H8+7  R+-1     (piece, file from your right, + forward, - back, = or . sideways,
                                 then the ranks moved or the file reached; + and - for the front
                                 and rear of two pieces on one file)
  Chinese  炮二平五  马8进7  前车进一  (进 forward, 退 back, 平 sideways; Red counts files 一…九,
                                 Black 1…9, each from its own right; 車/车, 馬/马, 砲/炮 … all read)
Commands:
  undo        take back your last move and Chariot's reply
  hint        Chariot's best move for you, and its line
  review      Chariot's verdict on the moves so far: ?! inaccuracy, ? mistake, ?? blunder
  flip        turn the board around
  level N     Chariot's strength, 1 (weakest) to 20 (full)
  new         start again
  fen         print the position as FEN
  save FILE   save the game as PGN
  load FILE   load a game saved as PGN
  board       draw the board again
  resign      give up the game
  help        this text
  quit        leave";

impl Session<'_> {
    fn name(&self, c: Color) -> &'static str {
        if c == self.human {
            "you"
        } else {
            "Chariot"
        }
    }

    fn welcome(&mut self) -> std::io::Result<()> {
        writeln!(
            self.out,
            "Chariot play: you are {}, Chariot is {} at {}.",
            self.human.name(),
            (!self.human).name(),
            strength::describe(&self.skill)
        )?;
        writeln!(self.out, "Type a move (h2e2, C2=5 or 炮二平五), or help.")?;
        if let Some(c) = self.clocks {
            writeln!(
                self.out,
                "Clock: {} each, {} s added per move.",
                clock_text(c.base_ms),
                c.inc_ms as f64 / 1000.0
            )?;
        }
        self.show_board()?;
        self.announce()
    }

    fn show_board(&mut self) -> std::io::Result<()> {
        let last = self.plies.last().map(|p| p.mv);
        let text = board::render(&self.pos, last, self.bottom, self.fancy);
        write!(self.out, "{text}")
    }

    /// Check and repetition warnings for the position on the board.
    fn announce(&mut self) -> std::io::Result<()> {
        let side = self.pos.side_to_move();
        if self.pos.in_check() {
            writeln!(self.out, "Check! {} ({}) is in check.", side.name(), self.name(side))?;
        }
        if self.over.is_some() {
            return Ok(());
        }
        if let Some(span) = earlier_occurrence(&self.pos) {
            let then = match rules::cycle_verdict(&self.pos, span) {
                Some((winner, reason)) => {
                    let how = if reason == WinReason::PerpetualCheck {
                        "checking"
                    } else {
                        "chasing"
                    };
                    format!(
                        "{} wins: {} has been {how} with every move since it last stood here",
                        winner.name(),
                        (!winner).name()
                    )
                }
                None => "the game is drawn by repetition".to_string(),
            };
            writeln!(
                self.out,
                "Warning: this position has occurred twice. If it comes a third time, {then}."
            )?;
        }
        Ok(())
    }

    fn prompt(&mut self) -> std::io::Result<()> {
        let side = self.pos.side_to_move();
        let clock = self.clocks.map_or(String::new(), |c| {
            format!(
                " [Red {} Black {}]",
                clock_text(c.left[Color::Red.index()]),
                clock_text(c.left[Color::Black.index()])
            )
        });
        let turn = if self.over.is_some() {
            "game over".to_string()
        } else {
            format!("move {}, {} to move", self.pos.fullmove(), side.name())
        };
        write!(self.out, "{turn}{clock}> ")?;
        self.out.flush()
    }

    fn handle(&mut self, line: &str) -> anyhow::Result<Flow> {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else {
            return Ok(Flow::Continue);
        };
        let rest: Vec<&str> = words.collect();
        let arg = line[first.len()..].trim();
        // An answer to "which one?".
        if !self.pending.is_empty() && rest.is_empty() {
            if let Ok(i) = first.parse::<usize>() {
                if (1..=self.pending.len()).contains(&i) {
                    let mv = self.pending[i - 1];
                    self.pending.clear();
                    self.human_move(mv)?;
                    return Ok(Flow::Continue);
                }
            }
        }
        self.pending.clear();
        match first.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => {
                writeln!(self.out, "Goodbye.")?;
                return Ok(Flow::Quit);
            }
            "help" | "?" => writeln!(self.out, "{HELP}")?,
            "board" => self.show_board()?,
            "flip" => {
                self.bottom = !self.bottom;
                self.show_board()?;
            }
            "fen" => writeln!(self.out, "{}", self.pos.fen())?,
            "undo" => self.undo()?,
            "hint" => self.hint()?,
            "review" => self.review()?,
            "new" => self.new_game()?,
            "resign" => self.resign()?,
            "level" => match arg.parse::<u32>() {
                Ok(n) if n <= strength::MAX_LEVEL => {
                    self.skill = strength::chosen(Some(n), None);
                    writeln!(self.out, "Chariot now plays at {}.", strength::describe(&self.skill))?;
                }
                _ => writeln!(self.out, "level needs a number from 0 to {}.", strength::MAX_LEVEL)?,
            },
            "save" if !arg.is_empty() => match std::fs::write(arg, self.pgn()) {
                Ok(()) => writeln!(self.out, "Saved the game ({} moves) to {arg}.", self.plies.len())?,
                Err(e) => writeln!(self.out, "Could not save to {arg}: {e}")?,
            },
            "load" if !arg.is_empty() => self.load(arg)?,
            "save" | "load" => writeln!(self.out, "{first} needs a file name.")?,
            _ => self.typed_move(line)?,
        }
        Ok(Flow::Continue)
    }

    fn typed_move(&mut self, text: &str) -> std::io::Result<()> {
        if let Some(end) = &self.over {
            let reason = end.reason.clone();
            return writeln!(
                self.out,
                "The game is over ({reason}). Type new, undo, load FILE or quit."
            );
        }
        match notation::parse_move(&self.pos, text) {
            Ok(mv) => self.human_move(mv),
            Err(NotationError::Ambiguous { candidates, described }) => {
                writeln!(self.out, "'{text}' is ambiguous. Which one do you mean?")?;
                for (i, d) in described.iter().enumerate() {
                    writeln!(self.out, "  {}) {d}", i + 1)?;
                }
                writeln!(self.out, "Type its number, or the move written in full.")?;
                self.pending = candidates;
                Ok(())
            }
            Err(NotationError::Illegal { mv, reason }) => {
                let what = match mv {
                    Some(m) if !matches!(reason, Refusal::NoPiece(_) | Refusal::NotYours(_)) => {
                        let wxf = notation::format_move(&self.pos, m, Notation::Wxf);
                        let iccs = notation::format_move(&self.pos, m, Notation::Iccs);
                        [wxf, iccs]
                            .into_iter()
                            .filter(|t| t != text)
                            .map(|t| format!(" = {t}"))
                            .collect::<String>()
                    }
                    _ => String::new(),
                };
                writeln!(
                    self.out,
                    "Illegal move {text}{what}: {reason}. Nothing changed; it is still your move."
                )
            }
            Err(e @ (NotationError::NoPiece { .. } | NotationError::NoTandem { .. })) => {
                writeln!(self.out, "No such piece: {e}. Nothing changed; it is still your move.")
            }
            Err(e) => writeln!(self.out, "Not understood: {e}. Type help for the moves and commands."),
        }
    }

    fn human_move(&mut self, mv: Move) -> std::io::Result<()> {
        let elapsed = self.turn_start.elapsed().as_millis() as u64;
        self.make(mv, false, Thought::default(), elapsed)
    }

    /// Plays `mv` for the side to move, shows it, and judges the game.
    fn make(&mut self, mv: Move, by_engine: bool, thought: Thought, elapsed_ms: u64) -> std::io::Result<()> {
        let side = self.pos.side_to_move();
        let texts = [Notation::Chinese, Notation::Wxf, Notation::Iccs].map(|n| notation::format_move(&self.pos, mv, n));
        let mut flagged = false;
        if let Some(c) = &mut self.clocks {
            let left = &mut c.left[side.index()];
            *left -= elapsed_ms as i64;
            if *left < 0 {
                flagged = true;
            } else {
                *left += c.inc_ms;
            }
        }
        if flagged {
            let winner = !side;
            let reason = format!("{} ran out of time; {} wins", side.name(), winner.name());
            writeln!(self.out, "Game over: {reason}.")?;
            self.finish(win_token(winner), "time forfeit", reason)?;
            return Ok(());
        }
        self.pos.make_move(mv);
        self.plies.push(Ply {
            mv,
            by_engine,
            thought,
            elapsed_ms,
            note: None,
        });
        let who = if by_engine { "Chariot" } else { "You" };
        writeln!(
            self.out,
            "{} ({who}) plays {}  {}  {}",
            side.name(),
            texts[0],
            texts[1],
            texts[2]
        )?;
        self.show_board()?;
        self.report()?;
        self.turn_start = Instant::now();
        Ok(())
    }

    /// After a move or a load: check, the end of the game, or a repetition warning.
    fn report(&mut self) -> std::io::Result<()> {
        if rules::outcome(&self.pos) == Outcome::Ongoing {
            self.announce()
        } else {
            if self.pos.in_check() {
                writeln!(self.out, "Check!")?;
            }
            self.judge()
        }
    }

    /// Ends the game if the rules say so, with the reason in words.
    fn judge(&mut self) -> std::io::Result<()> {
        let verdict = rules::outcome(&self.pos);
        let (token, words) = match verdict {
            Outcome::Ongoing => return Ok(()),
            Outcome::Win { winner, reason } => {
                let loser = (!winner).name();
                let w = winner.name();
                let words = match reason {
                    WinReason::Checkmate => format!("{loser} is checkmated; {w} wins"),
                    WinReason::Stalemate => format!(
                        "{loser} has no legal move (stalemate: in xiangqi the side that cannot move loses); {w} wins"
                    ),
                    WinReason::PerpetualCheck => format!(
                        "the position occurred three times and {loser} gave check with every move (perpetual check is forbidden); {w} wins"
                    ),
                    WinReason::PerpetualChase => format!(
                        "the position occurred three times and {loser} chased the same piece with every move (perpetual chase is forbidden); {w} wins"
                    ),
                };
                (win_token(winner), words)
            }
            Outcome::Draw(DrawReason::Repetition) => (
                "1/2-1/2",
                "the position occurred three times with no perpetual check or chase; draw by repetition".to_string(),
            ),
            Outcome::Draw(DrawReason::SixtyMoves) => (
                "1/2-1/2",
                "sixty moves by each side without a capture; draw by the 60-move rule".to_string(),
            ),
            Outcome::Draw(DrawReason::InsufficientMaterial) => (
                "1/2-1/2",
                "neither side has a rook, horse, cannon or pawn left to mate with; draw by bare material".to_string(),
            ),
        };
        writeln!(self.out, "Game over: {words}.")?;
        self.finish(token, "normal", format!("{verdict}"))
    }

    fn finish(&mut self, result: &'static str, termination: &'static str, reason: String) -> std::io::Result<()> {
        writeln!(
            self.out,
            "Result: {result} ({reason}). Type new, undo, save FILE or quit."
        )?;
        self.over = Some(End {
            result,
            termination,
            reason,
        });
        Ok(())
    }

    /// The limits of one search: the level's cap, and the clock, the move time or the nodes.
    fn limits(&self, for_player: bool, with_clock: bool) -> Limits {
        let mut limits = Limits {
            move_overhead: Duration::from_millis(30),
            ..Default::default()
        };
        let side = self.pos.side_to_move();
        match (self.clocks, self.nodes, self.movetime) {
            (_, Some(n), _) => limits.nodes = Some(n),
            (Some(c), None, _) if with_clock => {
                limits.clock = Some(Clock {
                    remaining: Duration::from_millis(c.left[side.index()].max(0) as u64),
                    increment: Duration::from_millis(c.inc_ms as u64),
                    moves_to_go: None,
                })
            }
            (_, None, Some(ms)) => limits.movetime = Some(Duration::from_millis(ms.max(1))),
            _ => limits.movetime = Some(Duration::from_millis(1000)),
        }
        // Chariot's own moves are played at its level; a hint for the player is full strength.
        if !for_player {
            self.skill.apply(&mut limits);
        }
        limits
    }

    /// Searches the position; the live line shows progress.
    fn think(&mut self, for_player: bool, with_clock: bool) -> (crate::search::SearchResult, Option<Info>, u64) {
        let limits = self.limits(for_player, with_clock);
        let clock = self.clocks.map_or(String::new(), |c| {
            format!(
                "[Red {} Black {}] ",
                clock_text(c.left[Color::Red.index()]),
                clock_text(c.left[Color::Black.index()])
            )
        });
        let start = Instant::now();
        let mut live = LiveLine {
            out: &mut *self.out,
            pos: &self.pos,
            fancy: self.fancy,
            for_player,
            clock,
            last: None,
        };
        let result = self.searcher.search(&self.pos, &limits, &Control::default(), &mut live);
        let last = live.last.take();
        if self.fancy {
            let _ = write!(self.out, "\r\x1b[K");
        }
        if let Some(info) = &last {
            let live = LiveLine {
                out: &mut std::io::sink(),
                pos: &self.pos,
                fancy: false,
                for_player,
                clock: String::new(),
                last: None,
            };
            let _ = writeln!(self.out, "  thought: {}", live.text(info));
        }
        (result, last, start.elapsed().as_millis() as u64)
    }

    fn engine_move(&mut self) -> std::io::Result<()> {
        let (result, info, elapsed) = self.think(false, true);
        let seed = Skill::seed(self.pos.key(), 0);
        let Some(mv) = self.skill.pick(&result.lines, seed).or(result.best) else {
            // Only when the game is over, which judge() has already said.
            return Ok(());
        };
        let thought = Thought {
            score: info.as_ref().map(|i| match i.score {
                Score::Cp(c) => PgnScore::Cp(c),
                Score::Mate(m) => PgnScore::Mate(m),
            }),
            depth: info.as_ref().map(|i| i.depth),
            time_ms: Some(elapsed),
            nodes: Some(result.nodes),
        };
        self.make(mv, true, thought, elapsed)
    }

    fn hint(&mut self) -> std::io::Result<()> {
        if self.over.is_some() {
            return writeln!(self.out, "The game is over; no hint.");
        }
        let (result, info, _) = self.think(true, false);
        let Some(mv) = result.best else {
            return writeln!(self.out, "There is no legal move.");
        };
        let texts = [Notation::Chinese, Notation::Wxf, Notation::Iccs].map(|n| notation::format_move(&self.pos, mv, n));
        let line = info.map_or(String::new(), |i| {
            format!(
                ", score {}, line {}",
                score_text(i.score, true),
                notation::format_line(&self.pos, &i.pv, Notation::Wxf)
            )
        });
        writeln!(self.out, "Hint: {}  {}  {}{line}", texts[0], texts[1], texts[2])
    }

    /// `review`: every position of the game so far searched at [`REVIEW_NODES`] (as
    /// `chariot analyse` does), then each side's accuracy and the marked moves.
    fn review(&mut self) -> std::io::Result<()> {
        if self.plies.is_empty() {
            return writeln!(self.out, "No moves to review yet.");
        }
        let start = Position::from_fen(&self.start_fen).unwrap_or_else(|_| Position::startpos());
        let moves: Vec<Move> = self.plies.iter().map(|p| p.mv).collect();
        let plan = Plan {
            limits: Limits {
                nodes: Some(REVIEW_NODES),
                ..Default::default()
            },
            first_ply: 0,
        };
        writeln!(
            self.out,
            "Reviewing {} moves ({REVIEW_NODES} nodes a position)...",
            moves.len()
        )?;
        let review = review::review(
            &mut self.searcher,
            &start,
            &moves,
            &plan,
            &Control::default(),
            &mut |_| {},
        );
        let names = [self.name(Color::Red), self.name(Color::Black)];
        for line in summary::report(&start, &moves, &review, &Color::BOTH, names, Notation::Wxf) {
            writeln!(self.out, "{line}")?;
        }
        Ok(())
    }

    /// Rebuilds the position from the start FEN and the plies kept.
    fn replay(&mut self) {
        let mut pos = Position::from_fen(&self.start_fen).unwrap_or_else(|_| Position::startpos());
        for p in &self.plies {
            pos.make_move(p.mv);
        }
        self.pos = pos;
    }

    fn undo(&mut self) -> std::io::Result<()> {
        let Some(i) = self.plies.iter().rposition(|p| !p.by_engine) else {
            return writeln!(self.out, "Nothing of yours to take back.");
        };
        let taken: Vec<String> = {
            let mut p = Position::from_fen(&self.start_fen).unwrap_or_else(|_| Position::startpos());
            for ply in &self.plies[..i] {
                p.make_move(ply.mv);
            }
            let moves: Vec<Move> = self.plies[i..].iter().map(|p| p.mv).collect();
            vec![notation::format_line(&p, &moves, Notation::Wxf)]
        };
        self.plies.truncate(i);
        self.replay();
        self.over = None;
        writeln!(self.out, "Took back {}.", taken.join(" "))?;
        self.show_board()?;
        self.announce()?;
        self.turn_start = Instant::now();
        Ok(())
    }

    fn new_game(&mut self) -> std::io::Result<()> {
        self.plies.clear();
        self.replay();
        self.over = None;
        self.searcher.clear();
        if let Some(c) = &mut self.clocks {
            c.left = [c.base_ms; 2];
        }
        writeln!(self.out, "New game.")?;
        self.show_board()?;
        self.turn_start = Instant::now();
        Ok(())
    }

    fn resign(&mut self) -> std::io::Result<()> {
        if self.over.is_some() {
            return writeln!(self.out, "The game is already over.");
        }
        let winner = !self.human;
        let reason = format!("{} resigns; {} wins", self.human.name(), winner.name());
        writeln!(self.out, "Game over: {reason}.")?;
        self.finish(win_token(winner), "normal", reason)
    }

    /// The game as PGN, in the format `chariot match` writes.
    fn pgn(&self) -> String {
        let engine = format!("Chariot {}", strength::describe(&self.skill));
        let (red, black) = match self.human {
            Color::Red => ("Human".to_string(), engine),
            Color::Black => (engine, "Human".to_string()),
        };
        let result = self.over.as_ref().map_or("*", |e| e.result);
        let termination = self.over.as_ref().map_or("unterminated", |e| e.termination);
        let tags = [
            ("Event", "chariot play".to_string()),
            ("Site", "chariot play".to_string()),
            ("Date", crate::tools::matches::today()),
            ("Round", "1".to_string()),
            ("Red", red),
            ("Black", black),
            ("Result", result.to_string()),
            ("Game", "Chinese Chess".to_string()),
            ("Variant", "xiangqi".to_string()),
            ("FEN", self.start_fen.clone()),
            ("Termination", termination.to_string()),
            ("PlyCount", self.plies.len().to_string()),
        ];
        let moves: Vec<(Move, Option<String>)> = self
            .plies
            .iter()
            .map(|p| {
                let thought = pgn::comment(&p.thought, p.elapsed_ms).filter(|_| p.by_engine);
                (p.mv, thought.or_else(|| p.note.clone()))
            })
            .collect();
        let reason = self.over.as_ref().map(|e| e.reason.as_str());
        pgn::write_pgn(&tags, &self.start_fen, &moves, reason, result)
    }

    fn load(&mut self, path: &str) -> std::io::Result<()> {
        match load_game(path, self.human) {
            Ok((fen, plies, recorded)) => {
                self.start_fen = fen;
                self.plies = plies;
                self.replay();
                self.over = None;
                self.pending.clear();
                writeln!(self.out, "Loaded {} moves from {path}.", self.plies.len())?;
                self.show_board()?;
                self.report()?;
                if self.over.is_none() {
                    if let Some((result, reason)) = recorded {
                        writeln!(self.out, "The saved game was over: {reason}.")?;
                        self.finish(result, "normal", reason)?;
                    }
                }
                self.turn_start = Instant::now();
                Ok(())
            }
            Err(e) => writeln!(self.out, "Could not load {path}: {e}. Nothing changed."),
        }
    }
}

fn win_token(winner: Color) -> &'static str {
    match winner {
        Color::Red => "1-0",
        Color::Black => "0-1",
    }
}

/// The number of plies back to the latest earlier occurrence of the current position (same
/// side to move), within the moves since the last capture.
fn earlier_occurrence(pos: &Position) -> Option<usize> {
    let hist = pos.history();
    let end = (pos.rule60() as usize).min(hist.len());
    (4..=end)
        .step_by(2)
        .find(|&d| hist[hist.len() - d].key == pos.key() && hist[hist.len() - d..].iter().all(|s| s.mv.is_some()))
}

/// A saved game read back: its FEN, its moves (by the colour not `human`: Chariot's) with
/// their comments, and the recorded result when the file says the game ended in a way the
/// rules cannot see (resignation, time). In a finished game a comment after the last move is
/// the closing one (the reason the game ended, as `save` writes it): it is the recorded
/// reason, not a comment on the last move. Comments before the first move are dropped
/// (`save` writes none there).
type Loaded = (String, Vec<Ply>, Option<(&'static str, String)>);

fn load_game(path: &str, human: Color) -> anyhow::Result<Loaded> {
    let text = std::fs::read_to_string(path)?;
    let parsed = crate::formats::pgn::parse_pgn(&text);
    let game = parsed
        .games
        .first()
        .ok_or_else(|| anyhow!("no complete game in the file"))?;
    let fen = game.tag("FEN").unwrap_or(START_FEN);
    let mut pos = Position::from_fen(fen).map_err(|e| anyhow!("bad FEN '{fen}': {e}"))?;
    let fen = pos.fen();
    let mut comments = game.comments.clone();
    let result = game.tag("Result").unwrap_or(&game.result);
    let closing = match comments.last() {
        Some((n, _)) if result != "*" && *n == game.moves.len() => comments.pop().map(|(_, c)| c),
        _ => None,
    };
    let mut plies = Vec::new();
    for (i, text) in game.moves.iter().enumerate() {
        let notes: Vec<&str> = comments
            .iter()
            .filter(|(n, _)| *n == i + 1)
            .map(|(_, c)| c.as_str())
            .collect();
        let mv = notation::parse_move(&pos, text).map_err(|e| anyhow!("move {} '{text}': {e}", i + 1))?;
        plies.push(Ply {
            mv,
            by_engine: pos.side_to_move() != human,
            thought: Thought::default(),
            elapsed_ms: 0,
            note: (!notes.is_empty()).then(|| notes.join(" ")),
        });
        pos.make_move(mv);
    }
    let recorded = match result {
        "1-0" | "0-1" | "1/2-1/2" if rules::outcome(&pos) == Outcome::Ongoing => {
            let token = match result {
                "1-0" => "1-0",
                "0-1" => "0-1",
                _ => "1/2-1/2",
            };
            let reason = closing.unwrap_or_else(|| {
                game.tag("Termination").map_or_else(
                    || format!("recorded as {token}"),
                    |t| format!("recorded as {token}, {t}"),
                )
            });
            Some((token, reason))
        }
        _ => None,
    };
    Ok((fen, plies, recorded))
}
