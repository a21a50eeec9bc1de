//! The training labels of `buffgreen_tune`: the tables' result of named endings from
//! Black's view, at their clock, under both rule settings, and the line format datagen writes
//! and tune reads.

use buffgreen::board::{fen, Rules};
use buffgreen::tablebase::Tablebase;
use buffgreen_tune::{parse_line, table_label, Labelled, Source};

use crate::tables;

#[test]
fn table_labels_of_named_endings() {
    let bg = (tables(3, &Rules::BUFF_AND_GREEN), Rules::BUFF_AND_GREEN);
    let en = (tables(3, &Rules::ENGLISH), Rules::ENGLISH);
    let cases = [
        // Black to move takes White's man or wins the king ending (win 1, win 2): 1.
        (&bg, "B:W14:BK10", 0, Some(1.0)),
        (&bg, "B:WK1:BK10,K19", 0, Some(1.0)),
        // The same win two plies from its conversion, at clock 79 of 80: a draw.
        (&bg, "B:WK1:BK10,K19", 79, Some(0.5)),
        // White to move: a White win under Buff and Green rules (win 1 for the side to move)
        // is 0 from Black's view; under English rules White loses (loss 1): 1.
        (&bg, "W:W6:B1,K10", 0, Some(0.0)),
        (&en, "W:W6:B1,K10", 0, Some(1.0)),
        // King against king: drawn with flying kings.
        (&bg, "B:WK29:BK1", 0, Some(0.5)),
        // Four pieces are not covered by 3-piece tables.
        (&bg, "B:W14,15:BK10,K19", 0, None),
    ];
    for ((dir, rules), text, clock, want) in cases {
        let tb = Tablebase::open(dir, rules).expect("tables open");
        let pos = fen::parse(text).expect("valid FEN");
        assert_eq!(
            table_label(&tb, &pos, clock),
            want,
            "{text} at clock {clock}"
        );
    }
}

#[test]
fn lines_round_trip_and_cut_lines_are_refused() {
    let pos = fen::parse("W:W6:B1,K10").expect("valid FEN");
    let line = Labelled {
        pos,
        clock: 3,
        black: 0.5,
        source: Source::Table,
    }
    .to_string();
    assert_eq!(line, "W:W6:B1,K10\t3\t0.5\ttable");
    assert_eq!(
        parse_line(&line).map(|l| (l.clock, l.black, l.source)),
        Some((3, 0.5, Source::Table))
    );
    // The first fits' lines have no source: the game's outcome.
    assert_eq!(
        parse_line("W:W6:B1,K10\t0\t1").map(|l| l.source),
        Some(Source::Game)
    );
    for bad in [
        "W:W6:B1,K10\t3\t0.5\ttab",
        "W:W6:B1,K10\t3\t1.5\tgame",
        "W:W6:B1,K10\t3",
        "W:W6:B1,K\t3\t0\tgame",
        "",
    ] {
        assert_eq!(parse_line(bad), None, "{bad:?}");
    }
}
