//! Where tables live when no directory is named: `<data folder>/buffgreen/tables/<rules>/`,
//! the platform's data folder (`$XDG_DATA_HOME` or `~/.local/share` on Linux), one sub-folder
//! per rule setting, so that `tb build` writes there by default and the engine finds the
//! tables of the rules it plays. The environment variable [`TABLES_ENV`] names another root
//! (empty: none), which the tests use so that they never read a user's tables.

use std::path::{Path, PathBuf};

use crate::board::Rules;

/// The environment variable that replaces the default root of the tables (empty: none).
pub const TABLES_ENV: &str = "BUFFGREEN_TABLES";

/// The root of the default tables: [`TABLES_ENV`] when set (`None` when empty), else
/// `<data folder>/buffgreen/tables`; `None` when the platform has no data folder.
pub fn default_root() -> Option<PathBuf> {
    match std::env::var_os(TABLES_ENV) {
        Some(v) => (!v.is_empty()).then(|| PathBuf::from(v)),
        None => dirs::data_dir().map(|d| d.join("buffgreen").join("tables")),
    }
}

/// The sub-folder of a rule setting: `english`, `buff-and-green`, `backward-capture` or
/// `long-kings`, then `-d<DrawHalfMoves>`, then `-losing` for losing checkers; e.g.
/// `english-d80`.
pub fn rules_folder(rules: &Rules) -> String {
    let switches = rules.variant().tables_folder();
    let losing = if rules.losing { "-losing" } else { "" };
    format!("{switches}-d{}{losing}", rules.draw_half_moves)
}

/// The directory of the tables of `rules` under `dir`: its sub-folder for the rules when
/// there is one, else `dir` itself (a folder of tables of one rule setting).
pub fn resolve(dir: &Path, rules: &Rules) -> PathBuf {
    let sub = dir.join(rules_folder(rules));
    if sub.is_dir() {
        sub
    } else {
        dir.to_path_buf()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_setting_has_its_own_folder() {
        assert_eq!(rules_folder(&Rules::ENGLISH), "english-d80");
        assert_eq!(rules_folder(&Rules::BUFF_AND_GREEN), "buff-and-green-d80");
        let losing = Rules {
            losing: true,
            draw_half_moves: 0,
            ..Rules::ENGLISH
        };
        assert_eq!(rules_folder(&losing), "english-d0-losing");
    }
}
