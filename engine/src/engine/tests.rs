//! Unit tests of the engine facade.

use std::sync::mpsc;
use std::time::Duration;

use super::*;

fn sinks() -> (EventSink, AnswerSink, mpsc::Receiver<SearchOutcome>) {
    let (tx, rx) = mpsc::channel();
    (
        Box::new(|_| {}),
        Box::new(move |o| {
            let _ = tx.send(o);
        }),
        rx,
    )
}

fn fen_of(e: &Engine) -> String {
    fen::write(e.game().position())
}

#[test]
fn bad_position_changes_nothing() {
    let mut e = Engine::new();
    e.set_position(&StartPosition::StartPos, &["11-15".into()])
        .unwrap();
    let before = e.game().clone();
    assert!(e
        .set_position(&StartPosition::Fen("B:W33:B1".into()), &[])
        .is_err());
    let err = e
        .set_position(&StartPosition::StartPos, &["11-15".into(), "1-5".into()])
        .unwrap_err();
    assert!(err.to_string().starts_with("move 2 '1-5': illegal move"));
    assert_eq!(e.game(), &before);
}

#[test]
fn rules_change_replays_or_restarts() {
    let mut e = Engine::new();
    // White man on 18 takes the black man on 23 backward: legal only with BackwardCapture.
    let fen = "W:W18,30:B1,23".to_string();
    e.set_position(&StartPosition::Fen(fen.clone()), &["18x27".into()])
        .unwrap();
    assert_eq!(e.set_option("LongKings", Some("false")).unwrap(), vec![]);
    assert_eq!(e.game().moves().count(), 1);
    let notice = e.set_option("BackwardCapture", Some("false")).unwrap();
    assert!(matches!(
        notice.as_slice(),
        [Notice::GameRestarted { number: 1, .. }]
    ));
    assert_eq!(fen_of(&e), "W:W18,30:B1,23");
    assert_eq!(e.game().moves().count(), 0);
    assert!(!e.game().rules().backward_capture && !e.game().rules().long_kings);
}

#[test]
fn searchmoves_must_be_legal() {
    let mut e = Engine::new();
    let (ev, ans, _rx) = sinks();
    let req = GoRequest {
        limits: Limits::nodes(1),
        searchmoves: vec!["1-5".into()],
    };
    assert!(matches!(
        e.go(req, ev, ans),
        Err(EngineError::SearchMove(_))
    ));
    assert!(!e.is_searching());
}

#[test]
fn one_answer_per_go_and_busy_while_running() {
    let mut e = Engine::new();
    let (ev, ans, rx) = sinks();
    let infinite = GoRequest {
        limits: Limits::infinite(),
        searchmoves: vec![],
    };
    e.go(infinite.clone(), ev, ans).unwrap();
    let (ev2, ans2, rx2) = sinks();
    assert!(matches!(e.go(infinite, ev2, ans2), Err(EngineError::Busy)));
    assert!(e.is_unbounded());
    e.stop();
    e.stop();
    e.wait();
    let out = rx.recv().unwrap();
    assert!(out.best.is_some());
    assert!(rx.try_recv().is_err());
    assert!(rx2.try_recv().is_err());
    assert!(!e.is_searching());
}

#[test]
fn perft_runs_on_the_search_thread_and_stops() {
    let mut e = Engine::new();
    let (tx, rx) = mpsc::channel();
    e.perft(
        30,
        Box::new(move |d, complete| {
            let _ = tx.send((d, complete));
        }),
    )
    .unwrap();
    assert!(e.is_searching());
    assert!(!e.is_unbounded());
    let (ev, ans, _rx) = sinks();
    assert!(matches!(
        e.go(GoRequest::default(), ev, ans),
        Err(EngineError::Busy)
    ));
    e.stop();
    e.wait();
    let (d, complete) = rx.recv().unwrap();
    assert!(!complete);
    assert_eq!(d.len(), 7);
    assert!(!e.is_searching());
}

#[test]
fn a_missing_own_clock_counts_as_zero() {
    let e = Engine::new();
    let req = GoRequest {
        limits: Limits {
            wtime: Some(Duration::from_millis(1000)),
            winc: Some(Duration::ZERO),
            ..Limits::default()
        },
        searchmoves: vec![],
    };
    let (limits, note) = e.complete_limits(&req).unwrap();
    assert_eq!(limits.btime, Some(Duration::ZERO));
    assert!(!limits.infinite);
    assert_eq!(
        note.as_deref(),
        Some("no btime for the side to move (black): its clock counts as 0, moving at once")
    );
    let (limits, note) = e.complete_limits(&GoRequest::default()).unwrap();
    assert!(limits.infinite && note.is_none());
}

#[test]
fn infinite_search_of_a_finished_game_waits_for_stop() {
    let mut e = Engine::new();
    e.set_position(&StartPosition::Fen("B:W18:B".into()), &[])
        .unwrap();
    let (ev, ans, rx) = sinks();
    e.go(GoRequest::default(), ev, ans).unwrap();
    assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());
    assert!(e.is_searching());
    e.stop();
    e.wait();
    assert_eq!(rx.recv().unwrap().best, None);
}

#[test]
fn searchmoves_path_is_kept_for_capture_loops() {
    // The king on 15 takes 22, 31, 24 (or 24, 31, 22) and lands back on 15: two paths,
    // one position. Whichever the search prefers, the answer is the path that was listed.
    for path in ["15x24x31x22x15", "15x22x31x24x15"] {
        let mut e = Engine::new();
        e.set_position(
            &StartPosition::Fen("B:WK1,18,19,26,27:BK32,5,9,14,15".into()),
            &[],
        )
        .unwrap();
        let (ev, ans, rx) = sinks();
        let req = GoRequest {
            limits: Limits::nodes(50),
            searchmoves: vec![path.into()],
        };
        e.go(req, ev, ans).unwrap();
        e.wait();
        let best = rx.recv().unwrap().best.map(|m| m.to_string());
        assert_eq!(best.as_deref(), Some(path));
    }
}

#[test]
fn divide_is_sorted() {
    let mut e = Engine::new();
    let (tx, rx) = mpsc::channel();
    e.perft(
        1,
        Box::new(move |d, complete| {
            let _ = tx.send((d, complete));
        }),
    )
    .unwrap();
    e.wait();
    let (d, complete) = rx.recv().unwrap();
    assert!(complete);
    let names: Vec<String> = d.iter().map(|(m, _)| m.to_string()).collect();
    assert_eq!(
        names,
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    );
}

#[test]
fn the_clock_runs_from_when_go_was_read() {
    // Issue 40 item 7: set-up before the search (making the tree) counts against the move. A
    // `go movetime 50` read 10 s ago is out of time at once, and says so in its `info time`.
    let mut e = Engine::new();
    let (tx, rx) = mpsc::channel();
    let events: EventSink = Box::new(move |ev| {
        if let SearchEvent::Info(info) = ev {
            let _ = tx.send(info.time);
        }
    });
    let (_, answer, answers) = sinks();
    let Some(read_at) = Instant::now().checked_sub(Duration::from_secs(10)) else {
        return;
    };
    let request = GoRequest {
        limits: Limits::movetime(Duration::from_millis(50)),
        searchmoves: vec![],
    };
    e.go_since(read_at, request, events, answer).unwrap();
    e.wait();
    assert!(answers.recv().unwrap().best.is_some());
    let times: Vec<Duration> = rx.try_iter().collect();
    assert!(!times.is_empty());
    assert!(
        times.iter().all(|t| *t >= Duration::from_secs(10)),
        "{times:?}"
    );
}
