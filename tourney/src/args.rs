//! The command line of `buffgreen match`.

use buffgreen::cli::GameRuleFlags;

/// Command-line arguments of `buffgreen match`. The options live behind a box so that the
/// binary's subcommand enum stays small; fields are reached through `Deref`.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    #[command(flatten)]
    options: Box<MatchOptions>,
}

impl std::ops::Deref for MatchArgs {
    type Target = MatchOptions;

    fn deref(&self) -> &MatchOptions {
        &self.options
    }
}

impl std::ops::DerefMut for MatchArgs {
    fn deref_mut(&mut self) -> &mut MatchOptions {
        &mut self.options
    }
}

/// The options of `buffgreen match` (see [`MatchArgs`]).
#[derive(clap::Args, Debug, Clone)]
pub struct MatchOptions {
    /// An engine: `cmd=PROGRAM [name=NAME] [arg=ARG]... [dir=DIR] [option.NAME=VALUE]...
    /// [tc=TC | movetime=MS | nodes=N]` (quote values with spaces; a limit here overrides the
    /// match's). Give two, or more for a round robin.
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,
    /// Fields given to every engine before its own, e.g. "option.Hash=16 option.Threads=1".
    #[arg(long, value_name = "SPEC", default_value = "")]
    pub each: String,
    /// Time control per game: moves/seconds+increment or seconds+increment (40/60+0.6, 60+0.6).
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,
    /// Fixed time per move in milliseconds (`go movetime`).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Fixed search iterations per move (`go nodes`).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// The rules, sent to every engine by setoption and used by the referee.
    #[command(flatten)]
    pub rules: GameRuleFlags,
    /// Openings file: per line moves from the start and/or a FEN (tab-separated; the
    /// 3-move deck format). Each opening is played twice, colours reversed. Without it (and
    /// without --random-plies) the built-in deck of the rules is played in order: the 3-move
    /// deck under English rules, the Buff and Green balanced deck for Buff and Green and Pool,
    /// and Russian's and Brazilian's own balanced decks (lines from White's first move).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// Instead of a file: random openings of this many plies, reproducible from --seed.
    #[arg(long, value_name = "PLIES", conflicts_with = "openings")]
    pub random_plies: Option<usize>,
    /// Play the openings (file or built-in deck) in a random order drawn from --seed.
    #[arg(long)]
    pub shuffle: bool,
    /// Games per pair of engines (default: twice the number of openings in the file; 2 without
    /// a file).
    #[arg(long, value_name = "N")]
    pub games: Option<usize>,
    /// Games played at once, each worker with its own engine processes.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub concurrency: usize,
    /// Seed for random openings and --shuffle.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// Adjudicate a draw after this many plies played by the engines.
    #[arg(long, value_name = "PLIES")]
    pub adjudicate_draw_after: Option<u32>,
    /// Append the games to this PDN file (created if missing; never the openings file).
    #[arg(long = "pdn", visible_alias = "pgn-out", value_name = "FILE")]
    pub pdn: Option<String>,
    /// No effect, accepted for old scripts: every game now carries its FEN (docs/match.md).
    #[arg(long, hide = true)]
    pub pdn_always_fen: bool,
    /// The PDN Event tag.
    #[arg(long, default_value = "buffgreen match")]
    pub event: String,
    /// Stop early by SPRT: elo0=0 elo1=10 alpha=0.05 beta=0.05 [model=pentanomial|trinomial]
    /// (two engines only).
    #[arg(long, value_name = "PARAM", num_args = 1..)]
    pub sprt: Vec<String>,
    /// Tolerance in ms on the clock and on movetime before a move loses on time.
    #[arg(long, value_name = "MS", default_value_t = 10)]
    pub time_margin: u64,
    /// How long to wait in ms for uciok, readyok, and for bestmove under --nodes.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub reply_timeout: u64,
    /// No progress line.
    #[arg(long)]
    pub quiet: bool,
    /// Instead of playing: read this PDN file, replay every game with the library and check
    /// its result; exit status 1 on the first bad game.
    #[arg(long, value_name = "FILE")]
    pub verify_pdn: Option<String>,

    // ---- Adjudication, tournaments, resuming and sharding (issue 23 items 3 and 6, issue 20
    // item 4). Kept together so that other option blocks can grow without touching these. ----
    /// Resign adjudication, as cutechess-cli: movecount=N score=S [twosided=true|false]. A side
    /// whose own score is at least S centipawns below zero for N consecutive moves loses
    /// (twosided: only if the opponent's score is at least S above zero for N moves too).
    #[arg(long, value_name = "PARAM", num_args = 1..)]
    pub resign: Vec<String>,
    /// Draw adjudication, as cutechess-cli: movenumber=N movecount=M score=S. Drawn once at
    /// least N full moves were played and both sides' scores stayed within S centipawns of
    /// zero for M consecutive moves each (a capture or a crowning resets the count).
    #[arg(long, value_name = "PARAM", num_args = 1..)]
    pub draw: Vec<String>,
    /// Endgame tables built by `buffgreen tb build` for the match's rules: a game that reaches
    /// a tabled position ends with the table's result at the game's clock.
    #[arg(long, value_name = "DIR")]
    pub tb: Option<String>,
    /// Write every line sent to and received from each engine, with a timestamp, to FILE.
    #[arg(long, value_name = "FILE")]
    pub debug_log: Option<String>,
    /// Continue an interrupted run: the games of this schedule found in the --pdn file are
    /// counted, not replayed (same arguments as the interrupted run).
    #[arg(long, requires = "pdn")]
    pub resume: bool,
    /// Who plays whom among three or more engines: every pair (round-robin), or the first
    /// engine against each of the others (gauntlet).
    #[arg(long, value_enum, default_value_t = Tournament::RoundRobin)]
    pub tournament: Tournament,
    /// Play only the K-th of N disjoint slices of the schedule (K from 1), e.g. 2/3: the same
    /// games, openings, colours and seeds as in the whole run. Merge the PDNs with --merge.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Instead of playing: read the PDN files of a run's shards (or any games of one run) and
    /// print the table (and with --sprt the SPRT) of all their games.
    #[arg(long, value_name = "PDN", num_args = 1.., conflicts_with_all = ["engines", "verify_pdn"])]
    pub merge: Vec<String>,
    // --- Machine-readable output (issue 23 item 2; json.rs, docs/match.md) ---
    /// Append the match to this file as JSON Lines: one "game" record per game in round
    /// order, then one "summary" record (the table's figures and the SPRT state).
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    // --- end of machine-readable output ---
}

/// Who plays whom (`--tournament`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tournament {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}
