"""The coupled modes of a scene on several processes (MPI), by SLEPc.

    mpirun -n 4 python -m meff.mpi scene.toml [--top 6] [--json out.json]

Each of the P processes (ranks) takes bodies n·r/P … n·(r+1)/P − 1 of the
case's ``[scene]`` and the contacts whose ``body`` is one of them;
``meff.scene_slice`` (meff's Rust code: the scene builder, the contact rows
and the mass blocks every evaluation uses) gives the rank its rows of J with
global columns, their stiffness and A_ii, and M⁻¹ of its bodies. The rank
hands PETSc its rows of B = K^½ J and of the block-diagonal M⁻¹, and SLEPc
(Krylov–Schur, Hermitian) finds the largest eigenvalues ω² of

    S = K^½ J M⁻¹ Jᵀ K^½ = B M⁻¹ Bᵀ,

applied as three distributed products (``--operator shell``, the default:
nothing of size S is stored) or formed once as a PETSc matrix
(``--operator aij``). Rank 0 writes a JSON document with the keys
``meff eval --json`` uses for the same results (``modes[].omega``,
``modes[].frequency``, ``coupled_omega_max``, ``independent_omega_max``,
``coupled_to_independent_ratio``, ``stable_dt.coupled``,
``stable_dt.independent``) and an ``mpi`` object saying how they were found.
Arguments it does not know go to PETSc and SLEPc (``-eps_view``,
``-eps_ncv 40``, …). docs/mpi.md: installing, building, launching, Slurm.
"""

import argparse
import glob
import json
import math
import os
import resource
import sys
import time

import numpy as np

from . import scene_slice

# Where Debian puts the bindings (python3-petsc4py, python3-slepc4py):
# reachable through /usr/lib/petsc and /usr/lib/slepc, links that only the
# -dev packages make, or PETSC_DIR and SLEPC_DIR. Without either, these.
_DEBIAN = (
    "/usr/lib/petscdir/petsc*/*-linux-gnu-real/lib/python3/dist-packages",
    "/usr/lib/slepcdir/slepc*/*-linux-gnu-real/lib/python3/dist-packages",
)


def _add_debian_paths():
    for pattern in _DEBIAN:
        for d in sorted(glob.glob(pattern)):
            if d not in sys.path:
                sys.path.append(d)


def missing():
    """Why this interpreter cannot run meff.mpi (a module it cannot find, or
    no mpirun), or None when it can."""
    import importlib.util
    import shutil

    _add_debian_paths()
    for name in ("mpi4py", "petsc4py", "slepc4py"):
        if importlib.util.find_spec(name) is None:
            return f"{name} is not importable by {sys.executable} (docs/mpi.md: install)"
    if shutil.which("mpirun") is None:
        return "no mpirun on PATH (Debian: openmpi-bin)"
    return None


def _import_petsc(petsc_args):
    """petsc4py and slepc4py, initialised with `petsc_args` (PETSc options)."""
    _add_debian_paths()
    import petsc4py
    import slepc4py
    petsc4py.init(petsc_args)
    slepc4py.init(petsc_args)
    from petsc4py import PETSc
    from slepc4py import SLEPc

    return PETSc, SLEPc


class _Coupled:
    """y = B M⁻¹ Bᵀ x as a PETSc shell (Python) matrix's product."""

    def __init__(self, b, minv):
        self.b, self.minv = b, minv
        self.u = b.createVecRight()
        self.v = b.createVecRight()
        self.products = 0

    def mult(self, mat, x, y):
        self.products += 1
        self.b.multTranspose(x, self.u)
        self.minv.mult(self.u, self.v)
        self.b.mult(self.v, y)


def _inverse_mass_csr(part, index_type):
    """The owned bodies' M⁻¹ blocks as CSR rows with global columns."""
    blocks = part["inverse_mass"]
    owned, nv, _ = blocks.shape
    b0 = part["bodies"][0]
    cols = nv * (b0 + np.arange(owned))[:, None, None] + np.arange(nv)[None, None, :]
    cols = np.broadcast_to(cols, blocks.shape)
    keep = blocks != 0.0
    counts = keep.reshape(owned * nv, nv).sum(axis=1)
    start = np.concatenate([[0], np.cumsum(counts)]).astype(index_type)
    return start, cols[keep].astype(index_type), np.ascontiguousarray(blocks[keep])


def _check_index_range(part, PETSc):
    """PETSc's indices (32-bit in Debian's build) must hold every column."""
    limit = np.iinfo(PETSc.IntType).max
    need = part["velocities"] * part["n_bodies"]
    if max(need, part["n_contacts"]) > limit:
        raise SystemExit(
            f"meff.mpi: {need} velocities exceed this PETSc's {np.dtype(PETSc.IntType).itemsize * 8}-bit "
            "indices: use a PETSc built with 64-bit indices (Debian: python3-petsc4py-64-real)"
        )


def operators(part, PETSc, comm):
    """B = K^½ J (rows: this rank's contacts) and M⁻¹ (rows: its bodies' velocities)."""
    _check_index_range(part, PETSc)
    it = PETSc.IntType
    nv, n, c = part["velocities"], part["n_bodies"], part["n_contacts"]
    b0, b1 = part["bodies"]
    rows, vloc = len(part["contacts"]), nv * (b1 - b0)
    csr = (part["row_start"].astype(it), part["column"].astype(it), part["value"])
    b = PETSc.Mat().createAIJ(size=((rows, c), (vloc, nv * n)), csr=csr, comm=comm)
    b.assemble()
    sqrt_k = b.createVecLeft()
    sqrt_k.array[:] = np.sqrt(part["stiffness"])
    b.diagonalScale(L=sqrt_k)
    minv = PETSc.Mat().createAIJ(
        size=((vloc, nv * n), (vloc, nv * n)), csr=_inverse_mass_csr(part, it), comm=comm
    )
    minv.assemble()
    return b, minv


def coupled_operator(b, minv, kind, PETSc, comm):
    """S = B M⁻¹ Bᵀ: a shell matrix of three products, or formed (AIJ)."""
    if kind == "aij":
        return b.matMult(minv).matMult(b.transpose())
    rows, c = b.getLocalSize()[0], b.getSize()[0]
    s = PETSc.Mat().createPython(((rows, c), (rows, c)), _Coupled(b, minv), comm=comm)
    s.setUp()
    return s


def solve(path, top=6, tol=1e-12, operator="shell", petsc_args=None):
    """The `top` fastest coupled modes of the scene at `path`, found by every
    rank of MPI_COMM_WORLD together; the same document on every rank. A bad
    case raises meff's exceptions on every rank, before PETSc starts."""
    mpi = _mpi().COMM_WORLD
    rank, ranks = mpi.Get_rank(), mpi.Get_size()
    t0, c0 = time.perf_counter(), time.process_time()
    part = scene_slice(path, rank, ranks)
    t_read, c_read = time.perf_counter(), time.process_time()
    PETSc, SLEPc = _import_petsc(petsc_args or [sys.argv[0]])
    comm = PETSc.COMM_WORLD
    b, minv = operators(part, PETSc, comm)
    ka = float(np.max(part["stiffness"] * part["a"], initial=0.0))
    # PETSc holds its own copies: the part's arrays are not needed again.
    meta = {k: part[k] for k in ("title", "n_bodies", "n_contacts")}
    owned = len(part["contacts"])
    del part
    s = coupled_operator(b, minv, operator, PETSc, comm)
    t_build, c_build = time.perf_counter(), time.process_time()
    eps = SLEPc.EPS().create(comm)
    eps.setOperators(s)
    eps.setProblemType(SLEPc.EPS.ProblemType.HEP)
    eps.setWhichEigenpairs(SLEPc.EPS.Which.LARGEST_REAL)
    eps.setDimensions(nev=min(top, meta["n_contacts"]))
    eps.setTolerances(tol=tol, max_it=10_000)
    eps.setFromOptions()
    eps.solve()
    t_solve, c_solve = time.perf_counter(), time.process_time()
    found = min(eps.getConverged(), top)
    theta = [eps.getEigenvalue(i).real for i in range(found)]
    errors = [eps.computeError(i, SLEPc.EPS.ErrorType.RELATIVE) for i in range(found)]
    omegas = sorted((math.sqrt(t) for t in theta if t > 0.0), reverse=True)
    if not omegas:
        raise SystemExit(f"meff.mpi: no mode converged in {eps.getIterationNumber()} iterations")
    ka = mpi.allreduce(ka, op=_mpi().MAX)
    independent = math.sqrt(ka)
    cpu = mpi.allgather(time.process_time() - c0)
    phases = mpi.allgather({"read": c_read - c0, "operators": c_build - c_read, "solve": c_solve - c_build})
    products = s.getPythonContext().products if operator == "shell" else None
    rss = mpi.allgather(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
    owned = mpi.allgather(owned)
    return {
        "title": meta["title"],
        "modes": [{"omega": w, "frequency": w / (2.0 * math.pi)} for w in omegas],
        "coupled_omega_max": omegas[0],
        "independent_omega_max": independent,
        "coupled_to_independent_ratio": omegas[0] / independent,
        "stable_dt": {"coupled": 2.0 / omegas[0], "independent": 2.0 / independent},
        "mpi": {
            "ranks": ranks,
            "bodies": meta["n_bodies"],
            "contacts": meta["n_contacts"],
            "contacts_per_rank": owned,
            "operator": operator,
            "solver": eps.getType(),
            "tolerance": tol,
            "iterations": eps.getIterationNumber(),
            "products": products,
            "converged": eps.getConverged(),
            "max_relative_error": max(errors),
            "wall_seconds": {
                "read": t_read - t0,
                "operators": t_build - t_read,
                "solve": t_solve - t_build,
                "total": time.perf_counter() - t0,
            },
            "cpu_seconds_per_rank": cpu,
            "cpu_seconds_by_phase_per_rank": phases,
            "peak_rss_bytes_per_rank": rss,
        },
    }


def _mpi():
    from mpi4py import MPI

    return MPI


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python -m meff.mpi",
        description="Fastest coupled modes of a scene, distributed over MPI ranks (SLEPc). "
        "Unknown arguments go to PETSc/SLEPc (e.g. -eps_view).",
    )
    ap.add_argument("case", help="a case file with a [scene]")
    ap.add_argument("--top", type=int, default=6, help="fastest modes to find (1 to 100; default 6)")
    ap.add_argument("--tol", type=float, default=1e-12, help="SLEPc's relative residual tolerance (default 1e-12)")
    ap.add_argument("--operator", choices=["shell", "aij"], default="shell",
                    help="S applied as B (M⁻¹ (Bᵀ x)) (shell, default) or formed once (aij)")
    ap.add_argument("--json", metavar="PATH", help="write the document here (default: standard output)")
    args, rest = ap.parse_known_args(argv)
    if not 1 <= args.top <= 100:
        ap.error("--top is from 1 to 100")
    if not os.path.isfile(args.case):
        ap.error(f"{args.case}: no such file")
    from . import MeffError

    try:
        doc = solve(args.case, args.top, args.tol, args.operator, [sys.argv[0], *rest])
    except MeffError as e:
        if _mpi().COMM_WORLD.Get_rank() == 0:
            print(f"meff.mpi: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    except Exception as e:
        if type(e).__module__.split(".")[0] not in ("petsc4py", "slepc4py"):
            raise
        # A PETSc or SLEPc error (a bad -eps_* option, say): its message,
        # then every rank stops (unwinding past live PETSc objects crashes).
        world = _mpi().COMM_WORLD
        print(f"meff.mpi: rank {world.Get_rank()}: PETSc/SLEPc error {e}", file=sys.stderr, flush=True)
        world.Abort(2)
    if _mpi().COMM_WORLD.Get_rank() == 0:
        text = json.dumps(doc, indent=2) + "\n"
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                f.write(text)
        else:
            sys.stdout.write(text)


if __name__ == "__main__":
    main()
