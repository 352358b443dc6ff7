//! Drawing the board for `chariot play`: Chinese pieces on a lined board in colour, or plain
//! ASCII letters; seen from either side, with file labels for both players (ICCS letters and
//! each side's numbers from its own right), rank digits, and the last move marked.

use crate::board::Position;
use crate::core::{Color, Move, Piece, PieceKind, Square};

const RED: &str = "\x1b[1;31m";
const BLACK: &str = "\x1b[1;36m";
const MARK: &str = "\x1b[7m";
const FROM: &str = "\x1b[1;33m";
const DIM: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";

/// The traditional glyph: Red 帥仕相傌俥炮兵, Black 將士象馬車砲卒.
pub fn glyph(p: Piece) -> char {
    match (p.color(), p.kind()) {
        (Color::Red, PieceKind::King) => '帥',
        (Color::Red, PieceKind::Advisor) => '仕',
        (Color::Red, PieceKind::Elephant) => '相',
        (Color::Red, PieceKind::Horse) => '傌',
        (Color::Red, PieceKind::Rook) => '俥',
        (Color::Red, PieceKind::Cannon) => '炮',
        (Color::Red, PieceKind::Pawn) => '兵',
        (Color::Black, PieceKind::King) => '將',
        (Color::Black, PieceKind::Advisor) => '士',
        (Color::Black, PieceKind::Elephant) => '象',
        (Color::Black, PieceKind::Horse) => '馬',
        (Color::Black, PieceKind::Rook) => '車',
        (Color::Black, PieceKind::Cannon) => '砲',
        (Color::Black, PieceKind::Pawn) => '卒',
    }
}

/// The point shown in display row `row` (0 = top) and column `col` (0 = left) when `bottom`
/// sits at the bottom of the screen.
fn point(bottom: Color, row: u8, col: u8) -> Square {
    match bottom {
        Color::Red => Square::new(col, 9 - row),
        Color::Black => Square::new(8 - col, row),
    }
}

/// A file's number for `color` (1–9 from its right), as that side writes it.
fn file_label(color: Color, file: u8, fancy: bool) -> String {
    let n = crate::notation::file_number(color, file);
    match (color, fancy) {
        (Color::Red, true) => crate::notation::chinese_numeral(n).to_string(),
        _ => n.to_string(),
    }
}

/// The board as text, `bottom` nearest the player, `last` marked.
pub fn render(pos: &Position, last: Option<Move>, bottom: Color, fancy: bool) -> String {
    if fancy {
        render_fancy(pos, last, bottom)
    } else {
        render_ascii(pos, last, bottom)
    }
}

fn render_ascii(pos: &Position, last: Option<Move>, bottom: Color) -> String {
    let mut s = String::new();
    let labels = |color: Color| -> String {
        (0..9)
            .map(|c| format!("{:^3}", file_label(color, point(bottom, 0, c).file(), false)))
            .collect()
    };
    let letters: String = (0..9)
        .map(|c| format!(" {} ", (b'a' + point(bottom, 0, c).file()) as char))
        .collect();
    s.push_str(&format!("    {}  ({} files)\n", labels(!bottom), (!bottom).name()));
    for row in 0..10u8 {
        let rank = point(bottom, row, 0).rank();
        s.push_str(&format!(" {rank}  "));
        for col in 0..9u8 {
            let sq = point(bottom, row, col);
            let c = pos.piece_at(sq).map_or('.', |p| p.letter());
            let cell = match last {
                Some(m) if m.to() == sq => format!("[{c}]"),
                Some(m) if m.from() == sq => "[ ]".to_string(),
                _ => format!(" {c} "),
            };
            s.push_str(&cell);
        }
        s.push_str(&format!("  {rank}\n"));
        if row == 4 {
            s.push_str("    ~~~~~~~~~~~~ river ~~~~~~~~~~~~\n");
        }
    }
    s.push_str(&format!("    {letters}\n"));
    s.push_str(&format!("    {}  ({} files)\n", labels(bottom), bottom.name()));
    s
}

/// Whether the two points are joined by a palace diagonal.
fn palace_diagonal(a: Square, b: Square) -> bool {
    let palace = |s: Square| (3..=5).contains(&s.file()) && (s.rank() <= 2 || s.rank() >= 7);
    let centre = |s: Square| s.file() == 4 && (s.rank() == 1 || s.rank() == 8);
    palace(a) && palace(b) && (a.rank() <= 2) == (b.rank() <= 2) && (centre(a) || centre(b))
}

fn render_fancy(pos: &Position, last: Option<Move>, bottom: Color) -> String {
    let mut s = String::new();
    let labels = |color: Color| -> String {
        (0..9)
            .map(|c| {
                let l = file_label(color, point(bottom, 0, c).file(), true);
                // Chinese numerals are two columns wide, digits one.
                let pad = if l.is_ascii() { 3 } else { 2 };
                format!("{l}{}", " ".repeat(pad))
            })
            .collect()
    };
    s.push_str(&format!("    {DIM}{}{RESET}\n", labels(!bottom)));
    for row in 0..10u8 {
        let rank = point(bottom, row, 0).rank();
        s.push_str(&format!("{DIM}{rank}{RESET}   "));
        for col in 0..9u8 {
            let sq = point(bottom, row, col);
            let joint = match (row, col) {
                (0, 0) => '┌',
                (0, 8) => '┐',
                (0, _) => '┬',
                (9, 0) => '└',
                (9, 8) => '┘',
                (9, _) => '┴',
                (_, 0) => '├',
                (_, 8) => '┤',
                (4, _) => '┴',
                (5, _) => '┬',
                _ => '┼',
            };
            let cell = match pos.piece_at(sq) {
                Some(p) => {
                    let colour = if p.color() == Color::Red { RED } else { BLACK };
                    let mark = if last.is_some_and(|m| m.to() == sq) { MARK } else { "" };
                    format!("{colour}{mark}{}{RESET}", glyph(p))
                }
                None if last.is_some_and(|m| m.from() == sq) => format!("{FROM}◦{RESET} "),
                None => format!("{joint}{}", if col == 8 { ' ' } else { '─' }),
            };
            s.push_str(&cell);
            if col < 8 {
                s.push_str("──");
            }
        }
        s.push_str(&format!(" {DIM}{rank}{RESET}\n"));
        if row == 9 {
            break;
        }
        s.push_str("    ");
        if row == 4 {
            s.push_str("│   楚 河                漢 界   │\n");
            continue;
        }
        for col in 0..9u8 {
            s.push('│');
            if col == 8 {
                break;
            }
            let (ul, ur) = (point(bottom, row, col), point(bottom, row, col + 1));
            let (ll, lr) = (point(bottom, row + 1, col), point(bottom, row + 1, col + 1));
            s.push_str(if palace_diagonal(ul, lr) {
                " ╲ "
            } else if palace_diagonal(ur, ll) {
                " ╱ "
            } else {
                "   "
            });
        }
        s.push('\n');
    }
    s.push_str("    ");
    for col in 0..9u8 {
        s.push_str(&format!(
            "{DIM}{}{RESET}   ",
            (b'a' + point(bottom, 0, col).file()) as char
        ));
    }
    s.push('\n');
    s.push_str(&format!("    {DIM}{}{RESET}\n", labels(bottom)));
    s
}
