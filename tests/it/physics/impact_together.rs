//! Struck together (issue 36): an impact's table labels the mass that
//! governs the response. Contacts that push alike act with
//! `1/Σ_j A_cj` — the closed forms of one contact with that mass give the
//! coupled solution's peak force — and the sheet says so in every format;
//! contacts that do not push alike are labelled with their mass alone and
//! the sheet says no one mass governs.

fn tote() -> String {
    std::fs::read_to_string(crate::support::root().join("cases/tote-drop.toml")).unwrap()
}

fn edge(ev: &meff::Evaluated) -> &meff::report::impact::ImpactReport {
    ev.report
        .impacts
        .iter()
        .find(|i| i.name == "on an edge")
        .unwrap()
}

#[test]
fn contacts_struck_alike_act_with_the_row_sum_mass() {
    let ev = crate::support::evaluate_str(&tote());
    let imp = edge(&ev);
    assert!(imp.alike);
    let corner = &imp.contacts[0];
    let sum: f64 = corner.a_struck.iter().sum();
    let m = corner.m_together.unwrap();
    assert!((m - 1.0 / sum).abs() < 1e-12 * m);
    assert!((m - 1.176).abs() < 5e-4, "{m}");
    assert!((corner.m_eff.unwrap() - 1.461).abs() < 5e-4);
    // The coupled solution is one contact of that mass.
    let one = meff::analysis::impact::single(m, 2e5, 60.0, imp.speed);
    let rel = (one.peak_force - corner.peak_force).abs() / one.peak_force;
    assert!(
        rel < 1e-6,
        "closed form {} vs {}",
        one.peak_force,
        corner.peak_force
    );
    // Every format labels and prints that mass, and the headline says it.
    let t = meff::render::templates::Templates::load(None).unwrap();
    let md = t.report_md(&ev.report, 4).unwrap();
    assert!(md.contains("struck together ($m$ above) | 1.176 |"), "{md}");
    assert!(md.contains("each acts with 1/Σ_j A_cj = 1.176 kg (alone 1/A_cc = 1.461 kg)"));
    assert!(!md.contains("coupled; alone"));
    let html = t.report_html(&ev.report, 4).unwrap();
    assert!(html.contains("struck together"));
    assert!(html.contains("<td class=\"num\">1.176</td>"));
    let (typ, _) = t.report_typ(&ev.report, 4).unwrap();
    assert!(typ.contains("struck together") && typ.contains("[1.176]"));
}

#[test]
fn contacts_that_do_not_push_alike_are_labelled_alone() {
    // A corner moved inwards, a stiffer floor under one corner, a resting
    // contact beside the struck ones: the forces differ.
    let base = tote();
    let moved = base.replacen(
        "point = [\"a/2\", \"-b/2\", \"-H/2\"]",
        "point = [\"a/4\", \"-b/2\", \"-H/2\"]",
        1,
    );
    let stiffer = {
        let (head, tail) = base.split_once("name = \"next\"").unwrap();
        format!(
            "{head}name = \"next\"{}",
            tail.replacen("stiffness = \"k\"", "stiffness = \"2*k\"", 1)
        )
    };
    let resting = base.replace(
        "contacts = [\"corner\", \"next\"]",
        "contacts = [\"corner\", \"next\"]\nresting = [\"far\"]",
    ) + "\n[[contact]]\nname = \"far\"\nbody = \"tote\"\nframe = \"body\"\npoint = [\"-a/2\", \"b/2\", \"-H/2\"]\nnormal = [0, 0, 1]\nstiffness = \"k\"\ndamping = \"d\"\n";
    for (what, text) in [("moved", moved), ("stiffer", stiffer), ("resting", resting)] {
        let ev = crate::support::evaluate_str(&text);
        let imp = edge(&ev);
        assert!(!imp.alike, "{what}");
        let t = meff::render::templates::Templates::load(None).unwrap();
        let md = t.report_md(&ev.report, 4).unwrap();
        assert!(
            md.contains("do not push alike, so no one mass governs"),
            "{what}: {md}"
        );
        assert!(md.contains("coupled; alone $1/A_{cc}$"), "{what}");
        assert!(!md.contains("pushing alike, each acts"), "{what}");
    }
}
