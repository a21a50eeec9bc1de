//! A game in progress: position, rules, no-progress clock, history and result.

use thiserror::Error;

use crate::board::draws::{DrawCount, FamilyDraw};
use crate::board::notation::{self, NotationError};
use crate::board::{generate_moves, has_moves, DrawRules, MoveList, Position, Rules};
use crate::types::{Color, Move};

/// How a game stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum GameResult {
    /// Play goes on.
    Ongoing,
    /// This side has won: the other has no legal move.
    Win(Color),
    /// Drawn: by the no-progress rule, or by the 8x8 family's draw rules (repetition,
    /// material).
    Draw,
}

impl GameResult {
    /// The word used by the protocol's `d` command: `ongoing`, `black wins`, `white wins`, `draw`.
    pub fn describe(self) -> &'static str {
        match self {
            GameResult::Ongoing => "ongoing",
            GameResult::Win(Color::Black) => "black wins",
            GameResult::Win(Color::White) => "white wins",
            GameResult::Draw => "draw",
        }
    }
}

/// Why a move was not played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlayError {
    /// The game is already over.
    #[error("the game is over ({})", .0.describe())]
    GameOver(GameResult),
    /// The move text does not name exactly one legal move.
    #[error(transparent)]
    Notation(#[from] NotationError),
}

/// One played move and what is needed to take it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ply {
    mv: Move,
    before: Position,
    clock_before: u32,
    draws_before: DrawCount,
}

/// A game: the checked entry point for moves from outside.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    start: Position,
    start_clock: u32,
    position: Position,
    clock: u32,
    /// The family's draw counters (zero under the other rule sets).
    draws: DrawCount,
    history: Vec<Ply>,
}

impl Game {
    /// A game from `start` with the no-progress clock at `clock`.
    pub fn new(start: Position, clock: u32, rules: Rules) -> Game {
        Game {
            rules,
            start,
            start_clock: clock,
            position: start,
            clock,
            draws: DrawCount::default(),
            history: Vec::new(),
        }
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The no-progress clock the game started with.
    pub fn start_clock(&self) -> u32 {
        self.start_clock
    }

    /// Half-moves since the last capture or promotion.
    pub fn clock(&self) -> u32 {
        self.clock
    }

    /// The 8x8 family's draw counters, derived from the moves played since the start (a FEN
    /// carries none: they start at zero).
    pub fn draws(&self) -> DrawCount {
        self.draws
    }

    /// The positions of the last `plies` plies (at most; oldest first) before the current
    /// one: what a repetition of the current position or a later one is looked for in.
    pub fn recent(&self, plies: usize) -> impl ExactSizeIterator<Item = Position> + '_ {
        let from = self.history.len().saturating_sub(plies);
        self.history[from..].iter().map(|p| p.before)
    }

    /// The moves played so far, in order.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|p| p.mv)
    }

    /// Every legal move now (none once the game is over).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.result() == GameResult::Ongoing {
            generate_moves(&self.position, &self.rules, &mut list);
        }
        list
    }

    /// The result: no legal move loses; the draw rules apply only when the mover can move.
    pub fn result(&self) -> GameResult {
        match result_of(&self.position, self.clock, &self.rules) {
            GameResult::Ongoing if self.family_drawn() => GameResult::Draw,
            result => result,
        }
    }

    /// True when the 8x8 family's draw rules (repetition, material) draw the game now.
    pub fn family_drawn(&self) -> bool {
        self.family_draw().is_some()
    }

    /// Which of the 8x8 family's draw rules draws the game now, if one does (the side to move
    /// may have no move: [`Game::result`] says who won then).
    pub fn family_draw(&self) -> Option<FamilyDraw> {
        if self.rules.draws == DrawRules::HalfMoves {
            return None;
        }
        let window = self.draws.reversible() as usize;
        let line: Vec<Position> = self
            .recent(window)
            .chain(std::iter::once(self.position))
            .collect();
        self.draws.draw(&line, &self.rules)
    }

    /// Plays a move in 1-32 notation (long form, or a capture's ends when unambiguous).
    pub fn play_str(&mut self, text: &str) -> Result<Move, PlayError> {
        let result = self.result();
        if result != GameResult::Ongoing {
            return Err(PlayError::GameOver(result));
        }
        let mv = notation::parse_move(&self.position, &self.rules, text)?;
        self.push(mv);
        Ok(mv)
    }

    /// Plays `mv` if it is legal now; returns false and changes nothing otherwise.
    pub fn play(&mut self, mv: Move) -> bool {
        if self.legal_moves().contains(&mv) {
            self.push(mv);
            true
        } else {
            false
        }
    }

    /// Takes the last move back; false at the start.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(ply) => {
                self.position = ply.before;
                self.clock = ply.clock_before;
                self.draws = ply.draws_before;
                true
            }
            None => false,
        }
    }

    fn push(&mut self, mv: Move) {
        let before = self.position;
        let clock_before = self.clock;
        let draws_before = self.draws;
        self.clock = next_clock(mv, clock_before);
        self.position.play_unchecked(mv);
        self.draws = draws_before.after(&before, mv, &self.position, &self.rules);
        self.history.push(Ply {
            mv,
            before,
            clock_before,
            draws_before,
        });
    }
}

/// The no-progress clock after `mv` is played in `pos`: captures and crownings reset it.
#[inline]
pub fn next_clock(mv: Move, clock: u32) -> u32 {
    if mv.is_capture() || mv.crowns() {
        0
    } else {
        clock.saturating_add(1)
    }
}

/// The result of a position with the given clock under `rules`.
#[inline]
pub fn result_of(pos: &Position, clock: u32, rules: &Rules) -> GameResult {
    if !has_moves(pos, rules) {
        GameResult::Win(rules.winner_when_stuck(pos.side_to_move()))
    } else if rules.draw_half_moves > 0 && clock >= rules.draw_half_moves {
        GameResult::Draw
    } else {
        GameResult::Ongoing
    }
}
