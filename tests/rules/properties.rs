//! Properties of the generated moves on random positions under all four switch settings:
//! mandatory capture, complete captures, diagonal geometry on the dark squares, captured sets
//! equal to what the move removes, correct crowning, no duplicates.

use std::collections::HashSet;

use crate::common::{arb_board, far_row, file_of, forward_row, row_of, square_at, Cell, RefBoard};
use buffgreen::board::{
    count_moves, fen, generate_moves, has_captures, has_moves, MoveList, Position, Rules,
};
use buffgreen::types::{Bitboard, Move, Square};
use proptest::prelude::*;

fn square(n: u8) -> Square {
    Square::new(n as i64).expect("1..=32")
}

/// Checks one move of `pos`; `Err` describes the broken property.
fn check_move(pos: &Position, rules: &Rules, mv: Move) -> Result<(), String> {
    let me = pos.side_to_move();
    let them = !me;
    let from = mv.from().number();
    let was_king = pos.kings(me).contains(mv.from());
    if !pos.pieces(me).contains(mv.from()) {
        return Err("does not start on a piece of the side to move".into());
    }
    // Walk the path on a copy of the board, removing each jumped piece as it goes.
    let mut board = RefBoard::from_position(pos);
    board.cells[from as usize - 1] = Cell::Empty;
    let mut jumped = Bitboard::EMPTY;
    let mut touched_far_row = false;
    let mut at = from;
    let path: Vec<u8> = mv.path().map(|s| s.number()).collect();
    if path.len() != mv.path_len() || path.is_empty() {
        return Err("path length".into());
    }
    for &to in &path {
        let (dr, df) = (row_of(to) - row_of(at), file_of(to) - file_of(at));
        if dr.abs() != df.abs() || dr == 0 {
            return Err(format!("{at}->{to} is not a diagonal line"));
        }
        let len = dr.abs();
        let (sr, sf) = (dr.signum(), df.signum());
        // Every square of the line, landing included, is a dark square.
        let line: Vec<u8> = (1..=len)
            .map(|k| square_at(row_of(at) + k * sr, file_of(at) + k * sf))
            .collect::<Option<Vec<u8>>>()
            .ok_or_else(|| format!("{at}->{to} leaves the dark squares"))?;
        let occupied: Vec<u8> = line
            .iter()
            .copied()
            .filter(|&s| board.at(s) != Cell::Empty)
            .collect();
        let flying = was_king && rules.long_kings;
        if mv.is_capture() {
            // Exactly one piece on the line, an enemy, directly in front of the landing square.
            if len < 2 || (!flying && len != 2) {
                return Err(format!("{at}x{to}: a jump over {} squares", len - 1));
            }
            let victim = line[line.len() - 2];
            if occupied != [victim] {
                return Err(format!("{at}x{to}: the jumped piece is not right behind"));
            }
            if !pos.pieces(them).contains(square(victim)) {
                return Err(format!("{at}x{to}: jumps a piece that is not an enemy"));
            }
            if !was_king && !rules.backward_capture && sr != forward_row(me) {
                return Err(format!("{at}x{to}: backward capture by a man"));
            }
            board.cells[victim as usize - 1] = Cell::Empty;
            jumped |= Bitboard::from_square(square(victim));
        } else {
            if path.len() != 1 || !occupied.is_empty() {
                return Err("a quiet move is one unobstructed step or slide".into());
            }
            if !flying && len != 1 {
                return Err("a man or short king steps one square".into());
            }
            if !was_king && sr != forward_row(me) {
                return Err("a man steps backward".into());
            }
        }
        touched_far_row |= row_of(to) == far_row(me);
        at = to;
    }
    // The captured set is what was jumped: enemy pieces only, one per step.
    if mv.captured() != jumped {
        return Err(format!(
            "captured {:?} but jumped {jumped:?}",
            mv.captured()
        ));
    }
    let per_step = !mv.is_capture() || mv.captured().count() as usize == path.len();
    if mv.captured().intersects(pos.pieces(me)) || !per_step {
        return Err("captured set overlaps the mover or is not one piece per step".into());
    }
    // Crowning: a man that touched the far row at any step.
    if mv.crowns() != (!was_king && touched_far_row) {
        return Err(format!("crowns() is {}", mv.crowns()));
    }
    // The move is complete: the piece, as the kind it moved as, has no capture left.
    if mv.is_capture() {
        let mut end = RefBoard::from_position(pos);
        end.cells[from as usize - 1] = Cell::Empty;
        for s in mv.captured() {
            end.cells[s.index()] = Cell::Empty;
        }
        end.cells[at as usize - 1] = if was_king {
            Cell::King(me)
        } else {
            Cell::Man(me)
        };
        if end.can_capture_from(at, was_king, rules) {
            return Err("the capture sequence stops although it could go on".into());
        }
    }
    // The successor: the pieces actually removed are the captured set, the mover moved.
    let mut next = *pos;
    next.play_unchecked(mv);
    let to = Bitboard::from_square(mv.to());
    let from_bb = Bitboard::from_square(mv.from());
    if next.pieces(them) != pos.pieces(them) & !mv.captured() {
        return Err("the removed pieces differ from the captured set".into());
    }
    if next.pieces(me) != ((pos.pieces(me) & !from_bb) | to) {
        return Err("the mover's pieces are wrong after the move".into());
    }
    let king_after = was_king || mv.crowns();
    if next.kings(me)
        != ((pos.kings(me) & !from_bb) | if king_after { to } else { Bitboard::EMPTY })
    {
        return Err("the mover's kings are wrong after the move".into());
    }
    if next.kings(them) != pos.kings(them) & !mv.captured() {
        return Err("the opponent's kings are wrong after the move".into());
    }
    if next.side_to_move() != them {
        return Err("the turn did not pass".into());
    }
    // And the successor is a position FEN can carry.
    if fen::parse(&fen::write(&next)) != Ok(next) {
        return Err("the successor does not round-trip through FEN".into());
    }
    Ok(())
}

fn check_position(board: &RefBoard) -> Result<(), TestCaseError> {
    let pos = board.position();
    for rules in Rules::ALL {
        let where_ = format!("{} under {rules:?}", fen::write(&pos));
        let mut list = MoveList::new();
        generate_moves(&pos, &rules, &mut list);
        // Whether any capture exists, from one-step capture detection alone.
        let capture_exists = board
            .own_pieces()
            .any(|(n, king)| board.can_capture_from(n, king, &rules));
        let captures = list.iter().filter(|m| m.is_capture()).count();
        if capture_exists {
            prop_assert_eq!(
                captures,
                list.len(),
                "quiet move beside a capture: {}",
                where_
            );
            prop_assert!(captures > 0, "capture missed: {}", where_);
        } else {
            prop_assert_eq!(captures, 0, "capture invented: {}", where_);
        }
        prop_assert_eq!(has_captures(&pos, &rules), capture_exists, "{}", &where_);
        prop_assert_eq!(count_moves(&pos, &rules), list.len() as u64, "{}", &where_);
        prop_assert_eq!(has_moves(&pos, &rules), !list.is_empty(), "{}", &where_);
        let texts: HashSet<String> = list.iter().map(|m| m.to_string()).collect();
        prop_assert_eq!(texts.len(), list.len(), "duplicate moves: {}", &where_);
        let values: HashSet<Move> = list.iter().copied().collect();
        prop_assert_eq!(values.len(), list.len(), "duplicate moves: {}", &where_);
        for &mv in list.iter() {
            if let Err(e) = check_move(&pos, &rules, mv) {
                return Err(TestCaseError::fail(format!("{where_}: {mv}: {e}")));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn generated_moves_obey_the_rules(board in arb_board()) {
        check_position(&board)?;
    }
}

#[test]
fn properties_hold_in_crowded_and_crowning_positions() {
    use rand::SeedableRng;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(0xB0FF_0006);
    for i in 0..2000 {
        let board = if i % 2 == 0 {
            crate::common::random_crowning_board(&mut rng)
        } else {
            crate::common::random_board(&mut rng, 0.6, 0.5)
        };
        if let Err(e) = check_position(&board) {
            panic!("{e}");
        }
    }
    // The start position is a plain sanity anchor.
    check_position(&RefBoard::from_position(&Position::startpos())).expect("start position");
}
