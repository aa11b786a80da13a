//! One symbol per meaning on a sheet: a case's symbol that collides with
//! one the sheet reserves (J the Jacobian, A the Delassus matrix, c a
//! damping, ω a frequency…) is printed with a tilde in every format and
//! named in the notation list; JSON keeps the case's names. Closed forms
//! keep the numbers typed with a unit as symbols (ℓ₁ = 0.02 m), so they
//! read by their dimensions, and still evaluate to the sheet's values.

use crate::support::{bundled, evaluate_str};
use meff::render::templates::Templates;

/// Names that collide (J1 an inertia, a/A/c lengths, omega a speed, M a
/// mass, m_eff a mass) beside names that do not (k a stiffness, I, r).
const COLLIDING: &str = r#"
title = "Names the sheet uses for itself"
space = "planar"

[parameters]
M = { value = "2 kg", description = "mass of the block" }
J1 = { value = "0.004 kg m^2", description = "inertia about the centre" }
a = { value = "0.02 m", description = "lever arm" }
A = { value = "0.01 m", description = "extra offset" }
c = { value = "0.05 m", description = "height of the centre" }
omega = { value = "3 rad/s", description = "a speed nobody uses" }
k = { value = "1e5 N/m", description = "penalty stiffness" }

[[body]]
name = "block"
type = "rigid"
mass = "M"
inertia = "J1"
position = ["0 m", "c"]

[[contact]]
name = "tip"
body = "block"
point = ["a + A", "0 m"]
normal = [0, 1]
stiffness = "k"
"#;

/// The symbols each colliding parameter must print as, and those that
/// must stay as they are.
const MARKED: &[(&str, &str)] = &[
    ("M", "\\tilde{M}"),
    ("J1", "\\tilde{J}_{1}"),
    ("a", "\\tilde{a}"),
    ("A", "\\tilde{A}"),
    ("c", "\\tilde{c}"),
    ("omega", "\\tilde{\\omega}"),
    ("k", "k"),
];

#[test]
fn colliding_names_are_marked_in_every_format_and_kept_in_json() {
    let ev = evaluate_str(COLLIDING);
    let t = Templates::load(None).unwrap();
    for (name, symbol) in MARKED {
        let p = ev.report.inputs.iter().find(|p| p.name == *name).unwrap();
        assert_eq!(p.symbol_latex, *symbol, "{name}");
        assert_eq!(p.collides_with.is_some(), *name != "k", "{name}");
    }
    // The closed form of a prints the marked symbols, never a bare J_{1}.
    let d = &ev.report.symbolic.contacts[0];
    assert!(d.a.latex.contains("\\tilde{J}_{1}"), "{}", d.a.latex);
    assert!(d.a.latex.contains("\\tilde{M}"), "{}", d.a.latex);
    assert!(!d.a.latex.replace("\\tilde{J}", "").contains("J_{1}"));
    // Text forms keep the case's names (meff's parser reads them back).
    assert!(d.a.text.contains("J1"), "{}", d.a.text);

    let md = t.report_md(&ev.report, 4).unwrap();
    let (typ, _) = t.report_typ(&ev.report, 4).unwrap();
    let html = t.report_html(&ev.report, 4).unwrap();
    for (name, symbol) in MARKED.iter().filter(|(n, _)| *n != "k") {
        assert!(
            md.contains(&format!("${symbol}$ is the case's `{name}`")),
            "md: {name}"
        );
        assert!(
            html.contains(&format!("is the case's <code>{name}</code>")),
            "html: {name}"
        );
        assert!(
            typ.contains(&format!("is the case's #raw(\"{name}\")")),
            "typ: {name}"
        );
    }
    assert!(typ.contains("tilde(J)"), "Typst typesets the tilde");
    assert!(
        !typ.contains("\"\\\\tilde\""),
        "no tilde left as text in Typst"
    );
    assert!(
        !md.contains("is the case's `k`"),
        "k is a stiffness: not marked"
    );
    // JSON keeps the case's names.
    let json = meff::render::json(&ev.report);
    for (name, _) in MARKED {
        assert!(json.contains(&format!("\"name\": \"{name}\"")), "{name}");
    }
}

#[test]
fn closed_forms_keep_typed_lengths_as_symbols() {
    // two-bodies-3d types its contact point and positions in metres: the
    // closed form of a was `1/m1 + 1/(2500 J1) + …` (2500 = 1/(0.02 m)²).
    let ev = bundled("two-bodies-3d.toml");
    let s = &ev.report.symbolic;
    let d = &s.contacts[0];
    assert!(!d.a.latex.contains("2500"), "{}", d.a.latex);
    assert!(!d.a.latex.contains("10000"), "{}", d.a.latex);
    assert!(d.a.latex.contains("\\ell_{"), "{}", d.a.latex);
    let l = |v: f64| {
        s.given
            .iter()
            .find(|g| (g.value - v).abs() < 1e-12)
            .unwrap()
    };
    assert_eq!(l(0.02).text, "0.02 m");
    assert!(l(0.02).symbol.starts_with("\\ell_{"));
    assert_eq!(l(0.01).unit, "m");
    // The substituted line shows the lengths with their unit.
    assert!(
        d.a_substituted.latex.contains("0.02\\,\\mathrm{m}"),
        "{}",
        d.a_substituted.latex
    );
    // The text form writes the quantity itself, and a claim that quotes
    // it holds, symbolically, at the sheet's value.
    assert!(d.a.text.contains("(0.02 m)"), "{}", d.a.text);
    let case = std::fs::read_to_string(crate::support::root().join("cases/two-bodies-3d.toml"))
        .unwrap()
        + &format!(
            "\n[[claim]]\nof = \"a(touch)\"\nequals = \"{}\"\n",
            d.a.text
        );
    let again = evaluate_str(&case);
    let claim = again.report.claims.last().unwrap();
    assert_eq!(claim.passed, Some(true), "{claim:?}");
    assert_eq!(claim.how, "symbolic", "{claim:?}");
    // Every bundled claim still passes as before.
    assert!(again.report.claims.iter().all(|c| c.passed == Some(true)));
    // The sheet states the values in its "where" line, in every format.
    let t = Templates::load(None).unwrap();
    let md = t.report_md(&ev.report, 4).unwrap();
    assert!(md.contains("are symbols in the closed forms, where $\\ell_{1} = "));
    let (typ, _) = t.report_typ(&ev.report, 4).unwrap();
    assert!(typ.contains("are symbols in the closed forms, where"));
    let html = t.report_html(&ev.report, 4).unwrap();
    assert!(html.contains("are symbols in the closed forms, where"));
}

/// A plate and a weight with numbers typed in their values.
const TYPED: &str = r#"
title = "Typed numbers"
space = "planar"

[parameters]
m = { value = "12 kg", description = "plate" }
b = { value = "0.8 m", description = "width" }
k = { value = "1e5 N/m", description = "stiffness" }

[[body]]
name = "plate"
type = "rigid"
mass = "m"
inertia = "m*(b^2 + (0.04 m)^2)/12"
position = ["0 m", "0 m"]

[[body]]
name = "weight"
type = "particle"
mass = "3 kg"
position = ["0.25 m", "0 m"]

[[contact]]
name = "edge"
body = "plate"
other = "weight"
point = ["b/2 - 0.05 m", "0 m"]
normal = [0, 1]
stiffness = "k"
"#;

/// New members of the class: a typed inertia's `(0.04 m)^2`, a body mass
/// typed as `3 kg` and a point at `0.25 m`: each a symbol with its value,
/// the closed form evaluating to the numeric a.
#[test]
fn typed_masses_inertias_and_points_become_symbols_that_evaluate() {
    let ev = evaluate_str(TYPED);
    let s = &ev.report.symbolic;
    assert!(s.available, "{:?}", s.note);
    let d = &s.contacts[0];
    for (v, unit) in [(0.04, "m"), (0.05, "m"), (3.0, "kg")] {
        let g = s.given.iter().find(|g| (g.value - v).abs() < 1e-12);
        let g = g.unwrap_or_else(|| panic!("{v} {unit} not kept: {:?}", s.given));
        assert_eq!(g.unit, unit);
        // In the form, or in a named sum (𝒟) it refers to.
        let named = s.quantities.iter().map(|q| q.form.latex.as_str());
        assert!(
            std::iter::once(d.a.latex.as_str())
                .chain(named)
                .any(|l| l.contains(&g.symbol)),
            "{} in {}",
            g.symbol,
            d.a.latex
        );
    }
    assert!(s.given.iter().any(|g| g.symbol.starts_with("\\chi_{")));
    // The form's value is the sheet's: a claim quoting its text holds.
    let c = &ev.report.contacts[0];
    let text = d.a.text.clone();
    assert!(!text.contains('\\'), "{text}");
    let claimed = evaluate_str(&format!(
        "{TYPED}\n[[claim]]\nof = \"a(edge)\"\nequals = \"{text}\"\n"
    ));
    let claim = claimed.report.claims.last().unwrap();
    assert_eq!(claim.passed, Some(true), "{claim:?}");
    assert!((claim.value.unwrap() - c.a).abs() <= 1e-12 * c.a.abs());
}
