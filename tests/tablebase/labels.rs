//! The training labels of `buffgreen_tune`: the tables' result of named endings from
//! Black's view, at their clock, under both rule settings, and the data files datagen writes
//! and the fits read.

use buffgreen::board::{fen, DrawCount, Rules};
use buffgreen::tablebase::Tablebase;
use std::io::Write;

use buffgreen_tune::data::{open_append, DataError, Outcome, Reader, Record};
use buffgreen_tune::rescore::{self, Plan};
use buffgreen_tune::table_label;

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
            table_label(&tb, &pos, clock, DrawCount::default()),
            want,
            "{text} at clock {clock}"
        );
    }
}

#[test]
fn data_files_resume_by_truncation_and_refuse_other_rules() {
    let dir = std::env::temp_dir().join(format!("bg-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("d.bin");
    let _ = std::fs::remove_file(&path);
    let pos = fen::parse("W:W6:B1,K10").expect("valid FEN");
    let record = |clock: u8| Record {
        pos,
        clock,
        outcome: Outcome::BlackWins,
        exact: clock == 2,
        score: (clock != 2).then_some(-40),
        alpha_beta: clock == 1,
    };
    let (mut file, n) = open_append(&path, &Rules::ENGLISH, None).expect("new file");
    assert_eq!(n, 0);
    for clock in 0..3 {
        file.write_all(&record(clock).encode()).expect("write");
    }
    // Half a record more: a run killed in the middle of a write.
    file.write_all(&record(9).encode()[..7]).expect("write");
    drop(file);
    assert_eq!(
        std::fs::metadata(&path).expect("size").len(),
        16 + 3 * 16 + 7
    );
    // The progress counted two records: the third is cut off with the half one.
    let (_, n) = open_append(&path, &Rules::ENGLISH, Some(2)).expect("resume");
    assert_eq!(n, 2);
    assert_eq!(std::fs::metadata(&path).expect("size").len(), 16 + 2 * 16);
    let read: Vec<Record> = Reader::open(&path)
        .expect("reader")
        .map(|r| r.expect("record"))
        .collect();
    assert_eq!(read, vec![record(0), record(1)]);
    assert_eq!(read[1].mover_score(), 0.0);
    // A progress that counts more than the file holds (the file was replaced or cut) is
    // refused, and the file left as it is.
    match open_append(&path, &Rules::ENGLISH, Some(3)) {
        Err(e @ DataError::Short { found: 2, counted: 3, .. }) => assert_eq!(
            e.to_string(),
            format!(
                "{}: holds 2 positions where its progress file counts 3 (remove the progress file to start over)",
                path.display()
            )
        ),
        other => panic!("{:?}", other.map(|(_, n)| n)),
    }
    assert_eq!(std::fs::metadata(&path).expect("size").len(), 16 + 2 * 16);
    let empty = dir.join("e.bin");
    let _ = std::fs::remove_file(&empty);
    assert!(matches!(
        open_append(&empty, &Rules::ENGLISH, Some(5)),
        Err(DataError::Short {
            found: 0,
            counted: 5,
            ..
        })
    ));
    assert!(!empty.exists());
    match open_append(&path, &Rules::BUFF_AND_GREEN, None) {
        Err(DataError::OtherRules { .. }) => {}
        other => panic!("{:?}", other.map(|(_, n)| n)),
    }
    std::fs::write(&path, b"not a data file at all").expect("write");
    assert!(matches!(
        open_append(&path, &Rules::ENGLISH, None),
        Err(DataError::NotData(_))
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rescoring_takes_every_kth_record_and_resumes_where_it_stopped() {
    let dir = std::env::temp_dir().join(format!("bg-rescore-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let input = dir.join("in.bin");
    let out = dir.join("out.bin");
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&out);
    // Seven positions: Black a man up, White a man up, level; the fifth is a table label.
    let fens = [
        "B:W21,22,23:B1,2,3,4",
        "W:W21,22,23:B1,2,3,4",
        "B:W21,22,23,24:B1,2,3",
        "W:W21,22,23,24:B1,2,3",
        "B:W22:B5",
        "B:W21,22,23:B1,2,3",
        "W:W21,22,23:B1,2,3",
    ];
    let records: Vec<Record> = fens
        .iter()
        .enumerate()
        .map(|(i, f)| Record {
            pos: fen::parse(f).expect("valid FEN"),
            clock: 0,
            outcome: Outcome::Draw,
            exact: i == 4,
            score: (i != 4).then_some(7),
            alpha_beta: true,
        })
        .collect();
    let (mut file, _) = open_append(&input, &Rules::ENGLISH, None).expect("new file");
    for r in &records {
        file.write_all(&r.encode()).expect("write");
    }
    drop(file);
    let plan = Plan {
        every: 2,
        offset: 0,
        nodes: 400,
        threads: 2,
        limit: u64::MAX,
    };
    let read = |path: &std::path::Path| -> Vec<Record> {
        Reader::open(path)
            .expect("reader")
            .map(|r| r.expect("record"))
            .collect()
    };
    let done = rescore::run(&input, &out, &plan, None, &mut |_| {}).expect("rescore");
    assert_eq!((done.before, done.after), (0, 4));
    let whole = read(&out);
    // Records 0, 2, 4 and 6, the positions and results as they were.
    for (got, want) in whole.iter().zip(records.iter().step_by(2)) {
        assert_eq!(
            (got.pos, got.clock, got.outcome),
            (want.pos, want.clock, want.outcome)
        );
    }
    // The searched ones carry the UCT's score, from the side to move's view; the table label
    // is copied as it was.
    assert!(whole[0].score.expect("score") > 50, "{:?}", whole[0].score);
    assert!(whole[1].score.expect("score") < -50, "{:?}", whole[1].score);
    assert!(!whole[0].alpha_beta && !whole[1].alpha_beta && !whole[3].alpha_beta);
    assert_eq!(whole[2], records[4]);
    // Cut after one record and a half: a second run writes what the first did.
    let bytes = std::fs::read(&out).expect("read");
    std::fs::write(&out, &bytes[..16 + 16 + 9]).expect("cut");
    let done = rescore::run(&input, &out, &plan, None, &mut |_| {}).expect("resume");
    assert_eq!((done.before, done.after), (1, 4));
    assert_eq!(read(&out), whole);
    // A limit stops it; the input of other rules than the output's is refused.
    let _ = std::fs::remove_file(&out);
    let limited = Plan { limit: 2, ..plan };
    let done = rescore::run(&input, &out, &limited, None, &mut |_| {}).expect("limited");
    assert_eq!(done.after, 2);
    assert_eq!(read(&out), whole[..2]);
    let other = dir.join("other.bin");
    let _ = std::fs::remove_file(&other);
    drop(open_append(&other, &Rules::BUFF_AND_GREEN, None).expect("other rules"));
    assert!(matches!(
        rescore::run(&input, &other, &plan, None, &mut |_| {}),
        Err(DataError::OtherRules { .. })
    ));
    let _ = std::fs::remove_dir_all(&dir);
}
