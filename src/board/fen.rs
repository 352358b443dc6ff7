//! FEN: parse (strictly validated) and print, as the protocol contract describes.
//!
//! Composed positions (排局) are accepted: a pawn on a point no game can bring it to (behind
//! its starting rank, or off its file before the river) is legal to play from, and
//! [`Position::composed_warning`] names it so that the protocol can say so once. Pawns
//! move forward only until they cross the river, wherever they start, so such a pawn needs
//! no rule of its own.

use super::{attacks, Position};
use crate::core::{Color, Piece, PieceKind, Square};
use std::fmt;

pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN was rejected; ranks are named by board rank (9 at the top of the FEN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    RankCount(usize),
    RankWidth { rank: u8, squares: usize },
    UnknownLetter { rank: u8, letter: char },
    BadSide(String),
    BadCounter { field: &'static str, value: String },
    TooManyFields(usize),
    KingCount { color: Color, count: u32 },
    Misplaced { piece: Piece, square: Square },
    TooMany { color: Color, kind: PieceKind, count: u32 },
    KingsFacing,
    SideNotToMoveInCheck(Color),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RankCount(n) => write!(f, "board field has {n} ranks, expected 10"),
            FenError::RankWidth { rank, squares } => {
                write!(f, "rank {rank} has {squares} squares, expected 9")
            }
            FenError::UnknownLetter { rank, letter } => {
                write!(f, "rank {rank} has unknown piece letter '{letter}'")
            }
            FenError::BadSide(s) => write!(f, "side to move field is '{s}', expected w, r or b"),
            FenError::BadCounter { field, value } => {
                write!(f, "{field} field is '{value}', expected a non-negative number")
            }
            FenError::TooManyFields(n) => write!(f, "FEN has {n} fields, at most 6 are allowed"),
            FenError::KingCount { color, count } => {
                write!(f, "{} has {count} kings, expected exactly 1", color.name())
            }
            FenError::Misplaced { piece, square } => write!(
                f,
                "{} {} on {square} is on a point it can never reach",
                piece.color().name().to_lowercase(),
                piece.kind().name()
            ),
            FenError::TooMany { color, kind, count } => write!(
                f,
                "{} has {count} pieces of kind {}, at most {} allowed",
                color.name(),
                kind.name(),
                kind.initial_count()
            ),
            FenError::KingsFacing => write!(f, "the kings face each other on an open file"),
            FenError::SideNotToMoveInCheck(c) => {
                write!(f, "{} is not to move but is in check", c.name())
            }
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// Parses and validates a FEN; only the board field is required (side defaults to Red).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let Some(board) = fields.first() else {
            return Err(FenError::Empty);
        };
        if fields.len() > 6 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let mut pos = Position::empty();
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount(ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0usize;
            let mut placed = Vec::with_capacity(9);
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(FenError::UnknownLetter { rank, letter: c });
                    }
                    file += d as usize;
                } else if let Some(p) = Piece::from_letter(c) {
                    placed.push((file, p));
                    file += 1;
                } else {
                    return Err(FenError::UnknownLetter { rank, letter: c });
                }
            }
            if file != 9 {
                return Err(FenError::RankWidth { rank, squares: file });
            }
            for (f, p) in placed {
                pos.put(p, Square::new(f as u8, rank));
            }
        }
        let side = match fields.get(1).copied() {
            None | Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(s) => return Err(FenError::BadSide(s.to_string())),
        };
        pos.set_side(side);
        let counter = |i: usize, field: &'static str, default: u32| -> Result<u32, FenError> {
            match fields.get(i) {
                None => Ok(default),
                Some(v) => v.parse::<u32>().map_err(|_| FenError::BadCounter {
                    field,
                    value: v.to_string(),
                }),
            }
        };
        let rule60 = counter(4, "halfmove clock (field 5)", 0)?;
        let fullmove = counter(5, "move number (field 6)", 1)?;
        pos.finish_setup(rule60.min(u16::MAX as u32) as u16, fullmove);
        pos.validate()?;
        Ok(pos)
    }

    fn validate(&self) -> Result<(), FenError> {
        for color in Color::BOTH {
            let kings = self.pieces(color, PieceKind::King).count();
            if kings != 1 {
                return Err(FenError::KingCount { color, count: kings });
            }
        }
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                let bb = self.pieces(color, kind);
                // Pawns may stand anywhere (composed positions): see `composed_warning`.
                let outside = if kind == PieceKind::Pawn {
                    crate::core::Bitboard::EMPTY
                } else {
                    bb & !attacks::home_squares(color, kind)
                };
                if let Some(square) = outside.first() {
                    return Err(FenError::Misplaced {
                        piece: Piece::new(color, kind),
                        square,
                    });
                }
                if bb.count() > kind.initial_count() {
                    return Err(FenError::TooMany {
                        color,
                        kind,
                        count: bb.count(),
                    });
                }
            }
        }
        let (rk, bk) = (self.king_square(Color::Red), self.king_square(Color::Black));
        if rk.file() == bk.file() && (attacks::between(rk, bk) & self.occupied()).is_empty() {
            return Err(FenError::KingsFacing);
        }
        let waiting = !self.side_to_move();
        if self.king_attacked(waiting) {
            return Err(FenError::SideNotToMoveInCheck(waiting));
        }
        Ok(())
    }

    /// The pawns that stand where no game can bring them (a composed position), as one
    /// sentence naming each, or `None` when there is none.
    pub fn composed_warning(&self) -> Option<String> {
        let mut parts = Vec::new();
        for color in Color::BOTH {
            let odd = self.pieces(color, PieceKind::Pawn) & !attacks::home_squares(color, PieceKind::Pawn);
            for sq in odd {
                let start_rank = if color == Color::Red { 3 } else { 6 };
                let behind = match color {
                    Color::Red => sq.rank() < start_rank,
                    Color::Black => sq.rank() > start_rank,
                };
                let where_ = if behind {
                    "behind its starting rank"
                } else {
                    "off its file on its own side of the river"
                };
                parts.push(format!("{} pawn on {sq} stands {where_}", color.name().to_lowercase()));
            }
        }
        (!parts.is_empty()).then(|| {
            format!(
                "composed position: {}, where no game can bring it; it moves forward until it crosses the river",
                parts.join(", ")
            )
        })
    }

    /// The FEN of this position, with `B` and `N` for elephant and horse.
    pub fn fen(&self) -> String {
        let side = if self.side_to_move() == Color::Red { 'w' } else { 'b' };
        let board = board_field(|sq| self.piece_at(sq));
        format!("{board} {side} - - {} {}", self.rule60(), self.fullmove())
    }
}

/// FEN's first field (the ranks from Black's side, `/`-separated) for the pieces `piece_at`
/// reports, with `B` and `N` for elephant and horse.
pub fn board_field(piece_at: impl Fn(Square) -> Option<Piece>) -> String {
    let mut s = String::with_capacity(90);
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            match piece_at(Square::new(file, rank)) {
                Some(p) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(p.letter());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}
