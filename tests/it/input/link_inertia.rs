//! A model link whose principal moments are too large for its mass (the
//! uniform box of those moments lighter than 20 kg/m³) is flagged, the link
//! named: ur_description's published UR5 wrists (radius 0.6 m typed for
//! 0.06 m), an inertia in kg·mm² read as kg·m², an inertia about a joint
//! metres away. Honest light links (a thin-walled tube, a rim with no such
//! box) stay silent.

use crate::support::{evaluate_path, root};

/// The bundled UR5 tool case with the URDF's text edited by `edit`, both
/// in a temporary directory; the links named by `implausible_density`.
fn flagged_links(edit: &dyn Fn(String) -> String) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let urdf = std::fs::read_to_string(root().join("cases/models/ur5_robot.urdf")).unwrap();
    std::fs::write(dir.path().join("ur5.urdf"), edit(urdf)).unwrap();
    let case = std::fs::read_to_string(root().join("cases/ur5-tool.toml"))
        .unwrap()
        .replace("models/ur5_robot.urdf", "ur5.urdf");
    let path = dir.path().join("case.toml");
    std::fs::write(&path, case).unwrap();
    let ev = evaluate_path(&path);
    ev.report
        .model_checks
        .iter()
        .filter(|w| w.rule == "implausible_density")
        .map(|w| w.input.clone())
        .collect()
}

const WRIST_1: &str =
    r#"<inertia ixx="0.0025599" ixy="0.0" ixz="0.0" iyy="0.0025599" iyz="0.0" izz="0.0021942"/>"#;

#[test]
fn the_published_ur5_wrists_are_flagged() {
    assert!(flagged_links(&|s| s).is_empty(), "the corrected model");
    let published = flagged_links(&|s| {
        s.replace(
            WRIST_1,
            r#"<inertia ixx="0.111172755531" ixy="0.0" ixz="0.0" iyy="0.111172755531" iyz="0.0" izz="0.21942"/>"#,
        )
        .replace(
            r#"<inertia ixx="0.00039459" ixy="0.0" ixz="0.0" iyy="0.00039459" iyz="0.0" izz="0.00033822"/>"#,
            r#"<inertia ixx="0.0171364731454" ixy="0.0" ixz="0.0" iyy="0.0171364731454" iyz="0.0" izz="0.033822"/>"#,
        )
    });
    for link in ["wrist_1_link", "wrist_2_link", "wrist_3_link"] {
        assert!(
            published.iter().any(|w| w.contains(link)),
            "{link}: {published:?}"
        );
    }
}

/// The forearm's inertia (2.275 kg) in kg·mm² read as kg·m², and an
/// inertia taken about a point 1 m away, are both flagged; a thin-walled
/// tube of the forearm's mass and length is not.
#[test]
fn moments_too_large_for_the_mass_are_flagged_and_a_tube_is_not() {
    let forearm = |ixx: f64, iyy: f64, izz: f64| {
        move |s: String| {
            let start = s.find("<link name=\"forearm_link\">").unwrap();
            let at = start + s[start..].find("<inertia ").unwrap();
            let end = at + s[at..].find("/>").unwrap() + 2;
            format!(
                "{}<inertia ixx=\"{ixx}\" ixy=\"0.0\" ixz=\"0.0\" iyy=\"{iyy}\" iyz=\"0.0\" izz=\"{izz}\"/>{}",
                &s[..start + (at - start)],
                &s[end..]
            )
        }
    };
    let m = 2.275;
    // A thin-walled tube, radius 0.04 m, length 0.39 m: about its axis
    // m r², across m (r²/2 + L²/12).
    let (r, l) = (0.04f64, 0.39f64);
    let across = m * (r * r / 2.0 + l * l / 12.0);
    let tube = flagged_links(&forearm(across, across, m * r * r));
    assert!(tube.is_empty(), "{tube:?}");
    // The same in kg·mm² read as kg·m² (×10⁶).
    let mm = flagged_links(&forearm(1e6 * across, 1e6 * across, 1e6 * m * r * r));
    assert!(mm.iter().any(|w| w.contains("forearm_link")), "{mm:?}");
    // About a point 1 m off the centre, across the tube: + m d² on two axes.
    let d2 = m * 1.0;
    let off = flagged_links(&forearm(across + d2, across, m * r * r + d2));
    assert!(off.iter().any(|w| w.contains("forearm_link")), "{off:?}");
}
