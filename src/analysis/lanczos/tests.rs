use super::*;

/// The (1, 2, 1) tridiagonal of order n: eigenvalues 2 − 2cos(kπ/(n+1)).
fn laplacian(n: usize) -> (Vec<f64>, Vec<f64>) {
    (vec![2.0; n], vec![-1.0; n - 1])
}

#[test]
fn a_spurious_value_is_passed_over_only_below_a_converged_one() {
    let r = |theta: f64, estimate: f64, spurious: bool| Ritz {
        theta,
        estimate,
        spurious,
        bound: estimate,
    };
    // The largest value is unconverged and called spurious: nothing is
    // accepted (ω_max must not become the second value).
    let list = [r(10.0, 1e-3, true), r(9.0, 0.0, false), r(8.0, 0.0, false)];
    assert!(accepted(&list, 10.0, 6).is_empty());
    // Below a converged value it is passed over.
    let list = [r(10.0, 0.0, false), r(9.5, 1e-3, true), r(9.0, 0.0, false)];
    let got: Vec<f64> = accepted(&list, 10.0, 6).iter().map(|x| x.theta).collect();
    assert_eq!(got, [10.0, 9.0]);
    // A converged value counts whatever the test says; two accepted
    // values closer than their estimates are one.
    let list = [
        r(10.0, 1e-10, true),
        r(10.0 - 1e-10, 1e-10, false),
        r(7.0, 2.0, false),
    ];
    let got: Vec<f64> = accepted(&list, 10.0, 6).iter().map(|x| x.theta).collect();
    assert_eq!(got, [10.0]);
    // Round-off values are zero modes.
    let list = [r(10.0, 0.0, false), r(1e-13, 0.0, false)];
    assert_eq!(accepted(&list, 10.0, 6).len(), 1);
}

#[test]
fn value_bounds_use_the_gap_only_when_it_is_known_and_clear() {
    let r = |theta: f64, estimate: f64| Ritz {
        theta,
        estimate,
        spurious: false,
        bound: f64::NAN,
    };
    let mut list = [r(10.0, 1e-6), r(5.0, 1e-6), r(1.0, 0.1)];
    set_bounds(&mut list, true);
    // e²/δ with δ the distance to the neighbour's interval.
    assert!((list[0].bound - 1e-12 / (5.0 - 1e-6)).abs() < 1e-24);
    assert!((list[1].bound - 1e-12 / (4.0 - 0.1)).abs() < 1e-24);
    // The last value's lower neighbour is unknown: its estimate.
    assert_eq!(list[2].bound, 0.1);
    // A neighbour whose interval reaches the value: no gap, the estimate.
    let mut list = [r(10.0, 1e-3), r(9.9995, 1e-3), r(1.0, 0.0)];
    set_bounds(&mut list, true);
    assert_eq!(list[0].bound, 1e-3);
    assert_eq!(list[1].bound, 1e-3);
    // With mode shapes the residual is what counts.
    let mut list = [r(10.0, 1e-6), r(5.0, 1e-6), r(1.0, 0.1)];
    set_bounds(&mut list, false);
    assert!(list.iter().all(|x| x.bound == x.estimate));
}

#[test]
fn bisection_finds_every_eigenvalue_of_a_known_tridiagonal() {
    let n = 50;
    let (a, b) = laplacian(n);
    let t = Tridiagonal { a: &a, b: &b };
    for k in 1..=n {
        let exact =
            2.0 - 2.0 * (((n + 1 - k) as f64) * std::f64::consts::PI / (n as f64 + 1.0)).cos();
        let got = t.kth_largest(k, t.bounds());
        assert!((got - exact).abs() <= 1e-14, "k={k}: {got} vs {exact}");
        // Inverse iteration gives the sine vector (up to sign).
        let v = t.eigenvector(got);
        let j = (n + 1 - k) as f64;
        let norm = ((n as f64 + 1.0) / 2.0).sqrt();
        let s0 = (j * std::f64::consts::PI / (n as f64 + 1.0)).sin() / norm;
        let sign = if v[0] * s0 < 0.0 { -1.0 } else { 1.0 };
        for (i, x) in v.iter().enumerate() {
            let e = ((i + 1) as f64 * j * std::f64::consts::PI / (n as f64 + 1.0)).sin() / norm;
            assert!((sign * x - e).abs() <= 1e-10, "k={k} i={i}");
        }
    }
}

#[test]
fn copies_are_merged_and_spurious_values_dropped() {
    // 5 twice (a ghost pair: copies that agree to the last bits) and a
    // 3 that the first row does not see (an eigenvalue of T̂ too:
    // spurious): one value survives.
    let a = [5.0, 3.0, 5.0];
    let b = [1e-9, 1e-9];
    let t = Tridiagonal { a: &a, b: &b };
    let (r, top) = ritz_values(t, 1.0, 3);
    assert!((top - 5.0).abs() < 1e-12);
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(!r[0].spurious && r[1].spurious, "{r:?}");
    assert!((r[1].theta - 3.0).abs() < 1e-12);
    // Well-coupled values are all kept, and their estimates are
    // β_m |s_m| of the unit eigenvectors.
    let (a, b) = laplacian(6);
    let t = Tridiagonal { a: &a, b: &b };
    let (r, _) = ritz_values(t, 0.5, 6);
    assert_eq!(r.len(), 6);
    assert!(r.iter().all(|x| !x.spurious));
    for x in &r {
        let s = t.eigenvector(x.theta);
        assert!((x.estimate - 0.5 * s[5].abs()).abs() < 1e-15);
        assert!(x.estimate > 1e-3);
    }
}
