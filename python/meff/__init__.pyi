"""Type stubs of meff's Python package (the compiled module meff._meff)."""

import os
from typing import Any, Literal, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str

class MeffError(Exception):
    """An error meff reports."""

class InputError(MeffError):
    """Bad input, located in its file (`None` for a scene from arrays)."""

    file: str | None
    line: int | None
    column: int | None
    message: str

class BudgetError(MeffError):
    """Work beyond one of meff's limits (contacts on the dense analysis,
    a large system's dense A, an MjModel's velocities)."""

    requested: int
    limit: int

class Case:
    """A validated case."""

    @property
    def title(self) -> str: ...
    def evaluate(
        self,
        verify: bool = False,
        engine: Literal["mujoco", "box2d", "bullet", "drake", "rapier"] | None = None,  # drake: needs the case's table
    ) -> Result:
        """Runs the analysis (and the time-domain verification when `verify`);
        `engine` also translates the contacts for that engine. Ctrl-C stops it."""

class Result:
    """An evaluated case."""

    @property
    def json(self) -> dict[str, Any]:
        """The document `meff eval --json` writes (keys: docs/json.md)."""
    @property
    def m_eff(self) -> npt.NDArray[np.float64]:
        """Effective mass per contact (kg; NaN when immobile)."""
    @property
    def delassus(self) -> npt.NDArray[np.float64]:
        """The Delassus matrix A = J M⁻¹ Jᵀ (1/kg)."""
    @property
    def mode_omega(self) -> npt.NDArray[np.float64]:
        """Coupled mode frequencies (rad/s), fastest first."""
    @property
    def mode_shapes(self) -> npt.NDArray[np.float64]:
        """Gap-space mode shapes, one row per mode."""
    @overload
    def report(self, format: Literal["html", "md", "json"] = "html", digits: int = 4) -> str: ...
    @overload
    def report(self, format: Literal["pdf"], digits: int = 4) -> bytes: ...
    def _repr_html_(self) -> str: ...

def load(source: Union[str, os.PathLike[str]]) -> Case:
    """A case from a file path, or from TOML text."""

def scene_slice(
    path: Union[str, os.PathLike[str]],
    part: int = 0,
    parts: int = 1,
    max_input_bytes: int = 1 << 30,
) -> dict[str, Any]:
    """Part `part` of `parts` of a scene, by body range, read by itself from an
    NPZ scene: whitened rows J̃ = J L⁻ᵀ (CSR, global columns), stiffness and
    A_ii of the owned contacts (meff.mpi)."""

class Robot:
    """A robot model (MJCF or URDF), compiled once."""

    @staticmethod
    def from_mjcf(path: Union[str, os.PathLike[str]]) -> Robot: ...
    @staticmethod
    def from_urdf(path: Union[str, os.PathLike[str]]) -> Robot: ...
    @staticmethod
    def from_mujoco(model: Any) -> Robot:
        """From a `mujoco.MjModel`, read through its arrays (equality constraints not read)."""
    @property
    def nq(self) -> int: ...
    @property
    def nv(self) -> int: ...
    @property
    def bodies(self) -> list[str]: ...
    @property
    def joints(self) -> list[str]: ...
    @property
    def qpos0(self) -> npt.NDArray[np.float64]: ...
    def configuration(self, values: dict[str, float]) -> npt.NDArray[np.float64]:
        """qpos0 with the named hinges and slides set."""
    def body_pose(
        self, q: npt.ArrayLike, body: str
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """A body's origin and rotation (body axes to world axes) at q."""
    def mass_matrix(self, q: npt.ArrayLike, armature: bool = True) -> npt.NDArray[np.float64]: ...
    def ellipsoid(
        self,
        q: npt.ArrayLike,
        body: str,
        point: npt.ArrayLike,
        frame: Literal["world", "body"] = "world",
        armature: bool = True,
        constrained: bool = True,
    ) -> dict[str, npt.NDArray[np.float64]]:
        """inverse (Λ⁻¹, 3×3, 1/kg), masses (principal, kg, heaviest first), axes (columns)."""
    def effective_mass(
        self,
        q: npt.ArrayLike,
        body: str,
        point: npt.ArrayLike,
        normal: npt.ArrayLike,
        frame: Literal["world", "body"] = "world",
        armature: bool = True,
        constrained: bool = True,
    ) -> Union[float, npt.NDArray[np.float64]]:
        """m_eff at a point of `body` along `normal`; vectorised over q (n, nq) and normals (k, 3)."""
    def contact_speeds(
        self,
        q: npt.ArrayLike,
        qd: npt.ArrayLike,
        body: str,
        point: npt.ArrayLike,
        region: dict[str, float],
        payload: float = 0.0,
        armature: bool = True,
    ) -> dict[str, Union[float, npt.NDArray[np.float64]]]:
        """ISO/TS 15066 Annex A at a point of `body` (body frame) moving with qd: speed, velocity,
        mass_exact (along v), mass_worst_direction, max_speed_exact / _worst_direction / _rule,
        factor_exact, mass_rule; vectorised over q (n, nq) and qd (n, nv)."""

class Scene:
    """A packing from arrays (SI units), validated like a `[scene]`."""

    def __init__(
        self,
        mass: npt.ArrayLike,
        position: npt.ArrayLike,
        inertia: npt.ArrayLike,
        body: npt.ArrayLike,
        other: npt.ArrayLike,
        point: npt.ArrayLike,
        normal: npt.ArrayLike,
        stiffness: npt.ArrayLike,
        damping: Union[npt.ArrayLike, None] = None,
        fixed: Union[npt.ArrayLike, None] = None,
        title: str = "scene",
    ) -> None: ...
    def analyze(self, top: int = 6, shapes: bool = False) -> dict[str, Any]:
        """m_eff, omega, mode_omega[, mode_shapes], omega_max, omega_upper_bound, stable_dt, large_path."""
    def evaluate(self) -> Result: ...
