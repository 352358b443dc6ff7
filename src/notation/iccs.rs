//! ICCS coordinates: the from-point and the to-point, files `a`–`i` from Red's left and ranks
//! `0`–`9` from Red's side. Printed in lower case (`h2e2`, as the protocols and PGN use it) or
//! in the traditional upper case with a dash (`H2-E2`); both, and `h2-e2` and `H2E2`, are read.

use super::{explain, NotationError};
use crate::board::Position;
use crate::core::Move;

/// `h2e2`.
pub fn format(mv: Move) -> String {
    mv.to_string()
}

/// `H2-E2`.
pub fn format_upper(mv: Move) -> String {
    let s = mv.to_string().to_ascii_uppercase();
    format!("{}-{}", &s[..2], &s[2..])
}

/// Reads coordinates without a position: syntax only.
pub fn parse_syntax(text: &str) -> Result<Move, NotationError> {
    Move::parse(text.trim()).map_err(|_| NotationError::Syntax {
        text: text.trim().to_string(),
        notation: super::Notation::Iccs,
    })
}

/// Reads coordinates and checks them against the legal moves of `pos`; an illegal move is
/// refused with the reason.
pub fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let mv = parse_syntax(text)?;
    match explain(pos, mv) {
        None => Ok(mv),
        Some(reason) => Err(NotationError::Illegal { mv: Some(mv), reason }),
    }
}
