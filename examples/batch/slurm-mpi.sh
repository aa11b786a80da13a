#!/bin/bash
# One large scene's coupled modes on several nodes (meff.mpi: SLEPc on MPI;
# docs/mpi.md has the install, the build and what each rank holds).
#
#   sbatch examples/batch/slurm-mpi.sh pile.toml modes.json
#
# Every rank reads the case and, of an NPZ scene saved with np.savez (not
# savez_compressed), only the rows of bodies n·r/P … n·(r+1)/P − 1, their
# contacts and the bodies those touch; SLEPc finds the fastest modes of
# K^½ J M⁻¹ Jᵀ K^½ across all ranks; rank 0 writes the JSON. Size the job
# by memory per rank, which falls with the ranks (docs/mpi.md, "What it
# costs"); past 1 GiB of rows a rank, raise --max-input-bytes.
#SBATCH --job-name=meff-mpi
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=8
#SBATCH --cpus-per-task=1
#SBATCH --mem=0
#SBATCH --time=01:00:00
set -euo pipefail
case=$1
out=${2:-modes.json}
# The environment docs/mpi.md builds: Debian's python3 with its
# petsc4py/slepc4py, and meff's extension installed into it.
source "${MEFF_MPI_VENV:-$HOME/meff-mpi}/bin/activate"
# One thread per rank: the ranks fill the cores.
export RAYON_NUM_THREADS=1 OMP_NUM_THREADS=1
# OpenMPI's mpirun starts one rank per Slurm task (srun --mpi=pmix where the
# site's OpenMPI is built with PMIx).
mpirun python -m meff.mpi "$case" --json "$out" \
  --max-input-bytes "${MEFF_MAX_INPUT_BYTES:-$((1 << 30))}"
