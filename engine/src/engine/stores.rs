//! The files the engine plays with beside its search, from opening to replacement: the endgame
//! tables of `TablebasePath` (and the search's view of them under `TablebasePieces`) and the
//! book of `BookFile`. The facade asks for the stores a change of settings or rules names
//! before it changes anything, so that a refused file leaves every setting as it was.

use std::sync::Arc;

use super::{EngineError, Notice, Settings};
use crate::board::Rules;
use crate::book::{self, Book};
use crate::search::tables::Endgame;
use crate::tablebase::{Tablebase, TbError};

/// The tables and the book, as the settings and the rules name them.
pub(super) struct Stores {
    /// The tables of `TablebasePath`, opened for the game's rules.
    tablebase: Option<Arc<Tablebase>>,
    /// The search's view of them under `TablebasePieces`, kept while neither changes (it
    /// remembers which slice failures it has reported).
    tables: Option<Arc<Endgame>>,
    /// The book of `BookFile`, when one is set (checked for the rules when it was set).
    book_file: Option<Arc<Book>>,
}

impl Stores {
    /// The stores of the start-up `settings` under `rules`: the default tables when their
    /// folder holds tables for the rules, no book file. A folder that cannot be read leaves
    /// the engine without tables, with the reason.
    pub(super) fn at_start(settings: &Settings, rules: &Rules) -> (Stores, Option<TbError>) {
        let cache = u64::from(settings.tablebase_cache) << 20;
        let opened = open_tables(&settings.tablebase_path, rules, cache, Opening::Default);
        let (tablebase, error) = match opened {
            Ok(tb) => (tb, None),
            Err(e) => (None, Some(e)),
        };
        let tables = view(&tablebase, settings);
        let stores = Stores {
            tablebase,
            tables,
            book_file: None,
        };
        (stores, error)
    }

    /// The stores that `settings` and `rules` name, where these stores serve `old` settings
    /// and `old_rules`: what did not change is kept, what changed is opened anew. A book or a
    /// named table folder that cannot be opened refuses the change; tables that do not fit
    /// new rules leave the engine without tables, with a [`Notice::TablesOff`] in `notices`.
    pub(super) fn after(
        &self,
        (old, old_rules): (&Settings, &Rules),
        (settings, rules): (&Settings, &Rules),
        notices: &mut Vec<Notice>,
    ) -> Result<Stores, EngineError> {
        let book_file = if settings.book_file == old.book_file {
            self.book_file.clone()
        } else if settings.book_file.is_empty() {
            None
        } else {
            Some(Arc::new(Book::open(&settings.book_file, rules)?))
        };
        let path_changed = settings.tablebase_path != old.tablebase_path;
        let opening = if !path_changed && settings.tablebase_path == super::tables_default() {
            Opening::Default
        } else {
            Opening::Named
        };
        let cache = u64::from(settings.tablebase_cache) << 20;
        let tablebase = if path_changed || settings.tablebase_cache != old.tablebase_cache {
            open_tables(&settings.tablebase_path, rules, cache, opening)?
        } else if rules != old_rules && !settings.tablebase_path.is_empty() {
            open_tables(&settings.tablebase_path, rules, cache, opening).unwrap_or_else(|e| {
                notices.push(Notice::TablesOff(e));
                None
            })
        } else {
            self.tablebase.clone()
        };
        let same = match (&tablebase, &self.tablebase) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        let tables = if !same || settings.tablebase_pieces != old.tablebase_pieces {
            view(&tablebase, settings)
        } else {
            self.tables.clone()
        };
        Ok(Stores {
            tablebase,
            tables,
            book_file,
        })
    }

    /// The book `OwnBook` plays under `rules`: the `BookFile` book when it is for these rules,
    /// otherwise the built-in book of the rules (if there is one).
    pub(super) fn book(&self, rules: &Rules) -> Option<Arc<Book>> {
        self.book_file
            .clone()
            .filter(|b| b.is_for(rules))
            .or_else(|| book::builtin(rules))
    }

    /// The endgame tables, if any.
    pub(super) fn tablebase(&self) -> Option<&Arc<Tablebase>> {
        self.tablebase.as_ref()
    }

    /// The search's view of the tables, if any.
    pub(super) fn tables(&self) -> Option<Arc<Endgame>> {
        self.tables.clone()
    }
}

/// The search's view of `tablebase` under the `TablebasePieces` of `settings`.
fn view(tablebase: &Option<Arc<Tablebase>>, settings: &Settings) -> Option<Arc<Endgame>> {
    tablebase
        .clone()
        .and_then(|tb| Endgame::new(tb, settings.tablebase_pieces))
        .map(Arc::new)
}

/// How the tables of `TablebasePath` are opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opening {
    /// A path a `setoption` named (and the same path after a rules change): every plain file
    /// is checked whole (a compressed block is checked at each read), and a missing folder is
    /// an error.
    Named,
    /// The default root, unchanged since start-up: a folder that does not exist or holds no
    /// tables for the rules means no tables, not an error (the user has built none), and the
    /// files are checked as they are read rather than whole, so that start-up does not read
    /// every table the user built.
    Default,
}

/// The tables of `path` for `rules` with a block cache of `cache` bytes (`None`: no path, or
/// a default root without tables). Named tables have every plain slice's checksum checked
/// now, while no search runs: a search then never reads more of a file than the entries it
/// probes, and a corrupt file refuses the folder here, with the other bad inputs.
fn open_tables(
    path: &str,
    rules: &Rules,
    cache: u64,
    opening: Opening,
) -> Result<Option<Arc<Tablebase>>, TbError> {
    if path.is_empty() {
        return Ok(None);
    }
    let tb = match Tablebase::open_with_cache(std::path::Path::new(path), rules, cache) {
        Ok(tb) => tb,
        Err(TbError::NoDirectory(_) | TbError::Empty(_)) if opening == Opening::Default => {
            return Ok(None)
        }
        Err(e) => return Err(e),
    };
    if opening == Opening::Named {
        tb.verify_plain()?;
    }
    Ok(Some(Arc::new(tb)))
}
