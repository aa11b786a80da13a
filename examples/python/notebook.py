#!/usr/bin/env python3
"""Builds and runs examples/python/meff.ipynb, the Python package's example
notebook, headless (nbclient); CI runs it with --check, which executes the
notebook again and fails when an output differs from the committed one.

    python3 examples/python/notebook.py           # (re)write the notebook with its outputs
    python3 examples/python/notebook.py --check   # run it; compare with the committed outputs

Needs the package (`pip install ./python`), nbclient, nbformat, ipykernel.
"""
import os
import sys

import nbformat
from nbclient import NotebookClient

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PATH = os.path.join(HERE, "meff.ipynb")

CELLS = [
    ("md", "# meff from Python\n\nThe effective mass a contact sees, from a case file, a robot model and arrays. "
           "Run from the repository's root (`examples/python/notebook.py` runs it headless)."),
    ("code", "import numpy as np\nimport meff\n\nresult = meff.load('cases/offcentre.toml').evaluate()\nresult.m_eff"),
    ("md", "The same numbers as `meff eval --json`: the stable explicit step of the coupled system, and A."),
    ("code", "result.json['stable_dt']['coupled'], result.delassus"),
    ("md", "A tote dropped on a corner: the corner sees far less than its 8 kg, and the impact's peak force follows."),
    ("code", "tote = meff.load('cases/tote-drop.toml').evaluate()\n"
             "corner = tote.json['impacts'][0]['contacts'][0]\n"
             "round(tote.m_eff[0], 4), round(corner['peak_force'], 1), round(corner['naive']['peak_force'], 1)"),
    ("md", "A robot compiled once, evaluated at 10 000 configurations and three directions in one call."),
    ("code", "ur5 = meff.Robot.from_urdf('tests/robots/urdf/ur5_robot.urdf')\n"
             "qs = np.random.default_rng(0).uniform(-np.pi, np.pi, (10_000, ur5.nq))\n"
             "m = ur5.effective_mass(qs, 'tool0', [0, 0, 0.05], np.eye(3), frame='body')\n"
             "m.shape, np.round(np.percentile(m, [5, 50, 95], axis=0), 3)"),
    ("md", "The effective-mass ellipsoid at one configuration: principal masses (kg) and directions."),
    ("code", "e = ur5.ellipsoid(ur5.configuration({'shoulder_lift_joint': -1.2, 'elbow_joint': 1.5}), 'tool0', [0, 0, 0.05], frame='body')\n"
             "np.round(e['masses'], 4)"),
    ("md", "How fast may the tool move near a person (ISO/TS 15066 Annex A)? 2 000 samples of a motion, "
           "vectorised: the tool tip's speed, the mass along its motion, v_max exact and by the rule M/2 + m_L "
           "against a hand (your region values: check them against your copy of the standard). "
           "Printed: the rule's mass, the range of the exact mass, the smallest v_max (exact), the rule's v_max, "
           "and the smallest v_max/|v| (below 1: too fast somewhere)."),
    ("code", "t = np.linspace(0, 2, 2000)\n"
             "q = np.tile(ur5.configuration({'shoulder_lift_joint': -1.2, 'elbow_joint': 1.5}), (len(t), 1))\n"
             "q[:, 0] = 0.8 * np.sin(np.pi * t)          # shoulder pan and elbow move together\n"
             "q[:, 2] += 0.6 * np.sin(np.pi * t)\n"
             "qd = np.zeros((len(t), ur5.nv))\n"
             "qd[:, 0] = 0.8 * np.pi * np.cos(np.pi * t)\n"
             "qd[:, 2] = 0.6 * np.pi * np.cos(np.pi * t)\n"
             "hand = {'mass': 0.6, 'stiffness': 75e3, 'force_limit': 280.0, 'energy_limit': 0.49}\n"
             "s = ur5.contact_speeds(q, qd, 'tool0', [0, 0, 0.05], hand, payload=1.0)\n"
             "moving = s['speed'] > 1e-9\n"
             "(round(s['mass_rule'], 3), np.round([s['mass_exact'][moving].min(), s['mass_exact'][moving].max()], 3),\n"
             " round(float(s['max_speed_exact'][moving].min()), 3), round(float(s['max_speed_rule'][0]), 3),\n"
             " round(float(s['factor_exact'].min()), 3))"),
    ("md", "Tolerances: a parameter written `\"2 kg ± 20 %\"` is bounded over; a plain loop (no slider) over the lever arm "
           "gives m_eff's band at each r (exact: every corner of the box evaluated) beside the first-order band."),
    ("code", "seed = open('cases/offcentre.toml').read().split('[[claim]]')[0]\n"
             "seed = seed.replace('\"2 kg\"', '\"2 kg ± 20 %\"')\n"
             "rows = []\n"
             "for r in np.linspace(0.02, 0.20, 10):\n"
             "    res = meff.load(seed.replace('\"0.10 m\"', f'\"{r:.3f} m\"')).evaluate()\n"
             "    t = res.tolerances['m_eff(offcentre)']\n"
             "    rows.append((r, t['nominal'], t['lo'], t['hi'], t['first_order_lo'], t['first_order_hi']))\n"
             "band = np.array(rows)\n"
             "np.round(band, 4)"),
    ("md", "The band drawn (an SVG built from the arrays: nominal line, exact band shaded, first order dashed)."),
    ("code", "from IPython.display import SVG\n"
             "def xy(x, y, x0=0.0, x1=0.22, y0=0.0, y1=2.4):\n"
             "    return f'{40 + 400 * (x - x0) / (x1 - x0):.1f},{220 - 200 * (y - y0) / (y1 - y0):.1f}'\n"
             "r = band[:, 0]\n"
             "area = ' '.join(xy(a, b) for a, b in zip(r, band[:, 3])) + ' ' + ' '.join(xy(a, b) for a, b in zip(r[::-1], band[::-1, 2]))\n"
             "line = lambda col, style: f'<polyline points=\"{\" \".join(xy(a, b) for a, b in zip(r, band[:, col]))}\" fill=\"none\" {style}/>'\n"
             "SVG('<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"460\" height=\"240\">'\n"
             "    f'<polygon points=\"{area}\" fill=\"#9ecae1\"/>' + line(1, 'stroke=\"#08519c\"')\n"
             "    + line(4, 'stroke=\"#555\" stroke-dasharray=\"4\"') + line(5, 'stroke=\"#555\" stroke-dasharray=\"4\"')\n"
             "    + '<text x=\"40\" y=\"236\" font-size=\"11\">m_eff (kg) against r from 0.02 m to 0.20 m</text></svg>')"),
    ("md", "Bad input is an exception that says where."),
    ("code", "try:\n    meff.load('title = \"x\"\\n[[body]]\\nname = \"b\"\\ntype = \"rigid\"\\nmass = \"2 m\"\\n')\n"
             "except meff.InputError as err:\n    print(err.file, err.line, err.column, err.message)"),
    ("md", "In a notebook a result shows itself as the calculation sheet (HTML, no JavaScript):"),
    ("code", "result"),
]


def build():
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for kind, src in CELLS:
        nb.cells.append(nbformat.v4.new_markdown_cell(src) if kind == "md" else nbformat.v4.new_code_cell(src))
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": ROOT}}).execute()
    # Deterministic file: no execution times, counts kept.
    for c in nb.cells:
        c.metadata.pop("execution", None)
    return nb


def outputs(nb):
    out = []
    for c in nb.cells:
        if c.cell_type != "code":
            continue
        for o in c.get("outputs", []):
            data = o.get("data", {})
            out.append((o.get("output_type"), o.get("text"), data.get("text/plain"), data.get("text/html")))
    return out


def main():
    nb = build()
    if "--check" in sys.argv:
        committed = nbformat.read(PATH, as_version=4)
        if outputs(committed) != outputs(nb):
            sys.exit(f"{PATH}: the outputs differ from a fresh run; run examples/python/notebook.py")
        print(f"{PATH}: outputs as committed")
    else:
        nbformat.write(nb, PATH)
        print(f"wrote {PATH}")


if __name__ == "__main__":
    main()
