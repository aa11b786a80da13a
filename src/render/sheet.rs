//! Text every format of the calculation sheet shares, written once: the
//! numbered assumptions (stated before the method), the references, and
//! the order of the sections (`SECTIONS`: the HTML, Markdown and Typst
//! templates follow it; `tests/it/output/sheet.rs` checks that they do).

use crate::report::Report;

/// The sections of a sheet in order: (id, heading). A section a case
/// does not need is left out; the others keep this order in every format.
pub const SECTIONS: &[(&str, &str)] = &[
    ("summary", "Summary"),
    ("checks", "Model checks"),
    ("changes", "Changes since the previous revision"),
    ("inputs", "Inputs"),
    ("definition", "Model definition"),
    ("assumptions", "Assumptions"),
    ("model", "Model"),
    ("robot", "Robot model"),
    ("distributions", "Distributions over the contacts"),
    ("contacts", "Effective mass, contact by contact"),
    ("coupled", "Coupled contacts"),
    ("tangential", "Tangential rows"),
    ("hertz", "Hertz contacts"),
    ("sensitivities", "Sensitivities"),
    ("tolerances", "Tolerances"),
    ("sweeps", "Sweeps"),
    ("impacts", "Impacts"),
    ("person", "Transient contact with a person"),
    ("program", "Program near a person"),
    ("map", "Workspace map"),
    ("engines", "What the engines do with these settings"),
    ("claims", "Claims"),
    ("verification", "Verification by simulation"),
    ("references", "References"),
];

/// The assumptions the numbers rest on, in words (plain Unicode text).
pub fn assumptions(report: &Report) -> Vec<String> {
    let mut out = Vec::new();
    out.push(match &report.robot {
        Some(_) => "Frozen geometry: M(q) and J are taken at the configuration given in the robot section; the analysis is linear in small motions about it.".to_string(),
        None => "Frozen geometry: J and M are taken at the positions given in the model definition; the analysis is linear in small motions about them.".to_string(),
    });
    out.push(match report.space.as_str() {
        "generalized" => "The system is the mass matrix M and the contact rows J as given, in the generalized velocities listed in the model section.".to_string(),
        _ if report.robot.is_some() => "Links are rigid bodies with the masses and inertias of the model file; M(q) by the composite-rigid-body algorithm.".to_string(),
        _ => "Bodies are rigid (or point masses) with the masses and inertias given; fixed bodies belong to the world.".to_string(),
    });
    out.push(if report.tangential.is_some() {
        "Each contact is a linear penalty spring (with its dashpot where one is given) along its normal; a contact with a tangential spring also has a linear stick spring (and dashpot, where given) along each tangent at its point: the contact sticks, it never slides, and the friction limit |F_t| ≤ μ F_n is not checked (the step is that of the sticking contact, the stiffest it gets). For the modes and timesteps every row stays engaged (a contact that opens is left out there; impacts below let contacts open); every other force is left out.".to_string()
    } else {
        "Each contact is a linear penalty spring (with its dashpot where one is given) acting along its normal; for the modes and timesteps it stays compressed (a contact that opens is left out there; impacts below let contacts open), and friction and every other force are left out.".to_string()
    });
    if !report.hertz.is_empty() {
        out.push("Hertz contacts: F = K δ^(3/2) enters as its tangent stiffness 3/2 K √δ at the overlap shown (Mindlin's k_t = 8 G* √(R* δ) likewise, no slip); where a Hertz contact has an impact speed, the step to use is found again with every such contact at its largest overlap (the impact in closed form with the exact effective mass), where the stiffnesses are largest, and is the smaller of the two.".to_string());
    }
    if report.constraints.rows > 0 {
        out.push("Joints and constraint rows G are exact: they enter through the constrained response J (M⁻¹ − M⁻¹Gᵀ(G M⁻¹ Gᵀ)⁺ G M⁻¹) Jᵀ.".to_string());
    }
    out.push("The naive estimate is the contact's body's total mass (for a contact between two bodies, the reduced mass of their total masses); it ignores rotation and coupling.".to_string());
    out.push("Without dashpots, stable timesteps are those of the frozen linear system under symplectic Euler, velocity Verlet or central differences: Δt = 2/ωₘₐₓ with ω in rad/s.".to_string());
    if report.stable_dt.coupled_damped.is_some() || report.stable_dt.independent_damped.is_some() {
        out.push("With dashpots, the coupled step is that of symplectic Euler with the dashpot force taken at the step's start velocity, from the spectral radius of its step map (exact, not given above 128 contacts); the one-contact-at-a-time step (2/ω)(√(1+ζ²) − ζ) is an estimate, not a bound. The step to use is this damped limit; the guaranteed step with dashpots is the energy bound 2/(γ̄/2 + √(γ̄²/4 + ω̄²)) at the upper bounds ω̄ and γ̄ (docs/physics.md). When verified, the step to use is simulated with the dashpots by symplectic Euler: bounded at 0.98 × it and, when it is the step map's limit, diverging at 1.02 × it.".to_string());
    }
    if report.large.is_some() {
        out.push("Large system: A is not formed; the fastest modes come from the Lanczos recurrence on the sparse K^½ A K^½, with the Gershgorin bound as a safe upper limit.".to_string());
    }
    if !report.impacts.is_empty() {
        out.push("Impacts: the contacts an impact names start at zero penetration, the struck ones closing at the given speed (from a drop, v = √(2gh)); every other contact stays open throughout (the case's pose is taken as touching only at the named contacts, e.g. tilted slightly onto one corner); a contact pushes with kδ + cδ̇ while its penetration and that force are positive, and never pulls, so it may open and close again; gravity's impulse during the contact and friction are left out; the pose and J stay those of the case, so the results hold while the body turns little during the contact. The body's later motion (a second strike on other contacts) is not followed; impacts are not part of the verification by simulation.".to_string());
    }
    if !report.persons.is_empty() {
        out.push("Contact with a person: the body region's mass, stiffness, force limit and speed are the case's values (meff holds them against its bundled ISO/TS 15066 Annex A table in the model checks, but takes no value from it); robot and person meet as two masses and one linear spring.".to_string());
    }
    if !report.engines.is_empty() {
        out.push("Engines: each engine's settings are turned into a spring and dashpot by the formulas of its source code, as cited in the engines section and docs/engines.md.".to_string());
    }
    out
}

/// The references of every sheet.
pub fn references() -> Vec<String> {
    vec![
        "R. Tedrake, Underactuated Robotics, chapter “Multi-Body Dynamics”: contact Jacobian, generalized force Jᵀλ, compliant contact models.".to_string(),
        "meff's physics reference (docs/physics.md): the effective mass, the Delassus matrix, penalty modes and stable steps as computed here.".to_string(),
    ]
}
