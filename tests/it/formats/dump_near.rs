//! A dump's near contacts (dem48, signer 48a's granular pile): a gap below
//! `NEAR_FRACTION` of the smaller radius is counted, and the step with it
//! closed (the same law) is the headline's when it is shorter; a settled
//! dump with no near pair keeps its step and headline.

use crate::support::{evaluate_path, meff, scratch};

/// The Markdown sheet of the case at `toml`, written into `out`.
fn sheet(toml: &std::path::Path, out: &std::path::Path) -> String {
    let o = meff([
        "report",
        "--no-verify",
        toml.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(out.join("p.md")).unwrap()
}

const R: f64 = 0.005;
const M: f64 = 1.309e-3;

/// Two spheres: a on the floor, b above a with a gap `gap` (m) between
/// them (b touches nothing in the snapshot; closed, floor–a–b is a chain).
fn case(dir: &std::path::Path, gap: f64) -> std::path::PathBuf {
    let z = R - 5e-5;
    let atoms = [(0.05, 0.05, z), (0.05, 0.05, z + 2.0 * R + gap)];
    let mut dump = format!(
        "ITEM: TIMESTEP\n100\nITEM: NUMBER OF ATOMS\n{}\nITEM: BOX BOUNDS ff ff ff\n0 0.1\n0 0.1\n0 0.1\nITEM: ATOMS id type x y z radius mass\n",
        atoms.len()
    );
    for (i, (x, y, z)) in atoms.iter().enumerate() {
        dump.push_str(&format!("{} 1 {x} {y} {z} {R} {M}\n", i + 1));
    }
    std::fs::write(dir.join("p.dump"), dump).unwrap();
    let toml = dir.join("p.toml");
    std::fs::write(
        &toml,
        "title = \"near\"\nspace = \"3d\"\n\n[scene]\ndump = \"p.dump\"\ncontact = { stiffness = \"1e5 N/m\", damping = \"0.2 N s/m\" }\ntolerance = \"5 um\"\nwalls = [\"zlo\"]\n",
    )
    .unwrap();
    toml
}

fn json(ev: &meff::Evaluated) -> serde_json::Value {
    serde_json::from_str(&meff::render::json(&ev.report)).unwrap()
}

#[test]
fn a_near_pair_closed_sets_a_shorter_step_and_the_headline_says_so() {
    let d = scratch("dem48-near");
    // 5 % of r: near (below 10 %); 20 % of r: not near.
    let near = evaluate_path(&case(&d, 0.05 * R));
    let near_md = sheet(&case(&d, 0.05 * R), &d.join("n"));
    let settled = evaluate_path(&case(&d, 0.2 * R));
    let settled_md = sheet(&case(&d, 0.2 * R), &d.join("s"));
    let (n, s) = (json(&near), json(&settled));
    // The snapshot's own contacts are the same (a on the floor alone).
    assert_eq!(n["contacts_total"], s["contacts_total"]);
    let snap = n["stable_dt"]["governing"].as_f64().unwrap();
    assert_eq!(Some(snap), s["stable_dt"]["governing"].as_f64());
    assert_eq!(n["near"]["count"].as_u64(), Some(1));
    assert_eq!(
        n["near"]["closed_contacts"].as_u64(),
        n["contacts_total"].as_u64().map(|c| c + 1)
    );
    let closed = n["near"]["closed_dt"].as_f64().unwrap();
    assert!(closed < snap * 0.999, "{closed} vs {snap}");
    assert_eq!(n["near"]["governs"], true);
    let head = near_md
        .lines()
        .find(|l| l.starts_with("Use **Δt ≤"))
        .unwrap();
    assert!(head.contains("near contact closed"), "{head}");
    // The step the headline states is the closed one, rounded down.
    let shown = meff::number::time(meff::number::at_most(closed, 4), 4);
    assert!(
        head.contains(&meff::number::pretty(&shown)),
        "{head} / {shown}"
    );
    // Settled: no near pair, no second step, a headline without them.
    assert_eq!(s["near"]["count"].as_u64(), Some(0));
    assert!(s["near"]["closed_dt"].is_null());
    assert!(!settled_md.contains("near contact"), "{settled_md}");
    assert!(settled_md.contains("Use **Δt ≤"), "{settled_md}");
    assert!(
        near_md.contains("| scene file | `p.dump`, SHA-256 `"),
        "{near_md}"
    );
    // The title block names the dump with its SHA-256.
    let files = n["scene_files"].as_array().unwrap();
    assert_eq!(files[0]["file"], "p.dump");
    assert_eq!(files[0]["sha256"].as_str().unwrap().len(), 64);
}
