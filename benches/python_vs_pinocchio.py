#!/usr/bin/env python3
"""m_eff at a UR5's tool from Python: meff's wheel beside Pinocchio, in one
run (issue 28's timing targets; results in benches/results/python.md).

    pip install ./python pin==4.1.0 numpy
    python3 benches/python_vs_pinocchio.py

The quantity: m_eff = 1/(j M(q)⁻¹ jᵀ), j the rate of a point 5 cm beyond
the tool flange along the flange's z axis (point and direction in the
flange's frame), at random configurations. Pinocchio (from Python, per
configuration): computeJointJacobians + updateFramePlacements + crba +
the point frame's Jacobian + a solve. meff: Robot.effective_mass, one
call per configuration, and one call for the whole batch (parallel, on
the machine's cores). Both read the same URDF; the numbers are compared
first.
"""
import os
import platform
import time

import numpy as np
import pinocchio as pin

import meff

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
URDF = os.path.join(ROOT, "tests", "robots", "urdf", "ur5_robot.urdf")
FRAME = "tool0"
POINT = np.array([0.0, 0.0, 0.05])
AXIS = np.array([0.0, 0.0, 1.0])


def best(f, reps=5):
    """Best of `reps` wall-clock times of f() (s)."""
    out = []
    for _ in range(reps):
        t = time.perf_counter()
        f()
        out.append(time.perf_counter() - t)
    return min(out)


def main():
    n_single, n_batch = 2000, 10_000
    rng = np.random.default_rng(1)
    model = pin.buildModelFromUrdf(URDF)
    fid = model.getFrameId(FRAME)
    frame = model.frames[fid]
    pid = model.addFrame(
        pin.Frame("probe", frame.parentJoint, fid, frame.placement * pin.SE3(np.eye(3), POINT), pin.FrameType.OP_FRAME)
    )
    data = model.createData()
    robot = meff.Robot.from_urdf(URDF)
    q_pin = rng.uniform(-np.pi, np.pi, size=(n_batch, model.nq))
    names = [model.names[j] for j in range(1, model.njoints)]
    adr = [model.joints[j].idx_q for j in range(1, model.njoints)]
    q_meff = np.array([robot.configuration(dict(zip(names, q[adr]))) for q in q_pin])

    def pin_one(q):
        pin.computeJointJacobians(model, data, q)
        pin.updateFramePlacements(model, data)
        m = pin.crba(model, data, q)
        m = np.triu(m) + np.triu(m, 1).T
        j = pin.getFrameJacobian(model, data, pid, pin.LOCAL_WORLD_ALIGNED)[:3]
        row = (data.oMf[pid].rotation @ AXIS) @ j
        return 1.0 / (row @ np.linalg.solve(m, row))

    def meff_one(q):
        return robot.effective_mass(q, FRAME, POINT, AXIS, frame="body")

    # The same numbers first.
    worst = max(abs(pin_one(a) - meff_one(b)) / pin_one(a) for a, b in zip(q_pin[:500], q_meff[:500]))
    batch = robot.effective_mass(q_meff, FRAME, POINT, AXIS, frame="body")
    loop = np.array([meff_one(q) for q in q_meff])
    assert np.array_equal(batch, loop)

    # Interleaved, best of 9: the two see the same machine.
    t_pin, t_one = [], []
    for _ in range(9):
        t_pin.append(best(lambda: [pin_one(q) for q in q_pin[:n_single]], reps=1) / n_single)
        t_one.append(best(lambda: [meff_one(q) for q in q_meff[:n_single]], reps=1) / n_single)
    t_pin, t_one = min(t_pin), min(t_one)
    t_pin_loop = best(lambda: [pin_one(q) for q in q_pin], reps=3)
    # The loop and the batch interleaved in rounds (on a shared machine the
    # batch, which needs both cores, is the one a busy neighbour slows):
    # best times over the rounds, and each round's own ratio.
    rounds = []
    for _ in range(7):
        loop_t = best(lambda: [meff_one(q) for q in q_meff], reps=1)
        batch_t = best(lambda: robot.effective_mass(q_meff, FRAME, POINT, AXIS, frame="body"), reps=5)
        rounds.append((loop_t, batch_t))
    t_loop = min(r[0] for r in rounds)
    t_batch = min(r[1] for r in rounds)
    ratios = sorted(r[0] / r[1] for r in rounds)
    lines = [
        f"machine: {platform.machine()}, {os.cpu_count()} cores; Python {platform.python_version()}; "
        f"Pinocchio {pin.__version__}; meff {meff.__version__}; NumPy {np.__version__}",
        f"agreement over 500 configurations: largest relative difference {worst:.1e}",
        "",
        "| what | time | ratio |",
        "|---|---:|---:|",
        f"| Pinocchio from Python, per configuration | {t_pin * 1e6:.1f} µs | 1 |",
        f"| meff `effective_mass`, one call per configuration | {t_one * 1e6:.2f} µs | {t_one / t_pin:.3f} × Pinocchio |",
        f"| meff, Python loop over {n_batch:,} single calls | {t_loop * 1e3:.1f} ms | |",
        f"| meff, one call for the {n_batch:,} configurations | {t_batch * 1e3:.2f} ms | {t_loop / t_batch:.1f} × faster than meff's loop, {t_pin_loop / t_batch:.0f} × faster than Pinocchio's |",
        f"| Pinocchio, Python loop over {n_batch:,} configurations | {t_pin_loop * 1e3:.1f} ms | |",
        "",
        f"meff's loop ÷ meff's batch in each of {len(ratios)} interleaved rounds: "
        + ", ".join(f"{r:.1f}" for r in ratios)
        + f" (median {ratios[len(ratios) // 2]:.1f})",
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
