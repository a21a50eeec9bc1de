//! `buffgreen gui` in a real browser: every case of issue 38's list.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use buffgreen_testkit::process::piped;
use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_buffgreen");
const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const START: &str = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

/// A child process killed when the test ends, pass or fail.
struct Kill(Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The server, chromedriver and a browser on the page.
pub struct Browser {
    pub c: Client,
    pub url: String,
    _server: Kill,
    _driver: Kill,
    _profile: std::path::PathBuf,
}

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// The new-game dialog's choice of Buff and Green rules (the rule set's one-word key).
pub const BG: &str = "buffgreen";

/// [`start`] with the built-in engine, showing a new [`Browser::new_board`] of `rules`.
pub async fn board(rules: &str) -> Option<Browser> {
    let b = start(None).await?;
    b.new_board(rules).await;
    Some(b)
}

/// None (after one line on stderr) when the browser is not installed; else the page, once
/// its engine is ready.
pub async fn start(engine: Option<&str>) -> Option<Browser> {
    let b = open(engine).await?;
    b.until(
        "window.buffgreen && window.buffgreen.state && window.buffgreen.state.legal.length > 0",
    )
    .await;
    Some(b)
}

/// The page, as soon as it is loaded (its engine may still be starting, or never start).
pub async fn open(engine: Option<&str>) -> Option<Browser> {
    if !std::path::Path::new(CHROMIUM).exists() || !std::path::Path::new(CHROMEDRIVER).exists() {
        eprintln!("skipped: {CHROMIUM} or {CHROMEDRIVER} missing (apt-get install chromium chromium-driver)");
        return None;
    }
    let mut cmd = Command::new(BIN);
    cmd.args(["gui", "--port", "0"]);
    if let Some(spec) = engine {
        cmd.args(["--engine", spec]);
    }
    let mut server = Kill(cmd.stdout(Stdio::piped()).spawn().unwrap());
    let mut first = String::new();
    BufReader::new(server.0.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let url = first
        .trim()
        .strip_prefix("buffgreen gui: open ")
        .unwrap_or_else(|| panic!("no URL line: {first:?}"))
        .to_string();
    let port = free_port();
    let driver = Kill(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let profile = std::env::temp_dir().join(format!("bg-gui-test-{}-{port}", std::process::id()));
    let caps = json!({
        "goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--window-size=1100,800", format!("--user-data-dir={}", profile.display())],
        }
    });
    let caps = caps.as_object().unwrap().clone();
    let mut c = None;
    // chromedriver needs a moment to listen: retry the session a bounded number of times.
    for _ in 0..100 {
        let conn = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(conn)
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(client) => {
                c = Some(client);
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    let c = c.expect("no WebDriver session");
    c.goto(&url).await.unwrap();
    Some(Browser {
        c,
        url,
        _server: server,
        _driver: driver,
        _profile: profile,
    })
}

impl Drop for Browser {
    /// A failed test never reaches `close`: the browser chromedriver started would outlive
    /// it, so its processes (the ones using this test's own profile folder) are ended here.
    fn drop(&mut self) {
        let mark = format!("--user-data-dir={}", self._profile.display());
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            let has = cmdline.split(|b| *b == 0).any(|arg| arg == mark.as_bytes());
            if has {
                let _ = Command::new("kill")
                    .arg("-9")
                    .arg(entry.file_name())
                    .status();
            }
        }
        let _ = std::fs::remove_dir_all(&self._profile);
    }
}

impl Browser {
    /// The value of a JavaScript expression.
    pub async fn js(&self, expr: &str) -> Value {
        self.c
            .execute(&format!("return ({expr});"), vec![])
            .await
            .unwrap_or_else(|e| panic!("{expr}: {e}"))
    }

    /// Runs JavaScript statements in the page, for their effect (a value is not wanted).
    pub async fn run(&self, statements: &str) {
        self.js(&format!("(() => {{ {statements}; return true; }})()"))
            .await;
    }

    /// Waits until `expr` is true (a bound on the wait, not a timing assertion: the test
    /// fails only if it never becomes true).
    pub async fn until(&self, expr: &str) {
        for _ in 0..6000 {
            if self.js(expr).await == json!(true) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!(
            "never true: {expr}; state {}",
            self.js("JSON.stringify(window.buffgreen.state)").await
        );
    }

    /// Whether the element `selector` finds has the class `class`.
    pub async fn has_class(&self, selector: &str, class: &str) -> bool {
        let expr = format!("document.querySelector('{selector}').classList.contains('{class}')");
        self.js(&expr).await == json!(true)
    }

    /// The numbers of the squares marked legal, in board order, space-separated.
    pub async fn legal_squares(&self) -> String {
        let expr =
            "[...document.querySelectorAll('[data-legal]')].map(e => e.dataset.num).join(' ')";
        self.js(expr).await.as_str().unwrap_or_default().to_string()
    }

    pub async fn state(&self, key: &str) -> Value {
        self.js(&format!("window.buffgreen.state.{key}")).await
    }

    pub async fn fen(&self) -> String {
        self.state("fen").await.as_str().unwrap().to_string()
    }

    /// The element `css` finds; fails the test when there is none.
    pub async fn element(&self, css: &str) -> Element {
        self.c.find(Locator::Css(css)).await.unwrap()
    }

    pub async fn text(&self, css: &str) -> String {
        self.element(css).await.text().await.unwrap()
    }

    pub async fn click(&self, css: &str) {
        self.element(css).await.click().await.unwrap();
    }

    /// Clicks square `n` (its data-num).
    pub async fn click_sq(&self, n: u32) {
        self.click(&format!("[data-num=\"{n}\"]")).await;
    }

    /// Drags from square `a` to square `b` with the mouse.
    pub async fn drag(&self, a: u32, b: u32) {
        let from = self.element(&format!("[data-num=\"{a}\"]")).await;
        let to = self.element(&format!("[data-num=\"{b}\"]")).await;
        let mouse = MouseActions::new("mouse".to_string())
            .then(PointerAction::MoveToElement {
                element: from,
                duration: None,
                x: 0,
                y: 0,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::MoveToElement {
                element: to.clone(),
                duration: Some(Duration::from_millis(50)),
                x: 0,
                y: 0,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.c.perform_actions(mouse).await.unwrap();
    }

    /// Waits for the state after `n` plies with the engine idle.
    pub async fn at_ply(&self, n: usize) {
        self.until(&format!(
            "window.buffgreen.state.ply === {n} && !window.buffgreen.state.thinking"
        ))
        .await;
    }

    /// Fills the new-game dialog and starts the game.
    pub async fn new_game(&self, rules: &str, sides: &str, level: (&str, u64), draw: u32) {
        self.click("#btn-new").await;
        self.js(&format!(
            "(() => {{ document.getElementById('rules').value = '{rules}';
              document.getElementById('sides').value = '{sides}';
              document.getElementById('level-kind').value = '{}';
              document.getElementById('level-value').value = '{}';
              document.getElementById('draw').value = '{draw}'; return true; }})()",
            level.0, level.1
        ))
        .await;
        let before = self.js("window.buffgreen.received").await.as_u64().unwrap();
        self.click("#btn-start").await;
        self.until(&format!("window.buffgreen.received > {before}"))
            .await;
    }

    /// Starts a game of `rules` in which the human plays both sides and the engine only
    /// analyses, at a small node limit: a board to set up and move on.
    pub async fn new_board(&self, rules: &str) {
        self.new_game(rules, "none", ("nodes", 100), 80).await;
    }

    /// Plays `mv` by clicks and waits for the state after `ply` plies.
    pub async fn play(&self, mv: &str, ply: usize) {
        self.click_move(mv).await;
        self.at_ply(ply).await;
    }

    /// Plays the first legal move by clicks and waits, the engine idle, until it has replied
    /// (two plies on) or the game is over; returns the ply the move was played at.
    pub async fn play_first_legal(&self) -> u64 {
        let ply = self.state("ply").await.as_u64().unwrap();
        let mv = self.state("legal[0]").await.as_str().unwrap().to_string();
        self.click_move(&mv).await;
        self.until(&format!(
            "(window.buffgreen.state.ply >= {} || window.buffgreen.state.result !== 'ongoing') && !window.buffgreen.state.thinking",
            ply + 2
        ))
        .await;
        ply
    }

    /// Plays `mv` (long numeric form) by clicking its squares one by one.
    pub async fn click_move(&self, mv: &str) {
        for sq in mv.split(['-', 'x']) {
            self.click_sq(sq.parse().unwrap()).await;
        }
    }

    pub async fn piece(&self, square: &str) -> Option<String> {
        match self
            .c
            .find(Locator::Css(&format!("[data-square=\"{square}\"] .piece")))
            .await
        {
            Ok(p) => p.attr("data-piece").await.unwrap(),
            Err(_) => None,
        }
    }

    /// The engine processes the server started (its children).
    pub fn engine_pids(&self) -> Vec<i32> {
        let pid = self._server.0.id();
        let mut out = Vec::new();
        for task in std::fs::read_dir(format!("/proc/{pid}/task"))
            .unwrap()
            .flatten()
        {
            let children =
                std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            out.extend(
                children
                    .split_whitespace()
                    .filter_map(|c| c.parse::<i32>().ok()),
            );
        }
        out
    }

    pub async fn close(self) {
        let _ = self.c.clone().close().await;
    }
}

/// What the engine itself says of a game: its `d` lines `Fen:` and `Result:` (without the
/// reason in parentheses).
pub fn engine_d(rules: &[&str], start: &str, moves: &[String]) -> (String, String) {
    let mut input = String::new();
    for r in rules {
        input.push_str(&format!("setoption name {r}\n"));
    }
    input.push_str(&format!("position fen {start}"));
    if !moves.is_empty() {
        input.push_str(&format!(" moves {}", moves.join(" ")));
    }
    input.push_str("\nd\nquit\n");
    let out = String::from_utf8(piped(&mut Command::new(BIN), &input).stdout).unwrap();
    let field = |f: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix(f))
            .unwrap_or_else(|| panic!("no {f} in {out}"))
            .trim()
            .to_string()
    };
    let result = field("Result:");
    let result = result.split(" (").next().unwrap_or_default().to_string();
    (field("Fen:"), result)
}

pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn a_whole_game_against_the_engine_by_clicks() {
    let Some(b) = start(None).await else { return };
    b.new_game(BG, "white", ("nodes", 200), 24).await;
    b.at_ply(0).await;
    // The first human move is fixed, so its position is exact.
    b.play("11-15", 2).await;
    assert_eq!(b.state("moves[0]").await, json!("11-15"));
    // Then the first legal move each turn, entered square by square, to the end.
    while b.state("result").await == json!("ongoing") {
        b.play_first_legal().await;
    }
    let moves = strings(&b.state("moves").await);
    let (fen, result) = engine_d(&["DrawHalfMoves value 24"], START, &moves);
    assert_eq!(b.fen().await, fen);
    assert_eq!(b.state("result").await, json!(result));
    let status = b.text("#status").await;
    assert!(
        status.starts_with(&format!("Game over: {result}: ")),
        "{status}"
    );
    assert_eq!(b.text("#moves [data-ply=\"1\"]").await, "11-15");
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_drag_and_drop_move_and_an_illegal_drop() {
    let Some(b) = board(BG).await else { return };
    b.drag(11, 15).await;
    b.at_ply(1).await;
    assert_eq!(
        b.fen().await,
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
    );
    assert_eq!(b.piece("e5").await.as_deref(), Some("man-black"));
    assert_eq!(b.piece("f6").await, None);
    assert_eq!(
        b.js("document.getElementById('board').dataset.turn").await,
        json!("white")
    );
    // White drops a man two squares away: refused with a message, nothing changes.
    b.drag(22, 13).await;
    assert_eq!(
        b.text("#message").await,
        "Illegal move 22-13; legal moves: 21-17 22-17 22-18 23-18 23-19 24-19 24-20"
    );
    assert_eq!(b.state("ply").await, json!(1));
    assert_eq!(b.piece("c3").await.as_deref(), Some("man-white"));
    b.close().await;
}

/// Sets up `fen` through the FEN box.
pub async fn set_fen(b: &Browser, fen: &str) {
    b.js(&format!("(() => {{ document.querySelector('#record-box').open = true; document.getElementById('fen').value = '{fen}'; return true; }})()")).await;
    b.click("#btn-fen").await;
    b.until(&format!("window.buffgreen.state.start === '{fen}'"))
        .await;
}

#[tokio::test(flavor = "current_thread")]
async fn multi_captures_square_by_square_under_both_rules() {
    let Some(b) = start(None).await else { return };
    // Buff and Green: the man on 18 takes 14 and then 6, both backward.
    b.new_board(BG).await;
    set_fen(&b, "B:W6,14:B18").await;
    assert_eq!(b.state("legal").await, json!(["18x9x2"]));
    b.click_sq(18).await;
    b.click_sq(9).await;
    // Pending: the first landing square marked, the jumped man faded, the next landing legal.
    assert!(b.has_class("[data-num=\"9\"]", "pending").await);
    assert!(b.has_class("[data-num=\"14\"] .piece", "captured").await);
    assert_eq!(b.legal_squares().await, "2");
    assert_eq!(b.state("ply").await, json!(0));
    b.click_sq(2).await;
    b.at_ply(1).await;
    assert_eq!(b.fen().await, "W:W:B2");
    assert_eq!(b.state("result").await, json!("black wins"));
    // English: men capture forward only; the man on 9 takes 14 and then 22.
    b.new_board("english").await;
    set_fen(&b, "B:W6,14:B18").await;
    assert_eq!(b.state("legal").await, json!(["18-22", "18-23"]));
    set_fen(&b, "B:W14,22:B9").await;
    assert_eq!(b.state("legal").await, json!(["9x18x25"]));
    b.click_sq(9).await;
    b.click_sq(18).await;
    assert_eq!(b.legal_squares().await, "25");
    b.click_sq(25).await;
    b.at_ply(1).await;
    assert_eq!(b.fen().await, "W:W:B25");
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn undo_redo_and_jump() {
    let Some(b) = board(BG).await else { return };
    b.play("11-15", 1).await;
    b.play("22-18", 2).await;
    let two = b.fen().await;
    b.click("#btn-undo").await;
    b.at_ply(1).await;
    assert_eq!(
        b.fen().await,
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
    );
    b.click("#btn-redo").await;
    b.at_ply(2).await;
    assert_eq!(b.fen().await, two);
    b.click("#moves [data-ply=\"1\"]").await;
    b.at_ply(1).await;
    b.click("#btn-first").await;
    b.at_ply(0).await;
    assert_eq!(b.fen().await, START);
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn pdn_export_verifies_and_import_replays() {
    let Some(b) = board("english").await else {
        return;
    };
    for (i, mv) in ["11-15", "23-19", "8-11", "22-17"].iter().enumerate() {
        b.play(mv, i + 1).await;
    }
    b.run("document.querySelector('#record-box').open = true")
        .await;
    b.click("#btn-export").await;
    b.until("document.getElementById('pdn').value.includes('[Event')")
        .await;
    let text = b
        .js("document.getElementById('pdn').value")
        .await
        .as_str()
        .unwrap()
        .to_string();
    assert!(text.contains("[GameType \"21\"]"), "{text}");
    assert!(text.contains("1. 11-15 23-19 2. 8-11 22-17 *"), "{text}");
    let file = std::env::temp_dir().join(format!("bg-gui-{}.pdn", std::process::id()));
    std::fs::write(&file, &text).unwrap();
    let verify = Command::new(BIN)
        .args(["match", "--verify-pdn"])
        .arg(&file)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    assert!(
        verify.status.success(),
        "{}",
        String::from_utf8_lossy(&verify.stderr)
    );
    // Import another game (Buff and Green, algebraic moves) by pasting it.
    let other = "[GameType \"32,B,8,8,N1,0\"]\n[Rules \"BackwardCapture=true LongKings=true DrawHalfMoves=80\"]\n\n1. b6-a5 {a comment} c3-d4 *\n";
    b.js(&format!(
        "(() => {{ document.getElementById('pdn').value = {}; return true; }})()",
        json!(other)
    ))
    .await;
    b.click("#btn-import").await;
    b.until("window.buffgreen.state.moves.join(' ') === '9-13 22-18'")
        .await;
    assert_eq!(b.state("rules.longKings").await, json!(true));
    assert_eq!(
        b.fen().await,
        "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13"
    );
    // A bad import is refused and changes nothing.
    b.run("document.getElementById('pdn').value = '1. 9-13 9-13 *'")
        .await;
    b.click("#btn-import").await;
    b.until("document.getElementById('message').textContent.startsWith('PDN import:')")
        .await;
    assert_eq!(b.state("moves").await, json!(["9-13", "22-18"]));
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn analysis_shows_multipv_lines_and_stops() {
    let Some(b) = board(BG).await else { return };
    b.run("document.getElementById('multipv').value = '3'")
        .await;
    b.click("#btn-analyse").await;
    b.until("document.querySelectorAll('#lines li').length === 3")
        .await;
    for k in 1..=3 {
        let pv = b
            .js(&format!(
                "document.querySelector('#lines li[data-multipv=\"{k}\"] .pv').textContent"
            ))
            .await;
        let pv = pv.as_str().unwrap();
        let first = pv.split(' ').next().unwrap().to_string();
        let legal = strings(&b.state("legal").await);
        assert!(legal.contains(&first), "line {k}: {pv}");
    }
    b.until("document.querySelectorAll('#arrows polyline').length > 0")
        .await;
    assert_eq!(b.state("analysing").await, json!(true));
    b.click("#btn-stop").await;
    b.until("window.buffgreen.state.analysing === false").await;
    assert_eq!(b.state("ply").await, json!(0));
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn engine_against_engine_to_the_end() {
    let Some(b) = start(None).await else { return };
    b.new_game("english", "both", ("nodes", 100), 16).await;
    b.until("window.buffgreen.state.result !== 'ongoing' && !window.buffgreen.state.thinking")
        .await;
    let moves = strings(&b.state("moves").await);
    let rules = [
        "BackwardCapture value false",
        "LongKings value false",
        "DrawHalfMoves value 16",
    ];
    let (fen, result) = engine_d(&rules, START, &moves);
    assert_eq!(b.fen().await, fen);
    assert_eq!(b.state("result").await, json!(result));
    let reason = b.state("reason").await;
    let want = if result == "draw" {
        "16 half-moves without a capture or a crowning".to_string()
    } else {
        format!(
            "{} has no legal move",
            if result == "black wins" {
                "White"
            } else {
                "Black"
            }
        )
    };
    assert_eq!(reason, json!(want));
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn malformed_websocket_messages_get_an_error_and_change_nothing() {
    let Some(b) = start(None).await else { return };
    let fen = b.fen().await;
    for (msg, want) in [
        (
            "{not json",
            "Not accepted: not JSON: key must be a string at line 1 column 2",
        ),
        ("{\"type\":\"fly\"}", "Not accepted: unknown type 'fly'"),
        ("{\"type\":\"move\"}", "Not accepted: missing \"move\""),
        (
            "{\"type\":\"move\",\"move\":\"9-99\"}",
            "illegal move '9-99'; legal moves: 9-13 9-14 10-14 10-15 11-15 11-16 12-16",
        ),
        (
            "{\"type\":\"fen\",\"fen\":\"B:W1:B2 moves 2-6\"}",
            "Not accepted: \"fen\": not a FEN: 'B:W1:B2 moves 2-6'",
        ),
        (
            "{\"type\":\"fen\",\"fen\":\"B:W33:B1\"}",
            "bad FEN: square 33 is not in 1..=32",
        ),
    ] {
        let before = b.js("window.buffgreen.received").await.as_u64().unwrap();
        b.js(&format!(
            "(() => {{ window.buffgreen.socket.send({}); return true; }})()",
            json!(msg)
        ))
        .await;
        b.until(&format!("window.buffgreen.received > {before}"))
            .await;
        assert_eq!(b.text("#message").await, want, "{msg}");
        assert_eq!(b.fen().await, fen);
    }
    // A message over the size bound.
    let before = b.js("window.buffgreen.received").await.as_u64().unwrap();
    b.run("window.buffgreen.socket.send(JSON.stringify({type: 'pdn_import', text: 'x'.repeat(300000)}))").await;
    b.until(&format!("window.buffgreen.received > {before}"))
        .await;
    assert_eq!(
        b.text("#message").await,
        "Not accepted: message too long: 300031 bytes, at most 262144"
    );
    // Another origin cannot open the socket.
    let host = b
        .url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let req = tungstenite::handshake::client::Request::builder()
        .uri(format!("ws://{host}/ws"))
        .header("Host", &host)
        .header("Origin", "http://evil.example")
        .header("Connection", "Upgrade")
        .header("Upgrade", "websocket")
        .header("Sec-WebSocket-Version", "13")
        .header(
            "Sec-WebSocket-Key",
            tungstenite::handshake::client::generate_key(),
        )
        .body(())
        .unwrap();
    match tungstenite::connect(req) {
        Err(tungstenite::Error::Http(resp)) => assert_eq!(resp.status().as_u16(), 403),
        other => panic!("a foreign Origin was let in: {:?}", other.map(|_| ())),
    }
    b.close().await;
}

/// The time from a move's click to the engine's reply drawn on the board, at `movetime 100`,
/// measured in the page (`performance.now()` when the move is sent and after the reply's
/// state is drawn). Prints, never asserts a time; runs only with `BUFFGREEN_GUI_LATENCY=<moves>`.
#[tokio::test(flavor = "current_thread")]
async fn latency_from_click_to_reply() {
    let Ok(n) = std::env::var("BUFFGREEN_GUI_LATENCY") else {
        return;
    };
    let n: usize = n.parse().unwrap();
    let Some(b) = start(None).await else { return };
    let mut times = Vec::new();
    while times.len() < n {
        b.new_game(BG, "white", ("movetime", 100), 80).await;
        b.at_ply(0).await;
        while times.len() < n && b.state("result").await == json!("ongoing") {
            let ply = b.play_first_legal().await;
            if b.state("ply").await.as_u64().unwrap() == ply + 2 {
                let ms = b
                    .js("window.buffgreen.renderedAt - window.buffgreen.movedAt")
                    .await
                    .as_f64()
                    .unwrap();
                times.push(ms);
            }
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "latency over {} moves at movetime 100: median {:.1} ms, min {:.1}, max {:.1}; page {} bytes",
        times.len(),
        times[times.len() / 2],
        times[0],
        times[times.len() - 1],
        buffgreen_gui::page_bytes()
    );
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_dead_engine_is_reported_and_restarted() {
    let Some(b) = board(BG).await else { return };
    b.play("11-15", 1).await;
    let pids = b.engine_pids();
    assert_eq!(pids.len(), 1, "one engine for the one page");
    Command::new("kill")
        .arg("-9")
        .arg(pids[0].to_string())
        .status()
        .unwrap();
    // The next request finds it dead.
    b.click_move("22-18").await;
    b.until("!document.getElementById('dead').hidden").await;
    assert!(b
        .text("#dead-text")
        .await
        .starts_with("The engine stopped: "));
    b.click("#btn-restart").await;
    b.until("window.buffgreen.state.dead === null && window.buffgreen.state.legal.length > 0")
        .await;
    assert_eq!(b.state("moves").await, json!(["11-15"]));
    b.play("22-18", 2).await;
    assert_eq!(b.engine_pids().len(), 1);
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_russian_game_from_the_dialog_in_algebraic_notation() {
    let Some(b) = start(None).await else { return };
    // The dialog offers every rule set of the table, the family's three among them.
    let offered = b
        .js("[...document.querySelectorAll('#rules option')].map(o => o.value).join(' ')")
        .await;
    assert_eq!(
        offered,
        json!("buffgreen shortkings forwardcapture english pool russian brazilian")
    );
    b.new_game("russian", "black", ("nodes", 100), 80).await;
    b.until("window.buffgreen.state.rules.variant === 'russian'")
        .await;
    // White moves first from the standard pieces, White at the bottom, squares named a1-h8.
    assert_eq!(
        b.state("start").await,
        json!("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
    );
    assert_eq!(b.state("turn").await, json!("white"));
    assert_eq!(b.state("rules.notation").await, json!("algebraic"));
    assert_eq!(b.text("#btn-coords").await, "a1-h8");
    assert_eq!(
        b.js("document.getElementById('board').dataset.flipped")
            .await,
        json!("false")
    );
    // The engine was told the rule set by name.
    b.run("window.buffgreen.diagnostics = null; window.buffgreen.send({type: 'diagnostics'})")
        .await;
    b.until("window.buffgreen.diagnostics != null").await;
    let sent = b
        .js("window.buffgreen.diagnostics.lines.filter(l => l.dir === 'out').map(l => l.text)")
        .await;
    assert!(
        strings(&sent).contains(&"setoption name Variant value russian".to_string()),
        "{sent}"
    );
    // c3-d4 by clicks; the engine answers as Black.
    b.play("22-18", 2).await;
    assert_eq!(b.state("moves").await, json!(["22-18", "11-16"]));
    assert_eq!(b.text("#moves [data-ply=\"1\"]").await, "c3-d4");
    assert_eq!(b.text("#moves [data-ply=\"2\"]").await, "f6-g5");
    // White's move opens the pair: no empty place before it.
    assert_eq!(
        b.js("[...document.querySelector('#moves li').children].map(c => c.dataset.ply || '').join(' ')")
            .await,
        json!("1 2")
    );
    // A capture is written with lidraughts' colon: c3:e5.
    b.run("document.getElementById('new-fen').value = 'W:W22,30:B18,5'")
        .await;
    b.new_game("russian", "black", ("nodes", 100), 80).await;
    b.until("window.buffgreen.state.start === 'W:W22,30:B5,18'")
        .await;
    assert_eq!(b.state("legal").await, json!(["22x15"]));
    b.click_move("22x15").await;
    b.until("window.buffgreen.state.ply >= 1 && !window.buffgreen.state.thinking")
        .await;
    assert_eq!(b.state("moves[0]").await, json!("22x15"));
    assert_eq!(b.text("#moves [data-ply=\"1\"]").await, "c3:e5");
    b.close().await;
}
