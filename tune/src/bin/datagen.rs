//! Training positions at scale: fast games between the engine's UCT and the lab's alpha-beta
//! searcher, written in the binary format of [`buffgreen_tune::data`], resumable.
//!
//! Each game starts from an opening of the rules' deck (the English 3-move deck, the balanced
//! Buff and Green deck, or Russian's or Brazilian's balanced deck), or from the start position
//! where a rule set has no deck, then a few uniformly random plies, so that no two games are
//! alike. Each side is, by the game's own draw, the UCT at a few thousand iterations or the
//! alpha-beta searcher at a node budget of the same order of time; now and then a side plays a
//! random move instead of its search's, so that the data also holds the positions a search
//! tree visits after a bad move. Every quiet position (no capture pending) after the opening's
//! random plies is written with the game's result and the score of the search that moved there.
//!
//! With `--tables DIR` a game ends at its first position the tables cover, labelled by their
//! exact result at its clock under the draw rule: the positions before it take that result
//! (a won ending is won whoever would have botched it), and it and a few tabled plies after
//! it (the tables playing a move that keeps the result) are labelled by their own exact value.
//! With `--play-through` as well, the players play the game on to its end (their searches
//! still without tables), each covered position labelled by its own exact value: endings as
//! the players reach them, not only their first positions.
//!
//! `datagen run --out FILE [--rules english|buffgreen|pool|russian|brazilian] ...` appends to FILE and to
//! `FILE.progress`, a few `key value` lines that say how far it is; run again with the same
//! `--out` it resumes where the progress file says (the seeds of a resumed run differ from
//! those before, so no game is played twice); a data file that holds fewer positions than its
//! progress counts (replaced or cut since) is refused. `datagen status FILE` prints the progress.
//!
//! `datagen rescore --in FILE --out DEEPER --every K --nodes N` scores every K-th position of
//! FILE again by a UCT search of N iterations ([`buffgreen_tune::rescore`]), resumably.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use clap::{Parser, Subcommand};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use buffgreen::board::{has_captures, Game, GameResult, Position, Rules, Variant};
use buffgreen::openings;
use buffgreen::search::tables::Endgame;
use buffgreen::search::{Control, Limits, SearchConfig, SearchEvent, Searcher};
use buffgreen::tablebase::{self, Tablebase};
use buffgreen::types::{Color, Move};
use buffgreen_lab::alphabeta::{self, Budget};
use buffgreen_tune::data::{self, Outcome, Record};
use buffgreen_tune::progress::Progress;
use buffgreen_tune::rescore;
use buffgreen_tune::say;
use buffgreen_tune::table_label;

/// The repository's root, which the rule sets' deck paths are relative to.
const REPOSITORY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// Plies after which a game that has not ended is given up (not written): the draw rule ends
/// every real game long before.
const MAX_PLIES: usize = 600;

#[derive(Parser)]
#[command(
    name = "datagen",
    about = "Training positions from fast games, resumable"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The rule set a `--rules` word names (the rule sets' one-word keys: `english`,
/// `buffgreen`, ...).
fn rule_set(word: &str) -> Result<Variant, String> {
    Variant::from_key(word).ok_or_else(|| {
        let keys: Vec<&str> = Variant::ALL.iter().map(|v| v.key()).collect();
        format!("unknown rule set '{word}' ({})", keys.join(", "))
    })
}

#[derive(Subcommand)]
enum Command {
    /// Play games and append their positions to FILE (resumes FILE when it exists).
    Run(RunArgs),
    /// Score a sample of a data file's positions again by a longer UCT search (resumes OUT).
    Rescore(RescoreArgs),
    /// Print how far FILE's generation is, and the rules its header names.
    Status {
        /// The data file.
        file: PathBuf,
    },
}

#[derive(clap::Args)]
struct RunArgs {
    /// The data file (its progress is FILE.progress).
    #[arg(long)]
    out: PathBuf,
    /// The rules: a rule set's one-word name (english, buffgreen, pool, russian, brazilian,
    /// ...).
    #[arg(long, default_value = "english", value_parser = rule_set)]
    rules: Variant,
    /// Losing checkers.
    #[arg(long)]
    losing: bool,
    /// Stop once the file holds this many positions.
    #[arg(long, default_value_t = 50_000_000)]
    positions: u64,
    /// Search threads (one game each).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: u64,
    /// The run's seed (mixed with the session's number and the game's).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Endgame tables of the rules (a root laid out by rules, or a folder of slices).
    #[arg(long)]
    tables: Option<PathBuf>,
    /// The UCT's iterations per move: drawn per game between this and twice this.
    #[arg(long, default_value_t = 1500)]
    uct_nodes: u64,
    /// The alpha-beta's nodes per move: drawn per game between this and twice this.
    #[arg(long, default_value_t = 6000)]
    ab_nodes: u64,
    /// Random plies after the deck's opening (or the start position, for a rule set without
    /// a deck): drawn per game up to this.
    #[arg(long, default_value_t = 6)]
    random_plies: u32,
    /// Chance in a thousand that a side plays a random move instead of its search's.
    #[arg(long, default_value_t = 20)]
    blunders: u32,
    /// Seconds between two saves of the progress.
    #[arg(long, default_value_t = 20)]
    save_every: u64,
    /// With `--tables`: play a game on past its first covered position to its end (the
    /// searches still without tables), each covered position labelled by its own exact value,
    /// so that the data hold endings as the players reach them.
    #[arg(long, requires = "tables")]
    play_through: bool,
}

#[derive(clap::Args)]
struct RescoreArgs {
    /// The data file whose positions are scored again.
    #[arg(long = "in")]
    input: PathBuf,
    /// The rescored data (appended to: a run resumes after its last whole record).
    #[arg(long)]
    out: PathBuf,
    /// Take every K-th record of the input.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// Start at this record of the input (then every K-th).
    #[arg(long, default_value_t = 0)]
    offset: u64,
    /// The UCT's iterations for each position.
    #[arg(long, default_value_t = 10_000)]
    nodes: u64,
    /// Search threads (one position each).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: u64,
    /// Endgame tables of the rules (a root laid out by rules, or a folder of slices).
    #[arg(long)]
    tables: Option<PathBuf>,
    /// Stop after this many rescored records in OUT.
    #[arg(long, default_value_t = u64::MAX)]
    limit: u64,
}

/// `datagen rescore`: the tables opened, then [`rescore::run`] with a progress line a batch.
fn rescore(args: &RescoreArgs) -> Result<(), String> {
    let rules = data::Reader::open(&args.input)
        .map_err(|e| e.to_string())?
        .rules();
    let tables = match &args.tables {
        None => None,
        Some(dir) => Some(Arc::new(open_tables(dir, &rules)?)),
    };
    let plan = rescore::Plan {
        every: args.every,
        offset: args.offset,
        nodes: args.nodes,
        threads: args.threads as usize,
        limit: args.limit,
    };
    let started = Instant::now();
    let mut first = None;
    let done = rescore::run(&args.input, &args.out, &plan, tables, &mut |n| {
        let before = *first.get_or_insert(n);
        eprintln!(
            "datagen rescore: {n} records in {}, {:.1} a second",
            args.out.display(),
            n.saturating_sub(before) as f64 / started.elapsed().as_secs_f64()
        );
    })
    .map_err(|e| e.to_string())?;
    say!(
        "datagen rescore: {} records in {} ({} this run)",
        done.after,
        args.out.display(),
        done.after - done.before
    );
    Ok(())
}

/// The endgame tables of `rules` in `dir` (a root laid out by rules, or a folder of slices).
fn open_tables(dir: &Path, rules: &Rules) -> Result<Endgame, String> {
    let dir = tablebase::home::resolve(dir, rules);
    let tb =
        Tablebase::open(&dir, rules).map_err(|e| format!("tables in {}: {e}", dir.display()))?;
    Endgame::new(Arc::new(tb), u32::MAX)
        .ok_or_else(|| format!("no tables of these rules in {}", dir.display()))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Status { file } => match Progress::load(&Progress::path_of(&file)) {
            Ok(Some(p)) => {
                say!("{}", p.summary());
                // The rules come from the data file's header, which is what a reader gets.
                match data::Reader::open(&file) {
                    Ok(reader) => {
                        say!("rules: {}", data::rules_name(&reader.rules()));
                        ExitCode::SUCCESS
                    }
                    Err(e) => {
                        eprintln!("{e}");
                        ExitCode::from(2)
                    }
                }
            }
            Ok(None) => {
                eprintln!("{}: no progress file", file.display());
                ExitCode::from(1)
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(2)
            }
        },
        Command::Rescore(args) => match rescore(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("datagen: {e}");
                ExitCode::from(2)
            }
        },
        Command::Run(args) => match run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("datagen: {e}");
                ExitCode::from(2)
            }
        },
    }
}

/// A side's player for one game.
#[derive(Clone, Copy, Debug)]
enum Player {
    /// The engine's UCT at this many iterations a move.
    Uct(u64),
    /// The alpha-beta searcher at this many nodes a move.
    AlphaBeta(u64),
}

/// What the threads share.
struct Shared {
    file: File,
    progress: Progress,
    last_save: Instant,
}

fn run(args: &RunArgs) -> Result<(), String> {
    let rules = Rules {
        losing: args.losing,
        ..args.rules.rules()
    };
    let progress_path = Progress::path_of(&args.out);
    let mut progress = Progress::load(&progress_path)
        .map_err(|e| e.to_string())?
        .unwrap_or_default();
    let keep = (progress.sessions > 0).then_some(progress.positions);
    let (file, records) = data::open_append(&args.out, &rules, keep).map_err(|e| e.to_string())?;
    progress.positions = records;
    progress.sessions += 1;
    progress.target = args.positions;
    let tables = match &args.tables {
        None => None,
        Some(dir) => Some(open_tables(dir, &rules)?),
    };
    let openings = openings_of(args.rules, &rules)?;
    eprintln!("datagen: resuming at {}", progress.summary());
    let session = progress.sessions;
    let shared = Mutex::new(Shared {
        file,
        progress,
        last_save: Instant::now(),
    });
    let started = Instant::now();
    let seconds_before = shared
        .lock()
        .map(|s| s.progress.seconds)
        .unwrap_or_default();
    let failed = AtomicBool::new(false);
    let next_game = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..args.threads {
            s.spawn(|| {
                let mut gen = Generator::new(rules, args, tables.as_ref());
                loop {
                    let g = next_game.fetch_add(1, Ordering::Relaxed);
                    let seed = mix(args.seed, session, g);
                    let opening = &openings[(seed % openings.len() as u64) as usize];
                    let game = gen.play(opening.clone(), seed);
                    let Ok(mut sh) = shared.lock() else { return };
                    if failed.load(Ordering::Relaxed) || sh.progress.positions >= args.positions {
                        return;
                    }
                    if let Some(game) = game {
                        let mut bytes = Vec::with_capacity(game.records.len() * 16);
                        for r in &game.records {
                            bytes.extend_from_slice(&r.encode());
                        }
                        if let Err(e) = sh.file.write_all(&bytes) {
                            eprintln!("datagen: {}: {e}", args.out.display());
                            failed.store(true, Ordering::Relaxed);
                            return;
                        }
                        sh.progress
                            .add_game(&game.records, game.outcome, game.tabled);
                    }
                    let now = Instant::now();
                    let done = sh.progress.positions >= args.positions;
                    if done || now.duration_since(sh.last_save).as_secs() >= args.save_every {
                        sh.progress.seconds = seconds_before + started.elapsed().as_secs_f64();
                        if let Err(e) = save(&mut sh, &progress_path) {
                            eprintln!("datagen: {e}");
                            failed.store(true, Ordering::Relaxed);
                            return;
                        }
                        sh.last_save = now;
                        eprintln!("datagen: {}", sh.progress.summary());
                    }
                }
            });
        }
    });
    let mut sh = shared.lock().map_err(|_| "a thread failed".to_string())?;
    sh.progress.seconds = seconds_before + started.elapsed().as_secs_f64();
    save(&mut sh, &progress_path)?;
    say!("{}", sh.progress.summary());
    if failed.load(Ordering::Relaxed) {
        return Err("stopped by an error".into());
    }
    Ok(())
}

/// The games the rule set's games start from, before their random plies: its deck's openings
/// (the English 3-move openings, or the openings a deep search scores level under Buff and
/// Green, Russian or Brazilian rules), or the start position where the table gives it no deck.
fn openings_of(variant: Variant, rules: &Rules) -> Result<Vec<Game>, String> {
    let Some(deck) = variant.deck() else {
        return Ok(vec![Game::new(Position::start(rules), 0, *rules)]);
    };
    let deck = format!("{REPOSITORY}/{deck}");
    let openings: Vec<Game> = openings::load(&deck, rules)
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|o| o.game)
        .collect();
    if openings.is_empty() {
        return Err(format!("{deck}: no openings"));
    }
    Ok(openings)
}

/// Makes the data written so far durable, then the progress that counts it.
fn save(sh: &mut Shared, path: &Path) -> Result<(), String> {
    sh.file
        .sync_data()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    sh.progress.save(path).map_err(|e| e.to_string())
}

/// A game's seed from the run's, the session's and the game's numbers (SplitMix64's finaliser,
/// so that neighbouring numbers give unrelated seeds).
fn mix(seed: u64, session: u64, game: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(session << 40)
        .wrapping_add(game);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One game's labelled positions.
struct Played {
    records: Vec<Record>,
    outcome: Outcome,
    tabled: bool,
}

/// A thread's players and the game loop.
struct Generator<'a> {
    rules: Rules,
    args: &'a RunArgs,
    tables: Option<&'a Endgame>,
    uct: Searcher,
    ab: alphabeta::Searcher,
}

impl<'a> Generator<'a> {
    fn new(rules: Rules, args: &'a RunArgs, tables: Option<&'a Endgame>) -> Generator<'a> {
        let config = SearchConfig {
            hash_mib: 16,
            move_overhead_ms: 0,
            ..SearchConfig::default()
        };
        Generator {
            rules,
            args,
            tables,
            uct: Searcher::new(&config),
            ab: alphabeta::Searcher::new(rules, 8, None),
        }
    }

    /// Plays one game from `opening`; `None` when it did not end within [`MAX_PLIES`].
    fn play(&mut self, mut game: Game, seed: u64) -> Option<Played> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let random = rng.gen_range(0..=self.args.random_plies);
        for _ in 0..random {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.gen_range(0..moves.len())]);
        }
        let draw_player = |rng: &mut Xoshiro256PlusPlus| {
            if rng.gen_bool(0.5) {
                Player::Uct(rng.gen_range(self.args.uct_nodes..=2 * self.args.uct_nodes))
            } else {
                Player::AlphaBeta(rng.gen_range(self.args.ab_nodes..=2 * self.args.ab_nodes))
            }
        };
        let players = [draw_player(&mut rng), draw_player(&mut rng)];
        self.uct.configure(&SearchConfig {
            hash_mib: 16,
            move_overhead_ms: 0,
            seed: seed % 1_000_000,
            ..SearchConfig::default()
        });
        self.uct.new_game();
        self.ab.clear();
        let mut records = Vec::new();
        let mut tabled = None;
        while game.result() == GameResult::Ongoing {
            if game.moves().len() > MAX_PLIES {
                return None;
            }
            let (pos, clock) = (*game.position(), game.clock());
            let mut exact = None;
            if let Some(t) = self.tables.filter(|t| t.covers(&pos)) {
                if let Some(black) = table_label(t.tablebase(), &pos, clock, game.draws()) {
                    tabled.get_or_insert(black);
                    if !self.args.play_through {
                        break;
                    }
                    exact = Some(black);
                }
            }
            let player = players[pos.side_to_move().index()];
            let (mv, score) = match player {
                Player::Uct(nodes) => self.uct_move(&game, nodes),
                Player::AlphaBeta(nodes) => self.ab_move(&game, nodes),
            };
            let alpha_beta = matches!(player, Player::AlphaBeta(_));
            let mv = mv?;
            if !has_captures(&pos, &self.rules) {
                records.push(Record {
                    pos,
                    clock: clock.min(255) as u8,
                    outcome: exact.map_or(Outcome::Draw, Outcome::of_black_score),
                    exact: exact.is_some(),
                    score,
                    alpha_beta,
                });
            }
            let mv = if rng.gen_range(0..1000) < self.args.blunders {
                let moves = game.legal_moves();
                moves[rng.gen_range(0..moves.len())]
            } else {
                mv
            };
            if !game.play(mv) {
                return None;
            }
        }
        let outcome = match (tabled, game.result()) {
            (Some(black), _) => Outcome::of_black_score(black),
            (None, GameResult::Win(Color::Black)) => Outcome::BlackWins,
            (None, GameResult::Win(Color::White)) => Outcome::WhiteWins,
            _ => Outcome::Draw,
        };
        // The game's result, or with tables the first covered position's exact one (a won
        // ending is won whoever would have botched it); covered positions keep their own.
        for r in records.iter_mut().filter(|r| !r.exact) {
            r.outcome = outcome;
        }
        if let (Some(t), Some(_), false) = (self.tables, tabled, self.args.play_through) {
            records.extend(tabled_line(t, &mut game, &mut rng, &self.rules));
        }
        Some(Played {
            records,
            outcome,
            tabled: tabled.is_some(),
        })
    }

    /// The UCT's move and its score for the side to move.
    fn uct_move(&mut self, game: &Game, nodes: u64) -> (Option<Move>, Option<i16>) {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let mut score = None;
        let found = self
            .uct
            .search(game, &limits, &Control::default(), &mut |event| {
                if let SearchEvent::Info(info) = event {
                    if info.multipv == 1 {
                        score = Some(rescore::record_score(info.score));
                    }
                }
            });
        (found.best, score)
    }

    /// The alpha-beta's move and its score for the side to move.
    fn ab_move(&mut self, game: &Game, nodes: u64) -> (Option<Move>, Option<i16>) {
        let budget = Budget {
            nodes: Some(nodes),
            ..Budget::default()
        };
        let mut score = None;
        let (mv, _) = self.ab.search(
            game.position(),
            game.clock(),
            budget,
            Arc::new(AtomicBool::new(false)),
            |it| score = Some(it.score.clamp(-30_000, 30_000) as i16),
        );
        (mv, score)
    }
}

/// Plies the tables play on from the first covered position, each position labelled by its
/// own exact value.
const TABLED_PLIES: usize = 8;

/// The covered position `game` stands on and up to [`TABLED_PLIES`] more, each a random move
/// among those that keep the tables' result, quiet ones labelled by their own exact value.
fn tabled_line(
    t: &Endgame,
    game: &mut Game,
    rng: &mut Xoshiro256PlusPlus,
    rules: &Rules,
) -> Vec<Record> {
    let mut out = Vec::new();
    for ply in 0..=TABLED_PLIES {
        let (pos, clock) = (*game.position(), game.clock());
        let Some(black) = table_label(t.tablebase(), &pos, clock, game.draws()) else {
            break;
        };
        if !has_captures(&pos, rules) {
            out.push(Record {
                pos,
                clock: clock.min(255) as u8,
                outcome: Outcome::of_black_score(black),
                exact: true,
                score: None,
                alpha_beta: false,
            });
        }
        if ply == TABLED_PLIES || game.result() != GameResult::Ongoing {
            break;
        }
        let Some(root) = t.root(&pos, game.rules(), clock, game.draws()) else {
            break;
        };
        if root.moves.is_empty() || !game.play(root.moves[rng.gen_range(0..root.moves.len())]) {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_games_start_from_their_own_decks() {
        for v in [Variant::Russian, Variant::Brazilian] {
            let rules = v.rules();
            let games = openings_of(v, &rules).unwrap();
            let deck = openings::default_deck(&rules);
            assert!(!deck.is_empty(), "{v:?}");
            assert_eq!(games.len(), deck.len(), "{v:?}");
            for (g, o) in games.iter().zip(&deck) {
                // The deck's line from White's first move, not the bare start position.
                assert_eq!(g.position(), o.game.position());
                assert_eq!(*g.start(), Position::start(&rules));
                assert_eq!(g.start().side_to_move(), Color::White);
                assert!(g.moves().len() >= 3, "{}", o.label);
            }
        }
    }
}
