"""meff.scene_slice and the distributed solve (meff.mpi) against the
single-process answer.

The slice tests run everywhere: the parts of a scene, put back together
with NumPy, give the coupled modes `meff eval` gives. The MPI tests need
mpi4py, petsc4py, slepc4py and mpirun importable by this interpreter
(docs/mpi.md; Debian's python3-petsc4py is built for Debian's python3) and
are skipped, saying so, without them: `mpirun -n 1` and `-n 2` on scenes
whose contacts are listed in random order, against `meff eval --json`, the
fastest six ω to 1e-10 relative (both solvers converge to ~1e-13; meff's own
criterion is 1e-10 of θ_max on ω²)."""

import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import meff
import meff.mpi

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MEFF = os.environ.get("MEFF_BIN", os.path.join(ROOT, "target", "debug", "meff"))
RTOL = 1e-10


def write_scene(directory, n, dim, seed=1, save=np.savez, edit=None):
    """A pile of `n` bodies on a jittered grid: neighbours in contact at
    points off the line of centres (rotations enter), tilted normals, full
    inertia tensors (3-d), the bottom layer on the floor, the last body
    fixed, contacts in random order. Returns the case path and the count of
    contacts."""
    rng = np.random.default_rng(seed)
    side = int(np.ceil(n ** (1.0 / dim) - 1e-9))
    grid = np.stack(np.unravel_index(np.arange(n), (side,) * dim), axis=1)
    pos = grid + 0.05 * rng.standard_normal((n, dim))
    mass = rng.uniform(0.5, 2.0, n)
    pairs = []
    for k in range(dim):
        i = np.arange(n)
        j = i + side ** (dim - 1 - k)
        ok = (grid[:, k] + 1 < side) & (j < n)
        pairs.append(np.stack([j[ok], i[ok]], axis=1))
    pairs = np.concatenate(pairs)
    normal = pos[pairs[:, 0]] - pos[pairs[:, 1]] + 0.1 * rng.standard_normal((len(pairs), dim))
    point = 0.5 * (pos[pairs[:, 0]] + pos[pairs[:, 1]]) + 0.1 * rng.standard_normal((len(pairs), dim))
    floor = np.flatnonzero(grid[:, -1] == 0)
    fnormal = np.zeros((len(floor), dim))
    fnormal[:, -1] = 1.0
    fpoint = pos[floor] + 0.1 * rng.standard_normal((len(floor), dim))
    fpoint[:, -1] = pos[floor, -1] - 0.5
    body = np.concatenate([pairs[:, 0], floor])
    other = np.concatenate([pairs[:, 1], -np.ones(len(floor), np.int64)])
    normal = np.concatenate([normal, fnormal])
    normal /= np.linalg.norm(normal, axis=1)[:, None]
    point = np.concatenate([point, fpoint])
    c = len(body)
    order = rng.permutation(c)
    fixed = np.zeros(n, bool)
    fixed[-1] = True
    if dim == 3:
        a = 0.05 * rng.standard_normal((n, 3, 3))
        inertia = np.einsum("nij,nkj->nik", a, a) + 0.1 * mass[:, None, None] * np.eye(3)
    else:
        inertia = 0.1 * mass * rng.uniform(0.5, 2.0, n)
    arrays = dict(
        mass=mass, position=pos, inertia=inertia, fixed=fixed,
        body=body[order].astype(np.int64), other=other[order].astype(np.int64),
        point=point[order], normal=normal[order], stiffness=10 ** rng.uniform(4, 6, c),
    )
    if edit is not None:
        edit(arrays)
    save(os.path.join(directory, "scene.npz"), **arrays)
    path = os.path.join(directory, "scene.toml")
    with open(path, "w", encoding="utf-8") as f:
        space = "3d" if dim == 3 else "planar"
        f.write(f'title = "pile"\nspace = "{space}"\n[scene]\nfile = "scene.npz"\n')
    return path, c


def meff_eval(path):
    if not os.path.exists(MEFF):
        # CI names the binary (MEFF_BIN); a missing one there is a failure.
        assert "MEFF_BIN" not in os.environ, f"MEFF_BIN={MEFF} does not exist"
        pytest.skip("the meff binary is not built (cargo build)")
    out = subprocess.run([MEFF, "eval", path, "--json", "--no-verify"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def assemble(path, parts):
    """S = K^½ J̃ J̃ᵀ K^½ (dense) and A_ii from `parts` slices, in the
    scene's contact order."""
    slices = [meff.scene_slice(path, p, parts) for p in range(parts)]
    nv, n, c = slices[0]["velocities"], slices[0]["n_bodies"], slices[0]["n_contacts"]
    j = np.zeros((c, nv * n))
    k, a = np.zeros(c), np.zeros(c)
    owner = np.full(c, -1)
    for p, s in enumerate(slices):
        for r, i in enumerate(s["contacts"]):
            lo, hi = s["row_start"][r], s["row_start"][r + 1]
            j[i, s["column"][lo:hi]] = s["value"][lo:hi]
            assert owner[i] == -1
            owner[i] = p
        k[s["contacts"]] = s["stiffness"]
        a[s["contacts"]] = s["a"]
    assert (owner >= 0).all(), "every contact is in exactly one part"
    root = np.sqrt(k)
    return root[:, None] * (j @ j.T) * root[None, :], k, a


@pytest.mark.parametrize("dim,parts", [(3, 1), (3, 3), (2, 2)])
def test_parts_put_together_give_meff_evals_modes(dim, parts):
    with tempfile.TemporaryDirectory() as d:
        path, c = write_scene(d, 40 if dim == 3 else 30, dim)
        s, k, a = assemble(path, parts)
        doc = meff_eval(path)
    np.testing.assert_allclose(np.diag(s), k * a, rtol=1e-12)
    omega = np.sqrt(np.linalg.eigvalsh(s)[::-1][:6])
    np.testing.assert_allclose(omega, [m["omega"] for m in doc["modes"][:6]], rtol=1e-12)
    assert np.sqrt(np.max(k * a)) == pytest.approx(doc["independent_omega_max"], rel=1e-12)


def test_an_npz_part_is_read_alone_and_compressed_members_give_the_same_rows():
    """Each part of an NPZ scene reads its own rows (fewer bodies than the
    scene); np.savez_compressed members (decompressed and skipped) give the
    rows np.savez members (read by range) give, bit for bit."""
    with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as z:
        path, c = write_scene(d, 125, 3, seed=7)
        packed, _ = write_scene(z, 125, 3, seed=7, save=np.savez_compressed)
        for p in range(3):
            s, t = meff.scene_slice(path, p, 3), meff.scene_slice(packed, p, 3)
            assert s["read_alone"] and s["bodies_read"] < 125
            b0, b1 = s["bodies"]
            assert s["bodies_read"] >= b1 - b0
            for key in ("contacts", "row_start", "column", "value", "stiffness", "a"):
                np.testing.assert_array_equal(s[key], t[key], err_msg=key)


def test_a_dump_scene_is_cut_from_the_whole_and_gives_meff_evals_modes():
    """A dump scene (periodic images) is read whole and cut by the same rule."""
    path = os.path.join(ROOT, "cases", "granular-pile.toml")
    s, k, a = assemble(path, 3)
    assert not meff.scene_slice(path, 1, 3)["read_alone"]
    doc = meff_eval(path)
    omega = np.sqrt(np.linalg.eigvalsh(s)[::-1][:6])
    np.testing.assert_allclose(omega, [m["omega"] for m in doc["modes"][:6]], rtol=1e-12)


def bad_mass(body):
    def edit(arrays):
        arrays["mass"][body] = -2.0
    return edit


def test_a_bad_row_is_located_by_the_part_that_reads_it():
    """Only the part that reads a bad row sees it, and names the scene's row
    at the `file` value of [scene], as meff eval does."""
    with tempfile.TemporaryDirectory() as d:
        path, _ = write_scene(d, 64, 3, edit=bad_mass(60))
        with pytest.raises(meff.InputError) as e:
            meff.scene_slice(path, 1, 2)
        assert "array `mass`, row 60" in str(e.value) and "scene.toml:4:8" in str(e.value)
        run = subprocess.run([MEFF, "eval", path, "--no-verify"], capture_output=True, text=True) \
            if os.path.exists(MEFF) else None
        if run is not None:
            assert run.returncode == 2 and "array `mass`, row 60" in run.stderr


def test_slice_errors():
    with tempfile.TemporaryDirectory() as d:
        path, _ = write_scene(d, 8, 3)
        with pytest.raises(ValueError, match="part is from 0 to parts - 1"):
            meff.scene_slice(path, 2, 2)
        with pytest.raises(meff.MeffError, match="no such file"):
            meff.scene_slice(os.path.join(d, "missing.toml"))
        with pytest.raises(meff.MeffError, match=r"has no \[scene\]"):
            meff.scene_slice(os.path.join(ROOT, "cases", "offcentre.toml"))
        # More parts than bodies: some parts own nothing, and all still add up.
        s, k, a = assemble(path, 11)
        assert s.shape == (len(k), len(k))


MISSING = meff.mpi.missing()
needs_mpi = pytest.mark.skipif(MISSING is not None, reason=f"MPI route not available: {MISSING}")


def mpirun(n, *args):
    launcher = ["mpirun", "-n", str(n), "--oversubscribe"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        launcher.append("--allow-run-as-root")
    return subprocess.run(
        [*launcher, sys.executable, "-m", "meff.mpi", *args], capture_output=True, text=True, timeout=300
    )


@needs_mpi
@pytest.mark.parametrize(
    "dim,n,ranks,operator",
    [(3, 450, 1, "shell"), (3, 450, 2, "shell"), (3, 450, 2, "aij"), (2, 200, 2, "shell")],
)
def test_mpirun_equals_meff_eval(dim, n, ranks, operator):
    with tempfile.TemporaryDirectory() as d:
        path, c = write_scene(d, n, dim, seed=ranks + dim)
        out = os.path.join(d, "modes.json")
        run = mpirun(ranks, path, "--operator", operator, "--json", out)
        assert run.returncode == 0, run.stderr
        with open(out, encoding="utf-8") as f:
            got = json.load(f)
        want = meff_eval(path)
    assert got["mpi"]["ranks"] == ranks and got["mpi"]["contacts"] == c
    assert sum(got["mpi"]["contacts_per_rank"]) == c
    assert got["mpi"]["read"] == "part"
    assert all(b < n for b in got["mpi"]["bodies_read_per_rank"]) or ranks == 1
    if ranks > 1:
        assert min(got["mpi"]["contacts_per_rank"]) > 0
    w = [m["omega"] for m in want["modes"][:6]]
    np.testing.assert_allclose([m["omega"] for m in got["modes"]], w, rtol=RTOL)
    np.testing.assert_allclose([m["frequency"] for m in got["modes"]], [m["frequency"] for m in want["modes"][:6]], rtol=RTOL)
    for key in ("coupled_omega_max", "independent_omega_max", "coupled_to_independent_ratio"):
        assert got[key] == pytest.approx(want[key], rel=RTOL), key
    for key in ("coupled", "independent"):
        assert got["stable_dt"][key] == pytest.approx(want["stable_dt"][key], rel=RTOL), key


@needs_mpi
def test_mpirun_reports_a_bad_row_of_one_rank_once_and_exits_2():
    with tempfile.TemporaryDirectory() as d:
        path, _ = write_scene(d, 64, 3, edit=bad_mass(60))
        run = mpirun(2, path)
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("array `mass`, row 60") == 1, run.stderr
    assert "Traceback" not in run.stderr


@needs_mpi
def test_mpirun_reports_a_bad_case_and_exits_2():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "bad.toml")
        with open(path, "w", encoding="utf-8") as f:
            f.write('title = "x"\nspace = "3d"\n[scene]\nfile = "missing.npz"\n')
        run = mpirun(2, path)
    assert run.returncode == 2
    assert "meff.mpi: error: cannot read `missing.npz`" in run.stderr
    assert "bad.toml:4:8" in run.stderr


def test_the_slurm_script_parses_and_launches_meff_mpi():
    script = os.path.join(ROOT, "examples", "batch", "slurm-mpi.sh")
    subprocess.run(["bash", "-n", script], check=True)
    with open(script, encoding="utf-8") as f:
        text = f.read()
    assert "python -m meff.mpi" in text and "#SBATCH --ntasks-per-node" in text


@needs_mpi
def test_petsc_options_pass_through_and_their_errors_exit_2():
    with tempfile.TemporaryDirectory() as d:
        path, _ = write_scene(d, 40, 3)
        out = os.path.join(d, "modes.json")
        run = mpirun(1, path, "--json", out, "-eps_type", "lanczos", "-eps_lanczos_reorthog", "full")
        assert run.returncode == 0, run.stderr
        with open(out, encoding="utf-8") as f:
            got = json.load(f)
        want = meff_eval(path)
        bad = mpirun(2, path, "-eps_type", "lanczos")  # SLEPc wants a reorthogonalisation type
    assert got["mpi"]["solver"] == "lanczos"
    np.testing.assert_allclose([m["omega"] for m in got["modes"]], [m["omega"] for m in want["modes"][:6]], rtol=RTOL)
    assert bad.returncode == 2
    assert "PETSc/SLEPc error" in bad.stderr and "SEGV" not in bad.stderr
