//! Kinematics relative to a nearby origin: a model
//! moved rigidly far from the world origin gives the same M(q), the same
//! contact rows and the same effective masses (about the world origin the
//! spatial inertias' m|c|² terms of 10¹⁸ cancelled: a cart-pole's tip mass
//! of 0.330 kg was 2.08 kg at s = 10⁹ m, and +2.9 % at 10⁷ m).

use crate::support::robots::load;
use meff::kinematics::{JointKind, Tree};
use meff::robot::probe::{Compiled, Target};
use nalgebra::{DMatrix, DVector, Vector3};

const OFFSETS: [f64; 4] = [0.0, 1e4, 1e7, 1e9];

/// The whole tree moved by `t`: each root body's free joint position or,
/// without one, its `pos`.
fn translated(tree: &Tree, q: &[f64], t: Vector3<f64>) -> (Tree, Vec<f64>) {
    let (mut tree, mut q) = (tree.clone(), q.to_vec());
    for b in 0..tree.bodies.len() {
        if tree.bodies[b].parent.is_some() {
            continue;
        }
        let free = tree.bodies[b]
            .joints
            .iter()
            .find(|&&j| matches!(tree.joints[j].kind, JointKind::Free { .. }))
            .copied();
        match free {
            Some(j) => {
                let a = tree.joints[j].qpos_adr;
                for k in 0..3 {
                    q[a + k] += t[k];
                }
            }
            None => tree.bodies[b].pos += t,
        }
    }
    (tree, q)
}

/// Effective masses of the last body's frame origin and of a point 0.1 m
/// off it along x, y and z of the world.
fn effective_masses(tree: &Tree, q: &[f64]) -> Vec<f64> {
    let kin = tree.kinematics(q);
    let n = tree.nv;
    let m = DMatrix::from_vec(n, n, tree.mass_matrix(&kin, true));
    let chol = m.cholesky().expect("M positive definite");
    let b = tree.bodies.len() - 1;
    let mut out = Vec::new();
    for local in [Vector3::zeros(), Vector3::new(0.1, -0.05, 0.02)] {
        let p = tree.place(&kin, b, &local);
        for k in 0..3 {
            let row = DVector::from_vec(tree.point_row(&kin, b, &p, &Vector3::ith(k, 1.0)));
            let a = row.dot(&chol.solve(&row));
            out.push(if a > 1e-12 { 1.0 / a } else { f64::INFINITY });
        }
    }
    out
}

fn models() -> Vec<(&'static str, Tree, Vec<f64>)> {
    [
        "mjcf/inverted_double_pendulum.xml",
        "mjcf/humanoid.xml",
        "mjcf/ant.xml",
        "mjcf/reacher.xml",
        "urdf/panda.urdf",
        "urdf/solo12.urdf",
    ]
    .into_iter()
    .map(|f| {
        let robot = load(f);
        let q = robot.tree.qpos0.clone();
        (f, robot.tree.clone(), q)
    })
    .collect()
}

#[test]
fn effective_masses_do_not_move_with_the_model() {
    for (file, tree, q0) in models() {
        // A configuration away from the reference: every coordinate moved a
        // little (quaternions stay unit: the kinematics normalise them).
        let q: Vec<f64> = q0
            .iter()
            .enumerate()
            .map(|(i, x)| x + 0.1 * ((i as f64) * 0.7).sin())
            .collect();
        let at_origin = effective_masses(&tree, &q);
        for offset in OFFSETS {
            for dir in [
                Vector3::x(),
                Vector3::new(0.6, -0.8, 0.0),
                Vector3::new(0.0, 0.6, 0.8),
            ] {
                let (t, qt) = translated(&tree, &q, dir * offset);
                let far = effective_masses(&t, &qt);
                for (a, b) in at_origin.iter().zip(&far) {
                    let ok =
                        (a.is_infinite() && b.is_infinite()) || (a - b).abs() <= 1e-9 * a.abs();
                    assert!(
                        ok,
                        "{file} at {offset:e} m along {dir:?}: {b} vs {a} at the origin"
                    );
                }
            }
        }
    }
}

#[test]
fn a_cart_far_along_its_rail_keeps_its_tip_mass() {
    // The cart-pole of the issue: the slide coordinate itself far out.
    let robot = load("mjcf/inverted_double_pendulum.xml");
    let tree = &robot.tree;
    let mut q = tree.qpos0.clone();
    q[1] = 0.3;
    q[2] = -0.4;
    let at = |s: f64| {
        let mut q = q.clone();
        q[0] = s;
        effective_masses(tree, &q)
    };
    let base = at(0.0);
    for s in [1e4, 1e7, 1e9, -1e12] {
        for (a, b) in base.iter().zip(at(s)) {
            let ok = (a.is_infinite() && b.is_infinite()) || (a - b).abs() <= 1e-9 * a;
            assert!(ok, "s = {s:e}: {b} vs {a}");
        }
    }
}

#[test]
fn the_batch_path_shares_the_nearby_origin() {
    // Python's batch evaluation (robot::probe), lanes and general route:
    // a humanoid's free base far out gives the masses it gives at home.
    let robot = load("mjcf/humanoid.xml");
    let q0 = robot.tree.qpos0.clone();
    let nq = robot.tree.nq;
    let body = robot.tree.bodies.len() - 1;
    let compiled = Compiled::new(robot);
    let target = |local: bool, point: Vector3<f64>| Target {
        body,
        point,
        normals: vec![Vector3::x(), Vector3::y(), Vector3::z()],
        local,
        armature: true,
        constrained: false,
    };
    for offset in [4e6, 1e9] {
        let mut qs = q0.clone();
        let mut far = q0.clone();
        far[0] += offset;
        far[1] -= 0.5 * offset;
        qs.extend(&far);
        let mut out = vec![0.0; 6];
        compiled.effective_masses(&qs, &target(true, Vector3::new(0.02, 0.01, 0.0)), &mut out);
        for k in 0..3 {
            let (a, b) = (out[k], out[3 + k]);
            assert!((a - b).abs() <= 1e-9 * a, "{offset:e}: {b} vs {a}");
        }
        assert_eq!(qs.len(), 2 * nq);
    }
}

#[test]
fn a_model_case_far_along_its_rail_gives_the_same_report() {
    // Through the case reader, the robot system and the analysis (and its
    // time-domain check): the slider at 0, 10⁷ and 10⁹ m.
    let tmp = tempfile::tempdir().unwrap();
    let xml = std::fs::read_to_string(
        crate::support::robots::dir().join("mjcf/inverted_double_pendulum.xml"),
    )
    .unwrap();
    std::fs::write(tmp.path().join("cartpole.xml"), xml).unwrap();
    let m_eff = |s: &str| {
        let text = format!(
            "title = \"cart-pole\"\n[model]\nmjcf = \"cartpole.xml\"\n\
             configuration = {{ slider = \"{s}\", hinge = \"20 deg\", hinge2 = \"-30 deg\" }}\n\
             [[contact]]\nname = \"tip\"\nbody = \"pole2\"\npoint = [\"0 m\", \"0 m\", \"0.6 m\"]\nnormal = [1, 0, 0]\nstiffness = \"1e5 N/m\"\n"
        );
        let path = tmp.path().join("case.toml");
        std::fs::write(&path, text).unwrap();
        let case = meff::case::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let options = meff::Options {
            verify: true,
            ..Default::default()
        };
        let ev = meff::evaluate_with(case, options).unwrap_or_else(|e| panic!("{e}"));
        let robot = &ev.report.robot.as_ref().unwrap().contacts[0];
        // The time-domain check agrees (its impulse test was 1.2e-8 > 1e-8
        // at 1e9 m before the contact points stayed near the origin).
        let verdict = ev.verification.as_ref().map(|v| v.verdict.agrees);
        (
            ev.report.contacts[0].m_eff.unwrap(),
            robot.ellipsoid.masses,
            robot.point,
            verdict,
        )
    };
    let (home, ellipsoid, point, verdict) = m_eff("0 m");
    for (s, x) in [("1e7 m", 1e7), ("1e9 m", 1e9), ("-1e12 m", -1e12)] {
        let (far, e, p, v) = m_eff(s);
        assert!(
            (far - home).abs() <= 1e-9 * home,
            "slider at {s}: {far} vs {home}"
        );
        for (a, b) in ellipsoid.iter().zip(&e) {
            let ok = match (a, b) {
                (Some(a), Some(b)) => (a - b).abs() <= 1e-9 * a,
                (a, b) => a.is_none() && b.is_none(),
            };
            assert!(ok, "ellipsoid at {s}: {e:?} vs {ellipsoid:?}");
        }
        // The reported point is in world coordinates: moved with the cart.
        assert!((p[0] - (point[0] + x)).abs() <= 1e-6 * x.abs(), "{p:?}");
        assert_eq!(v, verdict, "the time-domain check at {s}");
        assert_eq!(v, Some(true));
    }
}
