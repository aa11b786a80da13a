#!/usr/bin/env python3
"""meff against the SciPy baseline on seeded packings, side by side in one run.

For each size: generate the packing (../shared/perf/gen_packing.py --scene;
`u<N>` in --sizes means uniform stiffness, the clustered-spectrum case), run
the SciPy reference (../shared/perf/baseline.py, method `op`: eigsh k=6,
tol=1e-10 on a LinearOperator) and `meff eval --json --no-verify --contacts
none` on the scene's NPZ case with MEFF_TIMINGS=1 (phase times and RSS on
stderr), both in fresh processes, and a STREAM-like triad for the machine's
memory bandwidth. Writes a Markdown table (stdout and --out) with wall
times, peak RSS, the agreement of the top-6 ω and the time per Lanczos
step against the bytes that step must move.

Usage (from the repository root, after `cargo build --release`):
  python3 benches/scale.py --perf ../shared/perf --sizes 10000,100000,u170000,1000000 --out benches/results/scale.md
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import time

import numpy as np


def triad_gbs():
    n = 32 * 2**20  # 256 MiB per array
    a = np.zeros(n); b = np.ones(n); c = np.ones(n)
    best = 1e9
    for _ in range(5):
        t = time.perf_counter()
        np.multiply(c, 1.0000001, out=a); a += b  # a = b + s*c (two passes, numpy has no fused triad)
        best = min(best, time.perf_counter() - t)
    # Bytes moved: pass 1 reads c, writes a; pass 2 reads a and b, writes a.
    return 5 * 8 * n / best / 1e9


def run(cmd, env=None):
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    if p.returncode != 0:
        raise SystemExit(f"{cmd[0]} failed: {p.stderr[-2000:]}")
    rss_kib = int(p.stderr.strip().splitlines()[-1])
    return p, wall, rss_kib / 1024


def ensure_packing(perf, base, dim, n, extra=()):
    """Generates the scene packing `base` (gen_packing.py --scene) unless it exists."""
    if not os.path.exists(base + ".scene.npz"):
        subprocess.run([sys.executable, os.path.join(perf, "gen_packing.py"), "--dim", str(dim), "--n", str(n),
                        "--scene", "--no-toml", "--out", base] + list(extra), check=True, capture_output=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--perf", default="../shared/perf")
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--data", default="/tmp/meff-scale")
    ap.add_argument("--meff", default="target/release/meff")
    ap.add_argument("--out")
    ap.add_argument("--toml-sizes", default="",
                    help="sizes whose TOML case (gen_packing's, no scene) is read: peak RSS while reading vs file size")
    ap.add_argument("--crossover-sizes", default="",
                    help="2-d packings (bodies) run down both paths ([analysis] path = dense / large): "
                         "the measurement behind LARGE_PATH_ABOVE")
    ap.add_argument("--crossover-verify", action="store_true",
                    help="also time the dense path's default verification by simulation (minutes)")
    a = ap.parse_args()
    os.makedirs(a.data, exist_ok=True)
    rows = []
    bw = triad_gbs()
    for size in a.sizes.split(","):
        uniform = size.startswith("u")
        n = int(size.lstrip("u"))
        stem = f"{'u' if uniform else 'p'}3d_{n}"
        base = os.path.join(a.data, stem)
        ensure_packing(a.perf, base, 3, n, ["--kmin", "1e5", "--kmax", "1e5"] if uniform else [])
        res = os.path.join(a.data, "res")
        os.makedirs(res, exist_ok=True)
        p, _, _ = run([sys.executable, os.path.join(a.perf, "baseline.py"), "worker", "--case", base,
                       "--method", "op", "--res", res])
        sc = json.loads(p.stdout.strip().splitlines()[-1])
        ref = np.sqrt(np.load(os.path.join(res, f"{stem}.op.npz"))["w6"])
        env = dict(os.environ, MEFF_TIMINGS="1")
        p, wall, rss = run([a.meff, "eval", base + ".scene.toml", "--json", "--no-verify", "--contacts", "none"], env=env)
        d = json.loads(p.stdout)
        marks = dict((l.split()[1], float(l.split()[2])) for l in p.stderr.splitlines() if l.startswith("meff-timing "))
        detail = {}
        for l in p.stderr.splitlines():
            if l.startswith("meff-timing-detail lanczos"):
                detail = dict(kv.split("=") for kv in l.split()[2:])
        ours = np.array([m["omega"] for m in d["modes"]])
        agree = float(np.max(np.abs(ours[:len(ref)] - ref) / ref)) if len(ours) >= len(ref) else float("nan")
        L = d["large"]
        steps = max(L["lanczos_steps"], 1)
        rows.append(dict(n=size, c=d["contacts_total"], scipy_eig=sc["times"]["eig6"], scipy_total=sc["times"]["total"],
                         scipy_rss=sc["peak_rss_mib"], scipy_mv=sc.get("matvecs_eig6"), meff_wall=wall, meff_rss=rss,
                         meff_lanczos=marks.get("lanczos", 0) - marks.get("gershgorin", 0),
                         steps=L["lanczos_steps"], products=L["products"],
                         product=float(detail.get("product_s", "nan")) / steps,
                         step=float(detail.get("first_pass_s", "nan")) / steps,
                         nnz=L["nnz"], stored=L.get("stored", L["nnz"]), agree=agree,
                         converged=L["modes_converged"]))
    lines = [f"STREAM-like triad (numpy, 256 MiB arrays): {bw:.1f} GB/s", "",
             "| bodies | contacts | SciPy eigsh k=6 | SciPy total (build+eig) | SciPy RSS | ARPACK products | "
             "meff wall (read → JSON) | meff / SciPy eigsh | meff Lanczos | meff RSS | meff Lanczos steps | modes converged | "
             "product / bound | step (product + vector passes + checks) / bound | top-6 ω max rel. diff |",
             "|" + "---|" * 15]
    for r in rows:
        # Bytes a product must move: S once (8-byte value + 2-byte column
        # offset per stored entry, a mirrored pair once; two 4-byte starts
        # per row), x gathered, the previous vector read and y written. A
        # step adds one vector pass (w -= a v with |w|^2: read w and v,
        # write w).
        c = r["c"]
        product_bytes = 10 * r["stored"] + 8 * c + 3 * 8 * c
        step_bytes = product_bytes + 3 * 8 * c
        pb, sb = product_bytes / (bw * 1e9), step_bytes / (bw * 1e9)
        lines.append(f"| {r['n']} | {c} | {r['scipy_eig']:.2f} s | {r['scipy_total']:.2f} s | {r['scipy_rss']:.0f} MiB | "
                     f"{r['scipy_mv']} | {r['meff_wall']:.2f} s | {r['meff_wall'] / r['scipy_eig']:.2f} | {r['meff_lanczos']:.2f} s | {r['meff_rss']:.0f} MiB | "
                     f"{r['steps']} | {r['converged']} | "
                     f"{r['product']*1e3:.1f} / {pb*1e3:.1f} ms | {r['step']*1e3:.1f} / {sb*1e3:.1f} ms | {r['agree']:.1e} |")
    toml_rows = []
    for size in [x for x in a.toml_sizes.split(",") if x]:
        n = int(size)
        base = os.path.join(a.data, f"t3d_{n}")
        if not os.path.exists(base + ".toml"):
            subprocess.run([sys.executable, os.path.join(a.perf, "gen_packing.py"), "--dim", "3", "--n", str(n),
                            "--out", base], check=True, capture_output=True)
        env = dict(os.environ, MEFF_TIMINGS="1")
        p, wall, rss = run([a.meff, "eval", base + ".toml", "--json", "--no-verify", "--contacts", "none"], env=env)
        marks = dict((l.split()[1], [float(x) for x in l.split()[2:]]) for l in p.stderr.splitlines()
                     if l.startswith("meff-timing "))
        mib = os.path.getsize(base + ".toml") / 2**20
        toml_rows.append(f"| {n} | {mib:.1f} MiB | {marks['read'][0]:.2f} s | {marks['read'][2]:.0f} MiB | "
                         f"{marks['read'][2] / mib:.2f} | {wall:.2f} s | {rss:.0f} MiB |")
    if toml_rows:
        lines += ["", "TOML case files (gen_packing's `OUT.toml`: a `[[body]]` and `[[contact]]` table each, values as "
                  "quantity strings), read by `meff eval --json --no-verify --contacts none`: the peak resident memory "
                  "at the end of reading (`MEFF_TIMINGS` mark `read`) against the file's size.", "",
                  "| bodies | file | reading | peak RSS while reading | ratio to file | meff wall | meff peak RSS |",
                  "|---|---|---|---|---|---|---|"] + toml_rows
    cross = []
    for size in [x for x in a.crossover_sizes.split(",") if x]:
        n = int(size)
        base = os.path.join(a.data, f"p2d_{n}")
        ensure_packing(a.perf, base, 2, n)
        scene = open(base + ".scene.toml").read()
        got = {}
        for path in ("dense", "large"):
            case = f"{base}.{path}.toml"
            with open(case, "w") as f:
                f.write(scene.replace("[scene]", f'[analysis]\npath = "{path}"\n\n[scene]', 1))
            p, wall, rss = run([a.meff, "eval", case, "--json", "--no-verify"])
            got[path] = (json.loads(p.stdout), wall, len(p.stdout.encode()))
            if path == "dense" and a.crossover_verify:
                _, vwall, _ = run([a.meff, "eval", case, "--json"])
                got["verify"] = vwall
        (dd, dw, ds), (ld, lw, ls) = got["dense"], got["large"]
        diff = abs(dd["coupled_omega_max"] - ld["coupled_omega_max"]) / dd["coupled_omega_max"]
        v = f"{got['verify']:.1f} s" if "verify" in got else "–"
        cross.append(f"| {n} | {dd['contacts_total']} | {dw:.2f} s | {v} | {ds / 1e6:.1f} MB | {lw:.3f} s | "
                     f"{ls / 1e3:.0f} kB | {diff:.1e} |")
    if cross:
        lines += ["", "Dense or large (the measurement behind `LARGE_PATH_ABOVE`): 2-d packings run down both paths "
                  "(`[analysis] path`), `meff eval --json --no-verify` with the default contact listing, and the "
                  "dense path's default run with its verification by simulation.", "",
                  "| bodies | contacts | dense | dense with verification | dense JSON | large | large JSON | "
                  "ω_max rel. diff |", "|---|---|---|---|---|---|---|---|"] + cross
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
