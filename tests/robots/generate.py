#!/usr/bin/env python3
"""Reference values for meff's MJCF and URDF readers and its CRBA.

MuJoCo (mj_fullM, mj_jac) on the gymnasium MJCF assets and Pinocchio (crba,
getFrameJacobian) on URDFs of example-robot-data and pybullet_data: for each model, five
configurations (the reference one and four seeded random ones), the joint-
space mass matrix with and without armature, and three contacts (a body, a
point in its frame, a world normal) with their Jacobian row and effective
mass m_eff = 1 / (J M^-1 J^T). Written to reference.json beside this file;
the Rust tests (tests/it/robots/references.rs) compare meff against it, so CI needs no
Python.

    pip install mujoco pin numpy
    python3 tests/robots/generate.py
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MJCF = ["ant", "half_cheetah", "hopper", "humanoid", "walker2d", "reacher",
        "pusher", "swimmer", "inverted_double_pendulum"]
URDF = ["ur5_robot", "panda", "solo12", "talos_reduced", "kinova",
        "double_pendulum_continuous",
        # pybullet_data (pybullet 3.2.7)
        "pybullet_kuka_iiwa", "pybullet_a1", "pybullet_laikago"]
CONFIGS = 5


def unit(rng, n=3):
    v = rng.normal(size=n)
    return v / np.linalg.norm(v)


def meff(row, m):
    return float(1.0 / (row @ np.linalg.solve(m, row)))


def constrained_meff(row, m, g):
    """1 / (r P r^T), P = M^-1 - M^-1 G^T (G M^-1 G^T)^+ G M^-1."""
    mi = np.linalg.inv(m)
    if g.shape[0] == 0:
        return meff(row, m)
    p = mi - mi @ g.T @ np.linalg.pinv(g @ mi @ g.T) @ g @ mi
    return float(1.0 / (row @ p @ row))


def mujoco_model(name, rng, subdir="mjcf"):
    import mujoco
    path = os.path.join(HERE, subdir, name + ".xml")
    model = mujoco.MjModel.from_xml_path(path)
    data = mujoco.MjData(model)
    model.opt.jacobian = mujoco.mjtJacobian.mjJAC_DENSE
    out = {"file": f"{subdir}/{name}.xml", "engine": f"mujoco {mujoco.__version__}",
           "nq": model.nq, "nv": model.nv,
           "dof_joints": [mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_JOINT, int(model.dof_jntid[i])) or ""
                          for i in range(model.nv)],
           "configurations": []}
    armature = model.dof_armature.copy()
    for c in range(CONFIGS):
        q = model.qpos0.copy()
        if c == 1 and model.nkey > 0:
            q = model.key_qpos[0].copy()
        elif c > 0:
            for j in range(model.njnt):
                a = model.jnt_qposadr[j]
                t = model.jnt_type[j]
                if t == mujoco.mjtJoint.mjJNT_HINGE:
                    q[a] += rng.uniform(-1.5, 1.5)
                elif t == mujoco.mjtJoint.mjJNT_SLIDE:
                    q[a] += rng.uniform(-0.3, 0.3)
                elif t == mujoco.mjtJoint.mjJNT_BALL:
                    q[a:a + 4] = unit(rng, 4)
                else:
                    q[a:a + 3] = rng.uniform(-1, 1, size=3)
                    q[a + 3:a + 7] = unit(rng, 4)
        data.qpos[:] = q
        full = {}
        for arm in (True, False):
            # mj_setConst: MuJoCo precomputes the diagonal inertia of
            # "simple" bodies (armature included) at compile time.
            model.dof_armature[:] = armature if arm else 0.0
            data = mujoco.MjData(model)
            mujoco.mj_setConst(model, data)
            data.qpos[:] = q
            mujoco.mj_forward(model, data)
            m = np.zeros((model.nv, model.nv))
            mujoco.mj_fullM(model, data, m)
            full[arm] = m
        model.dof_armature[:] = armature
        data = mujoco.MjData(model)
        mujoco.mj_setConst(model, data)
        data.qpos[:] = q
        mujoco.mj_forward(model, data)
        eq = [i for i in range(data.nefc) if data.efc_type[i] == mujoco.mjtConstraint.mjCNSTR_EQUALITY]
        g = data.efc_J.reshape(data.nefc, model.nv)[eq] if eq else np.zeros((0, model.nv))
        contacts = []
        bodies = [model.nbody - 1, max(1, model.nbody // 2), int(rng.integers(1, model.nbody))]
        for b in bodies:
            local = rng.uniform(-0.1, 0.1, size=3)
            normal = unit(rng)
            point = data.xpos[b] + data.xmat[b].reshape(3, 3) @ local
            jacp = np.zeros((3, model.nv))
            mujoco.mj_jac(model, data, jacp, None, point, b)
            row = normal @ jacp
            contacts.append({"body": mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_BODY, b),
                             "body_index": b - 1,
                             "point": local.tolist(), "normal": normal.tolist(),
                             "row": row.tolist(),
                             "m_eff": meff(row, full[True]),
                             "m_eff_without_armature": meff(row, full[False]),
                             "m_eff_constrained": constrained_meff(row, full[True], g)})
        out["configurations"].append({"qpos": q.tolist(),
                                      "mass_matrix": full[True].ravel().tolist(),
                                      "mass_matrix_without_armature": full[False].ravel().tolist(),
                                      "contacts": contacts})
    return out


def pinocchio_model(name, rng):
    import pinocchio as pin
    path = os.path.join(HERE, "urdf", name + ".urdf")
    model = pin.buildModelFromUrdf(path)
    joints = []  # (name, idx_q, nq, idx_v, nv)
    dof_joints = [""] * model.nv
    for j in range(1, model.njoints):
        jm = model.joints[j]
        joints.append((model.names[j], jm.idx_q, jm.nq, jm.idx_v, jm.nv))
        for k in range(jm.nv):
            dof_joints[jm.idx_v + k] = model.names[j]
    bodies = [f for f in range(model.nframes)
              if model.frames[f].type == pin.FrameType.BODY and model.frames[f].parentJoint > 0]
    picks = [bodies[-1], bodies[len(bodies) // 2], bodies[int(rng.integers(0, len(bodies)))]]
    local = [rng.uniform(-0.1, 0.1, size=3) for _ in picks]
    point_frames = []
    for i, f in enumerate(picks):
        fr = model.frames[f]
        placement = fr.placement * pin.SE3(np.eye(3), local[i])
        point_frames.append(model.addFrame(pin.Frame(f"meff_point_{i}", fr.parentJoint, f, placement,
                                                     pin.FrameType.OP_FRAME)))
    data = model.createData()
    out = {"file": f"urdf/{name}.urdf", "engine": f"pinocchio {pin.__version__}",
           "nq": model.nq, "nv": model.nv, "dof_joints": dof_joints, "configurations": []}
    for c in range(CONFIGS):
        angles = {}
        q = pin.neutral(model)
        for (jname, iq, nq, iv, nv) in joints:
            x = 0.0 if c == 0 else float(rng.uniform(-1.5, 1.5))
            angles[jname] = x
            if nq == 1:
                q[iq] = x
            elif nq == 2:  # continuous: (cos, sin)
                q[iq], q[iq + 1] = np.cos(x), np.sin(x)
            else:
                raise SystemExit(f"{name}: joint {jname} with nq={nq} is not generated")
        m = pin.crba(model, data, q)
        m = np.triu(m) + np.triu(m, 1).T
        pin.computeJointJacobians(model, data, q)
        pin.updateFramePlacements(model, data)
        contacts = []
        for i, f in enumerate(picks):
            normal = unit(rng)
            jac = pin.getFrameJacobian(model, data, point_frames[i], pin.LOCAL_WORLD_ALIGNED)
            row = normal @ jac[:3]
            contacts.append({"body": model.frames[f].name, "point": local[i].tolist(),
                             "normal": normal.tolist(), "row": row.tolist(),
                             "m_eff": meff(row, m)})
        out["configurations"].append({"joints": angles, "mass_matrix": m.ravel().tolist(),
                                      "contacts": contacts})
    return out


def main():
    rng = np.random.default_rng(20261201)
    models = [mujoco_model(n, rng) for n in MJCF] + [pinocchio_model(n, rng) for n in URDF]
    # meff's own feature model (not a third-party model).
    models.append(mujoco_model("features", rng, subdir="features"))
    models.append(mujoco_model("features_weld", rng, subdir="features"))
    with open(os.path.join(HERE, "reference.json"), "w") as f:
        json.dump({"generated_by": "tests/robots/generate.py", "models": models}, f, indent=None)
        f.write("\n")


if __name__ == "__main__":
    main()
