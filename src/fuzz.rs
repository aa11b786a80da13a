//! The fuzzing entry point, shared by the coverage-guided fuzz target in
//! `fuzz/` and the corpus replay in the tests: one case text through the
//! reader, the numeric and symbolic pipeline, the claims and every
//! renderer. It returns nothing; panics are the findings.

/// Runs one case text through everything a `meff report --no-verify` does,
/// in memory.
pub fn run_case(text: &str) {
    let Ok(case) = crate::case::parse_case("fuzz.toml", text) else {
        return;
    };
    let Ok(evaluated) = crate::evaluate(case) else {
        return;
    };
    let report = &evaluated.report;
    let _ = crate::render::json(report);
    let _ = crate::render::text::summary(report, 4);
    // The built-in templates are parsed once per process.
    static TEMPLATES: std::sync::OnceLock<Option<crate::render::templates::Templates>> =
        std::sync::OnceLock::new();
    if let Some(templates) =
        TEMPLATES.get_or_init(|| crate::render::templates::Templates::load(None).ok())
    {
        let _ = templates.report_md(report, 4);
        let _ = templates.report_html(report, 4);
    }
}

/// The case reader alone (TOML, units, expressions, validation): the
/// cheap target that reaches many more executions.
pub fn read_case(text: &str) {
    let _ = crate::case::parse_case("fuzz.toml", text);
}

/// A robot model text (MJCF or URDF) through the reader, then forward
/// kinematics, the mass matrix with and without armature and the
/// constraint rows at the reference configuration and every keyframe.
pub fn read_model(text: &str) {
    let Ok(robot) = crate::robot::Robot::parse("fuzz.xml", text) else {
        return;
    };
    let tree = &robot.tree;
    let mut configurations = vec![tree.qpos0.clone()];
    configurations.extend(robot.keyframes.iter().map(|(_, q)| q.clone()));
    for q in configurations {
        let kin = tree.kinematics(&q);
        let _ = tree.mass_matrix(&kin, true);
        let _ = tree.mass_matrix(&kin, false);
        let _ = robot.constraint_rows(&kin, &q);
        if let Some(b) = tree.bodies.len().checked_sub(1) {
            let p = tree.to_world(&kin, b, &nalgebra::Vector3::zeros());
            let _ = tree.point_row(&kin, b, &p, &nalgebra::Vector3::z());
        }
    }
}
