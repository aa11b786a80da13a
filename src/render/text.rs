//! The plain-text summary `meff eval` prints.

use super::number::{sig, time};
use crate::report::Report;
use std::fmt::Write;

/// Lays out rows as aligned columns: first column left, others right.
fn table(header: &[String], rows: &[Vec<String>]) -> String {
    let n = header.len();
    let width = |j: usize| {
        rows.iter()
            .map(|r| r[j].chars().count())
            .chain([header[j].chars().count()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..n).map(width).collect();
    let line = |cells: &[String]| {
        let mut s = String::from("  ");
        for (j, cell) in cells.iter().enumerate() {
            let pad = widths[j] - cell.chars().count();
            if j == 0 {
                s.push_str(cell);
                s.push_str(&" ".repeat(pad));
            } else {
                s.push_str("  ");
                s.push_str(&" ".repeat(pad));
                s.push_str(cell);
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(header);
    for r in rows {
        out.push_str(&line(r));
    }
    out
}

fn opt(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "—".to_string(), |v| sig(v, digits))
}

/// Renders the analysis summary with `digits` significant figures.
pub fn summary(report: &Report, digits: usize) -> String {
    let mut out = String::new();
    let d = digits;
    let _ = writeln!(out, "{}", report.title);
    let _ = writeln!(
        out,
        "{} · {} generalized velocities · {} contact{}{}\n",
        report.space,
        report.dofs,
        report.contacts.len(),
        if report.contacts.len() == 1 { "" } else { "s" },
        if report.constraints.rows > 0 {
            format!(
                " · {} constraint rows (rank {})",
                report.constraints.rows, report.constraints.rank
            )
        } else {
            String::new()
        }
    );

    out.push_str("Effective mass per contact\n");
    let header: Vec<String> = [
        "contact",
        "a (1/kg)",
        "m_eff (kg)",
        "naive (kg)",
        "m_eff/naive",
        "k (N/m)",
        "ω (rad/s)",
        "ω naive (rad/s)",
    ]
    .map(String::from)
    .to_vec();
    let rows: Vec<Vec<String>> = report
        .contacts
        .iter()
        .map(|c| {
            vec![
                c.name.clone(),
                sig(c.a, d),
                if c.immobile {
                    "∞ (immobile)".into()
                } else {
                    opt(c.m_eff, d)
                },
                opt(c.naive_mass, d),
                opt(c.mass_ratio, d),
                sig(c.stiffness, d),
                sig(c.omega, d),
                opt(c.omega_naive, d),
            ]
        })
        .collect();
    out.push_str(&table(&header, &rows));
    if report
        .contacts
        .iter()
        .any(|c| c.zeta.is_some() || c.damping.is_some())
    {
        out.push('\n');
        let header: Vec<String> = ["contact", "c (N s/m)", "ζ"].map(String::from).to_vec();
        let rows: Vec<Vec<String>> = report
            .contacts
            .iter()
            .map(|c| vec![c.name.clone(), opt(c.damping, d), opt(c.zeta, d)])
            .collect();
        out.push_str(&table(&header, &rows));
    }

    if let Some(matrix) = &report.delassus.matrix
        && matrix.len() > 1
    {
        out.push_str("\nDelassus matrix A (1/kg)\n");
        let names = &report.delassus.contacts;
        let header: Vec<String> = std::iter::once(String::new())
            .chain(names.iter().cloned())
            .collect();
        let rows: Vec<Vec<String>> = names
            .iter()
            .zip(matrix)
            .map(|(n, row)| {
                std::iter::once(n.clone())
                    .chain(row.iter().map(|v| sig(*v, d)))
                    .collect()
            })
            .collect();
        out.push_str(&table(&header, &rows));
    }

    out.push_str("\nCoupled modes\n");
    let header: Vec<String> = ["mode", "ω (rad/s)", "f (Hz)", "shape"]
        .map(String::from)
        .to_vec();
    let rows: Vec<Vec<String>> = report
        .modes
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let shape: Vec<String> = m.shape.iter().map(|v| sig(*v, 3.min(d))).collect();
            vec![
                (i + 1).to_string(),
                sig(m.omega, d),
                sig(m.omega / std::f64::consts::TAU, d),
                format!("[{}]", shape.join(", ")),
            ]
        })
        .collect();
    out.push_str(&table(&header, &rows));
    if report.zero_modes > 0 {
        let _ = writeln!(
            out,
            "  zero modes: {} (more contacts than independent motions)",
            report.zero_modes
        );
    }
    if let Some(damped) = &report.damped_modes {
        out.push_str("\nDamped coupled modes\n");
        let header: Vec<String> = ["mode", "ω (rad/s)", "ζ"].map(String::from).to_vec();
        let rows: Vec<Vec<String>> = damped
            .iter()
            .enumerate()
            .map(|(i, m)| vec![(i + 1).to_string(), sig(m.omega, d), sig(m.zeta, d)])
            .collect();
        out.push_str(&table(&header, &rows));
    }

    out.push_str("\nFastest frequency\n");
    let ratio = report
        .coupled_to_independent_ratio
        .map_or(String::new(), |r| {
            format!("  (×{} the independent estimate)", sig(r, d))
        });
    let _ = writeln!(
        out,
        "  independent max_i ω_i      {} rad/s",
        sig(report.independent_omega_max, d)
    );
    let _ = writeln!(
        out,
        "  coupled ω_max              {} rad/s{ratio}",
        sig(report.coupled_omega_max, d)
    );
    let _ = writeln!(
        out,
        "  trace bound √(Σ k_i a_i)   {} rad/s",
        sig(report.coupled_omega_upper_bound, d)
    );

    out.push_str("\nStable explicit timestep (2/ω_max)\n");
    let dt = &report.stable_dt;
    let t = |x: Option<f64>| x.map_or_else(|| "— (nothing moves)".to_string(), |v| time(v, d));
    let _ = writeln!(out, "  coupled       {}", t(dt.coupled));
    let _ = writeln!(out, "  independent   {}", t(dt.independent));
    if let Some(r) = dt.independent_over_coupled
        && r > 1.0 + 1e-9
    {
        let _ = writeln!(
            out,
            "  the independent estimate is {}× too large: unsafe",
            sig(r, d)
        );
    }
    if dt.coupled_damped.is_some() || dt.independent_damped.is_some() {
        let _ = writeln!(
            out,
            "  coupled, damping explicit       {}",
            t(dt.coupled_damped)
        );
        let _ = writeln!(
            out,
            "  independent, damping explicit   {}",
            t(dt.independent_damped)
        );
    }

    if !report.claims.is_empty() {
        out.push_str("\nClaims\n");
        for c in &report.claims {
            let mark = match c.passed {
                Some(true) => "PASS",
                Some(false) => "FAIL",
                None => "????",
            };
            let _ = writeln!(out, "  {mark}  {} = {}  [{}]", c.of, c.equals, c.how);
            if let Some(msg) = &c.message {
                let _ = writeln!(out, "        {msg}");
            }
        }
    }
    out
}
