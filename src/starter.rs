//! `meff new`: commented example cases to start from (`templates/new/`).

/// The example cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Starter {
    /// A planar rigid block on a floor (the seed problem).
    Planar,
    /// Two free 3-d rigid bodies in contact.
    Bodies3d,
    /// A system given by its mass matrix and Jacobian rows.
    Generalized,
    /// Particles on a line.
    Line,
    /// Rigid links held together by pin joints.
    Joints,
}

impl Starter {
    /// All examples.
    pub const ALL: [Starter; 5] = [
        Starter::Planar,
        Starter::Bodies3d,
        Starter::Generalized,
        Starter::Line,
        Starter::Joints,
    ];

    /// The case text.
    pub fn text(self) -> &'static str {
        match self {
            Starter::Planar => include_str!("../templates/new/planar.toml"),
            Starter::Bodies3d => include_str!("../templates/new/bodies3d.toml"),
            Starter::Generalized => include_str!("../templates/new/generalized.toml"),
            Starter::Line => include_str!("../templates/new/line.toml"),
            Starter::Joints => include_str!("../templates/new/joints.toml"),
        }
    }

    /// One line about it.
    pub fn describe(self) -> &'static str {
        match self {
            Starter::Planar => "a planar rigid block on a floor",
            Starter::Bodies3d => "two 3-d rigid bodies in contact",
            Starter::Generalized => "a pendulum in generalized coordinates",
            Starter::Line => "three particles on a line",
            Starter::Joints => "a double pendulum of two links joined by pins",
        }
    }
}
