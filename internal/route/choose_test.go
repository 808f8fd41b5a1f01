package route

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/batchlas/batchlas/internal/core"
)

// TestNearestRow checks table decisions against lookups worked by hand on
// testdata/basic/potrf.float32.sm_90.txt (rows on lines 10-17). Distance is
// 3·|Δlog₂ n| + |Δlog₂ batch|; rows hold n ∈ {8, 32, 128} (log₂ 3, 5, 7) and
// batch ∈ {1024, 16384} (log₂ 10, 14).
func TestNearestRow(t *testing.T) {
	h := newHarness(t)
	cases := []struct {
		name      string
		uplo      string
		n, batch  int
		dev       Device
		line      int
		want      string
		tie       bool
		fastest   string
		micros    float64
		skippedTo string // a substring of Skipped, if any
	}{
		// At rows.
		{"at L 8 1024", "L", 8, 1024, h200, 10, "native:tiny", false, "", 10, ""},
		{"at L 128 1024: failed entry listed after vendor", "L", 128, 1024, h200, 14, "vendor", false, "", 700, ""},
		{"at L 128 16384", "L", 128, 16384, h200, 15, "native:blocked:nb=64", false, "", 900, ""},
		{"at U 32 1024: native 6% slower is no tie", "U", 32, 1024, h200, 17, "vendor", false, "", 80, ""},

		// Tie margin, both sides: 102.9 ≤ 1.03·100 < 103.1.
		{"tie inside margin prefers native", "L", 8, 16384, h200, 11, "native:tiny", true, "vendor", 102.9, ""},
		{"just outside margin keeps vendor", "L", 32, 1024, h200, 12, "vendor", false, "", 100, ""},
		// Three entries within 3% of 300: the op's order picks native:tiny.
		{"tie among three takes list order", "L", 32, 16384, h200, 13, "native:tiny", true, "native:blocked:nb=64", 305, ""},
		// The margin is measured from the fastest entry that can run: n=40
		// rules out native:tiny; vendor 308 is within 3% of 300 but later in
		// the list than native:blocked.
		{"tie measured from runnable best", "L", 40, 16384, h200, 13, "native:blocked:nb=64", false, "", 300, "native:tiny (cannot run: n=40 > 32)"},
		// Without vendor the tie of line 11 has nothing to prefer.
		{"no vendor: next entry", "L", 8, 16384, h200Bare, 11, "native:tiny", false, "", 102.9, "vendor (cannot run: no vendor library)"},

		// Between rows.
		// n=16: 3·|4−3| = 3 = 3·|4−5|: equal, so the smaller keys (n=8).
		{"equidistant in n takes smaller", "L", 16, 1024, h200, 10, "native:tiny", false, "", 10, ""},
		// n=17: 3·(4.087−3) = 3.26 > 3·(5−4.087) = 2.74.
		{"just past the middle in n", "L", 17, 1024, h200, 12, "vendor", false, "", 100, ""},
		// batch=4096: |12−10| = 2 = |12−14|: equal, the smaller batch.
		{"equidistant in batch takes smaller", "L", 8, 4096, h200, 10, "native:tiny", false, "", 10, ""},
		{"just past the middle in batch", "L", 8, 4097, h200, 11, "native:tiny", true, "vendor", 102.9, ""},
		// n=64, batch=4096: four rows at 3+2 = 5; the smallest keys, (32, 1024).
		{"four-way tie takes smallest keys", "L", 64, 4096, h200, 12, "vendor", false, "", 100, ""},
		{"far below the grid", "L", 1, 1, h200, 10, "native:tiny", false, "", 10, ""},
		{"far above the grid", "L", 100000, 1000000, h200, 15, "native:blocked:nb=64", false, "", 900, ""},
		// n weighs 3: n=11, batch=2048 is 3·0.459 + 3 = 4.38 from (U 8 16384)
		// and 3·1.541 + 1 = 5.62 from (U 32 1024); with equal weights the
		// second would win (3.46 against 2.54).
		{"n weighs three", "U", 11, 2048, h200, 16, "native:tiny", false, "", 30, ""},
		// Exact key: uplo=U only looks at U rows even when an L row is nearer.
		{"exact key filters rows", "U", 128, 16384, h200, 17, "vendor", false, "", 80, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := h.choose(t, potrf("float32", c.dev, c.uplo, c.n, c.batch), "")
			if d.Line != c.line || d.Candidate.Name != c.want || d.Tie != c.tie || d.Micros != c.micros || d.Why != WhyTable {
				t.Fatalf("got line %d %s tie=%v %v µs (%v), want line %d %s tie=%v %v µs (table)\n%s",
					d.Line, d.Candidate.Name, d.Tie, d.Micros, d.Why, c.line, c.want, c.tie, c.micros, d)
			}
			if c.tie && d.Fastest.Name != c.fastest {
				t.Errorf("fastest %s, want %s", d.Fastest.Name, c.fastest)
			}
			if got := strings.Join(d.Skipped, "; "); !strings.Contains(got, c.skippedTo) || c.skippedTo == "" && got != "" {
				t.Errorf("skipped %q, want %q", got, c.skippedTo)
			}
			if len(d.Relaxed) != 0 {
				t.Errorf("relaxed %v", d.Relaxed)
			}
		})
	}
}

// TestNearestIsNearest checks the lookup's defining property over a grid of
// calls: no row agreeing on the exact keys is strictly nearer, and a row at
// the same distance has keys no smaller.
func TestNearestIsNearest(t *testing.T) {
	h := newHarness(t)
	op, _ := h.Op("potrf")
	tab := h.tables[tableID{"potrf", "float32", "sm_90"}]
	dist := func(r *Row, n, batch int) float64 {
		return 3*math.Abs(math.Log2(float64(r.ints[1])/float64(n))) + math.Abs(math.Log2(float64(r.ints[2])/float64(batch)))
	}
	for _, uplo := range []string{"L", "U"} {
		for n := 1; n <= 400; n += 3 {
			for _, batch := range []int{1, 7, 100, 1024, 3000, 4096, 4097, 9000, 16384, 1 << 20} {
				c := potrf("float32", h200, uplo, n, batch)
				got, _ := tab.nearest(&c, op)
				dg := dist(got, n, batch)
				for i := range tab.Rows {
					r := &tab.Rows[i]
					if r.Values[0] != uplo {
						continue
					}
					dr := dist(r, n, batch)
					if dr < dg-1e-9 || math.Abs(dr-dg) <= 1e-9 && slices.Compare(r.ints[1:], got.ints[1:]) < 0 {
						t.Fatalf("%s n=%d batch=%d: chose line %d (distance %.4f), line %d is %.4f", uplo, n, batch, got.Line, dg, r.Line, dr)
					}
				}
			}
		}
	}
}

// TestFailedNeverChosen: a "-" entry is skipped in the row, in the default
// order, and under kind pins.
func TestFailedNeverChosen(t *testing.T) {
	h := newHarness(t)
	// Line 14: vendor 700, native:blocked:nb=64 -. Without a vendor library
	// only native:blocked can run the shape, and it failed the check.
	_, err := h.Choose(potrf("float32", h200Bare, "L", 128, 1024), "")
	if !errors.Is(err, core.ErrUnsupported) || !strings.Contains(err.Error(), "native:blocked:nb=64: failed the oracle check at testdata/basic/potrf.float32.sm_90.txt:14") {
		t.Fatalf("err = %v", err)
	}
	_, err = h.Choose(potrf("float32", h200, "L", 128, 1024), "native")
	if !errors.Is(err, core.ErrUnsupported) || !strings.Contains(err.Error(), "failed the oracle check") {
		t.Fatalf("native pin: err = %v", err)
	}
	// Line 10 marks cpu failed; the host borrows sm_90's float32 table, and
	// only cpu can run on the host.
	_, err = h.Choose(potrf("float32", host, "L", 8, 1024), "")
	if !errors.Is(err, core.ErrUnsupported) || !strings.Contains(err.Error(), "cpu: failed the oracle check") {
		t.Fatalf("host: err = %v", err)
	}
	// A candidate pin may still force it (that is how it gets re-measured),
	// and the decision says so.
	d := h.choose(t, potrf("float32", h200, "L", 128, 1024), "native:blocked:nb=64")
	if d.Candidate.Name != "native:blocked:nb=64" || !strings.Contains(d.String(), "marks it as failing") {
		t.Fatalf("forced: %s", d)
	}
}

func TestRelaxExactKeys(t *testing.T) {
	h := newHarness(t)
	// trsm.float64.sm_90.txt rows: 8 L N, 9 L T, 10 R N 16, 11 R N 256.
	cases := []struct {
		name    string
		c       Call
		line    int
		want    string
		relaxed []string
	}{
		{"exact match", trsm("L", "T", 16, 16, 1000), 9, "vendor", nil},
		// No R T row: the last exact key (trans) goes first, leaving the R
		// rows; relaxing side first would have found L T.
		{"relax last key first", trsm("R", "T", 16, 16, 1000), 10, "native:small", []string{"trans"}},
		// No L C row: both L rows are at distance 0; the earlier line wins.
		{"relaxed tie takes earlier line", trsm("L", "C", 16, 16, 1000), 8, "native:small", []string{"trans"}},
		{"relaxed then nearest", trsm("R", "C", 200, 16, 1000), 11, "vendor", []string{"trans"}},
		// potrf float64 tables hold L rows only.
		{"relax the only exact key", potrf("float64", Device{Key: "sm_89", Vendor: true}, "U", 16, 1024), 8, "native:tiny", []string{"uplo"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := h.choose(t, c.c, "")
			if d.Line != c.line || d.Candidate.Name != c.want || !slices.Equal(d.Relaxed, c.relaxed) {
				t.Fatalf("got line %d %s relaxed %v, want line %d %s relaxed %v", d.Line, d.Candidate.Name, d.Relaxed, c.line, c.want, c.relaxed)
			}
		})
	}
}

func TestBorrow(t *testing.T) {
	h := newHarness(t)
	// potrf float64 has tables on sm_89, sm_100 and cpu.
	cases := []struct {
		dev, lender string
		why         Why
	}{
		{"sm_90", "sm_89", WhyBorrowed},   // closest lower of the family
		{"sm_90", "sm_89", WhyBorrowed},   // again: no second warning
		{"sm_120", "sm_100", WhyBorrowed}, // closest lower
		{"sm_75", "sm_89", WhyBorrowed},   // none lower: closest higher
		{"sm_89", "sm_89", WhyTable},
		{"gfx90a", "sm_100", WhyBorrowed}, // another family: GPUs before the host, newest first
	}
	for _, c := range cases {
		d := h.choose(t, potrf("float64", Device{Key: c.dev, Vendor: true}, "L", 16, 1024), "")
		if d.TableDevice != c.lender || d.Why != c.why || d.Candidate.Name != "native:tiny" {
			t.Errorf("%s: got %s's table (%v) -> %s, want %s's (%v)", c.dev, d.TableDevice, d.Why, d.Candidate.Name, c.lender, c.why)
		}
	}
	d := h.choose(t, potrf("float64", host, "L", 16, 1024), "")
	if d.Why != WhyTable || d.Candidate.Name != "cpu" {
		t.Errorf("cpu: %s", d)
	}
	// float32 has only sm_90's table, which the host borrows. Row 12 lists
	// no candidate that runs on the host: the default order gives cpu.
	d = h.choose(t, potrf("float32", host, "L", 32, 1024), "")
	if d.Why != WhyDefault || d.Candidate.Name != "cpu" || d.Line != 12 || d.Note != "no candidate of the row can run" {
		t.Errorf("host float32: %s", d)
	}
	want := []string{
		"route: no potrf float64 table for sm_90; borrowing sm_89's (testdata/basic/potrf.float64.sm_89.txt). Run batchlas tune on this device for its own.",
		"route: no potrf float64 table for sm_120; borrowing sm_100's (testdata/basic/potrf.float64.sm_100.txt). Run batchlas tune on this device for its own.",
		"route: no potrf float64 table for sm_75; borrowing sm_89's (testdata/basic/potrf.float64.sm_89.txt). Run batchlas tune on this device for its own.",
		"route: no potrf float64 table for gfx90a; borrowing sm_100's (testdata/basic/potrf.float64.sm_100.txt). Run batchlas tune on this device for its own.",
		"route: no potrf float32 table for cpu; borrowing sm_90's (testdata/basic/potrf.float32.sm_90.txt). Run batchlas tune on this device for its own.",
	}
	if !slices.Equal(h.warnings, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(h.warnings, "\n"), strings.Join(want, "\n"))
	}
}

func TestBorrowWarnsOnceConcurrently(t *testing.T) {
	h := newHarness(t)
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			for range 10 {
				if _, err := h.Choose(potrf("float64", Device{Key: "sm_86", Vendor: true}, "L", 16, 1024), ""); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if len(h.warnings) != 1 {
		t.Fatalf("%d warnings: %q", len(h.warnings), h.warnings)
	}
}

func TestBorrowOrder(t *testing.T) {
	have := []string{"cpu", "sm_75", "sm_89", "sm_90", "sm_100", "sm_120", "gfx90a"}
	cases := map[string][]string{
		"sm_90":  {"sm_89", "sm_75", "sm_100", "sm_120", "gfx90a", "cpu"},
		"sm_80":  {"sm_75", "sm_89", "sm_90", "sm_100", "sm_120", "gfx90a", "cpu"},
		"sm_70":  {"sm_75", "sm_89", "sm_90", "sm_100", "sm_120", "gfx90a", "cpu"},
		"sm_121": {"sm_120", "sm_100", "sm_90", "sm_89", "sm_75", "gfx90a", "cpu"},
		"cpu":    {"gfx90a", "sm_120", "sm_100", "sm_90", "sm_89", "sm_75"},
	}
	for dev, want := range cases {
		if got := borrowOrder(dev, have); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", dev, got, want)
		}
	}
}

func TestDefaultOrder(t *testing.T) {
	h := newHarness(t)
	// inv has no table anywhere; its default order is cpu, then vendor.
	d := h.choose(t, Call{Op: "inv", DType: "float32", Device: h200, N: 4, Batch: 9}, "")
	if d.Why != WhyDefault || d.Candidate.Name != "vendor" || d.Line != 0 {
		t.Errorf("gpu: %s", d)
	}
	d = h.choose(t, Call{Op: "inv", DType: "float32", Device: host, N: 4, Batch: 9}, "")
	if d.Why != WhyDefault || d.Candidate.Name != "cpu" {
		t.Errorf("host: %s", d)
	}
	// trsm complex64 has no table either: the list order.
	c := trsm("L", "N", 8, 8, 8)
	c.DType = "complex64"
	if d = h.choose(t, c, ""); d.Why != WhyDefault || d.Candidate.Name != "native:small" {
		t.Errorf("trsm: %s", d)
	}
	// A row whose candidates cannot run falls to the default order, which
	// lists every refusal when nothing runs: line 11 of trsm lists vendor
	// and cpu (failed); without vendor, native:small cannot run n=256 either.
	// (TestBorrow has the default order finding one.)
	c = trsm("R", "N", 256, 16, 1000)
	c.Device.Vendor = false
	if _, err := h.Choose(c, ""); !errors.Is(err, core.ErrUnsupported) ||
		!strings.Contains(err.Error(), "no candidate can run it: native:small: n=256 > 64; vendor: no vendor library; cpu: host only") {
		t.Errorf("err = %v", err)
	}
}

func TestPins(t *testing.T) {
	const env = "BATCHLAS_POTRF_ROUTE"
	at8 := potrf("float32", h200, "L", 8, 1024)      // line 10: native:tiny 10, native:blocked 20, vendor 40, cpu -
	tie := potrf("float32", h200, "L", 8, 16384)     // line 11: vendor 100, native:tiny 102.9, native:blocked 200
	big := potrf("float32", h200, "L", 128, 16384)   // line 15: native:blocked 900, vendor 2000
	upper := potrf("float32", h200, "U", 128, 16384) // line 17: vendor 80, native:tiny 85
	cases := []struct {
		name, env, code string
		c               Call
		want            string // candidate, or "" for an error
		errIs           error
		errHas          string
		why             Why
	}{
		{"env auto", "auto", "", at8, "native:tiny", nil, "", WhyTable},
		{"env unset", "", "", tie, "native:tiny", nil, "", WhyTable},
		{"env vendor", "vendor", "", at8, "vendor", nil, "", WhyPinned},
		{"env native takes the row's best native", "native", "", tie, "native:tiny", nil, "", WhyPinned},
		{"env native, ranked natives", "native", "", big, "native:blocked:nb=64", nil, "", WhyPinned},
		{"env native, nothing in row: default order", "native", "", upper, "", core.ErrUnsupported,
			"no native candidate (pinned by BATCHLAS_POTRF_ROUTE) can run it: native:tiny: n=128 > 32; native:blocked:nb=64: Lower only", 0},
		{"env candidate", "native:blocked:nb=64", "", at8, "native:blocked:nb=64", nil, "", WhyPinned},
		{"env candidate with spaces", " vendor ", "", at8, "vendor", nil, "", WhyPinned},
		{"env cpu on a GPU", "cpu", "", at8, "", core.ErrUnsupported, "no cpu candidate (pinned by BATCHLAS_POTRF_ROUTE) can run it: cpu: host only", 0},
		{"env candidate that cannot run", "native:tiny", "", big, "", core.ErrUnsupported,
			"route potrf float32 sm_90 uplo=L n=128 batch=16384: pinned native:tiny (BATCHLAS_POTRF_ROUTE) cannot run it: n=128 > 32", 0},
		{"env unknown candidate", "native:huge", "", at8, "", core.ErrUnsupported,
			"pin native:huge (BATCHLAS_POTRF_ROUTE) names no candidate of potrf; it has native:tiny, native:blocked:nb=64, vendor, cpu", 0},
		{"env unknown parameter value", "native:blocked:nb=32", "", at8, "", core.ErrUnsupported, "names no candidate", 0},
		{"env misspelt kind", "Native", "", at8, "", core.ErrArgument, `route potrf float32 sm_90 uplo=L n=8 batch=1024: pin (BATCHLAS_POTRF_ROUTE) "Native" does not start with native, vendor or cpu; want auto, native, vendor, cpu or a candidate such as native:blocked:nb=64`, 0},
		{"env tier missing", "native:", "", at8, "", core.ErrArgument, "tier", 0},
		{"env bare tier", "tiny", "", at8, "", core.ErrArgument, "does not start with native, vendor or cpu", 0},
		{"env native without tier", "native:nb=64", "", at8, "", core.ErrArgument, "names its tier", 0},
		{"env parameter without value", "native:blocked:nb=", "", at8, "", core.ErrArgument, "not a parameter", 0},
		{"env parameters out of order", "native:blocked:nb=64:ib=8", "", at8, "", core.ErrArgument, "name order", 0},
		{"code pin beats env", "vendor", "native:tiny", at8, "native:tiny", nil, "", WhyPinned},
		{"code auto ignores env", "bogus!", "auto", at8, "native:tiny", nil, "", WhyTable},
		{"code kind pin", "", "vendor", big, "vendor", nil, "", WhyPinned},
		{"code bad pin", "", "native:Tiny", at8, "", core.ErrArgument, `pin (code) "native:Tiny": tier "Tiny" is not a lower-case word`, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			h.setenv(env, c.env)
			d, err := h.Choose(c.c, c.code)
			if c.want == "" {
				if !errors.Is(err, c.errIs) || !strings.Contains(err.Error(), c.errHas) {
					t.Fatalf("err = %v\nwant %v containing %q", err, c.errIs, c.errHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.Candidate.Name != c.want || d.Why != c.why {
				t.Fatalf("%s (%v), want %s (%v)", d.Candidate.Name, d.Why, c.want, c.why)
			}
		})
	}

	// The variable is read at every decision.
	h := newHarness(t)
	for _, v := range []string{"vendor", "native:blocked:nb=64", "auto"} {
		h.setenv(env, v)
		want := map[string]string{"vendor": "vendor", "native:blocked:nb=64": "native:blocked:nb=64", "auto": "native:tiny"}[v]
		if d := h.choose(t, at8, ""); d.Candidate.Name != want {
			t.Errorf("%s=%s: %s", env, v, d.Candidate.Name)
		}
	}
	// Other ops' variables do not apply.
	h.setenv(env, "cpu")
	if d := h.choose(t, trsm("L", "N", 16, 16, 1000), ""); d.Candidate.Name != "native:small" {
		t.Errorf("trsm under %s=cpu: %s", env, d)
	}
	// An op without natives refuses a native pin.
	if _, err := h.Choose(Call{Op: "inv", DType: "float32", Device: h200, N: 4, Batch: 9}, "native"); !errors.Is(err, core.ErrUnsupported) ||
		!strings.Contains(err.Error(), "no native candidate (pinned by code): inv has none") {
		t.Errorf("inv native: %v", err)
	}
}

func TestParsePin(t *testing.T) {
	for s, want := range map[string]string{"": "auto", "auto": "auto", " cpu": "cpu", "native": "native", "native:blocked:ib=8:nb=64": "native:blocked:ib=8:nb=64", "vendor:getrf": "vendor:getrf"} {
		p, err := ParsePin(s)
		if err != nil || p.String() != want {
			t.Errorf("ParsePin(%q) = %v, %v; want %s", s, p, err, want)
		}
	}
	p, _ := ParsePin("native")
	if k, ok := p.Kind(); !ok || k != Native {
		t.Errorf("native: kind %v %v", k, ok)
	}
	if _, ok := p.Candidate(); ok {
		t.Error("native is a kind pin, not a candidate")
	}
	p, _ = ParsePin("native:tiny")
	if name, ok := p.Candidate(); !ok || name != "native:tiny" {
		t.Errorf("native:tiny: %q %v", name, ok)
	}
	for _, s := range []string{"AUTO", "gpu", "native:", "native::x", "native:ti-ny", "cpu:nb=1:nb=2", "vendor:x:y", "native:a:b=1:a=2", "native:t:nb=6 4"} {
		if _, err := ParsePin(s); !errors.Is(err, core.ErrArgument) {
			t.Errorf("ParsePin(%q): err = %v, want ErrArgument", s, err)
		}
	}
}

func TestBadCall(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct {
		c   Call
		has string
	}{
		{Call{Op: "potrs", DType: "float32", Device: h200, N: 1, Batch: 1}, `no op "potrs" (ops: potrf, trsm, inv)`},
		{potrf("float16", h200, "L", 8, 8), `dtype "float16"`},
		{potrf("float32", Device{}, "L", 8, 8), `device key ""`},
		{potrf("float32", Device{Key: "sm 90"}, "L", 8, 8), `device key "sm 90"`},
		{potrf("float32", h200, "X", 8, 8), `uplo="X": want one of L, U`},
		{potrf("float32", h200, "L", 0, 8), "n=0: a routed call has n ≥ 1"},
		{potrf("float32", h200, "L", 8, 0), "batch=0"},
		{trsm("L", "N", 8, 0, 8), "nrhs=0"},
	} {
		if _, err := h.Choose(c.c, ""); !errors.Is(err, core.ErrArgument) || !strings.Contains(err.Error(), c.has) {
			t.Errorf("%+v: err = %v, want ErrArgument with %q", c.c, err, c.has)
		}
	}
}

func TestTrace(t *testing.T) {
	h := newHarness(t)
	calls := []struct {
		c   Call
		pin string
	}{
		{potrf("float32", h200, "L", 8, 1024), ""},
		{potrf("float32", h200, "L", 9, 16000), ""},
		{potrf("float32", h200, "L", 40, 16384), ""},
		{trsm("R", "T", 16, 16, 1000), ""},
		{potrf("float64", Device{Key: "sm_90", Vendor: true}, "L", 16, 1024), ""},
		{potrf("float32", h200, "L", 128, 16384), "vendor"},
		{potrf("float32", h200, "L", 128, 16384), "native"},
		{Call{Op: "inv", DType: "complex128", Device: h200, N: 3, Batch: 2}, ""},
	}
	// Off unless BATCHLAS_TRACE is set.
	h.choose(t, calls[0].c, "")
	if len(h.traces) != 0 {
		t.Fatalf("traced with BATCHLAS_TRACE unset: %q", h.traces)
	}
	h.setenv("BATCHLAS_TRACE", "1")
	for _, c := range calls {
		h.Choose(c.c, c.pin)
	}
	want := []string{
		"potrf float32 sm_90 uplo=L n=8 batch=1024 -> native:tiny: table; row testdata/basic/potrf.float32.sm_90.txt:10 [uplo=L n=8 batch=1024] 10 µs",
		"potrf float32 sm_90 uplo=L n=9 batch=16000 -> native:tiny: table; tie → native, within 3% of vendor 100 µs; row testdata/basic/potrf.float32.sm_90.txt:11 [uplo=L n=8 batch=16384] 102.9 µs",
		"potrf float32 sm_90 uplo=L n=40 batch=16384 -> native:blocked:nb=64: table; row testdata/basic/potrf.float32.sm_90.txt:13 [uplo=L n=32 batch=16384] 300 µs; passed over native:tiny (cannot run: n=40 > 32)",
		"trsm float64 sm_90 side=R trans=T n=16 nrhs=16 batch=1000 -> native:small: table; row testdata/basic/trsm.float64.sm_90.txt:10 [side=R trans=N n=16 nrhs=16 batch=1000] (trans relaxed) 7 µs",
		"potrf float64 sm_90 uplo=L n=16 batch=1024 -> native:tiny: borrowed table of sm_89; row testdata/basic/potrf.float64.sm_89.txt:8 [uplo=L n=16 batch=1024] 10 µs",
		"potrf float32 sm_90 uplo=L n=128 batch=16384 -> vendor: pinned vendor by code; row testdata/basic/potrf.float32.sm_90.txt:15 [uplo=L n=128 batch=16384] 2000 µs",
		"potrf float32 sm_90 uplo=L n=128 batch=16384 -> native:blocked:nb=64: pinned native by code; row testdata/basic/potrf.float32.sm_90.txt:15 [uplo=L n=128 batch=16384] 900 µs",
		"inv complex128 sm_90 n=3 batch=2 -> vendor: default order; no inv complex128 table on any device",
		"trsm float64 sm_90 side=R trans=N n=200 nrhs=16 batch=1000 -> vendor: pinned vendor by BATCHLAS_TRSM_ROUTE; row testdata/basic/trsm.float64.sm_90.txt:11 [side=R trans=N n=256 nrhs=16 batch=1000] 50 µs",
		"potrf float32 cpu uplo=L n=32 batch=1024 -> cpu: default order, borrowing the table of sm_90; row testdata/basic/potrf.float32.sm_90.txt:12 [uplo=L n=32 batch=1024]; no candidate of the row can run",
	}
	h.setenv("BATCHLAS_TRSM_ROUTE", "vendor")
	h.Choose(trsm("R", "N", 200, 16, 1000), "")
	h.Choose(trsm("R", "N", 200, 16, 1000), "native:small") // cannot run: an error, not traced
	h.Choose(potrf("float32", host, "L", 32, 1024), "")
	if !slices.Equal(h.traces, want) {
		t.Errorf("traces:\n%s\nwant:\n%s", strings.Join(h.traces, "\n"), strings.Join(want, "\n"))
	}
	// The skipped entries of a row are explained.
	h.traces = nil
	h.Choose(potrf("float32", h200Bare, "L", 8, 16384), "")
	if want := "passed over vendor (cannot run: no vendor library)"; len(h.traces) != 1 || !strings.Contains(h.traces[0], want) {
		t.Errorf("trace %q lacks %q", h.traces, want)
	}
}

// TestPinnedOnly holds a PinnedOnly candidate to its contract: chosen when
// a pin names it, never from its table row (where it is the fastest), auto,
// a kind pin or the default order.
func TestPinnedOnly(t *testing.T) {
	gpuOnly := func(c Call) error {
		if !c.Device.GPU() {
			return errors.New("needs a GPU")
		}
		return nil
	}
	ops := []*Op{{Name: "potrf", Keys: []Key{{Name: "uplo"}, {Name: "n", Weight: 3}, {Name: "batch", Weight: 1}}, Candidates: []Candidate{
		{Name: "native:fast", CanRun: gpuOnly, PinnedOnly: true},
		{Name: "native:tiny", CanRun: gpuOnly},
		{Name: "vendor", CanRun: gpuOnly},
	}}}
	table := "op potrf\ndtype float32\ndevice sm_90\ndate 2026-01-01\nsource synthetic\nkeys uplo n batch\n" +
		"L 8 1024 native:fast 5 native:tiny 10 vendor 40\n"
	for _, tables := range []fstest.MapFS{{"potrf.float32.sm_90.txt": {Data: []byte(table)}}, {}} {
		r, err := New(Config{Ops: ops, Tables: tables, Label: "mem", Getenv: func(string) string { return "" }, Tracer: &harness{}, Warn: func(string) {}})
		if err != nil {
			t.Fatal(err)
		}
		for pin, want := range map[string]string{"": "native:tiny", "auto": "native:tiny", "native": "native:tiny", "native:fast": "native:fast", "vendor": "vendor"} {
			d, err := r.Choose(potrf("float32", h200, "L", 8, 1024), pin)
			if err != nil || d.Candidate.Name != want {
				t.Errorf("%d tables, pin %q: %s, %v; want %s", len(tables), pin, d.Candidate.Name, err, want)
			}
		}
	}
}

// TestTriangleBound checks that a row of the other triangle never chooses a
// TriangleBound candidate: an Upper call routed by a Lower row where the
// vendor leads takes the fastest other candidate, a Lower call the vendor.
func TestTriangleBound(t *testing.T) {
	always := func(Call) error { return nil }
	ops := []*Op{{Name: "potrf", Keys: []Key{{Name: "uplo"}, {Name: "n", Weight: 3}, {Name: "batch", Weight: 1}}, Candidates: []Candidate{
		{Name: "native:tiled", CanRun: always},
		{Name: "native:blocked", CanRun: always},
		{Name: "vendor", CanRun: always, TriangleBound: true},
		{Name: "vendor:loop", CanRun: always, TriangleBound: true},
	}}}
	head := "op potrf\ndtype %s\ndevice sm_90\ndate 2026-01-01\nsource synthetic\nkeys uplo n batch\n"
	tables := fstest.MapFS{
		// Lower rows only.
		"potrf.complex128.sm_90.txt": {Data: []byte(fmt.Sprintf(head, "complex128") +
			"L 4096 1 vendor 5658 vendor:loop 5661 native:blocked 6500 native:tiled 7868\n")},
		// Both triangles.
		"potrf.complex64.sm_90.txt": {Data: []byte(fmt.Sprintf(head, "complex64") +
			"L 4096 1 vendor 5000 native:blocked 6000\nU 4096 1 vendor 5000 native:blocked 6000\n")},
	}
	r, err := New(Config{Ops: ops, Tables: tables, Label: "mem", Getenv: func(string) string { return "" }, Tracer: &harness{}, Warn: func(string) {}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		dtype, uplo string
		want        string
	}{
		{"complex128", "L", "vendor"},         // its own triangle's row
		{"complex128", "U", "native:blocked"}, // a Lower row: the vendor's two entries passed over
		{"complex64", "U", "vendor"},          // an Upper row of its own
	}
	for _, c := range cases {
		d, err := r.Choose(potrf(c.dtype, h200, c.uplo, 4096, 1), "")
		if err != nil || d.Candidate.Name != c.want {
			t.Errorf("%s %s: %s, %v; want %s", c.dtype, c.uplo, d.Candidate.Name, err, c.want)
			continue
		}
		if c.want == "native:blocked" && !strings.Contains(d.String(), "vendor (timed on the other triangle only)") {
			t.Errorf("%s %s: the decision does not say why the vendor was passed over: %s", c.dtype, c.uplo, d)
		}
	}
}

// TestChooseRemembers: a remembered decision follows BATCHLAS_<OP>_ROUTE
// as it changes, is traced on every call, and the memory stays bounded.
func TestChooseRemembers(t *testing.T) {
	h := newHarness(t)
	c := potrf("float32", h200, "L", 8, 1024)
	if d := h.choose(t, c, ""); d.Candidate.Name != "native:tiny" {
		t.Fatalf("table's choice %s", d.Candidate.Name)
	}
	h.setenv("BATCHLAS_POTRF_ROUTE", "vendor")
	if d := h.choose(t, c, ""); d.Candidate.Name != "vendor" {
		t.Errorf("with BATCHLAS_POTRF_ROUTE=vendor: %s", d.Candidate.Name)
	}
	h.setenv("BATCHLAS_POTRF_ROUTE", "")
	h.setenv("BATCHLAS_TRACE", "1")
	for range 2 {
		if d := h.choose(t, c, ""); d.Candidate.Name != "native:tiny" {
			t.Errorf("the variable unset again: %s", d.Candidate.Name)
		}
	}
	if len(h.traces) != 2 {
		t.Errorf("%d traces of two remembered decisions", len(h.traces))
	}
	for b := 1; b <= maxCached+10; b++ {
		h.choose(t, potrf("float32", h200, "L", 8, b), "")
	}
	if n := len(h.cache); n > maxCached {
		t.Errorf("%d decisions remembered, at most %d wanted", n, maxCached)
	}
}
