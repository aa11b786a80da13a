#!/usr/bin/env python3
"""Regenerates the scene fixtures of tests/it/formats/scene.rs (needs numpy, scipy).

Small packings from ../shared/perf/gen_packing.py (eccentric contacts, so
rotation matters) in every input form, plus NPZ files with one defect each.
Run from the repository root: python3 tests/cases/scene/make.py PATH/TO/gen_packing.py
"""
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
gen = sys.argv[1]
for dim, n, name in [(3, 40, "p3d"), (2, 40, "p2d")]:
    subprocess.run([sys.executable, gen, "--dim", str(dim), "--n", str(n), "--eccentricity", "0.3",
                    "--scene", "--out", os.path.join(HERE, name)], check=True)
    os.remove(os.path.join(HERE, name + ".npz"))  # the baseline's format, not a scene

d = dict(np.load(os.path.join(HERE, "p3d.scene.npz")))


def bad(name, **change):
    e = dict(d)
    for k, v in change.items():
        if v is None:
            e.pop(k)
        else:
            e[k] = v
    np.savez_compressed(os.path.join(HERE, name + ".npz"), **e)


n = d["normal"].copy(); n[7] *= 1.01
bad("bad-normal", normal=n)
o = d["other"].copy(); o[3] = 40
bad("bad-index", other=o)
bad("missing-stiffness", stiffness=None)
i = d["inertia"].copy(); i[5] = -i[5]
bad("bad-inertia", inertia=i)
bad("pickle", contact_name=np.array([f"c{k}" for k in range(len(d["stiffness"]))], dtype=object))
names = np.array([f"grain{k}" for k in range(len(d["mass"]))])
np.savez_compressed(os.path.join(HERE, "named.npz"), body_name=names, **d)
