//! The robot sketch draws every link (issue 36): the last link out to its
//! centre of mass and every body to the contact points on it, so no link
//! is a lone point (the MuJoCo arm's forearm was drawn as its elbow dot).

fn sketch(name: &str) -> meff::report::sketch::Sketch {
    let ev = crate::support::evaluate_path(&crate::support::root().join("cases").join(name));
    ev.report.sketch.clone().expect("a sketch")
}

fn dist(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).powi(2))
        .sum::<f64>()
        .sqrt()
}

#[test]
fn every_contact_point_ends_a_link_of_its_body() {
    for name in ["engine-mujoco-arm.toml", "ur5-tool.toml"] {
        let sk = sketch(name);
        assert!(!sk.contacts.is_empty());
        for c in &sk.contacts {
            assert!(
                sk.links.iter().any(|(_, end)| dist(end, &c.point) < 1e-9),
                "{name}: no link reaches contact {}",
                c.name
            );
        }
    }
}

#[test]
fn the_arms_forearm_is_drawn_to_its_tip() {
    let sk = sketch("engine-mujoco-arm.toml");
    // Shoulder → elbow (0.4 m), elbow → the forearm's centre of mass
    // (0.175 m, the 0.35 m capsule's middle), elbow → the tip (0.36 m).
    let lengths: Vec<f64> = sk.links.iter().map(|(a, b)| dist(a, b)).collect();
    for want in [0.4, 0.175, 0.36] {
        assert!(
            lengths.iter().any(|l| (l - want).abs() < 1e-9),
            "no link of {want} m in {lengths:?}"
        );
    }
    // The forearm's links start at the elbow, where the upper arm ends.
    let elbow = sk.links[0].1;
    assert_eq!(
        sk.links
            .iter()
            .filter(|(a, _)| dist(a, &elbow) < 1e-12)
            .count(),
        2
    );
    // And the drawing has them: one line per link.
    let svg = meff::render::sketch::svg(&sk);
    assert!(
        svg.matches("<line").count() + svg.matches("<polyline").count() >= 3,
        "{svg}"
    );
}
