//! One test per classic rule scenario of protocol.md's "Rules": hand-built positions with their exact legal
//! moves, the exact position after a move, and the game result.

use buffgreen::board::{fen, generate_moves, Game, GameResult, MoveList, Rules};
use buffgreen::types::Color;

/// Buff and Green: men capture backward, flying kings.
const DEFAULT: Rules = Rules::BUFF_AND_GREEN;
/// English checkers: both switches off.
const ENGLISH: Rules = Rules::ENGLISH;
/// Men capture backward, kings are short.
const BACKWARD_SHORT: Rules = Rules::ALL[1];
/// Men capture forward only, kings fly.
const FORWARD_FLYING: Rules = Rules::ALL[2];
const ALL: [Rules; 4] = Rules::ALL;

/// The legal moves of `fen_text` in long form, sorted.
fn moves(fen_text: &str, rules: Rules) -> Vec<String> {
    let pos = fen::parse(fen_text).unwrap_or_else(|e| panic!("{fen_text}: {e}"));
    let mut list = MoveList::new();
    generate_moves(&pos, &rules, &mut list);
    let mut v: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

#[track_caller]
fn assert_moves_of(g: &Game, expected: &[&str]) {
    let mut got: Vec<String> = g.legal_moves().iter().map(|m| m.to_string()).collect();
    got.sort();
    assert_eq!(got, expected);
}

#[track_caller]
fn assert_moves(fen_text: &str, rules: Rules, expected: &[&str]) {
    let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(moves(fen_text, rules), want, "{fen_text} under {rules:?}");
}

/// A game from `fen_text` with the no-progress clock at `clock`.
fn game(fen_text: &str, clock: u32, rules: Rules) -> Game {
    Game::new(fen::parse(fen_text).expect("valid FEN"), clock, rules)
}

/// The FEN after playing `mv` from `fen_text`.
#[track_caller]
fn after(fen_text: &str, rules: Rules, mv: &str) -> String {
    let mut g = game(fen_text, 0, rules);
    g.play_str(mv)
        .unwrap_or_else(|e| panic!("{fen_text} {mv}: {e}"));
    fen::write(g.position())
}

/// The error text of playing `mv` from `fen_text`; the game must be left as it was.
#[track_caller]
fn rejected(fen_text: &str, rules: Rules, mv: &str) -> String {
    let mut g = game(fen_text, 7, rules);
    let before = g.clone();
    let err = g.play_str(mv).expect_err("the move must be refused");
    assert_eq!(g, before, "a refused move changed the game");
    err.to_string()
}

#[test]
fn start_position_moves() {
    for rules in ALL {
        assert_moves(
            "B:W21-32:B1-12",
            rules,
            &["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"],
        );
        assert_moves(
            "W:W21-32:B1-12",
            rules,
            &[
                "21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20",
            ],
        );
    }
}

#[test]
fn capture_is_mandatory() {
    // The man on 1 could step to 5 or 6, but 14 must take 18.
    for rules in ALL {
        assert_moves("B:W18:B1,14", rules, &["14x23"]);
        assert_eq!(
            rejected("B:W18:B1,14", rules, "1-5"),
            "illegal move '1-5'; legal moves: 14x23"
        );
    }
    // A king too: the man's capture comes before any king move.
    assert_moves("W:WK1,23:B18", DEFAULT, &["23x14"]);
}

#[test]
fn free_choice_among_captures() {
    // A single capture beside a double one: either may be played (no majority rule).
    for rules in ALL {
        assert_moves("B:W6,18,27:B1,14", rules, &["1x10", "14x23x32"]);
        assert_eq!(after("B:W6,18,27:B1,14", rules, "1x10"), "W:W18,27:B10,14");
        assert_eq!(after("B:W6,18,27:B1,14", rules, "14x23x32"), "W:W6:B1,K32");
    }
    // With backward captures: two single captures and a double one with a backward step.
    assert_moves(
        "W:W23,24:B12,18,19",
        DEFAULT,
        &["23x14", "23x16", "24x15x22"],
    );
}

#[test]
fn man_captures_backward_but_never_steps_backward() {
    for rules in [DEFAULT, BACKWARD_SHORT] {
        // Black man 14, White man behind it on 10: captured backward onto 7.
        assert_moves("B:W10:B14", rules, &["14x7"]);
        assert_eq!(after("B:W10:B14", rules, "14x7"), "W:W:B7");
        // White man 22, Black man behind it on 26: captured backward onto 31.
        assert_moves("W:W22:B26", rules, &["22x31"]);
        // A backward capture in the middle of a sequence.
        assert_eq!(
            after("W:W23,24:B12,18,19", rules, "24x15x22"),
            "B:W22,23:B12"
        );
    }
    for rules in ALL {
        // No capture: men step forward only, never back to 9 or 10.
        assert_moves("B:W30:B14", rules, &["14-17", "14-18"]);
        assert_moves("W:W22:B3", rules, &["22-17", "22-18"]);
        assert_eq!(
            rejected("B:W30:B14", rules, "14-10"),
            "illegal move '14-10'; legal moves: 14-17 14-18"
        );
    }
}

#[test]
fn backward_capture_off_forbids_it() {
    for rules in [ENGLISH, FORWARD_FLYING] {
        assert_moves("B:W10:B14", rules, &["14-17", "14-18"]);
        assert_moves("W:W22:B26", rules, &["22-17", "22-18"]);
        // The sequence stops where only a backward capture would go on.
        assert_moves("W:W23,24:B12,18,19", rules, &["23x14", "23x16", "24x15"]);
        assert_eq!(
            after("W:W23,24:B12,18,19", rules, "24x15"),
            "B:W15,23:B12,18"
        );
    }
}

#[test]
fn capture_sequence_must_be_completed() {
    for rules in ALL {
        assert_moves("B:W18,27:B14", rules, &["14x23x32"]);
        assert_eq!(
            rejected("B:W18,27:B14", rules, "14x23"),
            "illegal move '14x23'; legal moves: 14x23x32"
        );
    }
    assert_moves(
        "W:W23,24:B12,18,19",
        DEFAULT,
        &["23x14", "23x16", "24x15x22"],
    );
}

#[test]
fn flying_king_quiet_moves() {
    for rules in [DEFAULT, FORWARD_FLYING] {
        // King on 10: every empty square of its four diagonals.
        assert_moves(
            "B:W32:BK10",
            rules,
            &[
                "10-1", "10-6", "10-3", "10-7", "10-14", "10-17", "10-21", "10-15", "10-19",
                "10-24", "10-28",
            ],
        );
        // Its own man on 19 blocks the long diagonal; the man steps forward.
        assert_moves(
            "B:W32:BK10,19",
            rules,
            &[
                "10-1", "10-6", "10-3", "10-7", "10-14", "10-17", "10-21", "10-15", "19-23",
                "19-24",
            ],
        );
        // White kings fly too, in all four directions.
        assert_moves(
            "W:WK27:B28",
            rules,
            &[
                "27-23", "27-18", "27-14", "27-9", "27-5", "27-24", "27-20", "27-31", "27-32",
            ],
        );
    }
}

#[test]
fn flying_king_captures_land_directly_behind() {
    for rules in [DEFAULT, FORWARD_FLYING] {
        // From 10 over 15 (empty) to 19: the king lands on 24, never on 28.
        assert_moves("B:W19:BK10", rules, &["10x24"]);
        assert_eq!(after("B:W19:BK10", rules, "10x24"), "W:W:BK24");
        assert!(rejected("B:W19:BK10", rules, "10x28").starts_with("illegal move '10x28'"));
        // The square behind is taken: no capture, and the slide stops in front of 19.
        assert_moves(
            "B:W19,24:BK10",
            rules,
            &[
                "10-1", "10-6", "10-3", "10-7", "10-14", "10-17", "10-21", "10-15",
            ],
        );
        // Its own piece in the way blocks the capture.
        assert_moves(
            "B:W24:BK10,15",
            rules,
            &[
                "15-18", "15-19", "10-1", "10-6", "10-3", "10-7", "10-14", "10-17", "10-21",
            ],
        );
    }
}

#[test]
fn short_kings_when_long_kings_is_off() {
    for rules in [BACKWARD_SHORT, ENGLISH] {
        assert_moves("B:W32:BK10", rules, &["10-6", "10-7", "10-14", "10-15"]);
        // A piece two squares away is out of reach.
        assert_moves("B:W19:BK10", rules, &["10-6", "10-7", "10-14", "10-15"]);
        // Adjacent pieces are captured forward and backward.
        assert_moves("B:W15:BK10", rules, &["10x19"]);
        assert_moves("B:W6:BK10", rules, &["10x1"]);
        // After taking 22 the king on 25 cannot reach 8 from afar.
        assert_moves("B:W8,22:BK18", rules, &["18x25"]);
        assert_eq!(after("B:W8,22:BK18", rules, "18x25"), "W:W8:BK25");
    }
}

#[test]
fn no_piece_is_captured_twice() {
    for rules in ALL {
        // After 14x23 the man on 18 is gone: the capturing man cannot jump back over it.
        assert_moves("B:W18:B14", rules, &["14x23"]);
        assert_eq!(after("B:W18:B14", rules, "14x23"), "W:W:B23");
    }
    // The king loop takes each of the four pieces once and stops where it started.
    let mut g = game("W:WK26:B14,15,22,23", 0, DEFAULT);
    let mv = g.play_str("26x19x10x17x26").expect("legal");
    assert_eq!(mv.captured().count(), 4);
    assert_eq!(fen::write(g.position()), "B:WK26:B");
}

#[test]
fn jumped_pieces_are_removed_at_once() {
    for rules in [DEFAULT, FORWARD_FLYING] {
        // 18x4 takes 8; from 4 the king slides back over 8 and its own start square 18 to
        // take 22. The other order crosses 22 and 18 on the way to 8.
        assert_moves("B:W8,22:BK18", rules, &["18x4x25", "18x25x4"]);
        assert_eq!(after("B:W8,22:BK18", rules, "18x4x25"), "W:W:BK25");
        assert_eq!(after("B:W8,22:BK18", rules, "18x25x4"), "W:W:BK4");
        // The king takes 22 first and lands on its square again at the end: it is still a
        // king there, and all five White pieces are gone.
        let fen_text = "B:WK7,K9,K15,17,K22:BK18";
        assert_moves(
            fen_text,
            rules,
            &["18x5", "18x11x25", "18x11x2x13", "18x25x11x2x13x22"],
        );
        assert_eq!(after(fen_text, rules, "18x25x11x2x13x22"), "W:W:BK22");
        assert_eq!(after(fen_text, rules, "18x11x2x13"), "W:W17,K22:BK13");
    }
    for rules in [BACKWARD_SHORT, ENGLISH] {
        assert_moves("B:WK7,K9,K15,17,K22:BK18", rules, &["18x11x2", "18x25"]);
    }
}

#[test]
fn vacated_start_square_is_usable() {
    // The loop round four men ends on its own start square; each order is its own move.
    for rules in [DEFAULT, BACKWARD_SHORT] {
        assert_moves(
            "W:W26:B14,15,22,23",
            rules,
            &["26x19x10x17x26", "26x17x10x19x26"],
        );
        assert_eq!(
            after("W:W26:B14,15,22,23", rules, "26x19x10x17x26"),
            "B:W26:B"
        );
        assert_eq!(
            after("W:W26:B14,15,22,23", rules, "26x17x10x19x26"),
            "B:W26:B"
        );
    }
    // Men that capture forward only stop on 10.
    for rules in [FORWARD_FLYING, ENGLISH] {
        assert_moves("W:W26:B14,15,22,23", rules, &["26x19x10", "26x17x10"]);
        assert_eq!(
            after("W:W26:B14,15,22,23", rules, "26x19x10"),
            "B:W10:B14,22"
        );
    }
    // A king loops under every setting.
    for rules in ALL {
        assert_moves(
            "W:WK26:B14,15,22,23",
            rules,
            &["26x19x10x17x26", "26x17x10x19x26"],
        );
    }
}

#[test]
fn crowning_rows_for_both_colours() {
    for rules in ALL {
        // Black is crowned on 29-32.
        assert_moves("B:W32:B27", rules, &["27-31"]);
        assert_eq!(after("B:W32:B27", rules, "27-31"), "W:W32:BK31");
        assert_eq!(after("B:W32:B23", rules, "23-27"), "W:W32:B27");
        // White is crowned on 1-4.
        assert_moves("W:W6:B11", rules, &["6-1", "6-2"]);
        assert_eq!(after("W:W6:B11", rules, "6-1"), "B:WK1:B11");
        assert_eq!(after("W:W6:B11", rules, "6-2"), "B:WK2:B11");
        assert_eq!(after("W:W10:B3", rules, "10-6"), "B:W6:B3");
        // A man on the far row of the other side (its own back row) is no king.
        assert_eq!(after("W:W30:B3", rules, "30-25"), "B:W25:B3");
        // Crowning by a capture onto the far row.
        assert_eq!(after("W:W10:B7", rules, "10x3"), "B:WK3:B");
    }
}

#[test]
fn crowning_resets_the_no_progress_clock() {
    let mut g = game("B:W32:B27", 30, DEFAULT);
    let mv = g.play_str("27-31").expect("legal");
    assert!(mv.crowns());
    assert_eq!(g.clock(), 0);
    let mut g = game("B:W32:B23", 30, DEFAULT);
    let mv = g.play_str("23-27").expect("legal");
    assert!(!mv.crowns());
    assert_eq!(g.clock(), 31);
    // A king move is no progress either.
    let mut g = game("B:W32:BK10", 30, DEFAULT);
    let mv = g.play_str("10-28").expect("legal");
    assert!(!mv.crowns());
    assert_eq!(g.clock(), 31);
}

#[test]
fn deferred_crowning_after_leaving_the_far_row() {
    for rules in [DEFAULT, BACKWARD_SHORT] {
        // 22x31 reaches the far row, then the man captures backward 31x24: crowned on 24.
        assert_moves("B:W26,27:B22", rules, &["22x31x24"]);
        let mut g = game("B:W26,27:B22", 50, rules);
        let mv = g.play_str("22x31x24").expect("legal");
        assert!(mv.crowns());
        assert_eq!(fen::write(g.position()), "W:W:BK24");
        assert_eq!(g.clock(), 0);
        // It captures on as a man: a king on 24 would go on to take 10 from afar.
        assert_moves("B:W10,26,27:B22", rules, &["22x31x24"]);
        assert_eq!(after("B:W10,26,27:B22", rules, "22x31x24"), "W:W10:BK24");
    }
}

#[test]
fn capture_onto_far_row_ends_without_backward_capture() {
    for rules in [ENGLISH, FORWARD_FLYING] {
        assert_moves("B:W26,27:B22", rules, &["22x31"]);
        let mut g = game("B:W26,27:B22", 50, rules);
        let mv = g.play_str("22x31").expect("legal");
        assert!(mv.crowns());
        assert_eq!(fen::write(g.position()), "W:W27:BK31");
        assert_eq!(g.clock(), 0);
        // The new king does not go on capturing 27 in the same move.
        assert_moves("B:W10,26,27:B22", rules, &["22x31"]);
    }
}

#[test]
fn turns_alternate() {
    let mut g = Game::new(fen::parse("B:W21-32:B1-12").expect("valid FEN"), 0, DEFAULT);
    assert_eq!(g.position().side_to_move(), Color::Black);
    g.play_str("11-15").expect("legal");
    assert_eq!(g.position().side_to_move(), Color::White);
    // Black may not move twice.
    let err = g.play_str("15-19").expect_err("White to move");
    assert_eq!(
        err.to_string(),
        "illegal move '15-19'; legal moves: 21-17 22-17 22-18 23-18 23-19 24-19 24-20"
    );
    g.play_str("22-18").expect("legal");
    assert_eq!(g.position().side_to_move(), Color::Black);
    // Black must take 18, then White must take back, with either man.
    assert_moves_of(&g, &["15x22"]);
    g.play_str("15x22").expect("legal");
    assert_moves_of(&g, &["25x18", "26x17"]);
    g.play_str("25x18").expect("legal");
    assert_eq!(
        fen::write(g.position()),
        "B:W18,21,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12"
    );
    assert_eq!(
        g.moves().map(|m| m.to_string()).collect::<Vec<_>>(),
        ["11-15", "22-18", "15x22", "25x18"]
    );
    assert_eq!(g.clock(), 0);
    // Undo restores position, side and clock.
    assert!(g.undo());
    assert_eq!((g.position().side_to_move(), g.clock()), (Color::White, 0));
    assert!(g.undo());
    assert_eq!((g.position().side_to_move(), g.clock()), (Color::Black, 2));
    assert!(g.undo());
    assert_eq!((g.position().side_to_move(), g.clock()), (Color::White, 1));
    assert!(g.undo());
    assert!(!g.undo());
    assert_eq!(*g.position(), *g.start());
}

#[test]
fn side_without_a_move_loses() {
    for rules in ALL {
        // Black's only man is blocked on 28.
        let g = game("B:W32:B28", 0, rules);
        assert!(g.legal_moves().is_empty());
        assert_eq!(g.result(), GameResult::Win(Color::White));
        let mut g2 = g.clone();
        assert_eq!(
            g2.play_str("28-32").expect_err("game over").to_string(),
            "the game is over (white wins)"
        );
        assert_eq!(g2, g);
        // White has no pieces at all.
        assert_eq!(
            game("W:W:B1", 0, rules).result(),
            GameResult::Win(Color::Black)
        );
    }
}

#[test]
fn losing_checkers_the_side_without_a_move_wins() {
    for rules in ALL {
        let losing = Rules {
            losing: true,
            ..rules
        };
        // Black's only man is blocked on 28: under Losing, Black wins.
        let g = game("B:W32:B28", 0, losing);
        assert_eq!(g.result(), GameResult::Win(Color::Black));
        assert_eq!(
            g.clone()
                .play_str("28-32")
                .expect_err("game over")
                .to_string(),
            "the game is over (black wins)"
        );
        // White has no pieces at all: White wins.
        assert_eq!(
            game("W:W:B1", 0, losing).result(),
            GameResult::Win(Color::White)
        );
        // Black's last man walks into a forced capture: after 23x14 Black has no piece and wins.
        let mut g = game("B:W23:B14", 0, losing);
        g.play_str("14-18").expect("legal");
        assert_eq!(g.legal_moves().len(), 1);
        g.play_str("23x14").expect("forced");
        assert_eq!(g.result(), GameResult::Win(Color::Black));
        // The moves are the same moves, and the draw clock still draws.
        assert_eq!(
            moves("B:W21-32:B1-12", losing),
            moves("B:W21-32:B1-12", rules)
        );
        assert_eq!(game("B:WK32:BK1", 80, losing).result(), GameResult::Draw);
        assert_eq!(game("B:WK32:BK1", 79, losing).result(), GameResult::Ongoing);
        // A win on the 80th half-move still beats the draw.
        assert_eq!(
            game("B:W32:B28", 500, losing).result(),
            GameResult::Win(Color::Black)
        );
    }
}

#[test]
fn no_progress_draw() {
    let mut g = game("B:WK32:BK1", 78, DEFAULT);
    assert_eq!(g.result(), GameResult::Ongoing);
    g.play_str("1-6").expect("legal");
    assert_eq!((g.clock(), g.result()), (79, GameResult::Ongoing));
    g.play_str("32-27").expect("legal");
    assert_eq!((g.clock(), g.result()), (80, GameResult::Draw));
    assert!(g.legal_moves().is_empty());
    assert_eq!(
        g.play_str("6-10").expect_err("drawn").to_string(),
        "the game is over (draw)"
    );
    // A capture on the 80th half-move resets the clock instead.
    let mut g = game("W:WK27:B18", 79, DEFAULT);
    g.play_str("27x14").expect("legal");
    assert_eq!((g.clock(), g.result()), (0, GameResult::Win(Color::White)));
    let mut g = game("W:WK27:B3,18", 79, DEFAULT);
    g.play_str("27x14").expect("legal");
    assert_eq!((g.clock(), g.result()), (0, GameResult::Ongoing));
}

#[test]
fn win_beats_draw() {
    // 27-32 is the 80th quiet half-move and leaves Black's man on 28 without a move.
    let mut g = game("W:WK27:B28", 79, DEFAULT);
    g.play_str("27-32").expect("legal");
    assert_eq!(g.clock(), 80);
    assert_eq!(g.result(), GameResult::Win(Color::White));
    assert_eq!(
        game("B:W32:B28", 500, DEFAULT).result(),
        GameResult::Win(Color::White)
    );
}

#[test]
fn draw_half_moves_is_configurable_and_zero_turns_it_off() {
    let off = Rules {
        draw_half_moves: 0,
        ..DEFAULT
    };
    assert_eq!(game("B:WK32:BK1", 1000, off).result(), GameResult::Ongoing);
    assert_eq!(game("B:WK32:BK1", 0, off).result(), GameResult::Ongoing);
    let ten = Rules {
        draw_half_moves: 10,
        ..DEFAULT
    };
    assert_eq!(game("B:WK32:BK1", 9, ten).result(), GameResult::Ongoing);
    assert_eq!(game("B:WK32:BK1", 10, ten).result(), GameResult::Draw);
    assert_eq!(
        game("B:WK32:BK1", 79, DEFAULT).result(),
        GameResult::Ongoing
    );
    assert_eq!(game("B:WK32:BK1", 80, DEFAULT).result(), GameResult::Draw);
}

#[test]
fn impossible_moves_are_rejected() {
    let start = "B:W21-32:B1-12";
    let legal = "legal moves: 9-13 9-14 10-14 10-15 11-15 11-16 12-16";
    let illegal = |mv: &str| format!("illegal move '{mv}'; {legal}");
    // Sideways, straight ahead (across a light square) and two squares at once.
    for mv in ["9-10", "9-17", "10-11", "11-18", "9-18"] {
        assert_eq!(rejected(start, DEFAULT, mv), illegal(mv));
    }
    for (fen, mv, want) in [
        // Off the board.
        (start, "12-33", "bad move '12-33': square 33 is not in 1..=32".to_string()),
        (start, "0-5", "bad move '0-5': square 0 is not in 1..=32".to_string()),
        // Onto a square taken by its own piece, and by an enemy piece.
        (start, "1-6", illegal("1-6")),
        ("B:W18,23:B14", "14-18", "illegal move '14-18'; legal moves: 14-17".to_string()),
        // Moving the other side's piece, moving from an empty square.
        (start, "21-17", illegal("21-17")),
        (start, "13-17", illegal("13-17")),
        // Not a move at all.
        (start, "e9-d4", "bad move syntax 'e9-d4': expected squares joined by '-', 'x' or ':', like 11-15, 9x18x27 or d6-c5".to_string()),
        // Algebraic squares name the same moves (e3 is 23); a light square or a mixed form is refused.
        (start, "e3-d4", illegal("e3-d4")),
        (start, "a8-b7", "bad move 'a8-b7': 'a8' is a light square: pieces stand on the dark squares (a1, b2, ..., h8)".to_string()),
        (start, "c3-18", "bad move 'c3-18': it mixes square numbers and algebraic squares; write it in one form, like 10-14 or d6-c5".to_string()),
    ] {
        assert_eq!(rejected(fen, DEFAULT, mv), want, "{fen} {mv}");
    }
}
