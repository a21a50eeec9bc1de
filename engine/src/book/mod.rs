//! The opening book: moves and their scores for positions near the start, built by the engine
//! itself ([`build`], drop-out expansion over deep searches), kept in a compact sorted file
//! ([`format`](mod@format)) and probed by binary search ([`Book::probe`]).
//!
//! The books of the repository (`books/`, one per rule setting) are compiled into the binary,
//! so `OwnBook` works from any directory ([`builtin`]); `BookFile` loads another file. Which
//! book move is played is decided with the search's answer in one place
//! ([`crate::search::choice`]).
//!
//! Layout: [`build`] builds a book, [`format`](mod@format) is its file, [`cli`] is the `buffgreen book`
//! subcommand; this file probes.

pub mod build;
pub mod cli;
pub mod format;

use std::sync::{Arc, OnceLock};

use crate::board::count::Node;
use crate::board::{generate_moves, zobrist, MoveList, Position, Rules};
use crate::types::Move;

pub use format::{BookError, BookRules, Entry};

/// The books of the repository, by the path the rule sets' table gives
/// ([`crate::board::Variant::book`]); a test checks that every path it gives is here.
const BUILT_IN: [(&str, &[u8]); 2] = [
    (
        "books/buffgreen.book",
        include_bytes!("../../../books/buffgreen.book"),
    ),
    (
        "books/english.book",
        include_bytes!("../../../books/english.book"),
    ),
];

/// The key of `pos` in a book: the low half of its Zobrist key (pieces and side to move).
pub fn key(pos: &Position) -> u64 {
    zobrist::key(Node::of(pos), pos.side_to_move()) as u64
}

/// What names a move in a book: the low 32 bits of the key of the position it leads to.
pub fn child_key(pos: &Position, mv: Move) -> u32 {
    let mut next = *pos;
    next.play_unchecked(mv);
    key(&next) as u32
}

/// A move the book has for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its score in centi-men, from the mover's view.
    pub score: i16,
}

/// An opening book for one rule setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    rules: BookRules,
    entries: Vec<Entry>,
}

impl Book {
    /// The book in `bytes` (from `name`, named in errors).
    pub fn from_bytes(name: &str, bytes: &[u8]) -> Result<Book, BookError> {
        let (rules, entries) = format::decode(name, bytes)?;
        Ok(Book { rules, entries })
    }

    /// The book file at `path`, refused unless it was built for `rules`.
    pub fn open(path: &str, rules: &Rules) -> Result<Book, BookError> {
        let (found, entries) = format::read(std::path::Path::new(path))?;
        let book = Book {
            rules: found,
            entries,
        };
        book.check_rules(path, rules)?;
        Ok(book)
    }

    /// True when the book was built for `rules`.
    pub fn is_for(&self, rules: &Rules) -> bool {
        self.rules == BookRules::of(rules)
    }

    /// Refuses the book (read from `path`) unless it was built for `rules`.
    pub fn check_rules(&self, path: &str, rules: &Rules) -> Result<(), BookError> {
        let wanted = BookRules::of(rules);
        if self.is_for(rules) {
            Ok(())
        } else {
            Err(BookError::OtherRules {
                path: path.to_string(),
                found: self.rules.to_string(),
                wanted: wanted.to_string(),
            })
        }
    }

    /// The rules the book was built for.
    pub fn rules(&self) -> BookRules {
        self.rules
    }

    /// How many moves the book holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the book holds no move.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many positions the book has moves for.
    pub fn positions(&self) -> usize {
        let mut n = 0;
        let mut last = None;
        for e in &self.entries {
            if last != Some(e.key) {
                n += 1;
                last = Some(e.key);
            }
        }
        n
    }

    /// The book's legal moves in `pos` under `rules`, best score first (as in the file).
    /// A book of other rules has none.
    pub fn probe(&self, pos: &Position, rules: &Rules) -> Vec<BookMove> {
        if !self.is_for(rules) {
            return Vec::new();
        }
        let k = key(pos);
        let start = self.entries.partition_point(|e| e.key < k);
        let stored: Vec<&Entry> = self.entries[start..]
            .iter()
            .take_while(|e| e.key == k)
            .collect();
        if stored.is_empty() {
            return Vec::new();
        }
        let mut legal = MoveList::new();
        generate_moves(pos, rules, &mut legal);
        let children: Vec<(Move, u32)> = legal.iter().map(|&m| (m, child_key(pos, m))).collect();
        stored
            .iter()
            .filter_map(|e| {
                children
                    .iter()
                    .find(|(_, c)| *c == e.child)
                    .map(|&(mv, _)| BookMove { mv, score: e.score })
            })
            .collect()
    }
}

/// The book of the repository for `rules`, if it has one: the file its rule set names
/// ([`crate::board::Variant::book`]) when that book was built for these rules (none for losing
/// checkers).
pub fn builtin(rules: &Rules) -> Option<Arc<Book>> {
    static BOOKS: [OnceLock<Option<Arc<Book>>>; BUILT_IN.len()] =
        [const { OnceLock::new() }; BUILT_IN.len()];
    let file = rules.variant().book()?;
    let i = BUILT_IN.iter().position(|(name, _)| *name == file)?;
    let book = BOOKS[i].get_or_init(|| {
        let (name, bytes) = BUILT_IN[i];
        Book::from_bytes(name, bytes).ok().map(Arc::new)
    });
    book.as_ref()
        .filter(|b| b.rules() == BookRules::of(rules))
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start_moves(rules: &Rules) -> Vec<(String, i16)> {
        let book = builtin(rules).expect("a built-in book");
        book.probe(&Position::startpos(), rules)
            .iter()
            .map(|m| (m.mv.to_string(), m.score))
            .collect()
    }

    fn owned(v: &[(&str, i16)]) -> Vec<(String, i16)> {
        v.iter().map(|&(m, s)| (m.to_string(), s)).collect()
    }

    #[test]
    fn the_built_in_books_have_the_start_moves_of_their_files() {
        let bg = [
            ("9-13", -13),
            ("10-15", -18),
            ("11-16", -19),
            ("12-16", -19),
            ("11-15", -28),
            ("10-14", -28),
            ("9-14", -34),
        ];
        assert_eq!(start_moves(&Rules::BUFF_AND_GREEN), owned(&bg));
        let en = [
            ("11-15", 2),
            ("9-14", -4),
            ("11-16", -8),
            ("9-13", -13),
            ("12-16", -21),
            ("10-15", -26),
            ("10-14", -36),
        ];
        assert_eq!(start_moves(&Rules::ENGLISH), owned(&en));
        let sizes = |r: &Rules| builtin(r).map(|b| (b.len(), b.rules()));
        assert_eq!(
            sizes(&Rules::BUFF_AND_GREEN),
            Some((842, BookRules::of(&Rules::BUFF_AND_GREEN)))
        );
        assert_eq!(
            sizes(&Rules::ENGLISH),
            Some((1122, BookRules::of(&Rules::ENGLISH)))
        );
        // No book for the mixed rule settings or losing checkers.
        for rules in [Rules::ALL[1], Rules::ALL[2]] {
            assert!(builtin(&rules).is_none());
        }
        let losing = Rules {
            losing: true,
            ..Rules::default()
        };
        assert!(builtin(&losing).is_none());
        // The draw rule does not matter.
        let no_draw = Rules {
            draw_half_moves: 0,
            ..Rules::default()
        };
        assert_eq!(start_moves(&no_draw), owned(&bg));
    }

    #[test]
    fn every_deck_opening_is_in_its_book() {
        use crate::openings::default_deck;
        for rules in [Rules::BUFF_AND_GREEN, Rules::ENGLISH] {
            let book = builtin(&rules).expect("a built-in book");
            let deck = default_deck(&rules);
            assert_eq!(deck.len(), 174);
            for o in &deck {
                assert!(
                    !book.probe(o.game.position(), &rules).is_empty(),
                    "{}",
                    o.label
                );
            }
        }
    }
}
