//! Files: finding case files and writing reports without half-written
//! results.
//!
//! Every output is written to a temporary file in the destination directory
//! and renamed over the target, so a reader sees the old file or the new
//! one, never a partial one. `--check` compares instead of writing.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Expands the command-line paths: a directory stands for every `*.toml`
/// directly in it, in name order; files are taken as given.
pub fn case_files(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(p)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "toml") && f.is_file())
                .collect();
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// What `--check` found for one output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Freshness {
    /// The file has exactly these bytes.
    Current,
    /// The file differs.
    Stale,
    /// There is no such file.
    Missing,
}

/// Compares an existing file with the bytes it should have.
pub fn freshness(path: &Path, bytes: &[u8]) -> Freshness {
    match std::fs::read(path) {
        Ok(existing) if existing == bytes => Freshness::Current,
        Ok(_) => Freshness::Stale,
        Err(_) => Freshness::Missing,
    }
}
