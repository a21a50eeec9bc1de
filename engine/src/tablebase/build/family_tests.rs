//! Russian, Brazilian and Pool tables against an independent solver: every state (position,
//! material count, 7.2.7 diagonal count) of a few small slices valued by backward induction
//! over the counts, moving by [`DrawCount::after`] and drawing by [`DrawCount::limit_reached`]
//! (the game's own rules and counts, Pool's in the three kings' moves, not the tables' floors,
//! restarts and plies), compared with the table entries read at every count as the search
//! reads them ([`counting::table_count`]).

use std::collections::HashMap;
use std::path::PathBuf;

use super::*;
use crate::board::{generate_moves, DrawCount, MoveList, Variant};
use crate::tablebase::build::plan::Schedule;
use crate::tablebase::work::in_parallel;

/// Counts the solver goes up to: past every limit of the slices solved (30 plies).
const COUNTS: usize = 32;
/// Diagonal counts: 0 to 10, the last standing for every count beyond.
const DIAGONALS: usize = DIAGONAL_LAYERS as usize + 1;

/// A game value, for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Game {
    Win,
    Loss,
    Draw,
}

impl Game {
    fn of(value: Value) -> Game {
        match value {
            Value::Win(_) => Game::Win,
            Value::Loss(_) => Game::Loss,
            Value::Draw => Game::Draw,
        }
    }
}

/// A move of a solved slice: the successor, and per diagonal count whether the count
/// restarts, how much it grows when it does not (Pool's count stands still on the lone
/// king's moves), and the diagonal count after it.
struct Edge {
    to: (usize, usize),
    restart: [bool; DIAGONALS],
    grows: [u8; DIAGONALS],
    diagonal: [u8; DIAGONALS],
}

/// The independent solver over the positions of `materials` (in dependency order, every
/// successor in one of them or without a move).
struct Brute {
    rules: Rules,
    /// Per material: its positions (Black to move, as the index makes them).
    positions: Vec<Vec<Position>>,
    ids: HashMap<(u32, u32, u32, u32), (usize, usize)>,
    /// Per material, per count, per diagonal count, per position: the value (one count and
    /// diagonal count together, so that a level reads one small array).
    values: Vec<Vec<Game>>,
    /// Diagonal counts solved: Russian's eleven, one under Pool's rules (no such counter).
    diagonals: usize,
}

fn key(pos: &Position) -> (u32, u32, u32, u32) {
    let m = Masks::of(pos);
    (m.bmen, m.bkings, m.wmen, m.wkings)
}

impl Brute {
    fn new(rules: Rules, materials: &[Material]) -> Brute {
        let mut brute = Brute {
            rules,
            positions: Vec::new(),
            ids: HashMap::new(),
            values: Vec::new(),
            diagonals: if rules.draws == crate::board::DrawRules::Russian {
                DIAGONALS
            } else {
                1
            },
        };
        for (k, &m) in materials.iter().enumerate() {
            let mut list = Vec::new();
            for half in m.halves() {
                let index = SliceIndex::new(half);
                for i in 0..index.size() {
                    if let Some(pos) = index.board(i).position() {
                        brute.ids.insert(key(&pos), (k, list.len()));
                        list.push(pos);
                    }
                }
            }
            brute.positions.push(list);
        }
        for k in 0..materials.len() {
            brute.solve(k);
        }
        brute
    }

    fn edges(&self, pos: &Position) -> Vec<Edge> {
        let mut list = MoveList::new();
        generate_moves(pos, &self.rules, &mut list);
        let mut out = Vec::new();
        for &mv in list.iter() {
            let mut next = *pos;
            next.play_unchecked(mv);
            let Some(&to) = self.ids.get(&key(&next)) else {
                let mut moves = MoveList::new();
                generate_moves(&next, &self.rules, &mut moves);
                assert!(moves.is_empty(), "a successor outside the slices solved");
                out.push(Edge {
                    to: (usize::MAX, 0),
                    restart: [true; DIAGONALS],
                    grows: [0; DIAGONALS],
                    diagonal: [0; DIAGONALS],
                });
                continue;
            };
            let mut edge = Edge {
                to,
                restart: [false; DIAGONALS],
                grows: [0; DIAGONALS],
                diagonal: [0; DIAGONALS],
            };
            for d in 0..self.diagonals {
                let after = DrawCount::counted(5, d as u8).after(pos, mv, &next, &self.rules);
                let pool = self.rules.draws == crate::board::DrawRules::Pool;
                assert!([0, 6].contains(&after.count()) || pool && after.count() == 5);
                edge.restart[d] = after.count() == 0;
                edge.grows[d] = after.count().saturating_sub(5) as u8;
                edge.diagonal[d] = after.diagonal().min(DIAGONALS as u32 - 1) as u8;
            }
            out.push(edge);
        }
        out
    }

    /// The value of position `at` (material, number) at count `c` and diagonal count `d`.
    #[inline]
    fn value(&self, at: (usize, usize), c: usize, d: u8) -> Game {
        let n = self.positions[at.0].len();
        self.values[at.0][(c * DIAGONALS + usize::from(d)) * n + at.1]
    }

    /// Values material `k` at every count, the highest first: a move inside a slice never
    /// restarts the count, so it reads the count above, or under Pool's rules a lone king's
    /// move the same count; a move out reads a slice solved.
    fn solve(&mut self, k: usize) {
        let n = self.positions[k].len();
        self.values.push(vec![Game::Draw; COUNTS * DIAGONALS * n]);
        let edges: Vec<Vec<Edge>> = self.positions[k].iter().map(|p| self.edges(p)).collect();
        let inside_restarts = edges.iter().flatten().any(|e| e.to.0 == k && e.restart[0]);
        if inside_restarts {
            self.solve_without_rule(k, &edges);
            return;
        }
        // A move that keeps the count leads to a position whose moves inside all raise it,
        // so a count's values read their own count one move deep: a second pass over a
        // count, reading the first, is final.
        let stays = |e: &Edge| e.to.0 == k && (0..self.diagonals).any(|d| e.grows[d] == 0);
        let lingers: Vec<bool> = edges.iter().map(|es| es.iter().any(stays)).collect();
        for e in edges.iter().flatten().filter(|e| stays(e)) {
            assert!(!lingers[e.to.1], "two moves in a row that keep the count");
        }
        let passes = if lingers.iter().any(|&l| l) { 2 } else { 1 };
        for c in (0..COUNTS).rev() {
            for d in 0..self.diagonals {
                for _ in 0..passes {
                    let mut layer = vec![Game::Draw; n];
                    in_parallel(&mut layer, 2, |start, part| {
                        for (j, out) in part.iter_mut().enumerate() {
                            *out = self.step(k, start + j, &edges[start + j], c, d);
                        }
                    });
                    let at = (c * DIAGONALS + d) * n;
                    self.values[k][at..at + n].copy_from_slice(&layer);
                }
            }
        }
    }

    /// The value of position `i` of material `k` at count `c` and diagonal count `d`, from
    /// its moves `edges`.
    fn step(&self, k: usize, i: usize, edges: &[Edge], c: usize, d: usize) -> Game {
        let pos = self.positions[k][i];
        if edges.is_empty() {
            return Game::Loss;
        }
        if DrawCount::counted(c as u16, d as u8).limit_reached(&pos, &self.rules) {
            return Game::Draw;
        }
        let mut all_win = true;
        for e in edges {
            let v = if e.to.0 == usize::MAX {
                Game::Loss
            } else {
                let c2 = if e.restart[d] {
                    0
                } else {
                    c + usize::from(e.grows[d])
                };
                assert!(e.to.0 < k || !e.restart[d], "a restart inside a slice");
                if c2 >= COUNTS {
                    Game::Draw
                } else {
                    self.value(e.to, c2, e.diagonal[d])
                }
            };
            if v == Game::Loss {
                return Game::Win;
            }
            all_win &= v == Game::Win;
        }
        if all_win {
            Game::Loss
        } else {
            Game::Draw
        }
    }

    /// Values material `k`, a slice without a material rule: every move inside restarts the
    /// count, which is 0 wherever a game stands in it; valued at count 0 by iterating to
    /// the fixpoint (a win forced in finitely many plies, as the tables count).
    fn solve_without_rule(&mut self, k: usize, edges: &[Vec<Edge>]) {
        let n = self.positions[k].len();
        let mut value = vec![None::<Game>; n];
        loop {
            let mut changed = false;
            for i in 0..n {
                if value[i].is_some() {
                    continue;
                }
                let mut all_win = true;
                let mut wins = false;
                for e in &edges[i] {
                    let v = if e.to.0 == usize::MAX {
                        Some(Game::Loss)
                    } else if e.to.0 == k {
                        assert!(e.restart[0]);
                        value[e.to.1]
                    } else {
                        let c2 = if e.restart[0] { 0 } else { 1 };
                        Some(self.value(e.to, c2, e.diagonal[0]))
                    };
                    wins |= v == Some(Game::Loss);
                    all_win &= v == Some(Game::Win);
                }
                if wins || all_win {
                    value[i] = Some(if wins { Game::Win } else { Game::Loss });
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for (i, v) in value.into_iter().enumerate() {
            for layer in 0..COUNTS * DIAGONALS {
                self.values[k][layer * n + i] = v.unwrap_or(Game::Draw);
            }
        }
    }

    /// Compares the entries of material `k` (`entries(position)`, read at diagonal count
    /// `diagonal(position)`) with the solver at every count; returns the tally of wins,
    /// losses and draws at count 0.
    fn compare(&self, k: usize, entry: impl Fn(&Position) -> (u8, u8)) -> [u64; 3] {
        let mut tally = [0u64; 3];
        for (i, pos) in self.positions[k].iter().enumerate() {
            let (code, d) = entry(pos);
            let stored = Value::from_code(code, false);
            // A position without a material rule is only ever at count 0.
            let counts = if counting::floor(pos, &self.rules, d) == 0 {
                1
            } else {
                COUNTS
            };
            for c in 0..counts {
                let draws = DrawCount::counted(c as u16, d);
                let at = counting::table_count(&self.rules, 0, draws);
                let table = Game::of(stored.at_clock(at, MAX_DISTANCE));
                let brute = self.value((k, i), c, d);
                assert_eq!(
                    table,
                    brute,
                    "{} at count {c}, diagonal count {d}: table {stored}",
                    crate::board::fen::write(pos)
                );
            }
            tally[match self.value((k, i), 0, d) {
                Game::Win => 0,
                Game::Loss => 1,
                Game::Draw => 2,
            }] += 1;
        }
        tally
    }
}

fn material(text: &str) -> Material {
    let b: Vec<u8> = text.bytes().map(|c| c - b'0').collect();
    Material {
        bm: b[0],
        bk: b[1],
        wm: b[2],
        wk: b[3],
    }
}

fn options(variant: Variant, dir: &str, pieces: u32) -> BuildOptions {
    let dir: PathBuf = std::env::temp_dir().join(format!("bg-tb-{dir}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    BuildOptions {
        dir,
        pieces,
        rules: Rules {
            draw_half_moves: 0,
            ..variant.rules()
        },
        threads: 2,
        compress: false,
        share: None,
        memory: DEFAULT_MEMORY,
        save_every: DEFAULT_SAVE_EVERY,
    }
}

/// Builds up to 3 pieces and checks the slices of 2 and 3 pieces with a king on each side
/// (7.2.8, Short: a count of 10 plies that runs on through a crowning and the capture down
/// to two kings) against the solver; the tallies are at count 0.
fn small_slices_match(variant: Variant) -> Vec<(Material, [u64; 3])> {
    let opts = options(variant, variant.key(), 3);
    build(&opts, &mut |_| {}).expect("built");
    let report =
        crate::tablebase::probe::verify::verify(&opts.dir, 2, None, &mut |_| {}).expect("verified");
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!(report.rules, opts.rules);
    // Dependency order; K+M against K crowns into K+K against K.
    let slices: Vec<Material> = ["0101", "0110", "0102", "0111"]
        .iter()
        .map(|t| material(t))
        .collect();
    let tallies = compare_built(&opts, &slices);
    std::fs::remove_dir_all(&opts.dir).expect("removed");
    slices.into_iter().zip(tallies).collect()
}

/// Reads the built `slices` (in dependency order) of `opts.dir` and compares each, entry by
/// entry at count 0 of the file, with the solver ([`Brute::compare`]); returns their tallies.
fn compare_built(opts: &BuildOptions, slices: &[Material]) -> Vec<[u64; 3]> {
    let brute = Brute::new(opts.rules, slices);
    let mut tallies = Vec::new();
    for (k, &m) in slices.iter().enumerate() {
        let data = format::read(&opts.dir, m.canonical(), &opts.rules)
            .expect("read")
            .data;
        let index: Vec<SliceIndex> = m
            .canonical()
            .halves()
            .into_iter()
            .map(SliceIndex::new)
            .collect();
        tallies.push(brute.compare(k, |pos| {
            let masks = Masks::of(pos);
            let h = usize::from(Material::of(&masks) != index[0].material());
            let g = h * index[0].size() as usize + index[h].index(&masks) as usize;
            (data[g], 0)
        }));
    }
    tallies
}

#[test]
fn russian_short_slices_match_the_solver() {
    let got = small_slices_match(Variant::Russian);
    let tallies: Vec<[u64; 3]> = got.iter().map(|g| g.1).collect();
    assert_eq!(tallies.len(), 4);
    println!("{got:?}");
}

#[test]
fn brazilian_short_slices_match_the_solver() {
    let got = small_slices_match(Variant::Brazilian);
    println!("{got:?}");
}

/// Three kings against a lone king, Russian 7.2.7 and 7.2.4: every layer of the diagonal
/// count matches the solver, and so does the file's entry of each position. The solver
/// values 100 million states: tens of seconds even in release, so run with `--ignored`.
#[test]
#[ignore = "tens of seconds in release: run with --ignored"]
fn russian_lone_king_against_three_kings_matches_the_solver_at_every_diagonal_count() {
    let opts = options(Variant::Russian, "727", 3);
    build(&opts, &mut |_| {}).expect("built");
    let kkk = material("0103");
    let slices: Vec<Material> = ["0101", "0102", "0103"]
        .iter()
        .map(|t| material(t))
        .collect();
    let brute = Brute::new(opts.rules, &slices);
    let mut store = Store::new(&opts.dir, &opts.rules, 2, 4);
    store
        .require(
            &Schedule::of_build(&[kkk]),
            0,
            DEFAULT_MEMORY,
            kkk,
            &mut |_| {},
        )
        .expect("read");
    let mut layers = Layers::default();
    let stored = solve_layers(kkk, &opts, &store, &mut layers, &mut |_| {}).expect("solved");
    let index: Vec<SliceIndex> = kkk.halves().into_iter().map(SliceIndex::new).collect();
    let at = |pos: &Position| {
        let masks = Masks::of(pos);
        let h = usize::from(Material::of(&masks) != index[0].material());
        h * index[0].size() as usize + index[h].index(&masks) as usize
    };
    for d in 0..=DIAGONAL_LAYERS {
        let layer = layers.layer(kkk, d).expect("layer");
        let tally = brute.compare(2, |pos| (layer[at(pos)], d));
        println!("diagonal {d}: {tally:?}");
    }
    let tally = brute.compare(2, |pos| {
        (stored[at(pos)], counting::stored_diagonal(pos, &opts.rules))
    });
    println!("stored: {tally:?}");
    std::fs::remove_dir_all(&opts.dir).expect("removed");
}

/// Pool: a lone king against a king, a man, two kings, a king and a man (no rule: every count
/// is 0 there) and three kings (the 13 moves): the builder's slices up to three pieces and
/// its slice of three kings against one, solved as a build solves it, pass `tb verify` and
/// match the solver at every count of the three kings' moves. The tallies are at count 0.
#[test]
fn pool_short_slices_and_three_kings_against_one_match_the_solver() {
    let opts = options(Variant::Pool, "pool", 3);
    build(&opts, &mut |_| {}).expect("built");
    let kkk = material("0103").canonical();
    let mut store = Store::new(&opts.dir, &opts.rules, 2, 4);
    store
        .require(
            &Schedule::of_build(&[kkk]),
            0,
            DEFAULT_MEMORY,
            kkk,
            &mut |_| {},
        )
        .expect("read");
    let work = Work::new(kkk, true);
    let data = solve_slice(
        kkk,
        work,
        None,
        Instant::now(),
        &opts,
        &store,
        None,
        &mut |_| {},
    )
    .expect("solved");
    format::write(&opts.dir, kkk, &opts.rules, &data).expect("written");
    let report =
        crate::tablebase::probe::verify::verify(&opts.dir, 2, None, &mut |_| {}).expect("verified");
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!(report.rules, opts.rules);
    // Dependency order: the lone king takes kings of the three (one, two or all three).
    let slices: Vec<Material> = ["0101", "0110", "0102", "0111", "0103"]
        .iter()
        .map(|t| material(t))
        .collect();
    let tallies = compare_built(&opts, &slices);
    // Wins, losses and draws at count 0, side to move. Kings alone move as under Russian
    // rules, and these counts are Russian's too: the wins there come within both rules'
    // counts from 0 (the counts above 0 are where the rules differ, checked above).
    assert_eq!(
        tallies,
        [
            [194, 2, 796],
            [813, 539, 384],
            [6_382, 274, 23_104],
            [11_299, 255, 40_526],
            [134_094, 56_518, 97_068],
        ]
    );
    std::fs::remove_dir_all(&opts.dir).expect("removed");
}
