#!/usr/bin/env python3
"""meff from a LAMMPS dump against SciPy eigsh on the same assembled matrix, in one run.

For each size: the packing of ../shared/perf/gen_packing.py (3-d spheres, uniform
stiffness: one contact law for every contact, as a dump's case gives) is written
by tests/cases/dump/make.py --out as a LAMMPS dump plus the generator's arrays
(OUT.npz); SciPy (../shared/perf/baseline.py worker, method `op`: eigsh k=6,
tol=1e-10 on a LinearOperator over the assembled J, M) runs on the arrays, and
`meff eval --json --no-verify --contacts none` on the dump's case (reading the
dump, finding the contacts with the cell grid, the analysis, the JSON) with
MEFF_TIMINGS=1; both in fresh processes, peak RSS by /usr/bin/time. The case's
contact rule (gap below 0.001 R0, the floor z = 0) is the generator's, so both
see the same contacts (checked: the counts are compared, and the top-6 ω).
`--no-scipy SIZE,…` skips SciPy for those sizes (10^6: minutes). The machine's
load (1-minute average) is read before and after each row.

Usage (from the repository root, after `cargo build --release`):
  python3 benches/dem.py --perf ../shared/perf --sizes 100000,1000000 --no-scipy 1000000 --out benches/results/dem.md
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np


def run(cmd, env=None):
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    if p.returncode != 0:
        raise SystemExit(f"{cmd[0]} failed: {p.stderr[-3000:]}")
    return p, wall, int(p.stderr.strip().splitlines()[-1]) / 1024


def load():
    return os.getloadavg()[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--perf", default="../shared/perf")
    ap.add_argument("--sizes", default="100000")
    ap.add_argument("--no-scipy", default="")
    ap.add_argument("--data", default="/tmp/meff-dem")
    ap.add_argument("--meff", default="target/release/meff")
    ap.add_argument("--out")
    a = ap.parse_args()
    os.makedirs(a.data, exist_ok=True)
    skip = {int(x) for x in a.no_scipy.split(",") if x}
    rows = []
    for n in [int(x) for x in a.sizes.split(",")]:
        base = os.path.join(a.data, f"d3d_{n}")
        if not os.path.exists(base + ".dump"):
            t = time.perf_counter()
            subprocess.run([sys.executable, "tests/cases/dump/make.py", os.path.join(a.perf, "gen_packing.py"),
                            "--n", str(n), "--out", base], check=True)
            print(f"{n}: dump written in {time.perf_counter() - t:.1f} s", file=sys.stderr)
        load0 = load()
        sc, ref = None, None
        if n not in skip:
            res = os.path.join(a.data, "res")
            os.makedirs(res, exist_ok=True)
            p, _, _ = run([sys.executable, os.path.join(a.perf, "baseline.py"), "worker", "--case", base,
                           "--method", "op", "--res", res])
            sc = json.loads(p.stdout.strip().splitlines()[-1])
            ref = np.sqrt(np.load(os.path.join(res, f"d3d_{n}.op.npz"))["w6"])
        env = dict(os.environ, MEFF_TIMINGS="1")
        p, wall, rss = run([a.meff, "eval", base + ".dump.toml", "--json", "--no-verify", "--contacts", "none"], env=env)
        load1 = load()
        d = json.loads(p.stdout)
        marks = dict((l.split()[1], float(l.split()[2])) for l in p.stderr.splitlines() if l.startswith("meff-timing "))
        ours = np.array([m["omega"] for m in d["modes"]])
        gen = np.load(base + ".npz")
        agree = float(np.max(np.abs(ours[:len(ref)] - ref) / ref)) if ref is not None else float("nan")
        rows.append(dict(n=n, c=d["contacts_total"], c_gen=len(gen["stiffness"]), wall=wall, rss=rss,
                         read=marks.get("read", float("nan")), dt=d["stable_dt"]["coupled"],
                         omega=d["coupled_omega_max"], steps=d["large"]["lanczos_steps"],
                         sc=sc, agree=agree, ref_max=float(ref.max()) if ref is not None else None, load=(load0, load1), size=os.path.getsize(base + ".dump")))
        print(rows[-1], file=sys.stderr)
    lines = ["| spheres | dump | contacts (meff / generator) | SciPy eigsh k=6 | SciPy total (build+eig) | SciPy RSS | "
             "meff wall (dump → JSON) | of which reading + contact search | meff / SciPy eigsh | meff RSS | "
             "Lanczos steps | coupled Δt = 2/ω_max (meff / SciPy) | top-6 ω max rel. diff | load (1 min) before/after |",
             "|" + "---|" * 14]
    for r in rows:
        sc = r["sc"]
        s_eig = f"{sc['times']['eig6']:.2f} s" if sc else "–"
        s_tot = f"{sc['times']['total']:.2f} s" if sc else "–"
        s_rss = f"{sc['peak_rss_mib']:.0f} MiB" if sc else "–"
        ratio = f"{r['wall'] / sc['times']['eig6']:.2f}" if sc else "–"
        agree = f"{r['agree']:.1e}" if sc else "–"
        scipy_dt = f"{2e6 / r['ref_max']:.6f}" if sc else "–"
        lines.append(f"| {r['n']} | {r['size'] / 2**20:.0f} MiB | {r['c']} / {r['c_gen']} | {s_eig} | {s_tot} | {s_rss} | "
                     f"{r['wall']:.2f} s | {r['read']:.2f} s | {ratio} | {r['rss']:.0f} MiB | {r['steps']} | "
                     f"{r['dt'] * 1e6:.6f} / {scipy_dt} µs | {agree} | {r['load'][0]:.1f} / {r['load'][1]:.1f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
