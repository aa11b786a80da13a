#!/usr/bin/env python3
"""Scaling of meff.mpi from 1 to 2 ranks on one scene, against `meff eval`.

Runs, interleaved `--repeat` times: `meff eval SCENE --json --no-verify
--contacts none` once (the single-process answer), then `mpirun -n R python
-m meff.mpi SCENE` for each R in --ranks. Prints one Markdown row per run:
wall and CPU time (the machine is shared: CPU seconds are the comparable
figure), the phases, SLEPc's iterations and products, peak RSS per rank,
the load average before the run, and the largest relative difference of
the top-6 ω from meff eval's.

Usage (the Debian interpreter with petsc4py and meff installed, docs/mpi.md):
  ~/meff-mpi/bin/python benches/mpi.py /tmp/mpi-scale/p3d_100000.scene.toml \
      --meff target/release/meff --ranks 1,2 --repeat 3
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd):
    load = os.getloadavg()[0]
    c0, t0 = cpu_of_children(), time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t0, cpu_of_children() - c0
    if out.returncode != 0:
        sys.exit(f"{cmd} failed:\n{out.stderr}")
    return out.stdout, wall, cpu, load


def phases(p):
    return f"{p['read']:.2f} / {p['operators']:.2f} / {p['solve']:.2f} s"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scene")
    ap.add_argument("--meff", default="target/release/meff")
    ap.add_argument("--ranks", default="1,2")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--operator", default="shell")
    ap.add_argument("--max-input-bytes", default=str(1 << 30))
    a = ap.parse_args()
    launcher = ["mpirun", "--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])
    print("| run | ranks | load avg (1 min) before | wall | CPU, all processes | read / operators / solve (rank 0 wall) "
          "| CPU read / operators / solve per rank | iterations / products | bodies read per rank "
          "| peak RSS per rank after read / at end | top-6 ω max rel. diff from meff eval |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as d:
        for rep in range(a.repeat):
            text, wall, cpu, load = run([a.meff, "eval", a.scene, "--json", "--no-verify", "--contacts", "none",
                                         "--max-input-bytes", a.max_input_bytes])
            ref = [m["omega"] for m in json.loads(text)["modes"][:6]]
            print(f"| {rep + 1} | meff eval | {load:.1f} | {wall:.2f} s | {cpu:.2f} s | | | | | | |")
            for r in [int(x) for x in a.ranks.split(",")]:
                out = os.path.join(d, "m.json")
                _, wall, cpu, load = run(launcher + ["-n", str(r), sys.executable, "-m", "meff.mpi", a.scene,
                                                     "--operator", a.operator, "--json", out,
                                                     "--max-input-bytes", a.max_input_bytes])
                with open(out, encoding="utf-8") as f:
                    doc = json.load(f)
                m = doc["mpi"]
                w = [x["omega"] for x in doc["modes"]]
                diff = max(abs(x - y) / y for x, y in zip(w, ref))
                ph = m["wall_seconds"]
                rss = ", ".join(f"{x / 2**20:.0f} / {y / 2**20:.0f}" for x, y in
                                zip(m["peak_rss_bytes_after_read_per_rank"], m["peak_rss_bytes_per_rank"]))
                read = ", ".join(f"{b:,}" for b in m["bodies_read_per_rank"])
                print(f"| {rep + 1} | {r} | {load:.1f} | {wall:.2f} s | {cpu:.2f} s "
                      f"({', '.join(f'{c:.2f}' for c in m['cpu_seconds_per_rank'])} per rank) "
                      f"| {ph['read']:.2f} / {ph['operators']:.2f} / {ph['solve']:.2f} s "
                      f"| {'; '.join(phases(p) for p in m['cpu_seconds_by_phase_per_rank'])} "
                      f"| {m['iterations']} / {m['products']} | {read} ({m['read']}) | {rss} MiB | {diff:.1e} |",
                      flush=True)


if __name__ == "__main__":
    main()
