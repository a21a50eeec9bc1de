//! The static evaluation under losing checkers (`Losing`), where the side with no legal move
//! wins: pieces are burdens to be given away, so the side with fewer pieces stands better.
//!
//! The normal evaluation negated would be wrong (its square values and mobility are fitted to
//! normal results). Material alone, with a king a lighter burden than a man (a king is easier
//! to offer: it can reach any square an enemy piece attacks), measured as well as versions
//! with mobility terms or heavier kings, and better than playouts run to the end of the game
//! (docs/results/, 2026-11-25).
//!
//! With short kings (English) that holds only in the ending: earlier, the side that gave its
//! pieces away was left with a lone piece or two that the opponent's many pieces then forced to
//! capture everything (or it shuffled into the draw rule), so there, until few pieces are left,
//! the side with more pieces stands better: it has the spare moves and the sacrifices that
//! force the other side to capture (docs/results/, 2026-11-25, English losing checkers).

use crate::board::{Position, Rules};

/// What one man of the side to move costs it, in hundredths of a man.
const MAN: i32 = 100;
/// What one king costs.
const KING: i32 = 60;
/// Pieces on the board (both sides) from which down, with short kings, fewer pieces stand
/// better; above it, more pieces do.
const SHORT_ENDING_PIECES: u32 = 6;

/// The evaluation from the view of the side to move, in hundredths of a man: the opponent's
/// burden minus its own (with short kings before the ending, the other way round).
#[inline]
pub fn evaluate(pos: &Position, rules: &Rules) -> i32 {
    let me = pos.side_to_move();
    let burden = |c| MAN * pos.men(c).count() as i32 + KING * pos.kings(c).count() as i32;
    let lead = burden(!me) - burden(me);
    if rules.long_kings || pos.occupied().count() <= SHORT_ENDING_PIECES {
        lead
    } else {
        -lead
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen;

    #[test]
    fn fewer_pieces_stand_better() {
        let losing = |rules: Rules| Rules {
            losing: true,
            ..rules
        };
        for rules in [losing(Rules::default()), losing(Rules::ENGLISH)] {
            let pos = fen::parse("B:W21,22,K30:B1").unwrap();
            assert_eq!(evaluate(&pos, &rules), 2 * MAN + KING - MAN);
            let pos = fen::parse("W:W21,22,K30:B1").unwrap();
            assert_eq!(evaluate(&pos, &rules), MAN - 2 * MAN - KING);
        }
    }

    #[test]
    fn with_short_kings_more_pieces_stand_better_before_the_ending() {
        let english = Rules {
            losing: true,
            ..Rules::ENGLISH
        };
        let flying = Rules {
            losing: true,
            ..Rules::default()
        };
        // Seven pieces: past the ending with short kings, not with flying ones.
        let pos = fen::parse("B:W21,22,23,K30:B1,2,K3").unwrap();
        assert_eq!(evaluate(&pos, &english), 2 * MAN + KING - 3 * MAN - KING);
        assert_eq!(evaluate(&pos, &flying), 3 * MAN + KING - 2 * MAN - KING);
        // Six: the ending, the same under both.
        let pos = fen::parse("B:W21,22,K30:B1,2,K3").unwrap();
        assert_eq!(evaluate(&pos, &english), 2 * MAN + KING - 2 * MAN - KING);
        let pos = fen::parse("B:W21,22,K30:B1,K3").unwrap();
        assert_eq!(evaluate(&pos, &english), 2 * MAN + KING - MAN - KING);
        assert_eq!(evaluate(&pos, &english), evaluate(&pos, &flying));
    }
}
