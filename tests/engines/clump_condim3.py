#!/usr/bin/env python3
"""MuJoCo condim = 3 rows of a clump on a plane, for meff's tangential test.

A rigid clump of three spheres (one free body) rests on a plane, two of
its spheres touching it. MuJoCo (elliptic friction cone, `cone="elliptic"`:
with condim 3 each contact has three efc rows, the normal then the two
tangents of the contact frame) gives efc_J; A = J M⁻¹ Jᵀ with mj_solveM.
Writes tests/engines/clump_condim3.json (contact points, frames, body
mass, inertia and position, A). CI reads the JSON; it never runs this.

    pip install mujoco==4.0.0 numpy
    python3 tests/engines/clump_condim3.py
"""
import json
import os

import mujoco
import numpy as np

XML = """
<mujoco>
  <option cone="elliptic" gravity="0 0 0"/>
  <worldbody>
    <geom name="floor" type="plane" size="1 1 0.1" condim="3" margin="0.001"/>
    <body name="clump" pos="0 0 0.05">
      <freejoint/>
      <geom type="sphere" size="0.02" pos="0.03 0.01 -0.03" mass="0.3" condim="3" margin="0.001"/>
      <geom type="sphere" size="0.02" pos="-0.025 0.02 -0.03" mass="0.2" condim="3" margin="0.001"/>
      <geom type="sphere" size="0.025" pos="0.0 -0.02 0.02" mass="0.5" condim="3" margin="0.001"/>
    </body>
  </worldbody>
</mujoco>
"""

m = mujoco.MjModel.from_xml_string(XML)
d = mujoco.MjData(m)
mujoco.mj_forward(m, d)
nv = m.nv
J = d.efc_J.reshape(d.nefc, nv)
MinvJt = np.zeros((nv, d.nefc))
for i in range(d.nefc):
    x = J[i].copy()
    mujoco.mj_solveM(m, d, x.reshape(1, nv), J[i].reshape(1, nv).copy())
    MinvJt[:, i] = x
A = J @ MinvJt
b = m.body("clump")
xmat = d.xmat[b.id].reshape(3, 3)
ximat = d.ximat[b.id].reshape(3, 3)
I_world = ximat @ np.diag(m.body_inertia[b.id]) @ ximat.T
out = {
    "cone": "elliptic",
    "condim": 3,
    "mass": float(m.body_mass[b.id]),
    "com": d.xipos[b.id].tolist(),
    "inertia_world": I_world.tolist(),
    "contacts": [
        {"pos": d.contact[i].pos.tolist(), "frame": d.contact[i].frame.tolist(), "dist": float(d.contact[i].dist)}
        for i in range(d.ncon)
    ],
    "efc_J": J.tolist(),
    "A": A.tolist(),
}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "clump_condim3.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1)
print(f"{d.ncon} contacts, {d.nefc} rows -> {path}")
