//! The 8x8 family's draw rules beside `DrawHalfMoves` ([`DrawRules::Russian`],
//! [`DrawRules::Pool`]): the counters a game carries from move to move, and the repetition
//! test. docs/rules-8x8.md states the rules and where each counting detail comes from.
//!
//! The counters are derived move by move from the position before, the move and the position
//! after, so a game, the search tree and a playout carry them as four bytes beside the
//! no-progress clock; repetition needs the positions since the last irreversible move, which
//! the caller keeps (the game's history, the search's path).

use crate::board::{DrawRules, Position, Rules};
use crate::types::{Bitboard, Color, Move, Square};

/// The squares of the long diagonal a1-h8 (squares 4, 8, 11, 15, 18, 22, 25, 29): Russian rule
/// 7.2.7 names a lone king standing on it.
const LONG_DIAGONAL: Bitboard = {
    let numbers = [4u8, 8, 11, 15, 18, 22, 25, 29];
    let mut set = Bitboard::EMPTY;
    let mut i = 0;
    while i < numbers.len() {
        set = Bitboard::from_bits(
            set.bits() | Bitboard::from_square(Square::from_index(numbers[i] - 1)).bits(),
        );
        i += 1;
    }
    set
};

/// The moves the side with three kings has against a lone king under Pool rules: it must win
/// within its 13th move from when the forces stand so.
const POOL_MOVES: u16 = 13;

/// The family's draw counters after the moves played so far (zero at a game's start: a FEN
/// carries none). Under [`DrawRules::HalfMoves`] they stay zero and decide nothing.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct DrawCount {
    /// Russian: lidraughts' count of plies under the material rule in force (its position
    /// hashes since the last reset, less one). Pool: the moves the side with three kings made
    /// against the lone king.
    count: u16,
    /// Plies since the last capture or man move (a crowning is a man move): no position
    /// before one can come back, so repetitions are looked for within this many plies.
    reversible: u16,
    /// Russian 7.2.7: the plies after which a lone king stood on the long diagonal against
    /// three pieces with a king (lidraughts' king-move counter of the lone king's side).
    diagonal: u8,
}

/// Which of the 8x8 family's draw rules drew a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum FamilyDraw {
    /// The same position the third time with the same side to move.
    Repetition,
    /// A material rule's count (Russian 7.2.4-7.2.8, Pool's 13 moves).
    Material,
}

impl FamilyDraw {
    /// The reason the protocol's `d` gives: `repetition`, `material rule`.
    pub fn describe(self) -> &'static str {
        match self {
            FamilyDraw::Repetition => "repetition",
            FamilyDraw::Material => "material rule",
        }
    }
}

/// The material rule of Russian draughts a position stands under, as lidraughts'
/// `Russian.drawingMoves` sorts positions (fmjd64 rule numbers).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Material {
    /// 7.2.8: a lone king against one or two pieces with a king (5 moves, 10 plies); also
    /// 7.2.7 once the lone king stood 10 plies on the long diagonal.
    Short,
    /// 7.2.7 before the lone king stood 10 plies on the long diagonal: 15 moves.
    LongDiagonal,
    /// 7.2.4: three or more kings against a lone king, 15 moves.
    ThreeKings,
    /// 7.2.6: kings on both sides, the balance unchanged: 30 moves with 4 or 5 pieces, 60 with
    /// 6 or 7 (the plies given).
    Balance(u16),
    /// 7.2.5: kings on both sides, otherwise: 15 moves of kings only.
    KingsOnly,
}

impl Material {
    /// The plies after which the position is drawn (lidraughts' `maxDrawingMoves`).
    fn limit(self) -> u16 {
        match self {
            Material::Short => 10,
            Material::LongDiagonal | Material::ThreeKings | Material::KingsOnly => 30,
            Material::Balance(plies) => plies,
        }
    }

    /// The rule `pos` stands under, with `diagonal` plies already counted for 7.2.7.
    fn of(pos: &Position, diagonal: u8) -> Option<Material> {
        let kings = |c: Color| pos.kings(c).count();
        let pieces = |c: Color| pos.pieces(c).count();
        let lone = |c: Color| pieces(c) == 1 && kings(c) == 1 && kings(!c) >= 1;
        let weak = [Color::White, Color::Black].into_iter().find(|&c| lone(c));
        if let Some(weak) = weak {
            let (strong, strong_kings) = (pieces(!weak), kings(!weak));
            if strong <= 2 {
                return Some(Material::Short);
            }
            if strong == 3 && pos.pieces(weak).intersects(LONG_DIAGONAL) {
                return Some(if diagonal >= 10 {
                    Material::Short
                } else {
                    Material::LongDiagonal
                });
            }
            if strong == strong_kings {
                return Some(Material::ThreeKings);
            }
        }
        if kings(Color::White) == 0 || kings(Color::Black) == 0 {
            return None;
        }
        Some(match pos.occupied().count() {
            6 | 7 => Material::Balance(120),
            4 | 5 => Material::Balance(60),
            _ => Material::KingsOnly,
        })
    }
}

/// True when a lone king stands on the long diagonal against three pieces with a king (the
/// position after which lidraughts counts a ply for 7.2.7, whoever moved).
pub fn lone_on_diagonal(pos: &Position) -> bool {
    [Color::White, Color::Black].into_iter().any(|weak| {
        let strong = !weak;
        pos.pieces(weak).count() == 1
            && pos.kings(weak).count() == 1
            && pos.pieces(strong).count() == 3
            && pos.kings(strong).any()
            && pos.pieces(weak).intersects(LONG_DIAGONAL)
    })
}

/// The side with three kings against a lone king (Pool's 13-move rule), if one has.
fn pool_strong(pos: &Position) -> Option<Color> {
    [Color::White, Color::Black].into_iter().find(|&c| {
        let three = pos.pieces(c).count() == 3 && pos.kings(c).count() == 3;
        let lone = pos.pieces(!c).count() == 1 && pos.kings(!c).count() == 1;
        three && lone
    })
}

/// The plies the game may stand in `pos` under Pool's 13-move rule, counted in plies from
/// when the forces stood so, before it is drawn (`None`: no side has three kings against a
/// lone king). The game counts the three kings' moves; in plies that count is the same rule
/// with a limit that depends on the side to move: whichever side moved first once the forces
/// stood so, the three kings have made `plies / 2` moves (rounded down) with their side to
/// move and `plies / 2` rounded up with the lone king's, so their 13th move is made by the
/// 25th ply when the lone king is to move and by the 26th when they are. The endgame tables
/// count plies (their entries fall by one a ply), and read a game's count of moves as twice
/// as many plies, which stands for the same moves with either side to move.
pub fn pool_limit(pos: &Position) -> Option<u32> {
    let strong = pool_strong(pos)?;
    let plies = 2 * u32::from(POOL_MOVES);
    Some(if pos.side_to_move() == strong {
        plies
    } else {
        plies - 1
    })
}

impl DrawCount {
    /// The counters after `mv`, played in `before`, gave `after`, under `rules`.
    #[inline]
    pub fn after(self, before: &Position, mv: Move, after: &Position, rules: &Rules) -> DrawCount {
        if rules.draws == DrawRules::HalfMoves {
            return DrawCount::default();
        }
        let mover = before.side_to_move();
        let king_moved = before.kings(mover).contains(mv.from());
        let reversible = if mv.is_capture() || !king_moved {
            0
        } else {
            self.reversible.saturating_add(1)
        };
        match rules.draws {
            DrawRules::HalfMoves => self,
            DrawRules::Pool => {
                let count = match pool_strong(after) {
                    // A capture or crowning made the forces so: the count starts.
                    Some(_) if mv.is_capture() || mv.crowns() => 0,
                    Some(strong) if strong == mover => self.count.saturating_add(1),
                    Some(_) => self.count,
                    None => 0,
                };
                DrawCount {
                    count,
                    reversible,
                    diagonal: 0,
                }
            }
            DrawRules::Russian => {
                let diagonal = if lone_on_diagonal(after) {
                    self.diagonal.saturating_add(1)
                } else {
                    self.diagonal
                };
                let count = match Material::of(after, diagonal) {
                    None => 0,
                    Some(material) => {
                        let (captures, crowns) = (mv.is_capture(), mv.crowns());
                        // The crowning of the mover's first king (lidraughts' "first
                        // promotion").
                        let first_king = crowns && after.kings(mover).count() == 1;
                        let total = after.occupied().count();
                        let reset = match material {
                            // A crowning makes the forces of 7.2.4; a man move ends 7.2.5.
                            Material::ThreeKings => captures || crowns,
                            Material::KingsOnly => captures || crowns || !king_moved,
                            Material::LongDiagonal => captures || first_king,
                            Material::Balance(_) => captures || crowns,
                            // 7.2.8 counts on through captures, but not through the one that
                            // makes its forces out of more than three pieces.
                            Material::Short => {
                                first_king
                                    || captures && total <= 3 && total + mv.captured().count() > 3
                            }
                        };
                        if reset {
                            0
                        } else {
                            self.count.saturating_add(1)
                        }
                    }
                };
                DrawCount {
                    count,
                    reversible,
                    diagonal,
                }
            }
        }
    }

    /// True when the family's material rule draws `pos` with these counters (the side to
    /// move can move: having no move decides first).
    #[inline]
    pub fn limit_reached(self, pos: &Position, rules: &Rules) -> bool {
        match rules.draws {
            DrawRules::HalfMoves => false,
            DrawRules::Pool => pool_strong(pos).is_some() && self.count >= POOL_MOVES,
            DrawRules::Russian => {
                Material::of(pos, self.diagonal).is_some_and(|m| self.count >= m.limit())
            }
        }
    }

    /// The plies within which a repetition of the current position is looked for.
    #[inline]
    pub fn reversible(self) -> u32 {
        u32::from(self.reversible)
    }

    /// Russian: the plies counted under the material rule in force; Pool: the moves the side
    /// with three kings made against the lone king.
    pub fn count(self) -> u32 {
        u32::from(self.count)
    }

    /// Russian 7.2.7: the plies after which a lone king stood on the long diagonal against
    /// three pieces with a king (0 under the other rules).
    pub fn diagonal(self) -> u32 {
        u32::from(self.diagonal)
    }

    /// Counters with `count` plies counted and `diagonal` plies on the long diagonal (the
    /// plies since the last irreversible move 0): the state the endgame tables solve over.
    pub fn counted(count: u16, diagonal: u8) -> DrawCount {
        DrawCount {
            count,
            reversible: 0,
            diagonal,
        }
    }

    /// True when `mv`, played in `before` with these counters, gave `after` with the
    /// material count restarted (at 0 there, under [`DrawRules::Russian`]): what the
    /// endgame tables read as the end of a count, from the same rules as [`DrawCount::after`].
    pub fn restarts(self, before: &Position, mv: Move, after: &Position, rules: &Rules) -> bool {
        // Without a restart the count grows by one, so only a restart leaves it at 0.
        self.after(before, mv, after, rules).count == 0
    }

    /// Which of the family's rules draws the game now, if one does: the material rule's count
    /// is reached, or the last of `line` (the positions of the game so far, oldest first, the
    /// current one last) stands there for the third time with the same side to move, within
    /// the plies since the last irreversible move.
    pub fn draw(self, line: &[Position], rules: &Rules) -> Option<FamilyDraw> {
        let pos = line.last()?;
        if rules.draws == DrawRules::HalfMoves {
            None
        } else if self.limit_reached(pos, rules) {
            Some(FamilyDraw::Material)
        } else if repeated(line, self.reversible()) {
            Some(FamilyDraw::Repetition)
        } else {
            None
        }
    }

    /// True when [`DrawCount::draw`] finds a draw.
    #[inline]
    pub fn drawn(self, line: &[Position], rules: &Rules) -> bool {
        self.draw(line, rules).is_some()
    }
}

/// The plies of material count after which Russian rules draw `pos` with `diagonal` plies
/// counted for 7.2.7 (`None`: no material rule applies, the count never draws it).
pub fn material_limit(pos: &Position, diagonal: u8) -> Option<u32> {
    Material::of(pos, diagonal).map(|m| u32::from(m.limit()))
}

/// True when the last of `line` stood at least twice before with the same side to move
/// within the last `window` plies (a position cannot come back after fewer than four plies,
/// so the two earlier ones lie at least four and eight plies back).
pub fn repeated(line: &[Position], window: u32) -> bool {
    let Some((now, earlier)) = line.split_last() else {
        return false;
    };
    let window = (window as usize).min(earlier.len());
    if window < 8 {
        return false;
    }
    let seen = (4..=window)
        .step_by(2)
        .filter(|&back| earlier[earlier.len() - back] == *now)
        .take(2)
        .count();
    seen == 2
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::{fen, generate_moves, has_captures, Game, GameResult, MoveList, Variant};

    /// A position where the kings on 1 and 32 can shuttle without a capture (every piece on
    /// the edge), and the shuttle that brings it back after four plies.
    const REPEATS: &str = "W:WK1,13:BK32,20";
    const CYCLE: [&str; 4] = ["1-5", "32-28", "5-1", "28-32"];

    /// Plays `text` moves (1-32 notation) from `fen` under `variant`, returning every
    /// position and the counters at the end.
    fn play(variant: Variant, start: &str, moves: &[&str]) -> (Vec<Position>, DrawCount) {
        let rules = variant.rules();
        let mut pos = fen::parse(start).unwrap();
        let mut line = vec![pos];
        let mut draws = DrawCount::default();
        for text in moves {
            let mv = crate::board::notation::parse_move(&pos, &rules, text).unwrap();
            let before = pos;
            pos.play_unchecked(mv);
            draws = draws.after(&before, mv, &pos, &rules);
            line.push(pos);
        }
        (line, draws)
    }

    #[test]
    fn the_long_diagonal_is_a1_h8() {
        let squares: Vec<u8> = LONG_DIAGONAL.map(|s| s.number()).collect();
        assert_eq!(squares, [4, 8, 11, 15, 18, 22, 25, 29]);
    }

    #[test]
    fn buff_and_green_counts_nothing() {
        let rules = Rules::BUFF_AND_GREEN;
        let pos = fen::parse("W:WK1,K2,K3:BK32").unwrap();
        let mut list = MoveList::new();
        generate_moves(&pos, &rules, &mut list);
        let mut next = pos;
        next.play_unchecked(list[0]);
        let draws = DrawCount::default().after(&pos, list[0], &next, &rules);
        assert_eq!(draws, DrawCount::default());
        assert!(!DrawCount {
            count: 500,
            reversible: 500,
            diagonal: 50
        }
        .drawn(&[pos; 20], &rules));
    }

    #[test]
    fn a_repetition_needs_three_times_the_same_side_to_move() {
        // The kings on 1 and 32 shuttle: 1-5 32-28 5-1 28-32 is back after 4 plies.
        let moves: Vec<&str> = CYCLE.iter().cycle().take(8).copied().collect();
        let (line, draws) = play(Variant::Russian, REPEATS, &moves);
        assert_eq!(draws.reversible(), 8);
        assert!(repeated(&line, draws.reversible()));
        assert!(!repeated(&line[..line.len() - 1], draws.reversible() - 1));
        assert!(!repeated(&line, 7));
    }

    /// Plays `plies` quiet moves in `game`, each accepted by `keep`, leaving the opponent no
    /// capture and making a position not seen before with that side to move (so that no
    /// repetition draws first), with the game going on before each: the first such line in
    /// the move generator's order, found by backtracking.
    pub(crate) fn wander(game: &mut Game, plies: usize, keep: impl Fn(&Position, Move) -> bool) {
        let mut seen = vec![*game.position()];
        assert!(
            walk(game, plies, &keep, &mut seen),
            "no line of {plies} quiet plies"
        );
    }

    fn walk(
        game: &mut Game,
        left: usize,
        keep: &impl Fn(&Position, Move) -> bool,
        seen: &mut Vec<Position>,
    ) -> bool {
        if left == 0 {
            return true;
        }
        let pos = *game.position();
        let rules = *game.rules();
        for mv in game.legal_moves().iter().copied() {
            let mut next = pos;
            next.play_unchecked(mv);
            if mv.is_capture()
                || !keep(&pos, mv)
                || has_captures(&next, &rules)
                || seen.contains(&next)
            {
                continue;
            }
            assert!(game.play(mv));
            seen.push(next);
            if walk(game, left - 1, keep, seen) {
                return true;
            }
            seen.pop();
            game.undo();
        }
        false
    }

    /// Wanders (as [`wander`]) `ply - 1` plies with the game going on, then one more that
    /// draws it.
    fn drawn_on_ply(game: &mut Game, ply: usize, keep: impl Fn(&Position, Move) -> bool) {
        wander(game, ply - 1, &keep);
        assert_eq!(game.result(), GameResult::Ongoing);
        wander(game, 1, &keep);
        assert_eq!(game.result(), GameResult::Draw);
    }

    /// A king move (not a man's).
    pub(crate) fn king_move(pos: &Position, mv: Move) -> bool {
        pos.all_kings().contains(mv.from())
    }

    #[test]
    fn russian_three_kings_against_one_draw_after_fifteen_moves_each() {
        // 7.2.4: the lone king kept off the long diagonal (else 7.2.7 counts).
        let off_diagonal = |pos: &Position, mv: Move| {
            pos.side_to_move() == Color::White || !LONG_DIAGONAL.contains(mv.to())
        };
        let start = fen::parse("W:WK1,K2,K3:BK32").unwrap();
        let mut game = Game::new(start, 0, Variant::Russian.rules());
        wander(&mut game, 29, off_diagonal);
        assert_eq!(game.draws().count(), 29);
        assert_eq!(game.result(), GameResult::Ongoing);
        wander(&mut game, 1, off_diagonal);
        assert_eq!(game.draws().count(), 30);
        assert_eq!(game.result(), GameResult::Draw);
        assert!(game.legal_moves().is_empty());
        // Taken back, the game goes on.
        assert!(game.undo());
        assert_eq!(game.result(), GameResult::Ongoing);
    }

    #[test]
    fn pool_three_kings_must_win_within_thirteen_moves() {
        // White, the side with three kings, moves first: its 13th move is the 25th ply.
        let start = fen::parse("W:WK1,K2,K3:BK32").unwrap();
        let mut game = Game::new(start, 0, Variant::Pool.rules());
        wander(&mut game, 24, |_, _| true);
        assert_eq!(game.draws().count(), 12);
        wander(&mut game, 1, |_, _| true);
        assert_eq!(game.draws().count(), 13);
        assert_eq!(game.result(), GameResult::Draw);
        // The lone king to move first: White's 13th move is the 26th ply.
        let start = start.with_side_to_move(Color::Black);
        let mut game = Game::new(start, 0, Variant::Pool.rules());
        wander(&mut game, 25, |_, _| true);
        assert_eq!(game.draws().count(), 12);
        wander(&mut game, 1, |_, _| true);
        assert_eq!(game.result(), GameResult::Draw);
        // Buff and Green has no such rule: 26 plies are nothing.
        let mut game = Game::new(start, 0, Rules::BUFF_AND_GREEN);
        wander(&mut game, 26, |_, _| true);
        assert_eq!(game.result(), GameResult::Ongoing);
    }

    #[test]
    fn russian_kings_only_for_fifteen_moves_each_draw_and_a_man_move_restarts_the_count() {
        // Eight pieces, kings on both sides: 7.2.5.
        let start = fen::parse("W:WK1,K2,12,13:BK31,K32,20,21").unwrap();
        let rules = Variant::Russian.rules();
        drawn_on_ply(&mut Game::new(start, 0, rules), 30, king_move);
        let mut game = Game::new(start, 0, rules);
        wander(&mut game, 20, king_move);
        assert_eq!(game.draws().count(), 20);
        // White's man steps on: the count starts again.
        wander(&mut game, 1, |pos, mv| !king_move(pos, mv));
        assert_eq!(game.draws().count(), 0);
        drawn_on_ply(&mut game, 30, king_move);
    }

    #[test]
    fn russian_lone_king_against_two_pieces_draws_after_five_moves_each() {
        // 7.2.8: a king and a man against a lone king, 10 plies.
        let start = fen::parse("W:WK1,21:BK32").unwrap();
        drawn_on_ply(
            &mut Game::new(start, 0, Variant::Russian.rules()),
            10,
            king_move,
        );
    }

    #[test]
    fn threefold_repetition_draws_the_family_only() {
        let start = fen::parse(REPEATS).unwrap();
        for (variant, drawn) in [
            (Variant::Russian, true),
            (Variant::Pool, true),
            (Variant::BuffGreen, false),
        ] {
            let mut game = Game::new(start, 0, variant.rules());
            for (ply, text) in CYCLE.iter().cycle().take(8).enumerate() {
                assert_eq!(game.result(), GameResult::Ongoing, "{variant:?} ply {ply}");
                game.play_str(text).unwrap();
            }
            let expected = if drawn {
                GameResult::Draw
            } else {
                GameResult::Ongoing
            };
            assert_eq!(game.result(), expected, "{variant:?}");
        }
    }
}
