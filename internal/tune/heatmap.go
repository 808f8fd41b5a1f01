package tune

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/batchlas/batchlas/internal/route"
)

// Cell marks in a heatmap, where there is no ratio.
const (
	MarkFailed = "fail" // the best native candidate or the vendor failed the oracle check
	MarkNoRun  = "n/a"  // no native candidate or no vendor was measured there
)

// Cell is one point of a heatmap: the best native time over the vendor's
// time, or a mark saying why there is none.
type Cell struct {
	Point Point
	Ratio float64 // 0 when Mark is set
	Mark  string  // "", MarkFailed or MarkNoRun
}

// RatioCell compares the fastest native candidate of r with the vendor
// candidates (the fastest, should there be several).
func RatioCell(r *Record) Cell {
	c := Cell{Point: r.Point}
	native, nMeasured, nFailed := bestOfKind(r.Results, "native")
	vendor, vMeasured, vFailed := bestOfKind(r.Results, "vendor")
	switch {
	case !nMeasured || !vMeasured:
		c.Mark = MarkNoRun
	case nFailed || vFailed:
		c.Mark = MarkFailed
	default:
		c.Ratio = native / vendor
	}
	return c
}

// kindOf is the kind word of a candidate spelling: native, vendor or cpu.
func kindOf(name string) string {
	kind, _, _ := strings.Cut(name, ":")
	return kind
}

// bestOfKind returns the fastest timed result of kind; measured reports
// that a result of that kind was there at all, failed that all of those
// failed the check.
func bestOfKind(results []Result, kind string) (best float64, measured, failed bool) {
	for _, r := range results {
		if r.Skipped || kindOf(r.Name) != kind {
			continue
		}
		measured = true
		if r.Failed || !(r.Micros > 0) {
			continue
		}
		if best == 0 || r.Micros < best {
			best = r.Micros
		}
	}
	return best, measured, measured && best == 0
}

// heatRange is the colour scale's reach in log₂ of the ratio: 1/4 to 4.
const heatRange = 2

// Heatmap writes a PNG to path: for each dtype (a column of panels) and
// each value of the op's keys other than n and batch (a row), the ratio of
// the best native candidate's time to the vendor's by n (x, log scale) and
// batch (y, log scale). Blue is native faster, red vendor faster; cells
// where a side failed the oracle check say "fail", those where a side was
// not measured (could not run) say "n/a", both grey. It is an error when
// no point has a ratio.
func Heatmap(path string, op *route.Op, device string, records []Record) error {
	type panelKey struct{ dtype, other string }
	var keys []panelKey
	panels := map[panelKey][]Cell{}
	var dtypes, others []string
	timed := false
	for i := range records {
		r := &records[i]
		var other []string
		for _, k := range op.Keys {
			if k.Name != "n" && k.Name != "batch" {
				other = append(other, k.Name+"="+r.Point.Value(k.Name))
			}
		}
		pk := panelKey{r.Point.DType, strings.Join(other, " ")}
		if _, ok := panels[pk]; !ok {
			keys = append(keys, pk)
			if !slices.Contains(dtypes, pk.dtype) {
				dtypes = append(dtypes, pk.dtype)
			}
			if !slices.Contains(others, pk.other) {
				others = append(others, pk.other)
			}
		}
		c := RatioCell(r)
		timed = timed || c.Mark == ""
		panels[pk] = append(panels[pk], c)
	}
	if !timed {
		return errors.New("tune: heatmap: no point has both a native candidate and the vendor timed")
	}

	cmap := moreland.SmoothBlueRed()
	cmap.SetMin(-heatRange)
	cmap.SetMax(heatRange)
	grid := make([][]*plot.Plot, len(others))
	for row, other := range others {
		grid[row] = make([]*plot.Plot, len(dtypes))
		for col, dtype := range dtypes {
			cells := panels[panelKey{dtype, other}]
			if len(cells) == 0 {
				continue
			}
			p, err := heatPanel(cells, cmap.Palette(255))
			if err != nil {
				return err
			}
			p.Title.Text = strings.TrimSpace(fmt.Sprintf("%s %s %s %s", op.Name, dtype, device, other))
			grid[row][col] = p
		}
	}

	const barHeight = 70
	w := vg.Points(360 * float64(len(dtypes)))
	h := vg.Points(320*float64(len(others)) + barHeight)
	img := vgimg.New(w, h)
	dc := draw.New(img)
	top := draw.Crop(dc, 0, 0, vg.Points(barHeight), 0)
	tiles := draw.Tiles{Rows: len(others), Cols: len(dtypes), PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align(grid, tiles, top)
	for row := range grid {
		for col, p := range grid[row] {
			if p != nil {
				p.Draw(canvases[row][col])
			}
		}
	}
	bar := plot.New()
	bar.Add(&plotter.ColorBar{ColorMap: cmap})
	bar.HideY()
	bar.X.Label.Text = "best native time / vendor time (blue: native faster; grey: fail or n/a)"
	var ticks []plot.Tick
	for e := -heatRange; e <= heatRange; e++ {
		ticks = append(ticks, plot.Tick{Value: float64(e), Label: ratioLabel(math.Exp2(float64(e)))})
	}
	bar.X.Tick.Marker = plot.ConstantTicks(ticks)
	bottom := draw.Crop(dc, vg.Points(40), -vg.Points(40), vg.Millimeter*2, -(h - vg.Points(barHeight)))
	bar.Draw(bottom)

	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func ratioLabel(x float64) string {
	if x < 1 {
		return "1/" + strconv.Itoa(int(math.Round(1/x)))
	}
	return strconv.Itoa(int(math.Round(x)))
}

// heatGrid is the cells of one panel on a log₂ grid; NaN where marked.
type heatGrid struct {
	xs, ys []int // n and batch values, increasing
	z      [][]float64
}

func (g *heatGrid) Dims() (c, r int)   { return len(g.xs), len(g.ys) }
func (g *heatGrid) Z(c, r int) float64 { return g.z[c][r] }
func (g *heatGrid) X(c int) float64    { return math.Log2(float64(g.xs[c])) }
func (g *heatGrid) Y(r int) float64    { return math.Log2(float64(g.ys[r])) }
func (g *heatGrid) Min() float64       { return -heatRange }
func (g *heatGrid) Max() float64       { return heatRange }
func (g *heatGrid) index(n, b int) (int, int) {
	return slices.Index(g.xs, n), slices.Index(g.ys, b)
}

func heatPanel(cells []Cell, pal palette.Palette) (*plot.Plot, error) {
	g := &heatGrid{}
	for _, c := range cells {
		if !slices.Contains(g.xs, c.Point.N) {
			g.xs = append(g.xs, c.Point.N)
		}
		if !slices.Contains(g.ys, c.Point.Batch) {
			g.ys = append(g.ys, c.Point.Batch)
		}
	}
	slices.Sort(g.xs)
	slices.Sort(g.ys)
	g.z = make([][]float64, len(g.xs))
	for i := range g.z {
		g.z[i] = make([]float64, len(g.ys))
		for j := range g.z[i] {
			g.z[i][j] = math.NaN() // not measured: grey, no label
		}
	}
	var labels plotter.XYLabels
	for _, c := range cells {
		i, j := g.index(c.Point.N, c.Point.Batch)
		text := c.Mark
		if c.Mark == "" {
			g.z[i][j] = max(-heatRange, min(heatRange, math.Log2(c.Ratio)))
			text = strconv.FormatFloat(c.Ratio, 'f', 2, 64)
		}
		labels.XYs = append(labels.XYs, plotter.XY{X: g.X(i), Y: g.Y(j)})
		labels.Labels = append(labels.Labels, text)
	}
	hm := plotter.NewHeatMap(g, pal)
	hm.NaN = color.Gray{Y: 200}
	p := plot.New()
	p.Add(hm)
	if len(g.xs)*len(g.ys) <= 256 {
		// Cell text stays legible up to 16×16.
		l, err := plotter.NewLabels(labels)
		if err != nil {
			return nil, err
		}
		for i := range l.TextStyle {
			l.TextStyle[i].Font.Size = vg.Points(7)
			l.TextStyle[i].XAlign = draw.XCenter
			l.TextStyle[i].YAlign = draw.YCenter
		}
		p.Add(l)
	}
	p.X.Label.Text = "n"
	p.Y.Label.Text = "batch"
	p.X.Tick.Marker = plot.ConstantTicks(logTicks(g.xs))
	p.Y.Tick.Marker = plot.ConstantTicks(logTicks(g.ys))
	return p, nil
}

// logTicks labels each value at log₂ of it; past 12 values, only powers of
// two are labelled.
func logTicks(values []int) []plot.Tick {
	var ticks []plot.Tick
	for _, v := range values {
		t := plot.Tick{Value: math.Log2(float64(v))}
		if len(values) <= 12 || v&(v-1) == 0 {
			t.Label = strconv.Itoa(v)
		}
		ticks = append(ticks, t)
	}
	return ticks
}
