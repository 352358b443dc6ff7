//! The machine-readable result of a match (`chariot match --result-json FILE`) and the
//! joining of several (`chariot match --combine A.json B.json …`).
//!
//! A result names the schedule it belongs to (engines, time controls, seed, openings count,
//! rounds: together they fix which opening and colours each game number has) and lists every
//! finished game with its pair. Combining checks that the files share one schedule and that
//! no game or pair appears twice, then recounts W/D/L and the pentanomial pairs from the
//! games with the same [`Tally`] and [`Sprt`] code `chariot match` uses, so a cluster runner
//! that splits a match by opening pairs gets the numbers one `chariot match` would print.

use super::stats::{Sprt, Tally, Verdict};
use anyhow::{anyhow, bail, Context};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The `format` field of a result file.
pub const FORMAT: &str = "chariot-match-result";
/// The `version` field this build writes and reads.
pub const VERSION: u32 = 1;

/// One finished game, from the first engine's point of view where it matters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameEntry {
    /// 1-based game number in the whole schedule (pair `p` holds games `2p+1` and `2p+2`).
    pub number: usize,
    /// 0-based pair (opening played twice, colours swapped) in the whole schedule.
    pub pair: usize,
    /// 1-based round.
    pub round: usize,
    /// 0-based index of the opening in the openings file's list (0 without a file).
    pub opening_index: usize,
    /// The opening's line in its file (0: the built-in start position).
    pub opening_line: usize,
    /// The first engine played Red.
    pub first_is_red: bool,
    pub red: String,
    pub black: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The first engine's points: 0, 0.5 or 1.
    pub points: f64,
    /// The PGN `Termination` value.
    pub termination: String,
    /// Why the game ended, for people.
    pub reason: String,
    /// Plies the engines played (opening moves excluded).
    pub plies: usize,
    /// The engines' moves in ICCS.
    pub moves: Vec<String>,
}

/// The SPRT's settings and state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtState {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    /// `continue`, `H0` or `H1`.
    pub verdict: String,
}

impl SprtState {
    /// The state of `s` after the pairs of `t`.
    pub fn of(s: &Sprt, t: &Tally) -> SprtState {
        let llr = s.llr(&t.penta);
        let (lower, upper) = s.bounds();
        SprtState {
            elo0: s.elo0,
            elo1: s.elo1,
            alpha: s.alpha,
            beta: s.beta,
            llr,
            lower,
            upper,
            verdict: verdict_name(s.verdict(llr)).to_string(),
        }
    }

    /// The test's settings.
    pub fn sprt(&self) -> Sprt {
        Sprt {
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
        }
    }
}

/// `continue`, `H0`, `H1`.
pub fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Continue => "continue",
        Verdict::H0 => "H0",
        Verdict::H1 => "H1",
    }
}

/// A match's result file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// The schedule it belongs to (its fields stand at the top level of the JSON).
    #[serde(flatten)]
    pub schedule: Schedule,
    /// The pairs this result was to play (sorted).
    pub pairs: Vec<usize>,
    /// Every game of those pairs finished (no Ctrl-C, no fault, no early SPRT stop).
    pub complete: bool,
    pub interrupted: bool,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Pairs by the first engine's points: 0, ½, 1, 1½, 2.
    pub penta: [u64; 5],
    pub score: f64,
    pub elo: Option<f64>,
    /// Half the 95% interval.
    pub elo_error95: Option<f64>,
    pub los: Option<f64>,
    pub sprt: Option<SprtState>,
    /// The finished games, by game number.
    pub games: Vec<GameEntry>,
}

/// The schedule a result belongs to: results combine only when their schedules are equal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Schedule {
    /// The engines' names, first engine first.
    pub engines: [String; 2],
    /// Each engine's time control.
    pub tc: [String; 2],
    pub seed: u64,
    /// How many openings the schedule draws from.
    pub openings: usize,
    pub rounds: u32,
    /// Pairs in the whole schedule (openings × rounds).
    pub pairs_total: usize,
}

impl MatchResult {
    /// A result of `games` (any order) for `pairs` of `schedule`, counted with `tally_of`.
    pub fn new(
        schedule: &Schedule,
        pairs: Vec<usize>,
        mut games: Vec<GameEntry>,
        complete: bool,
        interrupted: bool,
        sprt: Option<&Sprt>,
    ) -> MatchResult {
        games.sort_by_key(|g| g.number);
        let t = tally_of(&games);
        MatchResult {
            format: FORMAT.to_string(),
            version: VERSION,
            schedule: schedule.clone(),
            pairs,
            complete,
            interrupted,
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
            penta: t.penta,
            score: t.score(),
            elo: t.elo(),
            elo_error95: t.elo_error95(),
            los: t.los(),
            sprt: sprt.map(|s| SprtState::of(s, &t)),
            games,
        }
    }

    /// The counts as a [`Tally`].
    pub fn tally(&self) -> Tally {
        Tally {
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
            penta: self.penta,
        }
    }

    /// Writes the result to `path` (through a temporary file and a rename, so a reader never
    /// sees half a file).
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        let text = serde_json::to_string_pretty(self).context("cannot encode the result")?;
        let tmp = PathBuf::from(format!("{}.tmp", path.display()));
        std::fs::write(&tmp, text + "\n").with_context(|| format!("cannot write {}", tmp.display()))?;
        std::fs::rename(&tmp, path).with_context(|| format!("cannot rename {} to {}", tmp.display(), path.display()))
    }

    /// Reads and checks a result file.
    pub fn read(path: &Path) -> anyhow::Result<MatchResult> {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let r: MatchResult =
            serde_json::from_str(&text).map_err(|e| anyhow!("{}: not a chariot match result: {e}", path.display()))?;
        if r.format != FORMAT || r.version != VERSION {
            bail!(
                "{}: format '{}' version {} (this build reads '{FORMAT}' version {VERSION})",
                path.display(),
                r.format,
                r.version
            );
        }
        for g in &r.games {
            let why = if g.pair >= r.schedule.pairs_total {
                Some(format!(
                    "pair {} is beyond the schedule's {} pairs",
                    g.pair, r.schedule.pairs_total
                ))
            } else if g.number != 2 * g.pair + 1 && g.number != 2 * g.pair + 2 {
                Some(format!("game {} cannot belong to pair {}", g.number, g.pair))
            } else if ![0.0, 0.5, 1.0].contains(&g.points) {
                Some(format!("game {} has {} points", g.number, g.points))
            } else if r.pairs.binary_search(&g.pair).is_err() {
                Some(format!(
                    "game {} is in pair {}, which the file does not list",
                    g.number, g.pair
                ))
            } else {
                None
            };
            if let Some(why) = why {
                bail!("{}: {why}", path.display());
            }
        }
        if r.tally() != tally_of(&r.games) {
            bail!("{}: its counts do not match its games", path.display());
        }
        Ok(r)
    }
}

/// W/D/L over every game, and a pentanomial count for each pair whose two games are both
/// there: the counting `chariot match` does as games finish.
pub fn tally_of(games: &[GameEntry]) -> Tally {
    let mut t = Tally::default();
    let mut pairs: BTreeMap<usize, (u32, f64)> = BTreeMap::new();
    for g in games {
        t.add_game(g.points);
        let e = pairs.entry(g.pair).or_insert((0, 0.0));
        e.0 += 1;
        e.1 += g.points;
    }
    for (n, pts) in pairs.values() {
        if *n == 2 {
            t.add_pair(*pts);
        }
    }
    t
}

/// Joins result files of one schedule. `sprt`: the test to judge the joined pairs by
/// (default: the first file's test, if it had one).
pub fn combine(paths: &[PathBuf], sprt: Option<&Sprt>) -> anyhow::Result<MatchResult> {
    let Some(first_path) = paths.first() else {
        bail!("--combine needs at least one result file");
    };
    let first = MatchResult::read(first_path)?;
    let schedule = first.schedule.clone();
    let sprt = sprt.copied().or_else(|| first.sprt.as_ref().map(SprtState::sprt));
    let mut pair_owner: BTreeMap<usize, usize> = BTreeMap::new();
    let mut games = Vec::new();
    let mut complete = true;
    let mut interrupted = false;
    for (i, p) in paths.iter().enumerate() {
        let r = if i == 0 { first.clone() } else { MatchResult::read(p)? };
        if r.schedule != schedule {
            bail!(
                "{} belongs to another match than {} (engines, time controls, seed, openings or rounds differ)",
                p.display(),
                first_path.display()
            );
        }
        for &pair in &r.pairs {
            if let Some(&j) = pair_owner.get(&pair) {
                bail!(
                    "pair {pair} is in both {} and {}: it would be counted twice",
                    paths[j].display(),
                    p.display()
                );
            }
            pair_owner.insert(pair, i);
        }
        complete &= r.complete;
        interrupted |= r.interrupted;
        games.extend(r.games);
    }
    let pairs: Vec<usize> = pair_owner.keys().copied().collect();
    Ok(MatchResult::new(
        &schedule,
        pairs,
        games,
        complete,
        interrupted,
        sprt.as_ref(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(number: usize, points: f64) -> GameEntry {
        GameEntry {
            number,
            pair: (number - 1) / 2,
            round: 1,
            opening_index: 0,
            opening_line: 0,
            first_is_red: number % 2 == 1,
            red: "a".into(),
            black: "b".into(),
            result: "1/2-1/2".into(),
            points,
            termination: "normal".into(),
            reason: "draw".into(),
            plies: 10,
            moves: vec![],
        }
    }

    #[test]
    fn tally_counts_whole_pairs_only() {
        let t = tally_of(&[game(1, 1.0), game(2, 0.5), game(3, 0.0), game(6, 1.0)]);
        assert_eq!((t.wins, t.draws, t.losses), (2, 1, 1));
        assert_eq!(t.penta, [0, 0, 0, 1, 0]);
    }

    #[test]
    fn combine_joins_and_refuses_doubles() {
        let dir = std::env::temp_dir().join(format!("chariot-result-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let schedule = Schedule {
            engines: ["a".into(), "b".into()],
            tc: ["nodes=1".into(), "nodes=1".into()],
            seed: 1,
            openings: 3,
            rounds: 1,
            pairs_total: 3,
        };
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let a = MatchResult::new(&schedule, vec![0], vec![game(2, 1.0), game(1, 1.0)], true, false, None);
        let b = MatchResult::new(
            &schedule,
            vec![1, 2],
            vec![game(3, 0.5), game(4, 0.0), game(5, 1.0)],
            false,
            false,
            None,
        );
        let (pa, pb) = (dir.join("a.json"), dir.join("b.json"));
        a.write(&pa).unwrap();
        b.write(&pb).unwrap();
        let all = MatchResult::new(
            &schedule,
            vec![0, 1, 2],
            [a.games.clone(), b.games.clone()].concat(),
            false,
            false,
            Some(&sprt),
        );
        let c = combine(&[pb.clone(), pa.clone()], Some(&sprt)).unwrap();
        assert_eq!(c, all);
        // Pair 0 scored 2, pair 1 ½; pair 2 has one game only and is not counted as a pair.
        assert_eq!(c.penta, [0, 1, 0, 0, 1]);
        assert!(!c.complete);
        let e = combine(&[pa.clone(), pa.clone()], None).unwrap_err().to_string();
        assert!(e.contains("pair 0 is in both"), "{e}");
        let mut other = a.clone();
        other.schedule.seed = 2;
        let po = dir.join("o.json");
        other.write(&po).unwrap();
        let e = combine(&[pa.clone(), po], None).unwrap_err().to_string();
        assert!(e.contains("another match"), "{e}");
        let bad = dir.join("bad.json");
        std::fs::write(&bad, "{\"format\": 3").unwrap();
        let e = combine(&[bad], None).unwrap_err().to_string();
        assert!(e.contains("not a chariot match result"), "{e}");
        let mut forged = a.clone();
        forged.wins += 1;
        let pf = dir.join("f.json");
        forged.write(&pf).unwrap();
        let e = combine(&[pf], None).unwrap_err().to_string();
        assert!(e.contains("do not match"), "{e}");
        assert!(combine(&[], None).is_err());
    }
}
