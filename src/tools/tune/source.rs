//! Tuned weights written as Rust source: the `PARAMS` constant laid out as in
//! `src/eval/hce/params.rs`, ready to replace it.

use crate::eval::hce::{HalfTable, Params, KIND_NAMES, S};
use std::fmt::Write;

fn pair(v: S) -> String {
    format!("s({}, {})", v.mg, v.eg)
}

fn pairs(v: &[S]) -> String {
    v.iter().map(|&x| pair(x)).collect::<Vec<_>>().join(", ")
}

fn ints(v: &[i32]) -> String {
    v.iter().map(i32::to_string).collect::<Vec<_>>().join(", ")
}

fn tables(out: &mut String, field: &str, tables: &[HalfTable; 7]) {
    let _ = writeln!(out, "    {field}: [");
    for (kind, table) in tables.iter().enumerate() {
        let _ = writeln!(out, "        // {}", KIND_NAMES[kind]);
        for (row, cells) in table.iter().enumerate() {
            let cells = cells.iter().map(|c| format!("{c:>4}")).collect::<Vec<_>>().join(",");
            let open = if row == 0 { "        [[" } else { "         [" };
            let close = if row == 9 { "]]," } else { "]," };
            let _ = writeln!(out, "{open}{cells}{close}");
        }
    }
    let _ = writeln!(out, "    ],");
}

/// `p` as the source of the `PARAMS` constant.
pub fn params_source(p: &Params) -> String {
    // Destructured without `..`, so that a new field cannot be forgotten here.
    let Params {
        material,
        pst_mg,
        pst_eg,
        phase_weight,
        rook_mobility,
        rook_mobility_base,
        rook_open_file,
        rook_semi_open_file,
        horse_mobility,
        horse_mobility_base,
        cannon_mobility,
        cannon_mobility_base,
        cannon_screen_target,
        king_attack_units,
        king_danger_quadratic,
        king_danger_single,
        king_danger_cap,
        missing_advisor,
        missing_elephant,
        hollow_cannon,
        central_horse_pinned,
        bottom_cannon,
        pawn_connected,
        pawn_crossed,
        tempo,
        no_attacker_scale,
    } = p;
    let mut o = String::new();
    let _ = writeln!(o, "/// The weights in use (tuned by `chariot tune`).");
    let _ = writeln!(o, "#[rustfmt::skip]");
    let _ = writeln!(o, "pub const PARAMS: Params = Params {{");
    let _ = writeln!(o, "    // King, Advisor, Elephant, Horse, Rook, Cannon, Pawn");
    let _ = writeln!(o, "    material: [{}],", pairs(material));
    o.push('\n');
    tables(&mut o, "pst_mg", pst_mg);
    o.push('\n');
    tables(&mut o, "pst_eg", pst_eg);
    o.push('\n');
    let _ = writeln!(o, "    //             K  A  E  H  R  C  P");
    let _ = writeln!(o, "    phase_weight: [{}],", ints(phase_weight));
    o.push('\n');
    let _ = writeln!(o, "    rook_mobility: {},", pair(*rook_mobility));
    let _ = writeln!(o, "    rook_mobility_base: {rook_mobility_base},");
    let _ = writeln!(o, "    rook_open_file: {},", pair(*rook_open_file));
    let _ = writeln!(o, "    rook_semi_open_file: {},", pair(*rook_semi_open_file));
    let _ = writeln!(o, "    horse_mobility: {},", pair(*horse_mobility));
    let _ = writeln!(o, "    horse_mobility_base: {horse_mobility_base},");
    let _ = writeln!(o, "    cannon_mobility: {},", pair(*cannon_mobility));
    let _ = writeln!(o, "    cannon_mobility_base: {cannon_mobility_base},");
    let _ = writeln!(o, "    cannon_screen_target: {},", pair(*cannon_screen_target));
    o.push('\n');
    let _ = writeln!(o, "    //                 K  A  E  H  R  C  P");
    let _ = writeln!(o, "    king_attack_units: [{}],", ints(king_attack_units));
    let _ = writeln!(o, "    king_danger_quadratic: {},", pair(*king_danger_quadratic));
    let _ = writeln!(o, "    king_danger_single: {},", pair(*king_danger_single));
    let _ = writeln!(o, "    king_danger_cap: {king_danger_cap},");
    let _ = writeln!(o, "    //                rook, horse, cannon");
    let _ = writeln!(o, "    missing_advisor:  [{}],", pairs(missing_advisor));
    let _ = writeln!(o, "    missing_elephant: [{}],", pairs(missing_elephant));
    let (near, far) = hollow_cannon.split_at(5);
    let _ = writeln!(o, "    // By the cannon's distance from the king, 0..9.");
    let _ = writeln!(o, "    hollow_cannon: [{},", pairs(near));
    let _ = writeln!(o, "                    {}],", pairs(far));
    let _ = writeln!(o, "    central_horse_pinned: {},", pair(*central_horse_pinned));
    let _ = writeln!(o, "    bottom_cannon: {},", pair(*bottom_cannon));
    o.push('\n');
    let _ = writeln!(o, "    pawn_connected: {},", pair(*pawn_connected));
    let _ = writeln!(o, "    pawn_crossed: {},", pair(*pawn_crossed));
    o.push('\n');
    let _ = writeln!(o, "    tempo: {},", pair(*tempo));
    let _ = writeln!(o, "    no_attacker_scale: {no_attacker_scale},");
    let _ = writeln!(o, "}};");
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::hce::PARAMS;

    #[test]
    fn source_of_the_weights_in_use() {
        let src = params_source(&PARAMS);
        assert!(src.contains("pub const PARAMS: Params = Params {"));
        assert!(src.contains(
            "    material: [s(0, 0), s(110, 95), s(110, 95), s(390, 430), s(900, 950), s(430, 400), s(70, 90)],"
        ));
        assert!(src.contains("        // Horse\n        [[   0,  -8,  10,  14,   0],\n"));
        assert!(src.contains("    phase_weight: [0, 0, 0, 3, 6, 3, 0],"));
        assert!(src.contains("    king_danger_cap: 400,"));
        assert!(src.contains("    no_attacker_scale: 8,\n};"));
        // Every table has ten rows.
        assert_eq!(src.matches("]],\n").count(), 14);
    }
}
