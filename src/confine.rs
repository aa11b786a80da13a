//! Where a run may read files.
//!
//! A case names other files (a model, its `<include>`s, scene tables), and a
//! book's chapters name cases. When those come from strangers (a pull
//! request's book built in CI), a path such as `/etc/passwd` or
//! `../../.aws/credentials` must not be read at all. A [`Confine`] holds the
//! directory trees a run may read; every file meff opens for a case goes
//! through [`Confine::admit`] first. The command line reads anywhere unless
//! given `--confine DIR`; `meff mdbook` is always confined to the book's
//! root (and the directories its `book.toml` adds).
//!
//! A path is judged twice: lexically first (`..` and `.` resolved without
//! touching the file system, so a path outside the trees is refused without
//! even learning whether it exists), then by its canonical form (so a
//! symlink inside the tree that points out of it is refused too). The file
//! opened is the canonical path that was checked.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// The directory trees a run may read from; cheap to clone.
#[derive(Clone, Debug)]
pub struct Confine {
    roots: Arc<[PathBuf]>,
}

impl Confine {
    /// Confines reading to `dirs` (each made canonical; each must exist).
    pub fn new<P: AsRef<Path>>(dirs: &[P]) -> Result<Confine, String> {
        let mut roots = Vec::with_capacity(dirs.len());
        for d in dirs {
            let d = d.as_ref();
            let canon = std::fs::canonicalize(d).map_err(|e| {
                format!(
                    "cannot confine reading to {}: {e}",
                    crate::diag::escape_controls(&d.display().to_string())
                )
            })?;
            if !canon.is_dir() {
                return Err(format!(
                    "cannot confine reading to {}: not a directory",
                    crate::diag::escape_controls(&d.display().to_string())
                ));
            }
            roots.push(canon);
        }
        if roots.is_empty() {
            return Err("no directory to confine reading to".into());
        }
        Ok(Confine {
            roots: roots.into(),
        })
    }

    /// The trees, canonical.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// The canonical path to open for `path`, or why it may not be read.
    /// The message names the path as given and nothing of the file.
    pub fn admit(&self, path: &Path) -> Result<PathBuf, String> {
        let absolute = if path.is_absolute() {
            path.to_path_buf()
        } else {
            std::env::current_dir()
                .map_err(|e| format!("cannot resolve a relative path: {e}"))?
                .join(path)
        };
        let lexical = normalize(&absolute);
        if !self.contains(&lexical) {
            return Err(self.outside());
        }
        let canon = std::fs::canonicalize(&lexical).map_err(|e| e.to_string())?;
        if !self.contains(&canon) {
            return Err(self.outside());
        }
        Ok(canon)
    }

    fn contains(&self, p: &Path) -> bool {
        self.roots.iter().any(|r| p.starts_with(r))
    }

    fn outside(&self) -> String {
        let roots: Vec<String> = self
            .roots
            .iter()
            .map(|r| crate::diag::escape_controls(&r.display().to_string()).into_owned())
            .collect();
        format!(
            "outside the directories meff may read here ({}); it was not opened",
            roots.join(", ")
        )
    }
}

/// `.` dropped and `..` applied to the path before it, without looking at
/// the file system (`..` above the root stays at the root).
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Opens `path` for reading where `confine` (if any) allows: the path to
/// open, or the reason it may not be read.
pub fn admit(confine: Option<&Confine>, path: &Path) -> Result<PathBuf, String> {
    match confine {
        Some(c) => c.admit(path),
        None => Ok(path.to_path_buf()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_outside_the_tree_are_refused_lexically_and_through_symlinks() {
        let tree = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "key").unwrap();
        std::fs::create_dir(tree.path().join("cases")).unwrap();
        std::fs::write(tree.path().join("cases/a.toml"), "").unwrap();
        let c = Confine::new(&[tree.path()]).unwrap();
        let root = &c.roots()[0];
        assert_eq!(
            c.admit(&tree.path().join("cases/./a.toml")).unwrap(),
            root.join("cases/a.toml")
        );
        assert_eq!(
            c.admit(&tree.path().join("cases/../cases/a.toml")).unwrap(),
            root.join("cases/a.toml")
        );
        for p in [
            outside.path().join("secret"),
            tree.path()
                .join("../")
                .join(outside.path().file_name().unwrap()),
            tree.path().join("cases/../../x"),
            PathBuf::from("/etc/passwd"),
        ] {
            let e = c.admit(&p).unwrap_err();
            assert!(e.starts_with("outside"), "{p:?}: {e}");
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(
                outside.path().join("secret"),
                tree.path().join("cases/link.toml"),
            )
            .unwrap();
            let e = c.admit(&tree.path().join("cases/link.toml")).unwrap_err();
            assert!(e.starts_with("outside"), "{e}");
        }
        // No confinement: the path as given.
        assert_eq!(
            admit(None, Path::new("/etc/passwd")).unwrap(),
            PathBuf::from("/etc/passwd")
        );
    }
}
