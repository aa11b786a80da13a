//! Collaborative robots (issue 40): a `[model]` case's program checked
//! against body regions — closed forms on a pinned link, the rule of thumb
//! recomputed by hand, a payload welded by the case against the same
//! payload in the model file, and bad programs refused at their place.

use crate::support::{assert_close, root};
use meff::analysis::program::{ProgramReport, analyze};
use std::path::Path;
use std::process::Command;

/// A link of mass `m` about a pin on z at the origin, centre of mass at
/// (c, 0, 0), inertia `ic` about z through it.
fn pin_urdf(m: f64, c: f64, ic: f64) -> String {
    format!(
        r#"<robot name="pin">
  <link name="base"/>
  <joint name="pin" type="revolute">
    <parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-2" upper="2" effort="1" velocity="1"/>
  </joint>
  <link name="arm">
    <inertial><origin xyz="{c} 0 0"/><mass value="{m}"/>
      <inertia ixx="0.03" ixy="0" ixz="0" iyy="0.03" iyz="0" izz="{ic}"/></inertial>
  </link>
</robot>"#
    )
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

fn program(dir: &Path, case: &str) -> ProgramReport {
    write(dir, "case.toml", case);
    let case = meff::case::load(&dir.join("case.toml")).unwrap_or_else(|e| panic!("{e}"));
    analyze(&case).expect("a program")
}

const PIN_REGIONS: &str = r#"
[[contact]]
name = "c"
body = "arm"
point = ["0.5 m", "0 m", "0 m"]
normal = [0, 1, 0]
stiffness = "1e5 N/m"
[[hazard]]
name = "tip"
body = "arm"
point = ["0.5 m", "0 m", "0 m"]
[[region]]
name = "hand"
mass = "0.6 kg"
stiffness = "75 kN/m"
force_limit = "280 N"
[[region]]
name = "chest"
mass = "40 kg"
stiffness = "25 kN/m"
energy_limit = "1.6 J"
"#;

/// A point r from the pin of a link with inertia I_pin about it has
/// m_R = I_pin/r² along its motion; v_max = F/√(μ k_H) and √(2E/μ).
#[test]
fn pinned_link_closed_form() {
    let dir = tempfile::tempdir().unwrap();
    let (m, c, ic, r) = (2.0, 0.25, 0.05, 0.5);
    write(dir.path(), "pin.urdf", &pin_urdf(m, c, ic));
    for (interp, omega_at) in [("linear", None), ("cubic", Some(()))] {
        let case = format!(
            "title = \"pin\"\n[model]\nurdf = \"pin.urdf\"\n[motion]\ninterpolation = \"{interp}\"\nstep = \"0.1 s\"\n[[waypoint]]\nconfiguration = {{ pin = \"0 rad\" }}\n[[waypoint]]\nconfiguration = {{ pin = \"1.2 rad\" }}\nduration = \"0.8 s\"\n{PIN_REGIONS}"
        );
        let p = program(dir.path(), &case);
        let i_pin = ic + m * c * c;
        let m_r = i_pin / (r * r);
        assert_eq!(p.time.len(), 9);
        let h = &p.hazards[0];
        for (s, &t) in p.time.iter().enumerate() {
            // The pin's rate: constant, or the cubic's 6τ(1 − τ)·Δq/T.
            let tau: f64 = t / 0.8;
            let rate = match omega_at {
                None => 1.2 / 0.8,
                Some(()) => 6.0 * tau * (1.0 - tau) * 1.2 / 0.8,
            };
            assert_close(h.speed[s], rate * r, 1e-12);
            if h.speed[s] > 1e-9 {
                assert_close(h.mass_exact[s].unwrap(), m_r, 1e-12);
            }
            // One velocity: the point cannot move across its path.
            assert_eq!(h.mass_worst_direction[s], None);
        }
        let hand = p.pairs.iter().find(|q| q.region == "hand").unwrap();
        let chest = p.pairs.iter().find(|q| q.region == "chest").unwrap();
        let mu_hand = 1.0 / (1.0 / m_r + 1.0 / 0.6);
        let mu_chest = 1.0 / (1.0 / m_r + 1.0 / 40.0);
        let vmax_hand = 280.0 / (mu_hand * 75e3_f64).sqrt();
        let vmax_chest = (2.0 * 1.6 / mu_chest).sqrt();
        let peak = 1.2 / 0.8 * r * if omega_at.is_some() { 1.5 } else { 1.0 };
        assert_close(hand.max_speed_exact[4].unwrap(), vmax_hand, 1e-12);
        assert_close(chest.max_speed_exact[4].unwrap(), vmax_chest, 1e-12);
        assert_close(hand.factor_exact.unwrap(), vmax_hand / peak, 1e-12);
        assert_close(chest.factor_exact.unwrap(), vmax_chest / peak, 1e-12);
        assert_close(
            p.factor.unwrap(),
            (vmax_hand / peak).min(vmax_chest / peak),
            1e-12,
        );
        // Worst direction infinite: μ = m_H.
        let w = hand.worst.as_ref().unwrap();
        assert_close(w.worst_direction.reduced_mass, 0.6, 1e-15);
        assert_close(
            w.exact.peak_force,
            peak * (mu_hand * 75e3_f64).sqrt(),
            1e-12,
        );
    }
}

/// A CSV trajectory q = t²/2 on a uniform grid: central differences are
/// exact for a quadratic inside, one-sided at the ends; velocity columns
/// are taken as given.
#[test]
fn trajectory_velocities_central_or_given() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "pin.urdf", &pin_urdf(2.0, 0.25, 0.05));
    let mut csv = String::from("t,pin\n");
    let mut given = String::from("t,pin,pin.v\n");
    for i in 0..=10 {
        let t = i as f64 / 10.0;
        csv += &format!("{t},{}\n", t * t / 2.0);
        given += &format!("{t},{},{}\n", t * t / 2.0, 3.0);
    }
    write(dir.path(), "p.csv", &csv);
    write(dir.path(), "g.csv", &given);
    let case = |file: &str| {
        format!(
            "title = \"pin\"\n[model]\nurdf = \"pin.urdf\"\n[motion]\ntrajectory = \"{file}\"\n{PIN_REGIONS}"
        )
    };
    let p = program(dir.path(), &case("p.csv"));
    assert_eq!(p.velocities, "central_difference");
    let s = &p.hazards[0].speed;
    for (i, &t) in p.time.iter().enumerate().skip(1).take(9) {
        assert_close(s[i], t * 0.5, 1e-12);
    }
    assert_close(s[0], 0.05 * 0.5, 1e-12);
    assert_close(s[10], 0.95 * 0.5, 1e-12);
    let g = program(dir.path(), &case("g.csv"));
    assert_eq!(g.velocities, "columns");
    assert!(g.hazards[0].speed.iter().all(|&v| (v - 1.5).abs() < 1e-12));
}

/// The bundled UR5 program: the rule's numbers at the worst sample
/// recomputed by hand from the URDF's link masses and the payload.
#[test]
fn rule_of_thumb_by_hand() {
    let case = meff::case::load(&root().join("cases/ur5-program.toml")).unwrap();
    let p = analyze(&case).unwrap();
    // shoulder, upper arm, forearm, wrist 1, 2, 3 (ur5_robot.urdf).
    let moving = 3.7 + 8.393 + 2.275 + 1.219 + 1.219 + 0.1879;
    assert_close(p.moving_mass, moving, 1e-12);
    assert_close(p.payload_mass, 1.0, 0.0);
    let m_r = moving / 2.0 + 1.0;
    assert_close(p.rule_mass, m_r, 1e-12);
    let w = p.worst.as_ref().unwrap();
    let region = p.regions.iter().find(|r| r.name == w.region).unwrap();
    let mu = 1.0 / (1.0 / m_r + 1.0 / region.mass);
    assert_close(w.rule.reduced_mass, mu, 1e-12);
    let by_force = region.force_limit.unwrap() / (mu * region.stiffness).sqrt();
    let by_energy = (2.0 * region.energy_limit.unwrap() / mu).sqrt();
    assert_close(w.rule.max_speed_force.unwrap(), by_force, 1e-12);
    assert_close(w.rule.max_speed_energy.unwrap(), by_energy, 1e-12);
    assert_close(w.rule.max_speed, by_force.min(by_energy), 1e-12);
    assert_close(
        w.rule.peak_force,
        w.speed * (mu * region.stiffness).sqrt(),
        1e-12,
    );
    assert_close(w.rule.energy, 0.5 * mu * w.speed * w.speed, 1e-12);
    assert_close(w.rule.factor, by_force.min(by_energy) / w.speed, 1e-12);
    // The program's factor is its smallest sample's, and the exact mass
    // differs from the rule along the program.
    let smallest = p
        .pairs
        .iter()
        .flat_map(|q| {
            let h = p.hazards.iter().find(|h| h.name == q.hazard).unwrap();
            q.max_speed_exact
                .iter()
                .zip(&h.speed)
                .filter_map(|(v, s)| v.map(|v| v / s))
        })
        .fold(f64::INFINITY, f64::min);
    assert_close(p.factor.unwrap(), smallest, 1e-15);
    let [lo, hi] = p.mass_ratio.unwrap();
    assert!(lo < 1.0 && hi > 1.0, "{lo} {hi}");
}

/// Two links; `extra` adds a payload link welded to the second one.
fn two_link_urdf(extra: &str) -> String {
    format!(
        r#"<robot name="two">
  <link name="base"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 0 1"/></joint>
  <link name="l1"><inertial><origin xyz="0 0 0.2"/><mass value="3"/>
    <inertia ixx="0.04" ixy="0" ixz="0" iyy="0.04" iyz="0" izz="0.01"/></inertial></link>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/>
    <origin xyz="0 0 0.4" rpy="0 0.3 0"/><axis xyz="0 1 0"/></joint>
  <link name="l2"><inertial><origin xyz="0.15 0 0"/><mass value="1.5"/>
    <inertia ixx="0.002" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.02"/></inertial></link>
  {extra}
</robot>"#
    )
}

/// A payload given by `[[payload]]` enters M exactly as the same payload
/// written into the model file as a link on a fixed joint.
#[test]
fn payload_as_body_equals_payload_in_model_file() {
    let dir = tempfile::tempdir().unwrap();
    let welded = r#"<joint name="grip" type="fixed"><parent link="l2"/><child link="gripper"/>
    <origin xyz="0.3 0 0.05"/></joint>
  <link name="gripper"><inertial><origin xyz="0.02 0.01 0" rpy="0 0 0.7"/><mass value="0.8"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.003" iyz="0" izz="0.004"/></inertial></link>"#;
    write(dir.path(), "plain.urdf", &two_link_urdf(""));
    write(dir.path(), "welded.urdf", &two_link_urdf(welded));
    // The same inertia in l2's axes: R diag Rᵀ, R about z by 0.7.
    let (cz, sz) = (0.7f64.cos(), 0.7f64.sin());
    let r = [[cz, -sz, 0.0], [sz, cz, 0.0], [0.0, 0.0, 1.0]];
    let d = [0.001, 0.003, 0.004];
    let i = |a: usize, b: usize| (0..3).map(|k| r[a][k] * d[k] * r[b][k]).sum::<f64>();
    let inertia = format!(
        "[[\"{:e} kg m^2\", \"{:e} kg m^2\", \"{:e} kg m^2\"], [\"{:e} kg m^2\", \"{:e} kg m^2\", \"{:e} kg m^2\"], [\"{:e} kg m^2\", \"{:e} kg m^2\", \"{:e} kg m^2\"]]",
        i(0, 0),
        i(0, 1),
        i(0, 2),
        i(1, 0),
        i(1, 1),
        i(1, 2),
        i(2, 0),
        i(2, 1),
        i(2, 2)
    );
    let body = |urdf: &str, payload: &str| {
        format!(
            r#"title = "two"
[model]
urdf = "{urdf}"
configuration = {{ j1 = "0.3 rad", j2 = "0.8 rad" }}
{payload}
[[contact]]
name = "c"
body = "l2"
point = ["0.35 m", "0 m", "0.05 m"]
normal = [0.2, 0.3, 0.9327379053088815]
frame = "world"
stiffness = "1e5 N/m"
[motion]
interpolation = "cubic"
step = "50 ms"
[[waypoint]]
[[waypoint]]
configuration = {{ j1 = "1.3 rad", j2 = "-0.4 rad" }}
duration = "1 s"
[[hazard]]
name = "tip"
body = "l2"
point = ["0.35 m", "0 m", "0.05 m"]
[[region]]
name = "hand"
mass = "0.6 kg"
stiffness = "75 kN/m"
force_limit = "280 N"
"#
        )
    };
    let payload = format!(
        "[[payload]]\nname = \"gripper\"\nbody = \"l2\"\nmass = \"0.8 kg\"\nposition = [\"0.32 m\", \"0.01 m\", \"0.05 m\"]\ninertia = {inertia}\n"
    );
    write(dir.path(), "a.toml", &body("plain.urdf", &payload));
    write(dir.path(), "b.toml", &body("welded.urdf", ""));
    let a = crate::support::evaluate_path(&dir.path().join("a.toml"));
    let b = crate::support::evaluate_path(&dir.path().join("b.toml"));
    let (ma, mb) = (
        a.analysis.contacts[0].m_eff.unwrap(),
        b.analysis.contacts[0].m_eff.unwrap(),
    );
    assert_close(ma, mb, 1e-12);
    let without = crate::support::evaluate_path(&{
        write(dir.path(), "c.toml", &body("plain.urdf", ""));
        dir.path().join("c.toml")
    });
    assert!(without.analysis.contacts[0].m_eff.unwrap() < ma * 0.99);
    let (pa, pb) = (analyze(&a.case).unwrap(), analyze(&b.case).unwrap());
    let (ha, hb) = (&pa.hazards[0], &pb.hazards[0]);
    for s in 0..pa.time.len() {
        assert_close(ha.speed[s], hb.speed[s], 1e-12);
        match (ha.mass_exact[s], hb.mass_exact[s]) {
            (Some(x), Some(y)) => assert_close(x, y, 1e-11),
            (x, y) => assert_eq!(x, y),
        }
        // Two velocities: the point cannot move along one direction.
        assert_eq!(ha.mass_worst_direction[s], None);
        assert_eq!(hb.mass_worst_direction[s], None);
    }
    // The rule states the payload as m_L only when the case names it.
    assert_close(pa.payload_mass, 0.8, 0.0);
    assert_close(pa.moving_mass, 4.5, 1e-15);
    assert_close(pb.moving_mass, 5.3, 1e-15);
}

/// Runs `meff report case.toml -o out` in `dir`.
fn report(dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_meff"))
        .args(["report", "case.toml", "-o", "out"])
        .current_dir(dir)
        .output()
        .unwrap()
}

const UR5_HEAD: &str = "title = \"bad\"\n[model]\nurdf = \"ur5_robot.urdf\"\n[motion]\ntrajectory = \"p.csv\"\n[[hazard]]\nname = \"tip\"\nbody = \"tool0\"\n[[region]]\nname = \"hand\"\nmass = \"0.6 kg\"\nstiffness = \"75 kN/m\"\nforce_limit = \"280 N\"\n[[contact]]\nname = \"c\"\nbody = \"tool0\"\npoint = [\"0 m\", \"0 m\", \"0 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\n";

fn bad_program(csv: &str, case_tail: &str) -> (Option<i32>, String, bool) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("cases/models/ur5_robot.urdf"),
        dir.path().join("ur5_robot.urdf"),
    )
    .unwrap();
    write(dir.path(), "p.csv", csv);
    write(dir.path(), "case.toml", &format!("{UR5_HEAD}{case_tail}"));
    let out = report(dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), stderr, dir.path().join("out").exists())
}

const J: &str = "shoulder_pan_joint,elbow_joint";

/// Each class of bad program is an error at its file:line:col, exit 2,
/// nothing written.
#[test]
fn bad_programs_are_refused_at_their_place() {
    let cases: &[(&str, &str, &str)] = &[
        (
            &format!("t,{J}\n0,0,1\n0.1,NaN,1\n"),
            "p.csv:3:5",
            "not a finite number",
        ),
        (
            &format!("t,{J}\n0,0,1\n0.1,0.1,1\n0.1,0.2,1\n"),
            "p.csv:4:1",
            "does not increase",
        ),
        (
            &format!("t,{J}\n0,0,1\n0.2,0.1,1\n0.1,0.2,1\n"),
            "p.csv:4:1",
            "does not increase",
        ),
        (
            "t,shoulder_pan_joint,elbo_joint\n0,0,1\n0.1,0,1\n",
            "p.csv:1:22",
            "unknown column `elbo_joint`",
        ),
        (&format!("t,{J}\n"), "p.csv", "at least two samples"),
        (&format!("t,{J}\n0,0,1\n"), "p.csv", "at least two samples"),
        (
            &format!("t,{J}\n0,0,1\n0.1,x,1\n"),
            "p.csv:3:5",
            "is not a number",
        ),
        (
            &format!("t,{J},elbow_joint.v\n0,0,1,0\n0.1,0,1,0\n"),
            "p.csv:1:3",
            "no velocity column",
        ),
        ("shoulder_pan_joint\n0\n1\n", "p.csv:1:1", "no time column"),
        (
            &format!("t,{J}\n0,0,1\n0.1,0,\n"),
            "p.csv:3:",
            "not a number",
        ),
    ];
    for (csv, place, message) in cases {
        let (code, stderr, written) = bad_program(csv, "");
        assert_eq!(code, Some(2), "{csv}: {stderr}");
        assert!(
            stderr.contains(place),
            "{csv}: expected {place} in {stderr}"
        );
        assert!(
            stderr.contains(message),
            "{csv}: expected {message} in {stderr}"
        );
        assert!(!written, "{csv}: wrote output");
    }
}

/// Case-file problems of a program: a region without a limit, a missing
/// hazard, waypoints without duration or going nowhere.
#[test]
fn bad_program_tables_are_refused_at_their_place() {
    let good = format!("t,{J}\n0,0,1\n0.1,0.1,1\n");
    let tails: &[(&str, &str, &str)] = &[
        (
            "[[region]]\nname = \"chest\"\nmass = \"40 kg\"\nstiffness = \"25 kN/m\"\n",
            "case.toml:20:1",
            "a region without a limit",
        ),
        (
            "[[region]]\nname = \"hand\"\nmass = \"0.6 kg\"\nstiffness = \"75 kN/m\"\nenergy_limit = \"1 J\"\n",
            "case.toml:20:1",
            "a second region named `hand`",
        ),
        (
            "[[hazard]]\nname = \"elbow\"\nbody = \"forarm_link\"\n",
            "case.toml:22:8",
            "did you mean `forearm_link`?",
        ),
        (
            "[[hazard]]\nname = \"e\"\nbody = \"tool0\"\nregions = [\"chest\"]\n",
            "case.toml:23:12",
            "no region named `chest`",
        ),
        ("[[waypoint]]\n", "case.toml:5:14", "not both"),
    ];
    for (tail, place, message) in tails {
        let (code, stderr, written) = bad_program(&good, tail);
        assert_eq!(code, Some(2), "{tail}: {stderr}");
        assert!(
            stderr.contains(place),
            "{tail}: expected {place} in {stderr}"
        );
        assert!(
            stderr.contains(message),
            "{tail}: expected {message} in {stderr}"
        );
        assert!(!written);
    }
}

fn waypoint_case(dir: &Path, waypoints: &str) -> std::process::Output {
    std::fs::copy(
        root().join("cases/models/ur5_robot.urdf"),
        dir.join("ur5_robot.urdf"),
    )
    .unwrap();
    let head = UR5_HEAD.replace("trajectory = \"p.csv\"", "interpolation = \"linear\"");
    write(dir, "case.toml", &format!("{head}{waypoints}"));
    report(dir)
}

#[test]
fn bad_waypoints_are_refused() {
    for (w, place, message) in [
        ("[[waypoint]]\n", "case.toml:20:1", "at least two waypoints"),
        (
            "[[waypoint]]\n[[waypoint]]\nconfiguration = { elbow_joint = \"1 rad\" }\nduration = \"0 s\"\n",
            "case.toml:23:12",
            "positive",
        ),
        (
            "[[waypoint]]\n[[waypoint]]\nconfiguration = { elbow_jiont = \"1 rad\" }\nduration = \"1 s\"\n",
            "case.toml:22:19",
            "did you mean `elbow_joint`?",
        ),
        (
            "[[waypoint]]\nduration = \"1 s\"\n[[waypoint]]\nduration = \"1 s\"\n",
            "case.toml:21:12",
            "the first waypoint is the start",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = waypoint_case(dir.path(), w);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{w}: {stderr}");
        assert!(stderr.contains(place), "{w}: expected {place} in {stderr}");
        assert!(
            stderr.contains(message),
            "{w}: expected {message} in {stderr}"
        );
        assert!(!dir.path().join("out").exists());
    }
}

/// A joint value beyond the model's range is a warning with its place,
/// not an error: the report is written and says so.
#[test]
fn joint_beyond_range_is_a_warning_with_its_place() {
    let csv = format!("t,{J}\n0,0,1\n0.1,0.1,1\n0.2,0.2,3.5\n0.3,0.3,3.6\n");
    let (code, stderr, written) = bad_program(&csv, "");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(written);
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("cases/models/ur5_robot.urdf"),
        dir.path().join("ur5_robot.urdf"),
    )
    .unwrap();
    write(dir.path(), "p.csv", &csv);
    write(dir.path(), "case.toml", UR5_HEAD);
    let case = meff::case::load(&dir.path().join("case.toml")).unwrap();
    let p = analyze(&case).unwrap();
    assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
    assert!(p.warnings[0].contains("p.csv:4:9"), "{:?}", p.warnings);
    assert!(p.warnings[0].contains("elbow_joint"));
}

/// The UR5 with a payload along a trajectory against Pinocchio
/// (`tests/robots/cobot.py`: crba, getFrameJacobian, appendBodyToJoint):
/// speed, exact and worst-direction mass, v_max at every sample, to 1e-9.
#[test]
fn ur5_program_matches_pinocchio() {
    let text = std::fs::read_to_string(root().join("tests/robots/cobot.json")).unwrap();
    let f: serde_json::Value = serde_json::from_str(&text).unwrap();
    let num = |v: &serde_json::Value| v.as_f64().unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("cases/models/ur5_robot.urdf"),
        dir.path().join("ur5_robot.urdf"),
    )
    .unwrap();
    let joints: Vec<&str> = f["joints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j.as_str().unwrap())
        .collect();
    let mut csv = format!("t,{}\n", joints.join(","));
    for (t, q) in f["time"]
        .as_array()
        .unwrap()
        .iter()
        .zip(f["q"].as_array().unwrap())
    {
        let q: Vec<String> = q
            .as_array()
            .unwrap()
            .iter()
            .map(|x| num(x).to_string())
            .collect();
        csv += &format!("{},{}\n", num(t), q.join(","));
    }
    write(dir.path(), "p.csv", &csv);
    let (pl, rg) = (&f["payload"], &f["region"]);
    let vec3 = |v: &serde_json::Value, unit: &str| {
        let x: Vec<String> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|x| format!("\"{} {unit}\"", num(x)))
            .collect();
        format!("[{}]", x.join(", "))
    };
    let mut case = format!(
        "title = \"pinocchio\"\n[model]\nurdf = \"ur5_robot.urdf\"\n[[payload]]\nname = \"load\"\nbody = \"{}\"\nmass = \"{} kg\"\nposition = {}\ninertia = {}\n[[contact]]\nname = \"c\"\nbody = \"tool0\"\npoint = [\"0 m\", \"0 m\", \"0 m\"]\nnormal = [0, 0, 1]\nstiffness = \"1e5 N/m\"\n[motion]\ntrajectory = \"p.csv\"\n[[region]]\nname = \"hand\"\nmass = \"{} kg\"\nstiffness = \"{} N/m\"\nforce_limit = \"{} N\"\nenergy_limit = \"{} J\"\n",
        pl["body"].as_str().unwrap(),
        num(&pl["mass"]),
        vec3(&pl["position"], "m"),
        vec3(&pl["inertia"], "kg m^2"),
        num(&rg["mass"]),
        num(&rg["stiffness"]),
        num(&rg["force_limit"]),
        num(&rg["energy_limit"]),
    );
    for h in f["hazards"].as_array().unwrap() {
        case += &format!(
            "[[hazard]]\nname = \"{}\"\nbody = \"{}\"\npoint = {}\n",
            h["name"].as_str().unwrap(),
            h["body"].as_str().unwrap(),
            vec3(&h["point"], "m")
        );
    }
    let p = program(dir.path(), &case);
    assert_eq!(p.time.len(), f["time"].as_array().unwrap().len());
    let mut checked = 0;
    for (k, h) in p.hazards.iter().enumerate() {
        let pair = &p.pairs[k];
        for s in 0..p.time.len() {
            assert_close(h.speed[s], num(&f["speed"][k][s]), 1e-9);
            assert_close(h.mass_exact[s].unwrap(), num(&f["mass_exact"][k][s]), 1e-9);
            match f["mass_worst"][k][s].as_f64() {
                Some(m) => assert_close(h.mass_worst_direction[s].unwrap(), m, 1e-9),
                None => assert_eq!(h.mass_worst_direction[s], None),
            }
            assert_close(
                pair.max_speed_exact[s].unwrap(),
                num(&f["max_speed_exact"][k][s]),
                1e-9,
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 80);
}

/// The bundled region table reads as `[[region]]` tables of a case, every
/// region with both limits, and each region's values reach the report.
#[test]
fn bundled_region_table_reads() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "pin.urdf", &pin_urdf(2.0, 0.25, 0.05));
    let table =
        std::fs::read_to_string(root().join("cases/regions/iso-ts-15066-annex-a.toml")).unwrap();
    let head = PIN_REGIONS.split("[[region]]").next().unwrap();
    let case = format!(
        "title = \"pin\"\n[model]\nurdf = \"pin.urdf\"\n[motion]\ninterpolation = \"linear\"\n[[waypoint]]\n[[waypoint]]\nconfiguration = {{ pin = \"1 rad\" }}\nduration = \"1 s\"\n{head}\n{table}"
    );
    let p = program(dir.path(), &case);
    assert_eq!(p.regions.len(), 10);
    assert_eq!(p.pairs.len(), 10);
    for r in &p.regions {
        assert!(
            r.force_limit.is_some() && r.energy_limit.is_some(),
            "{}",
            r.name
        );
        assert!(table.contains(&format!("name = \"{}\"", r.name)));
    }
    let hand = p.regions.iter().find(|r| r.name == "hand").unwrap();
    assert_close(hand.stiffness, 75e3, 1e-15);
}

/// A waypoint beyond the model's range: a warning at the value in the
/// case file.
#[test]
fn waypoint_beyond_range_is_a_warning_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("cases/models/ur5_robot.urdf"),
        dir.path().join("ur5_robot.urdf"),
    )
    .unwrap();
    let head = UR5_HEAD.replace("trajectory = \"p.csv\"", "interpolation = \"cubic\"");
    let tail = "[[waypoint]]\n[[waypoint]]\nconfiguration = { elbow_joint = \"200 deg\" }\nduration = \"1 s\"\n";
    write(dir.path(), "case.toml", &format!("{head}{tail}"));
    let case = meff::case::load(&dir.path().join("case.toml")).unwrap();
    let p = analyze(&case).unwrap();
    assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
    assert!(
        p.warnings[0].contains("case.toml:22:33"),
        "{:?}",
        p.warnings
    );
    assert_eq!(p.interpolation, Some("cubic"));
    assert_eq!(p.time.len(), 101);
}

/// A payload whose inertia no body has, on no link, or from a parameter:
/// refused at the value.
#[test]
fn bad_payloads_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "pin.urdf", &pin_urdf(2.0, 0.25, 0.05));
    for (payload, place, message) in [
        (
            "body = \"arm\"\nmass = \"1 kg\"\ninertia = [\"1 kg m^2\", \"1 kg m^2\", \"3 kg m^2\"]",
            "case.toml:9:11",
            "I₁ + I₂ ≥ I₃",
        ),
        (
            "body = \"arm\"\nmass = \"1 kg\"\ninertia = [[\"1 kg m^2\", \"0.5 kg m^2\", \"0 kg m^2\"], [\"0 kg m^2\", \"1 kg m^2\", \"0 kg m^2\"], [\"0 kg m^2\", \"0 kg m^2\", \"1 kg m^2\"]]",
            "case.toml:9:11",
            "symmetric",
        ),
        (
            "body = \"arn\"\nmass = \"1 kg\"",
            "case.toml:7:8",
            "did you mean `arm`?",
        ),
        (
            "body = \"arm\"\nmass = \"2*k\"",
            "case.toml:8:8",
            "not parameters",
        ),
        (
            "body = \"arm\"\nmass = \"-1 kg\"",
            "case.toml:8:8",
            "positive",
        ),
    ] {
        let case = format!(
            "title = \"p\"\n[parameters]\nk = \"1 kg\"\n[model]\nurdf = \"pin.urdf\"\n[[payload]]\n{payload}\nname = \"load\"\n[[contact]]\nname = \"c\"\nbody = \"arm\"\npoint = [\"0.5 m\", \"0 m\", \"0 m\"]\nnormal = [0, 1, 0]\nstiffness = \"1e5 N/m\"\n"
        );
        write(dir.path(), "case.toml", &case);
        let err = meff::case::load(&dir.path().join("case.toml"))
            .err()
            .unwrap_or_else(|| panic!("{payload}: accepted"))
            .to_string();
        assert!(err.contains(place), "{payload}: expected {place} in {err}");
        assert!(
            err.contains(message),
            "{payload}: expected {message} in {err}"
        );
    }
}
