//! The closed list of the model checks' rules, each with its words (the
//! sheet lists them, warning or not; docs/physics.md "Model checks" gives
//! each one's threshold and why).

/// The rules applied, in words (the sheet lists them, warning or not).
pub const RULES: &[(&str, &str)] = &[
    ("inertia_triangle", "principal moments obey I₁ + I₂ ≥ I₃"),
    (
        "gyration_beyond_contacts",
        "a body's radius of gyration (√(I/m) in the plane, √(ΣI/2m) in 3-d) lies between 1/20 of the distance to its farthest contact and, for a body with two contacts or more, that distance",
    ),
    (
        "implausible_density",
        "a body's density lies between 2 and 25,000 kg/m³ (m/V of its shape), 0.5 and 10⁵ kg/m³ (the sphere of its radius of gyration; a model link or payload below 10⁵), or 1 and 10⁶ kg/m³ (m/ρ³ in the plane)",
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
        "a contact's half period π√(m_eff/k) is longer than the time the fastest wave in a solid (18 km/s) takes to cross its body, and the body's weight sinks its contacts by less than its size",
    ),
    (
        "damping_ratio",
        "a contact's dashpot is between 10⁻⁴ and 10 times critical, ζ = c/(2√(k m_eff))",
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
        "a model contact's m_eff is between 0.1 and 2 times the rule of thumb m_mov/2 + m_L",
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
        "a tangential spring is 0.1–1.5 times its contact's normal one, and a Hertz contact's G* is 0.1–0.5 times its E*",
    ),
    (
        "hertz_geometry",
        "a Hertz contact's R* is at most 100 times its body's size, and its overlap at most 5 % of R*",
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
