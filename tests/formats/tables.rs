//! The reader of endgame table files (issue 40, "Must show"), fed damaged copies of real
//! tables: bytes flipped, the file cut short or padded, in the plain and the compressed
//! format. Opening the directory and probing must end without a panic, with values or with
//! one error line each.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use buffgreen::board::{fen, Rules};
use buffgreen::tablebase::build::{build, BuildOptions};
use buffgreen::tablebase::Tablebase;
use buffgreen_testkit::tables::options;
use proptest::prelude::*;

/// Positions of up to three pieces, each probed in every case.
const FENS: [&str; 6] = [
    "B:W14:BK10",
    "W:WK1:BK10,K19",
    "B:WK29:BK1",
    "W:W6:B1,K10",
    "B:W29,30:B25",
    "W:WK4:BK7,K16",
];

/// Builds the 3-piece English tables, plain and compressed, once per test binary.
fn good_tables() -> &'static [(PathBuf, Vec<String>); 2] {
    static DIRS: OnceLock<[(PathBuf, Vec<String>); 2]> = OnceLock::new();
    DIRS.get_or_init(|| {
        let make = |compress: bool| {
            let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
                "tb-readers-{}-{}",
                std::process::id(),
                if compress { "z" } else { "plain" }
            ));
            let _ = std::fs::remove_dir_all(&dir);
            let opts = BuildOptions {
                compress,
                ..options(&dir, 3, Rules::ENGLISH)
            };
            build(&opts, &mut |_| {}).expect("3-piece tables build");
            let mut files: Vec<String> = std::fs::read_dir(&dir)
                .expect("the table directory")
                .map(|e| {
                    e.expect("an entry")
                        .file_name()
                        .to_string_lossy()
                        .into_owned()
                })
                .collect();
            files.sort();
            (dir, files)
        };
        [make(false), make(true)]
    })
}

/// Every probe's answer (or error) for the tables in `dir`, or the error of opening it.
fn answers(dir: &Path) -> Result<Vec<Result<String, String>>, String> {
    let tb = Tablebase::open(dir, &Rules::ENGLISH).map_err(|e| e.to_string())?;
    Ok(FENS
        .iter()
        .map(|f| {
            let pos = fen::parse(f).expect("a good FEN");
            tb.probe_at(&pos, 0)
                .map(|v| v.to_string())
                .map_err(|e| e.to_string())
        })
        .collect())
}

fn copy_dir(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).expect("a case directory");
    for e in std::fs::read_dir(from).expect("the good tables") {
        let e = e.expect("an entry");
        std::fs::copy(e.path(), to.join(e.file_name())).expect("a copy");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn damaged_table_files_give_values_or_one_error_line(
        compressed in any::<bool>(),
        file in any::<usize>(),
        flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 0..4),
        cut in any::<usize>(),
        junk in proptest::collection::vec(any::<u8>(), 0..64),
    ) {
        let (good, files) = &good_tables()[usize::from(compressed)];
        let want = answers(good).expect("the good tables open");
        let case = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("tb-readers-case-{}", std::process::id()));
        copy_dir(good, &case);
        let name = &files[file % files.len()];
        let path = case.join(name);
        let mut bytes = std::fs::read(&path).expect("a slice file");
        for &(at, x) in &flips {
            if !bytes.is_empty() {
                let at = at % bytes.len();
                bytes[at] ^= x;
            }
        }
        bytes.truncate(cut % (bytes.len() + 1));
        if cut % 3 == 0 {
            bytes.extend_from_slice(&junk);
        }
        std::fs::write(&path, &bytes).expect("the damaged file");
        match answers(&case) {
            Err(e) => prop_assert!(!e.is_empty() && !e.contains('\n'), "{:?}", e),
            Ok(got) => {
                prop_assert_eq!(got.len(), want.len());
                for e in got.iter().filter_map(|g| g.as_ref().err()) {
                    prop_assert!(!e.is_empty() && !e.contains('\n'), "{:?}", e);
                }
            }
        }
        std::fs::remove_dir_all(&case).expect("the case directory");
    }
}
