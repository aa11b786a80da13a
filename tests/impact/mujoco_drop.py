#!/usr/bin/env python3
"""Drops a box onto one corner and onto one edge in MuJoCo and measures
the contact force, for meff's impact tests (tests/it/physics/impact.rs reads the
JSON this writes; CI never runs this script).

    pip install mujoco==4.0.0 numpy
    python3 tests/impact/mujoco_drop.py

The box (8 kg, 400 x 300 x 200 mm, the tote of cases/tote-drop.toml) is
placed with one corner (or one edge's two corners) just touching a plane
and given a downward speed; gravity is off, as in meff's impact model (a
drop only sets the speed). Contacts are frictionless (condim 1) with
solref in direct form (negative stiffness and damping) and a constant
impedance d (solimp d0 = dwidth). MuJoCo's force on a contact row is then
f = (A + R)^-1 (K d delta + B delta_dot) with its own A = J M^-1 J^T and
R = (1 - d)/d * diagApprox: a linear spring and dashpot in N/m and N s/m.
For one corner k = K d/(A11 + R), c = B/(A11 + R); for a flat edge landing
the two corners move together and each carries k = K d/(A11 + A12 + R)
(and c likewise). Those k and c, computed here from MuJoCo's own arrays at
the first contact step, are what meff is given; its peak force, duration,
compression and restitution are compared with what MuJoCo's simulation
(RK4, 2 us steps, the box free to turn) measures.

The speed is small (0.01 m/s): the box turns through about 10^-3 rad
while in contact, so the frozen geometry meff assumes holds. (At 0.1 m/s
it turns ten times as far and the rebound speed differs by 0.2 %: the
differences grow with the speed, as a geometric effect does.)
"""
import json
import os

import mujoco
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
A, B, C = 0.4, 0.3, 0.2
MASS = 8.0
SPEED = 0.01
SOLREF = (-3.0e4, -8.0)   # K (1/s^2), B (1/s): direct form
D = 0.9                   # impedance


def model(corners):
    i = [MASS * (B * B + C * C) / 12, MASS * (A * A + C * C) / 12, MASS * (A * A + B * B) / 12]
    sites = "".join(
        f'<geom name="c{n}" type="sphere" size="1e-4" pos="{x} {y} {-C / 2}" mass="0" '
        f'contype="1" conaffinity="0" condim="1" solref="{SOLREF[0]} {SOLREF[1]}" '
        f'solimp="{D} {D} 0.001 0.5 2" margin="0" />'
        for n, (x, y) in enumerate(corners)
    )
    xml = f"""
<mujoco>
  <option gravity="0 0 0" timestep="2e-6" integrator="RK4" cone="pyramidal"/>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1" contype="0" conaffinity="1" condim="1"
          solref="{SOLREF[0]} {SOLREF[1]}" solimp="{D} {D} 0.001 0.5 2"/>
    <body name="box" pos="0 0 {C / 2 + 1e-4}">
      <freejoint/>
      <inertial pos="0 0 0" mass="{MASS}" diaginertia="{i[0]} {i[1]} {i[2]}"/>
      {sites}
    </body>
  </worldbody>
</mujoco>"""
    return mujoco.MjModel.from_xml_string(xml)


def drop(corners):
    m = model(corners)
    d = mujoco.MjData(m)
    d.qvel[2] = -SPEED
    n = len(corners)
    peak = np.zeros(n)
    t_peak = np.zeros(n)
    comp = np.zeros(n)
    start = [None] * n
    end = [None] * n
    law = None
    t = 0.0
    for _ in range(200000):
        mujoco.mj_step(m, d)
        t += m.opt.timestep
        forces = np.zeros(n)
        dist = np.zeros(n)
        for k in range(d.ncon):
            con = d.contact[k]
            g = con.geom2 if con.geom1 == 0 else con.geom1
            j = int(mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_GEOM, g)[1:])
            f6 = np.zeros(6)
            mujoco.mj_contactForce(m, d, k, f6)
            forces[j] = f6[0]
            dist[j] = con.dist
        if law is None and d.nefc == n:
            # MuJoCo's own A and R at the first step with every corner in
            # contact: the linear law it applies.
            jac = d.efc_J.reshape(d.nefc, m.nv)
            minv_jt = np.zeros((m.nv, n))
            for r in range(n):
                x = jac[r].copy()
                mujoco.mj_solveM(m, d, x.reshape(1, -1), jac[r].reshape(1, -1))
                minv_jt[:, r] = x
            a = jac @ minv_jt
            r = d.efc_R[:n].copy()
            kk, bb, imp = d.efc_KBIP[0][0], d.efc_KBIP[0][1], d.efc_KBIP[0][2]
            denom = a[0, 0] + (a[0, 1] if n == 2 else 0.0) + r[0]
            law = {"k": kk * imp / denom, "c": bb / denom, "A": a.tolist(), "R": r.tolist(),
                   "K": kk, "B": bb, "d": imp}
        for j in range(n):
            if forces[j] > 0 and start[j] is None:
                start[j] = t - m.opt.timestep
            if forces[j] > peak[j]:
                peak[j], t_peak[j] = forces[j], t
            comp[j] = max(comp[j], -dist[j])
            if start[j] is not None and end[j] is None and forces[j] <= 0 and t > start[j] + 10 * m.opt.timestep:
                end[j] = t
        if all(e is not None for e in end):
            break
    # Rebound: the corner's normal speed once every contact is open.
    vz = corner_speeds(m, d, corners)
    return {
        "speed": SPEED,
        "law": law,
        "peak_force": peak.tolist(),
        "time_to_peak": (t_peak - np.array([s or 0 for s in start])).tolist(),
        "duration": [e - s for s, e in zip(start, end)],
        "compression": comp.tolist(),
        "rebound_speed": vz,
    }


def corner_speeds(m, d, corners):
    out = []
    for j in range(len(corners)):
        g = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, f"c{j}")
        v6 = np.zeros(6)
        mujoco.mj_objectVelocity(m, d, mujoco.mjtObj.mjOBJ_GEOM, g, v6, 0)
        out.append(float(v6[5]))
    return out


def main():
    out = {
        "mujoco": mujoco.__version__,
        "box": {"mass": MASS, "size": [A, B, C]},
        "corner": drop([(A / 2, B / 2)]),
        "edge": drop([(A / 2, B / 2), (A / 2, -B / 2)]),
    }
    path = os.path.join(HERE, "mujoco_drop.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
