#!/usr/bin/env python3
"""Writes granular packings from ../shared/perf/gen_packing.py as LAMMPS dumps.

Small fixtures for tests/it/formats/dump.rs (committed), or large ones for
benches/dem.py (not committed):

  python3 tests/cases/dump/make.py PATH/TO/gen_packing.py            # the fixtures, here
  python3 tests/cases/dump/make.py PATH/TO/gen_packing.py --n 100000 --out /tmp/p100k

The fixtures (needs numpy, scipy):
  packing.dump       256 spheres (FCC, jittered, polydisperse, uniform
                     stiffness 1e5 N/m), two snapshots: timestep 0 with the
                     spheres spread apart (no contacts), timestep 1000 the
                     packing; columns in an unusual order with extra ones.
  packing.scene.npz  the generator's own contacts of the same packing (the
                     reference: pairs with gap < 0.001 R0, floor z = 0).
  periodic.dump      the same spheres in a box periodic in x and y (the FCC
                     lattice is periodic with the box), `diameter` and
                     `density` columns instead of radius and mass.
  periodic.pairs     the touching pairs (ids) by SciPy's periodic KD-tree.
"""
import argparse
import importlib.util
import math
import os

import numpy as np
from scipy.spatial import cKDTree

HERE = os.path.dirname(os.path.abspath(__file__))


def load_gen(path):
    spec = importlib.util.spec_from_file_location("gen_packing", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def box_of(s, radius):
    """The FCC lattice's periodic box in x and y, and z from 0 to above the top."""
    n = len(s["mass"])
    a = 2.0 * radius * math.sqrt(2.0)
    nc = max(1, math.ceil((n / 4.0) ** (1.0 / 3.0)))
    top = float((s["pos"][:, 2] + s["radius"]).max())
    return [(0.0, nc * a), (0.0, nc * a), (0.0, top + 2 * radius)]


def snapshot(f, step, ids, pos, rad, mass, box, flags, columns):
    f.write(f"ITEM: TIMESTEP\n{step}\nITEM: NUMBER OF ATOMS\n{len(ids)}\n")
    f.write(f"ITEM: BOX BOUNDS {flags}\n")
    for lo, hi in box:
        f.write(f"{lo!r} {hi!r}\n")
    f.write("ITEM: ATOMS " + " ".join(columns) + "\n")
    vol = 4.0 / 3.0 * math.pi * rad**3
    for i in range(len(ids)):
        v = dict(id=str(ids[i]), type="1", x=repr(float(pos[i, 0])), y=repr(float(pos[i, 1])),
                 z=repr(float(pos[i, 2])), radius=repr(float(rad[i])), diameter=repr(float(2 * rad[i])),
                 mass=repr(float(mass[i])), density=repr(float(mass[i] / vol[i])), vx="0", vy="0", vz="0",
                 fx="0", fy="0", fz="0", omegax="0", omegay="0", omegaz="0")
        f.write(" ".join(v[c] for c in columns) + "\n")


def write_fast(path, ids, s, box, flags):
    """One snapshot, columns id type x y z radius mass, by numpy (10^6 lines in seconds)."""
    n = len(ids)
    with open(path, "w") as f:
        f.write(f"ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n{n}\nITEM: BOX BOUNDS {flags}\n")
        for lo, hi in box:
            f.write(f"{lo!r} {hi!r}\n")
        f.write("ITEM: ATOMS id type x y z radius mass\n")
        cols = np.column_stack([s["pos"], s["radius"], s["mass"]])
        body = np.char.add(np.char.add(ids.astype(str), " 1 "),
                           np.array([" ".join(r) for r in np.char.mod("%.17g", cols)]))
        f.write("\n".join(body.tolist()) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gen")
    ap.add_argument("--n", type=int, default=256)
    ap.add_argument("--out", default=None, help="base path of a benchmark dump (OUT.dump, OUT.scene.npz)")
    ap.add_argument("--k", type=float, default=1e5)
    ap.add_argument("--periodic", action="store_true", help="with --out: the box periodic in x and y")
    a = ap.parse_args()
    gen = load_gen(a.gen)
    radius = 0.005
    s = gen.generate(3, a.n, kmin=a.k, kmax=a.k, radius=radius)
    ids = np.arange(1, a.n + 1) * 3  # not 1..N: ids are names, not rows
    box = box_of(s, radius)
    cols = ["id", "type", "vx", "mass", "z", "y", "x", "vy", "radius", "vz", "fx"]
    if a.out:
        # The baseline's arrays (OUT.npz, for ../shared/perf/baseline.py),
        # the dump and a case reading it with the generator's contact rule.
        gen.write_npz(a.out + ".npz", s)
        write_fast(a.out + ".dump", ids, s, box, "pp pp fm" if a.periodic else "ff ff fm")
        name = os.path.basename(a.out)
        with open(a.out + ".dump.toml", "w") as f:
            f.write(f'title = "{a.n} spheres from a LAMMPS dump"\nspace = "3d"\n[scene]\ndump = "{name}.dump"\n'
                    f'contact = {{ stiffness = "{a.k!r} N/m" }}\ntolerance = "{0.001 * radius!r} m"\nwalls = ["zlo"]\n')
        return
    with open(os.path.join(HERE, "packing.dump"), "w") as f:
        spread = s["pos"] * 1.5
        snapshot(f, 0, ids, spread, s["radius"], s["mass"], [(lo, hi * 1.5) for lo, hi in box], "ff ff fm", cols)
        snapshot(f, 1000, ids, s["pos"], s["radius"], s["mass"], box, "ff ff fm", cols)
    np.savez(os.path.join(HERE, "packing.scene.npz"), mass=s["mass"], position=s["pos"], inertia=s["inertia"],
             body=s["body"].astype(np.int64), other=s["other"].astype(np.int64), point=s["point"],
             normal=s["normal"], stiffness=s["stiffness"])
    with open(os.path.join(HERE, "periodic.dump"), "w") as f:
        snapshot(f, 1000, ids, s["pos"], s["radius"], s["mass"], box, "pp pp ff",
                 ["id", "x", "y", "z", "diameter", "density", "omegax"])
    # Touching pairs with periodic x, y: SciPy's KD-tree (boxsize) for candidates.
    L = box[0][1]
    pos = s["pos"].copy()
    big = 10.0 * (box[2][1] - box[2][0])  # z not periodic: a box far larger than the pile
    tree = cKDTree(pos, boxsize=[L, L, big])
    cand = tree.query_pairs(r=2.0 * float(s["radius"].max()) + 1e-12, output_type="ndarray")
    keep = []
    for i, j in cand:
        d = pos[i] - pos[j]
        d[:2] -= L * np.round(d[:2] / L)
        if np.linalg.norm(d) < s["radius"][i] + s["radius"][j]:
            keep.append((min(i, j), max(i, j)))
    keep.sort()
    wrapped = sum(1 for i, j in keep if np.abs(pos[i, :2] - pos[j, :2]).max() > L / 2)
    with open(os.path.join(HERE, "periodic.pairs"), "w") as f:
        f.write(f"# {len(keep)} pairs, {wrapped} across the periodic boundary (ids)\n")
        for i, j in keep:
            f.write(f"{ids[i]} {ids[j]}\n")
    print(f"{a.n} spheres: {len(s['stiffness'])} generator contacts, {len(keep)} periodic pairs ({wrapped} wrapped)")


if __name__ == "__main__":
    main()
