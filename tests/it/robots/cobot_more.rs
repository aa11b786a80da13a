//! Collaborative robots (issue 40), the second round: large programs
//! (the bounded series), contact area and pressure limits, joint ranges
//! from MJCF, the workspace map (closed forms), the `cobot` starter.

use crate::support::assert_close;
use meff::analysis::program::{LimitKind, SeriesKind, analyze};
use std::path::Path;
use std::process::Command;

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

fn meff_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_meff"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// A link about a pin on z (mass m, centre of mass at (c, 0, 0), inertia
/// ic about z through it) and, at (l, 0, 0) on it, a second pin carrying
/// a body of mass m2 whose centre of mass is on that pin (inertia i2).
fn two_pin_urdf(m: f64, c: f64, ic: f64, l: f64, m2: f64, i2: f64) -> String {
    format!(
        r#"<robot name="pins">
  <link name="base"/>
  <joint name="a" type="revolute">
    <parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
  </joint>
  <link name="arm">
    <inertial><origin xyz="{c} 0 0"/><mass value="{m}"/>
      <inertia ixx="0.03" ixy="0" ixz="0" iyy="0.03" iyz="0" izz="{ic}"/></inertial>
  </link>
  <joint name="b" type="revolute">
    <parent link="arm"/><child link="hand"/>
    <origin xyz="{l} 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
  </joint>
  <link name="hand">
    <inertial><origin xyz="0 0 0"/><mass value="{m2}"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="{i2}"/></inertial>
  </link>
</robot>"#
    )
}

const PINS: (f64, f64, f64, f64, f64, f64) = (2.0, 0.25, 0.05, 0.6, 0.5, 0.004);

const TAIL: &str = r#"
[[contact]]
name = "c"
body = "arm"
point = ["0.4 m", "0 m", "0 m"]
normal = [0, 1, 0]
stiffness = "1e5 N/m"
[[hazard]]
name = "tip"
body = "arm"
point = ["0.4 m", "0 m", "0 m"]
"#;

const HAND: &str = r#"
[[region]]
name = "hand"
mass = "0.6 kg"
stiffness = "75 kN/m"
force_limit = "280 N"
"#;

fn pins_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let (m, c, ic, l, m2, i2) = PINS;
    write(dir.path(), "pins.urdf", &two_pin_urdf(m, c, ic, l, m2, i2));
    dir
}

/// The tangential mass of a point r from pin `a`: (I_pin + m2 l²)/r² (the
/// second body's spin is free, so only its mass at l counts).
fn tangential_mass(r: f64) -> f64 {
    let (m, c, ic, l, m2, _) = PINS;
    (ic + m * c * c + m2 * l * l) / (r * r)
}

/// μ, then F/√(μ k).
fn v_force(m_r: Option<f64>, m_h: f64, k: f64, f: f64) -> f64 {
    let mu = m_r.map_or(m_h, |m| 1.0 / (1.0 / m + 1.0 / m_h));
    f / (mu * k).sqrt()
}

/// A program of n samples of the first pin, q = 0.8 sin(3t); the second
/// still.
fn pin_program(n: usize) -> String {
    let mut csv = String::from("t,a,b\n");
    for i in 0..n {
        let t = i as f64 * 1e-3;
        csv += &format!("{t},{},0\n", 0.8 * (3.0 * t).sin());
    }
    csv
}

/// Above 2000 samples the series are an envelope: each point holds its
/// bin's largest speed and mass and smallest v_max (so every sample's
/// worst value is in it); `series = "full"` keeps every sample; the
/// program's answers are the same either way.
#[test]
fn large_program_keeps_a_bounded_envelope() {
    let dir = pins_dir();
    let n = 5003;
    write(dir.path(), "p.csv", &pin_program(n));
    let case = |series: &str| {
        format!(
            "title = \"pins\"\n[model]\nurdf = \"pins.urdf\"\n[motion]\ntrajectory = \"p.csv\"\n{series}\n{TAIL}{HAND}"
        )
    };
    write(dir.path(), "full.toml", &case("series = \"full\""));
    write(dir.path(), "bounded.toml", &case(""));
    let full = analyze(&meff::case::load(&dir.path().join("full.toml")).unwrap()).unwrap();
    let env = analyze(&meff::case::load(&dir.path().join("bounded.toml")).unwrap()).unwrap();
    assert_eq!(full.series.kind, SeriesKind::Full);
    assert_eq!(full.time.len(), n);
    assert_eq!(env.series.kind, SeriesKind::Envelope);
    let bin = n.div_ceil(2000);
    assert_eq!(env.series.bin, bin);
    assert_eq!(env.series.points, n.div_ceil(bin));
    assert_eq!(env.time.len(), env.series.points);
    assert_eq!(env.samples, n);
    // The mass along the motion is tangential: closed form at every sample.
    let m_t = tangential_mass(0.4);
    for m in full.hazards[0].mass_exact.iter().flatten() {
        assert_close(*m, m_t, 1e-9);
    }
    for (i, t0) in env.time.iter().enumerate() {
        let bins = i * bin..((i + 1) * bin).min(n);
        assert_eq!(*t0, full.time[bins.start]);
        let speed = bins
            .clone()
            .map(|s| full.hazards[0].speed[s])
            .fold(0.0, f64::max);
        assert_eq!(env.hazards[0].speed[i], speed);
        let vmax = bins
            .clone()
            .filter_map(|s| full.pairs[0].max_speed_exact[s])
            .fold(None, |a: Option<f64>, v| Some(a.map_or(v, |a| a.min(v))));
        assert_eq!(env.pairs[0].max_speed_exact[i], vmax);
    }
    // Every sample's speed is under the envelope's, bin by bin.
    for s in 0..n {
        assert!(full.hazards[0].speed[s] <= env.hazards[0].speed[s / bin]);
    }
    assert_eq!(full.factor, env.factor);
    assert_eq!(full.fraction_over, env.fraction_over);
    assert_eq!(full.worst.unwrap().sample, env.worst.unwrap().sample);
    // The JSON of the bounded program is smaller by about the bin.
    let json = |f: &str| {
        let out = meff_in(dir.path(), &["eval", f, "--json", "--no-verify"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout.len()
    };
    let (a, b) = (json("full.toml"), json("bounded.toml"));
    assert!(a > 2 * b, "full {a} bytes, bounded {b}");
}

/// A region with a contact area reports the peak pressure F/A; with a
/// pressure limit, v_max = p_max A/√(μ k) joins the others and the
/// smallest governs (closed form on the pinned link).
#[test]
fn region_pressure_limit_closed_form() {
    let dir = pins_dir();
    let (k, mh, a) = (75e3, 0.6, 1.5e-4);
    for (p_max, f_max, by_pressure) in [(100e4, 280.0, true), (300e4, 280.0, false)] {
        let case = format!(
            "title = \"pins\"\n[model]\nurdf = \"pins.urdf\"\n[motion]\ninterpolation = \"linear\"\nstep = \"0.1 s\"\n[[waypoint]]\nconfiguration = {{ a = \"0 rad\" }}\n[[waypoint]]\nconfiguration = {{ a = \"1 rad\" }}\nduration = \"0.5 s\"\n{TAIL}[[region]]\nname = \"hand\"\nmass = \"{mh} kg\"\nstiffness = \"{k} N/m\"\nforce_limit = \"{f_max} N\"\narea = \"1.5 cm^2\"\npressure_limit = \"{} N/cm^2\"\n",
            p_max / 1e4
        );
        write(dir.path(), "case.toml", &case);
        let p = analyze(&meff::case::load(&dir.path().join("case.toml")).unwrap()).unwrap();
        let w = p.worst.as_ref().unwrap();
        let m = tangential_mass(0.4);
        assert_close(w.exact.robot_mass.unwrap(), m, 1e-9);
        let mu = 1.0 / (1.0 / m + 1.0 / mh);
        let v = 2.0 * 0.4; // 2 rad/s at 0.4 m
        assert_close(w.speed, v, 1e-9);
        assert_close(w.exact.pressure.unwrap(), v * (mu * k).sqrt() / a, 1e-9);
        let by_p = p_max * a / (mu * k).sqrt();
        assert_close(w.exact.max_speed_pressure.unwrap(), by_p, 1e-9);
        let by_f = v_force(Some(m), mh, k, f_max);
        assert_close(w.exact.max_speed, by_p.min(by_f), 1e-12);
        assert_eq!(
            w.exact.limited_by,
            if by_pressure {
                LimitKind::Pressure
            } else {
                LimitKind::Force
            }
        );
        assert_eq!(by_pressure, by_p < by_f);
    }
    // The report shows the pressure column in every format's table.
    let out = meff_in(dir.path(), &["eval", "case.toml", "--no-verify"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("peak pressure exact (N/cm²)"), "{text}");
}

/// A pressure limit without an area, and a region whose only "limit" is
/// an area: located errors, exit 2, nothing written.
#[test]
fn bad_pressure_regions_are_refused() {
    let dir = pins_dir();
    write(dir.path(), "p.csv", &pin_program(20));
    for (region, expect) in [
        (
            "[[region]]\nname = \"hand\"\nmass = \"0.6 kg\"\nstiffness = \"75 kN/m\"\npressure_limit = \"200 N/cm^2\"\n",
            "case.toml:21:18",
        ),
        (
            "[[region]]\nname = \"hand\"\nmass = \"0.6 kg\"\nstiffness = \"75 kN/m\"\narea = \"1 cm^2\"\n",
            "a region without a limit",
        ),
        (
            "[[region]]\nname = \"hand\"\nmass = \"0.6 kg\"\nstiffness = \"75 kN/m\"\nforce_limit = \"280 N\"\narea = \"-1 cm^2\"\n",
            "case.toml:22:8",
        ),
    ] {
        let case = format!(
            "title = \"pins\"\n[model]\nurdf = \"pins.urdf\"\n[motion]\ntrajectory = \"p.csv\"\n{TAIL}{region}"
        );
        write(dir.path(), "case.toml", &case);
        let out = meff_in(dir.path(), &["report", "case.toml", "-o", "out"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(expect), "{expect}: {stderr}");
        assert!(!dir.path().join("out").exists());
    }
}

const MJCF: &str = r#"<mujoco model="ranges">
  <compiler angle="degree"/>
  <worldbody>
    <body name="arm">
      <joint name="auto" type="hinge" axis="0 0 1" range="-90 90"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.03" mass="1"/>
      <body name="fore" pos="0.5 0 0">
        <joint name="off" type="hinge" axis="0 0 1" range="-10 10" limited="false"/>
        <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.03" mass="1"/>
        <body name="slider" pos="0.4 0 0">
          <joint name="slide" type="slide" axis="1 0 0" range="0 0.1" limited="true"/>
          <geom type="sphere" size="0.03" mass="0.5"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>"#;

/// MJCF ranges: `limited="true"`, or `auto` with a range (autolimits),
/// in the compiler's angle unit; `limited="false"` has none. A program
/// beyond them is a model-check warning at its file:line:col naming the
/// data row and column.
#[test]
fn mjcf_ranges_warn_with_row_and_column() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "arm.xml", MJCF);
    write(
        dir.path(),
        "p.csv",
        "t,auto,off,slide\n0,0,0,0\n0.1,1.0,0.5,0.05\n0.2,1.7,0.9,0.12\n0.3,1.0,0.2,0.05\n",
    );
    write(
        dir.path(),
        "case.toml",
        "title = \"ranges\"\n[model]\nmjcf = \"arm.xml\"\n[motion]\ntrajectory = \"p.csv\"\n[[hazard]]\nname = \"tip\"\nbody = \"slider\"\n[[contact]]\nname = \"c\"\nbody = \"slider\"\npoint = [\"0 m\", \"0 m\", \"0 m\"]\nnormal = [0, 1, 0]\nstiffness = \"1e5 N/m\"\n[[region]]\nname = \"hand\"\nmass = \"0.6 kg\"\nstiffness = \"75 kN/m\"\nforce_limit = \"280 N\"\n",
    );
    let case = meff::case::load(&dir.path().join("case.toml")).unwrap();
    let meff::case::Form::Robot(r) = &case.form else {
        panic!("a model case")
    };
    let ranges = &r.robot.tree.ranges;
    let deg = std::f64::consts::PI / 180.0;
    assert_close(ranges[0].unwrap()[0], -90.0 * deg, 1e-15);
    assert_close(ranges[0].unwrap()[1], 90.0 * deg, 1e-15);
    assert_eq!(ranges[1], None);
    assert_eq!(ranges[2], Some([0.0, 0.1]));
    let ev = meff::evaluate(case).unwrap();
    let w: Vec<_> = ev
        .report
        .model_checks
        .iter()
        .filter(|c| c.rule == "joint_beyond_range")
        .collect();
    // 1.7 rad > 90°: row 3, column 2; 0.12 m > 0.1 m: row 3, column 4.
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[0].location.ends_with("p.csv:4:5"), "{:?}", w[0]);
    assert!(
        w[0].message.contains("data row 3, column 2 (`auto`)"),
        "{:?}",
        w[0]
    );
    assert!(w[1].location.ends_with("p.csv:4:13"), "{:?}", w[1]);
    assert!(w[1].message.contains("column 4 (`slide`)"), "{:?}", w[1]);
    // The warning reaches the text report too; the run still succeeds.
    let out = meff_in(dir.path(), &["eval", "case.toml", "--no-verify"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Model checks: 2 warning(s)"), "{text}");
    assert!(text.contains("motion: joint slide ("), "{text}");
}

/// The workspace map on the two pins: along a fixed world direction d =
/// y the point r from pin a has m = (I_pin + m2 l²)/(r cos q_a)², whatever
/// q_b; without a direction the point moves in one direction only, so the
/// worst-direction mass is infinite and μ = m_H.
#[test]
fn workspace_map_closed_form() {
    let dir = pins_dir();
    let (k, mh, f) = (75e3, 0.6, 280.0);
    for direction in ["direction = [0, 1, 0]\n", ""] {
        let case = format!(
            "title = \"pins\"\n[model]\nurdf = \"pins.urdf\"\n[map]\njoints = [\"a\", \"b\"]\nfrom = [\"-60 deg\", \"0 deg\"]\nto = [\"60 deg\", \"90 deg\"]\npoints = [5, 3]\n{direction}{TAIL}{HAND}"
        );
        write(dir.path(), "case.toml", &case);
        let ev = meff::evaluate(meff::case::load(&dir.path().join("case.toml")).unwrap()).unwrap();
        let m = ev.report.map.as_ref().expect("a map");
        assert!(ev.report.program.is_none());
        assert_eq!(m.axes[0].len(), 5);
        assert_eq!(m.axes[1].len(), 3);
        let g = &m.grids[0];
        for (i, qa) in m.axes[0].iter().enumerate() {
            for j in 0..3 {
                let mass = (!direction.is_empty()).then(|| tangential_mass(0.4) / qa.cos().powi(2));
                match (g.mass[i][j], mass) {
                    (Some(a), Some(b)) => assert_close(a, b, 1e-9),
                    (a, b) => assert_eq!(a, b),
                }
                assert_close(g.max_speed[i][j], v_force(mass, mh, k, f), 1e-9);
            }
        }
        let lo = g
            .max_speed
            .iter()
            .flatten()
            .fold(f64::INFINITY, |a, &b| a.min(b));
        assert_eq!(g.min_speed, lo);
    }
    // Every format: the table and the heat map.
    let out = meff_in(
        dir.path(),
        &[
            "report",
            "case.toml",
            "-o",
            "out",
            "--format",
            "md,html,json",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(dir.path().join("out/case.html")).unwrap();
    assert!(html.contains("<section id=\"map\">"));
    assert!(html.contains("heat map of v_max"));
    let md = std::fs::read_to_string(dir.path().join("out/case.md")).unwrap();
    assert!(md.contains("## Workspace map"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/case.json")).unwrap())
            .unwrap();
    assert_eq!(
        json["map"]["grids"][0]["max_speed"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
}

/// Bad maps: located errors, exit 2, nothing written.
#[test]
fn bad_maps_are_refused() {
    let dir = pins_dir();
    for (map, expect) in [
        (
            "joints = [\"a\"]\nfrom = [\"0 deg\"]\nto = [\"1 deg\"]\n",
            "a map sweeps two joints, found 1",
        ),
        (
            "joints = [\"a\", \"c\"]\nfrom = [\"0 deg\", \"0 deg\"]\nto = [\"1 deg\", \"1 deg\"]\n",
            "no hinge or slide joint `c`",
        ),
        (
            "joints = [\"a\", \"b\"]\nfrom = [\"0 deg\", \"0 deg\"]\nto = [\"1 deg\", \"1 deg\"]\npoints = 40\n",
            "`points` must be an integer from 2 to 25",
        ),
        (
            "joints = [\"a\", \"b\"]\nfrom = [\"0 deg\", \"0 deg\"]\nto = [\"1 deg\", \"0 deg\"]\n",
            "`from` and `to` are equal",
        ),
        (
            "joints = [\"a\", \"b\"]\nfrom = [\"0 deg\", \"0 deg\"]\nto = [\"1 deg\", \"1 deg\"]\ndirection = [0, 0, 0]\n",
            "the direction has no length",
        ),
    ] {
        let case =
            format!("title = \"pins\"\n[model]\nurdf = \"pins.urdf\"\n[map]\n{map}{TAIL}{HAND}");
        write(dir.path(), "case.toml", &case);
        let out = meff_in(dir.path(), &["report", "case.toml", "-o", "out"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(expect), "{expect}: {stderr}");
        assert!(stderr.contains("case.toml:"), "{stderr}");
        assert!(!dir.path().join("out").exists());
    }
}

/// `meff new --template cobot` writes a case and the UR5 beside it; the
/// case evaluates, and its report says whether the program is within
/// limits (and by what factor) — the same verdict the JSON gives.
#[test]
fn cobot_starter_evaluates_and_gives_a_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let out = meff_in(dir.path(), &["new", "pick", "--template", "cobot"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.path().join("pick-model.urdf").exists());
    let out = meff_in(dir.path(), &["eval", "pick.toml", "--no-verify"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let ev = meff::evaluate(meff::case::load(&dir.path().join("pick.toml")).unwrap()).unwrap();
    let p = ev.report.program.as_ref().expect("a program");
    assert_eq!(p.hazards.len(), 2);
    assert_eq!(p.regions.len(), 2);
    let f = p.factor.unwrap();
    let verdict = if p.within {
        format!(
            "within limits by factor {}",
            // A permitted speed factor is printed rounded down.
            meff::number::pretty(&meff::number::sig_round(f, 3, meff::number::Round::Down))
        )
    } else {
        "exceeds at t =".to_string()
    };
    assert!(text.contains(&verdict), "{verdict}: {text}");
    assert!(ev.report.claims.iter().all(|c| c.passed == Some(true)));
}

/// A `.npy` file of little-endian f64 values, 1-d.
fn npy(values: &[f64]) -> Vec<u8> {
    let mut header = format!(
        "{{'descr': '<f8', 'fortran_order': False, 'shape': ({},), }}",
        values.len()
    );
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    for &v in values {
        out.extend(v.to_le_bytes());
    }
    out
}

/// Named 1-d arrays of an archive.
type Arrays<'a> = Vec<(&'a str, Vec<f64>)>;

fn write_npz(path: &Path, arrays: &[(&str, Vec<f64>)]) {
    use std::io::Write;
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, values) in arrays {
        z.start_file(format!("{name}.npy"), opts).unwrap();
        z.write_all(&npy(values)).unwrap();
    }
    z.finish().unwrap();
}

/// The same program as CSV and as NPZ gives the same report numbers.
#[test]
fn npz_trajectory_equals_csv() {
    let dir = pins_dir();
    let n = 50;
    let t: Vec<f64> = (0..n).map(|i| i as f64 * 0.02).collect();
    let a: Vec<f64> = t.iter().map(|t| 0.8 * (3.0 * t).sin()).collect();
    let b: Vec<f64> = t.iter().map(|t| 0.3 * t).collect();
    let mut csv = String::from("t,a,b\n");
    for i in 0..n {
        csv += &format!("{:?},{:?},{:?}\n", t[i], a[i], b[i]);
    }
    write(dir.path(), "p.csv", &csv);
    write_npz(
        &dir.path().join("p.npz"),
        &[("t", t.clone()), ("a", a), ("b", b)],
    );
    let mut out = Vec::new();
    for file in ["p.csv", "p.npz"] {
        let case = format!(
            "title = \"pins\"\n[model]\nurdf = \"pins.urdf\"\n[motion]\ntrajectory = \"{file}\"\n{TAIL}{HAND}"
        );
        write(dir.path(), "case.toml", &case);
        out.push(analyze(&meff::case::load(&dir.path().join("case.toml")).unwrap()).unwrap());
    }
    assert_eq!(out[0].time, out[1].time);
    assert_eq!(out[0].hazards[0].speed, out[1].hazards[0].speed);
    assert_eq!(out[0].factor, out[1].factor);
    assert_eq!(out[1].velocities, "central_difference");
}

/// Bad NPZ programs: each names the archive, the array and the sample;
/// exit 2, nothing written. A value beyond the range warns with its array
/// and sample.
#[test]
fn bad_npz_programs_are_refused_at_their_array_and_sample() {
    let dir = pins_dir();
    let t = vec![0.0, 0.1, 0.2, 0.3];
    let q = vec![0.0, 0.1, 0.2, 0.3];
    let cases: Vec<(Arrays, &str)> = vec![
        (
            vec![("t", t.clone()), ("a", vec![0.0, f64::NAN, 0.2, 0.3])],
            "array `a`, sample 2 (index 1): `NaN` is not a finite number",
        ),
        (
            vec![("t", vec![0.0, 0.2, 0.1, 0.3]), ("a", q.clone())],
            "array `t`, sample 3 (index 2): time 0.1 s does not increase",
        ),
        (
            vec![("t", t.clone()), ("elbw", q.clone())],
            "array `elbw`: unknown column",
        ),
        (vec![("a", q.clone())], "no time array `t`"),
        (
            vec![("t", vec![0.0]), ("a", vec![0.0])],
            "at least two samples, this one has 1",
        ),
        (
            vec![("t", t.clone()), ("a", q.clone()), ("b", vec![0.0; 3])],
            "array `b` has 3 samples, array `t` 4",
        ),
        (
            vec![
                ("t", t.clone()),
                ("a", q.clone()),
                ("a.v", q.clone()),
                ("b", q.clone()),
            ],
            "joint `b` has no velocity array `b.v`",
        ),
    ];
    for (arrays, expect) in cases {
        write_npz(&dir.path().join("p.npz"), &arrays);
        let case = format!(
            "title = \"pins\"\n[model]\nurdf = \"pins.urdf\"\n[motion]\ntrajectory = \"p.npz\"\n{TAIL}{HAND}"
        );
        write(dir.path(), "case.toml", &case);
        let out = meff_in(dir.path(), &["report", "case.toml", "-o", "out"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{expect}: {stderr}");
        assert!(stderr.contains(expect), "{expect}: {stderr}");
        assert!(stderr.contains("case.toml:5:14"), "{stderr}");
        assert!(!dir.path().join("out").exists());
    }
    // Beyond the range (±3 rad): a warning at the array and sample.
    write_npz(
        &dir.path().join("p.npz"),
        &[("t", t), ("a", vec![0.0, 1.0, 3.5, 1.0])],
    );
    let case = meff::case::load(&dir.path().join("case.toml")).unwrap();
    let w = &case.motion.as_ref().unwrap().warnings;
    assert_eq!(w.len(), 1);
    assert!(
        w[0].location.ends_with("p.npz: array `a`, sample 3"),
        "{w:?}"
    );
}
