//! `buffgreen play`: a game against the engine in a terminal (or through a pipe): the board
//! with its square numbers, moves typed in numbers or algebraic squares, undo, flip, and the
//! game appended to a PDN file on exit.

use std::fs::File;
use std::io::{BufRead, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use buffgreen_client::EngineSpec;

use crate::engine::Engine;
use crate::error::GuiError;
use crate::game::{
    self, describe, in_notation, resolve, wait_bestmove, Level, Notation, Record, Rules, Side,
    Snapshot,
};

/// A terminal game's settings.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The engine.
    pub engine: EngineSpec,
    /// The rules.
    pub rules: Rules,
    /// The side the engine plays, `None` for none (two people at one keyboard).
    pub engine_side: Option<Side>,
    /// How long the engine thinks.
    pub level: Level,
    /// The PDN file the game is appended to on exit.
    pub pdn: PathBuf,
    /// Show the board from Black's side.
    pub flip: bool,
}

const HELP: &str = "commands: a move (11-15, 9x18x27, 9x27, f6-e5), undo, flip, go (the engine \
moves now), level nodes N|movetime MS|elo E, moves, help, quit";

/// The game's place at the end of the PDN file: written again after every move, so that an
/// interrupted game (Ctrl-C, a closed terminal) is saved as far as it went. When the file
/// cannot be written (at the start or later: a full disk, a folder that is gone), the game
/// goes to [`fallback_path`] instead, said once on stderr, so that it is never lost.
struct Saver {
    path: PathBuf,
    /// `None` until the file is open, and after it failed until the fallback is open.
    file: Option<File>,
    /// Where the game starts: the file's length before it.
    at: u64,
    /// True once the game went to the fallback.
    fell_back: bool,
}

impl Saver {
    fn new(path: &Path) -> Saver {
        let mut saver = Saver {
            path: path.to_path_buf(),
            file: None,
            at: 0,
            fell_back: false,
        };
        if let Err(e) = saver.open() {
            saver.fall_back(&e);
        }
        saver
    }

    /// Opens `self.path` to append the game.
    fn open(&mut self) -> std::io::Result<()> {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&self.path)?;
        self.at = file.seek(SeekFrom::End(0))?;
        self.file = Some(file);
        Ok(())
    }

    /// Moves on to the fallback file after `why`, once; says so on stderr.
    fn fall_back(&mut self, why: &std::io::Error) {
        self.file = None;
        if self.fell_back {
            return;
        }
        self.fell_back = true;
        let named = std::mem::replace(&mut self.path, fallback_path());
        let opened = self.open();
        match opened {
            Ok(()) => eprintln!(
                "warning: cannot write the game to {}: {why}; it goes to {}",
                named.display(),
                self.path.display()
            ),
            Err(e) => eprintln!(
                "error: cannot write the game to {}: {why}, nor to {}: {e}",
                named.display(),
                self.path.display()
            ),
        }
    }

    /// Writes `text` as the file's last game, in place of the version written before; on a
    /// failure the game goes to the fallback file.
    fn save(&mut self, text: &str) -> Result<(), GuiError> {
        if let Err(e) = self.write(text) {
            if self.fell_back {
                return Err(e.into());
            }
            self.fall_back(&e);
            self.write(text)?;
        }
        Ok(())
    }

    fn write(&mut self, text: &str) -> std::io::Result<()> {
        let Some(file) = self.file.as_mut() else {
            return Err(std::io::Error::other("no file to write"));
        };
        file.set_len(self.at)?;
        file.seek(SeekFrom::Start(self.at))?;
        file.write_all(text.as_bytes())?;
        file.flush()
    }
}

/// Where a game goes when its PDN file cannot be written: a file of this process in the
/// system's temporary folder.
pub fn fallback_path() -> PathBuf {
    std::env::temp_dir().join(format!("buffgreen-game-{}.pdn", std::process::id()))
}

/// The longest input line kept; the rest of a longer line is dropped (memory stays bounded
/// whatever is typed or piped in).
const MAX_INPUT_LINE: usize = 64 * 1024;

/// The next line of `input` without its line end, bytes that are not UTF-8 replaced (a line
/// is a command, never stored), at most [`MAX_INPUT_LINE`] bytes of it; `None` at the end.
fn next_line(input: &mut impl BufRead) -> std::io::Result<Option<String>> {
    let cap = MAX_INPUT_LINE as u64;
    let mut line = Vec::new();
    if (&mut *input).take(cap).read_until(b'\n', &mut line)? == 0 {
        return Ok(None);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
    } else {
        // Longer than kept: the rest of the line is read and dropped, a piece at a time.
        let mut rest = Vec::new();
        while (&mut *input).take(cap).read_until(b'\n', &mut rest)? > 0 {
            if rest.last() == Some(&b'\n') {
                break;
            }
            rest.clear();
        }
    }
    Ok(Some(String::from_utf8_lossy(&line).into_owned()))
}

/// How a game ended for the file: where it was saved, and whether that is the fallback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    /// The file that holds the game.
    pub path: PathBuf,
    /// True when the PDN file named could not be written and the game went to
    /// [`fallback_path`].
    pub fell_back: bool,
}

/// Plays one game on `input`/`out`; the PDN is written after every move, the last time when
/// the input ends or at `quit`. Returns where the game was saved.
pub fn play(
    opts: &PlayOptions,
    mut input: impl BufRead,
    mut out: impl Write,
) -> Result<Saved, GuiError> {
    let mut engine = Engine::start(&opts.engine)?;
    engine.send("ucinewgame")?;
    let mut record = Record::new(opts.rules, game::start_fen(&opts.rules));
    let notation = opts.rules.variant().notation();
    let written = |moves: &[String]| {
        moves
            .iter()
            .map(|m| in_notation(m, notation))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut snap = describe(&mut engine, &record)?;
    // Opened once the engine took the rules: a game that cannot start leaves no file.
    let mut saver = Saver::new(&opts.pdn);
    let mut flip = opts.flip;
    let mut level = opts.level;
    let side_name = |s: Option<Side>| s.map_or("nobody", Side::name);
    writeln!(
        out,
        "buffgreen play: {} ({}); the engine '{}' plays {}; {}",
        opts.rules.variant().name(),
        if opts.rules.losing {
            "losing"
        } else {
            "normal"
        },
        opts.engine.name,
        side_name(opts.engine_side),
        HELP
    )?;
    let engine_turn = |engine: &mut Engine,
                       record: &mut Record,
                       snap: &mut Snapshot,
                       level: Level,
                       out: &mut dyn Write|
     -> Result<(), GuiError> {
        if engine.has_option("UCI_LimitStrength") {
            for l in level.setoptions() {
                engine.send(&l)?;
            }
        }
        engine.send(&record.position_command())?;
        engine.send(&format!("go {}", level.go_params()))?;
        let mv = wait_bestmove(engine, Duration::from_secs(3600), |_| {})?;
        let mv =
            resolve(&mv, &snap.legal).map_err(|e| GuiError::Engine(format!("bad move: {e}")))?;
        writeln!(
            out,
            "{} plays {}",
            snap.turn.title(),
            in_notation(&mv, notation)
        )?;
        record.moves.truncate(record.ply);
        record.moves.push(mv);
        record.ply += 1;
        *snap = describe(engine, record)?;
        Ok(())
    };
    if opts.engine_side == Some(snap.turn) {
        engine_turn(&mut engine, &mut record, &mut snap, level, &mut out)?;
    }
    show(&mut out, &record, &snap, flip)?;
    loop {
        // Saved before the next line is waited for: the game so far survives an interrupt.
        saver.save(&game_pdn(opts, &record, &snap))?;
        let Some(line) = next_line(&mut input)? else {
            break;
        };
        let cmd = line.trim();
        let mut words = cmd.split_whitespace();
        match words.next() {
            None => continue,
            Some("quit") => break,
            Some("help") => writeln!(out, "{HELP}")?,
            Some("flip") => {
                flip = !flip;
                show(&mut out, &record, &snap, flip)?;
            }
            Some("moves") => writeln!(out, "legal moves: {}", written(&snap.legal))?,
            Some("undo") => {
                if record.ply == 0 {
                    writeln!(out, "error: nothing to undo")?;
                    continue;
                }
                record.ply -= 1;
                if opts.engine_side.is_some() && record.ply > 0 {
                    // Take back the engine's reply too, so the human moves next.
                    let s = describe(&mut engine, &record)?;
                    if opts.engine_side == Some(s.turn) {
                        record.ply -= 1;
                    }
                }
                record.moves.truncate(record.ply);
                snap = describe(&mut engine, &record)?;
                show(&mut out, &record, &snap, flip)?;
            }
            Some("level") => match (
                words.next(),
                words.next().and_then(|n| n.parse::<u64>().ok()),
            ) {
                (Some("nodes"), Some(n)) if n >= 1 => level = Level::Nodes(n),
                (Some("movetime"), Some(n)) if n >= 1 => level = Level::Movetime(n),
                (Some("elo"), Some(n)) if (800..=2000).contains(&n) => level = Level::Elo(n as u32),
                _ => writeln!(out, "error: level nodes N | movetime MS | elo 800-2000")?,
            },
            Some("go") => {
                if snap.legal.is_empty() {
                    writeln!(out, "error: the game is over")?;
                    continue;
                }
                engine_turn(&mut engine, &mut record, &mut snap, level, &mut out)?;
                // The engine moved for the human: its own reply follows, as after a move.
                if opts.engine_side == Some(snap.turn) && !snap.legal.is_empty() {
                    engine_turn(&mut engine, &mut record, &mut snap, level, &mut out)?;
                }
                show(&mut out, &record, &snap, flip)?;
            }
            Some(_) => {
                if snap.legal.is_empty() {
                    writeln!(out, "error: the game is over")?;
                    continue;
                }
                if opts.engine_side == Some(snap.turn) {
                    writeln!(out, "error: it is the engine's move (type go)")?;
                    continue;
                }
                let mv = match resolve(cmd, &snap.legal) {
                    Ok(mv) => mv,
                    Err(e) => {
                        writeln!(out, "error: {e}")?;
                        continue;
                    }
                };
                record.moves.truncate(record.ply);
                record.moves.push(mv);
                record.ply += 1;
                snap = describe(&mut engine, &record)?;
                if opts.engine_side == Some(snap.turn) && !snap.legal.is_empty() {
                    engine_turn(&mut engine, &mut record, &mut snap, level, &mut out)?;
                }
                show(&mut out, &record, &snap, flip)?;
            }
        }
    }
    saver.save(&game_pdn(opts, &record, &snap))?;
    writeln!(out, "game saved to {}", saver.path.display())?;
    Ok(Saved {
        path: saver.path.clone(),
        fell_back: saver.fell_back,
    })
}

/// The game as PDN, as it stands.
fn game_pdn(opts: &PlayOptions, record: &Record, snap: &Snapshot) -> String {
    let name = |s: Side| {
        if opts.engine_side == Some(s) {
            opts.engine.name.as_str()
        } else {
            "human"
        }
    };
    let (result, termination) = match snap.end_reason(&record.rules) {
        Some(r) => (snap.pdn_result(), format!("normal: {r}")),
        None => ("*", "unterminated".to_string()),
    };
    record.pdn(
        "buffgreen play",
        [name(Side::White), name(Side::Black)],
        result,
        "-".to_string(),
        termination,
    )
}

/// The pieces of a canonical FEN: per square 1-32, `b`/`w` men, `B`/`W` kings.
pub fn pieces(fen: &str) -> [Option<char>; 33] {
    let mut board = [None; 33];
    for section in fen.split(':').skip(1) {
        let mut chars = section.chars();
        let color = chars.next();
        for item in chars.as_str().split(',') {
            let (king, sq) = match item.strip_prefix('K') {
                Some(s) => (true, s),
                None => (false, item),
            };
            let Ok(n) = sq.trim().parse::<usize>() else {
                continue;
            };
            if (1..=32).contains(&n) {
                board[n] = match (color, king) {
                    (Some('B'), false) => Some('b'),
                    (Some('B'), true) => Some('B'),
                    (Some('W'), false) => Some('w'),
                    (Some('W'), true) => Some('W'),
                    _ => None,
                };
            }
        }
    }
    board
}

fn show(out: &mut dyn Write, record: &Record, snap: &Snapshot, flip: bool) -> Result<(), GuiError> {
    let board = pieces(&snap.fen);
    // The rule set's own square names: numbers, or a1-h8 where its players write those.
    let algebraic = record.rules.variant().notation() == Notation::Algebraic;
    let files: Vec<char> = if flip { "hgfedcba" } else { "abcdefgh" }.chars().collect();
    let mut head = String::from("    ");
    for f in &files {
        head.push_str(&format!(" {f} "));
    }
    // Beside the board, every square's number: the board hides those under a piece.
    head.push_str("    squares");
    writeln!(out, "{head}")?;
    for r in 0..8 {
        let row = if flip { 7 - r } else { r };
        let mut line = format!(" {} |", 8 - row);
        let mut key = String::new();
        for c in 0..8 {
            let col = if flip { 7 - c } else { c };
            if (row + col) % 2 == 1 {
                let n = row * 4 + col / 2 + 1;
                let name = if algebraic {
                    game::algebraic(n as u8)
                } else {
                    n.to_string()
                };
                match board[n] {
                    Some(p) => line.push_str(&format!(" {p} ")),
                    None if algebraic => line.push_str(" . "),
                    None => line.push_str(&format!("{n:>2} ")),
                }
                key.push_str(&format!("{name:>3}"));
            } else {
                line.push_str("   ");
                key.push_str("   ");
            }
        }
        line.push('|');
        writeln!(out, "{line}   {}", key.trim_end())?;
    }
    writeln!(out, "Fen: {}", snap.fen)?;
    match snap.end_reason(&record.rules) {
        Some(reason) => writeln!(out, "Game over: {} ({reason})", snap.result)?,
        None => writeln!(
            out,
            "Move {}: {} to move",
            record.ply / 2 + 1,
            snap.turn.name()
        )?,
    }
    Ok(())
}
