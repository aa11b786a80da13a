//! `[[waypoint]]`s of a `[motion]`: joint values with durations, joined
//! by the stated interpolation and sampled (`Reader::waypoints`).

use super::motion::{
    AngleUnit, DEFAULT_STEP, Interpolation, Program, Samples, Velocities, WAYPOINT_KEYS, movable,
    range_of,
};
use super::read::{Reader, get, header};
use super::scene::trajectory::{self, JointColumn};
use super::types::RobotForm;
use crate::diag::Diagnostic;
use crate::kinematics::JointKind;
use crate::units::Dim;
use toml::de::{DeTable, DeValue};

type Node<'i> = toml::Spanned<DeValue<'i>>;

impl Reader<'_> {
    pub(super) fn waypoints(
        &mut self,
        t: &DeTable,
        node: &Node,
        r: &RobotForm,
        base: &[f64],
        path: &str,
    ) -> Option<Samples> {
        let interpolation = match get(t, "interpolation") {
            Some(n) => self.choice(
                n,
                ("interpolation", "interpolation"),
                &[
                    ("linear", Interpolation::Linear),
                    ("cubic", Interpolation::Cubic),
                ],
                2,
            )?,
            None => {
                self.error(
                    Diagnostic::new(header(&node.span()), "waypoints need `[motion] interpolation`")
                        .hint("interpolation = \"linear\" (constant speed per segment) or \"cubic\" (at rest at every waypoint)"),
                );
                return None;
            }
        };
        let step = match get(t, "step") {
            Some(n) => {
                let v = self.value(n, Dim::TIME, "a sampling step");
                self.positive(v, "a sampling step")?.si
            }
            None => DEFAULT_STEP,
        };
        let tree = &r.robot.tree;
        let movable = movable(r, AngleUnit::Rad);
        let mut points: Vec<(f64, Vec<f64>)> = Vec::new();
        let mut joints: Vec<usize> = Vec::new();
        let mut ok = true;
        let mut warnings = Vec::new();
        let tables = self.tables(Some(node), "`[[waypoint]]`");
        for (i, (wt, span)) in tables.iter().enumerate() {
            self.keys(wt, WAYPOINT_KEYS, "`[[waypoint]]`");
            let mut q = points.last().map_or_else(|| base.to_vec(), |p| p.1.clone());
            let duration = match (i, get(wt, "duration")) {
                (0, Some(n)) => {
                    self.error(
                        Diagnostic::new(
                            n.span(),
                            "the first waypoint is the start (t = 0): it has no duration",
                        )
                        .hint("give each later waypoint the time to reach it from the one before"),
                    );
                    ok = false;
                    0.0
                }
                (0, None) => 0.0,
                (_, Some(n)) => {
                    let v = self.value(n, Dim::TIME, "a segment's duration");
                    match self.positive(v, "a segment's duration") {
                        Some(v) => v.si,
                        None => {
                            ok = false;
                            0.0
                        }
                    }
                }
                (_, None) => {
                    self.required(wt, "duration", "`[[waypoint]]`", span);
                    ok = false;
                    0.0
                }
            };
            if let Some(c) = get(wt, "configuration") {
                let mut at = Waypoint {
                    r,
                    movable: &movable,
                    q: &mut q,
                    joints: &mut joints,
                    warnings: &mut warnings,
                    path,
                };
                ok &= self.waypoint_configuration(c, &mut at);
            }
            let t0 = points.last().map_or(0.0, |p| p.0);
            points.push((t0 + duration, q));
        }
        if points.len() < 2 && ok {
            self.error(
                Diagnostic::new(
                    header(&node.span()),
                    "a program needs at least two waypoints",
                )
                .hint("the first is the start; each later one gives the duration to reach it"),
            );
            return None;
        }
        if !ok {
            return None;
        }
        let total = points.last().map_or(0.0, |p| p.0);
        if total / step > trajectory::MAX_SAMPLES as f64 {
            self.error(Diagnostic::new(
                header(&node.span()),
                format!(
                    "{total} s sampled every {step} s is more than {} samples",
                    trajectory::MAX_SAMPLES
                ),
            ));
            return None;
        }
        joints.sort_unstable();
        let (time, q, qd) = sample(tree, &points, &joints, interpolation, step);
        Some((
            Program::Waypoints {
                interpolation,
                step,
                count: points.len(),
            },
            Velocities::Interpolation,
            joints,
            time,
            q,
            qd,
            warnings,
        ))
    }
}

/// What a waypoint's `configuration` fills.
struct Waypoint<'a> {
    r: &'a RobotForm,
    movable: &'a [(usize, JointColumn)],
    q: &'a mut Vec<f64>,
    joints: &'a mut Vec<usize>,
    warnings: &'a mut Vec<super::motion::RangeWarning>,
    path: &'a str,
}

impl Reader<'_> {
    /// A waypoint's joint values into `at.q`; false on an error.
    fn waypoint_configuration(&mut self, c: &Node, at: &mut Waypoint) -> bool {
        let Some(ct) = self.table(c, "`configuration`") else {
            return false;
        };
        let tree = &at.r.robot.tree;
        let mut ok = true;
        for (k, v) in ct.iter() {
            let jname = k.get_ref().as_ref();
            let Some((j, _)) = at.movable.iter().find(|(_, c)| c.name == jname) else {
                let d = Diagnostic::new(
                    k.span(),
                    format!("the model has no hinge or slide joint `{jname}`"),
                )
                .maybe_hint(
                    crate::diag::closest(jname, at.movable.iter().map(|(_, c)| c.name.as_str()))
                        .map(|b| format!("did you mean `{b}`?")),
                );
                self.error(d);
                ok = false;
                continue;
            };
            let dim = if tree.joints[*j].kind == JointKind::Slide {
                Dim::LENGTH
            } else {
                Dim::NONE
            };
            let Some(val) = self.value(v, dim, &format!("joint `{jname}`")) else {
                ok = false;
                continue;
            };
            if let Some([lo, hi]) = range_of(at.r, *j)
                && !(lo..=hi).contains(&val.si)
            {
                let (line, col) = crate::diag::line_col(self.source, val.span.start);
                at.warnings.push(super::motion::RangeWarning {
                    joint: jname.to_string(),
                    location: super::motion::RangeWarning::location_in(
                        at.path,
                        &format!(":{line}:{col}"),
                    ),
                    place: String::new(),
                    value: val.si,
                    range: [lo, hi],
                    slide: tree.joints[*j].kind == JointKind::Slide,
                    first_of_many: false,
                });
            }
            at.q[tree.joints[*j].qpos_adr] = val.si;
            if !at.joints.contains(j) {
                at.joints.push(*j);
            }
        }
        ok
    }
}

/// Samples waypoints `(time, q)`: every segment in equal steps of at most
/// `step`, each waypoint a sample.
fn sample(
    tree: &crate::kinematics::Tree,
    points: &[(f64, Vec<f64>)],
    joints: &[usize],
    interpolation: Interpolation,
    step: f64,
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let (mut time, mut q, mut qd) = (Vec::new(), Vec::new(), Vec::new());
    let segments = points.len() - 1;
    for k in 0..segments {
        let ((t0, a), (t1, b)) = (&points[k], &points[k + 1]);
        let big_t = t1 - t0;
        let n = ((big_t / step).ceil() as usize).max(1);
        let last = k + 1 == segments;
        for i in 0..n + usize::from(last) {
            let tau = i as f64 / n as f64;
            let (s, ds) = match interpolation {
                Interpolation::Linear => (tau, 1.0 / big_t),
                Interpolation::Cubic => (
                    tau * tau * (3.0 - 2.0 * tau),
                    6.0 * tau * (1.0 - tau) / big_t,
                ),
            };
            time.push(if i == n { *t1 } else { t0 + tau * big_t });
            let mut qs = a.clone();
            let mut vs = vec![0.0; tree.nv];
            for &j in joints {
                let (pa, da) = (tree.joints[j].qpos_adr, tree.joints[j].dof_adr);
                qs[pa] = a[pa] + (b[pa] - a[pa]) * s;
                vs[da] = (b[pa] - a[pa]) * ds;
            }
            q.extend(qs);
            qd.extend(vs);
        }
    }
    (time, q, qd)
}
