//! What the integration tests share: running the meff binary (one builder,
//! [`cli`], for arguments, standard input, environment and the exit status
//! a test expects), scratch directories, the bundled cases, evaluating case
//! text, and the input an mdBook build sends a preprocessor.

pub mod robots;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The seed block (a = 1/kg, m_eff = 1 kg, ω = 316.2278 rad/s) with one
/// off-centre contact `c` and no claims; tests append what they check.
pub const SEED_CASE: &str = r#"title = "Seed"
[parameters]
m = "2 kg"
I = "0.020 kg m^2"
r = "0.10 m"
k = "1e5 N/m"
[[body]]
name = "block"
type = "rigid"
mass = "m"
inertia = "I"
[[contact]]
name = "c"
body = "block"
point = ["r", "0 m"]
normal = [0, 1]
stiffness = "k"
"#;

/// The project root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The bundled case files (`cases/*.toml`, sorted; model files beside
/// them are not cases).
pub fn bundled_case_paths() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("cases"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    paths
}

/// True for a case whose system comes from an MJCF or URDF model, or
/// from a scene's files (a LAMMPS dump): no closed forms are derived for it.
pub fn is_model_case(ev: &meff::Evaluated) -> bool {
    matches!(ev.case.form, meff::case::Form::Robot(_)) || ev.case.scene.is_some()
}

/// Loads and evaluates a bundled case by file name.
pub fn bundled(name: &str) -> meff::Evaluated {
    let path = root().join("cases").join(name);
    evaluate_path(&path)
}

/// Loads and evaluates a case file, panicking with the diagnostics on error.
pub fn evaluate_path(path: &Path) -> meff::Evaluated {
    let case = meff::case::load(path).unwrap_or_else(|e| panic!("{e}"));
    meff::evaluate(case).unwrap_or_else(|e| panic!("{e}"))
}

/// Evaluates case text.
pub fn evaluate_str(source: &str) -> meff::Evaluated {
    let case = meff::case::parse_case("test.toml", source).unwrap_or_else(|e| panic!("{e}"));
    meff::evaluate(case).unwrap_or_else(|e| panic!("{e}"))
}

/// Loads a bundled case and evaluates it with the time-domain verification.
pub fn verified(name: &str) -> meff::Evaluated {
    let case = meff::case::load(&root().join("cases").join(name)).unwrap();
    meff::evaluate_with(
        case,
        meff::Options {
            verify: true,
            progress: None,
            ..Default::default()
        },
    )
    .unwrap()
}

/// Asserts |a − b| ≤ rel·max(|a|, |b|) (or ≤ rel when both are tiny).
#[track_caller]
pub fn assert_close(a: f64, b: f64, rel: f64) {
    let scale = a.abs().max(b.abs()).max(1e-300);
    assert!((a - b).abs() <= rel * scale, "{a} vs {b} (rel {rel})");
}

/// A fresh, empty directory `meff-<name>-<pid>` under the system's
/// temporary directory, removed when the guard drops unless the test is
/// failing (then kept, for a look at what failed).
pub fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("meff-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// The directory [`scratch`] made; a path by deref.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A run of the meff binary being set up: from the repository root, with
/// no standard input unless [`Cli::stdin`] gives one.
#[must_use]
pub struct Cli {
    command: Command,
    input: Option<Vec<u8>>,
}

/// The meff binary with `args`; see [`Cli`].
pub fn cli<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Cli {
    let mut command = Command::new(env!("CARGO_BIN_EXE_meff"));
    command.args(args).current_dir(root());
    Cli {
        command,
        input: None,
    }
}

/// Runs the meff binary with `args` from the repository root, with no
/// standard input.
pub fn meff<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Output {
    cli(args).output()
}

/// Runs the meff binary with `args` (from the repository root), `input` on
/// its standard input.
pub fn meff_with_stdin(args: &[&str], input: &str) -> Output {
    cli(args).stdin(input).output()
}

impl Cli {
    /// One more argument.
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Self {
        self.command.arg(arg);
        self
    }

    /// Sets an environment variable.
    pub fn env(mut self, key: &str, value: impl AsRef<OsStr>) -> Self {
        self.command.env(key, value);
        self
    }

    /// Removes an environment variable.
    pub fn env_remove(mut self, key: &str) -> Self {
        self.command.env_remove(key);
        self
    }

    /// Runs in `dir` instead of the repository root.
    pub fn dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.command.current_dir(dir);
        self
    }

    /// Gives `input` on standard input.
    pub fn stdin(mut self, input: &str) -> Self {
        self.input = Some(input.as_bytes().to_vec());
        self
    }

    /// Sends standard output to `to` (a file, `/dev/full`…) instead of
    /// capturing it.
    pub fn stdout(mut self, to: impl Into<Stdio>) -> Self {
        self.command.stdout(to);
        self
    }

    /// The command as set up, for a test that drives the process itself
    /// (closes a pipe early, for instance).
    pub fn command(self) -> Command {
        self.command
    }

    /// Runs to the end and returns what it wrote and its status.
    pub fn output(mut self) -> Output {
        use std::io::Write;
        let Some(input) = self.input else {
            return self.command.stdin(Stdio::null()).output().unwrap();
        };
        let mut child = self
            .command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(&input).unwrap();
        child.wait_with_output().unwrap()
    }

    /// Runs to the end and asserts the exit status `code` (the standard
    /// error is shown when it is not).
    #[track_caller]
    pub fn exits(self, code: i32) -> Output {
        let out = self.output();
        assert_exit(&out, code);
        out
    }

    /// Runs to the end and asserts bad input: exit 2, no panic, and `said`
    /// in the standard error, which it returns.
    #[track_caller]
    pub fn refuses(self, said: &str) -> String {
        refused(&self.output(), said)
    }
}

/// The standard output, as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The standard error, as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts the exit status `code` (the standard error is shown when it is
/// not).
#[track_caller]
pub fn assert_exit(out: &Output, code: i32) {
    assert_eq!(out.status.code(), Some(code), "{}", stderr(out));
}

/// Asserts bad input: exit 2, no panic, and `said` in the standard error,
/// which it returns.
#[track_caller]
pub fn refused(out: &Output, said: &str) -> String {
    let stderr = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains(said), "{said:?} not in {stderr}");
    stderr
}

/// What mdBook sends a preprocessor: the book at `book_root` (its
/// `config`) with one chapter at `path` holding `content`; with
/// `mdbook_version` when given.
pub fn book_input(
    book_root: &Path,
    config: serde_json::Value,
    renderer: &str,
    mdbook_version: Option<&str>,
    path: &str,
    content: &str,
) -> String {
    let mut context = serde_json::json!({
        "root": book_root, "config": config, "renderer": renderer,
    });
    if let Some(v) = mdbook_version {
        context["mdbook_version"] = serde_json::json!(v);
    }
    serde_json::json!([
        context,
        { "items": [ { "Chapter": {
            "name": "chapter", "content": content, "number": [1], "sub_items": [],
            "path": path, "source_path": path, "parent_names": []
        } } ] }
    ])
    .to_string()
}

/// The seed case with one claim that holds.
pub static SEED: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!("{SEED_CASE}[[claim]]\nof = \"m_eff(c)\"\nequals = \"m*I/(I + m*r^2)\"\n")
});

/// Evaluates case text with the time-domain verification.
pub fn verified_str(text: &str) -> meff::Evaluated {
    let case = meff::case::parse_case("test.toml", text).expect("valid case");
    meff::evaluate_with(
        case,
        meff::Options {
            verify: true,
            ..Default::default()
        },
    )
    .expect("evaluates")
}

/// Runs `meff eval --no-verify` on case text written to `<name>.toml` in a
/// fresh scratch directory; returns the exit code, stdout and stderr, and
/// asserts there was no panic.
pub fn eval_text(name: &str, text: &str) -> (Option<i32>, String, String) {
    let dir = scratch(name);
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    let out = meff(["eval", "--no-verify", path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
    )
}

/// Runs `meff eval --no-verify -` with case text on standard input.
pub fn eval_stdin(case: &str) -> Output {
    meff_with_stdin(&["eval", "--no-verify", "-"], case)
}

/// Reads a text file, naming it when that fails.
pub fn read_text(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A planar block on two contacts with unequal dashpots.
pub fn dashpot_block(c1: f64, c2: f64, r: f64) -> String {
    format!(
        r#"title = "Block on two damped contacts"
space = "planar"
[[body]]
name = "block"
type = "rigid"
mass = "2 kg"
inertia = "0.02 kg m^2"
position = ["0 m", "0.05 m"]
[[contact]]
name = "left"
body = "block"
point = ["-{r} m", "0 m"]
normal = [0, 1]
stiffness = "1e5 N/m"
damping = "{c1} N s/m"
[[contact]]
name = "right"
body = "block"
point = ["{r} m", "0 m"]
normal = [0, 1]
stiffness = "1e5 N/m"
damping = "{c2} N s/m"
"#
    )
}

/// A 20 mm steel ball on a plate through a Hertz contact `plate` (R* = r):
/// parameters `m = 0.0327 kg` and `r = 0.01 m`, then the lines `params`;
/// `law`: the contact's Hertz keys after `law = "hertz"` and `radius`.
pub fn hertz_ball(params: &str, law: &str) -> String {
    format!(
        r#"
space = "3d"
[parameters]
m = "0.0327 kg"
r = "0.01 m"
{params}
[[body]]
name = "ball"
type = "rigid"
mass = "m"
inertia = ["2/5*m*r^2", "2/5*m*r^2", "2/5*m*r^2"]
position = ["0 m", "0 m", "r"]
[[contact]]
name = "plate"
body = "ball"
point = ["0 m", "0 m", "0 m"]
normal = [0, 0, 1]
law = "hertz"
radius = "r"
{law}
"#
    )
}

/// A number as the sheets print it: `316.2`, `2.366 × 10⁴`, `−0.5`.
pub fn printed_number(s: &str) -> Option<f64> {
    let s = s.trim().replace('−', "-");
    let (m, e) = match s.split_once(" × 10") {
        Some((m, e)) => {
            let e: String = e
                .chars()
                .map(|c| match c {
                    '⁻' => '-',
                    c => "⁰¹²³⁴⁵⁶⁷⁸⁹"
                        .chars()
                        .position(|d| d == c)
                        .map_or(c, |i| char::from(b'0' + i as u8)),
                })
                .collect();
            (m.to_string(), e.parse::<i32>().ok()?)
        }
        None => (s, 0),
    };
    Some(m.parse::<f64>().ok()? * 10f64.powi(e))
}
