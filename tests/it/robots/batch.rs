//! The compiled batch path (`robot::probe`: welded tree, four
//! configurations per lane group) against the MuJoCo and Pinocchio
//! references and at its edges.

use crate::support::robots::{configuration, dir, floats, load, rel};
use nalgebra::{DMatrix, DVector, Vector3};
use serde_json::Value;

/// The compiled batch path (welded tree, four configurations per lane
/// group, `robot::probe`) gives MuJoCo's and Pinocchio's effective masses
/// contact by contact, and a configuration's numbers are the same bits
/// alone and in a batch of any size.
#[test]
fn the_compiled_batch_path_gives_the_references_effective_masses() {
    use meff::robot::probe::{Compiled, Target};
    let text = std::fs::read_to_string(dir().join("reference.json")).unwrap();
    let reference: Value = serde_json::from_str(&text).unwrap();
    let mut checked = 0;
    for m in reference["models"].as_array().unwrap() {
        let file = m["file"].as_str().unwrap();
        let robot = load(file);
        let compiled = Compiled::new(robot.clone());
        let tree = &robot.tree;
        let configs = m["configurations"].as_array().unwrap();
        let qs: Vec<Vec<f64>> = configs
            .iter()
            .map(|c| configuration(tree, file, c))
            .collect();
        for (ci, c) in configs.iter().enumerate() {
            let kin = tree.kinematics(&qs[ci]);
            for contact in c["contacts"].as_array().unwrap() {
                let b = match contact["body_index"].as_u64() {
                    Some(i) if contact["body"].is_null() => i as usize,
                    _ => tree.body_index(contact["body"].as_str().unwrap()).unwrap(),
                };
                let local = Vector3::from_vec(floats(&contact["point"]));
                let normal = Vector3::from_vec(floats(&contact["normal"]));
                for (constrained, key) in [(false, "m_eff"), (true, "m_eff_constrained")] {
                    let Some(want) = contact[key].as_f64() else {
                        continue;
                    };
                    if !constrained
                        && !robot.constraints.is_empty()
                        && contact["m_eff_constrained"].is_null()
                    {
                        continue;
                    }
                    let target = Target {
                        body: b,
                        point: tree.to_world(&kin, b, &local),
                        normals: vec![normal],
                        local: false,
                        armature: true,
                        constrained,
                    };
                    let mut got = [0.0];
                    compiled.effective_masses(&qs[ci], &target, &mut got);
                    assert!(
                        rel(got[0], want, want) <= 1e-9,
                        "{file} config {ci} {key}: compiled {} vs {want}",
                        got[0]
                    );
                    checked += 1;
                }
            }
        }
        // The first contact's point and normal fixed in its body, over all
        // configurations at once (odd counts leave lanes to pad), against
        // the full tree's M and rows at each configuration.
        let first = &configs[0]["contacts"][0];
        let b = match first["body_index"].as_u64() {
            Some(i) if first["body"].is_null() => i as usize,
            _ => tree.body_index(first["body"].as_str().unwrap()).unwrap(),
        };
        let local = Vector3::from_vec(floats(&first["point"]));
        let normals = vec![Vector3::new(0.3, -0.5, 0.81).normalize(), Vector3::z()];
        let target = Target {
            body: b,
            point: local,
            normals: normals.clone(),
            local: true,
            armature: true,
            constrained: false,
        };
        let flat: Vec<f64> = qs.iter().flatten().copied().collect();
        let mut batch = vec![0.0; qs.len() * 2];
        compiled.effective_masses(&flat, &target, &mut batch);
        for (ci, q) in qs.iter().enumerate() {
            let kin = tree.kinematics(q);
            let mm = DMatrix::from_row_slice(tree.nv, tree.nv, &tree.mass_matrix(&kin, true));
            let chol = mm.cholesky().expect("M is positive definite");
            for (d, n) in normals.iter().enumerate() {
                let p = tree.place(&kin, b, &local);
                let r = DVector::from_vec(tree.point_row(&kin, b, &p, &(kin.xrot[b] * n)));
                let want = 1.0 / r.dot(&chol.solve(&r));
                let got = batch[ci * 2 + d];
                assert!(
                    got == want || rel(got, want, want) <= 1e-11,
                    "{file} config {ci}: batch {got} vs {want}"
                );
            }
            let mut alone = [0.0; 2];
            compiled.effective_masses(q, &target, &mut alone);
            assert_eq!(
                alone,
                batch[ci * 2..ci * 2 + 2],
                "{file} config {ci}: alone vs in the batch"
            );
        }
        // A batch long enough to run in parallel chunks: the same bits.
        let many: Vec<f64> = (0..300).flat_map(|i| qs[i % qs.len()].clone()).collect();
        let mut out = vec![0.0; 600];
        compiled.effective_masses(&many, &target, &mut out);
        for i in 0..300 {
            let ci = i % qs.len();
            assert_eq!(
                out[2 * i..2 * i + 2],
                batch[ci * 2..ci * 2 + 2],
                "{file}: parallel chunk {i}"
            );
        }
    }
    assert!(checked > 100, "{checked} contacts checked");
}

/// The batch path at the edges: a rate that cancels exactly (a point on
/// the UR5's first link along a direction its velocity never has) is
/// immobile at every configuration, not 1/round-off; hinge angles of many
/// turns give the same numbers as the scalar kinematics (the lanes' sine
/// and cosine reduce large arguments); an overflowing quaternion is
/// normalised, not zeroed.
#[test]
fn the_batch_path_at_its_edges() {
    use meff::robot::probe::{Compiled, Target};
    let robot = load("urdf/ur5_robot.urdf");
    let tree = &robot.tree;
    let compiled = Compiled::new(robot.clone());
    let shoulder = tree.body_index("shoulder_link").unwrap();
    // n·(ω ẑ × p) = ω (p_x n_y − p_y n_x) = 0 for p = (0.01, 0.02) and n ∝ (1, 2, ·).
    let target = Target {
        body: shoulder,
        point: Vector3::new(0.01, 0.02, 0.05),
        normals: vec![Vector3::new(1.0, 2.0, 3.0).normalize()],
        local: true,
        armature: true,
        constrained: true,
    };
    let qs: Vec<f64> = (0..200)
        .flat_map(|i| (0..6).map(move |k| ((i * 7 + k * 3) % 23) as f64 * 0.27 - 3.0))
        .collect();
    let mut out = vec![0.0; 200];
    compiled.effective_masses(&qs, &target, &mut out);
    assert!(out.iter().all(|x| x.is_infinite()), "{out:?}");
    // Many turns: the lanes against the scalar kinematics and nalgebra.
    let tool = tree.body_index("tool0").unwrap();
    let target = Target {
        body: tool,
        point: Vector3::new(0.0, 0.0, 0.05),
        normals: vec![Vector3::new(0.2, -0.4, 0.9).normalize()],
        ..target
    };
    for turns in [1.0, 1e3, 1e5, 1e7, 1e9, 1e12] {
        let q: Vec<f64> = (0..6)
            .map(|k| 2.0 * std::f64::consts::PI * turns + 0.3 * k as f64 - 0.7)
            .collect();
        let mut got = [0.0];
        compiled.effective_masses(&q, &target, &mut got);
        let kin = tree.kinematics(&q);
        let m = DMatrix::from_row_slice(6, 6, &tree.mass_matrix(&kin, true));
        let p = tree.place(&kin, tool, &target.point);
        let r = DVector::from_vec(tree.point_row(
            &kin,
            tool,
            &p,
            &(kin.xrot[tool] * target.normals[0]),
        ));
        let want = 1.0 / r.dot(&m.cholesky().unwrap().solve(&r));
        assert!(
            rel(got[0], want, want) < 1e-12,
            "{turns} turns: {} vs {want}",
            got[0]
        );
    }
}
