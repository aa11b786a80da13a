//! The columnar route of a large scene (`pipeline/scene.rs`, issue 41):
//! the same report as the model path, number for number, on lattices it
//! has not been tuned on (3-d with diagonal and full inertias, fixed
//! bodies, dashpots, world contacts, planar), with the model checks'
//! warnings; the same bytes on one thread and on three; a stop request
//! honoured inside the row pass; a periodic image's shift in the lever arm.

use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

fn lcg(state: &mut u64) -> f64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (*state >> 11) as f64 / (1u64 << 53) as f64
}

/// What a lattice scene carries beside its springs.
#[derive(Clone, Copy)]
struct Kind {
    planar: bool,
    /// Full inertia tensors on every third body.
    tensors: bool,
    /// Fixed bodies, a dashpot column, and a few implausible inputs (a
    /// body breaking the triangle inequality, one far too light, a stiff
    /// contact, an overdamped one) so that the checks have warnings.
    defects: bool,
    /// With `defects`, the same defects repeated through the lattice:
    /// more warnings than are listed, from several rules.
    many: bool,
}

/// Body `b` carries a repeated defect of period `p` (offset `r`).
fn every(kind: Kind, b: usize, p: usize, r: usize) -> bool {
    kind.defects && kind.many && b % p == r
}

/// A jittered lattice of `n` bodies a side (n² in the plane), each
/// touching its neighbours along the axes slightly off the line of
/// centres, the bottom row on the world: bodies and contacts CSV.
fn lattice(n: usize, kind: Kind, seed: u64) -> (String, String) {
    let mut st = seed;
    let d = if kind.planar { 2 } else { 3 };
    let count = n.pow(d as u32);
    let idx = |c: &[usize]| c.iter().rev().fold(0, |a, &x| a * n + x);
    let mut pos = vec![[0.0f64; 3]; count];
    let mut bodies = String::from(if kind.planar {
        "mass,x,y,I,fixed\n"
    } else {
        "mass,x,y,z,Ixx,Iyy,Izz,Ixy,Ixz,Iyz,fixed\n"
    });
    for (b, p) in pos.iter_mut().enumerate() {
        let mut c = [b % n, (b / n) % n, b / (n * n)];
        c[d..].fill(0);
        for k in 0..d {
            p[k] = c[k] as f64 + 0.02 * (lcg(&mut st) - 0.5);
        }
        let m = 0.5 + lcg(&mut st);
        let i0 = 0.4 * m * 0.25;
        // Fixed bodies have no world contact (its gap could not move).
        let fixed = kind.defects && b % 97 == 5;
        let mut inertia = [i0 * (1.0 + 0.3 * lcg(&mut st)), i0, i0 * 1.1, 0.0, 0.0, 0.0];
        if kind.tensors && b % 3 == 0 {
            (inertia[3], inertia[4], inertia[5]) = (0.1 * i0, -0.05 * i0, 0.08 * i0);
        }
        if (kind.defects && b == 7) || every(kind, b, 41, 3) {
            inertia[2] = 5.0 * i0; // I₁ + I₂ < I₃
        }
        if (kind.defects && b == 19) || every(kind, b, 53, 9) {
            // Far too small for its contacts' levers.
            inertia.iter_mut().for_each(|x| *x *= 1e-8);
        }
        let m = if (kind.defects && b == 11) || every(kind, b, 37, 2) {
            1e-6
        } else {
            m
        };
        if kind.planar {
            writeln!(
                bodies,
                "{m:?},{:?},{:?},{:?},{fixed}",
                p[0], p[1], inertia[0]
            )
            .unwrap();
        } else {
            let [a, b2, c2, e, f, g] = inertia;
            writeln!(
                bodies,
                "{m:?},{:?},{:?},{:?},{a:?},{b2:?},{c2:?},{e:?},{f:?},{g:?},{fixed}",
                p[0], p[1], p[2]
            )
            .unwrap();
        }
    }
    let mut contacts = String::from(if kind.planar {
        "body,other,px,py,nx,ny,k"
    } else {
        "body,other,px,py,pz,nx,ny,nz,k"
    });
    contacts.push_str(if kind.defects { ",c\n" } else { "\n" });
    let mut row = |b: usize, o: Option<usize>, p: [f64; 3], nv: [f64; 3], st: &mut u64| {
        let norm = nv[..d].iter().map(|x| x * x).sum::<f64>().sqrt();
        let k = 1e5 * (1.0 + lcg(st));
        let k = if kind.defects && b == 13 { 1e15 } else { k };
        let other = o.map_or("-1".to_string(), |o| o.to_string());
        // Body 23's normals flipped: they pull it from its centre.
        let nv = if (kind.defects && b == 23) || every(kind, b, 11, 4) {
            nv.map(|x| -x)
        } else {
            nv
        };
        write!(contacts, "{b},{other}").unwrap();
        for v in &p[..d] {
            write!(contacts, ",{v:?}").unwrap();
        }
        for v in &nv[..d] {
            write!(contacts, ",{:?}", v / norm).unwrap();
        }
        write!(contacts, ",{k:?}").unwrap();
        if kind.defects {
            let c = if b == 17 { 1e6 } else { 20.0 * lcg(st) };
            write!(contacts, ",{c:?}").unwrap();
        }
        contacts.push('\n');
    };
    for b in 0..count {
        let mut c = [b % n, (b / n) % n, b / (n * n)];
        c[d..].fill(0);
        for axis in 0..d {
            if c[axis] + 1 < n {
                let mut up = c;
                up[axis] += 1;
                let o = idx(&up[..d]);
                let mut nv = [0.0; 3];
                let mut p = [0.0; 3];
                for k in 0..d {
                    nv[k] = pos[b][k] - pos[o][k];
                    p[k] = 0.5 * (pos[b][k] + pos[o][k]) + 0.01 * (lcg(&mut st) - 0.5);
                }
                row(b, Some(o), p, nv, &mut st);
            }
        }
        if c[d - 1] == 0 && !(kind.defects && b % 97 == 5) {
            let mut p = pos[b];
            p[d - 1] -= 0.5;
            let mut nv = [0.0; 3];
            nv[d - 1] = 1.0;
            row(b, None, p, nv, &mut st);
        }
    }
    (bodies, contacts)
}

/// The lattice as a case in `dir`.
fn scene_case(dir: &std::path::Path, n: usize, kind: Kind, seed: u64) -> meff::case::Case {
    let (b, c) = lattice(n, kind, seed);
    std::fs::write(dir.join("b.csv"), b).unwrap();
    std::fs::write(dir.join("c.csv"), c).unwrap();
    let space = if kind.planar { "planar" } else { "3d" };
    let path = dir.join("lattice.toml");
    std::fs::write(
        &path,
        format!("space = \"{space}\"\n[scene]\nbodies = \"b.csv\"\ncontacts = \"c.csv\"\n"),
    )
    .unwrap();
    meff::case::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn json(ev: &meff::Evaluated) -> String {
    meff::render::json(&ev.report)
}

const KINDS: [Kind; 4] = [
    Kind {
        planar: false,
        tensors: false,
        defects: false,
        many: false,
    },
    Kind {
        planar: false,
        tensors: true,
        defects: true,
        many: false,
    },
    Kind {
        planar: true,
        tensors: false,
        defects: true,
        many: false,
    },
    Kind {
        planar: true,
        tensors: false,
        defects: false,
        many: false,
    },
];

/// Above `COLUMNS_ABOVE` contacts a scene goes through its columns (no
/// per-contact results stored, no model kept) and its report is the model
/// path's: every number, the fastest contacts listed, the histograms, the
/// modes and shapes, and the checks' warnings.
#[test]
fn a_large_scene_through_its_columns_reports_what_the_model_path_does() {
    let tmp = tempfile::TempDir::new().unwrap();
    for (i, kind) in KINDS.into_iter().enumerate() {
        let n = if kind.planar { 33 } else { 10 };
        let case = scene_case(tmp.path(), n, kind, 11 + i as u64);
        let c = case.scene.as_ref().unwrap().data.n_contacts();
        assert!(c > meff::COLUMNS_ABOVE, "{c} contacts");
        let routed = meff::evaluate(case.clone()).unwrap();
        assert!(routed.analysis.columns.is_some(), "kind {i}: not routed");
        assert!(routed.analysis.contacts.is_empty());
        let model = meff::evaluate_on_model_path(case.clone(), meff::Options::default()).unwrap();
        assert!(model.analysis.columns.is_none());
        assert!(
            json(&routed) == json(&model),
            "kind {i}: the reports differ"
        );
        if kind.defects {
            let rules: Vec<&str> = routed.report.model_checks.iter().map(|w| w.rule).collect();
            for rule in [
                "stiffness_for_size",
                "damping_ratio",
                "implausible_density",
                "inertia_triangle",
                "lever_beyond_gyration",
                "normal_away_from_centre",
                "contacts_far_from_mass",
            ] {
                // A planar body has one moment: no triangle inequality.
                if kind.planar && rule == "inertia_triangle" {
                    continue;
                }
                assert!(rules.contains(&rule), "kind {i}: no {rule} in {rules:?}");
            }
        }
        // Every contact listed, and the mode shapes.
        let all = meff::Options {
            contacts: Some(meff::report::ContactSelection::All),
            ..Default::default()
        };
        let routed = meff::evaluate_with(case.clone(), all.clone()).unwrap();
        let model = meff::evaluate_on_model_path(case, all).unwrap();
        assert_eq!(routed.report.contacts.len(), c);
        assert!(!routed.report.modes[0].shape.is_empty());
        assert!(
            json(&routed) == json(&model),
            "kind {i}: listing every contact"
        );
    }
}

/// The route's report is the same bytes on one thread and on three.
#[test]
fn the_columnar_route_gives_the_same_bytes_on_one_thread_and_on_three() {
    let tmp = tempfile::TempDir::new().unwrap();
    let case = scene_case(tmp.path(), 10, KINDS[1], 5);
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| json(&meff::evaluate(case.clone()).unwrap()))
    };
    let one = on(1);
    assert!(one == on(3), "1 and 3 threads differ");
}

/// A stop request is read inside the row pass (the scene's own analysis
/// returns `Cancelled`, and the pipeline `Error::Cancelled`), and leaves the
/// thread as it was.
#[test]
fn a_stop_request_stops_the_columnar_route() {
    use meff::analysis::{AnalysisError, LargeModes, scene_large};
    let tmp = tempfile::TempDir::new().unwrap();
    let case = scene_case(tmp.path(), 8, KINDS[0], 3);
    let set = || Some(Arc::new(AtomicBool::new(true)));
    let mut data = case.scene.as_ref().unwrap().data.clone();
    let got = meff::control::cancel_scope(set(), || {
        scene_large::analyze(&mut data, case.space, LargeModes::default())
    });
    assert_eq!(got.err(), Some(AnalysisError::Cancelled));
    let mut data = case.scene.as_ref().unwrap().data.clone();
    assert!(scene_large::analyze(&mut data, case.space, LargeModes::default()).is_ok());
    let stopped = meff::evaluate_with(
        case.clone(),
        meff::Options {
            cancel: set(),
            ..Default::default()
        },
    );
    assert!(matches!(stopped, Err(meff::Error::Cancelled)));
    assert!(!meff::control::cancelled());
}

/// A contact across a periodic boundary (a dump's image shift) has its
/// other body's lever arm to the image: the columns give the model's S.
#[test]
fn an_image_shift_reaches_the_lever_arm_on_the_columnar_route() {
    use meff::analysis::{LargeModes, scene_large};
    let tmp = tempfile::TempDir::new().unwrap();
    let mut case = scene_case(tmp.path(), 8, KINDS[1], 9);
    let data = &mut case.scene.as_mut().unwrap().data;
    let c = data.n_contacts();
    let mut image = vec![0.0; 3 * c];
    for i in (0..c).step_by(7) {
        image[3 * i] = 8.0;
        image[3 * i + 2] = -8.0;
    }
    data.image = Some(image);
    let model = meff::model::numeric(&case);
    let system = meff::analysis::system_for(&model, true);
    let modes = LargeModes {
        path: meff::case::AnalysisPath::Large,
        ..LargeModes::default()
    };
    let want = meff::analysis::analyze_model(&model, &system, modes).unwrap();
    let mut data = case.scene.as_ref().unwrap().data.clone();
    let got = scene_large::analyze(&mut data, case.space, modes).unwrap();
    let (w, g) = (want.coupled.unwrap(), got.coupled.unwrap());
    assert!(w.order.is_none());
    assert!(w.s == g.s, "S differs");
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&w.diag), bits(&g.diag));
    // Without the shift S is another matrix.
    let mut plain = case.scene.as_ref().unwrap().data.clone();
    plain.image = None;
    let other = scene_large::coupled(&plain, case.space).unwrap();
    assert!(other.s != g.s);
}

/// The input limit holds on the route: a scene file above it is refused
/// while reading, before anything is built.
#[test]
fn the_input_limit_holds_for_a_large_scene() {
    let tmp = tempfile::TempDir::new().unwrap();
    scene_case(tmp.path(), 10, KINDS[0], 21);
    let contacts = std::fs::metadata(tmp.path().join("c.csv")).unwrap().len();
    let path = tmp.path().join("lattice.toml");
    let Err(err) = meff::case::load_limited(&path, contacts - 1) else {
        panic!("a file over the limit was read");
    };
    assert!(err.to_string().contains("input limit"), "{err}");
    let case = meff::case::load_limited(&path, contacts + 1).unwrap();
    assert!(meff::evaluate(case).unwrap().analysis.columns.is_some());
}

/// A scattered contact list (the lattice's rows shuffled, past the 32,767
/// contacts where `order.rs` reorders) stays on the columnar route, which
/// stores it along the same Morton curve as the model path: the reports
/// are the same bytes, and the same as the unshuffled scene's numbers
/// (the fastest modes do not depend on the order of the list).
#[test]
fn a_scattered_contact_list_stays_on_the_columnar_route_in_curve_order() {
    let tmp = tempfile::TempDir::new().unwrap();
    let kind = KINDS[0];
    let (b, c) = lattice(30, kind, 3);
    let mut lines: Vec<&str> = c.lines().collect();
    let (head, rows) = lines.split_at_mut(1);
    let mut st = 17u64;
    for i in (1..rows.len()).rev() {
        let j = (lcg(&mut st) * (i + 1) as f64) as usize;
        rows.swap(i, j.min(i));
    }
    let shuffled = format!("{}\n{}\n", head[0], rows.join("\n"));
    std::fs::write(tmp.path().join("b.csv"), b).unwrap();
    std::fs::write(tmp.path().join("c.csv"), shuffled).unwrap();
    let path = tmp.path().join("lattice.toml");
    std::fs::write(
        &path,
        "space = \"3d\"\n[scene]\nbodies = \"b.csv\"\ncontacts = \"c.csv\"\n",
    )
    .unwrap();
    let case = meff::case::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let data = &case.scene.as_ref().unwrap().data;
    assert!(
        data.n_contacts() > i16::MAX as usize,
        "{}",
        data.n_contacts()
    );
    assert!(
        meff::analysis::order::scene_order(data).is_some(),
        "the shuffled list is reordered"
    );
    let routed = meff::evaluate(case.clone()).unwrap();
    assert!(routed.analysis.columns.is_some(), "not routed");
    let model = meff::evaluate_on_model_path(case, meff::Options::default()).unwrap();
    assert!(json(&routed) == json(&model), "the reports differ");
    let given = meff::evaluate(scene_case(tmp.path(), 30, kind, 3)).unwrap();
    let omega = |ev: &meff::Evaluated| ev.report.modes.iter().map(|m| m.omega).collect::<Vec<_>>();
    for (a, b) in omega(&routed).iter().zip(omega(&given)) {
        assert!((a - b).abs() <= 1e-10 * b, "{a} vs {b}");
    }
}

/// More warnings than are listed, from several rules through the lattice
/// (inertias, densities, levers, flipped normals, springs), on a scene
/// large enough that every rule's pass is split between threads: the
/// route lists the model path's first ones and counts the same total, and
/// gives the same bytes on one thread and on three.
#[test]
fn the_columnar_routes_checks_list_and_count_what_the_model_path_does() {
    let tmp = tempfile::TempDir::new().unwrap();
    let kind = Kind {
        planar: false,
        tensors: true,
        defects: true,
        many: true,
    };
    let case = scene_case(tmp.path(), 18, kind, 31);
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| meff::evaluate(case.clone()).unwrap())
    };
    let one = on(1);
    assert!(one.analysis.columns.is_some(), "not routed");
    let report = &one.report;
    assert_eq!(report.model_checks.len(), meff::checks::MAX_WARNINGS);
    assert!(
        report.model_checks_found > 4 * meff::checks::MAX_WARNINGS,
        "{} warnings found",
        report.model_checks_found
    );
    let rules: std::collections::BTreeSet<&str> =
        report.model_checks.iter().map(|w| w.rule).collect();
    assert!(rules.len() >= 3, "listed rules {rules:?}");
    assert!(json(&one) == json(&on(3)), "1 and 3 threads differ");
    let model = meff::evaluate_on_model_path(case, meff::Options::default()).unwrap();
    assert_eq!(model.report.model_checks_found, report.model_checks_found);
    assert!(json(&one) == json(&model), "the reports differ");
}
