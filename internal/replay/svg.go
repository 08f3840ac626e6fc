package replay

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/snii-go/snii/internal/errs"
)

// Chart geometry (SVG user units = CSS pixels).
const (
	chartW      = 960
	panelH      = 560
	plotLeft    = 80
	plotTop     = 70
	plotW       = 600
	plotH       = 400
	legendLeft  = plotLeft + plotW + 40
	labelCharW  = 6.6 // approximate width of one 11px sans-serif character
	labelHeight = 12
)

// Okabe-Ito palette: distinguishable with common colour-vision deficiencies.
var policyColors = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999"}

// WriteSVG draws one panel per field: extra bytes (% of the smallest frames) on
// the x axis, the decode time ratio (stored / smallest frames) on the y axis, one
// point per policy and order (colour per policy, shape per order) with its min-max
// range over cycles, each point labelled with its policy. It needs decode timings.
func (r *Report) WriteSVG(w io.Writer) error {
	var panels []*IndexReport
	for i := range r.Indexes {
		ir := &r.Indexes[i]
		if ir.Eligible == 0 {
			continue
		}
		for _, res := range ir.Results {
			if res.Decode == nil {
				return errs.Invalidf("replay: chart: index %q was replayed without decode timing", ir.Index)
			}
		}
		panels = append(panels, ir)
	}
	h := panelH * max(1, len(panels))
	var b bytes.Buffer
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif" font-size="12">
<rect width="100%%" height="100%%" fill="white"/>
`, chartW, h, chartW, h)
	if len(panels) == 0 {
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="16">%s</text>`+"\n", plotLeft, plotTop,
			esc("replay: no eligible windows, nothing to chart"))
	}
	for i, ir := range panels {
		fmt.Fprintf(&b, `<g class="panel" transform="translate(0,%d)">`+"\n", i*panelH)
		r.drawPanel(&b, ir)
		b.WriteString("</g>\n")
	}
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

func (r *Report) drawPanel(b *bytes.Buffer, ir *IndexReport) {
	title := fmt.Sprintf("Codec policies on index %q: bytes spent vs decode time", ir.Index)
	sub := fmt.Sprintf("%s eligible windows, smallest frames %s B", group(int64(ir.Eligible)), group(ir.SumSmallest))
	if r.Capture != "" {
		sub = r.Capture + ": " + sub
	}
	sub += fmt.Sprintf("; %d paired cycle%s; bars: min-max over cycles; %s, %s", r.Cycles, plural(r.Cycles), r.Env.GoVersion, r.Env.CPU)
	fmt.Fprintf(b, `<text x="%d" y="28" font-size="17" font-weight="bold">%s</text>`+"\n", plotLeft, esc(title))
	fmt.Fprintf(b, `<text x="%d" y="48" font-size="11" fill="#444">%s</text>`+"\n", plotLeft, esc(sub))

	// Axis ranges.
	xMax, yMin, yMax := 0.0, 1.0, 1.0
	for _, res := range ir.Results {
		xMax = math.Max(xMax, res.ExtraPercent)
		yMin = math.Min(yMin, res.Decode.Min)
		yMax = math.Max(yMax, res.Decode.Max)
	}
	xTicks := niceTicks(0, math.Max(xMax*1.08, 1))
	yPad := math.Max((yMax-yMin)*0.08, 0.01)
	yTicks := niceTicks(yMin-yPad, yMax+yPad)
	x0, x1 := xTicks[0], xTicks[len(xTicks)-1]
	y0, y1 := yTicks[0], yTicks[len(yTicks)-1]
	// The axes' ends sit plotPad inside the frame so markers at the ends are whole.
	const plotPad = 14
	px := func(v float64) float64 { return plotLeft + plotPad + (v-x0)/(x1-x0)*(plotW-2*plotPad) }
	py := func(v float64) float64 { return plotTop + plotH - plotPad - (v-y0)/(y1-y0)*(plotH-2*plotPad) }

	// Frame, grid, ticks.
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#fafafa" stroke="#888"/>`+"\n", plotLeft, plotTop, plotW, plotH)
	for _, t := range xTicks {
		x := px(t)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#e2e2e2"/>`+"\n", x, plotTop, x, plotTop+plotH)
		fmt.Fprintf(b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", x, plotTop+plotH+18, esc(tickLabel(t)+"%"))
	}
	for _, t := range yTicks {
		y := py(t)
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#e2e2e2"/>`+"\n", plotLeft, y, plotLeft+plotW, y)
		fmt.Fprintf(b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", plotLeft-8, y+4, esc(tickLabel(t)+"×"))
	}
	if y := py(1); y >= plotTop && y <= plotTop+plotH {
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#555" stroke-dasharray="5,4"/>`+"\n", plotLeft, y, plotLeft+plotW, y)
		fmt.Fprintf(b, `<text x="%d" y="%.1f" font-size="10" fill="#555" text-anchor="end">smallest frames = 1×</text>`+"\n", plotLeft+plotW-4, y-4)
	}
	fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="middle" font-size="13">%s</text>`+"\n", plotLeft+plotW/2, plotTop+plotH+42,
		esc("extra bytes, % of the eligible windows' smallest frames (lower is smaller)"))
	fmt.Fprintf(b, `<text transform="translate(%d,%d) rotate(-90)" text-anchor="middle" font-size="13">%s</text>`+"\n",
		plotLeft-52, plotTop+plotH/2, esc("decode time, stored / smallest frames (lower is faster)"))

	// Points, error bars and labels.
	colorOf := map[string]string{}
	for i, p := range r.Policies {
		colorOf[p] = policyColors[i%len(policyColors)]
	}
	shapeOf := map[string]int{}
	for i, o := range r.Orders {
		shapeOf[o] = i
	}
	var placed []box
	b.WriteString(`<g class="points">` + "\n")
	for _, res := range ir.Results {
		d := res.Decode
		x, y := px(res.ExtraPercent), py(d.Ratio)
		col := colorOf[res.Policy]
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-opacity="0.55"/>`+"\n",
			x, py(d.Min), x, py(d.Max), col)
		tip := fmt.Sprintf("%s, %s order: +%.2f%% bytes (%s B), decode %.3f× (%.3f–%.3f), %s zstd / %s pfor / %s raw",
			res.Policy, res.Order, res.ExtraPercent, group(res.Extra), d.Ratio, d.Min, d.Max,
			group(res.Frames.Zstd), group(res.Frames.PFOR), group(res.Frames.Raw))
		fmt.Fprintf(b, `<g class="point" data-policy="%s" data-order="%s"><title>%s</title>%s</g>`+"\n",
			esc(res.Policy), esc(res.Order), esc(tip), marker(shapeOf[res.Order], x, y, col))
		placed = append(placed, box{x - 5, y - 5, 10, 10})
	}
	type spot struct{ x, y float64 }
	labelled := map[string][]spot{}
	for _, res := range ir.Results {
		x, y := px(res.ExtraPercent), py(res.Decode.Ratio)
		label := res.Policy
		near := false
		for _, p := range labelled[label] {
			near = near || math.Hypot(p.x-x, p.y-y) < 12
		}
		if near {
			continue // a point of the same policy at the same spot is labelled already
		}
		labelled[label] = append(labelled[label], spot{x, y})
		lw := float64(len(label))*labelCharW + 2
		if lb, ok := placeLabel(x, y, lw, placed); ok {
			placed = append(placed, lb)
			fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="11" fill="%s">%s</text>`+"\n",
				lb.x+1, lb.y+labelHeight-2, colorOf[res.Policy], esc(label))
		}
	}
	b.WriteString("</g>\n")

	// Legend.
	ly := plotTop + 4
	fmt.Fprintf(b, `<text x="%d" y="%d" font-weight="bold">policy (colour)</text>`+"\n", legendLeft, ly)
	for _, p := range r.Policies {
		ly += 20
		fmt.Fprintf(b, `<rect x="%d" y="%d" width="14" height="10" fill="%s"/>`+"\n", legendLeft, ly-9, colorOf[p])
		fmt.Fprintf(b, `<text x="%d" y="%d">%s</text>`+"\n", legendLeft+22, ly, esc(policyLegend(p)))
	}
	ly += 34
	fmt.Fprintf(b, `<text x="%d" y="%d" font-weight="bold">order (shape)</text>`+"\n", legendLeft, ly)
	for i, o := range r.Orders {
		ly += 20
		b.WriteString(marker(i, legendLeft+7, float64(ly-4), "#333"))
		fmt.Fprintf(b, `<text x="%d" y="%d">%s</text>`+"\n", legendLeft+22, ly, esc(o))
	}
	ly += 34
	for _, line := range []string{
		"x: bytes stored beyond the smallest",
		"frames (policy 0 = 0%).",
		"y: time to decode every eligible",
		"window's stored frame, over the time",
		"for its smallest frame (pooled",
		"source, CRC checked).",
		"Hover a point for its numbers.",
	} {
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="11" fill="#444">%s</text>`+"\n", legendLeft, ly, esc(line))
		ly += 15
	}
}

func policyLegend(p string) string {
	switch {
	case p == "0":
		return "0: smallest frame"
	case strings.HasPrefix(p, "budget:"):
		return "budget " + strings.TrimPrefix(p, "budget:") + "%"
	}
	return "fixed share " + p + "%"
}

// marker draws shape i (circle, square, triangle up, diamond, triangle down, cross, ...) at x, y.
func marker(i int, x, y float64, col string) string {
	const r = 5.5
	style := fmt.Sprintf(`fill="%s" fill-opacity="0.85" stroke="white" stroke-width="1"`, col)
	switch i % 6 {
	case 0:
		return fmt.Sprintf(`<circle cx="%.1f" cy="%.1f" r="%.1f" %s/>`, x, y, r, style)
	case 1:
		return fmt.Sprintf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" %s/>`, x-r+0.5, y-r+0.5, 2*r-1, 2*r-1, style)
	case 2:
		return fmt.Sprintf(`<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f" %s/>`, x, y-r-1, x+r+0.5, y+r-1, x-r-0.5, y+r-1, style)
	case 3:
		return fmt.Sprintf(`<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f" %s/>`, x, y-r-1, x+r+1, y, x, y+r+1, x-r-1, y, style)
	case 4:
		return fmt.Sprintf(`<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f" %s/>`, x, y+r+1, x+r+0.5, y-r+1, x-r-0.5, y-r+1, style)
	default:
		return fmt.Sprintf(`<path d="M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f" stroke="%s" stroke-width="2.5"/>`,
			x-r, y-r, x+r, y+r, x-r, y+r, x+r, y-r, col)
	}
}

type box struct{ x, y, w, h float64 }

func (a box) overlaps(b box) bool {
	return a.x < b.x+b.w && b.x < a.x+a.w && a.y < b.y+b.h && b.y < a.y+a.h
}

// placeLabel finds a spot for a label of width w near the point (x, y) that
// overlaps no placed box and stays inside the plot; ok is false when none does
// (several points share the spot and an earlier label already names the policy
// there, or the area is crowded: the tooltip still has the numbers).
func placeLabel(x, y, w float64, placed []box) (box, bool) {
	for _, d := range []struct{ dx, dy float64 }{
		{8, -6}, {8, -18}, {8, 6}, {-8 - w, -6}, {-w / 2, -20}, {-w / 2, 8},
		{8, -30}, {8, 18}, {-8 - w, -18}, {-8 - w, 6}, {8, -42}, {8, 30},
	} {
		lb := box{x + d.dx, y + d.dy, w, labelHeight}
		if lb.x < plotLeft || lb.x+lb.w > plotLeft+plotW || lb.y < plotTop || lb.y+lb.h > plotTop+plotH {
			continue
		}
		free := true
		for _, p := range placed {
			if lb.overlaps(p) {
				free = false
				break
			}
		}
		if free {
			return lb, true
		}
	}
	return box{}, false
}

// niceTicks returns evenly spaced round tick values covering [lo, hi].
func niceTicks(lo, hi float64) []float64 {
	if hi <= lo {
		hi = lo + 1
	}
	raw := (hi - lo) / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	start := math.Floor(lo/step) * step
	var out []float64
	for v := start; v < hi+step*0.999; v += step {
		out = append(out, math.Round(v/step)*step)
	}
	if len(out) < 2 {
		out = append(out, out[len(out)-1]+step)
	}
	return out
}

func tickLabel(v float64) string {
	s := fmt.Sprintf("%.3f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
