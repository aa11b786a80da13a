"""meff: the effective mass a normal contact sees in a multibody system,
and what it does to penalty-contact time scales.

    >>> import meff
    >>> meff.load("cases/offcentre.toml").evaluate().m_eff
    array([1.])

A thin layer over the Rust library: ``load`` reads a case file (or TOML
text), ``Case.evaluate`` runs the analysis, ``Result`` gives the JSON
document of ``meff eval --json`` and NumPy arrays; ``Robot`` reads an MJCF
or URDF model once and evaluates mass matrices and effective masses at
many configurations. See docs/python.md.
"""

from ._meff import BudgetError, Case, InputError, MeffError, Result, Robot, Scene, __version__, load, scene_slice

__all__ = ["BudgetError", "Case", "InputError", "MeffError", "Result", "Robot", "Scene", "__version__", "load", "scene_slice"]
