"""The coupled modes of a scene on several processes (MPI), by SLEPc.

    mpirun -n 4 python -m meff.mpi scene.toml [--top 6] [--json out.json]

Each of the P processes (ranks) takes bodies n·r/P … n·(r+1)/P − 1 of the
case's ``[scene]`` and the contacts whose ``body`` is one of them;
``meff.scene_slice`` (meff's Rust code) reads only those rows of an NPZ
scene's arrays and the bodies they touch, checks them by the scene
readers' rules, and makes the rank's whitened rows J̃ = J L⁻ᵀ (M = L Lᵀ)
from them as meff's large path does, with global columns, their stiffness
and A_ii. The rank hands PETSc its rows of B = K^½ J̃, and SLEPc
(Krylov–Schur, Hermitian) finds the largest eigenvalues ω² of

    S = K^½ J M⁻¹ Jᵀ K^½ = B Bᵀ,

applied as two distributed products (``--operator shell``, the default:
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
    """y = B Bᵀ x as a PETSc shell (Python) matrix's product."""

    def __init__(self, b):
        self.b = b
        self.u = b.createVecRight()
        self.products = 0

    def mult(self, mat, x, y):
        self.products += 1
        self.b.multTranspose(x, self.u)
        self.b.mult(self.u, y)


def _check_index_range(part, PETSc):
    """PETSc's indices (32-bit in Debian's build) must hold every column."""
    limit = np.iinfo(PETSc.IntType).max
    need = part["velocities"] * part["n_bodies"]
    if max(need, part["n_contacts"]) > limit:
        raise SystemExit(
            f"meff.mpi: {need} velocities exceed this PETSc's {np.dtype(PETSc.IntType).itemsize * 8}-bit "
            "indices: use a PETSc built with 64-bit indices (Debian: python3-petsc4py-64-real)"
        )


def operator_b(part, PETSc, comm):
    """B = K^½ J̃ (rows: this rank's contacts; columns: velocities, laid out
    by body range like the ranks' bodies)."""
    _check_index_range(part, PETSc)
    it = PETSc.IntType
    nv, n, c = part["velocities"], part["n_bodies"], part["n_contacts"]
    b0, b1 = part["bodies"]
    rows, vloc = len(part["contacts"]), nv * (b1 - b0)
    csr = (part["row_start"].astype(it, copy=False), part["column"].astype(it, copy=False), part["value"])
    b = PETSc.Mat().createAIJ(size=((rows, c), (vloc, nv * n)), csr=csr, comm=comm)
    b.assemble()
    sqrt_k = b.createVecLeft()
    sqrt_k.array[:] = np.sqrt(part["stiffness"])
    b.diagonalScale(L=sqrt_k)
    return b


def coupled_operator(b, kind, PETSc, comm):
    """S = B Bᵀ: a shell matrix of two products, or formed (AIJ)."""
    if kind == "aij":
        return b.matTransposeMult(b)
    rows, c = b.getLocalSize()[0], b.getSize()[0]
    s = PETSc.Mat().createPython(((rows, c), (rows, c)), _Coupled(b), comm=comm)
    s.setUp()
    return s


class PartError(Exception):
    """A bad case as the ranks found it: each rank reads and checks only its
    part, so the messages of every rank that found a problem, in rank
    order, repeated lines once."""


def _read_part(path, mpi, max_input_bytes):
    """This rank's part, or PartError on every rank when any rank's part is
    bad (a collective: every rank calls it)."""
    from . import MeffError

    rank, ranks = mpi.Get_rank(), mpi.Get_size()
    try:
        part, error = scene_slice(path, rank, ranks, max_input_bytes), None
    except MeffError as e:
        part, error = None, str(e)
    errors = mpi.allgather(error)
    if any(errors):
        lines = []
        for e in errors:
            for line in (e or "").splitlines():
                if line not in lines:
                    lines.append(line)
        raise PartError("\n".join(lines))
    return part


def solve(path, top=6, tol=1e-12, operator="shell", petsc_args=None, max_input_bytes=1 << 30):
    """The `top` fastest coupled modes of the scene at `path`, found by every
    rank of MPI_COMM_WORLD together; the same document on every rank. A bad
    case raises PartError on every rank, before PETSc starts."""
    mpi = _mpi().COMM_WORLD
    rank, ranks = mpi.Get_rank(), mpi.Get_size()
    t0, c0 = time.perf_counter(), time.process_time()
    part = _read_part(path, mpi, max_input_bytes)
    t_read, c_read = time.perf_counter(), time.process_time()
    rss_read = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    bodies_read = part["bodies_read"]
    read_alone = part["read_alone"]
    PETSc, SLEPc = _import_petsc(petsc_args or [sys.argv[0]])
    comm = PETSc.COMM_WORLD
    b = operator_b(part, PETSc, comm)
    ka = float(np.max(part["stiffness"] * part["a"], initial=0.0))
    # PETSc holds its own copies: the part's arrays are not needed again.
    meta = {k: part[k] for k in ("title", "n_bodies", "n_contacts")}
    owned = len(part["contacts"])
    del part
    s = coupled_operator(b, operator, PETSc, comm)
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
    rss_read = mpi.allgather(rss_read)
    owned = mpi.allgather(owned)
    bodies_read = mpi.allgather(bodies_read)
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
            "bodies_read_per_rank": bodies_read,
            "read": "part" if read_alone else "whole",
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
            "peak_rss_bytes_after_read_per_rank": rss_read,
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
    ap.add_argument("--max-input-bytes", type=int, default=1 << 30, metavar="N",
                    help="most bytes of the case file, of a rank's rows and of compressed arrays "
                    "decompressed (default 1 GiB, as meff eval)")
    args, rest = ap.parse_known_args(argv)
    if not 1 <= args.top <= 100:
        ap.error("--top is from 1 to 100")
    if not os.path.isfile(args.case):
        ap.error(f"{args.case}: no such file")
    try:
        doc = solve(args.case, args.top, args.tol, args.operator, [sys.argv[0], *rest], args.max_input_bytes)
    except PartError as e:
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
