"""meff's Python package: round trips against the command line's JSON,
robots against the MuJoCo and Pinocchio numbers already committed for the
Rust tests (tests/robots/reference.json), errors, and the GIL."""

import json
import os
import subprocess
import threading
import time

import numpy as np
import pytest

import meff

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES = os.path.join(ROOT, "cases")
REFERENCE = os.path.join(ROOT, "tests", "robots", "reference.json")
MEFF = os.environ.get("MEFF_BIN", os.path.join(ROOT, "target", "debug", "meff"))


def test_the_readme_example():
    assert meff.load(os.path.join(CASES, "offcentre.toml")).evaluate().m_eff.tolist() == [1.0]


@pytest.mark.parametrize("name", ["offcentre.toml", "two-corners.toml", "tote-drop.toml", "ur5-tool.toml"])
def test_json_equals_the_command_line(name):
    path = os.path.join(CASES, name)
    if not os.path.exists(MEFF):
        # CI names the binary (MEFF_BIN); a missing one there is a failure.
        assert "MEFF_BIN" not in os.environ, f"MEFF_BIN={MEFF} does not exist"
        pytest.skip("the meff binary is not built (cargo build)")
    cli = subprocess.run(
        [MEFF, "eval", "--json", "--no-verify", path], capture_output=True, check=False, cwd=ROOT
    )
    assert cli.returncode in (0, 1), cli.stderr
    result = meff.load(path).evaluate()
    assert result.json == json.loads(cli.stdout)
    # The arrays are the JSON's numbers.
    doc = result.json
    np.testing.assert_array_equal(
        result.m_eff, [np.nan if c["m_eff"] is None else c["m_eff"] for c in doc["contacts"]]
    )
    np.testing.assert_array_equal(result.mode_omega, [m["omega"] for m in doc["modes"]])
    assert result.mode_shapes.shape == (len(doc["modes"]), len(doc["contacts"]))


def test_delassus_and_modes_are_consistent():
    r = meff.load(os.path.join(CASES, "two-corners.toml")).evaluate()
    a = r.delassus
    assert a.shape == (2, 2)
    np.testing.assert_allclose(a, a.T)
    np.testing.assert_allclose(1.0 / np.diag(a), r.m_eff)
    k = np.array([c["stiffness"] for c in r.json["contacts"]])
    w2 = np.linalg.eigvalsh(np.sqrt(k)[:, None] * a * np.sqrt(k)[None, :])
    np.testing.assert_allclose(np.sort(np.sqrt(w2))[::-1], r.mode_omega, rtol=1e-12)


def test_text_cases_and_reports():
    text = open(os.path.join(CASES, "offcentre.toml")).read()
    r = meff.load(text).evaluate()
    assert r.m_eff.tolist() == [1.0]
    html = r.report("html")
    assert html == r._repr_html_()
    assert "<script" not in html.lower()
    assert "m_eff" in r.report("md") or "m_{" in r.report("md")
    assert json.loads(r.report("json")) == r.json


def test_bad_input_is_an_input_error_with_its_place():
    with pytest.raises(meff.InputError) as e:
        meff.load('title = "x"\n[[body]]\nname = "b"\ntype = "rigid"\nmass = "2 m"\n')
    err = e.value
    assert err.file == "<text>"
    assert err.line == 5 and err.column >= 1
    assert "mass" in err.message
    with pytest.raises(meff.MeffError):
        meff.Robot.from_mjcf(os.path.join(CASES, "no-such-model.xml"))
    with pytest.raises(ValueError):
        meff.load(os.path.join(CASES, "offcentre.toml")).evaluate().report("docx")


def reference_models():
    models = json.load(open(REFERENCE))["models"]
    return models


@pytest.mark.parametrize("model", reference_models(), ids=lambda m: m["file"])
def test_robots_equal_the_engines(model):
    path = os.path.join(ROOT, "tests", "robots", model["file"])
    robot = meff.Robot.from_urdf(path) if path.endswith(".urdf") else meff.Robot.from_mjcf(path)
    mjcf = "qpos" in model["configurations"][0]
    # Pinocchio counts a continuous joint's (cos, sin) as two coordinates.
    assert robot.nv == model["nv"] and (robot.nq == model["nq"] or not mjcf)
    n = robot.nv
    for c in model["configurations"]:
        q = np.array(c["qpos"]) if mjcf else robot.configuration(c["joints"])
        if mjcf:
            # Same velocity order as MuJoCo (URDF models are compared by
            # m_eff, which does not depend on the order).
            m = robot.mass_matrix(q)
            scale = np.abs(c["mass_matrix"]).max()
            np.testing.assert_allclose(m, np.array(c["mass_matrix"]).reshape(n, n), rtol=0, atol=1e-10 * scale)
        for k in c["contacts"]:
            body = k["body"] if k["body"] is not None else robot.bodies[k["body_index"]]
            # The fixtures give the point in the body's frame, the normal
            # in the world's.
            _, rot = robot.body_pose(q, body)
            normal = rot.T @ np.array(k["normal"])
            got = robot.effective_mass(q, body, k["point"], normal, frame="body", constrained=False)
            assert got == pytest.approx(k["m_eff"], rel=1e-9)
            if "m_eff_constrained" in k:
                got = robot.effective_mass(q, body, k["point"], normal, frame="body")
                assert got == pytest.approx(k["m_eff_constrained"], rel=1e-9)


def test_effective_mass_is_vectorised_over_configurations_and_normals():
    model = [m for m in reference_models() if m["file"].endswith("ur5_robot.urdf")][0]
    robot = meff.Robot.from_urdf(os.path.join(ROOT, "tests", "robots", model["file"]))
    rng = np.random.default_rng(7)
    qs = rng.uniform(-np.pi, np.pi, size=(50, robot.nq))
    normals = np.array([[0, 0, 1.0], [1.0, 0, 0], [0, 1.0, 1.0]])
    point = np.array([0.0, 0.0, 0.05])
    batch = robot.effective_mass(qs, "tool0", point, normals, frame="body")
    assert batch.shape == (50, 3)
    for i in (0, 17, 49):
        for j in range(3):
            one = robot.effective_mass(qs[i], "tool0", point, normals[j], frame="body")
            assert batch[i, j] == one
    assert robot.effective_mass(qs, "tool0", point, normals[0], frame="body").shape == (50,)
    assert robot.effective_mass(qs[0], "tool0", point, normals, frame="body").shape == (3,)
    # Armature only adds inertia: the mass seen can only grow.
    without = robot.effective_mass(qs, "tool0", point, normals, frame="body", armature=False)
    assert np.all(batch >= without * (1 - 1e-12))
    with pytest.raises(ValueError):
        robot.effective_mass(qs, "no_such_link", point, normals[0])
    with pytest.raises(ValueError):
        robot.effective_mass(qs[:, :3], "tool0", point, normals[0])


def test_long_work_releases_the_gil():
    model = [m for m in reference_models() if m["file"].endswith("talos_reduced.urdf")][0]
    robot = meff.Robot.from_urdf(os.path.join(ROOT, "tests", "robots", model["file"]))
    qs = np.tile(robot.configuration(model["configurations"][0]["joints"]), (20000, 1))
    body = robot.bodies[-1]
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    robot.effective_mass(qs, body, [0.0, 0.0, 0.0], [0.0, 0.0, 1.0])
    stop.set()
    t.join()
    # Another Python thread ran while meff worked.
    assert len(ticks) > 3


def random_qpos(mujoco, model, rng):
    """A random configuration: hinges and slides moved, quaternions normalised."""
    q = model.qpos0.copy()
    for j in range(model.njnt):
        a = model.jnt_qposadr[j]
        t = model.jnt_type[j]
        if t == mujoco.mjtJoint.mjJNT_FREE:
            q[a:a + 3] += rng.normal(size=3)
            v = rng.normal(size=4)
            q[a + 3:a + 7] = v / np.linalg.norm(v)
        elif t == mujoco.mjtJoint.mjJNT_BALL:
            v = rng.normal(size=4)
            q[a:a + 4] = v / np.linalg.norm(v)
        else:
            q[a] += rng.uniform(-1.5, 1.5)
    return q


@pytest.mark.parametrize("name", ["reacher.xml", "pusher.xml", "humanoid.xml", "ant.xml"])
def test_a_mujoco_model_in_memory_equals_mujoco(name):
    mujoco = pytest.importorskip("mujoco")
    model = mujoco.MjModel.from_xml_path(os.path.join(ROOT, "tests", "robots", "mjcf", name))
    data = mujoco.MjData(model)
    robot = meff.Robot.from_mujoco(model)
    assert (robot.nq, robot.nv) == (model.nq, model.nv)
    rng = np.random.default_rng(3)
    for _ in range(5):
        q = random_qpos(mujoco, model, rng)
        data.qpos[:] = q
        mujoco.mj_forward(model, data)
        full = np.zeros((model.nv, model.nv))
        mujoco.mj_fullM(model, data, full)
        np.testing.assert_allclose(robot.mass_matrix(q), full, rtol=0, atol=1e-10 * np.abs(full).max())
        for b in range(1, model.nbody):
            point = data.xpos[b] + rng.normal(scale=0.1, size=3)
            normal = rng.normal(size=3)
            normal /= np.linalg.norm(normal)
            jacp = np.zeros((3, model.nv))
            mujoco.mj_jac(model, data, jacp, None, point, b)
            row = normal @ jacp
            if not np.any(row):
                continue
            want = 1.0 / (row @ np.linalg.solve(full, row))
            got = robot.effective_mass(q, robot.bodies[b - 1], point, normal)
            assert got == pytest.approx(want, rel=1e-10)


def stack(n):
    """n spheres (0.1 m radius, 1–2 kg) stacked on the floor, a little off
    axis so that rotation couples: arrays, and the same scene as TOML."""
    rng = np.random.default_rng(5)
    mass = rng.uniform(1.0, 2.0, n)
    r = 0.1
    pos = np.array([[0.01 * i, 0.0, r + 2 * r * i] for i in range(n)])
    inertia = np.array([[0.4 * m * r * r] * 3 for m in mass])
    body = np.arange(n)
    other = np.arange(-1, n - 1)
    point = np.array([[0.01 * i + 0.005 * (i > 0), 0.0, 2 * r * i] for i in range(n)])
    normal = np.tile([0.0, 0.0, 1.0], (n, 1))
    k = rng.uniform(1e5, 3e5, n)
    toml = ['title = "stack"', 'space = "3d"']
    for i in range(n):
        toml += ["[[body]]", f'name = "b{i}"', 'type = "rigid"', f'mass = "{float(mass[i])!r} kg"',
                 f'inertia = ["{float(inertia[i][0])!r} kg m^2", "{float(inertia[i][1])!r} kg m^2", "{float(inertia[i][2])!r} kg m^2"]',
                 "position = [" + ", ".join(f'"{float(x)!r} m"' for x in pos[i]) + "]"]
    for i in range(n):
        toml += ["[[contact]]", f'name = "c{i}"', f'body = "b{i}"'] + ([f'other = "b{i - 1}"'] if i else []) + [
            "point = [" + ", ".join(f'"{float(x)!r} m"' for x in point[i]) + "]", "normal = [0, 0, 1]", f'stiffness = "{float(k[i])!r} N/m"']
    return dict(mass=mass, position=pos, inertia=inertia, body=body, other=other, point=point,
                normal=normal, stiffness=k), "\n".join(toml) + "\n"


def test_a_scene_from_arrays_equals_the_same_case_read_from_toml():
    arrays, toml = stack(12)
    scene = meff.Scene(**arrays)
    got = scene.analyze(top=6, shapes=True)
    want = meff.load(toml).evaluate()
    np.testing.assert_allclose(got["m_eff"], want.m_eff, rtol=1e-12)
    np.testing.assert_allclose(got["mode_omega"], want.mode_omega[:6], rtol=1e-10)
    assert got["mode_shapes"].shape == (6, 12)
    assert got["omega_max"] == pytest.approx(want.json["coupled_omega_max"], rel=1e-12)
    assert got["stable_dt"] == pytest.approx(want.json["stable_dt"]["coupled"], rel=1e-12)
    # Inertia as 3×3 tensors gives the same scene.
    tensors = np.array([np.diag(i) for i in arrays["inertia"]])
    again = meff.Scene(**{**arrays, "inertia": tensors}).analyze(top=6)
    np.testing.assert_array_equal(again["mode_omega"], got["mode_omega"])


def test_a_large_scene_takes_the_large_path():
    arrays, _ = stack(1500)
    got = meff.Scene(**arrays).analyze(top=3)
    assert got["large_path"] and len(got["mode_omega"]) == 3
    assert np.all(np.diff(got["mode_omega"]) <= 0)
    assert got["omega_max"] <= got["omega_upper_bound"]


def test_bad_scene_arrays_are_errors_that_say_where():
    arrays, _ = stack(4)
    bad = {**arrays, "normal": arrays["normal"] * 2}
    with pytest.raises(meff.InputError) as e:
        meff.Scene(**bad)
    assert "contacts row 0" in str(e.value) and "normal" in str(e.value)
    with pytest.raises(ValueError):
        meff.Scene(**{**arrays, "other": np.array([-1, 0, 1, 7])})
    with pytest.raises(ValueError):
        meff.Scene(**{**arrays, "point": arrays["point"][:, :2]})


def two_sphere_dump(m1, m2, z2):
    return (
        "ITEM: TIMESTEP\n5\nITEM: NUMBER OF ATOMS\n2\nITEM: BOX BOUNDS pp pp ff\n0 1\n0 1\n0 1\n"
        "ITEM: ATOMS id type x y z radius mass\n"
        f"1 1 0.5 0.5 0.5 0.01 {m1}\n2 1 0.5 0.5 {z2} 0.01 {m2}\n"
    )


def test_a_scene_from_a_lammps_dump(tmp_path):
    # Two spheres overlapping by 1 µm: the reduced mass, ω = sqrt(k/m).
    path = tmp_path / "pair.dump"
    path.write_text(two_sphere_dump(0.3, 0.7, 0.519999))
    scene = meff.Scene.from_dump(path, stiffness=2e5, damping=0.1)
    got = scene.analyze(top=1)
    me = 0.3 * 0.7 / (0.3 + 0.7)
    assert got["m_eff"] == pytest.approx([me], rel=1e-12)
    assert got["omega"] == pytest.approx([np.sqrt(2e5 / me)], rel=1e-12)
    assert "2 bodies, 1 contacts" in repr(scene)
    # Centres 9 mm apart with 10 mm radii: more overlap than a radius.
    path.write_text(two_sphere_dump(0.3, 0.7, 0.509))
    with pytest.raises(meff.InputError) as e:
        meff.Scene.from_dump(path, stiffness=2e5)
    assert "atoms 1 and 2 overlap" in str(e.value) and "pair.dump:11:" in str(e.value)
    with pytest.raises(meff.InputError):
        meff.Scene.from_dump(path, stiffness=2e5, walls=["xlo"])


def test_a_scene_takes_tangential_columns(tmp_path):
    # One solid sphere on the floor: its tangent rows see 2/7 m, on both
    # paths; a ratio out of (0, 10] names the column.
    m, r = 0.4, 0.02
    arrays = dict(mass=np.array([m]), position=np.array([[0.0, 0.0, r]]),
                  inertia=np.array([[0.4 * m * r * r] * 3]), body=np.array([0]), other=np.array([-1]),
                  point=np.array([[0.0, 0.0, 0.0]]), normal=np.array([[0.0, 0.0, 1.0]]), stiffness=np.array([1e5]))
    got = meff.Scene(**arrays, tangential_ratio=0.8).analyze(top=3)
    assert list(got["row_contact"]) == [0, 0, 0]
    np.testing.assert_allclose(got["row_m_eff"], [m, 2 / 7 * m, 2 / 7 * m], rtol=1e-12)
    assert got["row_mode_omega"][0] == pytest.approx(np.sqrt(0.8e5 * 3.5 / m), rel=1e-10)
    assert got["stable_dt_tangential"] == pytest.approx(2 / np.sqrt(0.8e5 * 3.5 / m), rel=1e-10)
    same = meff.Scene(**arrays, tangential_stiffness=np.array([0.8e5])).analyze(top=3)
    np.testing.assert_allclose(same["row_m_eff"], got["row_m_eff"], rtol=1e-15)
    with pytest.raises(meff.InputError) as e:
        meff.Scene(**arrays, tangential_ratio=12.0)
    assert "tangential_ratio" in str(e.value) and "(0, 10]" in str(e.value)
    with pytest.raises(ValueError):
        meff.Scene(**arrays, tangential_ratio=0.5, tangential_stiffness=1e4)
    path = tmp_path / "one.dump"
    path.write_text("ITEM: TIMESTEP\n5\nITEM: NUMBER OF ATOMS\n1\nITEM: BOX BOUNDS ff ff ff\n0 1\n0 1\n0 1\n"
                    f"ITEM: ATOMS id type x y z radius mass\n1 1 0.5 0.5 {r - 1e-7} {r} {m}\n")
    d = meff.Scene.from_dump(path, stiffness=1e5, walls=["zlo"], tangential_ratio=0.8).analyze(top=3)
    # The floor contact sits mid-overlap: the lever arm is r less half the
    # 0.1 µm overlap, so the tangent mass is m/(1 + m ℓ²/I), near 2/7 m.
    lever, inertia = r - 0.5e-7, 0.4 * m * r * r
    m_t = m / (1 + m * lever**2 / inertia)
    np.testing.assert_allclose(d["row_m_eff"], [m, m_t, m_t], rtol=1e-12)
    np.testing.assert_allclose(m_t, 2 / 7 * m, rtol=1e-5)


def test_ctrl_c_stops_a_long_batch():
    import signal

    model = [m for m in reference_models() if m["file"].endswith("talos_reduced.urdf")][0]
    robot = meff.Robot.from_urdf(os.path.join(ROOT, "tests", "robots", model["file"]))
    qs = np.tile(robot.configuration(model["configurations"][0]["joints"]), (400_000, 1))
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        robot.effective_mass(qs, robot.bodies[-1], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0])
    timer.join()


def test_the_ellipsoid_gives_every_direction_s_effective_mass():
    robot = meff.Robot.from_urdf(os.path.join(ROOT, "tests", "robots", "urdf", "panda.urdf"))
    rng = np.random.default_rng(11)
    q = robot.configuration({"panda_joint2": 0.4, "panda_joint4": -1.9, "panda_joint6": 1.5})
    e = robot.ellipsoid(q, "panda_link7", [0.0, 0.0, 0.1], frame="body")
    inv = e["inverse"]
    np.testing.assert_allclose(inv, inv.T, atol=1e-14)
    np.testing.assert_allclose(np.sort(1.0 / np.linalg.eigvalsh(inv))[::-1], e["masses"], rtol=1e-10)
    origin, rot = robot.body_pose(q, "panda_link7")
    point = origin + rot @ np.array([0.0, 0.0, 0.1])
    for u in rng.normal(size=(10, 3)):
        u /= np.linalg.norm(u)
        assert 1.0 / (u @ inv @ u) == pytest.approx(robot.effective_mass(q, "panda_link7", point, u), rel=1e-10)
    # Along a principal axis the mass is that axis' principal mass.
    for k in range(3):
        assert robot.effective_mass(q, "panda_link7", point, e["axes"][:, k]) == pytest.approx(e["masses"][k], rel=1e-9)


def test_hostile_arrays_are_errors_not_panics_or_wrong_numbers(tmp_path):
    """Found by attacking the API: each of these once panicked or returned
    `inf` (the value that means immobile) for what is an error."""
    ur5 = meff.Robot.from_urdf(os.path.join(ROOT, "tests", "robots", "urdf", "ur5_robot.urdf"))
    q = np.zeros(6)
    with pytest.raises(ValueError, match="at least one direction"):
        ur5.effective_mass(np.zeros((2, 6)), "tool0", [0, 0, 0], np.zeros((0, 3)))
    for bad in ([np.nan] * 6, [np.inf] + [0.0] * 5):
        with pytest.raises(ValueError, match="finite"):
            ur5.effective_mass(bad, "tool0", [0, 0, 0], [0, 0, 1])
    with pytest.raises(ValueError, match="finite"):
        ur5.ellipsoid(q, "tool0", [np.nan, 0, 0])
    with pytest.raises(ValueError, match="zero length"):
        ur5.effective_mass(q, "tool0", [0, 0, 0], [0, 0, 0])
    big = ur5.effective_mass(q, "tool0", [0, 0, 0], [1e300, 1e300, 0])
    assert big == pytest.approx(ur5.effective_mass(q, "tool0", [0, 0, 0], [1, 1, 0]), rel=1e-14)
    assert ur5.effective_mass(np.zeros((0, 6)), "tool0", [0, 0, 0], np.eye(3)).shape == (0, 3)
    # A joint that moves no mass: M(q) is singular; an error, not inf.
    urdf = tmp_path / "massless.urdf"
    urdf.write_text(
        '<robot name="r"><link name="base"/><link name="tip"><inertial><mass value="0"/>'
        '<inertia ixx="0" iyy="0" izz="0" ixy="0" ixz="0" iyz="0"/></inertial></link>'
        '<joint name="j" type="revolute"><parent link="base"/><child link="tip"/><axis xyz="0 0 1"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>'
    )
    r = meff.Robot.from_urdf(str(urdf))
    with pytest.raises(meff.MeffError, match="not positive definite"):
        r.effective_mass([0.0], "tip", [0.1, 0, 0], [0, 1, 0])
    # A model without joints has an empty mass matrix.
    mjcf = tmp_path / "still.xml"
    mjcf.write_text('<mujoco><worldbody><body><geom size=".1" mass="1"/></body></worldbody></mujoco>')
    assert meff.Robot.from_mjcf(str(mjcf)).mass_matrix([]).shape == (0, 0)
    with pytest.raises(ValueError, match="from_mjcf"):
        meff.Robot.from_urdf(str(mjcf))
    # Scenes: only `other` may be the world.
    arrays, _ = stack(3)
    with pytest.raises(ValueError, match="body"):
        meff.Scene(**{**arrays, "body": np.array([-1, 1, 2])})
    with pytest.raises(ValueError, match="symmetric"):
        t = np.array([np.diag(i) for i in arrays["inertia"]])
        t[0, 0, 1] = 1e-3
        meff.Scene(**{**arrays, "inertia": t})
    with pytest.raises(ValueError, match="one-dimensional"):
        meff.Scene(**{**arrays, "mass": arrays["mass"][:, None]})
    assert "b" in repr(meff.Scene(**arrays, title='a"\x7fb'))


def test_load_tells_a_missing_file_from_text(tmp_path):
    import pathlib

    with pytest.raises(meff.MeffError, match="no such file"):
        meff.load("cases/no-such-case.toml")
    with pytest.raises(meff.MeffError, match="not a regular file"):
        meff.load(str(tmp_path))
    r = meff.load(pathlib.Path(CASES) / "offcentre.toml").evaluate()
    assert r.m_eff.tolist() == [1.0]


def test_from_mujoco_checks_what_it_reads():
    mujoco = pytest.importorskip("mujoco")
    with pytest.raises(TypeError):
        meff.Robot.from_mujoco(object())
    model = mujoco.MjModel.from_xml_path(os.path.join(ROOT, "tests", "robots", "mjcf", "humanoid.xml"))
    model.jnt_qposadr[3] = 10**6
    with pytest.raises(ValueError, match="jnt_qposadr"):
        meff.Robot.from_mujoco(model)


def test_a_zero_quaternion_is_the_identity_as_in_mujoco():
    mujoco = pytest.importorskip("mujoco")
    model = mujoco.MjModel.from_xml_path(os.path.join(ROOT, "tests", "robots", "mjcf", "humanoid.xml"))
    data = mujoco.MjData(model)
    robot = meff.Robot.from_mujoco(model)
    q = model.qpos0.copy()
    q[3:7] = 0.0
    data.qpos[:] = q
    mujoco.mj_forward(model, data)
    full = np.zeros((model.nv, model.nv))
    mujoco.mj_fullM(model, data, full)
    np.testing.assert_allclose(robot.mass_matrix(q), full, rtol=0, atol=1e-10 * np.abs(full).max())


@pytest.mark.parametrize("engine", ["mujoco", "box2d", "rapier"])
def test_an_engine_asked_for_equals_the_command_line(engine):
    path = os.path.join(CASES, "offcentre.toml")
    if not os.path.exists(MEFF):
        assert "MEFF_BIN" not in os.environ, f"MEFF_BIN={MEFF} does not exist"
        pytest.skip("the meff binary is not built (cargo build)")
    cli = subprocess.run(
        [MEFF, "eval", "--json", "--no-verify", "--engine", engine, path],
        capture_output=True, check=False, cwd=ROOT,
    )
    assert cli.returncode in (0, 1), cli.stderr
    engines = meff.load(path).evaluate(engine=engine).json["engines"]
    assert [e for e in engines if e["engine"] == engine] == [json.loads(cli.stdout)]
    with pytest.raises(ValueError, match="mujoco"):
        meff.load(path).evaluate(engine="physx")


def test_ctrl_c_stops_an_evaluation():
    """The verification's simulations stop stepping on Ctrl-C: the
    interrupted evaluation ends far sooner than a whole one (a relative
    comparison on the same machine, not a time limit)."""
    import signal

    case = meff.load(stack(40)[1])
    start = time.perf_counter()
    case.evaluate(verify=True)
    whole = time.perf_counter() - start
    timer = threading.Timer(0.1 * whole, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        case.evaluate(verify=True)
    interrupted = time.perf_counter() - start
    timer.join()
    assert interrupted < 0.5 * whole, (interrupted, whole)
    # The next evaluation runs whole again.
    assert case.evaluate().m_eff.shape == (40,)


def test_work_beyond_a_limit_is_a_budget_error(tmp_path):
    # More contacts than the dense analysis takes, forced onto it.
    arrays, toml = stack(2001)
    forced = toml.replace('space = "3d"', 'space = "3d"\n[analysis]\npath = "dense"', 1)
    with pytest.raises(meff.BudgetError) as e:
        meff.load(forced).evaluate()
    assert (e.value.requested, e.value.limit) == (2001, 2000)
    assert isinstance(e.value, meff.MeffError)
    # The dense A of a large system is not formed.
    arrays, _ = stack(4100)
    result = meff.Scene(**arrays).evaluate()
    assert result.m_eff.shape == (4100,)
    with pytest.raises(meff.BudgetError, match="large-system path") as e:
        result.delassus
    assert (e.value.requested, e.value.limit) == (4100, 4096)
    # A model with more velocities than meff evaluates.
    mujoco = pytest.importorskip("mujoco")
    bodies = "".join(f'<body pos="{i} 0 0"><freejoint/><geom size=".1"/></body>' for i in range(101))
    model = mujoco.MjModel.from_xml_string(f"<mujoco><worldbody>{bodies}</worldbody></mujoco>")
    with pytest.raises(meff.BudgetError) as e:
        meff.Robot.from_mujoco(model)
    assert (e.value.requested, e.value.limit) == (606, 600)


def test_found_by_the_second_attack(tmp_path):
    """Each of these once gave a wrong number or the wrong error."""
    ur5 = meff.Robot.from_urdf(os.path.join(ROOT, "tests", "robots", "urdf", "ur5_robot.urdf"))
    q = np.array([0.1, -1.2, 1.5, 0.3, 0.2, 0.1])
    rng = np.random.default_rng(3)
    qs = rng.uniform(-3, 3, (7, 6))
    ns = np.array([[1, 2, 3], [0, 1, 0], [0.5, 0, 1.0]])
    want = ur5.effective_mass(qs, "tool0", [0, 0, 0.05], ns, frame="body")
    # Fortran-ordered arrays are read in their logical order.
    got = ur5.effective_mass(np.asfortranarray(qs), "tool0", [0, 0, 0.05], np.asfortranarray(ns), frame="body")
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(ur5.effective_mass(qs.T.copy().T, "tool0", [0, 0, 0.05], ns, frame="body"), want)
    # A rate that cancels exactly is immobile, never 1/round-off.
    m = ur5.effective_mass(qs, "shoulder_link", [0.01, 0.02, 0.05], [1, 2, 3], frame="body")
    assert np.isinf(m).all(), m
    # A model without joints: nothing moves, for one configuration or many.
    still = tmp_path / "still.xml"
    still.write_text('<mujoco><worldbody><body name="b" pos="0 0 1"><geom size=".1" mass="1"/></body></worldbody></mujoco>')
    r = meff.Robot.from_mjcf(str(still))
    assert np.isinf(r.effective_mass([], "b", [0, 0, 0], [0, 0, 1]))
    assert np.isinf(r.effective_mass(np.zeros((3, 0)), "b", [0, 0, 0], [0, 0, 1])).all()
    # Values that are not finite, points beyond any model's size.
    with pytest.raises(ValueError, match="finite"):
        ur5.configuration({"elbow_joint": float("nan")})
    with pytest.raises(ValueError, match="at most"):
        ur5.effective_mass(q, "tool0", [1e200, 0, 0], [0, 0, 1])
    with pytest.raises(ValueError, match="at most"):
        ur5.ellipsoid(q, "tool0", [0, 0, 1e31])
    # An overflowing quaternion is normalised.
    mujoco = pytest.importorskip("mujoco")
    humanoid = meff.Robot.from_mjcf(os.path.join(ROOT, "tests", "robots", "mjcf", "humanoid.xml"))
    q0 = humanoid.qpos0.copy()
    q0[3:7] = [0.3, 0.1, -0.2, 0.9]
    big = q0.copy()
    big[3:7] *= 1e200
    np.testing.assert_allclose(humanoid.body_pose(big, "torso")[1], humanoid.body_pose(q0, "torso")[1], atol=1e-14)
    # Generated names avoid the model's own.
    xml = ('<mujoco><worldbody><body name="body2"><joint/><geom size=".1"/></body>'
           '<body><joint/><geom size=".1"/></body></worldbody></mujoco>')
    names = meff.Robot.from_mujoco(mujoco.MjModel.from_xml_string(xml)).bodies
    assert len(set(names)) == len(names) == 2, names
    path = tmp_path / "names.xml"
    path.write_text(xml)
    assert sorted(meff.Robot.from_mjcf(str(path)).bodies) == sorted(names)


def test_the_documentation_examples_run_as_written(monkeypatch):
    """The `>>>` examples of docs/python.md's "Cases", "Robots in memory"
    and "Scenes from arrays" sections, run by doctest from the repository's root: the page
    shows what the package prints."""
    import doctest
    import re

    monkeypatch.chdir(ROOT)
    text = open(os.path.join(ROOT, "docs", "python.md"), encoding="utf-8").read()
    sections = re.split(r"^## ", text, flags=re.M)
    wanted = [s for s in sections if s.startswith(("Cases", "Robots in memory", "Scenes from arrays"))]
    assert len(wanted) == 3
    parser, globs, ran = doctest.DocTestParser(), {}, 0
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for section in wanted:
        for block in re.findall(r"```python\n(.*?)```", section, flags=re.S):
            test = parser.get_doctest(block, globs, "docs/python.md", None, 0)
            runner.run(test, clear_globs=False)
            globs.update(test.globs)  # a DocTest runs on a copy
            ran += len(test.examples)
    assert ran >= 10
    assert runner.failures == 0, f"{runner.failures} documentation example(s) differ (output above)"


def test_errors_speak_python():
    """Python errors give Python's advice, and arrays have no made-up file frame."""
    # A case given as text cannot name files beside it: the advice is load's.
    text = open(os.path.join(ROOT, "cases", "ur5-tool.toml")).read()
    with pytest.raises(meff.InputError) as e:
        meff.load(text)
    assert "run meff" not in str(e.value) and "meff.load" in str(e.value)
    assert "--max-input-bytes" not in str(e.value)
    # A scene's column problem: no `<arrays>:1:1`, and no file, line or column.
    arrays, _ = stack(4)
    with pytest.raises(meff.InputError) as e:
        meff.Scene(**{**arrays, "normal": arrays["normal"] * 2})
    assert "<arrays>" not in str(e.value) and "normal" in str(e.value)
    assert e.value.file is None and e.value.line is None and e.value.column is None


# --- Collaborative robots: Robot.contact_speeds (issue 40) -----------------

COBOT = os.path.join(ROOT, "tests", "robots", "cobot.json")


def _ur5_with_payload(tmp_path, payload):
    """The UR5 with the fixture's payload welded to tool0 in the file."""
    text = open(os.path.join(CASES, "models", "ur5_robot.urdf")).read()
    p, i = payload["position"], payload["inertia"]
    link = (
        f'<link name="payload"><inertial><origin xyz="{p[0]} {p[1]} {p[2]}"/>'
        f'<mass value="{payload["mass"]}"/><inertia ixx="{i[0]}" ixy="0" ixz="0" '
        f'iyy="{i[1]}" iyz="0" izz="{i[2]}"/></inertial></link>'
        '<joint name="payload_weld" type="fixed"><parent link="tool0"/>'
        '<child link="payload"/><origin xyz="0 0 0"/></joint></robot>'
    )
    path = tmp_path / "ur5_payload.urdf"
    path.write_text(text.replace("</robot>", link))
    return meff.Robot.from_urdf(str(path))


def test_contact_speeds_equal_pinocchio(tmp_path):
    """Every sample of the Pinocchio fixture (tests/robots/cobot.py) in one
    vectorised call per hazard point: speed, exact and worst-direction
    mass, v_max, to 1e-9."""
    ref = json.load(open(COBOT))
    robot = _ur5_with_payload(tmp_path, ref["payload"])
    t = np.array(ref["time"])
    q6 = np.array(ref["q"])
    n = len(t)
    a, b = np.maximum(np.arange(n) - 1, 0), np.minimum(np.arange(n) + 1, n - 1)
    qd6 = (q6[b] - q6[a]) / (t[b] - t[a])[:, None]
    idx = [robot.joints.index(j) for j in ref["joints"]]
    q = np.zeros((n, robot.nq))
    qd = np.zeros((n, robot.nv))
    q[:, idx] = q6
    qd[:, idx] = qd6
    for h, hz in enumerate(ref["hazards"]):
        out = robot.contact_speeds(q, qd, hz["body"], hz["point"], ref["region"])
        assert out["speed"].shape == (n,) and out["velocity"].shape == (n, 3)
        np.testing.assert_allclose(out["speed"], ref["speed"][h], rtol=1e-9)
        np.testing.assert_allclose(out["mass_exact"], ref["mass_exact"][h], rtol=1e-9)
        worst = np.array([np.inf if m is None else m for m in ref["mass_worst"][h]])
        np.testing.assert_allclose(out["mass_worst_direction"], worst, rtol=1e-9)
        np.testing.assert_allclose(out["max_speed_exact"], ref["max_speed_exact"][h], rtol=1e-9)
        np.testing.assert_allclose(out["factor_exact"], out["max_speed_exact"] / out["speed"], rtol=1e-15)


def test_contact_speeds_rule_by_hand():
    """The rule M/2 + m_L with M summed from the URDF's moving links, and
    its v_max = min(F/sqrt(mu k), sqrt(2E/mu)) recomputed here."""
    robot = meff.Robot.from_urdf(os.path.join(CASES, "models", "ur5_robot.urdf"))
    import xml.etree.ElementTree as ET
    root = ET.parse(os.path.join(CASES, "models", "ur5_robot.urdf")).getroot()
    moving = sum(
        float(l.find("inertial/mass").get("value"))
        for l in root.findall("link")
        if l.find("inertial/mass") is not None and l.get("name") != "base_link"
    )
    region = {"mass": 40.0, "stiffness": 25e3, "force_limit": 280.0, "energy_limit": 1.6}
    q = robot.configuration({"shoulder_lift_joint": -1.2, "elbow_joint": 1.5})
    qd = np.zeros(robot.nv)
    qd[robot.joints.index("elbow_joint")] = 0.5
    out = robot.contact_speeds(q, qd, "tool0", [0, 0, 0.05], region, payload=2.0)
    m_r = moving / 2 + 2.0
    assert out["mass_rule"] == pytest.approx(m_r, rel=1e-12)
    mu = 1 / (1 / m_r + 1 / 40.0)
    v = min(280.0 / np.sqrt(mu * 25e3), np.sqrt(2 * 1.6 / mu))
    assert out["max_speed_rule"] == pytest.approx(v, rel=1e-12)
    # One configuration in, numbers out; the exact mass is the ellipsoid's
    # along the velocity.
    u = out["velocity"] / out["speed"]
    inv = robot.ellipsoid(q, "tool0", [0, 0, 0.05], frame="body")["inverse"]
    assert out["mass_exact"] == pytest.approx(1 / (u @ inv @ u), rel=1e-9)


def test_contact_speeds_pressure_and_rest():
    """A pressure limit with an area: v_max = p A / sqrt(mu k) when it is
    the smallest; a point at rest has no exact mass (nan) and factor inf."""
    robot = meff.Robot.from_urdf(os.path.join(CASES, "models", "ur5_robot.urdf"))
    q = np.tile(robot.qpos0, (3, 1))
    qd = np.zeros((3, robot.nv))
    qd[1, 0] = 1.0
    qd[2, 1] = 0.3
    region = {"mass": 0.6, "stiffness": 75e3, "force_limit": 280.0, "area": 1e-4, "pressure_limit": 1e6}
    out = robot.contact_speeds(q, qd, "tool0", [0, 0, 0.1], region)
    assert np.isnan(out["mass_exact"][0]) and out["factor_exact"][0] == np.inf
    m = out["mass_exact"][1:]
    mu = 1 / (1 / m + 1 / 0.6)
    expect = np.minimum(280.0 / np.sqrt(mu * 75e3), 1e6 * 1e-4 / np.sqrt(mu * 75e3))
    np.testing.assert_allclose(out["max_speed_exact"][1:], expect, rtol=1e-12)


@pytest.mark.parametrize(
    "region, words",
    [
        ({"mass": 0.6, "stiffness": 75e3}, "without a limit"),
        ({"mass": 0.6, "stiffness": 75e3, "pressure_limit": 1e6}, "needs the contact `area`"),
        ({"mass": -1, "stiffness": 75e3, "force_limit": 280}, "positive"),
        ({"mass": 0.6, "stiffness": 75e3, "force": 280}, "unknown key `force`"),
    ],
)
def test_contact_speeds_bad_regions(region, words):
    robot = meff.Robot.from_urdf(os.path.join(CASES, "models", "ur5_robot.urdf"))
    with pytest.raises(ValueError, match=words):
        robot.contact_speeds(robot.qpos0, np.zeros(robot.nv), "tool0", [0, 0, 0], region)


def test_contact_speeds_shapes_must_agree():
    robot = meff.Robot.from_urdf(os.path.join(CASES, "models", "ur5_robot.urdf"))
    region = {"mass": 0.6, "stiffness": 75e3, "force_limit": 280}
    with pytest.raises(ValueError, match="one velocity per configuration"):
        robot.contact_speeds(np.zeros((4, robot.nq)), np.zeros((3, robot.nv)), "tool0", [0, 0, 0], region)


SEED_TOLERANCE = """title = "Seed with r ± 10 %"
[parameters]
m = "2 kg"
I = "0.020 kg m^2"
r = "0.10 m ± 10 %"
k = "1e5 N/m"
[[body]]
name = "block"
type = "rigid"
mass = "m"
inertia = "I"
[[contact]]
name = "c"
body = "block"
point = ["r", "0 m"]
normal = [0, 1]
stiffness = "k"
"""


def test_tolerances_bound_m_eff_by_its_closed_form():
    r = meff.load(SEED_TOLERANCE).evaluate()
    m, i = 2.0, 0.020
    closed = lambda x: m * i / (i + m * x * x)
    t = r.tolerances["m_eff(c)"]
    assert t["lo"] == pytest.approx(closed(0.11), rel=1e-12)
    assert t["hi"] == pytest.approx(closed(0.09), rel=1e-12)
    assert t["driver"] == "r"
    # First order from the exact elasticity: dm_eff/dr = -10 kg/m here.
    assert t["first_order_lo"] == pytest.approx(0.9, rel=1e-12)
    assert t["first_order_hi"] == pytest.approx(1.1, rel=1e-12)
    np.testing.assert_allclose(r.m_eff_interval, [[closed(0.11), closed(0.09)]], rtol=1e-12)
    # The step to use is the smallest over the box: 2/omega at r = 0.11 m.
    omega_hi = (1e5 * (1 / m + 0.11**2 / i)) ** 0.5
    assert r.json["stable_dt"]["governing"] == pytest.approx(2 / omega_hi, rel=1e-12)


HERTZ_TOLERANCE = """title = "Hertz ball with E* ± 10 % and a stick spring"
space = "3d"
[parameters]
m = "0.0327 kg ± 10 %"
r = "0.01 m"
E = "115 GPa ± 10 %"
[[body]]
name = "ball"
type = "rigid"
mass = "m"
inertia = ["2/5*m*r^2", "2/5*m*r^2", "2/5*m*r^2"]
position = ["0 m", "0 m", "r"]
[[contact]]
name = "plate"
body = "ball"
point = ["0 m", "0 m", "0 m"]
normal = [0, 0, 1]
law = "hertz"
modulus = "E"
radius = "r"
overlap = "2 um"
tangential_ratio = 0.8
"""


def test_tolerances_reach_the_hertz_stiffness_and_every_row():
    r = meff.load(HERTZ_TOLERANCE).evaluate()
    # k = 2 E* sqrt(R* delta), k_t = 0.8 k; the tangent rows see 2/7 m.
    k = lambda e: 2 * e * (0.01 * 2e-6) ** 0.5
    step = lambda m, e: 2 / (3.5 * 0.8 * k(e) / m) ** 0.5
    t = r.tolerances["dt_to_use"]
    assert t["lo"] == pytest.approx(step(0.0327 * 0.9, 115e9 * 1.1), rel=1e-9)
    assert t["nominal"] == pytest.approx(step(0.0327, 115e9), rel=1e-9)
    assert r.json["stable_dt"]["governing"] == pytest.approx(t["lo"], rel=1e-12)
    w = r.tolerances["omega(plate)"]
    assert w["hi"] / w["nominal"] == pytest.approx((1.1 / 0.9) ** 0.5, rel=1e-9)
    assert r.json["hertz_states"]["governing"] == "static"


def test_a_case_without_tolerances_has_none():
    r = meff.load(os.path.join(CASES, "offcentre.toml")).evaluate()
    assert r.tolerances is None
    assert np.isnan(r.m_eff_interval).all()


def test_a_sweep_over_one_parameter_carries_the_band_of_the_others():
    text = SEED_TOLERANCE.replace('m = "2 kg"', 'm = "2 kg ± 10 %"') + (
        '[[sweep]]\nparameter = "r"\nfrom = "0.05 m"\nto = "0.15 m"\npoints = 3\nplot = ["m_eff(c)"]\n'
    )
    s = meff.load(text).evaluate().json["sweeps"][0]
    for x, lo, hi in zip(s["x"], s["series"][0]["band_lo"], s["series"][0]["band_hi"]):
        assert lo == pytest.approx(1.8 * 0.02 / (0.02 + 1.8 * x * x), rel=1e-12)
        assert hi == pytest.approx(2.2 * 0.02 / (0.02 + 2.2 * x * x), rel=1e-12)
