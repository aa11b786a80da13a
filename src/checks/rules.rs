//! The closed list of the model checks' rules, each with its words (the
//! sheet lists them, warning or not; docs/physics.md "Model checks" gives
//! each one's threshold and why).

/// m_eff of a model contact beyond these multiples of the rule of thumb
/// (m_mov/2 + m_L) is flagged. The lower end is far below the rule on
/// purpose: a UR5 with physical wrist inertias gives 0.084 at its tool
/// pushed sideways (ur5-tool) and 0.064 at the tip of ur5-program's worst
/// sample, where only the wrists move along the normal.
pub const RULE_RATIO: (f64, f64) = (0.03, 2.0);

/// The rules' words as the sheet prints them: a band a rule's words name
/// (`{RULE_RATIO.0}`) is printed from the constant the rule compares with,
/// so the words cannot drift from the check.
pub fn rule_words() -> Vec<String> {
    RULES
        .iter()
        .map(|(_, words)| {
            words
                .replace("{RULE_RATIO.0}", &RULE_RATIO.0.to_string())
                .replace("{RULE_RATIO.1}", &RULE_RATIO.1.to_string())
        })
        .collect()
}

/// The rules applied, in words (the sheet lists them, warning or not;
/// print them with [`rule_words`]).
pub const RULES: &[(&str, &str)] = &[
    ("inertia_triangle", "principal moments obey I₁ + I₂ ≥ I₃"),
    (
        "gyration_beyond_contacts",
        "a body's radius of gyration (√(I/m) in the plane, √(ΣI/2m) in 3-d) lies between 1/20 of the distance to its farthest contact and, for a body with two contacts or more, that distance",
    ),
    (
        "implausible_density",
        "a body's density lies between 2 and 25,000 kg/m³ (m/V of its shape), 0.5 and 10⁵ kg/m³ (the sphere of its radius of gyration; a model link or payload below 10⁵, a payload's uniform box of its moments above 1), a Hertz material's typed density between 20 and 25,000, or 1 and 10⁶ kg/m³ (m/ρ³ in the plane)",
    ),
    (
        "lever_beyond_gyration",
        "a contact's own body alone gives it at least 1/25 of the body's mass (its lever is within about 5 radii of gyration)",
    ),
    (
        "normal_out_of_shape",
        "a contact's normal pushes a shaped (convex) body toward its centre",
    ),
    (
        "opposite_normals",
        "no two contacts of the same bodies sit at one point with opposite normals",
    ),
    (
        "person_values",
        "a person's region values lie within 0.3–75 kg, 1–500 kN/m, 10–1000 N, 0.02–20 J, 0.1 mm²–100 cm² and up to 5 m/s, within a factor of 3 of the bundled ISO/TS 15066 Annex A table's values for a region of that name, and no region is the face, skull, forehead or head (no transient contact allowed there)",
    ),
    (
        "impact_compression",
        "an impact compresses a contact by at most 10 % of its body's size",
    ),
    (
        "contact_outside_shape",
        "a shaped body's contacts lie within its shape's reach",
    ),
    (
        "normal_against_plane",
        "a model contact with the world has its normal within 10° of the model's nearest plane",
    ),
    (
        "body_frame_normal",
        "a normal typed in a turned body's axes (a [[body]] with an orientation, or a model link without a plane to compare) lies within 10° of a world axis or of the same numbers read in world axes",
    ),
    (
        "normal_away_from_centre",
        "a contact's normal does not point within 60° of straight away from its (unshaped) body's or link's centre of mass; a hanging body is the exception the signer judges",
    ),
    (
        "normal_not_surface",
        "at a point on a shaped body's surface, the plane normal to the contact cuts the body by at most 10 % of its circumradius (the normal is the surface's, or within an edge's cone)",
    ),
    (
        "particle_point_far",
        "a particle's contact point lies within 10 times the case's length scale (and 1 m) of the particle",
    ),
    (
        "point_off_plane",
        "a model contact with the world has its point within 10 % of the model's reach of the plane it touches",
    ),
    (
        "point_far_from_link",
        "a model contact's point lies within the model's reach of its link's frame",
    ),
    (
        "stiffness_for_size",
        "a contact's half period π√(m_eff/k) is longer than the time the fastest wave in a solid (18 km/s) takes to cross its body, and the body's weight sinks its contacts (m g/Σk) by at most 20 % of its size",
    ),
    (
        "damping_ratio",
        "a contact's dashpot (typed, or an engine's) is between 10⁻⁴ and 10 times critical, ζ = c/(2√(k m_eff))",
    ),
    (
        "engine_time_scales",
        "an engine's step lies within 1 µs–0.1 s, its contact spring completes at most 10 periods in one (sub)step, MuJoCo's solref time constant is at most 1 s and Drake's dissipation at most 10 s/m",
    ),
    (
        "mass_out_of_proportion",
        "a generalized contact's m_eff lies within 10⁻³–10 times the largest mass the case names (a mass parameter, or a mass-matrix diagonal entry of a coordinate in metres)",
    ),
    (
        "angle_unit",
        "no orientation angle, hinge configuration, sweep end of an angle or parameter used inside sin, cos or tan is more than a turn (degrees written as radians)",
    ),
    (
        "configuration_beyond_limits",
        "a [model] configuration and a [map] grid lie within the model's joint ranges",
    ),
    (
        "joint_far_from_body",
        "a joint between two bodies lies within 5 times each body's size of its centre",
    ),
    (
        "rule_of_thumb_ratio",
        "a model contact's m_eff is between {RULE_RATIO.0} and {RULE_RATIO.1} times the rule of thumb m_mov/2 + m_L",
    ),
    (
        "joint_beyond_range",
        "a program's joint values lie within the model's joint ranges (URDF <limit>, MJCF range of a limited joint)",
    ),
    (
        "description_contradicts_result",
        "a mass, frequency, time, force or density the title or a description states (a number with its unit, not qualified as approximate) equals an input or a computed result of that dimension to the digits written (a density: a shaped body's m/V)",
    ),
    (
        "tangential_ratio",
        "a tangential spring is 0.1–1.5 times its contact's normal one, and a Hertz contact's G* is 0.1–1/3 times its E* (isotropic materials give 1/6–1/4, and below 1/3 for any Poisson's ratio)",
    ),
    (
        "hertz_geometry",
        "a Hertz contact's R* is at most 100 times its body's size, at most its ball's radius when the other side is convex (1/R* = 1/r1 + 1/r2), not the ball's diameter against a flat (a ball on a flat has R* = r), and its overlap at most 5 % of R*; a Hertz material's density and radius give its body's mass (4/3 π r³ ρ, or ρ × its shape's volume) within 2 %",
    ),
    (
        "gravity_value",
        "a drop's gravity lies within 1.6–25 m/s² (the Moon to Jupiter)",
    ),
    (
        "hazard_speed",
        "every hazard point moves during its program, and the fastest one reaches 1 cm/s",
    ),
    (
        "velocity_columns",
        "a program's velocity columns agree with the central differences of its positions within a factor of 2 (rms)",
    ),
    (
        "duplicate_contacts",
        "no two contacts of the same bodies sit at one point with the same normal",
    ),
    (
        "free_bodies",
        "at most half of a scene's movable bodies touch nothing (a few rattlers are normal in a packing)",
    ),
    (
        "overlap_force",
        "a scene with overlaps (a dump's; an `overlap` column) said to be at rest has its supports' overlap forces k·δ along gravity within 1/100–100 times its weight Σ m g, and no contact carrying more than 100 times it",
    ),
    (
        "dump_units",
        "a dump read without declared units has spheres of median density m/(4/3 π r³) at least 50 kg/m³ (a cgs dump read as SI reads 1/1000)",
    ),
    (
        "range_unit",
        "a model's hinge range lies within a turn each way (±2π rad) in the unit its format reads (URDF radians; MJCF the compiler's angle)",
    ),
    // checks7a
    (
        "contact_on_other_body",
        "a contact with the world does not lie inside another movable shaped body, nor on that body's face that looks along the normal (`other` forgotten)",
    ),
    (
        "hertz_load",
        "a Hertz `load` is at least half the weight m g of a free body that rests on that contact alone (normal within 30° of up)",
    ),
    (
        "wave_speed",
        "a Hertz material's bar wave speed √(E/ρ) lies within 10 m/s–13 km/s (soft silicone to beryllium)",
    ),
    (
        "solimp_width",
        "a MuJoCo `solimp` width (its third value) is at most 0.1 m (the default is 1 mm)",
    ),
    (
        "duplicate_bodies",
        "no two of a scene's movable bodies have the same mass, inertia and centre (a scene exported twice)",
    ),
    (
        "scene_unsupported",
        "a dump's wall or plane asked for by name touches a sphere, and a scene said to rest (or a dump that names walls) has a contact with the world or a fixed body",
    ),
    (
        "dump_snapshot",
        "a dump snapshot's spheres move slower than 3 √(g r) (its velocity columns), and a snapshot chosen by timestep is the file's last",
    ),
    // checks7c
    (
        "engine_preload",
        "an engine's preload per contact is at least 0.9 times the weight share m g/n of a free body held by n of its contacts alone",
    ),
    (
        "dump_tolerance",
        "a dump's contact tolerance is at most 10 % of its smallest sphere's radius",
    ),
    (
        "payload_inputs",
        "a payload's centre of mass (in its link's frame, 0.2 m out or more) is not within a quarter of its offset of where the link's frame is in the world",
    ),
    // checks7b
    (
        "claim_tolerance",
        "a claim's rel_tol is below 0.5 (rel_tol = 5 accepts anything from 0 to 6 times the claimed value; 5 % is 0.05)",
    ),
    (
        "tolerance_span",
        "a parameter's range tolerance spans at most 10× (its ends' ratio at least 0.1), and a ± tolerance is smaller than its nonzero nominal value (the value keeps its sign)",
    ),
    (
        "program_angle_unit",
        "a program read in degrees has some hinge value beyond a turn (±6.28, radians typed under angle_unit = \"deg\" stay within it), and one read in radians has at most half its hinges beyond a turn",
    ),
    (
        "program_start",
        "a program's first sample is not the [model] configuration with two joint columns exchanged (swapped headers)",
    ),
    (
        "sample_counter",
        "a program's time column is not 0, 1, 2, … (a sample index read as seconds)",
    ),
    (
        "link_gyration_beyond_extent",
        "a model link's radius of gyration about its centre of mass, √(ΣI/2m), is at most 1.05 times the farthest of its frames, joint anchors and children's frames from its centre of mass, for a link whose farthest frame is 0.15 m or more from it (an inertia about the joint exceeds it)",
    ),
    (
        "material_density",
        "a body whose material the description names (aluminium, steel, nylon, PA12, glass, …) has m/V within 0.6–1.6 times that material's density",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule-of-thumb band is written once: the sheet's words and
    /// docs/physics.md's row print the constant the check compares with
    /// (ur5-tool's footer said 0.1–2 while the rule used 0.03–2).
    #[test]
    fn the_rule_of_thumb_band_is_printed_from_its_constant() {
        let (lo, hi) = (RULE_RATIO.0.to_string(), RULE_RATIO.1.to_string());
        let words = rule_words();
        let sheet = words
            .iter()
            .find(|w| w.contains("rule of thumb m_mov/2"))
            .expect("the rule's words");
        assert!(
            sheet.contains(&format!("between {lo} and {hi} times")),
            "{sheet}"
        );
        assert!(words.iter().all(|w| !w.contains('{')), "a placeholder left");
        let physics = include_str!("../../docs/physics.md");
        let row = physics
            .lines()
            .find(|l| l.starts_with("| `rule_of_thumb_ratio`"))
            .expect("docs/physics.md lists the rule");
        assert!(
            row.contains(&format!("below {lo} or above {hi} times")),
            "{row}"
        );
    }
}
