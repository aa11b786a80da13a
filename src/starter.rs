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
    /// A robot model read from an MJCF file (written beside the case).
    Robot,
    /// A box dropped onto one corner (shape and orientation).
    Drop,
    /// A collaborative robot's pick-and-place program near a person (a
    /// UR5 model written beside the case).
    Cobot,
}

impl Starter {
    /// All examples.
    pub const ALL: [Starter; 8] = [
        Starter::Planar,
        Starter::Bodies3d,
        Starter::Generalized,
        Starter::Line,
        Starter::Joints,
        Starter::Robot,
        Starter::Drop,
        Starter::Cobot,
    ];

    /// The case text.
    pub fn text(self) -> &'static str {
        match self {
            Starter::Planar => include_str!("../templates/new/planar.toml"),
            Starter::Bodies3d => include_str!("../templates/new/bodies3d.toml"),
            Starter::Generalized => include_str!("../templates/new/generalized.toml"),
            Starter::Line => include_str!("../templates/new/line.toml"),
            Starter::Joints => include_str!("../templates/new/joints.toml"),
            Starter::Robot => include_str!("../templates/new/robot.toml"),
            Starter::Drop => include_str!("../templates/new/drop.toml"),
            Starter::Cobot => include_str!("../templates/new/cobot.toml"),
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
            Starter::Robot => "the tip of a one-link arm read from an MJCF model",
            Starter::Drop => "a box dropped onto one corner (shape, orientation, impact)",
            Starter::Cobot => {
                "a UR5's pick-and-place program near a person (hazard points, body regions)"
            }
        }
    }

    /// A model file the case needs beside it: its extension and text. The
    /// case names it through the placeholder `{{model}}` in its text.
    pub fn model_file(self) -> Option<(&'static str, &'static str)> {
        match self {
            Starter::Robot => Some(("xml", include_str!("../templates/new/robot.xml"))),
            Starter::Cobot => Some(("urdf", include_str!("../cases/models/ur5_robot.urdf"))),
            _ => None,
        }
    }
}
