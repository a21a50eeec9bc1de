//! What `buffgreen match` gives scripts (issue 23 item 2): games in round order in the PDN and
//! the `--json` records even when they finish out of order, the JSON Lines records themselves,
//! exit statuses for the SPRT, and `--verify-pdn` taking `1-0`/`0-1` results. The binary runs
//! the fake engine of tests/data/engines/fake.sh.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_buffgreen");
const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/engines/fake.sh");

fn engine(mode: &str, name: &str) -> String {
    format!("cmd='{FAKE} {mode}' name={name}")
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("match-output-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `buffgreen match` with the fake engines' settings plus `extra`; returns the exit status
/// and stdout.
fn run_match(a: &str, b: &str, extra: &[&str]) -> (i32, String) {
    let out = Command::new(BIN)
        .args(["match", "--engine", a, "--engine", b, "--quiet"])
        // The fake engine knows one game from the standard start: no opening deck.
        .args(["--random-plies", "0", "--nodes", "1"])
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A match between two well-behaved fake engines, A and B.
fn ok_match(extra: &[&str]) -> (i32, String) {
    run_match(&engine("ok", "A"), &engine("ok", "B"), extra)
}

fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn games_are_written_in_round_order_with_json_records() {
    let dir = scratch("order");
    let (pdn, json) = (dir.join("g.pdn"), dir.join("g.jsonl"));
    // Rounds 1 and 2 start together. A plays slowly and B illegally from its second move: the
    // game where B has Black (round 2) ends after one move of A, round 1 after two, so round
    // 2 finishes first.
    let (code, table) = run_match(
        &engine("slow=0.5", "A"),
        &engine("illegal 1", "B"),
        &[
            "--games",
            "4",
            "--concurrency",
            "2",
            "--pdn",
            pdn.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{table}");
    let text = std::fs::read_to_string(&pdn).unwrap();
    let rounds: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[Round \""))
        .collect();
    assert_eq!(rounds, ["1\"]", "2\"]", "3\"]", "4\"]"]);
    let recs = records(&json);
    assert_eq!(recs.len(), 5);
    let game_rounds: Vec<u64> = recs[..4]
        .iter()
        .map(|r| {
            assert_eq!(r["type"], "game");
            r["round"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(game_rounds, [1, 2, 3, 4]);
    let r1 = &recs[0];
    assert_eq!(r1["black"], "A");
    assert_eq!(r1["white"], "B");
    assert_eq!(r1["result"], "0-2");
    assert_eq!(r1["termination"], "illegal move");
    assert_eq!(r1["moves"], serde_json::json!(["9-13", "23-18", "12-16"]));
    assert_eq!(
        r1["fen"],
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    let s = &recs[4];
    assert_eq!(s["type"], "summary");
    assert_eq!(s["games"], 4);
    assert_eq!(s["sprt"], Value::Null);
    let p = &s["pairings"][0];
    assert_eq!(
        (p["first"].as_str(), p["wins"].as_u64()),
        (Some("A"), Some(4))
    );
    assert_eq!(p["pairs"], serde_json::json!([0, 0, 0, 0, 2]));
    // All won: the Elo is infinite, which JSON writes as null.
    assert_eq!(p["elo"], Value::Null);
}

/// Issue 58 item 10: `--json` gives the table's error bar (from game pairs), not one from
/// single games. Two copies of the fake engine win one game of each pair: every pair scores
/// one half, so the pairs' error bar is 0 where single games would give a wide one.
#[test]
fn json_gives_the_tables_error_bar() {
    let dir = scratch("error-bar");
    let json = dir.join("e.jsonl");
    let (code, table) = ok_match(&["--games", "4", "--json", json.to_str().unwrap()]);
    assert_eq!(code, 0, "{table}");
    let row = table
        .lines()
        .find(|l| l.trim_start().starts_with("1  A"))
        .unwrap_or_else(|| panic!("{table}"));
    assert_eq!(
        row.split_whitespace().collect::<Vec<_>>()[8..10],
        ["+0.0", "0.0"],
        "{table}"
    );
    let s = records(&json).pop().unwrap();
    assert_eq!(
        s["pairings"][0]["pairs"],
        serde_json::json!([0, 0, 2, 0, 0])
    );
    assert_eq!(s["pairings"][0]["elo_error95"], 0.0);
}

#[test]
fn sprt_exit_statuses_and_state_in_json() {
    let dir = scratch("sprt");
    let json = dir.join("s.jsonl");
    let sprt = ["--sprt", "elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"];
    let mut args = vec!["--games", "200", "--json", json.to_str().unwrap()];
    args.extend(sprt);
    // H1 accepted: 0.
    let (code, table) = run_match(&engine("ok", "good"), &engine("illegal", "bad"), &args);
    assert_eq!(code, 0, "{table}");
    let s = records(&json).pop().unwrap();
    assert_eq!(s["type"], "summary");
    assert_eq!(s["games"], 24);
    assert_eq!(s["sprt"]["decision"], "H1");
    assert_eq!(s["sprt"]["model"], "pentanomial");
    assert!(s["sprt"]["llr"].as_f64().unwrap() >= s["sprt"]["upper"].as_f64().unwrap());
    // H0 accepted: 3 (the bad engine first).
    let (code, table) = run_match(&engine("illegal", "bad"), &engine("ok", "good"), &args);
    assert_eq!(code, 3, "{table}");
    assert!(table.contains(" H0 accepted\n"), "{table}");
    // The games run out first: 4.
    let mut few = vec!["--games", "4"];
    few.extend(sprt);
    let (code, table) = run_match(&engine("ok", "good"), &engine("illegal", "bad"), &few);
    assert_eq!(code, 4, "{table}");
    assert!(table.contains(" no decision\n"), "{table}");
    // Without --sprt a finished match is 0 whatever its result.
    let (code, _) = run_match(
        &engine("illegal", "bad"),
        &engine("ok", "good"),
        &["--games", "2"],
    );
    assert_eq!(code, 0);
}

#[test]
fn verify_pdn_takes_chess_style_results() {
    let dir = scratch("verify");
    let pdn = dir.join("g.pdn");
    let (code, _) = ok_match(&["--games", "2", "--pdn", pdn.to_str().unwrap()]);
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&pdn).unwrap();
    // The fixed game ends with Black (the side on 1-12) out of moves: 2-0, or 1-0 in chess
    // style.
    assert_eq!(text.matches(" 2-0\n").count(), 2, "{text}");
    let out = verify_with_result(&pdn, "2-0", "1-0");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{}: 2 games, 72 plies, all legal\n", pdn.display())
    );
    assert_eq!(out.status.code(), Some(0));
    // A 0-1 on a game White won is still caught.
    let out = verify_with_result(&pdn, "1-0", "0-1");
    assert_eq!(out.status.code(), Some(1));
    // One error for each bad game, with its place (the Result tag's line).
    let p = pdn.display();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "error: {p}:6:1: PDN game 1: Result 0-2 but the final position gives 2-0\n\
             error: {p}:27:1: PDN game 2: Result 0-2 but the final position gives 2-0\n"
        )
    );
}

#[test]
fn an_engine_path_with_spaces_runs_when_quoted() {
    let dir = scratch("spaces").join("my engines");
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join("fake engine.sh");
    std::fs::copy(FAKE, &program).unwrap();
    let spec = format!("cmd=\"'{}' ok\" name=S", program.display());
    let (code, table) = run_match(&spec, &engine("ok", "B"), &["--games", "2"]);
    assert_eq!(code, 0, "{table}");
    assert!(table.contains("Terminations: normal 2\n"), "{table}");
}

/// Rewrites every result `from` of the PDN file (tag and movetext) as `to`, then runs
/// `--verify-pdn` on it.
fn verify_with_result(pdn: &Path, from: &str, to: &str) -> std::process::Output {
    let text = std::fs::read_to_string(pdn).unwrap();
    let text = text
        .replace(&format!("\"{from}\""), &format!("\"{to}\""))
        .replace(&format!(" {from}\n"), &format!(" {to}\n"));
    std::fs::write(pdn, text).unwrap();
    Command::new(BIN)
        .args(["match", "--verify-pdn", pdn.to_str().unwrap()])
        .output()
        .unwrap()
}
