//! Golden outputs: `meff eval --json` and the text table are pinned.
//! Regenerate with `UPDATE_EXPECT=1 cargo test`.

use crate::support::bundled;
use expect_test::expect_file;

#[test]
fn eval_json_two_corners() {
    let ev = bundled("two-corners.toml");
    expect_file!["../snapshots/two-corners.json"].assert_eq(&meff::render::json(&ev.report));
}

#[test]
fn eval_json_damped() {
    let ev = bundled("damped-corners.toml");
    expect_file!["../snapshots/damped-corners.json"].assert_eq(&meff::render::json(&ev.report));
}

#[test]
fn eval_text_offcentre() {
    let ev = bundled("offcentre.toml");
    expect_file!["../snapshots/offcentre.txt"]
        .assert_eq(&meff::render::text::summary(&ev.report, 4));
}

#[test]
fn json_has_the_spec_keys() {
    let ev = bundled("offcentre.toml");
    let v: serde_json::Value = serde_json::from_str(&meff::render::json(&ev.report)).unwrap();
    for key in [
        "title",
        "contacts",
        "delassus",
        "modes",
        "zero_modes",
        "independent_omega_max",
        "coupled_omega_max",
        "coupled_omega_upper_bound",
        "stable_dt",
        "claims",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    let c = &v["contacts"][0];
    for key in [
        "name",
        "a",
        "m_eff",
        "stiffness",
        "omega",
        "naive_mass",
        "omega_naive",
        "a_symbolic",
    ] {
        assert!(c.get(key).is_some(), "contact misses {key}");
    }
    assert_eq!(v["delassus"]["contacts"][0], "offcentre");
    assert_eq!(v["delassus"]["matrix"][0][0], 1.0);
    assert!(v["stable_dt"].get("coupled").is_some() && v["stable_dt"].get("independent").is_some());
    assert_eq!(v["claims"][0]["passed"], true);
}
