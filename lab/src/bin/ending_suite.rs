//! The ending suite (tests/data/suites/endings-*.txt): positions of 7 to 12 pieces from the
//! engine's own games, each with its exact value at clock 0 and the moves that keep it,
//! proven by the solver of `buffgreen_lab::ending` down to the endgame tables.
//!
//! `cargo run --release -p buffgreen-lab --bin ending_suite -- --tables DIR --out SUITE
//!  [--english] [--done FILE] [--budget N] [--per-move N] [--seconds S] [--min P] [--max P]
//!  [--prefix ID] [--retry] GAMES.pdn...`
//!
//! Every position of the games with `--min`..`--max` pieces and at least two legal moves is a
//! candidate (deduplicated, visited one piece count after another so that a run cut short
//! keeps a spread). A candidate is written to SUITE (appended) when its value is proven within
//! `--budget` nodes and, of its moves (each given `--per-move` nodes), one is proven to keep
//! the value and one to change it: a `bm` line (the moves that keep it) when every move is
//! decided, an `am` line (the moves that change it) when some stay undecided. Each candidate tried is recorded in the `--done` file (FEN and
//! verdict), and a later run skips those: the tool is resumable (`--retry` tries the unproven
//! ones and those with undecided moves again, after deeper tables were built or with a larger budget). `--seconds` bounds the
//! run.

use clap::Parser;
use std::collections::{BTreeMap, HashSet};
use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use buffgreen::board::{fen, generate_moves, Game, MoveList, Notation, Position, Rules};
use buffgreen::tablebase::Tablebase;
use buffgreen_lab::ending::Solver;
use buffgreen_tourney::pdn::{self, Replay};

/// Proves ending positions from games down to the endgame tables and writes the critical ones
/// as suite lines.
#[derive(Parser)]
#[command(name = "ending_suite")]
struct Args {
    /// The endgame tables the proofs reach.
    #[arg(long, value_name = "DIR")]
    tables: PathBuf,
    /// The suite file lines are appended to.
    #[arg(long, value_name = "SUITE")]
    out: PathBuf,
    /// The record of positions tried (default: SUITE.done).
    #[arg(long, value_name = "FILE")]
    done: Option<PathBuf>,
    /// English rules (default: Buff and Green).
    #[arg(long)]
    english: bool,
    /// Solver nodes for the value of a position.
    #[arg(long, value_name = "N", default_value_t = 400_000)]
    budget: u64,
    /// Solver nodes for the verdict of each move.
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    per_move: u64,
    /// Stop after this many seconds.
    #[arg(long, value_name = "S", default_value_t = u64::MAX, hide_default_value = true)]
    seconds: u64,
    /// Fewest pieces of a candidate.
    #[arg(long, value_name = "P", default_value_t = 7)]
    min: u32,
    /// Most pieces of a candidate.
    #[arg(long, value_name = "P", default_value_t = 12)]
    max: u32,
    /// Prefix of the ids (default: en or bg by the rules).
    #[arg(long, value_name = "ID")]
    prefix: Option<String>,
    /// Try again the unproven positions and those with undecided moves.
    #[arg(long)]
    retry: bool,
    /// The games (PDN) whose positions are the candidates.
    #[arg(value_name = "GAMES.pdn", required = true)]
    games: Vec<String>,
    /// The rules of `english`.
    #[arg(skip = Rules::BUFF_AND_GREEN)]
    rules: Rules,
}

fn parse_args() -> Args {
    let mut a = Args::parse();
    if a.english {
        a.rules = Rules::ENGLISH;
    }
    if a.prefix.is_none() {
        a.prefix = Some(if a.english { "en" } else { "bg" }.to_string());
    }
    a
}

fn die(why: String) -> ! {
    eprintln!("error: {why}");
    std::process::exit(2);
}

/// The suite file's `rules` word for `rules` (this tool writes Buff and Green or English).
fn rules_name(rules: &Rules) -> &'static str {
    rules.variant().suite_name().unwrap_or("default")
}

/// The candidates of the games, by piece count, in game order, without repeats.
fn candidates(a: &Args, skip: &HashSet<String>) -> BTreeMap<u32, Vec<Position>> {
    let mut seen = HashSet::new();
    let mut by_pieces: BTreeMap<u32, Vec<Position>> = BTreeMap::new();
    for file in &a.games {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| die(format!("{file}: {e}")));
        let (games, errors) = pdn::read_games(file, &text);
        for e in errors {
            eprintln!("warning: {e}");
        }
        for g in games {
            match g.game_rules() {
                Ok(r) if r == a.rules => {}
                _ => continue,
            }
            let Ok(start) = g.start() else { continue };
            let mut game = Game::new(start, 0, a.rules);
            let mut positions = vec![start];
            for text in &g.moves {
                if game.play_str(text).is_err() {
                    break;
                }
                positions.push(*game.position());
            }
            for pos in positions {
                let n = pos.occupied().count();
                if n < a.min || n > a.max {
                    continue;
                }
                let mut list = MoveList::new();
                generate_moves(&pos, &a.rules, &mut list);
                let f = fen::write(&pos);
                if list.len() < 2 || skip.contains(&f) || !seen.insert(f) {
                    continue;
                }
                by_pieces.entry(n).or_default().push(pos);
            }
        }
    }
    by_pieces
}

/// One piece count after another, round robin.
fn interleave(by_pieces: BTreeMap<u32, Vec<Position>>) -> Vec<Position> {
    let mut queues: Vec<std::vec::IntoIter<Position>> =
        by_pieces.into_values().map(Vec::into_iter).collect();
    let mut out = Vec::new();
    loop {
        let before = out.len();
        for q in &mut queues {
            out.extend(q.next());
        }
        if out.len() == before {
            return out;
        }
    }
}

/// A `--done` line that `--retry` tries again: unproven, or proven with undecided moves.
fn retried(line: &str) -> bool {
    line.ends_with(" ; unproven")
        || (line.contains(" not critical ") && !line.ends_with(" open 0)"))
}

fn main() {
    let a = parse_args();
    let tb = Tablebase::open(&a.tables, &a.rules)
        .unwrap_or_else(|e| die(format!("{}: {e}", a.tables.display())));
    let done_path = a.done.clone().unwrap_or_else(|| {
        let mut p = a.out.clone().into_os_string();
        p.push(".done");
        PathBuf::from(p)
    });
    let done_text = std::fs::read_to_string(&done_path).unwrap_or_default();
    let skip: HashSet<String> = done_text
        .lines()
        .filter(|l| !(a.retry && retried(l)))
        .filter_map(|l| l.split(" ; ").next())
        .map(str::to_string)
        .collect();
    let existing = std::fs::read_to_string(&a.out).unwrap_or_default();
    let mut written = existing
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .count();
    let queue = interleave(candidates(&a, &skip));
    eprintln!(
        "{} candidates ({} done before), {} lines in {}",
        queue.len(),
        skip.len(),
        written,
        a.out.display()
    );
    let open = |p: &PathBuf| {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
            .unwrap_or_else(|e| die(format!("{}: {e}", p.display())))
    };
    let mut out = open(&a.out);
    if existing.is_empty() {
        let header = "# Ending suite: FEN ; bm|am <moves> ; id <name> ; rules english|default ; \
                      result win|draw ; pieces N\n# (see lab/src/bin/ending_suite.rs)\n";
        out.write_all(header.as_bytes())
            .unwrap_or_else(|e| die(e.to_string()));
    }
    let mut done = open(&done_path);
    let mut solver = Solver::new(a.rules, Some(&tb), 4_000_000);
    let started = Instant::now();
    let mut tried = 0;
    for pos in queue {
        if started.elapsed().as_secs() >= a.seconds {
            break;
        }
        tried += 1;
        let f = fen::write(&pos);
        let verdict = match solver.prove_root(&pos, a.budget, a.per_move) {
            None => "unproven".to_string(),
            Some(p) if !p.critical() && (p.keep.is_empty() || p.lose.is_empty()) => format!(
                "{} not critical (keep {} lose {} open {})",
                p.outcome.name(),
                p.keep.len(),
                p.lose.len(),
                p.open.len()
            ),
            Some(p) => {
                written += 1;
                let names = |ms: &[buffgreen::types::Move]| -> String {
                    let v: Vec<String> = ms.iter().map(|m| Notation::Numeric.write(m)).collect();
                    v.join(" ")
                };
                // Undecided moves may keep the value or not: only the proven losers are named.
                let moves = if p.critical() {
                    format!("bm {}", names(&p.keep))
                } else {
                    format!("am {}", names(&p.lose))
                };
                let line = format!(
                    "{f} ; {moves} ; id {}.end.{written:04} ; rules {} ; result {} ; pieces {}\n",
                    a.prefix.as_deref().unwrap_or_default(),
                    rules_name(&a.rules),
                    p.outcome.name(),
                    pos.occupied().count()
                );
                out.write_all(line.as_bytes())
                    .unwrap_or_else(|e| die(e.to_string()));
                if p.critical() {
                    format!("{} critical", p.outcome.name())
                } else {
                    format!("{} avoid (open {})", p.outcome.name(), p.open.len())
                }
            }
        };
        writeln!(done, "{f} ; {verdict}").unwrap_or_else(|e| die(e.to_string()));
        if tried % 50 == 0 {
            eprintln!(
                "{tried} tried, {written} lines, {} nodes, {:.0} s",
                solver.total_nodes,
                started.elapsed().as_secs_f64()
            );
        }
    }
    eprintln!(
        "{tried} tried, {written} lines, {} nodes, {:.0} s",
        solver.total_nodes,
        started.elapsed().as_secs_f64()
    );
}
