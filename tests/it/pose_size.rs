//! Poses composed over named intermediates (issue 42, class 4): long angle
//! expressions with many body-frame contacts build a size linear in the
//! input (the rotation's entries used to repeat the angles' text in every
//! inertia entry and every contact: a 47 KB case took 1.3–1.8 GB).

use crate::evaluate_str;
use meff::case::{BodyKind, ContactGeometry, Form, InertiaVal, Val};
use meff::expr::Expr;

/// An angle of `terms` small terms over the parameters t0…t4, nested so
/// its depth stays small: 0.3 + (…(…)…).
fn angle(terms: usize, k: usize) -> String {
    let groups: Vec<String> = (0..terms)
        .step_by(10)
        .map(|g| {
            let inner: Vec<String> = (g..(g + 10).min(terms))
                .map(|i| format!("{}e-6*t{}", i % 7 + 1, (i + k) % 5))
                .collect();
            format!("({})", inner.join(" + "))
        })
        .collect();
    let outer: Vec<String> = groups
        .chunks(10)
        .map(|c| format!("({})", c.join(" + ")))
        .collect();
    format!("0.3 + {}", outer.join(" + "))
}

/// `bodies` turned boxes (rpy angles of `terms` terms each) with
/// `contacts` body-frame contacts shared among them.
fn hostile(bodies: usize, contacts: usize, terms: usize, orientation: &str) -> String {
    let mut s = String::from("title = \"poses\"\nspace = \"3d\"\n[parameters]\n");
    for i in 0..5 {
        s += &format!("t{i} = \"0.0{}\"\n", i + 1);
    }
    s += &format!("m = \"2 kg + 1 kg * ({})\"\n", angle(terms, 9));
    for b in 0..bodies {
        let o = match orientation {
            "rpy" => format!(
                "rpy = [\"{}\", \"{}\", \"{}\"]",
                angle(terms, b),
                angle(terms, b + 1),
                angle(terms, b + 2)
            ),
            "quat" => format!(
                "quat = [\"cos({a})\", \"0\", \"0\", \"sin({a})\"]",
                a = angle(terms, b)
            ),
            _ => format!(
                "axis_angle = {{ axis = [\"{}\", \"1\", \"{}\"], angle = \"{}\" }}",
                angle(terms, b),
                angle(terms, b + 1),
                angle(terms, b + 2)
            ),
        };
        s += &format!(
            "[[body]]\nname = \"b{b}\"\ntype = \"rigid\"\nmass = \"m\"\n\
             shape = {{ box = [\"0.4 m + 1 m * ({})\", \"0.3 m\", \"0.2 m\"] }}\nposition = [\"{b} m + 1 m * ({})\", \"0 m\", \"0.1 m\"]\norientation = {{ {o} }}\n",
            angle(terms, b + 3),
            angle(terms, b + 4),
        );
    }
    for c in 0..contacts {
        s += &format!(
            "[[contact]]\nname = \"c{c}\"\nbody = \"b{}\"\nframe = \"body\"\npoint = [\"{:.2} m\", \"{:.3} m\", \"-0.1 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\n",
            c % bodies,
            0.2 * ((c % 3) as f64 - 1.0),
            0.15 * ((c % 5) as f64 / 2.0 - 1.0),
        );
    }
    s
}

fn nodes(e: &Expr) -> usize {
    let mut n = 0;
    e.visit(&mut |_| n += 1);
    n
}

/// Expression nodes and text bytes of everything the reader built: the
/// named intermediates, the bodies' masses, inertias and positions, and
/// the contacts' points and normals.
fn built(source: &str) -> (usize, usize) {
    let case = meff::case::parse_case("poses.toml", source).unwrap_or_else(|e| panic!("{e}"));
    let mut vals: Vec<&Val> = case.derived.iter().map(|d| &d.value).collect();
    let Form::Bodies { bodies, .. } = &case.form else {
        panic!("a body-form case")
    };
    for b in bodies {
        vals.extend(&b.position);
        if let BodyKind::Rigid { mass, inertia } = &b.kind {
            vals.push(mass);
            match inertia {
                InertiaVal::Scalar(v) => vals.push(v),
                InertiaVal::Diagonal(d) => vals.extend(d.iter()),
                InertiaVal::Full(f) => vals.extend(f.iter().flatten()),
            }
        }
    }
    for c in &case.contacts {
        if let ContactGeometry::Point { point, normal, .. } = &c.geometry {
            vals.extend(point.iter().chain(normal));
        }
    }
    (
        vals.iter().map(|v| nodes(&v.expr)).sum(),
        vals.iter().map(|v| v.text.len()).sum(),
    )
}

#[test]
fn what_poses_build_is_linear_in_the_input() {
    for orientation in ["rpy", "quat", "axis"] {
        for (bodies, contacts, terms) in [(1, 30, 200), (1, 300, 200), (3, 300, 600), (20, 40, 20)]
        {
            let src = hostile(bodies, contacts, terms, orientation);
            let (n, text) = built(&src);
            // Each input byte builds a few nodes and bytes at most (the
            // compositions over named pieces add a bounded amount per body
            // and per contact); repeating the angles built thousands.
            assert!(
                n <= 4 * src.len() && text <= 4 * src.len(),
                "{orientation}, {bodies} bodies, {contacts} contacts, {terms} terms: \
                 {n} nodes and {text} bytes built from {} bytes",
                src.len()
            );
        }
    }
}

#[test]
fn long_angles_keep_the_numbers_and_the_closed_forms() {
    // A planar rod turned by an angle written as a long expression equal
    // to th: the body-frame contact's a = 1/m + r²/I at any angle, proved
    // symbolically through the named intermediates.
    let zero: Vec<String> = (0..40).map(|i| format!("{}*(th - th)", i + 1)).collect();
    let angle = format!("th + ({})", zero.join(" + "));
    let case = |angle: &str| {
        format!(
            "title = \"rod\"\n[parameters]\nm = \"2 kg\"\nI = \"0.02 kg m^2\"\nr = \"0.1 m\"\nth = \"0.7\"\n\
             [[body]]\nname = \"rod\"\ntype = \"rigid\"\nmass = \"m\"\ninertia = \"I\"\nangle = \"{angle}\"\n\
             [[contact]]\nname = \"k\"\nbody = \"rod\"\nframe = \"body\"\npoint = [\"r\", \"0 m\"]\nnormal = [0, 1]\nstiffness = \"1e5 N/m\"\n\
             [[claim]]\nof = \"a(k)\"\nequals = \"1/m + r^2/I\"\n"
        )
    };
    let long = evaluate_str(&case(&angle));
    assert!(!long.case.derived.is_empty(), "the long angle is named");
    let short = evaluate_str(&case("th"));
    let (a, b) = (
        long.report.contacts[0].m_eff.unwrap(),
        short.report.contacts[0].m_eff.unwrap(),
    );
    assert!((a - b).abs() <= 1e-12 * b, "{a} vs {b}");
    assert!((a - 1.0 / (0.5 + 0.5)).abs() < 1e-12, "m_eff = {a}");
    let claim = &long.report.claims[0];
    assert_eq!(claim.passed, Some(true), "{:?}", claim.message);
    assert_eq!(claim.how, "symbolic", "proved in closed form");
    // No intermediate shows in the displayed forms.
    let shown = format!("{:?}", long.derivation.as_ref().map(|d| &d.contacts));
    assert!(!shown.contains("_0"), "{shown}");
}
