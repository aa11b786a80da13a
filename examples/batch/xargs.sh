#!/bin/sh
# Evaluate every case under CASES in N parallel shards on this machine,
# then merge them into one summary in OUT (batch.json, batch.md, batch.html).
#
#   sh examples/batch/xargs.sh CASES OUT [N]
#
# MEFF names the meff binary (default: meff on PATH). Extra arguments for
# every shard go in MEFF_ARGS (e.g. --no-verify). The shards are
# independent processes: the same command runs them on a cluster
# (slurm-array.sh, k8s-indexed-job.yaml beside this file).
set -eu
cases=$1
out=$2
n=${3:-4}
meff=${MEFF:-meff}
# One process per shard, N at a time. A shard that fails to evaluate a case
# still writes its file (the case is recorded as an error) and exits 2;
# xargs then exits non-zero, and so does this script after the merge.
status=0
seq 1 "$n" | xargs -P "$n" -I{} "$meff" batch "$cases" --shard "{}/$n" --out "$out" ${MEFF_ARGS:-} || status=$?
"$meff" batch merge "$out" || status=$?
exit "$status"
