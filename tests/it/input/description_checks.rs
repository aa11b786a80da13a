//! The case's words against its results (issue 36, model checks): a mass,
//! frequency, time or force a description states that matches no input
//! and no computed result is a warning at its place in the file; the
//! bundled cases' honest descriptions give none.

const RULE: &str = "description_contradicts_result";

fn warnings(text: &str) -> Vec<meff::checks::ModelCheck> {
    crate::support::evaluate_str(text)
        .report
        .model_checks
        .into_iter()
        .filter(|w| w.rule == RULE)
        .collect()
}

fn case(name: &str) -> String {
    std::fs::read_to_string(crate::support::root().join("cases").join(name)).unwrap()
}

#[test]
fn the_bundled_descriptions_state_nothing_the_results_contradict() {
    let mut stated = 0;
    for entry in std::fs::read_dir(crate::support::root().join("cases")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let ev = crate::support::evaluate_path(&path);
        let found: Vec<_> = ev
            .report
            .model_checks
            .iter()
            .filter(|w| w.rule == RULE)
            .collect();
        assert!(found.is_empty(), "{}: {found:?}", path.display());
        stated += meff::checks::description::stated(&ev.case.description).len();
    }
    // The check read something: the descriptions state masses, frequencies.
    assert!(stated >= 20, "{stated}");
}

#[test]
fn a_description_that_contradicts_a_result_is_a_warning_at_its_place() {
    let tote = case("tote-drop.toml");
    let corners = case("two-corners.toml");
    let planted = [
        // A mass the corner does not see (it sees 1.461 kg).
        (
            "the corner",
            tote.replace("That corner sees 1.46 kg", "That corner sees 2.1 kg"),
            "2.1 kg",
            "description",
        ),
        // A step that is not the stable one (4.560 ms), though an impact lasts 8.2 ms.
        (
            "the step",
            tote.replace(
                "is a later impact not followed here.",
                "is a later impact not followed here. It is stable at 8 ms.",
            ),
            "8 ms",
            "description",
        ),
        // A mode frequency the coupled modes do not have (158, 316 rad/s).
        (
            "a mode",
            corners.replace("(158 rad/s)", "(140 rad/s)"),
            "140 rad/s",
            "description",
        ),
        // A total force the impacts do not give (2788 N summed).
        (
            "a force",
            tote.replace(
                "is a later impact not followed here.",
                "is a later impact not followed here. The two corners together take 3,500 N.",
            ),
            "3,500 N",
            "description",
        ),
        // A parameter's description with the wrong mass (8 kg).
        (
            "a parameter",
            tote.replace(
                "mass of the tote (uniform)",
                "mass of the 9 kg tote (uniform)",
            ),
            "9 kg",
            "parameter m: description",
        ),
    ];
    for (what, text, written, input) in planted {
        let w = warnings(&text);
        assert_eq!(w.len(), 1, "{what}: {w:?}");
        assert_eq!(w[0].input, input, "{what}");
        assert!(w[0].message.contains(written), "{what}: {}", w[0].message);
        // The location is where the words are written.
        let (line, col) = {
            let parts: Vec<&str> = w[0].location.rsplitn(3, ':').collect();
            (
                parts[1].parse::<usize>().unwrap(),
                parts[0].parse::<usize>().unwrap(),
            )
        };
        let at_line = text.lines().nth(line - 1).unwrap();
        assert!(
            at_line[col - 1..].starts_with(written),
            "{what}: {} -> {at_line}",
            w[0].location
        );
    }
}

#[test]
fn honest_and_hedged_statements_are_not_warnings() {
    let tote = case("tote-drop.toml");
    for (what, text) in [
        ("more digits", tote.replace("sees 1.46 kg", "sees 1.461 kg")),
        ("in grams", tote.replace("sees 1.46 kg", "sees 1461 g")),
        ("hedged", tote.replace("sees 1.46 kg", "sees about 2 kg")),
        (
            "the step",
            tote.replace(
                "is a later impact not followed here.",
                "is a later impact not followed here. It is stable at 4.56 ms.",
            ),
        ),
        (
            "the peak",
            tote.replace(
                "is a later impact not followed here.",
                "is a later impact not followed here. The corner takes 1565 N.",
            ),
        ),
    ] {
        assert!(warnings(&text).is_empty(), "{what}");
    }
}

/// A value typed anywhere in the case file is an input the words may
/// restate: a contact's Hertz `load` (planter's honest h03: "linearised at
/// a 50 N preload" with `load = "50 N"` was a false alarm), while a force
/// the file does not hold still warns.
#[test]
fn a_value_typed_deep_in_the_file_is_an_input_the_words_may_restate() {
    // The bundled case derives its load (m*g): type it deep in the file.
    let bundled = case("hertz-sphere-impact.toml");
    let base = bundled.replacen("load = \"m*g\"", "load = \"0.3208 N\"", 1);
    assert_ne!(base, bundled);
    let restated = base.replacen(
        "description = \"\"\"\n",
        "description = \"\"\"\nLinearised at a 0.3208 N preload.\n",
        1,
    );
    assert_ne!(restated, base);
    assert!(warnings(&restated).is_empty(), "{:?}", warnings(&restated));
    let wrong = base.replacen(
        "description = \"\"\"\n",
        "description = \"\"\"\nLinearised at a 0.3508 N preload.\n",
        1,
    );
    assert_eq!(warnings(&wrong).len(), 1, "{:?}", warnings(&wrong));
}
