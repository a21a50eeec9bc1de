//! PDN as the match runner and the front ends write and read it.
//!
//! Written games follow PDN so that both Python draughts libraries read them back move by move
//! (scripts/pdn_interop.sh checks pydraughts 0.6.7 and py-draughts 1.10.1, docs/match.md says
//! why each choice):
//! - tags `[Name "value"]`, one a line: Event, Date, Round, White, Black, Result, GameType,
//!   Variant, Rules, TimeControl, Termination, PlyCount, Opening, then SetUp and FEN;
//! - Result is White's score first, draughts-style: `2-0` White won, `0-2` Black won, `1-1`
//!   draw (the reader also takes `1-0`, `0-1`, `1/2-1/2`);
//! - GameType `21` (English checkers) when both rule switches are off; otherwise
//!   `32,B,8,8,N1,0`: the first number PDN 3.0 leaves free for new draughts games, then the
//!   board as English checkers has it (Black first, 8x8, numbers from the top-left corner). Not
//!   `23` (American pool checkers), which py-draughts writes for its American checkers, that is
//!   English checkers: a reader could not tell the two apart. The `Variant` tag names the rules
//!   in words and the `Rules` tag (`BackwardCapture=.. LongKings=.. DrawHalfMoves=..`) is exact;
//!   this reader uses `Rules`;
//! - every game has a FEN tag, since py-draughts' American board otherwise lets the side on
//!   21-32 move first. From the standard start (Black to move) the FEN line is indented by a
//!   tab: pydraughts 0.6.7 reads tags only from lines that begin with `[`, and a FEN with Black
//!   to move makes it read the first move twice; without the tag it starts from the standard
//!   position, which is right. Other starts get a plain FEN line;
//! - movetext numbered per pair of plies from the start position (`1. 11-15 23-19 2. ...`),
//!   captures in long form (`9x18x27`), then the result. Games from an openings file given as
//!   moves start from the standard position, the opening moves included.
//!
//! Layout: [`write`](mod@write) writes a game's tags and movetext; [`read`] reads PDN files into games
//! (tags, movetext, the places of errors) and the rules their tags name.

pub mod read;
pub mod write;

pub use read::{
    decode, draughts_result, parse, read_file, read_games, PdnError, PdnFileError, PdnGame, Place,
};
pub use write::{tag_value, write, Header};
