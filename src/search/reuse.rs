//! Tree reuse: which game the tree's root stands for, and the path to a later position.

use crate::board::{Game, Position, Rules};
use crate::search::node::PackedMove;
use crate::search::tree::Tree;
use crate::types::Move;

/// The game a tree was searched from: its start, rules and moves.
#[derive(Clone, Debug, PartialEq)]
pub struct RootKey {
    rules: Rules,
    start: Position,
    start_clock: u32,
    moves: Vec<Move>,
}

impl RootKey {
    /// The key of `game`'s current position.
    pub fn of(game: &Game) -> RootKey {
        RootKey {
            rules: *game.rules(),
            start: *game.start(),
            start_clock: game.start_clock(),
            moves: game.moves().collect(),
        }
    }

    /// The node of `tree` (rooted at this key's position) that stands for `game`'s position,
    /// when `game` continues this key's game by moves that are all in the tree.
    pub fn find(&self, game: &Game, tree: &Tree) -> Option<u32> {
        if *game.rules() != self.rules
            || *game.start() != self.start
            || game.start_clock() != self.start_clock
            || game.moves().len() < self.moves.len()
        {
            return None;
        }
        let mut moves = game.moves();
        if !self.moves.iter().all(|m| moves.next() == Some(*m)) {
            return None;
        }
        let mut index = 0u32;
        for mv in moves {
            let target = PackedMove::new(mv);
            index = tree
                .node(index)
                .children()
                .find(|&c| tree.node(c).mv() == target)?;
        }
        Some(index)
    }
}
