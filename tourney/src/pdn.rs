//! PDN with the engine library: the protocol client's writer and reader
//! ([`buffgreen_client::pdn`], whose notes say what is written and why) for the games of a
//! match, each game read back replayed move by move and its result checked.

use buffgreen::board::notation::printable;
use buffgreen::board::{fen, Game, GameResult, Position, Rules};
use buffgreen::types::Color;

pub use buffgreen_client::pdn::{
    decode, draughts_result, parse, read_file, read_games, tag_value, Header as GameHeader,
    PdnError, PdnFileError, PdnGame, Place,
};

/// One game as PDN text, ending with a blank line.
pub fn write_game(h: &GameHeader<'_>, game: &Game) -> String {
    let moves: Vec<String> = game.moves().map(|m| m.to_string()).collect();
    buffgreen_client::pdn::write(h, game.rules(), &fen::write(game.start()), &moves)
}

/// A game read from PDN, played on the engine library's board.
pub trait Replay {
    /// The rules of the game ([`PdnGame::rules`]) as the engine library holds them.
    fn game_rules(&self) -> Result<Rules, PdnError>;

    /// The start position ([`PdnGame::start_fen`]; none: the standard start).
    fn start(&self) -> Result<Position, PdnError>;

    /// Replays the game move by move with the library: every move must be legal.
    fn replay(&self) -> Result<Game, PdnError>;

    /// Replays the game and checks its result: the `Result` tag against the movetext's
    /// termination marker (`1-0`, `0-1` and `1/2-1/2` are `2-0`, `0-2` and `1-1`), and, for a
    /// game whose `Termination` says it ended by the rules, against the final position.
    fn check(&self) -> Result<Game, PdnError>;
}

impl Replay for PdnGame {
    fn game_rules(&self) -> Result<Rules, PdnError> {
        self.rules()
    }

    fn start(&self) -> Result<Position, PdnError> {
        match self.start_fen() {
            Some(f) => fen::parse(&f).map_err(|e| self.tag_error("FEN", format!("FEN: {e}"))),
            // No FEN: the rule set's start, with the side its rules say moves first.
            None => Ok(Position::start(&self.game_rules()?)),
        }
    }

    fn replay(&self) -> Result<Game, PdnError> {
        let rules = self.game_rules()?;
        let mut game = Game::new(self.start()?, 0, rules);
        for (i, mv) in self.moves.iter().enumerate() {
            game.play_str(mv).map_err(|e| {
                let at = self.move_places.get(i).copied().unwrap_or(self.place);
                self.error_at(at, format!("ply {}: {mv}: {e}", i + 1))
            })?;
        }
        Ok(game)
    }

    fn check(&self) -> Result<Game, PdnError> {
        let game = self.replay()?;
        let tag = self.tag("Result").map(draughts_result);
        if let (Some(tag), Some(marker)) = (tag, self.result.as_deref()) {
            if draughts_result(marker) != tag {
                return Err(self.error_at(
                    self.result_place,
                    format!(
                        "Result tag {} but the movetext ends {}",
                        printable(tag),
                        printable(marker)
                    ),
                ));
            }
        }
        if self
            .tag("Termination")
            .is_some_and(|t| t.starts_with("normal"))
        {
            let want = match game.result() {
                GameResult::Win(Color::White) => "2-0",
                GameResult::Win(Color::Black) => "0-2",
                GameResult::Draw => "1-1",
                GameResult::Ongoing => "*",
            };
            let tag = tag.unwrap_or("*");
            if want != tag {
                return Err(self.tag_error(
                    "Result",
                    format!(
                        "Result {} but the final position gives {want}",
                        printable(tag)
                    ),
                ));
            }
        }
        Ok(game)
    }
}

/// The games of the PDN text of `file`, each replayed and its result checked
/// ([`Replay::check`]): every game must read and check, and the file must hold one. The
/// error names every game that does not, one line each.
pub fn checked_games(file: &str, text: &str) -> Result<Vec<(PdnGame, Game)>, PdnFileError> {
    let (games, mut errors) = read_games(file, text);
    let mut good = Vec::new();
    for g in games {
        match g.check() {
            Ok(game) => good.push((g, game)),
            Err(e) => errors.push(e),
        }
    }
    errors.sort_by_key(|e| e.game);
    if !errors.is_empty() {
        return Err(PdnFileError::Games(errors));
    }
    if good.is_empty() {
        return Err(PdnFileError::NoGames(file.to_string()));
    }
    Ok(good)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header<'a>(result: &'a str) -> GameHeader<'a> {
        GameHeader {
            event: "t",
            date: "2024.01.02",
            round: 3,
            white: "W \"q\"",
            black: "B",
            result,
            time_control: "nodes=1".into(),
            termination: "normal: White has no legal move".into(),
            opening: "11-15",
        }
    }

    #[test]
    fn writes_and_reads_back() {
        let mut g = Game::new(Position::startpos(), 0, Rules::ENGLISH);
        for m in [
            "11-15", "23-19", "8-11", "22-17", "9-13", "17-14", "10x17", "21x14",
        ] {
            g.play_str(m).unwrap();
        }
        let text = write_game(&header("1-1"), &g);
        assert!(text.starts_with(
            "[Event \"t\"]\n[Date \"2024.01.02\"]\n[Round \"3\"]\n[White \"W \\\"q\\\"\"]\n"
        ));
        assert!(text.contains("[GameType \"21\"]\n[Variant \"English checkers\"]\n[Rules \"BackwardCapture=false LongKings=false DrawHalfMoves=80\"]\n"));
        // The standard start's FEN comes last, on a line indented by a tab.
        assert!(text.contains("[Opening \"11-15\"]\n[SetUp \"1\"]\n\t[FEN \"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\"]\n\n1. "));
        assert!(
            text.ends_with("\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 1-1\n\n")
        );
        let games = parse(&(text.clone() + &text)).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].result.as_deref(), Some("1-1"));
        let back = games[0].replay().unwrap();
        assert_eq!(back, g);
        // py-draughts' own header for American checkers.
        let theirs = "[GameType \"23\"]\n[Variant \"American checkers\"]\n[Result \"1-0\"]\n\
                      [FEN \"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\"]\n\
                      1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 1-0";
        let theirs = &parse(theirs).unwrap()[0];
        assert_eq!(theirs.game_rules().unwrap(), Rules::ENGLISH);
        assert_eq!(theirs.replay().unwrap(), g);
        assert_eq!(draughts_result("1-0"), "2-0");
        assert_eq!(draughts_result("0-1"), "0-2");
        assert_eq!(draughts_result("1/2-1/2"), "1-1");
    }

    #[test]
    fn fen_start_and_tolerant_reading() {
        let start = fen::parse("W:W18,K30:B14,K3").unwrap();
        let mut g = Game::new(start, 0, Rules::default());
        g.play_str("18x9").unwrap();
        let text = write_game(&header("2-0"), &g);
        assert!(
            text.contains("[GameType \"32,B,8,8,N1,0\"]\n[Variant \"Buff and Green checkers\"]\n")
        );
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"W:W18,K30:BK3,14\"]\n\n"));
        assert_eq!(parse(&text).unwrap()[0].replay().unwrap(), g);
        let loose = "[GameType \"21\"]\n{c} 1.11-15 (1... 23-18) 23-19 ; note\n2... 8-11! $1 *";
        let games = parse(loose).unwrap();
        assert_eq!(games[0].moves, ["11-15", "23-19", "8-11"]);
        assert_eq!(games[0].result.as_deref(), Some("*"));
        let err = parse("[GameType \"21\"]\n1. 11-17").unwrap()[0].replay();
        assert!(err
            .unwrap_err()
            .to_string()
            .starts_with("-:2:4: PDN game 1: ply 1: 11-17"));
    }

    /// A tag value is shown escaped in a check's error: the message stays one printable line
    /// (a property test found a tab in a damaged `Result` tag printed raw).
    #[test]
    fn result_errors_show_control_characters_escaped() {
        let text = "[GameType \"21\"]\n[Result \"\t\"]\n1. 11-15 *";
        let err = parse(text).unwrap()[0].check().unwrap_err().to_string();
        assert_eq!(
            err,
            "-:3:10: PDN game 1: Result tag \\t but the movetext ends *"
        );
        let text = "[GameType \"21\"]\n[Termination \"normal\"]\n[Result \"\t\"]\n1. 11-15";
        let err = parse(text).unwrap()[0].check().unwrap_err().to_string();
        assert_eq!(
            err,
            "-:3:1: PDN game 1: Result \\t but the final position gives *"
        );
    }
}
