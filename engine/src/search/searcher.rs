//! The [`Searcher`]: the search tree's lifetime (sized from `Hash`, kept from one search to the
//! next) and the decision to re-root it at the new position, to start afresh, or to search on.
//! The iterations themselves are run by the `driver`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::board::{Game, GameResult, Position, Rules};
use crate::search::choice::Chooser;
use crate::search::driver::{self, Answer, Compaction};
use crate::search::node::PackedMove;
use crate::search::params::Behaviour;
use crate::search::state::SearchState;
use crate::search::tables::Endgame;
use crate::search::tree::{Tree, TreeStats};
use crate::search::{Control, End, Limits, SearchConfig, SearchEvent, SearchOutcome, Terms};
use crate::tablebase::Value;
use crate::types::Move;

/// Iterations a forced move (the only legal or allowed move) is searched for its score
/// before it is answered: a few milliseconds.
pub const FORCED_ITERATIONS: u64 = 1_000;

/// The tree budget in bytes for `Hash` in MiB (0 is taken as 1).
fn hash_bytes(mib: usize) -> usize {
    mib.max(1).saturating_mul(1 << 20)
}

/// The searcher, which keeps its state (the tree) between searches.
#[derive(Debug)]
pub struct Searcher {
    config: SearchConfig,
    tree: Tree,
    /// The game the tree's root stands for; `None` when the tree must not be reused.
    last: Option<RootKey>,
    /// How long compacting the tree takes, learned from the last compactions.
    compaction: Compaction,
    /// The endgame tables the search probes, if any.
    tables: Option<Arc<Endgame>>,
    /// Said by the next search, once: the tree is smaller than `Hash` asked for.
    short: Option<String>,
}

/// The tree for `Hash` `mib`, and what to say when it is smaller than asked for (a memory
/// limit, or a system that could not provide the memory).
fn tree_for(mib: usize) -> (Tree, Option<String>) {
    let tree = Tree::with_budget(hash_bytes(mib));
    let short = (tree.capacity() < Tree::capacity_for(hash_bytes(mib))).then(|| {
        format!(
            "Hash {mib} MiB does not fit in this process's memory: the tree has {} MiB",
            tree.stats().bytes >> 20
        )
    });
    (tree, short)
}

impl Searcher {
    /// A searcher with the given settings.
    pub fn new(config: &SearchConfig) -> Searcher {
        let (tree, short) = tree_for(config.hash_mib);
        Searcher {
            config: config.clone(),
            tree,
            last: None,
            compaction: Compaction::default(),
            tables: None,
            short,
        }
    }

    /// Sets the endgame tables the next searches probe (`None`: none). Other tables than
    /// before start a fresh tree: proofs from tables are exact, but the tree should not mix
    /// what it learned with and without them.
    pub fn set_tables(&mut self, tables: Option<Arc<Endgame>>) {
        let same = match (&self.tables, &tables) {
            (None, None) => true,
            (Some(a), Some(b)) => a.same_as(b),
            _ => false,
        };
        if !same {
            self.last = None;
            self.tables = tables;
        }
    }

    /// Applies new settings (the tree is reallocated when the memory size changes).
    pub fn configure(&mut self, config: &SearchConfig) {
        if config.hash_mib != self.config.hash_mib {
            // Free the old arena first so that both are never held at once.
            self.tree = Tree::with_budget(0);
            (self.tree, self.short) = tree_for(config.hash_mib);
            self.last = None;
        }
        if config.plain_uct != self.config.plain_uct {
            self.last = None;
        }
        self.config = config.clone();
    }

    /// Forgets everything learned (new game).
    pub fn new_game(&mut self) {
        self.tree.clear();
        self.last = None;
    }

    /// Memory figures of the search tree.
    pub fn tree_stats(&self) -> TreeStats {
        self.tree.stats()
    }

    /// Searches the current position of `game` (under the game's rules) within `limits`,
    /// reporting through `report`, until a limit is reached or `control.stop` is set.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(SearchEvent),
    ) -> SearchOutcome {
        self.search_since(Instant::now(), game, limits, control, report)
    }

    /// [`Searcher::search`] with the move's clock started at `started` (when the `go` was
    /// read), so that what came before the search counts against the move.
    pub fn search_since(
        &mut self,
        started: Instant,
        game: &Game,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(SearchEvent),
    ) -> SearchOutcome {
        if let Some(short) = self.short.take() {
            report(SearchEvent::Message(short));
        }
        let none = SearchOutcome {
            best: None,
            ponder: None,
            nodes: 0,
        };
        if game.result() != GameResult::Ongoing {
            return none;
        }
        let behaviour = Behaviour::of(&self.config);
        let tables = self.tables.clone().filter(|_| !self.config.plain_uct);
        // A tabled root plays only moves that keep its result (see `Endgame::root`), narrowed
        // by `searchmoves` when that leaves any: from the first answer on, which may be given
        // while a kept tree is compacted.
        let tabled = tables
            .as_deref()
            .and_then(|t| t.root(game.position(), game.rules(), game.clock(), game.draws()));
        let keep: Vec<Move> = tabled.as_ref().map_or_else(Vec::new, |root| {
            root.moves
                .iter()
                .copied()
                .filter(|m| limits.allows(m))
                .collect()
        });
        let playable = if keep.is_empty() {
            limits.searchmoves.as_slice()
        } else {
            keep.as_slice()
        };
        // A drawn tabled root is searched without draw proofs (see `Endgame::without_draws`):
        // a kept tree holds them, so it starts afresh.
        let drawn = !keep.is_empty() && tabled.as_ref().is_some_and(|r| r.value == Value::Draw);
        let tables = tables.map(|t| {
            if drawn {
                Arc::new(t.without_draws())
            } else {
                t
            }
        });
        let found = match &self.last {
            Some(key) if behaviour.reuse_tree && !drawn => key.find(game, &self.tree),
            _ => None,
        };
        self.last = None;
        match found {
            // The same position again (analysis, or a `go` after `stop`): nothing to move,
            // and re-rooting a large tree would only delay the search and a `stop`.
            Some(0) if self.tree.used() <= self.tree.capacity() / 2 => {
                let kept = self.tree.used();
                report(SearchEvent::Message(format!("reused {kept} nodes")));
            }
            // Re-rooting would eat a large share of a timed move: start afresh instead.
            Some(_) if self.reroot_too_slow(limits, &self.terms(game, limits, &behaviour)) => {
                let used = self.tree.used();
                self.tree.clear();
                report(SearchEvent::Message(format!(
                    "not reused: re-rooting {used} nodes would take too long for this move"
                )));
            }
            Some(index) => {
                let chooser = Chooser::of(&self.config);
                let answer = Answer::at(&self.tree, index, game, playable, &chooser);
                let limit = self.tree.capacity() / 2;
                let (kept, given) =
                    self.compaction
                        .run(&mut self.tree, index, limit, control, answer, report);
                if let Some(outcome) = given {
                    self.last = Some(RootKey::of(game));
                    return outcome;
                }
                report(SearchEvent::Message(format!("reused {kept} nodes")));
            }
            None => self.tree.clear(),
        }
        let mut state = SearchState::new(&self.config, game, started, tables);
        let mut workers = state.workers(behaviour.threads);
        if !self.tree.root().is_expanded()
            && !workers[0].expand(&self.tree, 0, game.position(), game.rules())
        {
            // Only a position with more moves than the arena holds gets here.
            return SearchOutcome {
                best: limits.fallback(game),
                ..none
            };
        }
        let mut candidates = 0;
        if let Some(root) = &tabled {
            state.add_root_tbhits(root.probes);
            if !keep.is_empty() {
                candidates = state.mask_root(&self.tree, &keep);
            }
        }
        if candidates == 0 {
            candidates = state.mask_root(&self.tree, &limits.searchmoves);
        }
        if candidates == 0 {
            // No legal move among `searchmoves`: search them all rather than give up.
            candidates = state.mask_root(&self.tree, &[]);
        }
        // A forced move is searched briefly, for a real score, and then answered (unless the
        // GUI wants the search to go on: analysis shows the forced move's evaluation too).
        let brief;
        let limits = if candidates == 1 && !limits.infinite && !limits.ponder {
            brief = Limits {
                nodes: Some(
                    limits
                        .nodes
                        .map_or(FORCED_ITERATIONS, |n| n.min(FORCED_ITERATIONS)),
                ),
                ..limits.clone()
            };
            &brief
        } else {
            limits
        };
        let run = driver::Run {
            behaviour,
            state: &state,
            limits,
            terms: self.terms(game, limits, &behaviour),
            control,
        };
        let given = run.drive(&mut self.tree, &mut self.compaction, &mut workers, report);
        if let Some(outcome) = given {
            self.last = Some(RootKey::of(game));
            return outcome;
        }
        for info in state.infos(&self.tree) {
            report(SearchEvent::Info(info));
        }
        let outcome = state.outcome(&self.tree);
        if behaviour.reuse_tree {
            self.last = Some(RootKey::of(game));
        }
        outcome
    }

    /// True when re-rooting the tree would take more than a quarter of the time this search
    /// may use (never for searches without a time limit, or while pondering).
    fn reroot_too_slow(&self, limits: &Limits, terms: &Terms) -> bool {
        if limits.ponder || terms.end == End::Stop {
            return false;
        }
        terms
            .budget
            .is_some_and(|b| self.compaction.estimate(&self.tree) * 4 > b.hard)
    }

    /// What `limits` come to for `game`'s side to move under this searcher's configuration.
    fn terms(&self, game: &Game, limits: &Limits, behaviour: &Behaviour) -> Terms {
        let overhead = Duration::from_millis(self.config.move_overhead_ms);
        limits.terms(game.position().side_to_move(), overhead, behaviour)
    }
}

/// The game a tree was searched from: its start, rules and moves.
#[derive(Clone, Debug, PartialEq)]
struct RootKey {
    rules: Rules,
    start: Position,
    start_clock: u32,
    moves: Vec<Move>,
}

impl RootKey {
    /// The key of `game`'s current position.
    fn of(game: &Game) -> RootKey {
        RootKey {
            rules: *game.rules(),
            start: *game.start(),
            start_clock: game.start_clock(),
            moves: game.moves().collect(),
        }
    }

    /// The node of `tree` (rooted at this key's position) that stands for `game`'s position,
    /// when `game` continues this key's game by moves that are all in the tree.
    fn find(&self, game: &Game, tree: &Tree) -> Option<u32> {
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

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;

    use super::*;
    use crate::search::report;
    use crate::search::solver::Proof;
    use crate::search::Score;
    use crate::types::Color;

    /// The messages of a search of `game` under `limits`.
    fn messages(s: &mut Searcher, game: &Game, limits: &Limits) -> Vec<String> {
        let mut out = Vec::new();
        s.search(game, limits, &Control::default(), &mut |e| {
            if let SearchEvent::Message(m) = e {
                out.push(m);
            }
        });
        out
    }

    /// A searcher that searched `game` for `nodes` iterations, with `game` moved on by the
    /// line it found (its move and the expected reply); `None` when it found no such line.
    fn searched_then_played(game: &mut Game, nodes: u64) -> Option<Searcher> {
        let mut s = Searcher::new(&SearchConfig::default());
        let first = s.search(
            game,
            &Limits::nodes(nodes),
            &Control::default(),
            &mut |_| {},
        );
        let (Some(best), Some(reply)) = (first.best, first.ponder) else {
            return None;
        };
        (game.play(best) && game.play(reply)).then_some(s)
    }

    /// A search of `game` by `s` with the stop there before it begins (a re-rooting sees it
    /// at once), which answers with exactly one event.
    fn stopped_at_once(s: &mut Searcher, game: &Game) -> SearchOutcome {
        let control = Control::default();
        control.stop.store(true, Ordering::Relaxed);
        let mut events = Vec::new();
        let out = s.search(game, &Limits::infinite(), &control, &mut |e| events.push(e));
        assert_eq!(events, vec![SearchEvent::Decided(out)]);
        out
    }

    /// A Russian game from `fen` (8 pieces, kings on both sides: rule 7.2.5 counts) after
    /// 29 plies of king moves: one more king move draws it.
    fn one_king_move_from_the_draw(fen: &str) -> Game {
        let start = crate::board::fen::parse(fen).expect("test FEN");
        let mut game = Game::new(start, 0, crate::board::Variant::Russian.rules());
        crate::board::wander(&mut game, 29, crate::board::king_move);
        assert_eq!(game.draws().count(), 29);
        game
    }

    /// The best move and score of a search of `game` of `nodes` iterations.
    fn best_and_score(game: &Game, nodes: u64) -> (Move, Score) {
        let mut s = Searcher::new(&SearchConfig::default());
        let mut score = None;
        let out = s.search(game, &Limits::nodes(nodes), &Control::default(), &mut |e| {
            if let SearchEvent::Info(i) = e {
                score = Some(i.score);
            }
        });
        (out.best.expect("a move"), score.expect("an info line"))
    }

    #[test]
    fn under_russian_rules_the_winner_avoids_the_draw_and_the_loser_takes_it() {
        // Three kings and three men against a king and a man.
        let winning = one_king_move_from_the_draw("B:WK1,K2,K3,12,13,21:BK32,20");
        let (best, _) = best_and_score(&winning, 3_000);
        let pos = winning.position();
        assert!(
            !pos.all_kings().contains(best.from()),
            "{best}: a king move draws"
        );
        let losing = one_king_move_from_the_draw("W:WK1,K2,K3,12,13,21:BK32,20");
        let (best, score) = best_and_score(&losing, 3_000);
        assert!(
            losing.position().all_kings().contains(best.from()),
            "{best}"
        );
        assert_eq!(score, Score::Cp(0));
    }

    #[test]
    fn under_russian_rules_three_kings_at_the_count_score_a_draw() {
        // 7.2.4 after 29 plies: whatever White plays (no capture), the game is drawn.
        let start = crate::board::fen::parse("B:WK1,K2,K3:BK32").expect("test FEN");
        let mut game = Game::new(start, 0, crate::board::Variant::Russian.rules());
        let fresh = best_and_score(&game, 2_000).1;
        // The lone king kept off the long diagonal (squares 4 to 29), where 7.2.7 counts.
        let off_diagonal = |pos: &Position, mv: Move| {
            pos.side_to_move() == Color::White
                || ![4, 8, 11, 15, 18, 22, 25, 29].contains(&mv.to().number())
        };
        crate::board::wander(&mut game, 29, off_diagonal);
        assert_eq!(game.draws().count(), 29);
        assert_eq!(best_and_score(&game, 2_000).1, Score::Cp(0));
        assert_ne!(fresh, Score::Cp(0), "without the count the kings win");
    }

    #[test]
    fn a_stop_during_re_rooting_is_answered_before_it_ends() {
        let mut game = Game::new(Position::startpos(), 0, Rules::default());
        let mut s = searched_then_played(&mut game, 20_000).expect("a line");
        let out = stopped_at_once(&mut s, &game);
        assert_eq!(out.nodes, 0);
        let legal = game.legal_moves();
        assert!(out.best.is_some_and(|m| legal.contains(&m)), "{out:?}");
        // The tree was re-rooted all the same: the next search reuses it.
        let said = messages(&mut s, &game, &Limits::nodes(100));
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].starts_with("reused "), "{said:?}");
    }

    #[test]
    fn a_stop_during_re_rooting_answers_with_the_strength_limits_pick() {
        use crate::search::params::MIN_ELO;
        let mut differed = 0;
        for seed in 0..8 {
            let mut game = Game::new(Position::startpos(), 0, Rules::default());
            let mut s = searched_then_played(&mut game, 20_000).expect("a line");
            // The kept tree, now under a strength limit (same `Hash`: the tree stays).
            let limited = SearchConfig {
                limit_strength: true,
                elo: MIN_ELO as u32,
                seed,
                ..SearchConfig::default()
            };
            s.configure(&limited);
            let index = s.last.as_ref().and_then(|k| k.find(&game, &s.tree));
            let index = index.expect("the line is in the tree");
            let (pos, rules) = (game.position(), game.rules());
            let pick = Chooser::of(&limited).from_tree(&s.tree, index, pos, rules, &[]);
            let usual = Chooser::of(&SearchConfig::default());
            let usual = usual.from_tree(&s.tree, index, pos, rules, &[]);
            let out = stopped_at_once(&mut s, &game);
            assert_eq!(out.best, pick.best, "seed {seed}");
            if pick.best != usual.best {
                differed += 1;
            }
        }
        // Else the test could not fail.
        assert!(differed > 0, "the limit never picked another move");
    }

    #[test]
    fn a_timed_move_does_not_wait_for_a_slow_re_rooting() {
        let game = Game::new(Position::startpos(), 0, Rules::default());
        let by_nodes = Limits::nodes(5_000);
        let timed = Limits::movetime(Duration::from_millis(40));
        for (ns_per_node, reused) in [(1e-3, true), (1e6, false)] {
            let mut s = Searcher::new(&SearchConfig::default());
            let mut g = game.clone();
            messages(&mut s, &g, &by_nodes);
            assert!(g.play(g.legal_moves()[0]));
            s.compaction.ns_per_node = ns_per_node;
            let said = messages(&mut s, &g, &timed);
            assert_eq!(said.len(), 1, "{said:?}");
            assert_eq!(said[0].starts_with("reused "), reused, "{said:?}");
            assert_eq!(said[0].starts_with("not reused: "), !reused, "{said:?}");
            // Without a time limit the tree is always kept.
            s.compaction.ns_per_node = 1e6;
            assert!(g.play(g.legal_moves()[0]));
            let said = messages(&mut s, &g, &by_nodes);
            assert!(said[0].starts_with("reused "), "{said:?}");
        }
    }

    /// Buff and Green tables of up to 3 pieces, built once per process into a directory of
    /// its own (removed once mapped: the maps stay valid).
    fn three_piece_tables(rules: &Rules) -> Arc<Endgame> {
        use crate::tablebase::build::{build, BuildOptions, DEFAULT_MEMORY, DEFAULT_SAVE_EVERY};
        use crate::tablebase::Tablebase;
        static TABLES: std::sync::OnceLock<Arc<Endgame>> = std::sync::OnceLock::new();
        assert_eq!(*rules, Rules::default());
        let tables = TABLES.get_or_init(|| {
            let dir =
                std::env::temp_dir().join(format!("buffgreen-searcher-tb-{}", std::process::id()));
            let opts = BuildOptions {
                dir: dir.clone(),
                pieces: 3,
                rules: *rules,
                threads: 1,
                compress: false,
                share: None,
                memory: DEFAULT_MEMORY,
                save_every: DEFAULT_SAVE_EVERY,
            };
            build(&opts, &mut |_| {}).expect("3-piece tables build");
            let tb = Tablebase::open(&dir, rules).expect("tables open");
            tb.verify().expect("tables check");
            let _ = std::fs::remove_dir_all(&dir);
            Arc::new(Endgame::new(Arc::new(tb), 3).expect("tables probe"))
        });
        Arc::clone(tables)
    }

    #[test]
    fn an_answer_given_while_re_rooting_keeps_the_tabled_result() {
        let rules = Rules::default();
        let tables = three_piece_tables(&rules);
        // Two kings against one, from the first start whose searched line reaches a tabled
        // root where the kept tree's favourite throws the result away (so that the test can
        // fail).
        let starts = (1..=32).flat_map(|a| (1..=32).map(move |c| (a, c)));
        let mut tried = 0;
        for (a, c) in starts.filter(|&(a, c)| a != c && a != 10 && c != 10) {
            let start = crate::board::fen::parse(&format!("W:WK{a},K10:BK{c}")).expect("fen");
            let mut game = Game::new(start, 0, rules);
            // A tree searched without tables.
            let Some(mut s) = searched_then_played(&mut game, 5_000) else {
                continue;
            };
            if game.result() != GameResult::Ongoing {
                continue;
            }
            let Some(root) = tables.root(game.position(), &rules, game.clock(), game.draws())
            else {
                continue;
            };
            let Some(index) = s.last.as_ref().and_then(|k| k.find(&game, &s.tree)) else {
                continue;
            };
            let favourite = report::Reader::new(&s.tree, true)
                .outcome(index, game.position(), &rules, &[], report::Rank::Visits)
                .best;
            if favourite.is_none_or(|m| root.moves.contains(&m)) {
                continue;
            }
            tried += 1;
            // The same tree, now with tables (`set_tables` would start afresh), and a `stop`
            // there before the search begins: answered while the tree is re-rooted.
            s.tables = Some(Arc::clone(&tables));
            let out = stopped_at_once(&mut s, &game);
            assert_eq!(out.nodes, 0);
            assert!(
                out.best.is_some_and(|m| root.moves.contains(&m)),
                "{}: {out:?}, keeping {:?}",
                crate::board::fen::write(game.position()),
                root.moves
            );
            if tried == 3 {
                break;
            }
        }
        assert_eq!(
            tried, 3,
            "too few positions where the tree's favourite throws away the result"
        );
    }

    #[test]
    fn a_drawn_tabled_root_chooses_by_the_search_not_by_proven_draws() {
        let rules = Rules::default();
        let tables = three_piece_tables(&rules);
        // A lone king against two men: drawn, and two of its moves keep the draw.
        for f in ["W:WK13:B1,15", "W:WK17:B1,15", "W:WK20:B2,15"] {
            let pos = crate::board::fen::parse(f).expect("fen");
            let game = Game::new(pos, 0, rules);
            let root = tables
                .root(&pos, &rules, 0, crate::board::DrawCount::default())
                .expect("tabled");
            assert_eq!(root.value, Value::Draw, "{f}");
            assert!(root.moves.len() >= 2, "{f}: {:?}", root.moves);
            let mut s = Searcher::new(&SearchConfig::default());
            s.set_tables(Some(Arc::clone(&tables)));
            let mut last = None;
            let out = s.search(
                &game,
                &Limits::nodes(5_000),
                &Control::default(),
                &mut |e| {
                    if let SearchEvent::Info(i) = e {
                        last = Some((i.score, i.wdl));
                    }
                },
            );
            // The report gives the table's draw ...
            assert_eq!(last, Some((Score::Cp(0), Some([0, 1000, 0]))), "{f}");
            // ... but the moves that keep it are searched, not proven draws, and the one
            // played is the one the search rates best among them.
            let allowed = report::allowed(&s.tree, 0, &root.moves);
            let mut kept = 0;
            for (k, c) in s.tree.root().children().enumerate() {
                if allowed[k] {
                    kept += 1;
                    let node = s.tree.node(c);
                    assert_ne!(node.proof(), Some(Proof::Draw), "{f}");
                    assert!(node.visits() > 0, "{f}");
                }
            }
            assert_eq!(kept, root.moves.len(), "{f}");
            let best = report::Reader::new(&s.tree, true).ranked_root(&allowed)[0];
            let best = report::resolve(&s.tree, best, &pos, &rules);
            assert_eq!(out.best, best, "{f}");
            assert!(out.best.is_some_and(|m| root.moves.contains(&m)), "{f}");
        }
    }
}
