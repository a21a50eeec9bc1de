//! The `buffgreen` binary: the protocol loop by default, plus `perft`, `bench`, `match`,
//! `suite`, `tb`, `book`, `gui` and `play`.

use std::io::BufReader;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};

use buffgreen::board::{fen, Notation, Position};
use buffgreen::cli::{GameRuleFlags, RuleFlags};
use buffgreen::engine::{sort_divide, MAX_HASH_MIB, MAX_SEED};
use buffgreen::protocol::{output, Output};
use buffgreen::search::SearchConfig;
use buffgreen::tools::{bench, perft};
use buffgreen_tourney::spec::EngineSpec;

/// The exit status of a command that could not be done (docs/match.md, "Exit status").
const EXIT_ERROR: u8 = 2;

/// Buff and Green checkers engine (English checkers too). With no subcommand it starts the
/// UCI-like protocol on stdin/stdout (see protocol.md).
#[derive(Parser)]
#[command(name = "buffgreen", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Count the leaves of the legal move tree, per root move (divide).
    Perft(PerftArgs),
    /// Search fixed positions with a fixed seed and iteration budget; the node count is a
    /// signature of search behaviour, the rate a speed figure.
    Bench(BenchArgs),
    /// Play a match between engines.
    Match(buffgreen_tourney::MatchArgs),
    /// Speak the Hub protocol (Scan's; pydraughts, lidraughts-bot) on stdin/stdout.
    Hub,
    /// Endgame tablebases: build, probe, verify.
    Tb(buffgreen::tablebase::cli::TbArgs),
    /// Opening book: build (drop-out expansion), probe.
    Book(buffgreen::book::cli::BookArgs),
    /// Search test positions (`FEN ; bm <moves> ; id <name>`; a bare `FEN` gets the move,
    /// score, depth and nodes) and count the solved ones; exit
    /// status: 0 all solved, 1 some unsolved, 2 a bad file or argument (docs/match.md).
    Suite(buffgreen_tourney::suite::SuiteArgs),
    /// Play in the browser: serves a page on 127.0.0.1 and prints its URL on stdout (this
    /// subcommand does not speak the protocol); each page gets its own engine process.
    Gui(GuiArgs),
    /// Play in the terminal: a board with square numbers, moves in 1-32 or algebraic
    /// notation, undo, flip; the game is appended to a PDN file on exit.
    Play(PlayArgs),
}

/// The engine of `gui` and `play`.
#[derive(Args)]
struct EngineArg {
    /// The engine, in the match runner's spec form (`cmd=PROGRAM name=N option.Hash=64`,
    /// docs/match.md). Default: this program.
    #[arg(long, value_name = "SPEC")]
    engine: Option<String>,
}

#[derive(Args)]
struct GuiArgs {
    #[command(flatten)]
    engine: EngineArg,
    /// Port to listen on; 0 picks a free one (the URL printed says which).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on instead of 127.0.0.1. Anyone who can reach it can use the
    /// engine: a warning is printed.
    #[arg(long)]
    host: Option<String>,
    /// Open the page in the desktop's browser (xdg-open).
    #[arg(long)]
    open: bool,
}

#[derive(Args)]
struct PlayArgs {
    #[command(flatten)]
    engine: EngineArg,
    #[command(flatten)]
    rules: GameRuleFlags,
    /// The side the engine plays: black, white or none.
    #[arg(long, default_value = "white", value_parser = ["black", "white", "none"])]
    engine_side: String,
    /// Iterations per engine move (instead of --movetime).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), conflicts_with_all = ["movetime", "elo"])]
    nodes: Option<u64>,
    /// Milliseconds per engine move (default 1000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "elo")]
    movetime: Option<u64>,
    /// Play at this strength (UCI_Elo 800-2000).
    #[arg(long, value_parser = clap::value_parser!(u32).range(800..=2000))]
    elo: Option<u32>,
    /// Show the board from Black's side.
    #[arg(long)]
    flip: bool,
    /// The PDN file the game is appended to on exit.
    #[arg(long, default_value = "buffgreen-game.pdn")]
    pdn: std::path::PathBuf,
}

#[derive(Args)]
struct PerftArgs {
    /// Plies to count.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Start position in PDN FEN (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    #[command(flatten)]
    rules: RuleFlags,
    /// Worker threads (default: one per CPU).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
    /// Remember counted subtrees in a table of this many MiB (transpositions counted once).
    #[arg(long, value_name = "MIB",
          value_parser = clap::value_parser!(u32).range(1..=MAX_HASH_MIB))]
    hash: Option<u32>,
}

#[derive(Args)]
struct BenchArgs {
    /// Iterations per position.
    #[arg(long, default_value_t = bench::DEFAULT_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Tree memory in MiB.
    #[arg(long, default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(1..=MAX_HASH_MIB))]
    hash: u32,
    /// Random seed.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=MAX_SEED as u64))]
    seed: u64,
    /// Search this position (PDN FEN) instead of the bench set; repeat for several.
    #[arg(long = "fen", value_name = "FEN")]
    fens: Vec<String>,
    #[command(flatten)]
    rules: RuleFlags,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => {
            // Read on a thread of its own (see protocol::input), so not through a lock.
            let stdin = BufReader::new(std::io::stdin());
            let code = buffgreen::hub::serve(stdin, Output::stdout());
            ExitCode::from(code.clamp(0, 255) as u8)
        }
        Some(Cmd::Perft(a)) => run_perft(&a),
        Some(Cmd::Bench(a)) => run_bench(&a),
        Some(Cmd::Hub) => {
            let stdin = BufReader::new(std::io::stdin());
            let code = buffgreen::hub::run(stdin, Output::stdout());
            ExitCode::from(code.clamp(0, 255) as u8)
        }
        Some(Cmd::Tb(a)) => {
            let code = buffgreen::tablebase::cli::run(&a);
            ExitCode::from(code.clamp(0, 255) as u8)
        }
        Some(Cmd::Book(a)) => {
            let code = buffgreen::book::cli::run(&a);
            ExitCode::from(code.clamp(0, 255) as u8)
        }
        Some(Cmd::Suite(a)) => {
            let code = buffgreen_tourney::suite::run(&a);
            ExitCode::from(code.clamp(0, 255) as u8)
        }
        Some(Cmd::Gui(a)) => run_gui(&a),
        Some(Cmd::Play(a)) => run_play(&a),
        Some(Cmd::Match(a)) => {
            let code = buffgreen_tourney::run(&a);
            ExitCode::from(code.clamp(0, 255) as u8)
        }
    }
}

fn run_perft(a: &PerftArgs) -> ExitCode {
    let rules = a.rules.rules();
    let pos = match a
        .fen
        .as_deref()
        .map_or(Ok(Position::start(&rules)), fen::parse)
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: bad FEN: {e}");
            return ExitCode::from(EXIT_ERROR);
        }
    };
    let threads = a.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let table = match a.hash.map(|mib| perft::PerftTable::new(mib as usize)) {
        None => None,
        Some(Ok(t)) => Some(t),
        Some(Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_ERROR);
        }
    };
    let start = Instant::now();
    let mut d = perft::divide_with(&pos, &rules, a.depth, threads, table.as_ref());
    let secs = start.elapsed().as_secs_f64();
    sort_divide(&mut d);
    Output::stdout().lines(&output::divide_lines(&d, Notation::Numeric));
    let total: u64 = d.iter().map(|x| x.1).sum();
    let rate = if secs > 0.0 { total as f64 / secs } else { 0.0 };
    eprintln!(
        "Time: {:.3} s, {:.1} M leaves/s ({threads} threads)",
        secs,
        rate / 1e6
    );
    ExitCode::SUCCESS
}

fn run_bench(a: &BenchArgs) -> ExitCode {
    let config = SearchConfig {
        threads: a.threads as usize,
        hash_mib: a.hash as usize,
        seed: a.seed,
        ..SearchConfig::default()
    };
    let mut positions = Vec::new();
    for text in &a.fens {
        match fen::parse(text) {
            Ok(pos) => positions.push(pos),
            Err(e) => {
                eprintln!("error: --fen '{text}': {e}");
                return ExitCode::from(EXIT_ERROR);
            }
        }
    }
    let report = if positions.is_empty() {
        bench::run(&config, &a.rules.rules(), a.nodes)
    } else {
        bench::run_on(&config, &a.rules.rules(), a.nodes, &positions)
    };
    Output::stdout().lines(&output::bench_lines(&report));
    eprintln!("Total time (ms): {}", report.elapsed.as_millis());
    ExitCode::SUCCESS
}

/// The engine of `gui` and `play`: `--engine` in the match runner's spec form, or this program
/// itself; a bad `--engine` is reported here and gives the exit code.
fn engine_command(arg: &EngineArg) -> Result<buffgreen_gui::EngineSpec, ExitCode> {
    engine_of(arg).map_err(|e| {
        eprintln!("error: --engine: {e}");
        ExitCode::from(EXIT_ERROR)
    })
}

fn engine_of(arg: &EngineArg) -> Result<buffgreen_gui::EngineSpec, String> {
    match &arg.engine {
        // The runner's form: a search limit of the engine's own is read and not used here.
        Some(text) => EngineSpec::parse(text, "")
            .map(|spec| spec.command)
            .map_err(|e| e.to_string()),
        None => {
            let exe =
                std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
            Ok(buffgreen_gui::EngineSpec {
                name: "buffgreen".to_string(),
                program: exe.to_string_lossy().into_owned(),
                ..Default::default()
            })
        }
    }
}

fn run_gui(a: &GuiArgs) -> ExitCode {
    let engine = match engine_command(&a.engine) {
        Ok(e) => e,
        Err(code) => return code,
    };
    if let Some(host) = a
        .host
        .as_deref()
        .filter(|h| !buffgreen_gui::server::is_loopback(h))
    {
        eprintln!("warning: --host {host}: the page and its engine are open to anyone who can reach this address");
    }
    let opts = buffgreen_gui::ServeOptions {
        host: a.host.clone().unwrap_or_else(|| "127.0.0.1".to_string()),
        port: a.port,
        open: a.open,
        engine,
    };
    let served = buffgreen_gui::serve(&opts, |url| {
        println!("buffgreen gui: open {url}");
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}

fn run_play(a: &PlayArgs) -> ExitCode {
    let engine = match engine_command(&a.engine) {
        Ok(e) => e,
        Err(code) => return code,
    };
    // The game is appended to --pdn: never to what the engine reads nor to another kind of
    // file (as a match's --pdn).
    let checked = EngineSpec {
        command: engine.clone(),
        limit: None,
    };
    if let Err(e) = buffgreen_tourney::check_pdn("--pdn", &a.pdn.to_string_lossy(), &checked) {
        eprintln!("error: {e}");
        return ExitCode::from(EXIT_ERROR);
    }
    let level = match (a.nodes, a.movetime, a.elo) {
        (Some(n), _, _) => buffgreen_gui::Level::Nodes(n),
        (_, _, Some(e)) => buffgreen_gui::Level::Elo(e),
        (_, ms, _) => buffgreen_gui::Level::Movetime(ms.unwrap_or(1000)),
    };
    let opts = buffgreen_gui::PlayOptions {
        engine,
        rules: a.rules.rules(),
        engine_side: match a.engine_side.as_str() {
            "black" => Some(buffgreen_gui::Side::Black),
            "white" => Some(buffgreen_gui::Side::White),
            _ => None,
        },
        level,
        pdn: a.pdn.clone(),
        flip: a.flip,
    };
    let stdin = std::io::stdin();
    match buffgreen_gui::play(&opts, stdin.lock(), std::io::stdout()) {
        // The game is safe, but not in the file asked for: the command was not done as asked.
        Ok(saved) if saved.fell_back => ExitCode::from(EXIT_ERROR),
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}
