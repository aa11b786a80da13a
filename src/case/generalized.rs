//! The `[generalized]` form: coordinates, mass matrix, Jacobian rows and `[[constraint]]` rows.

use super::read::*;
use super::types::*;

impl Reader<'_> {
    pub(super) fn generalized(&mut self, node: &Node, constraints: Option<&Node>) -> Option<Form> {
        let t = self.table(node, "`[generalized]`")?;
        let span = node.span();
        self.keys(t, super::read::GENERALIZED_KEYS, "`[generalized]`");
        let coordinates = self.coordinates(t, &span)?;
        let mass_matrix = self.mass_matrix(t, &span, &coordinates)?;
        let rows_g = self.constraint_rows(constraints, &coordinates);
        Some(Form::Generalized {
            coordinates,
            mass_matrix,
            constraints: rows_g,
        })
    }

    /// `coordinates`: each a name and a coherent SI unit (`None` when one
    /// is not read).
    fn coordinates(&mut self, t: &DeTable, span: &Range<usize>) -> Option<Vec<Coordinate>> {
        let mut coordinates = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let cnode = self.required(t, "coordinates", "`[generalized]`", span)?;
        let items = self.array(cnode, "`coordinates`")?;
        if items.is_empty() {
            self.error(Diagnostic::new(
                cnode.span(),
                "at least one coordinate is needed",
            ));
            return None;
        }
        for item in items {
            let Some(ct) = self.table(item, "a coordinate") else {
                continue;
            };
            self.keys(ct, super::read::COORDINATE_KEYS, "a coordinate");
            let Some(name) = self.name(ct, "a coordinate", &item.span(), &mut seen) else {
                continue;
            };
            let Some(unode) =
                self.required(ct, "unit", &format!("coordinate `{name}`"), &item.span())
            else {
                continue;
            };
            let Some(unit_text) = self.string(unode, "`unit`") else {
                continue;
            };
            match units::parse_unit(&unit_text, true) {
                Ok(u) if u.scale.to_f64() == 1.0 => coordinates.push(Coordinate {
                    name,
                    unit: u.text,
                    dim: u.dim,
                }),
                Ok(_) => self.error(
                    Diagnostic::new(
                        unode.span(),
                        format!("coordinate unit `{unit_text}` is not a coherent SI unit"),
                    )
                    .hint("use m or rad; give the mass matrix and Jacobian in matching SI units"),
                ),
                Err(e) => {
                    let offset = self.content_offset(&unode.span(), &unit_text);
                    let err = ExprError {
                        span: e.span,
                        message: e.message,
                        hints: e.hint.into_iter().collect(),
                    };
                    let d = self.expr_diag(err, &unode.span(), offset);
                    self.error(d);
                }
            }
        }
        if coordinates.len() != items.len() {
            return None;
        }
        Some(coordinates)
    }

    /// `mass_matrix`: one row per coordinate, each entry in the dimension
    /// of its two coordinates, symmetric and positive definite.
    fn mass_matrix(
        &mut self,
        t: &DeTable,
        span: &Range<usize>,
        coordinates: &[Coordinate],
    ) -> Option<Vec<Vec<Val>>> {
        let n = coordinates.len();
        let mnode = self.required(t, "mass_matrix", "`[generalized]`", span)?;
        let rows = self.array(mnode, "`mass_matrix`")?;
        if rows.len() != n {
            self.error(Diagnostic::new(
                mnode.span(),
                format!(
                    "`mass_matrix` must have {n} rows (one per coordinate), found {}",
                    rows.len()
                ),
            ));
            return None;
        }
        let mut mass_matrix = Vec::new();
        let mut ok = true;
        for (i, row) in rows.iter().enumerate() {
            let Some(items) = self.array(row, "a mass matrix row") else {
                ok = false;
                continue;
            };
            if items.len() != n {
                self.error(Diagnostic::new(
                    row.span(),
                    format!(
                        "mass matrix row {} must have {n} entries, found {}",
                        i + 1,
                        items.len()
                    ),
                ));
                ok = false;
                continue;
            }
            let vals: Vec<Option<Val>> = items
                .iter()
                .enumerate()
                .map(|(j, item)| {
                    let dim = Dim::INERTIA.per(coordinates[i].dim).per(coordinates[j].dim);
                    self.value(
                        item,
                        dim,
                        &format!("M[{}][{}]", coordinates[i].name, coordinates[j].name),
                    )
                })
                .collect();
            match vals.into_iter().collect::<Option<Vec<_>>>() {
                Some(r) => mass_matrix.push(r),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        self.check_mass_matrix(&mass_matrix, coordinates, mnode)?;
        Some(mass_matrix)
    }

    /// Symmetry and positive definiteness, at the case's parameter values
    /// (an error at the entry or at `mass_matrix`); records the rule.
    fn check_mass_matrix(
        &mut self,
        mass_matrix: &[Vec<Val>],
        coordinates: &[Coordinate],
        mnode: &Node,
    ) -> Option<()> {
        // Symmetry and positive definiteness, at the case's parameter values.
        let m: Vec<Vec<f64>> = mass_matrix
            .iter()
            .map(|r| r.iter().map(|v| v.si).collect())
            .collect();
        if let Some(&(i, j)) = crate::kinematics::inertia::asymmetries(&m).first() {
            let (a, b) = (m[i][j], m[j][i]);
            self.error(
                Diagnostic::new(
                    mass_matrix[j][i].span.clone(),
                    format!(
                        "the mass matrix is not symmetric: M[{ci}][{cj}] = {a} but M[{cj}][{ci}] = {b}",
                        ci = coordinates[i].name,
                        cj = coordinates[j].name
                    ),
                )
                .hint("a mass matrix is symmetric: write the same entry on both sides of the diagonal"),
            );
            return None;
        }
        if let Some(k) = cholesky_failure(&m) {
            let names: Vec<&str> = coordinates[..=k].iter().map(|c| c.name.as_str()).collect();
            let msg = if k == 0 || m[k][k] <= 0.0 {
                format!(
                    "the mass matrix is not positive definite: M[{c}][{c}] = {} is not positive",
                    m[k][k],
                    c = coordinates[k].name
                )
            } else {
                format!(
                    "the mass matrix is not positive definite over the coordinates ({})",
                    names.join(", ")
                )
            };
            self.error(
                Diagnostic::new(mnode.span(), msg)
                    .hint("kinetic energy must be positive for every motion; check the coupling terms of these coordinates"),
            );
            return None;
        }
        let flat: Vec<Val> = mass_matrix.iter().flatten().cloned().collect();
        self.record(
            super::rules::Rule::PositiveDefinite,
            "the mass matrix",
            &flat,
            mnode.span(),
        );
        Some(())
    }

    /// The `[[constraint]]` rows: one entry per coordinate, each entry
    /// times its coordinate of one rate dimension (a row with a problem is
    /// reported and left out).
    fn constraint_rows(
        &mut self,
        constraints: Option<&Node>,
        coordinates: &[Coordinate],
    ) -> Vec<Vec<Val>> {
        let n = coordinates.len();
        let mut rows_g = Vec::new();
        for (ct, cspan) in self.tables(constraints, "`[[constraint]]`") {
            self.keys(ct, super::read::CONSTRAINT_KEYS, "`[[constraint]]`");
            let Some(jn) = self.required(ct, "jacobian", "`[[constraint]]`", &cspan) else {
                continue;
            };
            let Some(items) = self.array(jn, "`jacobian`") else {
                continue;
            };
            if items.len() != n {
                self.error(Diagnostic::new(
                    jn.span(),
                    format!(
                        "a constraint row must have one entry per coordinate ({n}), found {}",
                        items.len()
                    ),
                ));
                continue;
            }
            // Each G_kj u_j must share one dimension: parse freely, then compare.
            let mut row = Vec::new();
            let mut common: Option<Dim> = None;
            let mut good = true;
            for (item, c) in items.iter().zip(coordinates) {
                let Some((text, e, offset)) = self.parse_value(item, "a constraint entry", None)
                else {
                    good = false;
                    continue;
                };
                if !self.check_names(&e, &item.span(), offset) {
                    good = false;
                    continue;
                }
                match self.env.eval(&e) {
                    Ok(v) => {
                        let dim = v.dim.map(|d| d.times(c.dim));
                        if let (Some(d), Some(cd)) = (dim, common)
                            && d != cd
                        {
                            self.error(Diagnostic::new(item.span(), format!("constraint entries must give one rate dimension: this entry times its coordinate is {d}, an earlier one {cd}")));
                            good = false;
                        }
                        common = common.or(dim);
                        row.push(Val {
                            text,
                            expr: e,
                            span: item.span(),
                            si: v.si,
                            dim: v.dim.unwrap_or(Dim::NONE),
                        });
                    }
                    Err(err) => {
                        let d = self.expr_diag(err, &item.span(), offset);
                        self.error(d);
                        good = false;
                    }
                }
            }
            if good {
                rows_g.push(row);
            }
        }
        rows_g
    }
}
