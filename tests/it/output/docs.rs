//! The reference in `docs/` matches what meff reads and writes.

use crate::support::{cli, meff_with_stdin, root};
use std::collections::BTreeSet;

fn paths(v: &serde_json::Value, prefix: &str, out: &mut BTreeSet<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                paths(x, &p, out);
            }
        }
        serde_json::Value::Array(a) => {
            let p = format!("{prefix}[]");
            if a.is_empty() {
                out.insert(p.clone());
            }
            for x in a {
                paths(x, &p, out);
            }
        }
        _ => {
            out.insert(prefix.to_string());
        }
    }
}

fn eval_json(args: &[&str], stdin: &str) -> serde_json::Value {
    let out = meff_with_stdin(args, stdin);
    assert!(out.status.code().is_some_and(|c| c <= 1), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn json_keys_are_documented() {
    let mut seen = BTreeSet::new();
    // The bundled cases, with verification.
    let dir = root().join("target").join("docs-json");
    let out = cli(["report", "cases", "--format", "json", "-o"])
        .arg(&dir)
        .output();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            paths(&v, "", &mut seen);
        }
    }
    // A large system (sparse path) and a case with display units.
    let mut large = String::from("title = \"chain\"\nspace = \"line\"\n");
    for i in 0..2101 {
        large.push_str(&format!(
            "[[body]]\nname = \"p{i}\"\ntype = \"particle\"\nmass = \"1 kg\"\n"
        ));
    }
    for i in 0..2100 {
        large.push_str(&format!(
            "[[contact]]\nname = \"c{i}\"\nbody = \"p{}\"\nother = \"p{i}\"\npoint = [\"0 m\"]\nnormal = [1]\nstiffness = \"1e4 N/m\"\n",
            i + 1
        ));
    }
    large.push_str("[[contact]]\nname = \"wall\"\nbody = \"p0\"\npoint = [\"0 m\"]\nnormal = [1]\nstiffness = \"1e4 N/m\"\n");
    paths(
        &eval_json(&["eval", "--json", "--no-verify", "-"], &large),
        "",
        &mut seen,
    );
    // Tangential springs on the large path: the run over every row.
    let friction = std::fs::read_to_string(root().join("cases/sphere-friction.toml")).unwrap()
        + "\n[analysis]\npath = \"large\"\n";
    paths(
        &eval_json(&["eval", "--json", "--no-verify", "-"], &friction),
        "",
        &mut seen,
    );
    let seed = std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap()
        + "\n[display]\ntime = \"ms\"\n";
    paths(
        &eval_json(&["eval", "--json", "--no-verify", "-"], &seed),
        "",
        &mut seen,
    );
    // A contact that takes its engine's spring.
    let engine = std::fs::read_to_string(root().join("cases/offcentre.toml"))
        .unwrap()
        .replace("stiffness = \"k\"\n", "")
        + "\n[engine.box2d]\n";
    paths(
        &eval_json(&["eval", "--json", "--no-verify", "-"], &engine),
        "",
        &mut seen,
    );

    let doc = std::fs::read_to_string(root().join("docs/json.md")).unwrap();
    let documented: BTreeSet<String> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect();
    let missing: Vec<&String> = seen.difference(&documented).collect();
    assert!(
        missing.is_empty(),
        "keys written but not in docs/json.md: {missing:?}"
    );
    let stale: Vec<&String> = documented.difference(&seen).collect();
    assert!(
        stale.is_empty(),
        "keys in docs/json.md that meff never wrote: {stale:?}"
    );
}

#[test]
fn every_case_key_is_documented() {
    let doc = std::fs::read_to_string(root().join("docs/case-format.md")).unwrap();
    for (table, keys) in meff::case::KEYS {
        for key in *keys {
            assert!(
                doc.contains(&format!("`{key}`"))
                    || doc.contains(&format!("{key} ="))
                    || doc.contains(&format!("`[{key}]`"))
                    || doc.contains(&format!("`[[{key}]]`")),
                "{table}: key `{key}` is not in docs/case-format.md"
            );
        }
    }
    // Every starter template is mentioned.
    for s in meff::starter::Starter::ALL {
        let name = format!("{s:?}").to_lowercase();
        assert!(doc.contains(&format!("`{name}`")), "template {name}");
    }
}
