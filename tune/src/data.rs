//! The training data's binary format: a 16-byte header naming the rules, then 16-byte
//! records, one quiet position each, labelled by its game's result and by the searcher's score.
//!
//! A record:
//!
//! | bytes | what |
//! |---|---|
//! | 0-3 | Black's pieces, bit `i` for square `i + 1` (little-endian) |
//! | 4-7 | White's pieces |
//! | 8-11 | the kings (of both sides) |
//! | 12 | flags: bit 0 White to move; bits 1-2 the result from Black's view (0 loss, 1 draw, 2 win); bit 3 the result is the tables' exact value of this very position; bit 4 the score is set; bit 5 the score is the alpha-beta searcher's (else the UCT's) |
//! | 13 | the no-progress clock (saturated at 255) |
//! | 14-15 | the score for the side to move, centi-men (little-endian `i16`), 0 when unset |
//!
//! The format is fixed-size so that a file can be cut at a record boundary, resumed by
//! truncation, counted by its length and sampled without parsing.

use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use buffgreen::board::{Position, Rules};
use buffgreen::types::{Bitboard, Color, Square};
use thiserror::Error;

/// The first eight bytes of a data file.
pub const MAGIC: &[u8; 8] = b"BGDATA01";
/// Bytes of the header.
pub const HEADER: u64 = 16;
/// Bytes of one record.
pub const RECORD: u64 = 16;

/// Why a data file cannot be used.
#[derive(Debug, Error)]
pub enum DataError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file does not start with [`MAGIC`].
    #[error("{0}: not a training data file (no BGDATA01 header)")]
    NotData(PathBuf),
    /// The file holds positions of other rules than asked for.
    #[error("{path}: holds positions of other rules ({found}) than asked for ({wanted})")]
    OtherRules {
        /// The file.
        path: PathBuf,
        /// The rules in the file.
        found: String,
        /// The rules asked for.
        wanted: String,
    },
    /// The file holds fewer records than its progress file counts: it was replaced or cut
    /// short, and the progress's counts of games and labels no longer describe it.
    #[error("{path}: holds {found} positions where its progress file counts {counted} (remove the progress file to start over)")]
    Short {
        /// The file.
        path: PathBuf,
        /// Whole records in the file.
        found: u64,
        /// Records the progress file counts.
        counted: u64,
    },
    /// A rule set of the 8x8 family: a data file's header records only the two rule
    /// switches, `Losing` and the draw half-moves, so its positions would read back as Buff
    /// and Green's.
    #[error("no data files for {0} yet: their header records only BackwardCapture, LongKings, Losing and DrawHalfMoves, so the positions would read back as Buff and Green's")]
    Family(&'static str),
    /// A record's pieces are not a position.
    #[error("record {0}: not a position")]
    BadRecord(u64),
}

/// The game's result from Black's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// White won.
    WhiteWins,
    /// Drawn.
    Draw,
    /// Black won.
    BlackWins,
}

impl Outcome {
    /// The result as Black's score: 0, 0.5 or 1.
    pub fn black_score(self) -> f64 {
        match self {
            Outcome::WhiteWins => 0.0,
            Outcome::Draw => 0.5,
            Outcome::BlackWins => 1.0,
        }
    }

    /// The outcome whose Black score is `black` (0, 0.5 or 1; anything between 0 and 1 that is
    /// not 0 or 1 is a draw).
    pub fn of_black_score(black: f64) -> Outcome {
        if black >= 1.0 {
            Outcome::BlackWins
        } else if black <= 0.0 {
            Outcome::WhiteWins
        } else {
            Outcome::Draw
        }
    }
}

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position.
    pub pos: Position,
    /// Its no-progress clock (saturated at 255).
    pub clock: u8,
    /// The result.
    pub outcome: Outcome,
    /// The result is the tables' exact value of this position, not its game's.
    pub exact: bool,
    /// The searcher's score for the side to move, centi-men, when it searched this position.
    pub score: Option<i16>,
    /// The score is the alpha-beta searcher's, not the UCT's.
    pub alpha_beta: bool,
}

/// The 32 squares of `b` packed into bits 0-31.
fn pack(b: Bitboard) -> u32 {
    Square::ALL
        .iter()
        .enumerate()
        .filter(|(_, &sq)| b.contains(sq))
        .fold(0, |acc, (i, _)| acc | 1 << i)
}

/// The squares of bits 0-31 of `bits`.
fn unpack(bits: u32) -> Bitboard {
    Square::ALL
        .iter()
        .enumerate()
        .filter(|(i, _)| bits >> i & 1 == 1)
        .map(|(_, &sq)| sq)
        .collect()
}

impl Record {
    /// The 16 bytes of the record.
    pub fn encode(&self) -> [u8; 16] {
        let mut out = [0u8; 16];
        let p = &self.pos;
        out[0..4].copy_from_slice(&pack(p.pieces(Color::Black)).to_le_bytes());
        out[4..8].copy_from_slice(&pack(p.pieces(Color::White)).to_le_bytes());
        out[8..12].copy_from_slice(&pack(p.all_kings()).to_le_bytes());
        let result = match self.outcome {
            Outcome::WhiteWins => 0u8,
            Outcome::Draw => 1,
            Outcome::BlackWins => 2,
        };
        out[12] = u8::from(p.side_to_move() == Color::White)
            | result << 1
            | u8::from(self.exact) << 3
            | u8::from(self.score.is_some()) << 4
            | u8::from(self.alpha_beta) << 5;
        out[13] = self.clock;
        out[14..16].copy_from_slice(&self.score.unwrap_or(0).to_le_bytes());
        out
    }

    /// The record of 16 bytes; `None` when they are not one (pieces overlapping, a man on its
    /// crowning row, a result code of 3).
    pub fn decode(bytes: &[u8; 16]) -> Option<Record> {
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let flags = bytes[12];
        let side = if flags & 1 == 1 {
            Color::White
        } else {
            Color::Black
        };
        let pos = Position::new(side, unpack(word(0)), unpack(word(4)), unpack(word(8))).ok()?;
        let outcome = match flags >> 1 & 3 {
            0 => Outcome::WhiteWins,
            1 => Outcome::Draw,
            2 => Outcome::BlackWins,
            _ => return None,
        };
        let score = (flags & 16 != 0).then(|| i16::from_le_bytes([bytes[14], bytes[15]]));
        Some(Record {
            pos,
            clock: bytes[13],
            outcome,
            exact: flags & 8 != 0,
            score,
            alpha_beta: flags & 32 != 0,
        })
    }

    /// The result from the side to move's view: 1 win, 0.5 draw, 0 loss.
    pub fn mover_score(&self) -> f64 {
        let black = self.outcome.black_score();
        match self.pos.side_to_move() {
            Color::Black => black,
            Color::White => 1.0 - black,
        }
    }
}

/// The header of a file of positions under `rules`.
pub fn header(rules: &Rules) -> [u8; 16] {
    let mut h = [0u8; 16];
    h[..8].copy_from_slice(MAGIC);
    h[8] = u8::from(rules.backward_capture)
        | u8::from(rules.long_kings) << 1
        | u8::from(rules.losing) << 2;
    h[9] = rules.draw_half_moves.min(255) as u8;
    h
}

/// The rules a header names, `None` when it is not a header.
pub fn rules_of(h: &[u8; 16]) -> Option<Rules> {
    (&h[..8] == MAGIC).then(|| Rules {
        backward_capture: h[8] & 1 != 0,
        long_kings: h[8] & 2 != 0,
        losing: h[8] & 4 != 0,
        draw_half_moves: u32::from(h[9]),
        ..Rules::BUFF_AND_GREEN
    })
}

/// A short name of `rules` for messages.
pub fn rules_name(rules: &Rules) -> String {
    format!(
        "backward capture {}, long kings {}, losing {}, draw {}",
        rules.backward_capture, rules.long_kings, rules.losing, rules.draw_half_moves
    )
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> DataError + '_ {
    move |source| DataError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Opens `path` for appending records of `rules` (a rule set of the 8x8 family, which the
/// header cannot name, is refused before anything is opened): creates it with its header when
/// missing, else checks the header and cuts the file back to `keep` records (what the progress file
/// says was written whole; `None` keeps every whole record). A file with fewer records than
/// `keep` (deleted or replaced since) is refused, left as it was. Returns the file, positioned
/// at its end, and the records it holds.
pub fn open_append(
    path: &Path,
    rules: &Rules,
    keep: Option<u64>,
) -> Result<(File, u64), DataError> {
    let variant = rules.variant();
    if !variant.switches_name_it() {
        return Err(DataError::Family(variant.name()));
    }
    let existed = path.exists();
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(io_error(path))?;
    let len = file.metadata().map_err(io_error(path))?.len();
    let short = |found: u64| DataError::Short {
        path: path.to_path_buf(),
        found,
        counted: keep.unwrap_or(0),
    };
    if len == 0 {
        if keep.is_some_and(|k| k > 0) {
            if !existed {
                let _ = std::fs::remove_file(path);
            }
            return Err(short(0));
        }
        file.write_all(&header(rules)).map_err(io_error(path))?;
        return Ok((file, 0));
    }
    let mut h = [0u8; 16];
    if len < HEADER {
        return Err(DataError::NotData(path.to_path_buf()));
    }
    file.read_exact(&mut h).map_err(io_error(path))?;
    let found = rules_of(&h).ok_or_else(|| DataError::NotData(path.to_path_buf()))?;
    if found != *rules {
        return Err(DataError::OtherRules {
            path: path.to_path_buf(),
            found: rules_name(&found),
            wanted: rules_name(rules),
        });
    }
    let whole = (len - HEADER) / RECORD;
    if keep.is_some_and(|k| k > whole) {
        return Err(short(whole));
    }
    let records = keep.map_or(whole, |k| k.min(whole));
    file.set_len(HEADER + records * RECORD)
        .map_err(io_error(path))?;
    file.seek(SeekFrom::End(0)).map_err(io_error(path))?;
    Ok((file, records))
}

/// Reads the records of a data file in order.
pub struct Reader {
    input: BufReader<File>,
    rules: Rules,
    index: u64,
}

impl Reader {
    /// Opens `path`, reading its header.
    pub fn open(path: &Path) -> Result<Reader, DataError> {
        let file = File::open(path).map_err(io_error(path))?;
        let mut input = BufReader::with_capacity(1 << 20, file);
        let mut h = [0u8; 16];
        input
            .read_exact(&mut h)
            .map_err(|_| DataError::NotData(path.to_path_buf()))?;
        let rules = rules_of(&h).ok_or_else(|| DataError::NotData(path.to_path_buf()))?;
        Ok(Reader {
            input,
            rules,
            index: 0,
        })
    }

    /// The rules the file's positions are under.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The next record: `None` at the end (a cut last record is the end), an error for
    /// bytes that are not a record.
    pub fn next_record(&mut self) -> Option<Result<Record, DataError>> {
        let mut bytes = [0u8; 16];
        self.input.read_exact(&mut bytes).ok()?;
        let index = self.index;
        self.index += 1;
        Some(Record::decode(&bytes).ok_or(DataError::BadRecord(index)))
    }
}

impl Iterator for Reader {
    type Item = Result<Record, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_record()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use buffgreen::board::fen;

    #[test]
    fn records_round_trip() {
        let pos = fen::parse("W:WK1,14,32:B5,K28,9").unwrap();
        for (outcome, exact, score, alpha_beta) in [
            (Outcome::BlackWins, false, Some(-250), true),
            (Outcome::Draw, true, None, false),
            (Outcome::WhiteWins, false, Some(i16::MAX), false),
        ] {
            let r = Record {
                pos,
                clock: 17,
                outcome,
                exact,
                score,
                alpha_beta,
            };
            let bytes = r.encode();
            assert_eq!(Record::decode(&bytes), Some(r));
        }
        let bytes = Record {
            pos,
            clock: 0,
            outcome: Outcome::Draw,
            exact: false,
            score: None,
            alpha_beta: false,
        }
        .encode();
        // White's pieces on 1, 14 and 32; kings on 1 and 28.
        assert_eq!(
            u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]),
            1 | 1 << 13 | 1 << 31
        );
        assert_eq!(
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]),
            1 | 1 << 27
        );
        assert_eq!(bytes[12], 1 | 1 << 1);
        // Overlapping pieces are not a record.
        let mut bad = bytes;
        bad[0] = 1;
        assert_eq!(Record::decode(&bad), None);
    }

    #[test]
    fn the_family_is_refused_before_a_file_is_made() {
        use buffgreen::board::Variant;
        let path = std::env::temp_dir().join(format!("bg-data-family-{}", std::process::id()));
        for variant in [Variant::Pool, Variant::Russian, Variant::Brazilian] {
            let err = open_append(&path, &variant.rules(), None).expect_err("refused");
            assert!(matches!(err, DataError::Family(name) if name == variant.name()));
            assert!(!path.exists());
        }
        assert_eq!(
            DataError::Family(Variant::Pool.name()).to_string(),
            "no data files for American Pool checkers yet: their header records only \
             BackwardCapture, LongKings, Losing and DrawHalfMoves, so the positions would read \
             back as Buff and Green's"
        );
    }

    #[test]
    fn headers_name_their_rules() {
        for rules in [Rules::default(), Rules::ENGLISH] {
            assert_eq!(rules_of(&header(&rules)), Some(rules));
        }
        assert_eq!(rules_of(&[0u8; 16]), None);
    }
}
