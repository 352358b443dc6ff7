//! `chariot bench`: a fixed set of positions searched to a fixed depth; its node count is the
//! signature every commit that changes play carries (`Bench: N`).

/// `chariot bench [depth]`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth for every position.
    pub depth: Option<u32>,
}

pub fn run(_args: &BenchArgs) -> anyhow::Result<()> {
    anyhow::bail!("bench is not built yet")
}
