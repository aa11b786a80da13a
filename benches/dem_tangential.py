#!/usr/bin/env python3
"""meff from a LAMMPS dump with tangential springs (three rows per contact) against SciPy eigsh
on the same assembled matrix, in one run (issue 38, "Speed and memory").

For each size: the packing of ../shared/perf/gen_packing.py written as a LAMMPS dump by
tests/cases/dump/make.py --out (as benches/dem.py does), and a case reading it whose contact law
adds a tangential spring, `contact = { stiffness = "1e5 N/m", tangential_ratio = R }`. SciPy (this
script's `worker`, a fresh process) assembles from the generator's arrays J over every row — the
normal and two tangents per contact, in meff's basis (docs/case-format.md: t1 from the world axis
least aligned with n, first on a tie, projected on the contact plane; t2 = n x t1) — and M^-1, and
runs eigsh (k = 6, which = "LA", tol 1e-10) on the LinearOperator x -> K^1/2 J M^-1 J^T K^1/2 x. meff
runs `eval --json --no-verify --contacts none` on the case (reading the dump, the contact search,
the model, both large-path analyses — the normal rows alone and every row — and the JSON). Both in
fresh processes; wall, user+system CPU and peak RSS from /usr/bin/time; the 1-minute load average
before and after. The ω over every row meff lists (the large path seeks ω_max alone) are compared with
SciPy's top ones, and the Rayleigh-time rule
dt_R = pi R sqrt(rho/G) / (0.1631 nu + 0.8766) (R the smallest radius) is divided by meff's
coupled step over every row, 2/omega_max.

Usage (from the repository root, after `cargo build --release`):
  python3 benches/dem_tangential.py --perf ../shared/perf --sizes 100000,1000000 --no-scipy 1000000
"""
import argparse
import json
import math
import os
import resource
import subprocess
import sys
import time

import numpy as np

RATIO = 0.8  # k_t / k_n (Mindlin's 2(1-nu)/(2-nu) is 0.82 at nu = 0.3)
K = 1e5
# Steel-like values for the Rayleigh rule (the packing's own density is 2500 kg/m^3).
STEEL = dict(G=79.3e9, nu=0.29, rho=7850.0)


def tangents(n):
    """meff's tangent basis (src/case/tangential.rs, tangent_basis) for unit normals n (c, 3)."""
    a = np.abs(n)
    k = np.zeros(len(n), dtype=np.int64)
    for i in (1, 2):
        k = np.where(a[:, i] < a[np.arange(len(n)), k], i, k)
    u = np.zeros_like(n)
    u[np.arange(len(n)), k] = 1.0
    p = u - (u * n).sum(1)[:, None] * n
    t1 = p / np.linalg.norm(p, axis=1)[:, None]
    return t1, np.cross(n, t1)


def worker(base, ratio):
    import scipy.sparse as sp
    from scipy.sparse.linalg import LinearOperator, eigsh
    t0 = time.perf_counter()
    d = np.load(base + ".npz")
    pos, mass, inertia = d["pos"], d["mass"], d["inertia"]
    body, other = d["body"].astype(np.int64), d["other"].astype(np.int64)
    p, n, k = d["point"], d["normal"], d["stiffness"]
    N, c = len(mass), len(k)
    t1, t2 = tangents(n)
    rows, cols, vals = [], [], []
    m = other >= 0
    for j, dirs in enumerate((n, t1, t2)):
        r = 3 * np.arange(c) + j
        for who, sign, sel in ((body, 1.0, np.ones(c, bool)), (other, -1.0, m)):
            b = who[sel]
            part = sign * np.hstack([dirs[sel], np.cross(p[sel] - pos[b], dirs[sel])])
            rows.append(np.repeat(r[sel], 6))
            cols.append((b[:, None] * 6 + np.arange(6)).ravel())
            vals.append(part.ravel())
    J = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(3 * c, 6 * N))
    J.sum_duplicates()
    Jt = J.T.tocsr()
    Iinv = np.linalg.inv(inertia)
    minv_t = 1.0 / mass

    def minv(v):
        v = v.reshape(N, 6)
        out = np.empty_like(v)
        out[:, :3] = v[:, :3] * minv_t[:, None]
        out[:, 3:] = np.einsum("nij,nj->ni", Iinv, v[:, 3:])
        return out.ravel()

    kr = np.empty(3 * c)
    kr[0::3] = k
    kr[1::3] = ratio * k
    kr[2::3] = ratio * k
    sk = np.sqrt(kr)
    count = [0]

    def mv(x):
        count[0] += 1
        x = np.asarray(x).ravel()
        return sk * (J @ minv(Jt @ (sk * x)))

    t_build = time.perf_counter() - t0
    op = LinearOperator((3 * c, 3 * c), matvec=mv, dtype=np.float64)
    t1_ = time.perf_counter()
    w = eigsh(op, k=6, which="LA", tol=1e-10, v0=np.random.default_rng(12345).standard_normal(3 * c),
              return_eigenvectors=False)
    t_eig = time.perf_counter() - t1_
    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps(dict(rows=3 * c, contacts=c, omega=np.sqrt(np.sort(w)[::-1]).tolist(), build=t_build,
                          eig=t_eig, matvecs=count[0], rss=ru.ru_maxrss / 1024, cpu=ru.ru_utime + ru.ru_stime,
                          rmin=float(d["radius"].min()))))


def timed(cmd, env=None):
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M %U %S"] + cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    if p.returncode != 0:
        raise SystemExit(f"{cmd[0]} failed: {p.stderr[-3000:]}")
    rss, user, sys_ = p.stderr.strip().splitlines()[-1].split()
    return p, wall, int(rss) / 1024, float(user) + float(sys_)


def rayleigh(r, G, nu, rho):
    return math.pi * r * math.sqrt(rho / G) / (0.1631 * nu + 0.8766)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", nargs="?", default="run")
    ap.add_argument("--case")
    ap.add_argument("--perf", default="../shared/perf")
    ap.add_argument("--sizes", default="100000")
    ap.add_argument("--no-scipy", default="")
    ap.add_argument("--data", default="/tmp/meff-dem")
    ap.add_argument("--meff", default="target/release/meff")
    ap.add_argument("--ratio", type=float, default=RATIO)
    a = ap.parse_args()
    if a.mode == "worker":
        return worker(a.case, a.ratio)
    os.makedirs(a.data, exist_ok=True)
    skip = {int(x) for x in a.no_scipy.split(",") if x}
    lines = []
    for n in [int(x) for x in a.sizes.split(",")]:
        base = os.path.join(a.data, f"d3d_{n}")
        if not os.path.exists(base + ".dump"):
            subprocess.run([sys.executable, "tests/cases/dump/make.py", os.path.join(a.perf, "gen_packing.py"),
                            "--n", str(n), "--out", base, "--k", repr(K)], check=True)
        case = base + ".t.dump.toml"
        with open(base + ".dump.toml") as f:
            text = f.read()
        old = f'contact = {{ stiffness = "{K!r} N/m" }}'
        assert old in text, text
        with open(case, "w") as f:
            f.write(text.replace(old, f'contact = {{ stiffness = "{K!r} N/m", tangential_ratio = {a.ratio!r} }}'))
        load0 = os.getloadavg()[0]
        sc = None
        if n not in skip:
            p, s_wall, s_rss, s_cpu = timed([sys.executable, __file__, "worker", "--case", base, "--ratio", repr(a.ratio)])
            sc = json.loads(p.stdout.strip().splitlines()[-1])
            sc.update(wall=s_wall, rss_time=s_rss, cpu_time=s_cpu)
            print(json.dumps(sc), file=sys.stderr)
        load1 = os.getloadavg()[0]
        env = dict(os.environ, MEFF_TIMINGS="1")
        p, wall, rss, cpu = timed([a.meff, "eval", case, "--json", "--no-verify", "--contacts", "none"], env=env)
        load2 = os.getloadavg()[0]
        d = json.loads(p.stdout)
        tg = d["tangential"]
        ours = np.array([m["omega"] for m in tg["modes"]])
        agree = (float(np.max(np.abs(ours[:6] - np.array(sc["omega"][:len(ours)])) / ours[:6]))
                 if sc and len(ours) else float("nan"))
        dt = tg["dt_undamped"]
        rmin = float(np.load(base + ".npz")["radius"].min())
        ray_steel = rayleigh(rmin, **STEEL)
        ray_glass = rayleigh(rmin, STEEL["G"], STEEL["nu"], 2500.0)
        row = dict(n=n, contacts=d["contacts_total"], rows=len(tg["rows"]) if tg["rows"] else 3 * d["contacts_total"],
                   meff_wall=wall, meff_cpu=cpu, meff_rss=rss, dt_with=dt, dt_without=tg["dt_without"],
                   steps=d["large"]["lanczos_steps"], omega=ours.tolist(), scipy=sc, agree=agree,
                   rayleigh_steel=ray_steel, rayleigh_rho2500=ray_glass, load=(load0, load1, load2),
                   setting=tg["setting_rows"][:3])
        print(json.dumps(row), file=sys.stderr)
        s_eig = f"{sc['eig']:.1f} s" if sc else "–"
        s_all = f"{sc['wall']:.1f} s / {sc['cpu_time']:.1f} s" if sc else "–"
        s_rss = f"{sc['rss_time']:.0f} MiB" if sc else "–"
        ratio = f"{wall / sc['eig']:.2f}" if sc else "–"
        lines.append(f"| {n} | {d['contacts_total']} | {3 * d['contacts_total']} | {s_eig} | {s_all} | {s_rss} | "
                     f"{wall:.1f} s / {cpu:.1f} s | {ratio} | {rss:.0f} MiB | {row['steps']} | "
                     f"{dt * 1e6:.4f} / {tg['dt_without'] * 1e6:.4f} µs | "
                     f"{agree:.1e} | {ray_steel / dt:.2f} ({ray_glass / dt:.2f}) | "
                     f"{load0:.1f} / {load1:.1f} / {load2:.1f} |")
    head = ["| spheres | contacts | rows | SciPy eigsh k=6 | SciPy process wall / CPU | SciPy RSS | meff wall / CPU (dump → JSON) "
            "| meff wall / SciPy eigsh | meff RSS | Lanczos steps, normal rows | Δt with / without tangential springs | ω rel. diff over the modes meff lists (ω_max) "
            "| Rayleigh Δt_R / meff Δt, steel (ρ 2500) | load before SciPy / before meff / after |",
            "|" + "---|" * 14]
    print("\n".join(head + lines))


if __name__ == "__main__":
    main()
