//! WXF and Chinese notation share one shape: which piece (by file, or by its place among
//! several of its kind on one file), which way it goes, and a number. This file reads both
//! into that shape ([`Written`]), finds the legal move it names, and writes a move back
//! ([`Described`]).

use super::{chinese_numeral, explain, Notation, NotationError, Refusal};
use crate::board::Position;
use crate::core::{Color, Move, PieceKind, Square};

/// Which way a piece goes, from its owner's side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Action {
    Forward,
    Backward,
    Sideways,
}

/// A place among the pieces of one kind on one file, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// `++`, 前: the foremost.
    Front,
    /// `--`, 后: the rearmost.
    Rear,
    /// 中, or WXF's file digit among three or five pawns: the middle one.
    Middle,
    /// WXF `+`: the front one of two or three, the second of four or five.
    Plus,
    /// WXF `-`: the rear one of two or three, the second-rearmost of four or five.
    Minus,
    /// 一 … 五: counted from the front, 1-based.
    Nth(u8),
}

impl Place {
    /// The index, from the front, that this place names among `count` pieces.
    fn index(self, count: usize) -> Option<usize> {
        let i = match self {
            Place::Front => 0,
            Place::Rear => count.checked_sub(1)?,
            Place::Middle if count % 2 == 1 && count >= 3 => count / 2,
            Place::Middle => return None,
            Place::Plus => usize::from(count >= 4),
            Place::Minus => count.checked_sub(if count >= 4 { 2 } else { 1 })?,
            Place::Nth(n) => (n as usize).checked_sub(1)?,
        };
        (i < count).then_some(i)
    }
}

/// Which piece, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Which {
    /// The piece of the kind on this file (1–9 from the mover's right).
    File(u8),
    /// A place among several on one file; the file is named when pawns stand in tandem on two.
    Tandem(Place, Option<u8>),
}

/// A WXF or Chinese move as written, before the position is consulted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Written {
    pub kind: PieceKind,
    pub which: Which,
    pub action: Action,
    pub arg: u8,
}

/// A file index (0 = `a`) as the file number of `color` (1–9 from its right).
pub(super) fn number(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// The file index of `color`'s file number `n` (1–9).
fn file_of(color: Color, n: u8) -> Option<u8> {
    (1..=9).contains(&n).then(|| match color {
        Color::Red => 9 - n,
        Color::Black => n - 1,
    })
}

/// Pieces that move along lines; their forward and backward numbers count ranks.
fn straight(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::King | PieceKind::Rook | PieceKind::Cannon | PieceKind::Pawn
    )
}

/// The pieces of `color` and `kind` on `file`, the most advanced first.
fn on_file(pos: &Position, color: Color, kind: PieceKind, file: u8) -> Vec<Square> {
    let mut v: Vec<Square> = pos
        .pieces(color, kind)
        .into_iter()
        .filter(|s| s.file() == file)
        .collect();
    v.sort_by_key(|s| match color {
        Color::Red => 9 - s.rank(),
        Color::Black => s.rank(),
    });
    v
}

/// Where the written action takes a piece of `kind` and `color` from `from`, if anywhere.
fn target(from: Square, color: Color, kind: PieceKind, action: Action, arg: u8) -> Option<Square> {
    let ahead = if color == Color::Red { 1 } else { -1 };
    let sign = match action {
        Action::Sideways => {
            if !straight(kind) {
                return None;
            }
            let file = file_of(color, arg)?;
            return (file != from.file()).then(|| Square::new(file, from.rank()));
        }
        Action::Forward => ahead,
        Action::Backward => -ahead,
    };
    let (file, ranks) = if straight(kind) {
        (from.file(), arg as i32)
    } else {
        let file = file_of(color, arg)?;
        let df = (file as i32 - from.file() as i32).abs();
        let dr = match (kind, df) {
            (PieceKind::Advisor, 1) => 1,
            (PieceKind::Elephant, 2) => 2,
            (PieceKind::Horse, 1) => 2,
            (PieceKind::Horse, 2) => 1,
            _ => return None,
        };
        (file, dr)
    };
    let rank = from.rank() as i32 + sign * ranks;
    (ranks > 0 && (0..10).contains(&rank)).then(|| Square::new(file, rank as u8))
}

/// Finds the legal move that `w` names for the side to move.
pub(super) fn resolve(pos: &Position, w: &Written, notation: Notation) -> Result<Move, NotationError> {
    let color = pos.side_to_move();
    let kind = w.kind;
    let froms: Vec<Square> = match w.which {
        Which::File(n) => {
            let file = file_of(color, n).ok_or(NotationError::NoPiece { color, kind, file: n })?;
            let pieces = on_file(pos, color, kind, file);
            if pieces.is_empty() {
                return Err(NotationError::NoPiece { color, kind, file: n });
            }
            if kind == PieceKind::Pawn && pieces.len() % 2 == 1 && pieces.len() >= 3 {
                // WXF: the file digit among three or five pawns names the middle one.
                vec![pieces[pieces.len() / 2]]
            } else {
                pieces
            }
        }
        Which::Tandem(place, file_no) => {
            let files: Vec<u8> = match file_no {
                Some(n) => {
                    let file = file_of(color, n).ok_or(NotationError::NoPiece { color, kind, file: n })?;
                    vec![file]
                }
                None => (0..9).collect(),
            };
            let mut v = Vec::new();
            for file in files {
                let pieces = on_file(pos, color, kind, file);
                if pieces.len() >= 2 {
                    if let Some(i) = place.index(pieces.len()) {
                        v.push(pieces[i]);
                    }
                }
            }
            if v.is_empty() {
                return Err(NotationError::NoTandem { color, kind });
            }
            v
        }
    };
    let tries: Vec<(Square, Option<Square>)> = froms
        .iter()
        .map(|&f| (f, target(f, color, kind, w.action, w.arg)))
        .collect();
    let legal: Vec<Move> = tries
        .iter()
        .filter_map(|&(f, t)| t.map(|t| Move::new(f, t)))
        .filter(|&m| pos.is_legal(m))
        .collect();
    match legal.len() {
        1 => Ok(legal[0]),
        0 => {
            let reason = tries.iter().find_map(|&(f, t)| t.map(|t| Move::new(f, t)));
            match reason {
                Some(m) => Err(NotationError::Illegal {
                    mv: Some(m),
                    reason: explain(pos, m).unwrap_or(Refusal::Unlike(kind)),
                }),
                None => Err(NotationError::Illegal {
                    mv: None,
                    reason: Refusal::Unlike(kind),
                }),
            }
        }
        _ => {
            let described = legal
                .iter()
                .map(|&m| format!("{} ({m})", super::format_move(pos, m, notation)))
                .collect();
            Err(NotationError::Ambiguous {
                candidates: legal,
                described,
            })
        }
    }
}

/// A move as WXF and Chinese write it, ready to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Described {
    color: Color,
    kind: PieceKind,
    /// The file number of the from-point (mover's numbering).
    file: u8,
    /// Place among the pieces of the kind on that file (0 = front) and how many there are;
    /// count 1 means the file alone names the piece.
    index: u8,
    count: u8,
    /// Pawns stand in tandem on two files: the file is written with the place.
    two_files: bool,
    action: Action,
    arg: u8,
}

/// Describes `mv` by its piece, file and direction; `None` when its from-point is empty.
pub(super) fn describe(pos: &Position, mv: Move) -> Option<Described> {
    let (from, to) = (mv.from(), mv.to());
    let piece = pos.piece_at(from)?;
    let (color, kind) = (piece.color(), piece.kind());
    let pieces = on_file(pos, color, kind, from.file());
    let (index, count) = if matches!(kind, PieceKind::Advisor | PieceKind::Elephant) || pieces.len() < 2 {
        (0, 1)
    } else {
        let i = pieces.iter().position(|&s| s == from).unwrap_or(0);
        (i as u8, pieces.len() as u8)
    };
    let two_files = kind == PieceKind::Pawn
        && count >= 2
        && (0..9).any(|f| f != from.file() && on_file(pos, color, kind, f).len() >= 2);
    let forward = match color {
        Color::Red => to.rank() > from.rank(),
        Color::Black => to.rank() < from.rank(),
    };
    let (action, arg) = if from.rank() == to.rank() {
        (Action::Sideways, number(color, to.file()))
    } else {
        let action = if forward { Action::Forward } else { Action::Backward };
        let arg = if straight(kind) {
            (to.rank() as i32 - from.rank() as i32).unsigned_abs() as u8
        } else {
            number(color, to.file())
        };
        (action, arg)
    };
    Some(Described {
        color,
        kind,
        file: number(color, from.file()),
        index,
        count,
        two_files,
        action,
        arg,
    })
}

// ---- WXF ------------------------------------------------------------------------------

fn wxf_letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Rook => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Pawn => 'P',
    }
}

fn wxf_kind(c: char) -> Option<PieceKind> {
    Some(match c.to_ascii_uppercase() {
        'K' | 'G' => PieceKind::King,
        'A' => PieceKind::Advisor,
        'E' | 'B' => PieceKind::Elephant,
        'H' | 'N' => PieceKind::Horse,
        'R' => PieceKind::Rook,
        'C' => PieceKind::Cannon,
        'P' => PieceKind::Pawn,
        _ => return None,
    })
}

impl Described {
    /// `C2=5`, `H8+7`, `R+-1`, `P3=4`, `++=4`, `3+=4`.
    pub(super) fn wxf(&self) -> String {
        let letter = wxf_letter(self.kind);
        let digit = char::from(b'0' + self.file);
        let (i, n) = (self.index, self.count);
        let head: [char; 2] = if n == 1 {
            [letter, digit]
        } else if self.two_files {
            let place = if i == 0 {
                '+'
            } else if i + 1 == n {
                '-'
            } else {
                digit
            };
            [digit, place]
        } else if n <= 3 {
            let place = if i == 0 {
                '+'
            } else if i + 1 == n {
                '-'
            } else {
                digit
            };
            [letter, place]
        } else if i == 0 {
            ['+', '+']
        } else if i + 1 == n {
            ['-', '-']
        } else if i == 1 {
            [letter, '+']
        } else if i + 2 == n {
            [letter, '-']
        } else {
            [letter, digit]
        };
        let action = match self.action {
            Action::Forward => '+',
            Action::Backward => '-',
            Action::Sideways => '=',
        };
        format!("{}{}{action}{}", head[0], head[1], self.arg)
    }

    /// `炮二平五`, `马8进7`, `前车进一`, `中兵平四`, `前三平四`.
    pub(super) fn chinese(&self) -> String {
        let name = chinese_name(self.color, self.kind);
        let num = |n: u8| match self.color {
            Color::Red => chinese_numeral(n),
            Color::Black => char::from(b'0' + n),
        };
        let (i, n) = (self.index, self.count);
        let place = if i == 0 {
            '前'
        } else if i + 1 == n {
            '后'
        } else if n == 3 {
            '中'
        } else {
            chinese_numeral(i + 1)
        };
        let head: [char; 2] = if n == 1 {
            [name, num(self.file)]
        } else if self.two_files {
            [place, num(self.file)]
        } else {
            [place, name]
        };
        let action = match self.action {
            Action::Forward => '进',
            Action::Backward => '退',
            Action::Sideways => '平',
        };
        format!("{}{}{action}{}", head[0], head[1], num(self.arg))
    }
}

/// Reads a WXF move.
pub(super) fn parse_wxf(text: &str) -> Result<Written, NotationError> {
    let bad = || NotationError::Syntax {
        text: text.to_string(),
        notation: Notation::Wxf,
    };
    let c: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if c.len() < 3 || c.len() > 4 {
        return Err(bad());
    }
    let digit = |ch: char| ch.to_digit(10).filter(|&d| (1..=9).contains(&d)).map(|d| d as u8);
    let (kind, which) = match (c[0], c[1]) {
        ('+', '+') => (PieceKind::Pawn, Which::Tandem(Place::Front, None)),
        ('-', '-') => (PieceKind::Pawn, Which::Tandem(Place::Rear, None)),
        (s @ ('+' | '-'), l) if l.is_ascii_alphabetic() => {
            let kind = wxf_kind(l).ok_or_else(|| NotationError::UnknownPiece(l.to_string()))?;
            let place = if s == '+' { Place::Front } else { Place::Rear };
            (kind, Which::Tandem(place, None))
        }
        (d, p) if digit(d).is_some() => {
            let n = digit(d).ok_or_else(bad)?;
            let place = match p {
                '+' => Place::Plus,
                '-' => Place::Minus,
                p if digit(p) == Some(n) => Place::Middle,
                _ => return Err(bad()),
            };
            (PieceKind::Pawn, Which::Tandem(place, Some(n)))
        }
        (l, p) if l.is_ascii_alphabetic() => {
            let kind = wxf_kind(l).ok_or_else(|| NotationError::UnknownPiece(l.to_string()))?;
            let which = match p {
                '+' => Which::Tandem(Place::Plus, None),
                '-' => Which::Tandem(Place::Minus, None),
                p => Which::File(digit(p).ok_or_else(bad)?),
            };
            (kind, which)
        }
        _ => return Err(bad()),
    };
    let (action, rest) = match (c.len(), c[2]) {
        (4, '+') => (Action::Forward, c[3]),
        (4, '-') => (Action::Backward, c[3]),
        (4, '.' | '=') => (Action::Sideways, c[3]),
        (3, d) if d.is_ascii_digit() => (Action::Sideways, d),
        _ => return Err(bad()),
    };
    let arg = digit(rest).ok_or_else(bad)?;
    Ok(Written {
        kind,
        which,
        action,
        arg,
    })
}

// ---- Chinese --------------------------------------------------------------------------

/// The simplified name each side's piece is written with.
fn chinese_name(color: Color, kind: PieceKind) -> char {
    match (color, kind) {
        (Color::Red, PieceKind::King) => '帅',
        (Color::Black, PieceKind::King) => '将',
        (Color::Red, PieceKind::Advisor) => '仕',
        (Color::Black, PieceKind::Advisor) => '士',
        (Color::Red, PieceKind::Elephant) => '相',
        (Color::Black, PieceKind::Elephant) => '象',
        (_, PieceKind::Horse) => '马',
        (_, PieceKind::Rook) => '车',
        (_, PieceKind::Cannon) => '炮',
        (Color::Red, PieceKind::Pawn) => '兵',
        (Color::Black, PieceKind::Pawn) => '卒',
    }
}

/// Any of the names, traditional or simplified, of either side.
fn chinese_kind(c: char) -> Option<PieceKind> {
    Some(match c {
        '帥' | '帅' | '将' | '將' => PieceKind::King,
        '仕' | '士' => PieceKind::Advisor,
        '相' | '象' => PieceKind::Elephant,
        '馬' | '马' | '傌' | '瑪' => PieceKind::Horse,
        '車' | '车' | '俥' | '伡' => PieceKind::Rook,
        '炮' | '砲' | '包' => PieceKind::Cannon,
        '兵' | '卒' => PieceKind::Pawn,
        _ => return None,
    })
}

/// 一…九, 1…9 and １…９.
fn chinese_number(c: char) -> Option<u8> {
    if let Some(d) = c.to_digit(10) {
        return (1..=9).contains(&d).then_some(d as u8);
    }
    if ('１'..='９').contains(&c) {
        return Some(c as u32 as u8 - ('１' as u32 as u8) + 1);
    }
    "一二三四五六七八九".chars().position(|x| x == c).map(|i| i as u8 + 1)
}

/// Reads a Chinese move.
pub(super) fn parse_chinese(text: &str) -> Result<Written, NotationError> {
    let bad = || NotationError::Syntax {
        text: text.to_string(),
        notation: Notation::Chinese,
    };
    let c: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if c.len() != 4 {
        return match c.first() {
            Some(&ch) if c.len() >= 2 && chinese_kind(ch).is_none() && chinese_place(ch).is_none() => {
                Err(NotationError::UnknownPiece(ch.to_string()))
            }
            _ => Err(bad()),
        };
    }
    let (kind, which) = if let Some(kind) = chinese_kind(c[0]) {
        (kind, Which::File(chinese_number(c[1]).ok_or_else(bad)?))
    } else if let Some(place) = chinese_place(c[0]) {
        if let Some(kind) = chinese_kind(c[1]) {
            (kind, Which::Tandem(place, None))
        } else if let (Some(n), false) = (chinese_number(c[1]), matches!(place, Place::Nth(_))) {
            (PieceKind::Pawn, Which::Tandem(place, Some(n)))
        } else {
            return Err(NotationError::UnknownPiece(c[1].to_string()));
        }
    } else {
        return Err(NotationError::UnknownPiece(c[0].to_string()));
    };
    let action = match c[2] {
        '进' | '進' => Action::Forward,
        '退' => Action::Backward,
        '平' => Action::Sideways,
        _ => return Err(bad()),
    };
    let arg = chinese_number(c[3]).ok_or_else(bad)?;
    Ok(Written {
        kind,
        which,
        action,
        arg,
    })
}

/// 前, 中, 后/後, and the ordinals 一…五 (counted from the front).
fn chinese_place(c: char) -> Option<Place> {
    match c {
        '前' => Some(Place::Front),
        '后' | '後' => Some(Place::Rear),
        '中' => Some(Place::Middle),
        _ => chinese_number(c).filter(|&n| n <= 5).map(Place::Nth),
    }
}
