//! Issue 59, items 1 to 4 in a real browser: nothing from a PDN file reaches the engine
//! unchecked, the game never stalls on the engine's turn, a hung or never-starting engine is
//! reported with a restart, a reload keeps the game, and the diagnostics show the protocol.

use std::process::Command;

use serde_json::{json, Value};

use crate::browser::{board, open, start, strings, Browser, BG};

/// Pastes `text` into the PDN box and imports it; waits for the answer.
async fn import(b: &Browser, text: &str) {
    let before = b.js("window.buffgreen.received").await.as_u64().unwrap();
    b.js(&format!(
        "(() => {{ document.querySelector('#record-box').open = true; document.getElementById('pdn').value = {}; return true; }})()",
        json!(text)
    ))
    .await;
    b.click("#btn-import").await;
    b.until(&format!("window.buffgreen.received > {before}"))
        .await;
}

/// The diagnostics as the panel last received them, after asking for fresh ones.
async fn diagnostics(b: &Browser) -> Value {
    b.run("window.buffgreen.diagnostics = null; document.getElementById('diag-box').open = true; window.buffgreen.send({type: 'diagnostics'})").await;
    b.until("window.buffgreen.diagnostics != null").await;
    b.js("window.buffgreen.diagnostics").await
}

/// The lines the page sent its engine, oldest first.
async fn sent(b: &Browser) -> Vec<String> {
    diagnostics(b).await["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["dir"] == "out")
        .map(|l| l["text"].as_str().unwrap().to_string())
        .collect()
}

/// A page on which the engine plays White at `level` and Black (the human) is to move.
async fn against_white(level: (&str, u64)) -> Option<Browser> {
    let b = start(None).await?;
    b.new_game(BG, "white", level, 80).await;
    b.at_ply(0).await;
    Some(b)
}

/// A page on which the engine, playing White at a long `movetime`, thinks on its reply.
async fn engine_thinking() -> Option<Browser> {
    let b = against_white(("movetime", 600000)).await?;
    b.click_move("11-15").await;
    b.until("window.buffgreen.state.thinking").await;
    Some(b)
}

fn signal(pid: i32, sig: &str) {
    assert!(Command::new("kill")
        .args([sig, &pid.to_string()])
        .status()
        .unwrap()
        .success());
}

#[tokio::test(flavor = "current_thread")]
async fn hostile_pdn_files_change_nothing_in_the_engine() {
    let Some(b) = board(BG).await else { return };
    b.play("11-15", 1).await;
    let fen = b.fen().await;
    let pid = b.engine_pids();
    // A tag value broken over lines is refused by the PDN reader itself (a tag is one line),
    // before any FEN check; the others by the checks of what reaches the engine.
    for (text, why) in [
        (
            "[FEN \"B:W21:B1\nsetoption name Hash value 512\nsetoption name Threads value 8\nquit\"]\n1. 1-5 *",
            "tag value not closed on its line",
        ),
        (
            "[FEN \"B:W21:B1\r\nsetoption name Notation value algebraic\"]\n*",
            "tag value not closed on its line",
        ),
        (
            "[FEN \"B:W21:B1\nsetoption name BookFile value /etc/passwd\nsetoption name OwnBook value true\"]\n*",
            "tag value not closed on its line",
        ),
        ("[FEN \"B:W21:B1 moves 1-5\"]\n*", "not a FEN"),
        ("[FEN \"B:W21:B1\u{2028}quit\"]\n*", "not a FEN"),
        ("1. 11-15 quit 2. 22-18 *", "not a move: 'quit'"),
        (
            "[Rules \"BackwardCapture=true LongKings=true DrawHalfMoves=4000000000\"]\n*",
            "DrawHalfMoves 4000000000 is above 1000",
        ),
    ] {
        import(&b, text).await;
        let msg = b.text("#message").await;
        assert!(
            msg.starts_with("PDN import: ") && msg.contains(why),
            "{text:?}: {msg}"
        );
        assert_eq!(b.fen().await, fen, "{text:?}");
        assert_eq!(b.state("moves").await, json!(["11-15"]));
    }
    // The same through the file picker.
    let file = std::env::temp_dir().join(format!("bg-hostile-{}.pdn", std::process::id()));
    std::fs::write(
        &file,
        "[FEN \"B:W21:B1\nsetoption name Hash value 512\nquit\"]\n*\n",
    )
    .unwrap();
    let before = b.js("window.buffgreen.received").await.as_u64().unwrap();
    b.element("#pdn-file")
        .await
        .send_keys(&file.display().to_string())
        .await
        .unwrap();
    b.until(&format!("window.buffgreen.received > {before}"))
        .await;
    let _ = std::fs::remove_file(&file);
    assert!(b
        .text("#message")
        .await
        .contains("tag value not closed on its line"));
    // The engine is the same process, never saw a line of those files, and still plays.
    assert_eq!(b.engine_pids(), pid);
    let lines = sent(&b).await;
    for l in &lines {
        for word in [
            "Hash",
            "Threads",
            "Notation value algebraic",
            "BookFile",
            "OwnBook",
        ] {
            assert!(!l.contains(word), "{l:?} reached the engine");
        }
        assert_ne!(l, "quit");
        assert!(
            !l.contains("go perft"),
            "the legal moves come from d: {l:?}"
        );
    }
    b.play("22-18", 2).await;
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn engine_move_on_the_humans_turn_then_the_engine_goes_on() {
    let Some(b) = against_white(("nodes", 100)).await else {
        return;
    };
    b.click("#btn-go").await;
    // The engine played Black's move for the human, then its own White move.
    b.at_ply(2).await;
    assert_eq!(b.state("turn").await, json!("black"));
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn stop_after_a_move_during_analysis_lets_the_engine_move() {
    let Some(b) = against_white(("nodes", 100)).await else {
        return;
    };
    b.click("#btn-analyse").await;
    b.until("window.buffgreen.state.analysing").await;
    b.click_move("11-15").await;
    b.until("window.buffgreen.state.ply === 1 && window.buffgreen.state.analysing")
        .await;
    b.click("#btn-stop").await;
    b.at_ply(2).await;
    assert_eq!(b.state("analysing").await, json!(false));
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn back_at_the_engines_ply_the_page_says_so_and_engine_move_plays_on() {
    let Some(b) = against_white(("nodes", 100)).await else {
        return;
    };
    b.play("11-15", 2).await;
    b.click("#moves [data-ply=\"1\"]").await;
    b.at_ply(1).await;
    assert_eq!(
        b.js("document.getElementById('status').dataset.waiting")
            .await,
        json!("true")
    );
    assert!(b.text("#status").await.contains("\"Engine move\" plays on"));
    b.click("#btn-go").await;
    b.until("window.buffgreen.state.ply === 2 && window.buffgreen.state.moves.length === 2 && !window.buffgreen.state.thinking").await;
    assert_eq!(b.state("moves[0]").await, json!("11-15"));
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn restart_after_the_engine_was_killed_on_its_turn_resumes_its_move() {
    let Some(b) = engine_thinking().await else {
        return;
    };
    signal(b.engine_pids()[0], "-9");
    b.until("!document.getElementById('dead').hidden").await;
    b.click("#btn-restart").await;
    // The new engine thinks on the move the dead one owed; "Stop" makes it move now.
    b.until("window.buffgreen.state.thinking && window.buffgreen.state.dead === null")
        .await;
    b.click("#btn-stop").await;
    b.at_ply(2).await;
    assert_eq!(b.engine_pids().len(), 1);
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_stopped_engine_is_found_hung_killed_and_restarted() {
    let Some(b) = engine_thinking().await else {
        return;
    };
    let pid = b.engine_pids()[0];
    signal(pid, "-STOP");
    // Its `isready` goes unanswered: the page says so and offers a restart.
    b.until("!document.getElementById('dead').hidden").await;
    let dead = b.text("#dead-text").await;
    assert!(dead.contains("did not answer `isready`"), "{dead}");
    assert!(
        !std::path::Path::new(&format!("/proc/{pid}")).exists(),
        "the hung engine was ended"
    );
    b.click("#btn-restart").await;
    b.until("window.buffgreen.state.thinking && window.buffgreen.state.dead === null")
        .await;
    b.click("#btn-stop").await;
    b.at_ply(2).await;
    // Stopped while idle: the next request finds it hung.
    let pid = b.engine_pids()[0];
    signal(pid, "-STOP");
    b.click("#btn-undo").await;
    b.until("!document.getElementById('dead').hidden").await;
    assert!(b.text("#dead-text").await.contains("no answer"));
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn an_engine_that_never_starts_is_reported_within_seconds() {
    let Some(b) = open(Some("cmd=sleep arg=1000 name=sleeper")).await else {
        return;
    };
    // The board is shown at once, and what is going on.
    b.until("window.buffgreen && window.buffgreen.state != null")
        .await;
    b.until("document.querySelectorAll('.piece').length === 24")
        .await;
    b.until("!document.getElementById('dead').hidden").await;
    let dead = b.text("#dead-text").await;
    assert!(dead.contains("did not answer `uci` within 10 s"), "{dead}");
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_reload_keeps_the_game_and_closing_warns() {
    let Some(b) = start(None).await else { return };
    b.new_game("english", "white", ("nodes", 100), 80).await;
    b.play("11-15", 2).await;
    let moves = strings(&b.state("moves").await);
    let warned = "(() => { const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e); return e.defaultPrevented; })()";
    assert_eq!(b.js(warned).await, json!(true));
    b.c.goto(&b.url).await.unwrap();
    b.until(&format!(
        "window.buffgreen.state && window.buffgreen.state.moves.join(' ') === '{}' && window.buffgreen.state.ply === 2",
        moves.join(" ")
    ))
    .await;
    assert_eq!(b.state("rules.longKings").await, json!(false));
    assert_eq!(b.state("sides.white").await, json!(true));
    // The engine still plays White after the reload.
    b.play_first_legal().await;
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn the_diagnostics_show_the_protocol_the_engine_and_the_errors() {
    let Some(b) = board(BG).await else { return };
    b.run("window.buffgreen.send({type: 'move', move: '9-99'})")
        .await;
    b.until("document.getElementById('message').textContent.startsWith('illegal')")
        .await;
    let d = diagnostics(&b).await;
    assert_eq!(d["engine"], json!("buffgreen"));
    assert!(d["id"].as_str().unwrap().starts_with("buffgreen"));
    assert!(d["announced"].as_array().unwrap().iter().any(|o| o
        .as_str()
        .unwrap()
        .starts_with("option name Hash type spin")));
    let errors = d["errors"].as_array().unwrap();
    assert!(errors[errors.len() - 1]["text"]
        .as_str()
        .unwrap()
        .starts_with("illegal move '9-99'"));
    assert!(errors[0]["t"].as_u64().unwrap() > 0);
    let lines = d["lines"].as_array().unwrap();
    assert!(lines.len() <= 400);
    assert!(lines
        .iter()
        .any(|l| l["dir"] == "in" && l["text"] == "readyok"));
    assert!(lines.iter().any(|l| l["dir"] == "out" && l["text"] == "d"));
    let text = b
        .js("document.getElementById('diag-text').value")
        .await
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        text.contains("> isready") && text.contains("< readyok"),
        "{text}"
    );
    assert!(text.contains("illegal move '9-99'"), "{text}");
    // Bounded: a long session keeps the last lines only.
    for _ in 0..150 {
        b.run("window.buffgreen.send({type: 'fen', fen: 'B:W21:B1'})")
            .await;
    }
    b.until("window.buffgreen.received > 150").await;
    let d = diagnostics(&b).await;
    assert_eq!(d["lines"].as_array().unwrap().len(), 400);
    b.close().await;
}

/// The processes whose command line holds the argument `word`.
fn running(word: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
            cmdline.split(|b| *b == 0).any(|a| a == word.as_bytes())
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn a_wrapper_engines_children_end_with_the_page() {
    // A number no other process has as its argument: this test's own.
    let mark = format!("{}", 900_000 + std::process::id() % 90_000);
    let spec = format!(
        "cmd=sh arg=-c 'arg=sleep {mark} & exec {}' name=wrapped",
        env!("CARGO_BIN_EXE_buffgreen")
    );
    let Some(b) = start(Some(&spec)).await else {
        return;
    };
    assert_eq!(running(&mark).len(), 1, "the wrapper's child runs");
    // The page goes: its socket closes and its engine is ended, children too.
    b.c.goto("about:blank").await.unwrap();
    for _ in 0..600 {
        if running(&mark).is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let left = running(&mark);
    b.close().await;
    if !left.is_empty() {
        // Ended here, or it would hold the test's output open long after the failure.
        for pid in &left {
            signal(pid.parse().unwrap(), "-9");
        }
        panic!("the wrapper's child outlived the page");
    }
}
