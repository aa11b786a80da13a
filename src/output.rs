//! Files: finding case files and writing a set of outputs all or nothing.
//!
//! A run writes its outputs only after every input was read and every
//! output rendered. Each file is first written to an unpredictable temporary
//! name created exclusively in its destination directory (the `tempfile`
//! crate: `O_EXCL`, so a planted symlink is never followed; mode 0666 less
//! the umask like a plain create, or the mode of the file it replaces); only when all
//! are complete are they renamed over their targets. On any failure before
//! the renames, the temporary files and the directories this run created
//! are removed, so the destination is left as it was. `--check` compares
//! instead of writing.

use std::collections::BTreeMap;
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

/// Two outputs of one run that would land on the same file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collision {
    /// The file both would write.
    pub target: PathBuf,
    /// What the first one is (a case path, or "the index").
    pub first: String,
    /// What the second one is.
    pub second: String,
}

/// Finds targets claimed by more than one source, in order of appearance.
pub fn collisions<'a>(outputs: impl IntoIterator<Item = (&'a Path, &'a str)>) -> Vec<Collision> {
    let mut seen: BTreeMap<&Path, &str> = BTreeMap::new();
    let mut out = Vec::new();
    for (target, source) in outputs {
        match seen.get(target) {
            Some(first) if *first != source => out.push(Collision {
                target: target.to_path_buf(),
                first: first.to_string(),
                second: source.to_string(),
            }),
            Some(_) => {}
            None => {
                seen.insert(target, source);
            }
        }
    }
    out
}

/// Creates `dir` and its missing parents; returns the ones created, parents
/// first.
fn create_dirs(dir: &Path, created: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if dir.as_os_str().is_empty() || dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent() {
        create_dirs(parent, created)?;
    }
    match std::fs::create_dir(dir) {
        Ok(()) => {
            created.push(dir.to_path_buf());
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => Ok(()),
        Err(e) => Err(e),
    }
}

/// A write that failed: which file, and why.
#[derive(Debug)]
pub struct WriteError {
    /// The target (or directory) that could not be written.
    pub path: PathBuf,
    /// What the operating system said.
    pub error: std::io::Error,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write {}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for WriteError {}

/// Writes every `(path, bytes)` all or nothing: temporary files first, then
/// renames. Returns the paths written, in order.
pub fn write_all(outputs: &[(PathBuf, Vec<u8>)]) -> Result<Vec<PathBuf>, WriteError> {
    let mut created = Vec::new();
    let staged = stage(outputs, &mut created);
    let staged = match staged {
        Ok(s) => s,
        Err(e) => {
            // Temporary files are removed when dropped; then the empty
            // directories this run created, deepest first.
            for dir in created.iter().rev() {
                let _ = std::fs::remove_dir(dir);
            }
            return Err(e);
        }
    };
    let mut written = Vec::with_capacity(staged.len());
    for (tmp, target) in staged {
        tmp.persist(&target).map_err(|e| WriteError {
            path: target.clone(),
            error: e.error,
        })?;
        written.push(target);
    }
    Ok(written)
}

fn stage(
    outputs: &[(PathBuf, Vec<u8>)],
    created: &mut Vec<PathBuf>,
) -> Result<Vec<(tempfile::NamedTempFile, PathBuf)>, WriteError> {
    let mut staged = Vec::with_capacity(outputs.len());
    for (target, bytes) in outputs {
        let dir = target
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let fail = |path: &Path| {
            let path = path.to_path_buf();
            move |error| WriteError { path, error }
        };
        create_dirs(dir, created).map_err(fail(dir))?;
        if target.is_dir() {
            return Err(WriteError {
                path: target.clone(),
                error: std::io::Error::other("a directory is in the way"),
            });
        }
        let mut tmp = temp_builder().tempfile_in(dir).map_err(fail(target))?;
        keep_mode(&tmp, target).map_err(fail(target))?;
        tmp.write_all(bytes)
            .and_then(|()| tmp.as_file().sync_all())
            .map_err(fail(target))?;
        staged.push((tmp, target.clone()));
    }
    Ok(staged)
}

/// Temporary files are created with the mode a plain create gives
/// (0666 less the umask: `open` applies it), not `tempfile`'s 0600, so
/// that a report is as readable as any file the user writes.
fn temp_builder() -> tempfile::Builder<'static, 'static> {
    let mut b = tempfile::Builder::new();
    b.prefix(".meff-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    b
}

/// A file that is replaced keeps its permission bits (not set-id or
/// sticky bits; a symlink or anything else in the way gets the default).
fn keep_mode(tmp: &tempfile::NamedTempFile, target: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(meta) = std::fs::symlink_metadata(target)
            && meta.is_file()
        {
            let mode = meta.permissions().mode() & 0o777;
            tmp.as_file()
                .set_permissions(std::fs::Permissions::from_mode(mode))?;
        }
    }
    #[cfg(not(unix))]
    let _ = (tmp, target);
    Ok(())
}

/// Writes one file through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_all(&[(path.to_path_buf(), bytes.to_vec())])
        .map(|_| ())
        .map_err(|e| e.error)
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
