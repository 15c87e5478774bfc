package soak

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"
)

// The chart's layout: panels of panelW × panelH in columns, each with a plot inset by
// margin (left: room for the value labels).
const (
	columns = 2
	panelW  = 480
	panelH  = 220
	left    = 70
	margin  = 30
)

// WriteChart draws every series of AllSeries against the milestone index, one panel
// each, with the warm-up's end as a dashed line, as a standalone SVG document.
func WriteChart(w io.Writer, samples []Sample, warmup time.Duration) error {
	if len(samples) == 0 {
		return ErrNoSamples
	}
	rows := (len(AllSeries) + columns - 1) / columns
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`+"\n",
		columns*panelW, rows*panelH)
	fmt.Fprintf(bw, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	warm := afterWarmup(samples, warmup)
	for i, sr := range AllSeries {
		p := panel{x: (i % columns) * panelW, y: (i / columns) * panelH, samples: samples, sr: sr}
		if len(warm) > 0 {
			p.warm, p.hasWarm = warm[0].Milestone, warmup > 0
		}
		p.draw(bw)
	}
	fmt.Fprintln(bw, "</svg>")
	return bw.Flush()
}

// panel is one series' plot at (x, y).
type panel struct {
	x, y    int
	samples []Sample
	sr      Series
	warm    uint32
	hasWarm bool
}

func (p panel) draw(w io.Writer) {
	x0, x1, y0, y1 := p.ranges()
	plotW, plotH := float64(panelW-left-margin), float64(panelH-2*margin)
	px := func(m float64) float64 { return float64(p.x+left) + (m-x0)/(x1-x0)*plotW }
	py := func(v float64) float64 { return float64(p.y+panelH-margin) - (v-y0)/(y1-y0)*plotH }
	fmt.Fprintf(w, `<g id="%s">`+"\n", escape(strings.ReplaceAll(p.sr.Name, " ", "-")))
	fmt.Fprintf(w, `<text x="%d" y="%d" font-weight="bold">%s</text>`+"\n", p.x+left, p.y+margin-10, escape(p.sr.Name))
	fmt.Fprintf(w, `<rect x="%d" y="%d" width="%g" height="%g" fill="none" stroke="#999"/>`+"\n",
		p.x+left, p.y+margin, plotW, plotH)
	fmt.Fprintf(w, `<text x="%d" y="%g" text-anchor="end">%s</text>`+"\n", p.x+left-4, py(y1)+4, escape(human(p.sr, y1)))
	fmt.Fprintf(w, `<text x="%d" y="%g" text-anchor="end">%s</text>`+"\n", p.x+left-4, py(y0), escape(human(p.sr, y0)))
	fmt.Fprintf(w, `<text x="%d" y="%d">%.0f</text>`+"\n", p.x+left, p.y+panelH-margin+14, x0)
	fmt.Fprintf(w, `<text x="%g" y="%d" text-anchor="end">milestone %.0f</text>`+"\n", px(x1), p.y+panelH-margin+14, x1)
	if p.hasWarm {
		fmt.Fprintf(w, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#c60" stroke-dasharray="4 3"><title>end of warm-up</title></line>`+"\n",
			px(float64(p.warm)), p.y+margin, px(float64(p.warm)), p.y+panelH-margin)
	}
	var pts strings.Builder
	for _, s := range p.samples {
		fmt.Fprintf(&pts, "%.1f,%.1f ", px(float64(s.Milestone)), py(p.sr.Of(s)))
	}
	fmt.Fprintf(w, `<polyline fill="none" stroke="#1f5fa8" stroke-width="1.5" points="%s"/>`+"\n", strings.TrimSpace(pts.String()))
	fmt.Fprintln(w, "</g>")
}

// ranges are the milestone and value ranges the panel spans (never empty; values from 0
// when all are positive, so that a growth reads in proportion).
func (p panel) ranges() (x0, x1, y0, y1 float64) {
	x0, x1 = float64(p.samples[0].Milestone), float64(p.samples[0].Milestone)
	y1 = p.sr.Of(p.samples[0])
	for _, s := range p.samples {
		x0, x1 = min(x0, float64(s.Milestone)), max(x1, float64(s.Milestone))
		y0, y1 = min(y0, p.sr.Of(s)), max(y1, p.sr.Of(s))
	}
	if x1 == x0 {
		x1 = x0 + 1
	}
	if y1 == y0 {
		y1 = y0 + 1
	}
	return x0, x1, y0, y1 * 1.05
}

func escape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
