//! The sizes that choose the analysis path, shared by the reader (the
//! columnar reader takes only files for the large path) and the analysis.

/// Above this many contacts the dense c×c path gives way to the sparse,
/// matrix-free one (`analysis::large`).
pub const DENSE_CONTACT_LIMIT: usize = 2000;

/// `[analysis] path = "auto"` takes the large-system path above this many
/// contacts when the system has no constraints. Measured on the 2-core
/// development machine (benches/results/scale.md, "dense or large"): the
/// dense analysis — the c×c eigenproblem with every vector — takes 0.09 s
/// at 396 contacts, 0.7 s at 857 and 6 s at 1,506, its default
/// verification by simulation 21 s, 59 s and 138 s, and its JSON (A and
/// every mode shape) 41 MB at 857 and 128 MB at 1,506; the large path
/// takes about 0.02 s at any of these sizes. Up to here the dense path's
/// extras — A itself, every mode, zero modes counted, the simulation —
/// are still worth their cost for a case read contact by contact; beyond
/// it they are not.
pub const LARGE_PATH_ABOVE: usize = 1000;

/// The most parameters with a tolerance whose box is searched corner by
/// corner (2⁸ = 256 evaluations of the model). With more, the corners
/// are those of the `TOLERANCE_CORNER_PARAMETERS` parameters of largest
/// first-order effect, the others held at their nominal values and their
/// first-order effect added (`tolerance` module); the reader checks every
/// corner's validity up to this many and, above, each parameter's ends
/// one at a time and the all-low and all-high corners.
pub const TOLERANCE_CORNER_PARAMETERS: usize = 8;
