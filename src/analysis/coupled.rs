//! What the large path builds and reports: the coupled stiffness matrix
//! ([`Coupled`]) and the figures of its Lanczos run ([`LargeInfo`]).

use super::local_csr::LocalCsr;
use super::order::RowOrder;

/// What the large path found beyond the common results.
#[derive(Clone, Debug, PartialEq)]
pub struct LargeInfo {
    /// Steps of the Lanczos recurrence (the Krylov dimension).
    pub lanczos_steps: usize,
    /// Products with S in all (the replay for mode shapes and the residual
    /// checks included).
    pub products: usize,
    /// Modes asked for.
    pub modes_requested: usize,
    /// How many of the fastest modes converged (in order from the fastest).
    pub modes_converged: usize,
    /// `sqrt(max_i Σ_j |S_ij|)`, a safe upper bound on ω_max.
    pub gershgorin_omega: f64,
    /// Largest relative residual of a reported mode, `/ θ_max`: the true
    /// `|S y − θ y|` when mode shapes were formed, else the Ritz estimate.
    pub max_residual: f64,
    /// `"true"` or `"estimate"`: which residual `max_residual` is.
    pub residual_kind: &'static str,
    /// Largest bound on a reported value's distance to its eigenvalue,
    /// `/ θ_max`: with mode shapes the smaller of the Ritz estimate and the
    /// measured residual, for values alone `min(e, e²/δ)` (what
    /// convergence was judged by).
    pub max_value_error: f64,
    /// Nonzero entries of S (both triangles).
    pub nnz: usize,
    /// Entries of S stored (a coupling between nearby rows once).
    pub stored: usize,
}

/// The coupled stiffness matrix `S = K^½ J̃ J̃ᵀ K^½` of the large path
/// (A is `S_ij / √(k_i k_j)`), with `A_ii` as computed from J̃.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Coupled {
    /// S (symmetric; nearby couplings stored once, see `local_csr.rs`).
    pub s: LocalCsr,
    /// `√k_i`.
    pub sqrt_k: Vec<f64>,
    /// `A_ii = |J̃_i|²`.
    pub diag: Vec<f64>,
    /// The rows' contacts, when S is not stored in contact order
    /// (`order.rs`); `sqrt_k` and `diag` are always in contact order.
    pub order: Option<RowOrder>,
}

impl Coupled {
    /// Entry (i, j) of A (contacts as given).
    pub fn a(&self, i: usize, j: usize) -> f64 {
        if i == j {
            return self.diag[i];
        }
        let row = |k: usize| self.order.as_ref().map_or(k, |o| o.row(k));
        self.s.get(row(i), row(j)) / (self.sqrt_k[i] * self.sqrt_k[j])
    }

    /// The contact stored as row `r` of S.
    pub fn contact_of(&self, r: usize) -> usize {
        self.order.as_ref().map_or(r, |o| o.contact(r))
    }

    /// `max_i Σ_j |S_ij|`: the Gershgorin bound on λ_max(S).
    pub fn gershgorin(&self) -> f64 {
        self.s.max_abs_row_sum()
    }

    /// The Gershgorin bound on λ_max(C^½ A C^½) = λ_max(D S D),
    /// `D = diag √(c_i/k_i)`, for dashpots `c` (contacts as given).
    pub fn gershgorin_damped(&self, c: &[f64]) -> f64 {
        let d: Vec<f64> = (0..self.sqrt_k.len())
            .map(|r| {
                let i = self.contact_of(r);
                (c[i].max(0.0)).sqrt() / self.sqrt_k[i]
            })
            .collect();
        self.s.max_weighted_abs_row_sum(&d)
    }
}
