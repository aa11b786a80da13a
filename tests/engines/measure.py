#!/usr/bin/env python3
"""Measures how contacts ring in real engines, for meff's engine tests.

Builds the systems of tests/engines/*.toml in MuJoCo, PyBullet and Drake
(and writes the model files and the meff cases that describe the same
systems), lets each ring
about its equilibrium and measures the frequency and decay of every mode,
and writes tests/engines/measured.json. CI reads the JSON; it never runs
this script.

    pip install mujoco==4.0.0 pybullet==3.2.7 drake==1.51.1 numpy
    python3 tests/engines/measure.py

Measurement: the contacts' normal distances, sampled every step, are fitted
by the matrix-pencil method (Hua & Sarkar 1990) with one pole per mode pair
plus the constant offset; a pole z of the step map gives the continuous
rate ln(z)/h, so ω_d = |arg z|/h and σ = −ln|z|/h. The engine's step is a
linear map while the set of contacts does not change, so the poles are
exact up to round-off; the fit's relative residual is stored beside them.
Excitation: an impulse Jᵀp along the contact normals (M-orthogonal to the
motions that keep the contacts closed, so no drift is excited), and a
preload Jᵀf₀ as a generalized force (or gravity) holding the contacts
closed.
"""
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def pencil(signals, modes, dt):
    """Poles (ω_d, σ) of the `modes` strongest oscillations in multichannel
    samples, by the matrix-pencil method with two spare poles (the offset
    and a slow drift of a free motion are fitted, not reported)."""
    order = 2 * modes + 3
    n = signals.shape[1]
    L = n // 2
    blocks = [np.array([s[i:i + L + 1] for i in range(n - L)]) for s in signals]
    Y = np.vstack(blocks)
    _, sv, vh = np.linalg.svd(Y, full_matrices=False)
    V = vh[:order].T.conj()
    V1, V2 = V[:-1], V[1:]
    z = np.linalg.eigvals(np.linalg.pinv(V1) @ V2)
    # Amplitudes by least squares; the residual of the whole fit.
    Z = np.vander(z, n, increasing=True).T
    res = 0.0
    amp = np.zeros(len(z))
    for s in signals:
        c, *_ = np.linalg.lstsq(Z, s, rcond=None)
        amp = np.maximum(amp, np.abs(c))
        res = max(res, np.linalg.norm(Z @ c - s) / max(np.linalg.norm(s - s.mean()), 1e-300))
    osc = [k for k in range(len(z)) if z[k].imag > 1e-9]
    osc.sort(key=lambda k: -amp[k])
    poles = []
    for k in osc[:modes]:
        lam = np.log(z[k]) / dt
        poles.append({"omega_d": float(lam.imag), "sigma": float(-lam.real)})
    poles.sort(key=lambda p: -p["omega_d"])
    return poles, float(res)


# ------------------------------------------------------------------ MuJoCo --

def mujoco_ring(xml, preload, impulse, steps, modes, pose=None, gravity=False):
    import mujoco

    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    if pose is not None:
        d.qpos[:] = pose
    mujoco.mj_forward(m, d)
    assert d.ncon == modes, f"expected {modes} contacts, found {d.ncon}"
    # Normal rows of the contacts, in contact order (frictionless: one each).
    J = np.array([d.efc_J[i * m.nv:(i + 1) * m.nv] for i in range(d.nefc)]) if d.efc_J.ndim == 1 else d.efc_J[: d.nefc].copy()
    J = J.reshape(d.nefc, m.nv)
    Minv = np.zeros((m.nv, m.nv))
    mujoco.mj_solveM(m, d, Minv, np.eye(m.nv))
    kbip = np.asarray(d.efc_KBIP).reshape(-1, 4)
    facts = {
        "diagA": d.efc_diagA[: d.nefc].tolist(),
        "R": d.efc_R[: d.nefc].tolist(),
        "K": [float(kbip[i, 0]) for i in range(d.nefc)],
        "B": [float(kbip[i, 1]) for i in range(d.nefc)],
        "imp": [float(kbip[i, 2]) for i in range(d.nefc)],
        "A": (J @ Minv @ J.T).tolist(),
        "invweight0": m.body_invweight0[:, 0].tolist(),
    }
    def push():
        # The preload follows the contacts (their current rows): a force f0
        # into each contact at its point, which cancels the contact force's
        # own geometric terms, so the linearization is meff's.
        if not gravity:
            Jt = np.asarray(d.efc_J[: d.nefc * m.nv]).reshape(d.nefc, m.nv)
            d.qfrc_applied[:] = -Jt.T @ np.full(d.nefc, preload)
    # Settle on the preload, then kick: the gap velocities from the impulse
    # are a tenth of the static penetration times the stiffest rate, so
    # every contact stays closed.
    for _ in range(20000):
        push()
        mujoco.mj_step(m, d)
        mujoco.mj_forward(m, d)
        if np.abs(d.efc_vel[: d.nefc]).max() < 1e-11:
            break
    mujoco.mj_forward(m, d)
    assert np.abs(d.efc_vel[: d.nefc]).max() < 1e-9, f"did not settle: {d.efc_vel[: d.nefc]}"
    r_eq = np.abs([d.contact[c].dist for c in range(d.ncon)]).min()
    p = np.asarray(impulse, float)
    w = math.sqrt(max(facts["K"][i] * facts["imp"][i] for i in range(d.nefc)))
    p *= 0.1 * r_eq * w / np.abs(J @ Minv @ J.T @ p).max()
    d.qvel[:] += Minv @ J.T @ p
    sig = np.zeros((modes, steps))
    for t in range(steps):
        assert d.ncon == modes and d.nefc == modes, f"a contact opened at step {t}"
        geoms = sorted(range(d.ncon), key=lambda c: (d.contact[c].geom[0], d.contact[c].geom[1]))
        for k, c in enumerate(geoms):
            sig[k, t] = d.contact[c].dist
        push()
        mujoco.mj_step(m, d)
        mujoco.mj_forward(m, d)
    poles, res = pencil(sig, modes, m.opt.timestep)
    return poles, res, facts


def block_xml(solref, solimp, timestep, gravity):
    return f"""<mujoco model="offset block">
  <option timestep="{timestep}" gravity="0 0 {-9.81 if gravity else 0}"/>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1" condim="1"
          solref="{solref[0]} {solref[1]}" solimp="{' '.join(map(str, solimp))}"/>
    <body name="block" pos="0 0 0.059999">
      <freejoint/>
      <geom type="box" size="0.2 0.1 0.05" mass="2" condim="1" contype="0" conaffinity="0"/>
      <geom name="foot" type="sphere" size="0.005" pos="0.15 0.06 -0.055" mass="0" condim="1"
            solref="{solref[0]} {solref[1]}" solimp="{' '.join(map(str, solimp))}"/>
    </body>
  </worldbody>
</mujoco>
"""


def corners_xml(solref, solimp, timestep):
    return f"""<mujoco model="two-corner block">
  <option timestep="{timestep}" gravity="0 0 -9.81"/>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1" condim="1"
          solref="{solref[0]} {solref[1]}" solimp="{' '.join(map(str, solimp))}"/>
    <body name="block" pos="0 0 0.109999">
      <joint name="x" type="slide" axis="1 0 0"/>
      <joint name="z" type="slide" axis="0 0 1"/>
      <joint name="a" type="hinge" axis="0 1 0"/>
      <geom type="box" size="0.3 0.1 0.1" mass="3" condim="1" contype="0" conaffinity="0"/>
      <geom name="left" type="sphere" size="0.005" pos="-0.25 0 -0.105" mass="0" condim="1"
            solref="{solref[0]} {solref[1]}" solimp="{' '.join(map(str, solimp))}"/>
      <geom name="right" type="sphere" size="0.005" pos="0.15 0 -0.105" mass="0" condim="1"
            solref="{solref[0]} {solref[1]}" solimp="{' '.join(map(str, solimp))}"/>
    </body>
  </worldbody>
</mujoco>
"""


ARM_Q = (0.3, 0.9)


def arm_xml(solref, solimp, timestep, base_z):
    return f"""<mujoco model="two-link arm">
  <option timestep="{timestep}" gravity="0 0 0"/>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1" condim="1"
          solref="{solref[0]} {solref[1]}" solimp="{' '.join(map(str, solimp))}"/>
    <body name="upper" pos="0 0 {base_z:.12f}">
      <joint name="shoulder" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.03" mass="1.5" condim="1" contype="0" conaffinity="0"/>
      <body name="fore" pos="0.4 0 0">
        <joint name="elbow" type="hinge" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.35 0 0" size="0.025" mass="1" condim="1" contype="0" conaffinity="0"/>
        <geom name="tip" type="sphere" size="0.01" pos="0.36 0 0" mass="0" condim="1"
              solref="{solref[0]} {solref[1]}" solimp="{' '.join(map(str, solimp))}"/>
      </body>
    </body>
  </worldbody>
</mujoco>
"""


def arm_base_z():
    """Base height at which the tip sphere just touches the floor at ARM_Q."""
    import mujoco

    m = mujoco.MjModel.from_xml_string(arm_xml((0.02, 1), (0.9, 0.95, 0.001, 0.5, 2), 0.002, 1.0))
    d = mujoco.MjData(m)
    d.qpos[:] = ARM_Q
    mujoco.mj_kinematics(m, d)
    tip = d.geom_xpos[m.geom("tip").id]
    return 1.0 - (tip[2] - 0.01) - 2e-6


# ----------------------------------------------------------------- PyBullet --

def inertial_xml(mass, com, tensor):
    t = tensor
    return (f'<inertial><origin xyz="{com[0]!r} {com[1]!r} {com[2]!r}"/><mass value="{mass!r}"/>'
            f'<inertia ixx="{t[0][0]!r}" ixy="{t[0][1]!r}" ixz="{t[0][2]!r}" iyy="{t[1][1]!r}" iyz="{t[1][2]!r}" izz="{t[2][2]!r}"/></inertial>')


def sphere_xml(pos, r):
    return f'<collision><origin xyz="{pos[0]!r} {pos[1]!r} {pos[2]!r}"/><geometry><sphere radius="{r!r}"/></geometry></collision>'


TINY = '<inertial><mass value="1e-9"/><inertia ixx="1e-12" iyy="1e-12" izz="1e-12" ixy="0" ixz="0" iyz="0"/></inertial>'


def bullet_urdfs(block_inertia, corner_inertia, arm_bodies, base_z):
    i = block_inertia
    block = f"""<robot name="offset_block"><link name="block">{inertial_xml(2.0, (0, 0, 0), [[i[0], 0, 0], [0, i[1], 0], [0, 0, i[2]]])}{sphere_xml((0.15, 0.06, -0.055), 0.005)}</link></robot>"""
    corners = f"""<robot name="two_corner"><link name="world"/>
<link name="lx">{TINY}</link><link name="lz">{TINY}</link>
<link name="block">{inertial_xml(3.0, (0, 0, 0), [[0.1, 0, 0], [0, corner_inertia, 0], [0, 0, 0.1]])}{sphere_xml((-0.25, 0, -0.105), 0.005)}{sphere_xml((0.15, 0, -0.105), 0.005)}</link>
<joint name="x" type="prismatic"><parent link="world"/><child link="lx"/><axis xyz="1 0 0"/><limit lower="-10" upper="10" effort="0" velocity="100"/></joint>
<joint name="z" type="prismatic"><parent link="lx"/><child link="lz"/><axis xyz="0 0 1"/><limit lower="-10" upper="10" effort="0" velocity="100"/></joint>
<joint name="a" type="continuous"><parent link="lz"/><child link="block"/><axis xyz="0 1 0"/></joint>
</robot>"""
    (m1, c1, t1), (m2, c2, t2) = arm_bodies
    arm = f"""<robot name="arm"><link name="base"/>
<link name="upper">{inertial_xml(m1, c1, t1)}</link>
<link name="fore">{inertial_xml(m2, c2, t2)}{sphere_xml((0.36, 0, 0), 0.01)}</link>
<joint name="shoulder" type="continuous"><parent link="base"/><child link="upper"/><axis xyz="0 1 0"/></joint>
<joint name="elbow" type="continuous"><parent link="upper"/><child link="fore"/><origin xyz="0.4 0 0"/><axis xyz="0 1 0"/></joint>
</robot>"""
    return {"offset-block": block, "two-corner": corners, "arm": arm}


def bullet_ring(urdf, setting, h, modes, base=(0, 0, 0), fixed=True, joints=None, preload=10.0, steps=800):
    import pybullet as p
    import tempfile

    cid = p.connect(p.DIRECT)
    p.setPhysicsEngineParameter(fixedTimeStep=h, numSolverIterations=500, numSubSteps=0,
                                solverResidualThreshold=1e-14, physicsClientId=cid)
    if "erp" in setting:
        p.setPhysicsEngineParameter(contactERP=setting["erp"], globalCFM=setting["cfm"], physicsClientId=cid)
    plane = p.createMultiBody(0, p.createCollisionShape(p.GEOM_PLANE, physicsClientId=cid), physicsClientId=cid)
    with tempfile.NamedTemporaryFile("w", suffix=".urdf", delete=False) as f:
        f.write(urdf)
    body = p.loadURDF(f.name, basePosition=base, useFixedBase=fixed,
                      flags=p.URDF_USE_INERTIA_FROM_FILE, physicsClientId=cid)
    os.unlink(f.name)
    nj = p.getNumJoints(body, physicsClientId=cid)
    for link in range(-1, nj):
        kw = dict(lateralFriction=0, spinningFriction=0, rollingFriction=0, restitution=0,
                  linearDamping=0, angularDamping=0, jointDamping=0)
        if "k" in setting:
            kw.update(contactStiffness=setting["k"], contactDamping=setting["c"])
        p.changeDynamics(body, link, physicsClientId=cid, **kw)
    p.changeDynamics(plane, -1, lateralFriction=0, restitution=0, physicsClientId=cid)
    if nj:
        p.setJointMotorControlArray(body, list(range(nj)), p.VELOCITY_CONTROL, forces=[0] * nj, physicsClientId=cid)
        for j, q in (joints or {}).items():
            p.resetJointState(body, j, q, physicsClientId=cid)

    def contacts():
        cs = p.getContactPoints(bodyA=body, bodyB=plane, physicsClientId=cid)
        return sorted(cs, key=lambda c: (c[3], c[5][0]))

    def push(extra=0.0, direction=None):
        for k, c in enumerate(contacts()):
            n = np.array(c[7])  # on B (the plane), pointing to A
            f = -(preload + (extra * direction[k] if direction is not None else 0.0)) * n
            p.applyExternalForce(body, c[3], f.tolist(), list(c[5]), p.WORLD_FRAME, physicsClientId=cid)

    p.performCollisionDetection(physicsClientId=cid)
    assert len(contacts()) == modes, f"expected {modes} contacts, found {len(contacts())}"
    last = None
    for it in range(40000):
        push()
        p.stepSimulation(physicsClientId=cid)
        d = np.array([c[8] for c in contacts()])
        if last is not None and len(d) == modes and np.abs(d - last).max() < 1e-13 and it > 100:
            break
        last = d
    r_eq = np.abs(d).min()
    # A pulse over one step: impulse ∝ a tenth of the static penetration.
    direction = [1.0, -0.5][:modes]
    push(extra=preload * 0.3, direction=direction)
    p.stepSimulation(physicsClientId=cid)
    sig = np.zeros((modes, steps))
    for t in range(steps):
        cs = contacts()
        assert len(cs) == modes and all(c[8] < 0 for c in cs), f"a contact opened at step {t}"
        sig[:, t] = [c[8] for c in cs]
        push()
        p.stepSimulation(physicsClientId=cid)
    p.disconnect(cid)
    poles, res = pencil(sig, modes, h)
    return poles, res, float(r_eq)


# -------------------------------------------------------------------- Drake --

def drake_ring(system, setting, h, modes, block_inertia, corner_inertia, arm_bodies, base_z,
               preload=10.0, steps=800):
    from pydrake.all import (
        AddMultibodyPlant, CoulombFriction, DiagramBuilder, ExternallyAppliedSpatialForce,
        HalfSpace, MultibodyPlantConfig, PrismaticJoint, ProximityProperties, RevoluteJoint,
        RigidTransform, RotationalInertia, Simulator, SpatialForce, SpatialInertia, Sphere,
    )

    builder = DiagramBuilder()
    config = MultibodyPlantConfig(time_step=h, discrete_contact_approximation=setting["approximation"],
                                  contact_model="point")
    plant, sg = AddMultibodyPlant(config, builder)

    def props(k, d, tau):
        p = ProximityProperties()
        p.AddProperty("material", "point_contact_stiffness", k)
        p.AddProperty("material", "hunt_crossley_dissipation", d)
        p.AddProperty("material", "relaxation_time", tau)
        p.AddProperty("material", "coulomb_friction", CoulombFriction(0.0, 0.0))
        return p

    body_props = props(setting["k"], setting.get("d", 0.0), setting.get("tau", 0.0))
    # A floor so stiff that the series combination is the body's stiffness;
    # its dissipation is weighted by the body's (small) stiffness: none.
    plant.RegisterCollisionGeometry(plant.world_body(), RigidTransform(), HalfSpace(), "floor",
                                    props(1e16, setting.get("d", 0.0), 0.0))

    def inertia(m, com, t):
        return SpatialInertia.MakeFromCentralInertia(
            m, com, RotationalInertia(t[0][0], t[1][1], t[2][2], t[0][1], t[0][2], t[1][2]))

    def tiny(name, parent):
        return plant.AddRigidBody(name, SpatialInertia.MakeFromCentralInertia(
            1e-9, [0, 0, 0], RotationalInertia(1e-12, 1e-12, 1e-12)))

    feet = []
    if system == "offset-block":
        i = block_inertia
        body = plant.AddRigidBody("block", inertia(2.0, [0, 0, 0], [[i[0], 0, 0], [0, i[1], 0], [0, 0, i[2]]]))
        plant.RegisterCollisionGeometry(body, RigidTransform([0.15, 0.06, -0.055]), Sphere(0.005), "foot", body_props)
        feet.append(body)
    elif system == "two-corner":
        lx, lz = tiny("lx", None), tiny("lz", None)
        body = plant.AddRigidBody("block", inertia(3.0, [0, 0, 0], [[0.1, 0, 0], [0, corner_inertia, 0], [0, 0, 0.1]]))
        plant.AddJoint(PrismaticJoint("x", plant.world_frame(), lx.body_frame(), [1, 0, 0]))
        plant.AddJoint(PrismaticJoint("z", lx.body_frame(), lz.body_frame(), [0, 0, 1]))
        plant.AddJoint(RevoluteJoint("a", lz.body_frame(), body.body_frame(), [0, 1, 0]))
        for name, x in (("left", -0.25), ("right", 0.15)):
            plant.RegisterCollisionGeometry(body, RigidTransform([x, 0, -0.105]), Sphere(0.005), name, body_props)
        feet.append(body)
    else:
        (m1, c1, t1), (m2, c2, t2) = arm_bodies
        upper = plant.AddRigidBody("upper", inertia(m1, c1, t1))
        fore = plant.AddRigidBody("fore", inertia(m2, c2, t2))
        shoulder = plant.AddFrame(__import__("pydrake.all", fromlist=["FixedOffsetFrame"]).FixedOffsetFrame(
            "shoulder_frame", plant.world_frame(), RigidTransform([0, 0, base_z])))
        elbow = plant.AddFrame(__import__("pydrake.all", fromlist=["FixedOffsetFrame"]).FixedOffsetFrame(
            "elbow_frame", upper.body_frame(), RigidTransform([0.4, 0, 0])))
        plant.AddJoint(RevoluteJoint("shoulder", shoulder, upper.body_frame(), [0, 1, 0]))
        plant.AddJoint(RevoluteJoint("elbow", elbow, fore.body_frame(), [0, 1, 0]))
        plant.RegisterCollisionGeometry(fore, RigidTransform([0.36, 0, 0]), Sphere(0.01), "tip", body_props)
    plant.mutable_gravity_field().set_gravity_vector([0, 0, 0])
    plant.Finalize()
    diagram = builder.Build()
    sim = Simulator(diagram)
    ctx = sim.get_mutable_context()
    pctx = plant.GetMyMutableContextFromRoot(ctx)
    if system == "offset-block":
        plant.SetFreeBodyPose(pctx, plant.GetBodyByName("block"), RigidTransform([0, 0, 0.06 - 1e-6]))
    elif system == "two-corner":
        plant.GetJointByName("z").set_translation(pctx, 0.11 - 1e-6)
    else:
        plant.GetJointByName("shoulder").set_angle(pctx, ARM_Q[0])
        plant.GetJointByName("elbow").set_angle(pctx, ARM_Q[1])
    port = plant.get_applied_spatial_force_input_port()

    def contacts():
        res = plant.get_contact_results_output_port().Eval(pctx)
        cs = [res.point_pair_contact_info(i) for i in range(res.num_point_pair_contacts())]
        return sorted(cs, key=lambda c: c.contact_point()[0])

    def push(extra=None):
        forces = []
        for k, c in enumerate(contacts()):
            pp = c.point_pair()
            # The body is whichever of A, B is not the world.
            bi = c.bodyB_index() if plant.get_body(c.bodyA_index()).name() == "world" else c.bodyA_index()
            body = plant.get_body(bi)
            X_WB = plant.EvalBodyPoseInWorld(pctx, body)
            p_BoBq_B = X_WB.inverse().multiply(c.contact_point())
            f = -(preload + (extra[k] if extra is not None else 0.0))
            F = ExternallyAppliedSpatialForce()
            F.body_index = bi
            F.p_BoBq_B = p_BoBq_B
            F.F_Bq_W = SpatialForce([0, 0, 0], [0, 0, f])
            forces.append(F)
        port.FixValue(pctx, forces)

    t = 0.0
    port.FixValue(pctx, [])
    t += h
    sim.AdvanceTo(t)
    assert len(contacts()) == modes, f"expected {modes} contacts, found {len(contacts())}"
    last = None
    for it in range(40000):
        push()
        t += h
        sim.AdvanceTo(t)
        d = np.array([c.point_pair().depth for c in contacts()])
        if last is not None and len(d) == modes and np.abs(d - last).max() < 1e-13 and it > 100:
            break
        last = d
    push(extra=[preload * 0.3, -preload * 0.15][:modes])
    t += h
    sim.AdvanceTo(t)
    sig = np.zeros((modes, steps))
    for k in range(steps):
        cs = contacts()
        assert len(cs) == modes, f"a contact opened at step {k}"
        sig[:, k] = [-c.point_pair().depth for c in cs]
        push()
        t += h
        sim.AdvanceTo(t)
    poles, res = pencil(sig, modes, h)
    return poles, res, float(np.abs(d).min())


def write_cases(block_inertia, corner_inertia, tip_world):
    """meff cases of the same systems (no [engine] table: the tests add one
    per setting)."""
    i = block_inertia
    cases = {
        "offset-block": f"""title = "Block on one off-centre foot"
description = "A 2 kg box on a single frictionless foot 0.15 m and 0.06 m off its centre of mass (tests/engines/offset-block.xml)."
space = "3d"

[[body]]
name = "block"
type = "rigid"
mass = "2 kg"
position = ["0 m", "0 m", "0.06 m"]
inertia = ["{i[0]!r} kg m^2", "{i[1]!r} kg m^2", "{i[2]!r} kg m^2"]

[[contact]]
name = "foot"
body = "block"
point = ["0.15 m", "0.06 m", "0 m"]
normal = [0, 0, 1]
stiffness = "2e4 N/m"
damping = "20 N s/m"
""",
        "two-corner": f"""title = "Block on two feet (planar)"
description = "A 3 kg block on two frictionless feet at −0.25 m and +0.15 m, in the x–z plane (tests/engines/two-corner.xml)."
space = "planar"

[[body]]
name = "block"
type = "rigid"
mass = "3 kg"
position = ["0 m", "0.11 m"]
inertia = "{corner_inertia!r} kg m^2"

[[contact]]
name = "left"
body = "block"
point = ["-0.25 m", "0 m"]
normal = [0, 1]
stiffness = "2e4 N/m"
damping = "20 N s/m"

[[contact]]
name = "right"
body = "block"
point = ["0.15 m", "0 m"]
normal = [0, 1]
stiffness = "2e4 N/m"
damping = "20 N s/m"
""",
        "arm": f"""title = "Two-link arm pressing its tip on the floor"
description = "A planar two-link arm (tests/engines/arm.xml) at shoulder 0.3 rad, elbow 0.9 rad, its tip on a frictionless floor: far from the reference pose at which MuJoCo takes its mass estimate."
space = "3d"

[model]
mjcf = "arm.xml"
configuration = {{ shoulder = "{ARM_Q[0]} rad", elbow = "{ARM_Q[1]} rad" }}

[[contact]]
name = "tip"
body = "fore"
frame = "world"
point = ["{tip_world[0]!r} m", "{tip_world[1]!r} m", "{tip_world[2]!r} m"]
normal = [0, 0, 1]
stiffness = "2e4 N/m"
damping = "20 N s/m"
""",
    }
    for name, text in cases.items():
        with open(os.path.join(HERE, f"{name}.toml"), "w") as f:
            f.write(text)


def main():
    import mujoco

    out = {"generator": "tests/engines/measure.py", "mujoco": mujoco.__version__, "systems": {}}
    default_imp = (0.9, 0.95, 0.001, 0.5, 2)
    settings = [
        ("soft", (0.05, 0.1), default_imp, 0.002),
        ("stiff", (0.01, 0.2), default_imp, 0.002),
        ("direct", (-4000.0, -20.0), (0.95, 0.95, 0.001, 0.5, 2), 0.001),
    ]
    runs = []
    for name, ref, imp, h in settings:
        runs.append(("offset-block", name, block_xml(ref, imp, h, False), dict(preload=20.0, impulse=[-0.002], steps=600, modes=1)))
        runs.append(("two-corner", name, corners_xml(ref, imp, h), dict(preload=0.0, impulse=[-0.003, 0.001], steps=600, modes=2, gravity=True)))
        runs.append(("arm", name, arm_xml(ref, imp, h, arm_base_z()), dict(preload=10.0, impulse=[-0.001], steps=600, modes=1, pose=ARM_Q)))
    for system, setting, xml, kw in runs:
        poles, res, facts = mujoco_ring(xml, **kw)
        out["systems"].setdefault(system, {})[setting] = {"poles": poles, "residual": res, "mujoco": facts}
        print(system, setting, poles, f"residual {res:.1e}")
        if setting == "soft":
            with open(os.path.join(HERE, f"{system}.xml"), "w") as f:
                f.write(xml)
    # The meff cases, with MuJoCo's own inertias and tip position.
    mb = mujoco.MjModel.from_xml_string(block_xml((0.02, 1), default_imp, 0.002, False))
    mc = mujoco.MjModel.from_xml_string(corners_xml((0.02, 1), default_imp, 0.002))
    ma = mujoco.MjModel.from_xml_string(arm_xml((0.02, 1), default_imp, 0.002, arm_base_z()))
    da = mujoco.MjData(ma)
    da.qpos[:] = ARM_Q
    mujoco.mj_kinematics(ma, da)
    tip = da.geom_xpos[ma.geom("tip").id] - np.array([0, 0, 0.01])
    write_cases(mb.body_inertia[1].tolist(), float(mc.body_inertia[1][1]), tip.tolist())
    # PyBullet: the same three systems, inertias from MuJoCo's compiler.
    import pybullet

    arm_bodies = []
    for b in (1, 2):
        R = np.zeros(9)
        mujoco.mju_quat2Mat(R, ma.body_iquat[b])
        R = R.reshape(3, 3)
        arm_bodies.append((float(ma.body_mass[b]), ma.body_ipos[b].tolist(), (R @ np.diag(ma.body_inertia[b]) @ R.T).tolist()))
    urdfs = bullet_urdfs(mb.body_inertia[1].tolist(), float(mc.body_inertia[1][1]), arm_bodies, arm_base_z())
    bullet_settings = [
        ("soft", {"k": 2e4, "c": 5.0}, 0.001),
        ("stiff", {"k": 1e5, "c": 20.0}, 0.001),
        ("erp-cfm", {"erp": 0.2, "cfm": 0.2 / (0.002 * 3e4)}, 0.002),
    ]
    out["pybullet"] = {"version": "3.2.7 (wheel)", "settings": {}, "systems": {}}
    for name, setting, h in bullet_settings:
        out["pybullet"]["settings"][name] = dict(setting, timestep=h)
        for system, kw in (
            ("offset-block", dict(base=(0, 0, 0.06 - 1e-6), fixed=False, modes=1)),
            ("two-corner", dict(joints={1: 0.11 - 1e-6}, modes=2)),
            ("arm", dict(base=(0, 0, arm_base_z()), joints={0: ARM_Q[0], 1: ARM_Q[1]}, modes=1)),
        ):
            poles, res, r_eq = bullet_ring(urdfs[system], setting, h, **kw)
            out["pybullet"]["systems"].setdefault(system, {})[name] = {"poles": poles, "residual": res}
            print("pybullet", system, name, poles, f"residual {res:.1e}, static penetration {r_eq:.2e}")
    import pydrake

    drake_settings = [
        ("sap", {"approximation": "sap", "k": 2e4, "tau": 1e-3}, 0.001),
        ("sap-stiff", {"approximation": "sap", "k": 1e5, "tau": 2e-4}, 0.001),
        ("lagged", {"approximation": "lagged", "k": 2e4, "d": 2.0}, 0.001),
    ]
    out["drake"] = {"version": "1.51.1 (wheel)", "preload": 10.0, "settings": {}, "systems": {}}
    for name, setting, h in drake_settings:
        out["drake"]["settings"][name] = dict(setting, timestep=h)
        for system, modes in (("offset-block", 1), ("two-corner", 2), ("arm", 1)):
            poles, res, r_eq = drake_ring(system, setting, h, modes, mb.body_inertia[1].tolist(),
                                          float(mc.body_inertia[1][1]), arm_bodies, arm_base_z())
            out["drake"]["systems"].setdefault(system, {})[name] = {"poles": poles, "residual": res}
            print("drake", system, name, poles, f"residual {res:.1e}, static penetration {r_eq:.2e}")
    out["settings"] = {name: {"timestep": h, "solref": list(ref), "solimp": list(imp)} for name, ref, imp, h in settings}
    with open(os.path.join(HERE, "measured.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
