//! MCTS-Solver: proven wins, losses and draws, and how they propagate to the parent.
//!
//! A proof is from the view of the player who moved into the node (as every node statistic).
//! A parent is lost for its mover as soon as one child is a win for the player to move there;
//! it is won only when every child is lost; it is a draw when every child is proven and the
//! best of them is a draw.

/// A proven result of a node, from the view of the player who moved into it, with the number
/// of plies from the node's position to the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The player who moved into the node wins.
    Win(u16),
    /// The player who moved into the node loses.
    Loss(u16),
    /// The game is drawn.
    Draw,
}

const PLIES: u16 = 0x3FFF;

impl Proof {
    /// The 16-bit form stored in a node; 0 means "not proven".
    #[inline]
    pub fn encode(self) -> u16 {
        match self {
            Proof::Win(p) => 0x4000 | p.min(PLIES),
            Proof::Loss(p) => 0x8000 | p.min(PLIES),
            Proof::Draw => 0xC000,
        }
    }

    /// Reads the 16-bit form.
    #[inline]
    pub fn decode(bits: u16) -> Option<Proof> {
        match bits >> 14 {
            1 => Some(Proof::Win(bits & PLIES)),
            2 => Some(Proof::Loss(bits & PLIES)),
            3 => Some(Proof::Draw),
            _ => None,
        }
    }

    /// The exact result for the player who moved into the node, in `SCALE` units.
    #[inline]
    pub fn value(self) -> u64 {
        match self {
            Proof::Win(_) => super::value::WIN,
            Proof::Loss(_) => super::value::LOSS,
            Proof::Draw => super::value::DRAW,
        }
    }

    /// The parent's proof given the proofs of all its children (`None`: not proven).
    pub fn of_parent(children: impl Iterator<Item = Option<Proof>>) -> Option<Proof> {
        let mut all_proven = true;
        let mut draw = false;
        let mut shortest_win = u16::MAX;
        let mut longest_loss = 0u16;
        for proof in children {
            match proof {
                Some(Proof::Win(p)) => shortest_win = shortest_win.min(p),
                Some(Proof::Loss(p)) => longest_loss = longest_loss.max(p),
                Some(Proof::Draw) => draw = true,
                None => all_proven = false,
            }
        }
        if shortest_win != u16::MAX {
            // The player to move here has a winning move: whoever moved in loses.
            Some(Proof::Loss(shortest_win.saturating_add(1)))
        } else if !all_proven {
            None
        } else if draw {
            Some(Proof::Draw)
        } else {
            Some(Proof::Win(longest_loss.saturating_add(1)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        for p in [Proof::Win(0), Proof::Win(77), Proof::Loss(3), Proof::Draw] {
            assert_eq!(Proof::decode(p.encode()), Some(p));
        }
        assert_eq!(Proof::decode(0), None);
    }

    #[test]
    fn parent_rules() {
        use Proof::*;
        assert_eq!(
            Proof::of_parent([None, Some(Win(2))].into_iter()),
            Some(Loss(3))
        );
        assert_eq!(Proof::of_parent([None, Some(Loss(2))].into_iter()), None);
        assert_eq!(
            Proof::of_parent([Some(Loss(4)), Some(Loss(2))].into_iter()),
            Some(Win(5))
        );
        assert_eq!(
            Proof::of_parent([Some(Loss(4)), Some(Draw)].into_iter()),
            Some(Draw)
        );
        assert_eq!(
            Proof::of_parent([Some(Win(6)), Some(Win(2)), None].into_iter()),
            Some(Loss(3))
        );
    }
}
