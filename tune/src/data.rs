//! The training data's binary format: a 16-byte header naming the rules, then 16-byte
//! records, one quiet position each, labelled by its game's result and by the searcher's score.
//!
//! The header:
//!
//! | bytes | what |
//! |---|---|
//! | 0-7 | [`MAGIC`] (files written before the 8x8 family had data: [`MAGIC_V1`]) |
//! | 8 | bit 0 `BackwardCapture`, bit 1 `LongKings`, bit 2 `Losing` |
//! | 9 | `DrawHalfMoves` (saturated at 255) |
//! | 10 | bit 0 captured pieces removed at the end of the move, bit 1 the capture taking the most is compulsory, bit 2 White moves first ([`MAGIC`] only) |
//! | 11 | when a man crowned during a capture becomes a king: 0 touched, 1 at once, 2 at the end ([`MAGIC`] only) |
//! | 12 | the draw rules beside `DrawHalfMoves`: 0 none, 1 Russian, 2 Pool ([`MAGIC`] only) |
//! | 13-15 | zero |
//!
//! A [`MAGIC_V1`] header has only bytes 8 and 9: its positions are under the rule set the two
//! switches name, as it was read when it was written.
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

use buffgreen::board::{Crowning, DrawRules, Position, Rules};
use buffgreen::types::{Bitboard, Color, Square};
use thiserror::Error;

/// The first eight bytes of a data file as written now: the header records every field of the
/// rules.
pub const MAGIC: &[u8; 8] = b"BGDATA02";
/// The first eight bytes of a data file written before [`MAGIC`]: the header records the two
/// rule switches, `Losing` and the draw half-moves; still read.
pub const MAGIC_V1: &[u8; 8] = b"BGDATA01";
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
    /// The file does not start with [`MAGIC`] or [`MAGIC_V1`].
    #[error("{0}: not a training data file (no BGDATA02 or BGDATA01 header)")]
    NotData(PathBuf),
    /// The header's rule fields hold a value no rules have (a file of a later format, or
    /// damaged).
    #[error(
        "{path}: the header's rule fields (bytes 10-15: {bytes}) name no rules this program knows"
    )]
    BadHeader {
        /// The file.
        path: PathBuf,
        /// Bytes 10-15 of the header, in hex.
        bytes: String,
    },
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

/// The header of a file of positions under `rules` (a [`MAGIC`] header).
pub fn header(rules: &Rules) -> [u8; 16] {
    let mut h = [0u8; 16];
    h[..8].copy_from_slice(MAGIC);
    h[8] = u8::from(rules.backward_capture)
        | u8::from(rules.long_kings) << 1
        | u8::from(rules.losing) << 2;
    h[9] = rules.draw_half_moves.min(255) as u8;
    h[10] = u8::from(rules.remove_at_end)
        | u8::from(rules.majority) << 1
        | u8::from(rules.white_first) << 2;
    h[11] = match rules.crowning {
        Crowning::Touched => 0,
        Crowning::AtOnce => 1,
        Crowning::AtEnd => 2,
    };
    h[12] = match rules.draws {
        DrawRules::HalfMoves => 0,
        DrawRules::Russian => 1,
        DrawRules::Pool => 2,
    };
    h
}

/// What a header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderRead {
    /// The rules of the file's positions.
    Rules(Rules),
    /// Not a data file's header (neither magic).
    NotData,
    /// A [`MAGIC`] header whose rule fields (bytes 10-15) hold a value no rules have.
    BadFields,
}

/// The rules a header names.
pub fn read_header(h: &[u8; 16]) -> HeaderRead {
    let switches = Rules {
        backward_capture: h[8] & 1 != 0,
        long_kings: h[8] & 2 != 0,
        losing: h[8] & 4 != 0,
        draw_half_moves: u32::from(h[9]),
        ..Rules::BUFF_AND_GREEN
    };
    if &h[..8] == MAGIC_V1 {
        // Such a file was written only under the rule sets the two switches name, whose other
        // fields are Buff and Green's: read as it was when written.
        return HeaderRead::Rules(switches);
    }
    if &h[..8] != MAGIC {
        return HeaderRead::NotData;
    }
    let crowning = match h[11] {
        0 => Crowning::Touched,
        1 => Crowning::AtOnce,
        2 => Crowning::AtEnd,
        _ => return HeaderRead::BadFields,
    };
    let draws = match h[12] {
        0 => DrawRules::HalfMoves,
        1 => DrawRules::Russian,
        2 => DrawRules::Pool,
        _ => return HeaderRead::BadFields,
    };
    if h[8] & !7 != 0 || h[10] & !7 != 0 || h[13..].iter().any(|&b| b != 0) {
        return HeaderRead::BadFields;
    }
    HeaderRead::Rules(Rules {
        remove_at_end: h[10] & 1 != 0,
        majority: h[10] & 2 != 0,
        white_first: h[10] & 4 != 0,
        crowning,
        draws,
        ..switches
    })
}

/// The rules a header names, `None` when it is not a header or names no rules.
pub fn rules_of(h: &[u8; 16]) -> Option<Rules> {
    match read_header(h) {
        HeaderRead::Rules(rules) => Some(rules),
        HeaderRead::NotData | HeaderRead::BadFields => None,
    }
}

/// The rules of the file `path` whose header is `h`, or why it names none.
fn header_rules(path: &Path, h: &[u8; 16]) -> Result<Rules, DataError> {
    match read_header(h) {
        HeaderRead::Rules(rules) => Ok(rules),
        HeaderRead::NotData => Err(DataError::NotData(path.to_path_buf())),
        HeaderRead::BadFields => Err(DataError::BadHeader {
            path: path.to_path_buf(),
            bytes: h[10..].iter().map(|b| format!("{b:02x}")).collect(),
        }),
    }
}

/// A short name of `rules` for messages: the rule set's key, then the options on top of it.
pub fn rules_name(rules: &Rules) -> String {
    let variant = rules.variant();
    let exact = rules.with_variant(variant) == *rules;
    format!(
        "{}{}, losing {}, draw {}",
        variant.key(),
        if exact { "" } else { " (mixed)" },
        rules.losing,
        rules.draw_half_moves
    )
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> DataError + '_ {
    move |source| DataError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Opens `path` for appending records of `rules`: creates it with its header when missing, else checks the header and cuts the file back to `keep` records (what the progress file
/// says was written whole; `None` keeps every whole record). A file with fewer records than
/// `keep` (deleted or replaced since) is refused, left as it was. Returns the file, positioned
/// at its end, and the records it holds.
pub fn open_append(
    path: &Path,
    rules: &Rules,
    keep: Option<u64>,
) -> Result<(File, u64), DataError> {
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
    let found = header_rules(path, &h)?;
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
        let rules = header_rules(path, &h)?;
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
    fn family_headers_round_trip_and_family_files_open() {
        use buffgreen::board::Variant;
        let russian = Variant::Russian.rules();
        let h = header(&russian);
        assert_eq!(&h[..8], b"BGDATA02");
        assert_eq!(h[8..], [3, 80, 5, 1, 1, 0, 0, 0]);
        assert_eq!(
            header(&Variant::Brazilian.rules())[8..],
            [3, 80, 7, 2, 1, 0, 0, 0]
        );
        assert_eq!(
            header(&Variant::Pool.rules())[8..],
            [3, 80, 1, 2, 2, 0, 0, 0]
        );
        for variant in Variant::ALL {
            for losing in [false, true] {
                let rules = Rules {
                    losing,
                    draw_half_moves: 60,
                    ..variant.rules()
                };
                assert_eq!(rules_of(&header(&rules)), Some(rules));
                assert_eq!(
                    rules_of(&header(&rules)).map(|r| r.variant()),
                    Some(variant)
                );
            }
        }
        let path = std::env::temp_dir().join(format!("bg-data-family-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let (mut file, n) = open_append(&path, &russian, None).expect("a new Russian file");
        assert_eq!(n, 0);
        let pos = buffgreen::board::Position::start(&russian);
        let record = Record {
            pos,
            clock: 3,
            outcome: Outcome::WhiteWins,
            exact: false,
            score: Some(12),
            alpha_beta: true,
        };
        file.write_all(&record.encode()).expect("write");
        drop(file);
        let mut reader = Reader::open(&path).expect("read back");
        assert_eq!(reader.rules(), russian);
        assert_eq!(reader.next().map(|r| r.ok()), Some(Some(record)));
        assert!(reader.next().is_none());
        let (_, n) = open_append(&path, &russian, Some(1)).expect("resumed");
        assert_eq!(n, 1);
        match open_append(&path, &Variant::Brazilian.rules(), None) {
            Err(e @ DataError::OtherRules { .. }) => assert_eq!(
                e.to_string(),
                format!(
                    "{}: holds positions of other rules (russian, losing false, draw 80) than \
                     asked for (brazilian, losing false, draw 80)",
                    path.display()
                )
            ),
            other => panic!("{:?}", other.map(|(_, n)| n)),
        }
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn old_headers_read_as_they_did() {
        // A header as the first format wrote it for English checkers, losing, 60 half-moves.
        let mut h = [0u8; 16];
        h[..8].copy_from_slice(b"BGDATA01");
        h[8] = 4;
        h[9] = 60;
        assert_eq!(
            rules_of(&h),
            Some(Rules {
                losing: true,
                draw_half_moves: 60,
                ..Rules::ENGLISH
            })
        );
        h[8] = 3 | 4;
        h[9] = 80;
        assert_eq!(
            rules_of(&h),
            Some(Rules {
                losing: true,
                ..Rules::BUFF_AND_GREEN
            })
        );
    }

    #[test]
    fn a_bad_header_is_one_error() {
        let path = std::env::temp_dir().join(format!("bg-data-bad-{}", std::process::id()));
        let mut h = header(&Rules::BUFF_AND_GREEN);
        h[11] = 3;
        std::fs::write(&path, h).expect("write");
        assert_eq!(read_header(&h), HeaderRead::BadFields);
        let err = Reader::open(&path).err().expect("refused");
        assert_eq!(
            err.to_string(),
            format!(
                "{}: the header's rule fields (bytes 10-15: 000300000000) name no rules this \
                 program knows",
                path.display()
            )
        );
        assert!(matches!(
            open_append(&path, &Rules::BUFF_AND_GREEN, None),
            Err(DataError::BadHeader { .. })
        ));
        h = header(&Rules::BUFF_AND_GREEN);
        h[15] = 1;
        assert_eq!(read_header(&h), HeaderRead::BadFields);
        h[..8].copy_from_slice(b"BGDATA03");
        assert_eq!(read_header(&h), HeaderRead::NotData);
        std::fs::write(&path, h).expect("write");
        assert_eq!(
            Reader::open(&path).err().map(|e| e.to_string()),
            Some(format!(
                "{}: not a training data file (no BGDATA02 or BGDATA01 header)",
                path.display()
            ))
        );
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn headers_name_their_rules() {
        for rules in [Rules::default(), Rules::ENGLISH] {
            assert_eq!(rules_of(&header(&rules)), Some(rules));
        }
        assert_eq!(rules_of(&[0u8; 16]), None);
    }
}
