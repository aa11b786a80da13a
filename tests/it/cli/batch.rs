//! `meff batch`: sharded runs merge to the bytes of one unsharded run, the
//! merge refuses incomplete or foreign shards, and the xargs example works.

use crate::support::{cli, evaluate_path, meff, root};
use std::path::Path;
use std::process::Command;

/// Writes `n` small planar scenes (CSV): a chain of 2–4 disks resting on
/// the world and on each other, with masses, radii and stiffnesses varied
/// deterministically from case to case.
fn write_scenes(dir: &Path, n: usize) {
    for i in 0..n {
        let bodies = 2 + i % 3;
        let mut b = String::from("mass,x,y,I\n");
        let mut c = String::from("body,other,px,py,nx,ny,k\n");
        for j in 0..bodies {
            let m = 1.0 + 0.37 * ((i * 7 + j * 3) % 11) as f64;
            let r = 0.05 + 0.01 * ((i + j) % 5) as f64;
            b.push_str(&format!(
                "{m},{},{},{}\n",
                0.2 * j as f64,
                r,
                0.5 * m * r * r
            ));
            let k = 1e5 * (1.0 + ((i * 13 + j) % 7) as f64);
            // Each disk on the floor, off its centre, and against the next.
            c.push_str(&format!("{j},-1,{},0,0,1,{k}\n", 0.2 * j as f64 + 0.3 * r));
            if j + 1 < bodies {
                c.push_str(&format!(
                    "{j},{},{},{r},-1,0,{}\n",
                    j + 1,
                    0.2 * j as f64 + 0.1,
                    2.0 * k
                ));
            }
        }
        let stem = format!("frame-{i:04}");
        std::fs::write(dir.join(format!("{stem}.bodies.csv")), b).unwrap();
        std::fs::write(dir.join(format!("{stem}.contacts.csv")), c).unwrap();
        std::fs::write(
            dir.join(format!("{stem}.toml")),
            format!(
                "title = \"Frame {i}\"\nspace = \"planar\"\n[scene]\nbodies = \"{stem}.bodies.csv\"\ncontacts = \"{stem}.contacts.csv\"\n"
            ),
        )
        .unwrap();
    }
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn sharded_batches_merge_to_the_unsharded_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = tmp.path().join("cases");
    std::fs::create_dir(&cases).unwrap();
    write_scenes(&cases, 1000);
    let (one, four) = (tmp.path().join("one"), tmp.path().join("four"));
    let c = cases.to_str().unwrap();
    let out = meff(["batch", c, "--out", one.to_str().unwrap(), "--no-verify"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Four shards through the committed xargs example, as a user runs it.
    let out = Command::new("sh")
        .arg(root().join("examples/batch/xargs.sh"))
        .args([c, four.to_str().unwrap(), "4"])
        .env("MEFF", env!("CARGO_BIN_EXE_meff"))
        .env("MEFF_ARGS", "--no-verify")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    for f in ["batch.json", "batch.md", "batch.html"] {
        assert!(read(&one.join(f)) == read(&four.join(f)), "{f} differs");
    }
    // The shards hold every case once, each the same line as unsharded.
    let lines = |p: &Path| -> Vec<String> {
        String::from_utf8(read(p))
            .unwrap()
            .lines()
            .skip(1)
            .map(String::from)
            .collect()
    };
    let mut sharded: Vec<String> = (1..=4)
        .flat_map(|k| lines(&four.join(format!("shard-{k}-of-4.jsonl"))))
        .collect();
    let index = |l: &String| {
        serde_json::from_str::<serde_json::Value>(l).unwrap()["index"]
            .as_u64()
            .unwrap()
    };
    sharded.sort_by_key(index);
    assert_eq!(sharded, lines(&one.join("shard-1-of-1.jsonl")));
    assert_eq!(sharded.len(), 1000);
    // The summary carries physics: every frame has a positive step, and
    // the worst frame's step is the smallest of them.
    let summary: serde_json::Value =
        serde_json::from_slice(&read(&one.join("batch.json"))).unwrap();
    let dts: Vec<f64> = summary["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["stable_dt"].as_f64().unwrap())
        .collect();
    assert!(dts.iter().all(|&d| d > 0.0));
    let min = dts.iter().copied().fold(f64::INFINITY, f64::min);
    assert_eq!(summary["worst_case"]["stable_dt"].as_f64().unwrap(), min);
}

#[test]
fn a_batch_record_agrees_with_eval() {
    let tmp = tempfile::tempdir().unwrap();
    write_scenes(tmp.path(), 3);
    let case = tmp.path().join("frame-0002.toml");
    let out = meff([
        "batch",
        case.to_str().unwrap(),
        "--out",
        tmp.path().join("out").to_str().unwrap(),
        "--no-verify",
    ]);
    assert!(out.status.success());
    let shard = String::from_utf8(read(&tmp.path().join("out/shard-1-of-1.jsonl"))).unwrap();
    let rec: serde_json::Value = serde_json::from_str(shard.lines().nth(1).unwrap()).unwrap();
    let ev = evaluate_path(&case);
    assert_eq!(
        rec["coupled_omega_max"].as_f64(),
        Some(ev.report.coupled_omega_max)
    );
    assert_eq!(rec["stable_dt"].as_f64(), ev.report.stable_dt.coupled);
    assert_eq!(
        rec["contacts"].as_u64(),
        Some(ev.report.contacts_total as u64)
    );
    // The listed contacts are the fastest ones, fastest first.
    let worst = rec["worst"].as_array().unwrap();
    let max = ev
        .report
        .contacts
        .iter()
        .map(|c| c.omega)
        .fold(0.0, f64::max);
    assert_eq!(worst[0]["omega"].as_f64(), Some(max));
    assert!(
        worst
            .windows(2)
            .all(|w| w[0]["omega"].as_f64() >= w[1]["omega"].as_f64())
    );
}

#[test]
fn merge_refuses_missing_foreign_and_damaged_shards() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = tmp.path().join("cases");
    std::fs::create_dir(&cases).unwrap();
    write_scenes(&cases, 7);
    let out = tmp.path().join("out");
    let run = |extra: &[&str], shard: &str| {
        let mut args = vec!["batch", cases.to_str().unwrap()];
        args.extend_from_slice(extra);
        args.extend([
            "--shard",
            shard,
            "--out",
            out.to_str().unwrap(),
            "--no-verify",
        ]);
        meff(&args)
    };
    let merge = || meff(["batch", "merge", out.to_str().unwrap()]);
    assert!(run(&[], "1/3").status.success());
    assert!(run(&[], "3/3").status.success());
    let m = merge();
    assert_eq!(m.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&m.stderr).contains("missing shard 2/3"));
    assert!(!out.join("batch.json").exists(), "nothing written");
    // A shard of another list (one case fewer) does not belong.
    let other = tmp.path().join("other");
    std::fs::create_dir(&other).unwrap();
    for f in std::fs::read_dir(&cases).unwrap() {
        let f = f.unwrap().path();
        if !f.to_string_lossy().contains("frame-0006") {
            std::fs::copy(&f, other.join(f.file_name().unwrap())).unwrap();
        }
    }
    let o = meff([
        "batch",
        other.to_str().unwrap(),
        "--shard",
        "2/3",
        "--out",
        out.to_str().unwrap(),
        "--no-verify",
    ]);
    assert!(o.status.success());
    let m = merge();
    assert_eq!(m.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&m.stderr).contains("does not belong"));
    // The right shard 2, then a truncated shard 3.
    assert!(run(&[], "2/3").status.success());
    assert!(merge().status.success());
    let s3 = out.join("shard-3-of-3.jsonl");
    let text = String::from_utf8(read(&s3)).unwrap();
    let cut: Vec<&str> = text.lines().collect();
    std::fs::write(&s3, cut[..cut.len() - 1].join("\n") + "\n").unwrap();
    let m = merge();
    assert_eq!(m.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&m.stderr).contains("truncated shard"));
    // A header that claims an enormous list or shard count is refused
    // before anything is sized by it (no allocation, no long loop).
    for (cases, shards) in [(u64::MAX / 2, 1u64), (1, u64::MAX / 2)] {
        let lone = tmp.path().join(format!("lone-{cases}-{shards}"));
        std::fs::create_dir(&lone).unwrap();
        std::fs::write(
            lone.join("shard-1-of-1.jsonl"),
            format!(
                "{{\"record\":\"shard\",\"shard\":1,\"shards\":{shards},\"cases\":{cases},\"list_sha256\":\"x\"}}\n"
            ),
        )
        .unwrap();
        cli(["batch", "merge", lone.to_str().unwrap()]).exits(2);
        assert!(!lone.join("batch.json").exists());
    }
    // Bad shard arguments are usage errors.
    for bad in ["0/3", "4/3", "x", "1/0"] {
        assert_eq!(run(&[], bad).status.code(), Some(2), "{bad}");
    }
}

#[test]
fn a_case_that_fails_is_recorded_and_the_batch_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    write_scenes(tmp.path(), 2);
    std::fs::write(
        tmp.path().join("frame-0001.contacts.csv"),
        "body,other,px,py,nx,ny,k\n0,-1,0,0,0,2,1e5\n",
    )
    .unwrap();
    let out = tmp.path().join("out");
    let o = meff([
        "batch",
        tmp.path().to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-verify",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let summary: serde_json::Value =
        serde_json::from_slice(&read(&out.join("batch.json"))).unwrap();
    assert_eq!(summary["errors"].as_u64(), Some(1));
    let rec = &summary["records"][1];
    assert_eq!(rec["status"], "error");
    assert!(
        rec["error"]
            .as_str()
            .unwrap()
            .contains("frame-0001.contacts.csv:2:"),
        "{rec}"
    );
}
