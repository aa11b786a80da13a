//! A scene as its rules read it — one body or contact at a time, by
//! number — for the model path (a `Model`'s structs) and the columnar
//! route (a large scene's columns) alike, and whether the case says the
//! scene is at rest: a leaf below `scene_model.rs` and
//! `scene_support.rs`.

use crate::case::Case;
use crate::model::Inertia;

/// A contact as the scene rules read it.
pub(super) struct SceneContact {
    /// Stiffness (N/m).
    pub k: f64,
    /// Its two sides' movable bodies (`None`: the world or a fixed body).
    pub sides: [Option<usize>; 2],
    /// Unit normal (pushes `sides[0]`), zero-padded to 3 components.
    pub normal: [f64; 3],
}

/// A scene, one body or contact at a time.
pub(super) struct SceneView<'a> {
    /// Bodies.
    pub n_bodies: usize,
    /// A body's mass (`None`: fixed).
    pub mass: &'a (dyn Fn(usize) -> Option<f64> + Sync),
    /// A body's name.
    pub name: &'a dyn Fn(usize) -> String,
    /// Contacts.
    pub n_contacts: usize,
    /// A contact.
    pub contact: &'a dyn Fn(usize) -> SceneContact,
    /// 2 (planar) or 3.
    pub dim: usize,
    /// A body's centre of mass, zero-padded to 3 components.
    pub position: &'a (dyn Fn(usize) -> [f64; 3] + Sync),
    /// A body's inertia as six numbers (xx, yy, zz, xy, xz, yz; in the
    /// plane its one moment first).
    pub inertia: &'a (dyn Fn(usize) -> [f64; 6] + Sync),
}

/// Words that say a scene is at rest under its weight (title and
/// description, a sentence with no negation).
const AT_REST: &[&str] = &[
    "at rest",
    "resting",
    "rests on",
    "settled",
    "static equilibrium",
    "in equilibrium",
    "under its own weight",
    "under their own weight",
    "under its weight",
    "under their weight",
];

/// Whether the case's title or description says the scene is at rest
/// (in a sentence without "not", "no", "never", "n't"): the phrase.
pub(super) fn said_at_rest(case: &Case) -> Option<&'static str> {
    says_at_rest(&format!("{}. {}", case.title, case.description))
}

fn says_at_rest(text: &str) -> Option<&'static str> {
    // Sentences (a line break is not one's end; a decimal point is not).
    let text = text
        .to_lowercase()
        .replace('\n', " ")
        .replace(". ", "\u{1}");
    text.split(['\u{1}', ';', '—', '!', '?'])
        .filter(|s| {
            !s.split(|c: char| !c.is_alphanumeric() && c != '\'')
                .any(|w| matches!(w, "not" | "no" | "never" | "nor") || w.ends_with("n't"))
        })
        .find_map(|s| AT_REST.iter().find(|p| s.contains(*p)).copied())
}

/// A body's inertia as [`SceneView::inertia`]'s six numbers.
pub(super) fn six(i: &Inertia<f64>) -> [f64; 6] {
    match i {
        Inertia::Scalar(x) => [*x, 0.0, 0.0, 0.0, 0.0, 0.0],
        Inertia::Diagonal(d) => [d[0], d[1], d[2], 0.0, 0.0, 0.0],
        Inertia::Full(t) => [t[0][0], t[1][1], t[2][2], t[0][1], t[0][2], t[1][2]],
    }
}

#[cfg(test)]
mod tests {
    use super::says_at_rest;

    #[test]
    fn negated_sentences_do_not_say_at_rest() {
        assert_eq!(
            says_at_rest("A pile at rest on the floor."),
            Some("at rest")
        );
        assert_eq!(says_at_rest("Spheres resting on a plate"), Some("resting"));
        assert_eq!(says_at_rest("A snapshot, not a settled pile."), None);
        assert_eq!(
            says_at_rest("Overlaps are not those of spheres at rest; a pile."),
            None
        );
        assert_eq!(says_at_rest("A falling pile."), None);
        assert_eq!(says_at_rest("It isn't resting."), None);
        // granular-pile's words: the negation is lines before the phrase.
        assert_eq!(
            says_at_rest(
                "a snapshot of a generated\npacking, not a settled pile — a few touch nothing, and the overlaps (up to 0.3 mm) are not those\nof spheres at rest under their weight; the step"
            ),
            None
        );
        assert_eq!(
            says_at_rest("Beads 0.5 mm across, at rest"),
            Some("at rest")
        );
    }
}
