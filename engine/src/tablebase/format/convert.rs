//! `tb compress`: plain slice files (and compressed ones of version 2) turned into sparse
//! compressed ones in place, each written under a temporary name and renamed (as the builder
//! writes), so an interrupted conversion leaves every file whole, plain or compressed, and
//! running it again finishes the rest.

use std::path::Path;

use crate::tablebase::counting;
use crate::tablebase::format;
use crate::tablebase::{Material, TbError};

/// What a conversion did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompressReport {
    /// Files converted now.
    pub converted: usize,
    /// Files already sparse.
    pub kept: usize,
    /// Bytes of the converted files before.
    pub before: u64,
    /// Bytes of the converted files after.
    pub after: u64,
}

/// Compresses every file of `dir` that is not sparse yet (each checked whole first: a corrupt
/// file is an error, never compressed; tables of the 8x8 family are refused,
/// [`TbError::FamilySparse`]); `on_slice(material, bytes before, bytes after)`
/// after each; the work of each file runs on `threads` threads.
pub fn compress_dir(
    dir: &Path,
    threads: usize,
    on_slice: &mut dyn FnMut(Material, u64, u64),
) -> Result<CompressReport, TbError> {
    let files = format::scan(dir)?;
    if files.is_empty() {
        return Err(TbError::Empty(dir.to_path_buf()));
    }
    format::sweep_temporaries(dir)?;
    let mut report = CompressReport::default();
    if let Some((_, header)) = files
        .iter()
        .find(|(_, h)| counting::counts_material(&h.rules))
    {
        return Err(TbError::FamilySparse(header.rules.variant().name()));
    }
    for (path, header) in files {
        if header.sparse() {
            report.kept += 1;
            continue;
        }
        let before = std::fs::metadata(&path)
            .map_err(|e| TbError::io(&path, &e))?
            .len();
        let data = format::read(dir, header.material, &header.rules)?.data;
        let after = format::write_compressed(dir, header.material, &header.rules, &data, threads)?;
        report.converted += 1;
        report.before += before;
        report.after += after;
        on_slice(header.material, before, after);
    }
    Ok(report)
}
