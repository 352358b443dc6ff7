//! The evaluation graph of a review as SVG (drawn with `plotters`): Red's winning chances
//! after every reviewed move (the expected score of the search's verdict, 0–100%), the
//! marked moves as dots in the mark's colour with the mark beside them, the 50% line, and
//! both players named in the title.

use super::review::{GameReview, Mark};
use crate::core::Color;
use crate::search::expected_score;
use plotters::prelude::*;
use plotters::style::Color as _;

/// The colour of each mark.
fn mark_colour(mark: Mark) -> RGBColor {
    match mark {
        Mark::Inaccuracy => RGBColor(0xE6, 0xB4, 0x00),
        Mark::Mistake => RGBColor(0xF0, 0x78, 0x00),
        Mark::Blunder => RGBColor(0xD0, 0x10, 0x10),
    }
}

/// The SVG text of the graph of `review`; `names` are the players, Red's first, and `sides`
/// the sides whose marks are drawn.
pub fn svg(review: &GameReview, names: [&str; 2], sides: &[Color]) -> Result<String, String> {
    let mut out = String::new();
    draw(&mut out, review, names, sides).map_err(|e| e.to_string())?;
    Ok(out)
}

/// Red's winning chances in percent for a score from `side`'s view.
fn red_percent(side: Color, score: i32) -> f64 {
    let red = if side == Color::Red { score } else { -score };
    100.0 * expected_score(red)
}

fn draw(
    out: &mut String,
    review: &GameReview,
    names: [&str; 2],
    sides: &[Color],
) -> Result<(), Box<dyn std::error::Error>> {
    let first = review.moves.first().map_or(0, |m| m.ply);
    let last = review.moves.last().map_or(first + 1, |m| m.ply + 1);
    let mut points: Vec<(f64, f64)> = Vec::with_capacity(review.moves.len() + 1);
    if let Some(m) = review.moves.first() {
        points.push((m.ply as f64, red_percent(m.side, m.before)));
    }
    points.extend(
        review
            .moves
            .iter()
            .map(|m| ((m.ply + 1) as f64, red_percent(m.side, m.after))),
    );

    let root = SVGBackend::with_string(out, (960, 440)).into_drawing_area();
    root.fill(&WHITE)?;
    let title = format!("Red: {}  vs  Black: {}", names[0], names[1]);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(first as f64..last as f64, 0.0..100.0)?;
    chart
        .configure_mesh()
        .x_desc("ply (half-moves)")
        .y_desc("Red's winning chances (%)")
        .y_labels(5)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}%"))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    let red = RGBColor(0xC8, 0x1E, 0x1E);
    chart.draw_series(AreaSeries::new(points.iter().copied(), 0.0, red.mix(0.15)).border_style(red.stroke_width(2)))?;
    chart.draw_series(LineSeries::new(
        [(first as f64, 50.0), (last as f64, 50.0)],
        BLACK.mix(0.4).stroke_width(1),
    ))?;
    for mark in Mark::ALL {
        let colour = mark_colour(mark);
        let dots: Vec<(f64, f64)> = review
            .moves
            .iter()
            .filter(|m| m.mark == Some(mark) && sides.contains(&m.side))
            .map(|m| ((m.ply + 1) as f64, red_percent(m.side, m.after)))
            .collect();
        chart
            .draw_series(dots.iter().map(|&p| {
                EmptyElement::at(p)
                    + Circle::new((0, 0), 5, colour.filled())
                    + Text::new(mark.symbol(), (7, -16), ("sans-serif", 15).into_font().color(&colour))
            }))?
            .label(format!("{} {}", mark.symbol(), mark.name()))
            .legend(move |(x, y)| Circle::new((x + 8, y), 5, colour.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .draw()?;
    root.present()?;
    Ok(())
}
