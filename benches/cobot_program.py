#!/usr/bin/env python3
"""A large cobot program (issue 40's speed target): meff from the command
line beside Pinocchio from Python doing the same computation, in one run
(results in benches/results/cobot.md).

    pip install pin==4.1.0 numpy
    cargo build --release
    python3 benches/cobot_program.py [--samples 100000] [--runs 5] [--meff target/release/meff]

The program: the UR5 of cases/models/ur5_robot.urdf with a 1 kg payload
welded to tool0, a smooth trajectory of every joint (CSV, `t` and six
joint columns, velocities by central differences), three hazard points
(gripper tip, wrist, elbow) against two body regions (hand, chest). At
every sample and point: v = J q̇, the exact mass along v 1/(uᵀ J M⁻¹ Jᵀ u),
the worst-direction mass 1/λ_min(J M⁻¹ Jᵀ), the rule M/2 + m_L, and v_max
by force and by energy for each; per pair the smallest v_max/v.

meff: `meff eval case.toml --json --no-verify` (reads the CSV, evaluates,
writes the JSON), wall time, CPU time (user + sys) and peak memory from
/usr/bin/time. Pinocchio:
reading the same CSV with NumPy, central differences, and per sample
computeJointJacobians + updateFramePlacements + crba + the three point
frames' Jacobians + a solve + eigvalsh (what a user writes), timed in
the same process. Both answers are compared (the three factors of every
pair, relative 1e-9) before any time is printed. Medians of the runs,
meff and Pinocchio interleaved.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import pinocchio as pin

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
URDF = os.path.join(ROOT, "cases", "models", "ur5_robot.urdf")
JOINTS = ["shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint",
          "wrist_1_joint", "wrist_2_joint", "wrist_3_joint"]
HAZARDS = [("gripper tip", "tool0", [0.0, 0.0, 0.12]),
           ("wrist", "wrist_2_link", [0.0, 0.0, 0.0]),
           ("elbow", "forearm_link", [0.0, 0.0, 0.0])]
PAYLOAD = {"body": "tool0", "mass": 1.0, "position": [0.0, 0.0, 0.06],
           "inertia": [0.002, 0.002, 0.001]}
REGIONS = [("hand", 0.6, 75e3, 280.0, 0.49), ("chest", 40.0, 25e3, 280.0, 1.6)]


def write_case(d, n):
    t = np.linspace(0.0, 0.01 * (n - 1), n)
    q0 = np.array([0.0, -1.5708, 1.5708, -1.5708, -1.5708, 0.0])
    amp = np.array([0.9, 0.5, -0.6, 0.7, 0.8, 1.1])
    q = q0 + amp * np.sin(0.8 * t[:, None] + 0.3 * np.arange(6))
    with open(os.path.join(d, "program.csv"), "w") as fh:
        fh.write("t," + ",".join(JOINTS) + "\n")
        np.savetxt(fh, np.column_stack([t, q]), delimiter=",", fmt="%.17g")
    with open(URDF) as src, open(os.path.join(d, "ur5.urdf"), "w") as dst:
        dst.write(src.read())
    hazards = "".join(
        f'[[hazard]]\nname = "{h}"\nbody = "{b}"\npoint = ["{p[0]} m", "{p[1]} m", "{p[2]} m"]\n'
        for h, b, p in HAZARDS)
    regions = "".join(
        f'[[region]]\nname = "{r}"\nmass = "{m} kg"\nstiffness = "{k} N/m"\n'
        f'force_limit = "{f} N"\nenergy_limit = "{e} J"\n'
        for r, m, k, f, e in REGIONS)
    p = PAYLOAD
    case = f'''title = "large program"
[model]
urdf = "ur5.urdf"
[[payload]]
name = "gripper"
body = "{p['body']}"
mass = "{p['mass']} kg"
position = ["0 m", "0 m", "0.06 m"]
inertia = ["2e-3 kg m^2", "2e-3 kg m^2", "1e-3 kg m^2"]
[[contact]]
name = "tool"
body = "tool0"
point = ["0 m", "0 m", "0.12 m"]
normal = [0, 0, -1]
frame = "body"
stiffness = "1e5 N/m"
[motion]
trajectory = "program.csv"
{hazards}{regions}'''
    with open(os.path.join(d, "case.toml"), "w") as fh:
        fh.write(case)


def pinocchio_program(path):
    """The same answers from Pinocchio: factor per pair, three mass models."""
    data_in = np.loadtxt(path, delimiter=",", skiprows=1)
    t, qs = data_in[:, 0], data_in[:, 1:]
    n = len(t)
    a, b = np.maximum(np.arange(n) - 1, 0), np.minimum(np.arange(n) + 1, n - 1)
    qds = (qs[b] - qs[a]) / (t[b] - t[a])[:, None]
    model = pin.buildModelFromUrdf(URDF)
    moving = sum(model.inertias[i].mass for i in range(1, model.njoints))
    rule = moving / 2.0 + PAYLOAD["mass"]
    fid = model.getFrameId(PAYLOAD["body"])
    frame = model.frames[fid]
    model.appendBodyToJoint(frame.parentJoint, pin.Inertia(
        PAYLOAD["mass"], np.array(PAYLOAD["position"]), np.diag(PAYLOAD["inertia"])),
        frame.placement)
    frames = []
    for name, body, p in HAZARDS:
        f = model.frames[model.getFrameId(body)]
        placement = f.placement * pin.SE3(np.eye(3), np.array(p))
        frames.append(model.addFrame(pin.Frame(
            name, f.parentJoint, placement, pin.FrameType.OP_FRAME)))
    data = model.createData()
    idx = [model.joints[model.getJointId(j)].idx_q for j in JOINTS]
    h = len(HAZARDS)
    speed = np.zeros((n, h))
    exact = np.zeros((n, h))
    worst = np.zeros((n, h))
    for i in range(n):
        q = np.zeros(model.nq)
        v = np.zeros(model.nv)
        q[idx] = qs[i]
        v[idx] = qds[i]
        pin.computeJointJacobians(model, data, q)
        pin.updateFramePlacements(model, data)
        m = pin.crba(model, data, q)
        m = np.triu(m) + np.triu(m, 1).T
        js = np.vstack([pin.getFrameJacobian(
            model, data, f, pin.ReferenceFrame.LOCAL_WORLD_ALIGNED)[:3] for f in frames])
        inv = js @ np.linalg.solve(m, js.T)
        vel = js @ v
        for k in range(h):
            a3 = inv[3 * k:3 * k + 3, 3 * k:3 * k + 3]
            s = np.linalg.norm(vel[3 * k:3 * k + 3])
            u = vel[3 * k:3 * k + 3] / s
            speed[i, k] = s
            exact[i, k] = 1.0 / (u @ a3 @ u)
            worst[i, k] = 1.0 / np.linalg.eigvalsh(a3)[0]
    factors = {}
    for k, (hz, _, _) in enumerate(HAZARDS):
        for r, mh, kh, fmax, emax in REGIONS:
            out = []
            for mr in (exact[:, k], worst[:, k], np.full(n, rule)):
                mu = 1.0 / (1.0 / mr + 1.0 / mh)
                vmax = np.minimum(fmax / np.sqrt(mu * kh), np.sqrt(2.0 * emax / mu))
                out.append(float(np.min(vmax / speed[:, k])))
            factors[(hz, r)] = out
    return factors


def run_meff(exe, d):
    t0 = time.perf_counter()
    res = subprocess.run(
        ["/usr/bin/time", "-f", "%e %U %S %M", exe, "eval", "case.toml", "--json", "--no-verify"],
        cwd=d, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    _, user, sys_, rss_kb = res.stderr.strip().split("\n")[-1].split()
    return wall, float(user) + float(sys_), int(rss_kb), res.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--meff", default=os.path.join(ROOT, "target", "release", "meff"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        write_case(d, args.samples)
        meff_times, cpu, rss, pin_times, pin_cpu = [], [], [], [], []
        doc = None
        for _ in range(args.runs):
            wall, c, kb, out = run_meff(args.meff, d)
            meff_times.append(wall)
            cpu.append(c)
            rss.append(kb)
            doc = out
            t0, c0 = time.perf_counter(), time.process_time()
            factors = pinocchio_program(os.path.join(d, "program.csv"))
            pin_times.append(time.perf_counter() - t0)
            pin_cpu.append(time.process_time() - c0)
        report = json.loads(doc)
        worst = 0.0
        for p in report["program"]["pairs"]:
            ref = factors[(p["hazard"], p["region"])]
            got = [p["factor_exact"], p["factor_worst_direction"], p["factor_rule"]]
            worst = max(worst, max(abs(g - r) / abs(r) for g, r in zip(got, ref)))
        if worst > 1e-9:
            sys.exit(f"meff and Pinocchio disagree: largest relative difference {worst:.2e}")
        load = os.getloadavg()
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores; load average "
              f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (1, 5, 15 min) after the runs; "
              f"Python {platform.python_version()}; Pinocchio {pin.__version__}; "
              f"NumPy {np.__version__}")
        print(f"program: {args.samples} samples x {len(HAZARDS)} hazard points x "
              f"{len(REGIONS)} regions; agreement of every pair's three factors: "
              f"largest relative difference {worst:.1e}")
        print(f"meff JSON: {len(doc) / 1e6:.2f} MB, series {report['program']['series']}")
        print("| what | median | runs |")
        print("|---|---:|---|")
        fmt = lambda xs: ", ".join(f"{x:.3f}" for x in xs)
        print(f"| meff eval --json, end to end (s) | {statistics.median(meff_times):.3f} | {fmt(meff_times)} |")
        print(f"| meff eval, CPU time user + sys (s) | {statistics.median(cpu):.3f} | {fmt(cpu)} |")
        print(f"| meff peak memory (MB) | {statistics.median(rss) / 1024:.0f} | "
              + ", ".join(f"{x / 1024:.0f}" for x in rss) + " |")
        print(f"| Pinocchio from Python, CSV read + loop (s) | {statistics.median(pin_times):.3f} | {fmt(pin_times)} |")
        print(f"| Pinocchio, CPU time of the process (s) | {statistics.median(pin_cpu):.3f} | {fmt(pin_cpu)} |")
        print(f"| ratio Pinocchio / meff | {statistics.median(pin_times) / statistics.median(meff_times):.1f} | |")


if __name__ == "__main__":
    main()
