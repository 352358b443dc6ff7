//! `chariot match`: engine-vs-engine matches with rules adjudication, Elo and SPRT.

/// `chariot match …`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {}

pub fn run(_args: &MatchArgs) -> anyhow::Result<()> {
    anyhow::bail!("match is not built yet")
}
