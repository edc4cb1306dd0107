//! `--svg FILE`: the run's figures as grouped bar charts in one SVG picture
//! (exponentiations per second per size and implementation; the OPRF's
//! server and client cost per element per suite and protocol), written by
//! hand so the command needs no plotting crate.

use std::fmt::Write as _;

use crate::report::Report;

/// One bar chart: a bar per series in each group, on a logarithmic axis
/// (the figures span orders of magnitude).
pub struct BarChart {
    pub title: String,
    pub axis: String,
    pub groups: Vec<String>,
    pub series: Vec<(String, Vec<Option<f64>>)>,
}

const WIDTH: f64 = 960.0;
const CHART_HEIGHT: f64 = 380.0;
const LEFT: f64 = 90.0;
const RIGHT: f64 = 190.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 60.0;
const COLORS: [&str; 8] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
];

/// The charts of a run: those with at least one figure.
pub fn charts(report: &Report) -> Vec<BarChart> {
    let mut charts = Vec::new();
    if !report.modexp.is_empty() {
        let groups = distinct(report.modexp.iter().map(|f| format!("{} bits", f.bits)));
        let names = distinct(report.modexp.iter().map(|f| f.implementation.clone()));
        let series = names
            .iter()
            .map(|name| {
                let values = groups
                    .iter()
                    .map(|group| {
                        report
                            .modexp
                            .iter()
                            .find(|f| {
                                &f.implementation == name && &format!("{} bits", f.bits) == group
                            })
                            .map(|f| 1e6 / f.us_per_exp)
                    })
                    .collect();
                (name.clone(), values)
            })
            .collect();
        charts.push(BarChart {
            title: "Constant-time modular exponentiation, one core (higher is better)".into(),
            axis: "exponentiations per second".into(),
            groups,
            series,
        });
    }
    if !report.oprf.is_empty() {
        // Per suite, the largest batch measured.
        let suites = distinct(report.oprf.iter().map(|f| f.suite.to_string()));
        let largest = |suite: &str| {
            report
                .oprf
                .iter()
                .filter(|f| f.suite == suite)
                .map(|f| f.n)
                .max()
                .unwrap_or(0)
        };
        let groups: Vec<String> = suites
            .iter()
            .map(|s| format!("{s} (n = {})", largest(s)))
            .collect();
        let protocols = distinct(report.oprf.iter().map(|f| f.protocol.to_string()));
        for (side, pick) in [
            (
                "server",
                (|f: &crate::report::OprfFigure| f.server_us) as fn(&_) -> f64,
            ),
            ("client", |f| f.client_us),
        ] {
            let series = protocols
                .iter()
                .map(|protocol| {
                    let values = suites
                        .iter()
                        .map(|suite| {
                            report
                                .oprf
                                .iter()
                                .find(|f| {
                                    f.suite == suite
                                        && f.protocol == protocol
                                        && f.n == largest(suite)
                                })
                                .map(pick)
                        })
                        .collect();
                    (protocol.clone(), values)
                })
                .collect();
            charts.push(BarChart {
                title: format!("Batch OPRF, {side} cost per element (lower is better)"),
                axis: "µs per element".into(),
                groups: groups.clone(),
                series,
            });
        }
    }
    charts
}

/// The distinct values of `items`, in order of first appearance.
fn distinct(items: impl Iterator<Item = String>) -> Vec<String> {
    let mut seen = Vec::new();
    for item in items {
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    seen
}

/// Height of the heading: the title, then the line naming the machine.
const HEADING: f64 = 56.0;

/// The SVG document of `charts`, one under the other, under `title` and
/// `subtitle` (what the figures were measured on, and when).
pub fn render(title: &str, subtitle: &str, charts: &[BarChart]) -> String {
    let height = HEADING + CHART_HEIGHT * charts.len().max(1) as f64;
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"24\" font-size=\"16\" text-anchor=\"middle\">{}</text>\n\
         <text x=\"{}\" y=\"44\" text-anchor=\"middle\">{}</text>\n",
        WIDTH / 2.0,
        escape(title),
        WIDTH / 2.0,
        escape(subtitle)
    );
    if charts.is_empty() {
        svg.push_str("<text x=\"20\" y=\"80\">no figures were measured</text>\n");
    }
    for (i, chart) in charts.iter().enumerate() {
        render_chart(&mut svg, chart, HEADING + CHART_HEIGHT * i as f64);
    }
    svg.push_str("</svg>\n");
    svg
}

fn render_chart(svg: &mut String, chart: &BarChart, y0: f64) {
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = CHART_HEIGHT - TOP - BOTTOM;
    let (top_y, bottom_y) = (y0 + TOP, y0 + TOP + plot_h);
    let values: Vec<f64> = chart
        .series
        .iter()
        .flat_map(|(_, v)| v.iter().flatten().copied())
        .filter(|v| *v > 0.0)
        .collect();
    let _ = writeln!(
        svg,
        "<text x=\"{LEFT}\" y=\"{}\" font-size=\"14\">{}</text>",
        y0 + 24.0,
        escape(&chart.title)
    );
    if values.is_empty() {
        return;
    }
    let low = values
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min)
        .log10()
        .floor();
    let high = values
        .iter()
        .copied()
        .fold(0.0, f64::max)
        .log10()
        .ceil()
        .max(low + 1.0);
    let y_of = |v: f64| bottom_y - (v.log10() - low) / (high - low) * plot_h;
    // Axis, decade grid and labels.
    for decade in (low as i32)..=(high as i32) {
        let y = y_of(10f64.powi(decade));
        let _ = writeln!(
            svg,
            "<line x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            LEFT + plot_w,
            LEFT - 6.0,
            y + 4.0,
            decade_label(decade)
        );
    }
    let _ = writeln!(
        svg,
        "<line x1=\"{LEFT}\" y1=\"{top_y:.1}\" x2=\"{LEFT}\" y2=\"{bottom_y:.1}\" stroke=\"black\"/>\n\
         <line x1=\"{LEFT}\" y1=\"{bottom_y:.1}\" x2=\"{:.1}\" y2=\"{bottom_y:.1}\" stroke=\"black\"/>\n\
         <text transform=\"translate({:.1},{:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
        LEFT + plot_w,
        LEFT - 60.0,
        (top_y + bottom_y) / 2.0,
        escape(&chart.axis)
    );
    // Bars, a group per slot.
    let slot = plot_w / chart.groups.len() as f64;
    let bar = slot * 0.8 / chart.series.len() as f64;
    for (g, group) in chart.groups.iter().enumerate() {
        let x0 = LEFT + slot * g as f64 + slot * 0.1;
        for (s, (name, values)) in chart.series.iter().enumerate() {
            if let Some(v) = values[g].filter(|v| *v > 0.0) {
                let y = y_of(v);
                let _ = writeln!(
                    svg,
                    "<rect x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\">\
                     <title>{}: {}</title></rect>",
                    x0 + bar * s as f64,
                    bar.max(1.0),
                    bottom_y - y,
                    COLORS[s % COLORS.len()],
                    escape(name),
                    format_value(v)
                );
            }
        }
        // A label "name (detail)" takes two lines, so long ones do not
        // run into their neighbours.
        let x = LEFT + slot * (g as f64 + 0.5);
        let lines: Vec<String> = match group.split_once(" (") {
            Some((name, detail)) => vec![name.to_string(), format!("({detail}")],
            None => vec![group.clone()],
        };
        let _ = write!(
            svg,
            "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">",
            bottom_y + 18.0
        );
        for (i, line) in lines.iter().enumerate() {
            let _ = write!(
                svg,
                "<tspan x=\"{x:.1}\" dy=\"{}\">{}</tspan>",
                if i == 0 { "0" } else { "1.2em" },
                escape(line)
            );
        }
        svg.push_str("</text>\n");
    }
    // Legend.
    for (s, (name, _)) in chart.series.iter().enumerate() {
        let y = top_y + 18.0 * s as f64;
        let _ = writeln!(
            svg,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"12\" height=\"12\" fill=\"{}\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            LEFT + plot_w + 16.0,
            y,
            COLORS[s % COLORS.len()],
            LEFT + plot_w + 34.0,
            y + 10.0,
            escape(name)
        );
    }
}

fn decade_label(decade: i32) -> String {
    match decade {
        0..=6 => format!("{}", 10u64.pow(decade as u32)),
        _ => format!("1e{decade}"),
    }
}

fn format_value(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// Text for XML character data and attribute values.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::OprfFigure;

    /// The README's charts, drawn by `oblivex speed --svg FILE`: each
    /// file, the machine its header must name, and the exponentiation row
    /// of the backend that machine runs by default.
    const README_CHARTS: [(&str, &str, &str, &str); 2] = [
        (
            "docs/speed.svg",
            include_str!("../../../docs/speed.svg"),
            ", AVX-512 IFMA",
            ">oblivex-ifma<",
        ),
        (
            "docs/speed-avx2.svg",
            include_str!("../../../docs/speed-avx2.svg"),
            ", no AVX-512 IFMA, AVX2",
            ">oblivex-avx2<",
        ),
    ];

    /// Each README chart was drawn by this version, on a named machine of
    /// its kind and a date, shows its machine's default backend, and shows
    /// exactly the suites `oblivex speed oprf` measures: a chart left stale
    /// by a release or a new suite fails here. Redraw the first on an
    /// AVX-512 IFMA machine with crypto_mb installed, the second on one
    /// with AVX2 and no AVX-512 IFMA (see the README).
    #[test]
    fn the_readme_charts_are_current() {
        let version = format!(
            ">oblivex {}, arithmetic backend ",
            env!("CARGO_PKG_VERSION")
        );
        for (file, chart, machine, row) in README_CHARTS {
            assert!(
                chart.contains(&version),
                "{file} was not drawn by oblivex {}: redraw it",
                env!("CARGO_PKG_VERSION")
            );
            assert!(
                chart.contains(">drawn on ") && chart.contains(machine),
                "{file} does not name a machine with{machine} and a date: redraw it"
            );
            assert!(chart.contains(row), "{file} lacks the row {row}: redraw it");
            // A suite's label is the first line of "suite (n = N)" (see
            // render_chart): the line before a "(n = N)" line.
            let lines: Vec<&str> = chart.split("</tspan><tspan").collect();
            let drawn: Vec<&str> = lines
                .windows(2)
                .filter(|pair| {
                    pair[1]
                        .split_once('>')
                        .is_some_and(|(_, l)| l.starts_with("(n = "))
                })
                .filter_map(|pair| pair[0].rsplit_once('>').map(|(_, label)| label))
                .collect();
            for (suite, _) in crate::oprf::SUITES {
                assert!(drawn.contains(&suite), "{file} lacks {suite}: redraw it");
            }
            for label in drawn {
                assert!(
                    crate::oprf::SUITES.iter().any(|(suite, _)| *suite == label),
                    "{file} shows {label}, which oblivex speed no longer measures"
                );
            }
        }
    }

    #[test]
    fn a_report_becomes_three_charts() {
        let mut report = Report::default();
        report.modexp(1024, "oblivex-ifma", 80.0);
        report.modexp(1024, "openssl", 400.0);
        report.modexp(2048, "oblivex-ifma", 600.0);
        report.oprf(OprfFigure {
            suite: "ristretto255-SHA512",
            n: 16,
            protocol: "balancer",
            server_us: 40.0,
            client_us: 90.0,
        });
        let charts = charts(&report);
        assert_eq!(charts.len(), 3);
        assert_eq!(charts[0].groups, ["1024 bits", "2048 bits"]);
        assert_eq!(charts[0].series[1].1, [Some(2500.0), None]);
        let svg = render("a <run> & more", "on <this> machine", &charts);
        assert!(svg.starts_with("<?xml") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("a &lt;run&gt; &amp; more"));
        assert!(svg.contains("on &lt;this&gt; machine"));
        assert_eq!(svg.matches("<svg").count(), 1);
    }

    #[test]
    fn an_empty_report_is_still_a_picture() {
        let svg = render("nothing", "", &charts(&Report::default()));
        assert!(svg.contains("no figures were measured") && svg.trim_end().ends_with("</svg>"));
    }
}
