//! A workspace map (`[map]`, issue 40): every hazard point's permissible
//! speed against each of its regions over a grid of two joints, the
//! other joints at the case's configuration. At each grid pose the
//! point's mass is taken along the map's `direction` (world axes),
//! `1/(uᵀ Λ⁻¹ u)`, or — without one — in the worst direction,
//! `1/λ_min(Λ⁻¹)`; then ISO/TS 15066 Annex A as in `analysis::program`
//! (`μ = (1/m_R + 1/m_H)⁻¹`, v_max by force, energy and pressure, the
//! smallest governing). The rule's v_max (M/2 + m_L) is one number per
//! region: it does not depend on the pose. Where the model has no joint
//! armature the map's mass is a lower bound, and each pose's v_max rests on
//! the larger of it and the rule's (`super::robot::governing`, the person
//! and program verdicts' rule); `min_speed_exact` keeps the mass's own.

use super::program::{block, hazard_points, mass_along, point_responses, transfer, worst_mass};
use super::robot::{Governing, rule_masses};
use crate::case::{Case, Form};
use nalgebra::Vector3;
use serde::Serialize;

/// One hazard point against one region over the grid.
#[derive(Clone, Debug, Serialize)]
pub struct MapGrid {
    /// Hazard point.
    pub hazard: String,
    /// Body region.
    pub region: String,
    /// The point's mass at each grid pose (kg), `[i][j]` at the first
    /// joint's i-th and the second joint's j-th value; `null`: infinite.
    pub mass: Vec<Vec<Option<f64>>>,
    /// v_max at each grid pose (m/s), same layout, with the mass the
    /// verdict rests on there (`mass`, or the rule's where `mass` is a
    /// lower bound and smaller).
    pub max_speed: Vec<Vec<f64>>,
    /// The smallest v_max over the grid with `mass` alone (m/s): an upper
    /// bound, not a limit, when the map's `exact_is_lower_bound`.
    pub min_speed_exact: f64,
    /// The smallest v_max over the grid (m/s).
    pub min_speed: f64,
    /// The largest v_max over the grid (m/s).
    pub max_speed_largest: f64,
    /// The two joint values (SI) where v_max is smallest.
    pub at_min: [f64; 2],
    /// v_max with the rule M/2 + m_L (m/s), the same at every pose.
    pub rule_speed: f64,
}

/// The map section of a report.
#[derive(Clone, Debug, Serialize)]
pub struct MapReport {
    /// The two swept joints.
    pub joints: [String; 2],
    /// `hinge` or `slide` for each (values in rad or m).
    pub kinds: [&'static str; 2],
    /// The grid values of each joint (rad or m).
    pub axes: [Vec<f64>; 2],
    /// The contact direction (world axes, unit); `null`: the worst direction.
    pub direction: Option<[f64; 3]>,
    /// The rule's m_R = M/2 + m_L (kg).
    pub rule_mass: f64,
    /// The model's M has no joint armature: the map's masses are lower
    /// bounds on the real arm's.
    pub exact_is_lower_bound: bool,
    /// Every hazard point against each of its regions.
    pub grids: Vec<MapGrid>,
}

/// The map of a `[model]` case with a `[map]`.
pub fn analyze(case: &Case) -> Option<MapReport> {
    let (Form::Robot(r), Some(map)) = (&case.form, &case.map) else {
        return None;
    };
    let tree = &r.robot.tree;
    let [ja, jb] = map.joints;
    let (na, nb) = (map.axes[0].len(), map.axes[1].len());
    let (moving, payload) = rule_masses(r);
    let rule_mass = moving / 2.0 + payload;
    let lower = super::robot::exact_is_lower_bound(r.armature, super::robot::armature_total(tree));
    let verdict = |m: Option<f64>| match super::robot::governing(m, Some(rule_mass), lower) {
        Governing::Exact => m,
        Governing::RuleOfThumb => Some(rule_mass),
    };
    let points = hazard_points(&map.hazards);
    // masses[i][j][k]: hazard k at grid pose (i, j).
    let masses: Vec<Vec<Vec<Option<f64>>>> = {
        use rayon::prelude::*;
        (0..na)
            .into_par_iter()
            .map(|i| {
                (0..nb)
                    .map(|j| {
                        let mut q = map.base.clone();
                        q[tree.joints[ja].qpos_adr] = map.axes[0][i];
                        q[tree.joints[jb].qpos_adr] = map.axes[1][j];
                        let (_, inv) = point_responses(&r.robot, r.armature, &q, &points);
                        (0..map.hazards.len())
                            .map(|k| {
                                let a = block(inv.as_ref()?, k);
                                match map.direction {
                                    Some(d) => mass_along(&a, &Vector3::from(d)),
                                    None => worst_mass(&a),
                                }
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect()
    };
    let mut grids = Vec::new();
    for (k, h) in map.hazards.iter().enumerate() {
        for &ri in &h.regions {
            let region = &map.regions[ri];
            let mass: Vec<Vec<Option<f64>>> = (0..na)
                .map(|i| (0..nb).map(|j| masses[i][j][k]).collect())
                .collect();
            let max_speed: Vec<Vec<f64>> = mass
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|&m| transfer(verdict(m), region, 1.0).max_speed)
                        .collect()
                })
                .collect();
            let min_speed_exact = mass
                .iter()
                .flatten()
                .map(|&m| transfer(m, region, 1.0).max_speed)
                .fold(f64::INFINITY, f64::min);
            let mut lo = (f64::INFINITY, [map.axes[0][0], map.axes[1][0]]);
            let mut hi = f64::NEG_INFINITY;
            for (i, row) in max_speed.iter().enumerate() {
                for (j, &v) in row.iter().enumerate() {
                    if v < lo.0 {
                        lo = (v, [map.axes[0][i], map.axes[1][j]]);
                    }
                    hi = hi.max(v);
                }
            }
            grids.push(MapGrid {
                hazard: h.name.clone(),
                region: region.name.clone(),
                mass,
                max_speed,
                min_speed_exact,
                min_speed: lo.0,
                max_speed_largest: hi,
                at_min: lo.1,
                rule_speed: transfer(Some(rule_mass), region, 1.0).max_speed,
            });
        }
    }
    let kind = |j: usize| match tree.joints[j].kind {
        crate::kinematics::JointKind::Slide => "slide",
        _ => "hinge",
    };
    Some(MapReport {
        joints: [tree.joints[ja].name.clone(), tree.joints[jb].name.clone()],
        kinds: [kind(ja), kind(jb)],
        axes: map.axes.clone(),
        direction: map.direction,
        rule_mass,
        exact_is_lower_bound: lower,
        grids,
    })
}
