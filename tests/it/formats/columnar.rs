//! Large TOML cases read table by table into columns: the same case as
//! the ordinary reader, and every file it does not cover read (and its
//! defects reported) the ordinary way.

use crate::support::assert_close;
/// A 3-d lattice of `n³` boxes resting on each other and on the floor, with
/// off-centre contacts (rotations matter) and one fixed body: more contacts
/// than the dense limit. `normal_of` writes each contact's normal.
fn lattice(n: usize, normal_of: &dyn Fn(usize, &str) -> String) -> String {
    let mut s = String::from(
        "title = \"Lattice\"\nspace = \"3d\"\n[parameters]\nk = \"2.5e5 N/m\"\n\n[verify]\nperiods = 3\n\n",
    );
    let id = |i: usize, j: usize, k: usize| i + n * (j + n * k);
    for k in 0..n {
        for j in 0..n {
            for i in 0..n {
                let b = id(i, j, k);
                if b == 0 {
                    s.push_str("[[body]]\nname = \"b0\"\ntype = \"fixed\"\nposition = [\"0 m\", \"0 m\", \"0.05 m\"]\n\n");
                    continue;
                }
                let m = 1.0 + (b % 13) as f64 * 0.125;
                s.push_str(&format!(
                    "[[body]]\nname = \"b{b}\"\ntype = \"rigid\"\nmass = \"{m} kg\"\ninertia = [\"{} kg m^2\", \"{} kg m^2\", \"{} kg m^2\"]\nposition = [\"{} mm\", \"{} m\", \"{} m\"] # centre\n\n",
                    m * 1.5e-3,
                    m * 1.7e-3,
                    m * 1.1e-3,
                    i as f64 * 100.0,
                    j as f64 * 0.1,
                    k as f64 * 0.1 + 0.05
                ));
            }
        }
    }
    let mut c = 0;
    let mut contact = |s: &mut String,
                       body: usize,
                       other: Option<usize>,
                       p: [f64; 3],
                       axis: usize| {
        let normal = ["[1, 0, 0]", "[0, 1, 0]", "[0, 0, 1]"][axis];
        let other = other.map_or(String::new(), |o| format!("other = \"b{o}\"\n"));
        s.push_str(&format!(
            "[[contact]]\nname = \"c{c}\"\nbody = \"b{body}\"\n{other}point = [\"{} m\", \"{} m\", \"{} m\"]\nnormal = {}\nstiffness = \"{} N/m\"\n\n",
            p[0],
            p[1],
            p[2],
            normal_of(c, normal),
            2.0e5 + (c % 17) as f64 * 1.0e4
        ));
        c += 1;
    };
    for k in 0..n {
        for j in 0..n {
            for i in 0..n {
                let b = id(i, j, k);
                let (x, y, z) = (i as f64 * 0.1, j as f64 * 0.1, k as f64 * 0.1 + 0.05);
                let e = 0.01 * ((b % 5) as f64 - 2.0);
                if i > 0 {
                    contact(&mut s, b, Some(id(i - 1, j, k)), [x - 0.05, y + e, z], 0);
                }
                if j > 0 {
                    contact(&mut s, b, Some(id(i, j - 1, k)), [x, y - 0.05, z + e], 1);
                }
                if k > 0 {
                    contact(&mut s, b, Some(id(i, j, k - 1)), [x + e, y, z - 0.05], 2);
                } else if b != 0 {
                    contact(&mut s, b, None, [x + e, y - e, 0.0], 2);
                }
            }
        }
    }
    // Tables after the run: read with their spans moved back in place.
    s.push_str("[[claim]]\nof = \"omega(c5)\"\nequals = \"450 rad/s\"\nrel_tol = 0.4\n\n[[claim]]\nof = \"m_eff(c7)\"\nequals = \"2 kg\"\n");
    s
}

fn plain(_: usize, n: &str) -> String {
    n.to_string()
}

/// The report's JSON without the hash of the file's text.
fn report_json(case: meff::case::Case) -> serde_json::Value {
    let ev = meff::evaluate_with(
        case,
        meff::Options {
            verify: false,
            ..Default::default()
        },
    )
    .unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&meff::render::json(&ev.report)).unwrap();
    v.as_object_mut().unwrap().remove("case_sha256");
    v
}

#[test]
fn a_large_toml_case_is_read_into_columns_with_the_same_results() {
    let columns = lattice(14, &plain);
    // One normal written over three lines: the run is not simple, so the
    // ordinary reader takes the same case.
    let ordinary = lattice(14, &|c, n| {
        if c == 1000 {
            n.replace(", ", ",\n  ")
        } else {
            n.to_string()
        }
    });
    let a = meff::case::parse_case("lattice.toml", &columns).unwrap();
    let b = meff::case::parse_case("lattice.toml", &ordinary).unwrap();
    assert!(a.scene.is_some(), "the columnar reader took the file");
    assert!(b.scene.is_none(), "the ordinary reader took the file");
    assert!(a.n_contacts() > meff::analysis::DENSE_CONTACT_LIMIT);
    assert_eq!(a.n_contacts(), b.n_contacts());
    assert_eq!(a.source, columns, "the case keeps its text");
    assert_eq!(a.claims.len(), 2);
    for (x, y) in a.claims.iter().zip(&b.claims) {
        // The same place in the file (the ordinary layout is one line longer
        // per edited normal, two more lines here, before the claims).
        let line = |t: &str, p: usize| t[..p].matches('\n').count();
        assert_eq!(
            line(&columns, x.equals_span.start) + 2,
            line(&ordinary, y.equals_span.start)
        );
        assert_eq!(
            &columns[x.equals_span.clone()],
            &ordinary[y.equals_span.clone()]
        );
    }
    let (a, b) = (report_json(a), report_json(b));
    if let Some(path) = first_difference(&a, &b, String::new()) {
        panic!("the reports differ at {path}");
    }
}

/// The path of the first place where two JSON values differ.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value, at: String) -> Option<String> {
    use serde_json::Value::{Array, Object};
    match (a, b) {
        (Object(x), Object(y)) => {
            if x.len() != y.len() {
                return Some(format!("{at} (keys)"));
            }
            x.iter().find_map(|(k, v)| match y.get(k) {
                Some(w) => first_difference(v, w, format!("{at}.{k}")),
                None => Some(format!("{at}.{k} (missing)")),
            })
        }
        (Array(x), Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| first_difference(v, w, format!("{at}[{i}]"))),
        _ => (a != b).then(|| format!("{at}: {a} vs {b}")),
    }
}

#[test]
fn what_the_columnar_reader_does_not_cover_is_read_the_ordinary_way() {
    // A stiffness from a parameter, a particle, damping on one contact
    // only: each is read correctly, by the ordinary reader.
    let base = lattice(14, &plain);
    let param = base.replacen("stiffness = \"200000 N/m\"", "stiffness = \"k\"", 1);
    let particle = base.replacen(
        "type = \"rigid\"\nmass = \"1.125 kg\"\ninertia = [\"0.0016875 kg m^2\", \"0.0019125 kg m^2\", \"0.0012375 kg m^2\"]",
        "type = \"particle\"\nmass = \"1.125 kg\"",
        1,
    );
    let damped = base.replacen(
        "stiffness = \"200000 N/m\"",
        "stiffness = \"200000 N/m\"\ndamping = \"3 N s/m\"",
        1,
    );
    for (what, text) in [
        ("parameter", param),
        ("particle", particle),
        ("damping", damped),
    ] {
        assert_ne!(text, base, "{what}: the edit applies");
        let case = meff::case::parse_case("lattice.toml", &text).unwrap();
        assert!(case.scene.is_none(), "{what}: read the ordinary way");
    }
}

#[test]
fn defects_in_a_large_case_are_reported_where_they_are() {
    // A non-unit normal and an unknown body deep in the run: the errors are
    // the ordinary reader's, at their line.
    let bad_normal = lattice(14, &|c, n| {
        if c == 3000 {
            "[0, 0.8, 0.5]".into()
        } else {
            n.to_string()
        }
    });
    let unknown = lattice(14, &plain).replacen("body = \"b2000\"", "body = \"b99999\"", 1);
    for (text, needle, message) in [
        (
            &bad_normal,
            "normal = [0, 0.8, 0.5]",
            "a normal must be a unit vector",
        ),
        (&unknown, "body = \"b99999\"", "unknown body `b99999`"),
    ] {
        let err = meff::case::parse_case("lattice.toml", text).unwrap_err();
        let at = text.find(needle).unwrap();
        let d = err
            .diagnostics
            .iter()
            .find(|d| d.message.contains(message))
            .unwrap_or_else(|| panic!("{message}: {:?}", err.diagnostics));
        let line = |p: usize| text[..p].matches('\n').count();
        assert_eq!(line(d.span.start), line(at), "{message}");
        assert!(
            d.span.start >= at && d.span.start < at + needle.len() + 1,
            "{message}"
        );
    }
}

#[test]
fn either_reader_gives_the_same_case_or_the_same_errors_under_random_edits() {
    // Differential test: one-line edits of a large case (valid and not:
    // deleted, repeated, swapped lines, bad values, stray keys and
    // headers) give the same diagnostics, or the same model to the bit,
    // whether or not the columnar reader takes the file.
    let base = lattice(13, &plain);
    let lines: Vec<&str> = base.lines().collect();
    let mut state = 2024u64;
    let mut pick = |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) as usize) % n
    };
    let edits = [
        "delete",
        "repeat",
        "swap",
        "bad mass",
        "bad normal",
        "negative stiffness",
        "stray key",
        "stray header",
        "fixed",
        "comment",
        "unknown body",
        "blank",
    ];
    let (mut same_errors, mut same_cases, mut by_columns) = (0, 0, 0);
    for round in 0..24 {
        let edit = edits[round % edits.len()];
        let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        let at = 8 + pick(l.len() - 16);
        let find = |l: &[String], key: &str, from: usize| {
            (from..l.len())
                .chain(0..from)
                .find(|&i| l[i].starts_with(key))
                .unwrap()
        };
        match edit {
            "delete" => drop(l.remove(at)),
            "repeat" => l.insert(at, l[at].clone()),
            "swap" => l.swap(at, at + 1),
            "bad mass" => {
                let i = find(&l, "mass =", at);
                l[i] = "mass = \"2 kg m\"".into();
            }
            "bad normal" => {
                let i = find(&l, "normal =", at);
                l[i] = "normal = [1, 1, 0]".into();
            }
            "negative stiffness" => {
                let i = find(&l, "stiffness =", at);
                l[i] = "stiffness = \"-3 N/m\"".into();
            }
            "stray key" => l.insert(at, "colour = \"red\"".into()),
            "stray header" => l.insert(at, "[[body]]".into()),
            "fixed" => {
                let i = find(&l, "type = \"rigid\"", at);
                l[i] = "type = \"fixed\"".into();
                l.remove(i + 1); // mass
                l.remove(i + 1); // inertia
            }
            "comment" => l.insert(at, "# a note [[contact]] = \"\"\"".into()),
            "unknown body" => {
                let i = find(&l, "other =", at);
                l[i] = "other = \"nobody\"".into();
            }
            _ => l.insert(at, String::new()),
        }
        let text = l.join("\n") + "\n";
        let a = meff::case::parse_case("edit.toml", &text);
        let b = meff::case::parse_case_ordinary("edit.toml", &text);
        match (a, b) {
            (Err(x), Err(y)) => {
                let show = |e: &meff::diag::SourceError| {
                    e.diagnostics
                        .iter()
                        .map(|d| format!("{:?} {} {:?}", d.span, d.message, d.hints))
                        .collect::<Vec<_>>()
                };
                assert_eq!(show(&x), show(&y), "{edit} at line {at}");
                same_errors += 1;
            }
            (Ok(x), Ok(y)) => {
                assert_eq!(x.n_contacts(), y.n_contacts(), "{edit}");
                assert_eq!(
                    format!("{:?}", meff::model::numeric(&x)),
                    format!("{:?}", meff::model::numeric(&y)),
                    "{edit} at line {at}: the models differ"
                );
                same_cases += 1;
                by_columns += usize::from(x.scene.is_some());
            }
            (a, b) => panic!(
                "{edit} at line {at}: one reader accepts the file: columnar {:?}, ordinary {:?}",
                a.err().map(|e| e.diagnostics),
                b.err().map(|e| e.diagnostics)
            ),
        }
    }
    assert!(
        same_errors >= 6 && same_cases >= 4 && by_columns >= 3,
        "{same_errors} errors, {same_cases} cases ({by_columns} read into columns)"
    );
}

/// 2,500 body-frame contacts on one turned plate: a file the line scan
/// takes, whose contacts need the body's pose. Found at the end of round
/// 4: the columnar reader indexed a body it keeps as columns (panic, exit
/// 101); such a file now goes the ordinary way, with the pose composed.
#[test]
fn body_frame_contacts_in_a_large_file_are_read_with_their_pose() {
    let n = 2500;
    let mut s = String::from(
        "title = \"plate\"\n[[body]]\nname = \"plate\"\ntype = \"rigid\"\nmass = \"2 kg\"\n\
         inertia = \"0.02 kg m^2\"\nangle = \"0.3 rad\"\n",
    );
    for i in 0..n {
        s.push_str(&format!(
            "[[contact]]\nname = \"c{i}\"\nbody = \"plate\"\nframe = \"body\"\n\
             point = [\"{:.4} m\", \"{:.4} m\"]\nnormal = [0, 1]\nstiffness = \"1e5 N/m\"\n",
            (i % 50) as f64 * 0.002 - 0.05,
            (i / 50) as f64 * 0.002 - 0.05
        ));
    }
    assert!(s.len() > 256 * 1024);
    let case = meff::case::parse_case("plate.toml", &s).expect("read");
    let ev = meff::evaluate(case).expect("evaluated");
    // Contact 0 at body (−0.05, −0.05) turned by 0.3 rad: its normal is
    // (−sin 0.3, cos 0.3) and a = 1/m + ((p − x) × n)²/I.
    let (c, sn) = (0.3f64.cos(), 0.3f64.sin());
    let (px, py) = (-0.05 * c + 0.05 * sn, -0.05 * sn - 0.05 * c);
    let cross = px * c - py * -sn;
    let a = 1.0 / 2.0 + cross * cross / 0.02;
    assert_close(ev.analysis.contacts[0].a, a, 1e-12);
}
