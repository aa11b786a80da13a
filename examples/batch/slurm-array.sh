#!/bin/bash
# A Slurm array job: one task per shard, then a dependent merge job.
#
#   jobid=$(sbatch --parsable examples/batch/slurm-array.sh frames/ out/)
#   sbatch --dependency=afterany:$jobid --wrap "meff batch merge out/"
#
# Every task sees the same sorted list of cases and evaluates its own
# round-robin part; the merge checks that all 16 shards are there and
# belong to the same list before it writes anything.
#SBATCH --job-name=meff-batch
#SBATCH --array=1-16
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=01:00:00
set -euo pipefail
cases=$1
out=$2
meff batch "$cases" --shard "${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT}" --out "$out" --no-verify
