#!/usr/bin/env python3
"""Reference values for meff's program check (issue 40) from Pinocchio.

The UR5 of cases/models/ur5_robot.urdf with a 1 kg payload welded to tool0
(appendBodyToJoint), along a short smooth trajectory (40 samples over
1.95 s, every joint moving): at each sample the joint velocities by central
differences (one-sided at the ends, the formula meff states), and for two
hazard points (tool0 at (0, 0, 0.12), forearm_link 0.2 m along it) the
point's velocity v = J q̇ (getFrameJacobian, LOCAL_WORLD_ALIGNED, of a frame
added at the point), the exact mass along v, 1 / (u^T J M^-1 J^T u), the
worst-direction mass 1 / lambda_min(J M^-1 J^T) (M by crba), and the
permissible speeds for a hand region (F_max / sqrt(mu k_H) and
sqrt(2 E_max / mu)). Written to cobot.json beside this file; the Rust test
(tests/it/cobot.rs) compares meff against it to 1e-9, so CI needs no Python.

    pip install pin numpy
    python3 tests/robots/cobot.py
"""
import json
import os

import numpy as np
import pinocchio as pin

HERE = os.path.dirname(os.path.abspath(__file__))
URDF = os.path.join(HERE, "..", "..", "cases", "models", "ur5_robot.urdf")
JOINTS = ["shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint",
          "wrist_1_joint", "wrist_2_joint", "wrist_3_joint"]
HAZARDS = [("tip", "tool0", [0.0, 0.0, 0.12]),
           ("forearm", "forearm_link", [0.0, 0.0, 0.2])]
PAYLOAD = {"body": "tool0", "mass": 1.0, "position": [0.0, 0.0, 0.06],
           "inertia": [0.002, 0.002, 0.001]}
REGION = {"mass": 0.6, "stiffness": 75e3, "force_limit": 280.0,
          "energy_limit": 0.49}


def main():
    model = pin.buildModelFromUrdf(URDF)
    # The payload, in tool0's frame, welded to tool0's joint.
    fid = model.getFrameId(PAYLOAD["body"])
    frame = model.frames[fid]
    inertia = pin.Inertia(PAYLOAD["mass"], np.array(PAYLOAD["position"]),
                          np.diag(PAYLOAD["inertia"]))
    model.appendBodyToJoint(frame.parentJoint, inertia, frame.placement)
    points = []
    for name, body, p in HAZARDS:
        b = model.frames[model.getFrameId(body)]
        placement = b.placement * pin.SE3(np.eye(3), np.array(p))
        points.append(model.addFrame(pin.Frame(
            name, b.parentJoint, placement, pin.FrameType.OP_FRAME)))
    data = model.createData()

    n = 40
    t = [round(0.05 * i, 2) for i in range(n)]
    t[-1] = 1.95
    q0 = np.array([0.0, -1.5708, 1.5708, -1.5708, -1.5708, 0.0])
    amp = np.array([0.9, 0.5, -0.6, 0.7, 0.8, 1.1])
    qs = [q0 + amp * np.sin(0.8 * ti + 0.3 * np.arange(6)) for ti in t]
    idx = [model.joints[model.getJointId(j)].idx_q for j in JOINTS]

    def central(i):
        a, b = max(i - 1, 0), min(i + 1, n - 1)
        return (qs[b] - qs[a]) / (t[b] - t[a])

    out = {"joints": JOINTS, "time": t, "q": [list(map(float, q)) for q in qs],
           "hazards": [{"name": h[0], "body": h[1], "point": h[2]} for h in HAZARDS],
           "payload": PAYLOAD, "region": REGION,
           "speed": [[], []], "mass_exact": [[], []], "mass_worst": [[], []],
           "max_speed_exact": [[], []]}
    for i in range(n):
        q = np.zeros(model.nq)
        v = np.zeros(model.nv)
        for k, j in enumerate(idx):
            q[j] = qs[i][k]
            v[j] = central(i)[k]
        m = pin.crba(model, data, q)
        m = np.triu(m) + np.triu(m, 1).T
        pin.computeJointJacobians(model, data, q)
        pin.updateFramePlacements(model, data)
        for h, f in enumerate(points):
            jp = pin.getFrameJacobian(model, data, f,
                                      pin.ReferenceFrame.LOCAL_WORLD_ALIGNED)[:3]
            inv = jp @ np.linalg.solve(m, jp.T)
            vel = jp @ v
            s = float(np.linalg.norm(vel))
            u = vel / s
            me = float(1.0 / (u @ inv @ u))
            lam = np.linalg.eigvalsh(0.5 * (inv + inv.T))
            # A direction the point cannot move in: infinite (null).
            mw = float(1.0 / lam.min()) if lam.min() > 1e-12 * lam.max() else None
            mu = 1.0 / (1.0 / me + 1.0 / REGION["mass"])
            vmax = min(REGION["force_limit"] / np.sqrt(mu * REGION["stiffness"]),
                       np.sqrt(2.0 * REGION["energy_limit"] / mu))
            out["speed"][h].append(s)
            out["mass_exact"][h].append(me)
            out["mass_worst"][h].append(mw)
            out["max_speed_exact"][h].append(float(vmax))
    out["pinocchio"] = pin.__version__
    with open(os.path.join(HERE, "cobot.json"), "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
