//! The symbolic engine: closed forms derived from the model (not looked
//! up), canonical forms, printing round trips, claims.

use crate::support::{
    assert_close, bundled, bundled_case_paths, evaluate_path, evaluate_str, is_model_case, root,
};
use meff::expr;
use meff::symbolic::{Converter, Frac, Printer, Symbols, poly::Q};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn a_text(source: &str, contact: usize) -> String {
    let ev = evaluate_str(source);
    let d = ev
        .derivation
        .as_ref()
        .unwrap_or_else(|e| panic!("no derivation: {e}"));
    d.contacts[contact].a.text.clone()
}

#[test]
fn closed_forms_are_derived() {
    let two_particles = r#"
space = "line"
[parameters]
m1 = "2 kg"
m2 = "3 kg"
[[body]]
name = "p1"
type = "particle"
mass = "m1"
[[body]]
name = "p2"
type = "particle"
mass = "m2"
position = ["0.1 m"]
[[contact]]
name = "c"
body = "p2"
other = "p1"
point = ["0.05 m"]
normal = [1]
stiffness = "1e5 N/m"
[[contact]]
name = "wall"
body = "p1"
point = ["-0.05 m"]
normal = [-1]
stiffness = "1e5 N/m"
"#;
    assert_eq!(a_text(two_particles, 0), "1/m1 + 1/m2");
    assert_eq!(a_text(two_particles, 1), "1/m1");

    let seed = bundled("offcentre.toml");
    let d = seed.derivation.as_ref().unwrap();
    assert_eq!(d.contacts[0].a.text, "1/m + r^2/I");
    assert_eq!(d.contacts[0].a.latex, "\\frac{1}{m} + \\frac{r^{2}}{I}");
    assert_eq!(
        d.contacts[0].m_eff.as_ref().unwrap().text,
        "m*I/(I + m*r^2)"
    );
    assert_eq!(d.contacts[0].a_fraction.text, "(I + m*r^2)/(m*I)");
    // The numbers-substituted line of the seed report.
    assert_eq!(
        d.contacts[0].a_substituted.text,
        "1/(2 kg) + (0.10 m)^2/(0.020 kg m^2)"
    );

    // Two contacts on one planar body: A_ij = 1/m + r_i r_j / I.
    let two = r#"
[parameters]
m = "2 kg"
I = "0.02 kg m^2"
r1 = "0.05 m"
r2 = "0.03 m"
[[body]]
name = "b"
type = "rigid"
mass = "m"
inertia = "I"
[[contact]]
name = "c1"
body = "b"
point = ["r1", "0 m"]
normal = [0, 1]
stiffness = "1e5 N/m"
[[contact]]
name = "c2"
body = "b"
point = ["r2", "0 m"]
normal = [0, 1]
stiffness = "1e5 N/m"
"#;
    let ev = evaluate_str(two);
    let d = ev.derivation.as_ref().unwrap();
    assert_eq!(d.delassus_forms[0][1].text, "1/m + r1*r2/I");

    // 3-d body, diagonal inertia, symbolic lever arm (rx, ry, rz) and normal z:
    // r×n = (ry, -rx, 0), so a = 1/m + ry^2/Ixx + rx^2/Iyy.
    let body3d = r#"
space = "3d"
[parameters]
m = "2 kg"
Ixx = "0.01 kg m^2"
Iyy = "0.02 kg m^2"
Izz = "0.03 kg m^2"
rx = "0.1 m"
ry = "0.05 m"
rz = "-0.02 m"
[[body]]
name = "b"
type = "rigid"
mass = "m"
inertia = ["Ixx", "Iyy", "Izz"]
[[contact]]
name = "c"
body = "b"
point = ["rx", "ry", "rz"]
normal = [0, 0, 1]
stiffness = "1e5 N/m"
"#;
    assert_eq!(a_text(body3d, 0), "1/m + ry^2/Ixx + rx^2/Iyy");

    // Two 3-d bodies: the sum of both bodies' terms.
    let bodies = bundled("two-bodies-3d.toml");
    let d = bodies.derivation.as_ref().unwrap();
    // The lever arms typed in metres stay quantities (not 1/(2500*J1)).
    assert_eq!(
        d.contacts[0].a.text,
        "1/m1 + 1/m2 + (0.02 m)^2/J1 + (0.01 m)^2/Jx + (0.03 m)^2/Jy - 2*(0.03 m)*(0.02 m)/Jy + (0.02 m)^2/Jy"
    );
}

#[test]
fn seed_claims_symbolic_dimension_and_counterexample() {
    let ok = bundled("offcentre.toml");
    assert_eq!(ok.report.claims[0].how, "symbolic");
    assert_eq!(ok.report.claims[0].passed, Some(true));
    assert_eq!(ok.report.claims[1].how, "symbolic");

    let source = std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap();
    let dim =
        evaluate_str(&source.replace("equals = \"m*I/(I + m*r^2)\"", "equals = \"m*I/(I + r^2)\""));
    assert_eq!(dim.report.claims[0].passed, Some(false));
    assert_eq!(dim.report.claims[0].how, "dimension");
    let wrong = evaluate_str(&source.replace(
        "equals = \"m*I/(I + m*r^2)\"",
        "equals = \"m*I/(I + 2*m*r^2)\"",
    ));
    let c = &wrong.report.claims[0];
    assert_eq!(c.passed, Some(false));
    assert_eq!(c.how, "symbolic");
    assert!(
        c.message.as_ref().unwrap().contains("simplifies to"),
        "{c:?}"
    );
    assert!(c.counterexample.is_some());
}

#[test]
fn symbolic_a_matches_numeric_a_for_every_bundled_case() {
    for path in bundled_case_paths() {
        let ev = evaluate_path(&path);
        if is_model_case(&ev) {
            continue;
        }
        let d = ev
            .derivation
            .as_ref()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let c = ev.analysis.contacts.len();
        let scale = (0..c)
            .map(|i| ev.analysis.delassus[(i, i)].abs())
            .fold(0.0, f64::max);
        for i in 0..c {
            for j in 0..c {
                let sym = d.symbols.eval(&d.delassus[i][j]);
                let exp = d.symbols.eval(&d.expanded[i][j]);
                let num = ev.analysis.delassus[(i, j)];
                assert!(
                    (sym - num).abs() <= 1e-12 * scale,
                    "{}: A[{i}][{j}] {sym} vs {num}",
                    path.display()
                );
                assert!(
                    (exp - num).abs() <= 1e-12 * scale,
                    "{}: expanded A[{i}][{j}]",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn symbolic_a_matches_numeric_a_at_random_rational_parameters() {
    let mut rng = StdRng::seed_from_u64(11);
    for name in [
        "two-corners.toml",
        "box-3d.toml",
        "double-pendulum-pins.toml",
        "two-bodies-3d.toml",
    ] {
        let source = std::fs::read_to_string(root().join("cases").join(name)).unwrap();
        let ev = evaluate_str(&source);
        let d = ev.derivation.as_ref().unwrap();
        for _ in 0..5 {
            // Scale the independent parameters by random rationals k/8 in [0.5, 2].
            let case = &ev.case;
            let overrides: Vec<(usize, f64)> = (0..case.parameters.len())
                .filter(|&i| case.parameters[i].value.expr.params().is_empty())
                .map(|i| {
                    (
                        i,
                        case.parameters[i].value.si * f64::from(rng.random_range(4u8..=16)) / 8.0,
                    )
                })
                .collect();
            let env = meff::case::Env::with_overrides(case, &overrides).unwrap();
            let model = meff::model::build(case, &mut |v| env.si(v)).unwrap();
            let an = meff::analysis::analyze(&model).unwrap();
            // Atom values at this point: parameters from env, calls re-evaluated.
            let values: Vec<f64> = atom_values(&d.symbols, &env);
            let c = an.contacts.len();
            let scale = (0..c)
                .map(|i| an.delassus[(i, i)].abs())
                .fold(0.0, f64::max);
            for i in 0..c {
                for j in 0..c {
                    let sym = d.symbols.eval_with(&d.expanded[i][j], &values);
                    assert!(
                        (sym - an.delassus[(i, j)]).abs() <= 1e-11 * scale,
                        "{name}: A[{i}][{j}] {sym} vs {}",
                        an.delassus[(i, j)]
                    );
                }
            }
        }
    }
}

fn atom_values(symbols: &Symbols, env: &meff::case::Env) -> Vec<f64> {
    let mut values: Vec<f64> = Vec::new();
    for atom in symbols.atoms() {
        let v = match atom {
            meff::symbolic::Atom::Param(p) => env.values[p].si,
            meff::symbolic::Atom::Pi => std::f64::consts::PI,
            // A typed quantity is a constant at every point.
            meff::symbolic::Atom::Given(q, _) => num_traits::ToPrimitive::to_f64(q).unwrap(),
            meff::symbolic::Atom::Call(f, arg) => {
                let x = symbols.eval_with(arg, &values);
                match f {
                    expr::Func::Sqrt => x.sqrt(),
                    expr::Func::Sin => x.sin(),
                    expr::Func::Cos => x.cos(),
                    expr::Func::Tan => x.tan(),
                    expr::Func::Exp => x.exp(),
                    expr::Func::Ln => x.ln(),
                    expr::Func::Log10 => x.log10(),
                    expr::Func::Asin => x.asin(),
                    expr::Func::Acos => x.acos(),
                    expr::Func::Atan => x.atan(),
                    expr::Func::Abs => x.abs(),
                }
            }
        };
        values.push(v);
    }
    values
}

/// Random rational functions over four symbols: printing then parsing gives
/// the same canonical form.
#[test]
fn print_parse_round_trip() {
    let mut rng = StdRng::seed_from_u64(12);
    let names = ["m", "I", "r", "k"];
    for _ in 0..300 {
        let mut symbols = Symbols::default();
        for (i, n) in names.iter().enumerate() {
            symbols.intern(meff::symbolic::Atom::Param(n.to_string()), 1.0 + i as f64);
        }
        let mut f = Frac::int(0);
        for _ in 0..rng.random_range(1..4) {
            let mut term = Frac::constant(Q::new(
                rng.random_range(-5i64..=5).into(),
                rng.random_range(1i64..=4).into(),
            ));
            for _ in 0..rng.random_range(0..4) {
                let v = Frac::var(rng.random_range(0..4));
                term = if rng.random_bool(0.7) {
                    term * v
                } else {
                    term / v
                };
            }
            f = if rng.random_bool(0.5) {
                f + term
            } else {
                f - term
            };
        }
        if rng.random_bool(0.3) && !f.is_zero() {
            f = Frac::int(1) / f;
        }
        let text = Printer::names(&symbols, &[]).text(&f);
        let parsed = expr::parse(&text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        let defs: Vec<(String, expr::Expr)> = Vec::new();
        let mut conv = Converter::new(&mut symbols, &defs, false);
        let back = conv.convert(&parsed).unwrap();
        assert_eq!(back, f, "{text}");
    }
}

#[test]
fn trigonometric_claim_in_another_form_is_decided_symbolically() {
    let source =
        std::fs::read_to_string(root().join("cases/double-pendulum-generalized.toml")).unwrap();
    // cos(q1 - q2)^2 written as (cos q1 cos q2 + sin q1 sin q2)^2: equal by
    // the angle-difference formula, which canonical forms apply.
    let rewritten = source.replace(
        "(m2*L1*(L2/2)*cos(q1 - q2))^2",
        "(m2*L1*(L2/2)*(cos(q1)*cos(q2) + sin(q1)*sin(q2)))^2",
    );
    assert_ne!(rewritten, source);
    let ev = evaluate_str(&rewritten);
    let c = &ev.report.claims[0];
    assert_eq!(c.passed, Some(true), "{c:?}");
    assert_eq!(c.how, "symbolic");
    // And the generalized m_eff with cos atoms agrees with the numeric path.
    let d = ev.derivation.as_ref().unwrap();
    let a = d.symbols.eval(&d.delassus[1][1]);
    assert_close(a, ev.analysis.contacts[1].a, 1e-12);
    // The readable form uses Pythagoras on the difference angle.
    assert!(
        d.contacts[1].a.text.contains("sin(q1 - q2)^2"),
        "{}",
        d.contacts[1].a.text
    );
}

/// Identities the canonical form does not know (`tan = sin/cos`) are
/// decided by seeded probing; a wrong one is caught there.
#[test]
fn claims_beyond_the_canonical_identities_are_probed() {
    let seed = std::fs::read_to_string(root().join("cases/offcentre.toml")).unwrap();
    let with = |equals: &str| {
        seed.replace("k = ", "phi = \"30 deg\"\nk = ").replace(
            "equals = \"1/m + r^2/I\"",
            &format!("equals = \"{equals}\""),
        )
    };
    let ok = evaluate_str(&with("1/m + r^2/I*(tan(phi)*cos(phi)/sin(phi))"));
    let c = ok
        .report
        .claims
        .iter()
        .find(|c| c.of == "a(offcentre)")
        .unwrap();
    assert_eq!((c.passed, c.how), (Some(true), "numeric"), "{c:?}");
    let bad = evaluate_str(&with("1/m + r^2/I*(tan(phi)*sin(phi)/cos(phi))"));
    let c = bad
        .report
        .claims
        .iter()
        .find(|c| c.of == "a(offcentre)")
        .unwrap();
    assert_eq!(c.passed, Some(false), "{c:?}");
}

/// The readable forms (identities applied, common factors taken out) are
/// the same functions as the canonical ones: printed, parsed back and
/// evaluated at random parameter points they give the numeric A.
#[test]
fn readable_forms_evaluate_to_the_numeric_delassus_matrix() {
    let mut rng = StdRng::seed_from_u64(21);
    let dirs = [root().join("cases"), root().join("tests/cases/symbolic")];
    for path in dirs
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
    {
        let ev = evaluate_path(&path);
        if is_model_case(&ev) {
            continue;
        }
        let d = ev.derivation.as_ref().unwrap();
        let case = &ev.case;
        for trial in 0..4 {
            let overrides: Vec<(usize, f64)> = (0..case.parameters.len())
                .filter(|&i| case.parameters[i].value.expr.params().is_empty())
                .map(|i| {
                    let f = if trial == 0 {
                        1.0
                    } else {
                        rng.random_range(0.6..1.7)
                    };
                    (i, case.parameters[i].value.si * f)
                })
                .collect();
            let env = meff::case::Env::with_overrides(case, &overrides).unwrap();
            let model = meff::model::build(case, &mut |v| env.si(v)).unwrap();
            let an = meff::analysis::analyze(&model).unwrap();
            // Geometry typed as literals stays a quantity with its unit in
            // the forms, so the parameters carry theirs too.
            let lookup =
                |name: &str| -> Option<expr::Value> { env.eval(&expr::parse(name).ok()?).ok() };
            let value = |text: &str| -> f64 {
                let e = expr::parse(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
                expr::eval(&e, &lookup)
                    .unwrap_or_else(|e| panic!("{text}: {e:?}"))
                    .si
            };
            let c = an.contacts.len();
            for i in 0..c {
                let a = an.delassus[(i, i)];
                let dc = &d.contacts[i];
                assert_close(value(&dc.a.text), a, 1e-11);
                assert_close(value(&dc.a_fraction.text), a, 1e-11);
                if let Some(m) = &dc.m_eff {
                    assert_close(value(&m.text), 1.0 / a, 1e-11);
                }
                for j in 0..c {
                    let scale = a.abs().max(an.delassus[(j, j)].abs());
                    let v = value(&d.delassus_forms[i][j].text);
                    assert!(
                        (v - an.delassus[(i, j)]).abs() <= 1e-11 * scale,
                        "{}: A[{i}][{j}] = {} gives {v}, numeric {}",
                        path.display(),
                        d.delassus_forms[i][j].text,
                        an.delassus[(i, j)]
                    );
                }
            }
        }
    }
}

/// A box turned by three Euler angles: the world inertia tensor is full, yet
/// the derivation succeeds (cofactors with Pythagoras applied as it goes)
/// and, as physics demands, no form depends on the turn about the vertical.
#[test]
fn rotated_box_derives_and_ignores_the_turn_about_the_vertical() {
    let ev = evaluate_path(&root().join("tests/cases/symbolic/rotated-box.toml"));
    let d = ev.derivation.as_ref().unwrap_or_else(|e| panic!("{e}"));
    for c in &d.contacts {
        assert!(!c.a.text.contains("psi"), "{}", c.a.text);
        assert!(c.a.text.contains("theta"), "{}", c.a.text);
    }
    // A flat box (theta = phi = 0) has the classic corner form.
    let source = std::fs::read_to_string(root().join("tests/cases/symbolic/rotated-box.toml"))
        .unwrap()
        .replace("phi = \"10 deg\"", "phi = \"0 deg\"")
        .replace("theta = \"20 deg\"", "theta = \"0 deg\"");
    let flat = evaluate_str(&source);
    let (m, a, b, h) = (3.0, 0.4, 0.2, 0.1);
    let ixx = m * (b * b + h * h) / 12.0;
    let iyy = m * (a * a + h * h) / 12.0;
    let expect = 1.0 / m + (b / 2.0) * (b / 2.0) / ixx + (a / 2.0) * (a / 2.0) / iyy;
    assert_close(flat.analysis.contacts[0].a, expect, 1e-12);
}

/// `√x · √x = x` in printed forms: a lever arm written `sqrt(1/2)*L`.
#[test]
fn square_roots_squared_print_as_their_argument() {
    let source = std::fs::read_to_string(root().join("cases/offcentre.toml"))
        .unwrap()
        .replace(
            "r = { value = \"0.10 m\"",
            "L = \"0.1414213562373095 m\"\nr = { value = \"0.10 m\"",
        )
        .replace(
            "point = [\"r\", \"0 m\"]",
            "point = [\"sqrt(1/2)*L\", \"0 m\"]",
        );
    assert!(source.contains("sqrt(1/2)*L\""), "the seed case changed");
    let ev = evaluate_str(&source);
    let d = ev.derivation.as_ref().unwrap();
    let a = &d.contacts[0].a.text;
    assert!(!a.contains("sqrt"), "{a}");
    assert!(a.contains("L^2/(2*I)"), "{a}");
}

/// The forms a careful hand derivation reaches: the elbow of the pinned
/// double pendulum as SymPy's trigsimp/fu give it, and every bundled `a`
/// short enough to read.
#[test]
fn readable_forms_are_as_short_as_a_hand_derivation() {
    let ev = bundled("double-pendulum-pins.toml");
    let elbow = &ev.derivation.as_ref().unwrap().contacts[1].a.text;
    assert_eq!(
        elbow, "12*sin(q1)^2/(4*m1 + 3*m2 + 9*m2*sin(q1 - q2)^2)",
        "{elbow}"
    );
    assert!(elbow.len() <= 60);
    let ev = bundled("double-pendulum-generalized.toml");
    let elbow = &ev.derivation.as_ref().unwrap().contacts[1].a.text;
    assert!(
        elbow.starts_with("4*L1^2*sin(q1)^2*(4*I2 + m2*L2^2)/("),
        "{elbow}"
    );
}

#[test]
fn canonical_gcd_cancels_non_monomial_factors() {
    let mut symbols = Symbols::default();
    for n in ["m", "r"] {
        symbols.intern(meff::symbolic::Atom::Param(n.into()), 1.0);
    }
    let defs: Vec<(String, expr::Expr)> = Vec::new();
    let mut conv = Converter::new(&mut symbols, &defs, false);
    let f = conv
        .convert(&expr::parse("(m^2 - r^2)/(m - r)").unwrap())
        .unwrap();
    let g = conv.convert(&expr::parse("m + r").unwrap()).unwrap();
    assert_eq!(f, g);
    let h = conv
        .convert(&expr::parse("(m^3 - r^3)/(m^2 - r^2)").unwrap())
        .unwrap();
    assert_eq!(
        Printer::names(&symbols, &[]).text(&h),
        "(m^2 + m*r + r^2)/(m + r)"
    );
    // Huge powers are refused, not expanded.
    let mut conv = Converter::new(&mut symbols, &defs, false);
    assert!(conv.convert(&expr::parse("m^4000000000").unwrap()).is_err());
}

/// Elasticities from the closed forms agree with central differences of the
/// whole numeric pipeline, for every bundled case.
#[test]
fn sensitivities_match_finite_differences() {
    for path in bundled_case_paths() {
        let ev = evaluate_path(&path);
        let case = &ev.case;
        for s in &ev.report.symbolic.sensitivities {
            let p = case
                .parameters
                .iter()
                .position(|p| p.name == s.parameter)
                .unwrap();
            let c = case.contact_index(&s.contact).unwrap();
            let base = case.parameters[p].value.si;
            if base == 0.0 {
                // No elasticity at a nominal of 0: null, not a number.
                assert!(s.m_eff.is_none() && s.omega.is_none(), "{s:?}");
                continue;
            }
            let (s_m, s_w) = (s.m_eff.unwrap(), s.omega.unwrap());
            let h = 1e-5;
            let at = |f: f64| {
                let env = meff::case::Env::with_overrides(case, &[(p, base * f)]).unwrap();
                // The model at the point, its Hertz laws derived there.
                let (model, _) = meff::model::build_at(case, &env).unwrap();
                let an = meff::analysis::analyze(&model).unwrap();
                (
                    an.contacts[c].m_eff.unwrap().ln(),
                    an.contacts[c].omega.ln(),
                )
            };
            let (mp, wp) = at(1.0 + h);
            let (mm, wm) = at(1.0 - h);
            let (fd_m, fd_w) = ((mp - mm) / (2.0 * h), (wp - wm) / (2.0 * h));
            let name = path.display();
            assert!(
                (s_m - fd_m).abs() < 1e-6 * (1.0 + fd_m.abs()),
                "{name} {} {}: {s_m} vs {fd_m}",
                s.contact,
                s.parameter,
            );
            assert!(
                (s_w - fd_w).abs() < 1e-6 * (1.0 + fd_w.abs()),
                "{name} {} {}: {s_w} vs {fd_w}",
                s.contact,
                s.parameter,
            );
        }
    }
    let seed = bundled("offcentre.toml");
    let r = seed
        .report
        .symbolic
        .sensitivities
        .iter()
        .find(|s| s.parameter == "r")
        .unwrap();
    assert_eq!(
        r.m_eff_symbolic.as_ref().unwrap().text,
        "-2*m*r^2/(I + m*r^2)"
    );
    assert_close(r.m_eff.unwrap(), -1.0, 1e-12);
}
