//! Issue 59, items 5 and 7 in a real browser: what a lidraughts player expects (keys and the
//! wheel through the moves, the evaluation gauge, an arrow per analysis line, the human's side
//! at the bottom, a full capture entered by its destination) and the small fixes.

use serde_json::json;

use crate::browser::{board, set_fen, start, Browser, BG};

/// Presses a key on the page (a WebDriver key code such as `\u{E012}`, the left arrow).
async fn key(b: &Browser, code: &str) {
    b.element("body").await.send_keys(code).await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn keys_and_the_wheel_step_through_the_moves() {
    let Some(b) = board(BG).await else { return };
    for (i, mv) in ["11-15", "22-18", "15x22"].iter().enumerate() {
        b.play(mv, i + 1).await;
    }
    key(&b, "\u{E012}").await; // left
    b.at_ply(2).await;
    key(&b, "\u{E011}").await; // home
    b.at_ply(0).await;
    key(&b, "\u{E014}").await; // right
    b.at_ply(1).await;
    key(&b, "\u{E010}").await; // end
    b.at_ply(3).await;
    // The wheel over the board: up goes back, down forward.
    let wheel = |dy: i32| {
        format!("(() => {{ document.getElementById('board').dispatchEvent(new WheelEvent('wheel', {{deltaY: {dy}, bubbles: true, cancelable: true}})); return true; }})()")
    };
    b.js(&wheel(-100)).await;
    b.at_ply(2).await;
    b.js(&wheel(100)).await;
    b.at_ply(3).await;
    // Keys typed into a field stay there.
    b.run("document.querySelector('#record-box').open = true")
        .await;
    b.element("#fen").await.send_keys("\u{E012}").await.unwrap();
    assert_eq!(b.state("ply").await, json!(3));
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn the_gauge_and_an_arrow_for_each_lines_best_move() {
    let Some(b) = start(None).await else { return };
    b.c.set_window_size(1120, 860).await.unwrap();
    b.new_board(BG).await;
    set_fen(
        &b,
        "B:WK8,17,18,19,22,24,26,27,28,30,31:B1,2,3,5,9,10,11,12,14,16,K29",
    )
    .await;
    assert_eq!(
        b.js("document.getElementById('gauge').dataset.eval").await,
        json!("")
    );
    b.run("document.getElementById('multipv').value = '3'")
        .await;
    b.click("#btn-analyse").await;
    b.until("document.querySelectorAll('#lines li').length === 3 && document.querySelectorAll('#arrows polyline').length === 3 && document.getElementById('gauge').dataset.eval !== ''").await;
    // Each arrow starts on its line's first move's first square.
    let firsts = b
        .js("[...document.querySelectorAll('#lines .pv')].map(p => p.textContent.split(/[-x ]/)[0]).join(' ')")
        .await;
    let starts = b
        .js("[...document.querySelectorAll('#arrows polyline')].map(p => p.getAttribute('points').split(' ')[0]).join(' ')")
        .await;
    let centre = |n: u32| {
        let row = (n - 1) / 4;
        let col = (n - 1) % 4 * 2 + u32::from(row.is_multiple_of(2));
        format!("{},{}", col as f64 + 0.5, row as f64 + 0.5)
    };
    let want: Vec<String> = firsts
        .as_str()
        .unwrap()
        .split(' ')
        .map(|n| centre(n.parse().unwrap()))
        .collect();
    assert_eq!(starts.as_str().unwrap(), want.join(" "));
    let eval = b.js("document.getElementById('gauge').dataset.eval").await;
    assert!(eval.as_str().unwrap().starts_with(['+', '-']), "{eval}");
    // The side is named beside the gauge's colours.
    let said = b.text("#eval-text").await;
    assert!(said.ends_with("for Black to move"), "{said}");
    // The README's pictures, where `BUFFGREEN_GUI_SCREENSHOT` says (docs/gui.png), and the
    // same page at a phone's width beside it (docs/gui-phone.png); else only taken.
    let png = b.c.screenshot().await.unwrap();
    assert_eq!(&png[1..4], b"PNG");
    if let Ok(path) = std::env::var("BUFFGREEN_GUI_SCREENSHOT") {
        std::fs::write(&path, &png).unwrap();
        b.c.set_window_size(390, 1100).await.unwrap();
        b.until("document.getElementById('board').getBoundingClientRect().width < 390")
            .await;
        let phone = std::path::Path::new(&path).with_file_name("gui-phone.png");
        std::fs::write(phone, b.c.screenshot().await.unwrap()).unwrap();
    }
    b.click("#btn-stop").await;
    b.until("window.buffgreen.state.analysing === false && document.getElementById('gauge').dataset.eval === ''").await;
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn the_humans_side_is_at_the_bottom() {
    let Some(b) = start(None).await else { return };
    // The engine plays White: the human's Black is at the bottom (the board turned).
    b.new_game(BG, "white", ("nodes", 100), 80).await;
    b.until("document.getElementById('board').dataset.flipped === 'true'")
        .await;
    let bottom_rank = "document.querySelector('#ranks span:last-child').textContent";
    assert_eq!(b.js(bottom_rank).await, json!("8"));
    b.new_game(BG, "black", ("nodes", 100), 80).await;
    b.until("document.getElementById('board').dataset.flipped === 'false'")
        .await;
    assert_eq!(b.js(bottom_rank).await, json!("1"));
    // Coordinates outside the board: every file and rank, once.
    assert_eq!(
        b.js("document.getElementById('files').textContent").await,
        json!("abcdefgh")
    );
    assert_eq!(
        b.js("document.getElementById('ranks').textContent").await,
        json!("87654321")
    );
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_full_capture_by_its_destination_and_short_imports_made_long() {
    let Some(b) = board(BG).await else { return };
    set_fen(&b, "B:W6,14:B18").await;
    b.click_sq(18).await;
    assert_eq!(b.legal_squares().await, "2 9");
    b.click_sq(2).await;
    b.at_ply(1).await;
    assert_eq!(b.state("moves").await, json!(["18x9x2"]));
    // A PDN's short capture is shown and exported with every landing square.
    b.run("document.querySelector('#record-box').open = true; document.getElementById('pdn').value = '[FEN \"B:W6,14:B18\"]\\n1. 18x2 *'").await;
    b.click("#btn-import").await;
    b.until("window.buffgreen.state.start === 'B:W6,14:B18' && window.buffgreen.state.moves[0] === '18x9x2'").await;
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_fallen_flag_shows_no_time_left_and_the_move_list_wraps() {
    let Some(b) = board("english").await else {
        return;
    };
    b.run("window.buffgreen.send({type: 'new', rules: {backwardCapture: false, longKings: false, drawHalfMoves: 80, losing: false}, engine: {black: false, white: false}, level: {kind: 'nodes', value: 100}, clock: {baseMs: 1000, incMs: 0}, fen: null})").await;
    b.until("window.buffgreen.state.result === 'white wins'")
        .await;
    assert_eq!(b.state("reason").await, json!("Black lost on time"));
    assert_eq!(b.text("[data-clock=\"black\"]").await, "Black 0:00.0");
    // A long game's moves stay in one column, the first ones reachable.
    b.new_game("english", "both", ("nodes", 50), 30).await;
    b.until("window.buffgreen.state.result !== 'ongoing' && !window.buffgreen.state.thinking")
        .await;
    let n = b.state("moves.length").await.as_u64().unwrap();
    assert!(n > 14, "{n} moves");
    assert_eq!(
        b.js("(() => { const m = document.getElementById('moves'); return m.scrollWidth <= m.clientWidth; })()").await,
        json!(true)
    );
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn keyboard_play_and_labels_for_screen_readers() {
    let Some(b) = board(BG).await else { return };
    assert_eq!(
        b.js("document.querySelector('[data-num=\"11\"]').getAttribute('aria-label')")
            .await,
        json!("11 f6, man black")
    );
    for n in [11, 15] {
        let sq = b.element(&format!("[data-num=\"{n}\"]")).await;
        b.js(&format!(
            "(() => {{ document.querySelector('[data-num=\"{n}\"]').focus(); return true; }})()"
        ))
        .await;
        sq.send_keys("\u{E007}").await.unwrap(); // Enter
    }
    b.at_ply(1).await;
    assert_eq!(b.state("moves").await, json!(["11-15"]));
    assert_eq!(
        b.js("document.querySelector('[data-num=\"15\"]').getAttribute('aria-label')")
            .await,
        json!("15 e5, man black")
    );
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_move_at_an_earlier_ply_keeps_the_old_line_as_a_variation() {
    let Some(b) = board(BG).await else { return };
    for (i, mv) in ["11-15", "22-18", "15x22"].iter().enumerate() {
        b.play(mv, i + 1).await;
    }
    // The same move again at ply 0: the game's line goes on, nothing is cut.
    b.click("#btn-first").await;
    b.at_ply(0).await;
    b.play("11-15", 1).await;
    assert_eq!(b.state("moves.length").await, json!(3));
    assert_eq!(b.state("variations").await, json!([]));
    // Another move at ply 1: the old line is kept.
    b.play("21-17", 2).await;
    assert_eq!(b.state("moves").await, json!(["11-15", "21-17"]));
    assert_eq!(
        b.state("variations").await,
        json!([{"index": 0, "ply": 1, "moves": ["22-18", "15x22"]}])
    );
    assert_eq!(b.text("[data-variation=\"0\"]").await, "1... 22-18 15x22");
    // Back to it: the lines change places.
    b.click("[data-variation=\"0\"]").await;
    b.until("window.buffgreen.state.moves.join(' ') === '11-15 22-18 15x22'")
        .await;
    assert_eq!(b.state("ply").await, json!(2));
    assert_eq!(
        b.state("variations").await,
        json!([{"index": 0, "ply": 1, "moves": ["21-17"]}])
    );
    b.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_premove_sounds_and_sliding_that_can_be_turned_off() {
    let Some(b) = board(BG).await else { return };
    // The engine plays White with time to think; Black's man 1 and White's man 32 far apart,
    // so Black's premove stays legal whatever White plays.
    b.run("window.buffgreen.send({type: 'new', rules: {backwardCapture: true, longKings: true, drawHalfMoves: 80, losing: false}, engine: {black: false, white: true}, level: {kind: 'movetime', value: 1500}, clock: null, fen: 'B:W32:B1'})").await;
    b.until("window.buffgreen.state.start === 'B:W32:B1' && !window.buffgreen.state.thinking")
        .await;
    b.click_move("1-5").await;
    b.until("window.buffgreen.state.thinking").await;
    b.click_sq(5).await;
    b.click_sq(9).await;
    assert_eq!(
        b.js("[...document.querySelectorAll('[data-premove]')].map(e => Number(e.dataset.num)).sort((x, y) => x - y).join(' ')")
            .await,
        json!("5 9")
    );
    // The engine may already be thinking on its next move when the page is polled: wait for
    // the premove to be on the board, not for a moment between two searches.
    b.until("window.buffgreen.state.ply >= 3").await;
    assert_eq!(b.state("moves[2]").await, json!("5-9"));
    assert!(b.js("window.buffgreen.slides").await.as_u64().unwrap() >= 2);
    assert!(b.js("window.buffgreen.sounds").await.as_u64().unwrap() >= 2);
    // Both off, kept across a reload: a move neither slides nor sounds.
    b.click("#opt-sound").await;
    b.click("#opt-slide").await;
    b.c.goto(&b.url).await.unwrap();
    // After the reload the engine goes on with White's move: wait for Black's turn, whatever
    // the ply by then.
    b.until("window.buffgreen.state && window.buffgreen.state.turn === 'black' && window.buffgreen.state.legal.length > 0 && !window.buffgreen.state.thinking")
        .await;
    assert_eq!(
        b.js("document.getElementById('opt-sound').checked || document.getElementById('opt-slide').checked").await,
        json!(false)
    );
    let mv = b.state("legal[0]").await.as_str().unwrap().to_string();
    let ply = b.state("ply").await.as_u64().unwrap();
    b.click_move(&mv).await;
    b.until(&format!("window.buffgreen.state.ply > {ply}"))
        .await;
    assert_eq!(
        b.js("window.buffgreen.slides + window.buffgreen.sounds")
            .await,
        json!(0)
    );
    b.close().await;
}
