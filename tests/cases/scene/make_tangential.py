#!/usr/bin/env python3
"""Tangential-spring scene fixtures of tests/it/formats/scene_tangential.rs (needs numpy).

From the 40-body packing p3d (made by make.py): the same scene with a tangential spring on every
contact, as an NPZ archive (tangential.scene.npz: `tangential_ratio` and `tangential_damping`
arrays) and as CSV (tangential.contacts.csv, the same values as columns, with p3d.bodies.csv), and
an archive whose ratio is out of range at row 4 (bad-tangential.npz).
Run from the repository root: python3 tests/cases/scene/make_tangential.py
"""
import csv
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
d = dict(np.load(os.path.join(HERE, "p3d.scene.npz")))
c = len(d["stiffness"])
ratio = 0.3 + 0.05 * (np.arange(c) % 13)  # 0.3 ... 0.9
damping = 0.1 * (1 + np.arange(c) % 5)
np.savez_compressed(os.path.join(HERE, "tangential.scene.npz"), tangential_ratio=ratio,
                    tangential_damping=damping, **d)
bad = ratio.copy()
bad[4] = 11.0
np.savez_compressed(os.path.join(HERE, "bad-tangential.npz"), tangential_ratio=bad, **d)
with open(os.path.join(HERE, "p3d.contacts.csv")) as f:
    rows = list(csv.reader(f))
with open(os.path.join(HERE, "tangential.contacts.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(rows[0] + ["tangential_ratio", "tangential_damping"])
    for i, r in enumerate(rows[1:]):
        w.writerow(r + [repr(float(ratio[i])), repr(float(damping[i]))])
