//! Tests of the plots: deterministic SVG, labels, ticks.

mod plots {
    use super::super::*;

    #[test]
    fn plots_are_deterministic_svg() {
        let s = vec![Series {
            label: "m_eff".into(),
            points: vec![(0.0, 2.0), (0.1, 1.0), (0.2, 0.4)],
            dashed: false,
            markers: true,
        }];
        let a = line_plot(&s, "r (m)", "m_eff (kg)", Scale::Linear, Scale::Linear);
        assert_eq!(
            a,
            line_plot(&s, "r (m)", "m_eff (kg)", Scale::Linear, Scale::Linear)
        );
        assert!(a.starts_with("<svg") && a.ends_with("</svg>") && a.contains("polyline"));
        let b = shape_bars(&[1.0, -0.5], &["left".into(), "right".into()]);
        assert_eq!(b.matches("<rect").count(), 2);
    }

    #[test]
    fn every_axis_has_four_ticks_and_bounds_the_data() {
        for (lo, hi) in [
            (0.0, 1.0),
            (-9e-7, 9e-7),
            (3.0, 3.4),
            (0.0, 1e5),
            (-2.5, 7.0),
        ] {
            let step = linear_step(hi - lo);
            let (a, b) = ((lo / step).floor() * step, (hi / step).ceil() * step);
            let t = nice_ticks(a, b, Scale::Linear);
            assert!(t.len() >= 4, "{lo}..{hi}: {t:?}");
            assert!(
                t[0] <= lo + 1e-12 * hi.abs().max(1.0)
                    && *t.last().unwrap() >= hi - 1e-12 * hi.abs().max(1.0),
                "{lo}..{hi}: {t:?}"
            );
        }
        let t = nice_ticks(0.2f64.log10(), 0.9f64.log10(), Scale::Log);
        assert!(t.len() >= 2, "{t:?}");
    }

    #[test]
    fn tick_values_get_si_prefixes() {
        assert_eq!(scaled_label("gap (m)", 9e-7).0, "gap (nm)");
        assert_eq!(scaled_label("gap (m)", 2e-6).0, "gap (µm)");
        assert_eq!(scaled_label("Δt (s)", 2e-3).0, "Δt (ms)");
        assert_eq!(scaled_label("ω (rad/s)", 3e4).0, "ω (10³ rad/s)");
        assert_eq!(
            scaled_label("m_eff (kg)", 2.0),
            ("m_eff (kg)".to_string(), 1.0)
        );
        assert_eq!(tick_label(-5e-7, Scale::Linear, 1e-6), "−0.5");
    }

    #[test]
    fn the_legend_is_below_the_plot_and_curves_have_markers() {
        let line = |label: &str, dy: f64| Series {
            label: label.into(),
            points: (0..40)
                .map(|i| (f64::from(i), f64::from(i) * 0.5 + dy))
                .collect(),
            dashed: false,
            markers: false,
        };
        let svg = line_plot(
            &[line("symplectic Euler", 0.0), line("velocity Verlet", 0.0)],
            "t (s)",
            "x (m)",
            Scale::Linear,
            Scale::Linear,
        );
        // The second curve, identical to the first, carries markers.
        assert!(
            svg.contains("<rect x=") && svg.matches("<rect").count() > 5,
            "{svg}"
        );
        // Legend text rows sit below the plotting area (y > 300).
        let ys: Vec<f64> = svg
            .match_indices("class=\"legend\"")
            .map(|(i, _)| {
                let before = &svg[..i];
                let y = before.rsplit("y=\"").next().unwrap();
                y.split('"').next().unwrap().parse().unwrap()
            })
            .collect();
        assert_eq!(ys.len(), 2);
        assert!(ys.iter().all(|&y| y > 300.0), "{ys:?}");
    }
}

mod labels {
    use super::super::*;

    #[test]
    fn bar_labels_are_whole_and_symbols_typeset() {
        let names = vec!["offcentre".to_string(), "c".to_string()];
        let svg = shape_bars(&[1.0, -0.5], &names);
        assert!(svg.contains(">offcentre</text>"), "{svg}");
        let l = rich("|ω − ω_ref| and m_eff <x>");
        assert!(l.contains("ω<tspan baseline-shift=\"sub\" font-size=\"75%\">ref</tspan>"));
        assert!(l.contains("&lt;x&gt;") && !l.contains("m_eff"));
    }
}
