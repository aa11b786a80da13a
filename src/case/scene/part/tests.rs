//! Tests of reading a part of an NPZ scene by itself.

use super::super::npy::tests::npy;
use super::super::{Source, read as read_whole};
use super::*;
use std::io::Write;

fn bytes<T: Copy, const N: usize>(v: impl IntoIterator<Item = T>, f: fn(T) -> [u8; N]) -> Vec<u8> {
    v.into_iter().flat_map(f).collect()
}

/// Eleven bodies (one fixed, full inertia tensors) and their contacts
/// listed out of order, some on the world.
fn scene() -> SceneData {
    let n = 11;
    let mut s = SceneData::default();
    for b in 0..n {
        let x = b as f64;
        s.mass.push(1.0 + 0.1 * x);
        s.position.extend([x, 0.1 * x, -0.2 * x]);
        s.inertia
            .extend([0.3 + 0.01 * x, 0.4, 0.5, 0.01, -0.02, 0.03]);
        s.fixed.push(b == 7);
    }
    let pairs = [
        (3, 2),
        (0, WORLD),
        (10, 9),
        (5, 4),
        (1, 0),
        (9, 8),
        (4, 3),
        (8, 7),
    ];
    let pairs = pairs
        .iter()
        .chain(&[(6, 5), (2, 1), (7, 6), (6, WORLD), (2, 10)]);
    for (k, &(b, o)) in pairs.enumerate() {
        let t = k as f64;
        s.body.push(b);
        s.other.push(o);
        s.point.extend([b as f64 - 0.5, 0.1 * t, 0.2]);
        let (a, c) = ((0.3 * t).cos(), (0.3 * t).sin());
        s.normal.extend([a * 0.6, c * 0.6, 0.8]);
        s.stiffness.push(1e5 * (1.0 + t));
    }
    s
}

/// `s` as an NPZ archive: members stored or deflated; `point` in
/// Fortran order, `stiffness` big-endian, `body` 32-bit.
fn write(path: &std::path::Path, s: &SceneData, method: zip::CompressionMethod) {
    let (n, c) = (s.n_bodies(), s.n_contacts());
    let le = |v: &[f64]| bytes(v.iter().copied(), f64::to_le_bytes);
    fn index(v: &[u32]) -> impl Iterator<Item = i64> + '_ {
        v.iter().map(|&x| if x == WORLD { -1 } else { x as i64 })
    }
    let full: Vec<f64> = s
        .inertia
        .chunks(6)
        .flat_map(|t| [t[0], t[3], t[4], t[3], t[1], t[5], t[4], t[5], t[2]])
        .collect();
    let fortran: Vec<f64> = (0..3)
        .flat_map(|k| (0..c).map(move |i| (i, k)))
        .map(|(i, k)| s.point[3 * i + k])
        .collect();
    let members = [
        ("mass", npy("<f8", false, &format!("({n},)"), &le(&s.mass))),
        (
            "position",
            npy("<f8", false, &format!("({n}, 3)"), &le(&s.position)),
        ),
        (
            "inertia",
            npy("<f8", false, &format!("({n}, 3, 3)"), &le(&full)),
        ),
        (
            "fixed",
            npy(
                "|b1",
                false,
                &format!("({n},)"),
                &bytes(s.fixed.iter().map(|&f| f as u8), |x| [x]),
            ),
        ),
        (
            "body",
            npy(
                "<i4",
                false,
                &format!("({c},)"),
                &bytes(index(&s.body).map(|x| x as i32), i32::to_le_bytes),
            ),
        ),
        (
            "other",
            npy(
                "<i8",
                false,
                &format!("({c},)"),
                &bytes(index(&s.other), i64::to_le_bytes),
            ),
        ),
        (
            "point",
            npy("<f8", true, &format!("({c}, 3)"), &le(&fortran)),
        ),
        (
            "normal",
            npy("<f8", false, &format!("({c}, 3)"), &le(&s.normal)),
        ),
        (
            "stiffness",
            npy(
                ">f8",
                false,
                &format!("({c},)"),
                &bytes(s.stiffness.iter().copied(), f64::to_be_bytes),
            ),
        ),
    ];
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let opts = zip::write::SimpleFileOptions::default().compression_method(method);
    for (name, data) in &members {
        z.start_file(format!("{name}.npy"), opts).unwrap();
        z.write_all(data).unwrap();
    }
    z.finish().unwrap();
}

const METHODS: [zip::CompressionMethod; 2] = [
    zip::CompressionMethod::Stored,
    zip::CompressionMethod::Deflated,
];

fn part(
    path: &std::path::Path,
    p: usize,
    parts: usize,
) -> Result<(SceneData, PartMap), SceneError> {
    read(
        path,
        Space::ThreeD,
        Units::default(),
        u64::MAX,
        PartRequest::new(p, parts).unwrap(),
    )
}

/// Every part read by itself (stored or compressed members, C and
/// Fortran order, both byte orders) is the part cut from the whole
/// scene as read; the parts own every contact once.
#[test]
fn parts_read_alone_are_the_parts_of_the_whole_scene() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("s.npz");
    for method in METHODS {
        write(&path, &scene(), method);
        let whole = read_whole(
            Source::Npz(&path),
            &[],
            Space::ThreeD,
            Units::default(),
            u64::MAX,
        )
        .unwrap()
        .0;
        assert_eq!(whole.n_contacts(), 13);
        for parts in [1, 2, 3, 5, 13] {
            let mut seen = Vec::new();
            for p in 0..parts {
                let request = PartRequest::new(p, parts).unwrap();
                let got = part(&path, p, parts).unwrap();
                assert_eq!(
                    got,
                    cut(&whole, Space::ThreeD, request),
                    "{method:?} {p}/{parts}"
                );
                let (data, map) = got;
                // The part's own bodies, and only the others it touches.
                assert!(map.global.windows(2).all(|w| w[0] < w[1]));
                for b in map.global.iter().filter(|b| !map.bodies.contains(b)) {
                    assert!(
                        data.other
                            .iter()
                            .any(|&o| o != WORLD && map.global[o as usize] == *b)
                    );
                }
                seen.extend(map.contacts);
            }
            seen.sort();
            assert_eq!(seen, (0..13).collect::<Vec<_>>());
        }
    }
}

/// A bad value is reported at the whole scene's row by the part that
/// reads it; a `body` outside every range by part 0 only.
#[test]
fn problems_are_located_at_the_scenes_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("s.npz");
    for method in METHODS {
        let mut s = scene();
        s.mass[9] = -1.0;
        write(&path, &s, method);
        // Body 9 is part 1's of 2 (5..11), and touched by none of part 0's contacts.
        assert!(part(&path, 0, 2).is_ok());
        let Err(SceneError::Npz(issues)) = part(&path, 1, 2) else {
            panic!("part 1 reads body 9")
        };
        assert_eq!(
            (issues[0].table, issues[0].row, issues[0].column.as_str()),
            (Table::Bodies, Some(9), "mass")
        );
        let mut s = scene();
        s.body[11] = 40;
        s.normal[3 * 4] = 2.0;
        write(&path, &s, method);
        let Err(SceneError::Npz(issues)) = part(&path, 0, 3) else {
            panic!("part 0 reads the stray row")
        };
        let rows: Vec<_> = issues.iter().map(|i| (i.row, i.column.clone())).collect();
        assert_eq!(rows, vec![(Some(11), "body".to_string())], "{issues:?}");
        // Contact 4 (body 1) is part 0's of 3 (0..3); part 2's is clean.
        assert!(part(&path, 2, 3).is_ok());
        s.body[11] = 6;
        write(&path, &s, method);
        let Err(SceneError::Npz(issues)) = part(&path, 0, 3) else {
            panic!("contact 4 is part 0's")
        };
        assert_eq!((issues[0].row, issues[0].column.as_str()), (Some(4), "nx"));
    }
}

/// Compressed members count against the limit (every part decompresses
/// them), with a message naming np.savez; stored ones do not; a part's
/// kept rows do; a member cut short and a non-archive are refused.
#[test]
fn limits_and_broken_files_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("s.npz");
    let request = PartRequest::new(0, 2).unwrap();
    let go = |limit| read(&path, Space::ThreeD, Units::default(), limit, request);
    let message = |r: Result<(SceneData, PartMap), SceneError>| match r {
        Err(SceneError::File { message, .. }) => message,
        other => panic!("{other:?}"),
    };
    write(&path, &scene(), zip::CompressionMethod::Deflated);
    let e = message(go(2000));
    assert!(e.contains("np.savez") && e.contains("2000 bytes"), "{e}");
    write(&path, &scene(), zip::CompressionMethod::Stored);
    // The archive is larger than 2000 bytes; the part's rows are not.
    assert!(std::fs::metadata(&path).unwrap().len() > 2000);
    assert!(go(2000).is_ok());
    let e = message(go(200));
    assert!(
        e.contains("this part's rows") && e.contains("200 bytes"),
        "{e}"
    );
    // The shape says more than the member holds.
    let mut z = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    z.start_file("mass.npy", zip::write::SimpleFileOptions::default())
        .unwrap();
    z.write_all(&npy("<f8", false, "(10,)", &[0; 72])).unwrap();
    z.finish().unwrap();
    let e = message(go(u64::MAX));
    assert!(
        e.contains("array `mass`") && e.contains("should hold 80 bytes"),
        "{e}"
    );
    std::fs::write(&path, b"not a zip").unwrap();
    assert!(message(go(u64::MAX)).contains("not a NumPy .npz archive"));
}

/// Through the case reader: a part's problem is located at the `file`
/// value of `[scene]` with the scene's row, as `meff eval` locates it.
#[test]
fn a_case_reads_its_part_and_locates_its_problems() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let case = dir.join("scene.toml");
    std::fs::write(
        &case,
        "title = \"t\"\nspace = \"3d\"\n[scene]\nfile = \"s.npz\"\n",
    )
    .unwrap();
    let mut s = scene();
    write(&dir.join("s.npz"), &s, zip::CompressionMethod::Stored);
    let request = PartRequest::new(1, 2).unwrap();
    let got = crate::case::load_part(&case, 1 << 30, request).unwrap();
    let scene_read = got.scene.unwrap();
    assert_eq!(scene_read.part.as_ref().unwrap().bodies, 5..11);
    s.inertia[6 * 8] = -1.0;
    write(&dir.join("s.npz"), &s, zip::CompressionMethod::Stored);
    let e = crate::case::load_part(&case, 1 << 30, request).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("scene.toml:4:8"), "{text}");
    assert!(text.contains("`s.npz`, array `inertia`, row 8"), "{text}");
}
