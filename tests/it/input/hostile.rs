//! Hostile input: what an attacker would write costs bounded time and memory
//! (the symbolic budget, input caps, names and headers in bulk, poses over
//! long angle expressions) and never passes for a result: no panic, no hang,
//! no silent wrong number.

use crate::support::{
    SEED, assert_close, assert_exit, cli, eval_stdin, eval_text, evaluate_str, meff,
    meff_with_stdin, read_text, refused, root, scratch,
};
use meff::case::{BodyKind, ContactGeometry, Form, InertiaVal, Val};
use meff::expr::Expr;
use std::process::Command;

#[test]
fn huge_or_tiny_numbers_exhaust_the_symbolic_budget_not_the_machine() {
    let pins = read_text(&root().join("cases/double-pendulum-pins.toml"));
    let ev = evaluate_str(&pins.replace(
        "inertia = \"m1*L1^2/12\"",
        "inertia = \"m1*L1^2/12/1e-300\"",
    ));
    assert_eq!(ev.analysis.contacts.len(), 2);
    let box3 = |normal: &str| {
        format!(
            "space = \"3d\"\n[[body]]\nname = \"b\"\ntype = \"rigid\"\nmass = \"1 kg\"\ninertia = [\"0.1 kg m^2\", \"0.2 kg m^2\", \"0.3 kg m^2\"]\n[[contact]]\nname = \"c\"\nbody = \"b\"\npoint = [\"0.1 m\", \"0.2 m\", \"0.05 m\"]\nnormal = {normal}\nstiffness = \"1e5 N/m\"\n"
        )
    };
    for normal in [
        "[0, 1e-300, 1]",
        "[0, 0.00001, 0.99999999995]",
        "[1e-200, 1e-150, 1]",
    ] {
        let ev = evaluate_str(&box3(normal));
        // The numbers stand whatever the symbolic engine managed.
        assert!(ev.analysis.contacts[0].a > 0.0);
    }
}

#[test]
fn parameter_chains_that_square_do_not_hang() {
    let mut chain = String::from("[parameters]\np1 = \"1.0001 kg\"\n");
    for i in 2..=40 {
        chain.push_str(&format!("p{i} = \"p{}*p{}/(1.0001 kg)\"\n", i - 1, i - 1));
    }
    let case = SEED.replace("[parameters]\nm = \"2 kg\"", &format!("{chain}m = \"p40\""));
    let ev = evaluate_str(&case);
    assert!(
        ev.derivation.is_err(),
        "a 2^39-degree closed form is not derived"
    );
    let mut chain = String::from("[parameters]\np0 = \"2\"\n");
    for i in 1..=8 {
        chain.push_str(&format!("p{i} = \"(p{}+p{}^2)/2\"\n", i - 1, i - 1));
    }
    let case = SEED.replace(
        "[parameters]\nm = \"2 kg\"",
        &format!("{chain}m = \"p8*1e-150 kg\""),
    );
    let ev = evaluate_str(&case);
    assert!(ev.analysis.contacts[0].m_eff.is_some());
}

#[test]
fn a_huge_claim_is_decided_within_the_budget() {
    let case = format!(
        "{}[[claim]]\nof = \"a(c)\"\nequals = \"(1+m/(1 kg))^64*(1+r/(1 m))^64*(1+I/(1 kg m^2))^64*(1+m*r^2/I)^64/(1 kg)\"\n",
        *SEED
    );
    let ev = evaluate_str(&case);
    assert_eq!(ev.report.claims[1].passed, Some(false));
}

#[test]
fn large_generalized_cases_and_many_parameters_stay_linear() {
    let n: usize = 300;
    let mut s = String::from("[generalized]\ncoordinates = [");
    s.push_str(
        &(0..n)
            .map(|i| format!("{{ name = \"q{i}\", unit = \"m\" }}"))
            .collect::<Vec<_>>()
            .join(","),
    );
    s.push_str("]\nmass_matrix = [\n");
    for i in 0..n {
        let row: Vec<&str> = (0..n)
            .map(|j| {
                if i == j {
                    "\"2 kg\""
                } else if i.abs_diff(j) == 1 {
                    "\"0.001 kg\""
                } else {
                    "\"0 kg\""
                }
            })
            .collect();
        s.push_str(&format!("[{}],\n", row.join(",")));
    }
    s.push_str("]\n[[contact]]\nname = \"c\"\njacobian = [\"1\"");
    s.push_str(&",\"0\"".repeat(n - 1));
    s.push_str("]\nstiffness = \"1e5 N/m\"\n");
    let ev = evaluate_str(&s);
    assert!(ev.derivation.is_err());
    assert_close(ev.analysis.contacts[0].a, 0.5, 1e-3);

    let mut params = String::from("[parameters]\n");
    for i in 0..20_000 {
        params.push_str(&format!("u{i} = \"{i} kg\"\n"));
    }
    let ev = evaluate_str(&SEED.replace("[parameters]\n", &params));
    assert_eq!(ev.report.claims[0].passed, Some(true));
    let d = ev.derivation.as_ref().unwrap();
    assert!(
        d.symbols.atoms().len() < 10,
        "unused parameters are not symbols"
    );
}

#[test]
fn verification_settings_are_bounded() {
    let (code, _, stderr) = eval_text(
        "verify",
        &format!("{}[verify]\nperiods = 100000\nlevels = 20\n", *SEED),
    );
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("`periods` must be an integer from 1 to 1000"),
        "{stderr}"
    );
}

#[test]
fn only_regular_files_up_to_the_cap_are_read() {
    let out = meff(["eval", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a regular file"));
    let dir = scratch("fifo");
    let fifo = dir.join("f.toml");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    if made {
        let out = meff(["eval", fifo.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
    }
    let out = meff(["--max-input-bytes", "100", "eval", "cases/offcentre.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("input limit of 100 bytes"));
    // Standard input when asked for.
    let out = meff_with_stdin(&["eval", "--no-verify", "-"], &SEED);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("316.2"));
}

#[test]
fn an_undecided_claim_is_not_a_pass() {
    // The claim's expression cannot be evaluated (a logarithm of a negative value).
    let case = SEED.replace(
        "equals = \"m*I/(I + m*r^2)\"",
        "equals = \"m*ln(0 - r/(1 m))\"",
    );
    let (code, stdout, _) = eval_text("undecided", &case);
    assert_eq!(code, Some(1), "{stdout}");
}

/// Thousands of misspelt names among thousands of parameters: every
/// problem is still reported (up to the cap), in bounded work.
#[test]
fn many_unknown_names_are_reported_without_quadratic_hints() {
    let mut case = String::from("title = \"t\"\n[parameters]\n");
    for i in 0..3000 {
        case.push_str(&format!("p_{i:05} = \"1 kg\"\n"));
    }
    for i in 0..3000 {
        case.push_str(&format!("q_{i:05} = \"p_{i:05}x + zz_{i}\"\n"));
    }
    let out = eval_stdin(&case);
    let stderr = refused(&out, "unknown");
    assert!(stderr.len() < 200_000, "{} bytes of messages", stderr.len());
}

/// A CSV header of 20,000 unknown columns is a handful of problems, not
/// 20,000 (the cap is 20 per scene).
#[test]
fn a_csv_header_of_unknown_columns_is_capped() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let header: Vec<String> = (0..20_000).map(|i| format!("col{i}")).collect();
    std::fs::write(dir.join("b.csv"), format!("{}\n", header.join(","))).unwrap();
    std::fs::write(
        dir.join("c.csv"),
        "body,point_x,point_y,normal_x,normal_y,stiffness\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("s.toml"),
        "title = \"s\"\n[scene]\nbodies = \"b.csv\"\ncontacts = \"c.csv\"\n",
    )
    .unwrap();
    let out = cli(["eval", "--no-verify"])
        .arg(dir.join("s.toml"))
        .output();
    let stderr = refused(&out, "unknown column");
    assert!(stderr.matches("unknown column").count() <= 20, "{stderr}");
}

/// `meff mdbook`: bad input (not JSON, a missing case) exits 2; only a
/// claim exits 1.
#[test]
fn mdbook_bad_input_exits_2() {
    let out = meff_with_stdin(&["mdbook"], "{ not json");
    assert_eq!(out.status.code(), Some(2));
    let tmp = tempfile::tempdir().unwrap();
    let input = serde_json::json!([
        { "root": tmp.path(), "config": { "book": { "src": "src" } }, "renderer": "html" },
        { "items": [ { "Chapter": {
            "name": "c", "content": "{{#meff missing.toml}}", "number": [1],
            "sub_items": [], "path": "c.md", "source_path": "c.md", "parent_names": []
        } } ] }
    ]);
    let out = meff_with_stdin(&["mdbook"], &input.to_string());
    assert_exit(&out, 2);
}

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
