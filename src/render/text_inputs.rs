//! The Inputs section of `meff eval`'s text for a scene: the `[scene]`
//! settings as typed, in SI, and where the case writes them (the sheets'
//! Inputs table, row for row).

use super::number::sig;
use super::section::Section;
use crate::report::Report;

/// The scene's settings, or nothing for a case without a scene.
pub(super) fn scene_section(report: &Report, d: usize) -> Option<Section> {
    if report.scene_inputs.is_empty() {
        return None;
    }
    Some(Section {
        title: "Inputs ([scene] settings)".into(),
        header: ["setting", "value as typed", "SI value", "where"]
            .map(String::from)
            .to_vec(),
        rows: report
            .scene_inputs
            .iter()
            .map(|s| {
                let si = s.si.map_or_else(
                    || "—".to_string(),
                    |v| {
                        let unit = crate::notation::unit_text(&s.si_unit);
                        format!("{} {unit}", sig(v, d)).trim_end().to_string()
                    },
                );
                vec![s.key.clone(), s.typed.clone(), si, s.location.clone()]
            })
            .collect(),
        notes: Vec::new(),
    })
}
