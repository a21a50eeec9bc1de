//! The engine's replies a client reads: search `info` lines, `bestmove`, `option` and error
//! lines (protocol.md).

/// One `info` line of a search, as the page shows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Info {
    /// `multipv` rank (1 when absent).
    pub multipv: u32,
    /// `depth`.
    pub depth: u32,
    /// `score cp` value.
    pub cp: Option<i32>,
    /// `score mate` value.
    pub mate: Option<i32>,
    /// `wdl` per mille.
    pub wdl: Option<[u32; 3]>,
    /// `nodes`.
    pub nodes: u64,
    /// `nps`.
    pub nps: u64,
    /// `tbhits`, when the engine probes tables.
    pub tbhits: Option<u64>,
    /// `pv` moves.
    pub pv: Vec<String>,
}

impl Info {
    /// Reads a search `info` line; `None` for other lines (`info string` included).
    pub fn parse(line: &str) -> Option<Info> {
        let rest = line.strip_prefix("info ")?;
        if rest.starts_with("string") {
            return None;
        }
        let mut info = Info {
            multipv: 1,
            ..Info::default()
        };
        let mut it = rest.split_whitespace();
        let mut seen_score = false;
        while let Some(key) = it.next() {
            let mut num = || it.next().and_then(|v| v.parse::<i64>().ok());
            match key {
                "depth" => info.depth = num()? as u32,
                "multipv" => info.multipv = num()? as u32,
                "nodes" => info.nodes = num()? as u64,
                "nps" => info.nps = num()? as u64,
                "tbhits" => info.tbhits = Some(num()? as u64),
                "score" => {
                    seen_score = true;
                    match it.next()? {
                        "cp" => info.cp = Some(it.next()?.parse().ok()?),
                        "mate" => info.mate = Some(it.next()?.parse().ok()?),
                        _ => return None,
                    }
                }
                "wdl" => {
                    let mut v = [0; 3];
                    for x in &mut v {
                        *x = it.next()?.parse().ok()?;
                    }
                    info.wdl = Some(v);
                }
                "pv" => {
                    info.pv = it.by_ref().map(str::to_string).collect();
                }
                _ => {
                    it.next();
                }
            }
        }
        seen_score.then_some(info)
    }

    /// The score in words: `+0.35`, `mate in 3`, `TB win in 12 plies`.
    pub fn score_text(&self) -> String {
        if let Some(m) = self.mate {
            return if m > 0 {
                format!("mate in {m}")
            } else {
                format!("mated in {}", -m)
            };
        }
        let cp = self.cp.unwrap_or(0);
        // protocol.md: evaluations never exceed 1320; beyond 10000 is a tablebase result.
        if cp > 10000 {
            format!("TB win in {} plies", 20000 - cp)
        } else if cp < -10000 {
            format!("TB loss in {} plies", 20000 + cp)
        } else if cp == 0 && self.tbhits.is_some() && self.wdl == Some([0, 1000, 0]) {
            "TB draw".to_string()
        } else {
            format!("{:+.2}", cp as f64 / 100.0)
        }
    }
}

/// The words after `key` in an `info` line (not in the free text of an `info string`).
pub fn info_after<'a>(line: &'a str, key: &str) -> Option<std::str::SplitWhitespace<'a>> {
    let mut w = line.split_whitespace();
    if w.next() != Some("info") {
        return None;
    }
    while let Some(word) = w.next() {
        if word == "string" {
            return None;
        }
        if word == key {
            return Some(w);
        }
    }
    None
}

/// The count of an `info ... nodes N ...` line.
pub fn info_nodes(line: &str) -> Option<u64> {
    info_after(line, "nodes")?.next()?.parse().ok()
}

/// The first whitespace-separated word of a line.
pub fn first_word(line: &str) -> Option<&str> {
    line.split_whitespace().next()
}

/// The move of a `bestmove` line: its second word, or `""` when it has none; `None` for
/// other lines.
pub fn bestmove(line: &str) -> Option<&str> {
    let mut w = line.split_whitespace();
    (w.next() == Some("bestmove")).then(|| w.next().unwrap_or(""))
}

/// The text of an `info string error: ...` line.
pub fn error_text(line: &str) -> Option<&str> {
    line.strip_prefix("info string error: ")
}

/// Whether a line is an engine's complaint (`info string error...`).
pub fn is_complaint(line: &str) -> bool {
    line.starts_with("info string error")
}

/// The `max` of an `option name Seed type spin ... max N` line.
pub fn seed_option_max(line: &str) -> Option<u64> {
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.get(..5)? != ["option", "name", "Seed", "type", "spin"] {
        return None;
    }
    let i = w.iter().position(|x| *x == "max")?;
    w.get(i + 1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_parse() {
        let i = Info::parse(
            "info depth 6 seldepth 21 multipv 2 score cp 12 wdl 373 289 338 nodes 498113 nps 497615 time 1001 pv 8-11 22-17",
        )
        .unwrap();
        assert_eq!(i.multipv, 2);
        assert_eq!(i.cp, Some(12));
        assert_eq!(i.wdl, Some([373, 289, 338]));
        assert_eq!(i.pv, ["8-11", "22-17"]);
        assert_eq!(i.score_text(), "+0.12");
        assert!(Info::parse("info string reused 5 nodes").is_none());
        let tb = Info::parse(
            "info depth 1 score cp 19988 wdl 1000 0 0 nodes 5 nps 1 tbhits 9 time 1 pv 1-5",
        )
        .unwrap();
        assert_eq!(tb.score_text(), "TB win in 12 plies");
    }

    #[test]
    fn seed_option() {
        let l = "option name Seed type spin default 0 min 0 max 2147483647";
        assert_eq!(seed_option_max(l), Some(2_147_483_647));
        assert_eq!(
            seed_option_max("option name Seed type string default x"),
            None
        );
        assert_eq!(seed_option_max("option name Hash type spin max 9"), None);
    }

    #[test]
    fn nodes_of_info_lines() {
        assert_eq!(
            info_nodes("info depth 3 nodes 1234 nps 9 pv 11-15"),
            Some(1234)
        );
        assert_eq!(info_nodes("info string nodes 5"), None);
        assert_eq!(info_nodes("bestmove 11-15 nodes 5"), None);
        assert_eq!(info_nodes("info nodes x"), None);
    }

    #[test]
    fn bestmove_lines() {
        assert_eq!(bestmove("bestmove 11-15 ponder 22-18"), Some("11-15"));
        assert_eq!(bestmove("bestmove"), Some(""));
        assert_eq!(bestmove("info bestmove 1-5"), None);
        assert_eq!(error_text("info string error: bad"), Some("bad"));
    }
}
