//! The static evaluation under losing checkers (`Losing`), where the side with no legal move
//! wins: pieces are burdens to be given away, so the side with fewer pieces stands better.
//!
//! The normal evaluation negated would be wrong (its square values and mobility are fitted to
//! normal results). Material alone, with a king a lighter burden than a man (a king is easier
//! to offer: it can reach any square an enemy piece attacks), measured as well as versions
//! with mobility terms or heavier kings, and better than playouts run to the end of the game
//! (docs/results.md, 2026-11-25).

use crate::board::Position;

/// What one man of the side to move costs it, in hundredths of a man.
const MAN: i32 = 100;
/// What one king costs.
const KING: i32 = 60;

/// The evaluation from the view of the side to move, in hundredths of a man: the opponent's
/// burden minus its own.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let me = pos.side_to_move();
    let burden = |c| MAN * pos.men(c).count() as i32 + KING * pos.kings(c).count() as i32;
    burden(!me) - burden(me)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen;

    #[test]
    fn fewer_pieces_stand_better() {
        let pos = fen::parse("B:W21,22,K30:B1").unwrap();
        assert_eq!(evaluate(&pos), 2 * MAN + KING - MAN);
        let pos = fen::parse("W:W21,22,K30:B1").unwrap();
        assert_eq!(evaluate(&pos), MAN - 2 * MAN - KING);
    }
}
