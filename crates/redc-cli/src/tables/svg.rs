//! Hand-written SVG plots: horizontal bars in one panel per key size, and time against key
//! size on log-log axes with a fitted power-law trend line. No plotting dependency.

use std::fmt::Write;

/// Series colours (colour-blind friendly, after Okabe and Ito).
const COLORS: [&str; 8] = [
    "#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9", "#f0e442", "#000000",
];

/// The colour of series `i`.
pub fn color(i: usize) -> &'static str {
    COLORS[i % COLORS.len()]
}

/// Escapes text for an SVG text node or attribute.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A number in at most four significant digits, without exponent notation for usual values.
pub fn num(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let a = v.abs();
    if a >= 1000.0 {
        format!("{v:.0}")
    } else if a >= 100.0 {
        format!("{v:.1}")
    } else if a >= 10.0 {
        format!("{v:.2}")
    } else if a >= 1.0 {
        format!("{v:.3}")
    } else {
        let digits = (3 - a.log10().floor() as i32).clamp(0, 12) as usize;
        format!("{v:.digits$}")
    }
}

fn open(w: u32, h: u32, title: &str) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = write!(
        s,
        "\n<title>{t}</title>\n<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n<text x=\"{x}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">{t}</text>\n",
        t = esc(title),
        x = w / 2
    );
    s
}

/// A plot saying there is nothing to draw, and why.
pub fn empty(title: &str, why: &str) -> String {
    let mut s = open(640, 120, title);
    let _ = writeln!(
        s,
        "<text x=\"320\" y=\"70\" text-anchor=\"middle\" fill=\"#555\">{}</text>\n</svg>",
        esc(why)
    );
    s
}

/// One bar.
pub struct Bar {
    /// Label left of the bar.
    pub label: String,
    /// Length (same unit in every panel).
    pub value: f64,
    /// Colour index.
    pub color: usize,
}

/// A group of bars with its own scale (one key size).
pub struct Panel {
    /// Heading of the panel.
    pub title: String,
    /// The bars, top to bottom.
    pub bars: Vec<Bar>,
}

/// Horizontal bars, one panel per key size; each panel is scaled to its longest bar, so the
/// algorithms can be compared side by side at every size although sizes differ by orders of
/// magnitude.
pub fn bar_panels(title: &str, unit: &str, panels: &[Panel], legend: &[(String, usize)]) -> String {
    const W: u32 = 760;
    const LABEL: f64 = 170.0;
    const MAXLEN: f64 = 480.0;
    const ROW: f64 = 17.0;
    let height = 60.0
        + panels
            .iter()
            .map(|p| 28.0 + ROW * p.bars.len() as f64)
            .sum::<f64>();
    let mut s = open(W, height.ceil() as u32 + 10, title);
    // Legend.
    let mut x = 20.0;
    for (name, c) in legend {
        let _ = writeln!(
            s,
            "<rect x=\"{x}\" y=\"34\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{}\" y=\"44\">{}</text>",
            color(*c),
            x + 16.0,
            esc(name)
        );
        x += 30.0 + 7.0 * name.chars().count() as f64;
    }
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"44\" text-anchor=\"end\" fill=\"#555\">{} per operation, lower is better</text>",
        W - 10,
        esc(unit)
    );
    let mut y = 62.0;
    for p in panels {
        // Scale to the longest bar, but at most 3× the median one: an outlier (FIOS's Θ(s³))
        // would otherwise squash the rest; its bar is cut and marked, its value still printed.
        let mut vals: Vec<f64> = p.bars.iter().map(|b| b.value).collect();
        let max = p.bars.iter().map(|b| b.value).fold(0.0, f64::max);
        let max = max.min(3.0 * super::measure::median(&mut vals));
        let _ = writeln!(
            s,
            "<g class=\"panel\">\n<text x=\"10\" y=\"{}\" font-weight=\"bold\">{}</text>",
            y + 12.0,
            esc(&p.title)
        );
        y += 20.0;
        for b in &p.bars {
            let cut = max > 0.0 && b.value > max;
            let len = if max > 0.0 {
                (b.value / max * MAXLEN).clamp(1.0, MAXLEN)
            } else {
                1.0
            };
            let mut marker = String::new();
            if cut {
                let _ = write!(
                    marker,
                    "<path d=\"M{:.1} {:.1} l6 {:.1} l-6 {:.1}\" fill=\"none\" stroke=\"white\" stroke-width=\"2\"/>",
                    LABEL + len - 14.0,
                    y + 2.0,
                    (ROW - 4.0) / 2.0,
                    (ROW - 4.0) / 2.0
                );
            }
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text><rect x=\"{LABEL}\" y=\"{:.1}\" width=\"{len:.1}\" height=\"{}\" fill=\"{}\"><title>{}: {} {}</title></rect>{marker}<text x=\"{:.1}\" y=\"{:.1}\" fill=\"#333\">{}</text>",
                LABEL - 6.0,
                y + 12.0,
                esc(&b.label),
                y + 2.0,
                ROW - 4.0,
                color(b.color),
                esc(&b.label),
                num(b.value),
                esc(unit),
                LABEL + len + 4.0,
                y + 12.0,
                num(b.value)
            );
            y += ROW;
        }
        let _ = writeln!(s, "</g>");
        y += 8.0;
    }
    s.push_str("</svg>\n");
    s
}

/// A named series of (bits, time) points.
pub struct Series {
    /// Legend entry.
    pub name: String,
    /// Points in increasing bits.
    pub points: Vec<(f64, f64)>,
    /// Colour index.
    pub color: usize,
    /// Dashed line (for figures quoted from a paper rather than measured).
    pub dashed: bool,
}

/// `c` of the least-squares fit `t = c·bits^k` in log space: `ln c = mean(ln t − k ln bits)`.
pub fn fit_coefficient(points: &[(f64, f64)], k: f64) -> Option<f64> {
    let ok: Vec<f64> = points
        .iter()
        .filter(|(x, y)| *x > 0.0 && *y > 0.0)
        .map(|(x, y)| y.ln() - k * x.ln())
        .collect();
    if ok.is_empty() {
        return None;
    }
    Some((ok.iter().sum::<f64>() / ok.len() as f64).exp())
}

/// The least-squares slope of `ln t` against `ln bits`: the measured growth exponent.
pub fn loglog_slope(points: &[(f64, f64)]) -> Option<f64> {
    let p: Vec<(f64, f64)> = points
        .iter()
        .filter(|(x, y)| *x > 0.0 && *y > 0.0)
        .map(|(x, y)| (x.ln(), y.ln()))
        .collect();
    if p.len() < 2 {
        return None;
    }
    let n = p.len() as f64;
    let mx = p.iter().map(|q| q.0).sum::<f64>() / n;
    let my = p.iter().map(|q| q.1).sum::<f64>() / n;
    let sxx: f64 = p.iter().map(|q| (q.0 - mx).powi(2)).sum();
    let sxy: f64 = p.iter().map(|q| (q.0 - mx) * (q.1 - my)).sum();
    (sxx > 0.0).then(|| sxy / sxx)
}

/// Time against key size on log-log axes; for each measured (solid) series a thin dotted
/// trend line `t = c·bits^k` fitted to it (`k` = 3 for whole RSA operations, 2 for one REDC).
pub fn loglog(title: &str, unit: &str, series: &[Series], k: Option<f64>) -> String {
    const W: f64 = 900.0;
    const H: f64 = 480.0;
    let (x0, x1, y0, y1) = (80.0, 600.0, 50.0, 420.0);
    let all: Vec<(f64, f64)> = series
        .iter()
        .flat_map(|s| s.points.iter().copied())
        .filter(|(x, y)| *x > 0.0 && *y > 0.0)
        .collect();
    if all.is_empty() {
        return empty(title, "no data");
    }
    let (mut lx0, mut lx1) = (f64::MAX, f64::MIN);
    let (mut ly0, mut ly1) = (f64::MAX, f64::MIN);
    for &(x, y) in &all {
        lx0 = lx0.min(x.log10());
        lx1 = lx1.max(x.log10());
        ly0 = ly0.min(y.log10());
        ly1 = ly1.max(y.log10());
    }
    // Margins in decades.
    let (lx0, lx1) = (lx0 - 0.06, lx1 + 0.06);
    let (ly0, ly1) = (ly0 - 0.15, ly1 + 0.15);
    let px = |x: f64| x0 + (x.log10() - lx0) / (lx1 - lx0) * (x1 - x0);
    let py = |y: f64| y1 - (y.log10() - ly0) / (ly1 - ly0) * (y1 - y0);

    let mut s = open(W as u32, H as u32, title);
    let _ = writeln!(
        s,
        "<defs><clipPath id=\"plot\"><rect x=\"{x0}\" y=\"{y0}\" width=\"{}\" height=\"{}\"/></clipPath></defs>",
        x1 - x0,
        y1 - y0
    );
    let _ = writeln!(
        s,
        "<rect x=\"{x0}\" y=\"{y0}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#888\"/>",
        x1 - x0,
        y1 - y0
    );
    // x ticks at every measured size.
    let mut xs: Vec<f64> = all.iter().map(|p| p.0).collect();
    xs.sort_by(|a, b| a.total_cmp(b));
    xs.dedup();
    for x in xs {
        let xx = px(x);
        let _ = writeln!(
            s,
            "<line x1=\"{xx:.1}\" y1=\"{y0}\" x2=\"{xx:.1}\" y2=\"{y1}\" stroke=\"#eee\"/><text x=\"{xx:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            y1 + 16.0,
            x
        );
    }
    // y ticks at 1, 2, 5 × powers of ten inside the range (1 only when it spans > 2 decades).
    let mults: &[f64] = if ly1 - ly0 > 2.5 {
        &[1.0]
    } else {
        &[1.0, 2.0, 5.0]
    };
    for e in (ly0.floor() as i32)..=(ly1.ceil() as i32) {
        for &m in mults {
            let v = m * 10f64.powi(e);
            if v.log10() < ly0 || v.log10() > ly1 {
                continue;
            }
            let yy = py(v);
            let label = num(v);
            let label = if label.contains('.') {
                label
                    .trim_end_matches('0')
                    .trim_end_matches('.')
                    .to_string()
            } else {
                label
            };
            let _ = writeln!(
                s,
                "<line x1=\"{x0}\" y1=\"{yy:.1}\" x2=\"{x1}\" y2=\"{yy:.1}\" stroke=\"#eee\"/><text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                x0 - 6.0,
                yy + 4.0,
                label
            );
        }
    }
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">modulus size (bits, log scale)</text>\n<text x=\"20\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 20 {})\">{} per operation (log scale)</text>",
        (x0 + x1) / 2.0,
        y1 + 36.0,
        (y0 + y1) / 2.0,
        (y0 + y1) / 2.0,
        esc(unit)
    );
    // Series, trend lines, legend.
    let mut ly = y0 + 10.0;
    for sr in series {
        let c = color(sr.color);
        let pts: Vec<(f64, f64)> = sr
            .points
            .iter()
            .copied()
            .filter(|(x, y)| *x > 0.0 && *y > 0.0)
            .collect();
        if pts.is_empty() {
            continue;
        }
        let dash = if sr.dashed {
            " stroke-dasharray=\"6 4\""
        } else {
            ""
        };
        let path: Vec<String> = pts
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
            .collect();
        let _ = writeln!(
            s,
            "<g class=\"series\"><polyline points=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"2\"{dash}/>",
            path.join(" ")
        );
        for &(x, y) in &pts {
            let _ = writeln!(
                s,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{c}\"><title>{}: {} bits, {} {}</title></circle>",
                px(x),
                py(y),
                esc(&sr.name),
                x,
                num(y),
                esc(unit)
            );
        }
        let _ = writeln!(s, "</g>");
        if let (Some(k), false) = (k, sr.dashed) {
            if let Some(cf) = fit_coefficient(&pts, k) {
                let (xa, xb) = (10f64.powf(lx0), 10f64.powf(lx1));
                let _ = writeln!(
                    s,
                    "<line class=\"trend\" clip-path=\"url(#plot)\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{c}\" stroke-width=\"1\" stroke-dasharray=\"2 3\" opacity=\"0.8\"/>",
                    px(xa),
                    py(cf * xa.powf(k)),
                    px(xb),
                    py(cf * xb.powf(k))
                );
            }
        }
        let _ = writeln!(
            s,
            "<line x1=\"{}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"{c}\" stroke-width=\"2\"{dash}/><text x=\"{}\" y=\"{}\">{}</text>",
            x1 + 12.0,
            x1 + 36.0,
            x1 + 40.0,
            ly + 4.0,
            esc(&sr.name)
        );
        ly += 18.0;
    }
    if let Some(k) = k {
        let kname = match k as i32 {
            2 => "quadratic",
            3 => "cubic",
            _ => "power-law",
        };
        let _ = writeln!(
            s,
            "<line x1=\"{}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"#333\" stroke-dasharray=\"2 3\"/><text x=\"{}\" y=\"{}\">fitted {kname} trend, c·bits^{k}</text>",
            x1 + 12.0,
            x1 + 36.0,
            x1 + 40.0,
            ly + 4.0
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_recovers_a_cubic() {
        let pts: Vec<(f64, f64)> = [512.0, 1024.0, 2048.0]
            .iter()
            .map(|&b: &f64| (b, 2.0e-6 * b.powi(3)))
            .collect();
        let c = fit_coefficient(&pts, 3.0).unwrap();
        assert!((c / 2.0e-6 - 1.0).abs() < 1e-9);
        assert!((loglog_slope(&pts).unwrap() - 3.0).abs() < 1e-9);
    }

    #[test]
    fn plots_are_svg() {
        let s = loglog(
            "t <x>",
            "us",
            &[Series {
                name: "a&b".into(),
                points: vec![(512.0, 1.0), (1024.0, 8.0)],
                color: 0,
                dashed: false,
            }],
            Some(3.0),
        );
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert!(s.contains("t &lt;x&gt;") && s.contains("a&amp;b") && s.contains("polyline"));
        let b = bar_panels(
            "bars",
            "ns",
            &[Panel {
                title: "512 bits".into(),
                bars: vec![Bar {
                    label: "cios".into(),
                    value: 3.0,
                    color: 1,
                }],
            }],
            &[("64-bit".into(), 1)],
        );
        assert!(b.starts_with("<svg") && b.contains("<rect") && b.ends_with("</svg>\n"));
        assert_eq!(num(1234.6), "1235");
        assert_eq!(num(0.012346), "0.01235");
    }
}
