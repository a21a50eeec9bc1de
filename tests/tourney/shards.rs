//! `--shard K/N` and `--merge`: a run split into shards and merged gives the same games and
//! the same table (and SPRT) as the unsplit run, with the real engine at a node limit.

use buffgreen_testkit::assert_starts;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use buffgreen_tourney::pdn;

use crate::match_support;
use match_support::{assert_refused, match_of, run};

fn temp(name: &str) -> PathBuf {
    match_support::temp("shards", name)
}

/// A match of `names` (copies of the engine) at 20 nodes, 12 games per pairing, seed 9.
fn match_args(names: &[&str], extra: &[&str]) -> Vec<String> {
    let mut v = match_of(names, "--nodes 20 --games 12 --seed 9 --quiet");
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

/// Each game by round: colours, moves, result and termination.
type Games = BTreeMap<String, (String, String, Vec<String>, String, String)>;

fn games(paths: &[&Path]) -> Games {
    let mut out = Games::new();
    for p in paths {
        for g in pdn::parse(&std::fs::read_to_string(p).unwrap()).unwrap() {
            let t = |n: &str| g.tag(n).unwrap().to_string();
            let key = t("Round");
            let value = (
                t("Black"),
                t("White"),
                g.moves.clone(),
                t("Result"),
                t("Termination"),
            );
            assert!(out.insert(key, value).is_none(), "a round twice");
        }
    }
    out
}

fn body(table: &str) -> String {
    table.lines().skip(1).collect::<Vec<_>>().join("\n")
}

/// Plays the run whole and in `n` shards; checks games and tables; returns the shard PDNs.
fn split_and_merge(dir: &Path, names: &[&str], n: usize, sprt: &[&str]) -> Vec<PathBuf> {
    let whole = dir.join("whole.pdn");
    let mut extra = vec!["--pdn", whole.to_str().unwrap()];
    extra.extend(sprt);
    // Under an SPRT that these few games cannot decide, the exit status says so (4).
    let undecided = if sprt.is_empty() { 0 } else { 4 };
    let (code, full, err) = run(&match_args(names, &extra));
    assert_eq!(code, undecided, "{err}");
    let mut shards = Vec::new();
    let mut played = 0;
    for k in 1..=n {
        let path = dir.join(format!("shard-{k}.pdn"));
        let spec = format!("{k}/{n}");
        let (code, out, err) = run(&match_args(
            names,
            &["--shard", &spec, "--pdn", path.to_str().unwrap()],
        ));
        assert_eq!(code, 0, "{err}");
        let count = games(&[&path]).len();
        assert_starts(&out, &format!("Games: {count} of {count} in "));
        played += count;
        shards.push(path);
    }
    let whole_games = games(&[&whole]);
    assert_eq!(played, whole_games.len());
    let refs: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    assert_eq!(games(&refs), whole_games);
    let mut merge = vec!["match".to_string(), "--merge".into()];
    merge.extend(shards.iter().map(|p| p.display().to_string()));
    merge.extend(sprt.iter().map(|s| s.to_string()));
    let (code, merged, err) = run(&merge);
    assert_eq!(code, undecided, "{err}");
    assert_eq!(body(&merged), body(&full));
    // `Games: 12 of 12 in 0.9 s (13.1 games/s), 840 engine plies; ...` unsplit, and
    // `Games: 12 of 12 merged from 3 files, 840 engine plies; ...` merged.
    let (head, tail) = full.lines().next().unwrap().split_once(" in ").unwrap();
    let tail = tail.split_once(" games/s), ").unwrap().1;
    assert_eq!(
        merged.lines().next().unwrap(),
        format!("{head} merged from {n} files, {tail}")
    );
    shards
}

#[test]
fn three_shards_merge_to_the_unsplit_run_with_its_sprt() {
    let dir = temp("two");
    let sprt = ["--sprt", "elo0=0", "elo1=0.01"];
    let shards = split_and_merge(&dir, &["a", "b"], 3, &sprt);
    // Shard 2 of 3 holds game pairs 2 and 5 (rounds 3-4 and 9-10).
    let rounds: Vec<String> = games(&[&shards[1]]).into_keys().collect();
    assert_eq!(rounds, ["10", "3", "4", "9"]);
    // The same file twice is refused: the rounds overlap.
    let p = shards[0].display().to_string();
    assert_refused(
        &["match".into(), "--merge".into(), p.clone(), p.clone()],
        &format!("error: round 1 is both in {p} and in {p} (game 1): the files overlap\n"),
    );
}

#[test]
fn a_round_robin_of_three_splits_and_merges() {
    let dir = temp("three");
    split_and_merge(&dir, &["a", "b", "c"], 2, &[]);
}

#[test]
fn shard_arguments_are_checked() {
    for (extra, msg) in [
        (
            vec!["--shard", "4/3"],
            "error: bad --shard '4/3': expected K/N with 1 <= K <= N, like 2/3\n",
        ),
        (
            vec!["--shard", "1/3", "--sprt", "elo0=0", "elo1=5"],
            "error: --sprt judges the whole run: give it to --merge, not to a --shard\n",
        ),
    ] {
        assert_refused(&match_args(&["a", "b"], &extra), msg);
    }
}

#[test]
fn merge_of_unrelated_games_is_refused() {
    let game = |round: usize, black: &str, white: &str| {
        format!(
            "[Event \"e\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
             [Result \"1-1\"]\n[Termination \"adjudication: draw after 0 plies\"]\n\n1-1\n\n"
        )
    };
    // Round 1 has a as Black against b; round 3 (the next pair) must again have a as Black.
    let dir = temp("unrelated");
    let path = dir.join("x.pdn");
    std::fs::write(&path, game(1, "a", "b") + &game(3, "b", "a")).unwrap();
    assert_refused(
        &["match".into(), "--merge".into(), path.display().to_string()],
        "error: round 3 (b against a) does not fit the schedule of the other games (its \
         pairing is a against b): the files are not from one run\n",
    );
}
