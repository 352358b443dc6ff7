//! Why a move is not legal, in words a player understands: the horse's leg or the elephant's
//! eye is blocked, the elephant would cross the river, the king would be left in check or
//! face the other king, or the piece simply does not move that way.

use crate::board::{attacks, Position};
use crate::core::{Color, Move, PieceKind, Square};
use std::fmt;

/// The reason a move is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No piece stands on the from-point.
    NoPiece(Square),
    /// The piece on the from-point belongs to the other side.
    NotYours(Square),
    /// One of the mover's own pieces stands on the to-point.
    OwnPiece(Square),
    /// The point next to the horse in the direction it goes is occupied.
    HorseLeg(Square),
    /// The point between the elephant and its destination is occupied.
    ElephantEye(Square),
    /// Elephants stay on their own side of the river.
    ElephantRiver,
    /// Kings and advisors stay inside the palace.
    Palace(PieceKind),
    PawnBackward,
    /// Pawns move sideways only after crossing the river.
    PawnSideways,
    /// A rook or a (non-capturing) cannon has a piece in its way.
    Blocked(PieceKind, Square),
    /// A cannon captures by jumping over exactly one piece.
    CannonScreen,
    /// The move leaves (or keeps) the mover's king in check.
    KingInCheck,
    /// The move opens the file between the two kings.
    KingsFace,
    /// The piece does not move in that shape at all.
    Unlike(PieceKind),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Refusal::NoPiece(sq) => write!(f, "there is no piece on {sq}"),
            Refusal::NotYours(sq) => write!(f, "the piece on {sq} is not yours"),
            Refusal::OwnPiece(sq) => write!(f, "your own piece stands on {sq}"),
            Refusal::HorseLeg(sq) => write!(f, "the horse's leg is blocked (by the piece on {sq})"),
            Refusal::ElephantEye(sq) => write!(f, "the elephant's eye is blocked (by the piece on {sq})"),
            Refusal::ElephantRiver => write!(f, "the elephant may not cross the river"),
            Refusal::Palace(kind) => write!(f, "the {} may not leave the palace", kind.name()),
            Refusal::PawnBackward => write!(f, "a pawn never moves backwards"),
            Refusal::PawnSideways => write!(f, "a pawn may move sideways only after crossing the river"),
            Refusal::Blocked(kind, sq) => write!(f, "the {}'s way is blocked (by the piece on {sq})", kind.name()),
            Refusal::CannonScreen => write!(f, "a cannon captures only by jumping over exactly one piece"),
            Refusal::KingInCheck => write!(f, "it would leave your king in check"),
            Refusal::KingsFace => write!(f, "the kings would face each other"),
            Refusal::Unlike(kind) => {
                let how = match kind {
                    PieceKind::King => "steps one point along a line, inside the palace",
                    PieceKind::Advisor => "steps one point diagonally, inside the palace",
                    PieceKind::Elephant => "moves exactly two points diagonally",
                    PieceKind::Horse => "moves one point straight, then one diagonally outwards",
                    PieceKind::Rook | PieceKind::Cannon => "moves along a rank or a file",
                    PieceKind::Pawn => "steps one point forward, or sideways once across the river",
                };
                write!(f, "this piece cannot move like that (a {} {how})", kind.name())
            }
        }
    }
}

fn in_palace(color: Color, sq: Square) -> bool {
    let ranks = match color {
        Color::Red => 0..=2,
        Color::Black => 7..=9,
    };
    (3..=5).contains(&sq.file()) && ranks.contains(&sq.rank())
}

fn at(file: i32, rank: i32) -> Square {
    Square::new(file as u8, rank as u8)
}

/// Why `mv` is not legal in `pos`, or `None` when it is.
pub fn explain(pos: &Position, mv: Move) -> Option<Refusal> {
    if pos.is_legal(mv) {
        return None;
    }
    let (from, to) = (mv.from(), mv.to());
    let Some(piece) = pos.piece_at(from) else {
        return Some(Refusal::NoPiece(from));
    };
    let color = piece.color();
    if color != pos.side_to_move() {
        return Some(Refusal::NotYours(from));
    }
    if pos.piece_at(to).is_some_and(|p| p.color() == color) {
        return Some(Refusal::OwnPiece(to));
    }
    let kind = piece.kind();
    let (f0, r0) = (from.file() as i32, from.rank() as i32);
    let (df, dr) = (to.file() as i32 - f0, to.rank() as i32 - r0);
    let occ = pos.occupied();
    let shape = match kind {
        PieceKind::King if df.abs() + dr.abs() == 1 => (!in_palace(color, to)).then_some(Refusal::Palace(kind)),
        PieceKind::Advisor if df.abs() == 1 && dr.abs() == 1 => {
            (!in_palace(color, to)).then_some(Refusal::Palace(kind))
        }
        PieceKind::Elephant if df.abs() == 2 && dr.abs() == 2 => {
            let eye = at(f0 + df / 2, r0 + dr / 2);
            if to.across_river(color) {
                Some(Refusal::ElephantRiver)
            } else if occ.has(eye) {
                Some(Refusal::ElephantEye(eye))
            } else {
                None
            }
        }
        PieceKind::Horse if (df.abs(), dr.abs()) == (1, 2) || (df.abs(), dr.abs()) == (2, 1) => {
            let leg = if dr.abs() == 2 {
                at(f0, r0 + dr / 2)
            } else {
                at(f0 + df / 2, r0)
            };
            occ.has(leg).then_some(Refusal::HorseLeg(leg))
        }
        PieceKind::Rook if df == 0 || dr == 0 => (attacks::between(from, to) & occ)
            .first()
            .map(|sq| Refusal::Blocked(kind, sq)),
        PieceKind::Cannon if df == 0 || dr == 0 => {
            let screens = attacks::between(from, to) & occ;
            if pos.piece_at(to).is_some() {
                (screens.count() != 1).then_some(Refusal::CannonScreen)
            } else {
                screens.first().map(|sq| Refusal::Blocked(kind, sq))
            }
        }
        PieceKind::Pawn => {
            let forward = if color == Color::Red { dr } else { -dr };
            if forward < 0 {
                Some(Refusal::PawnBackward)
            } else if forward == 0 && df.abs() == 1 {
                (!from.across_river(color)).then_some(Refusal::PawnSideways)
            } else if forward == 1 && df == 0 {
                None
            } else {
                Some(Refusal::Unlike(kind))
            }
        }
        _ => Some(Refusal::Unlike(kind)),
    };
    if shape.is_some() {
        return shape;
    }
    if !pos.piece_targets(from).has(to) {
        return Some(Refusal::Unlike(kind));
    }
    // The shape is right: the move fails on the king's safety.
    let mut after = pos.clone();
    after.make_move(mv);
    let (ours, theirs) = (after.king_square(color), after.king_square(!color));
    if ours.file() == theirs.file() && (attacks::between(ours, theirs) & after.occupied()).is_empty() {
        return Some(Refusal::KingsFace);
    }
    Some(Refusal::KingInCheck)
}
