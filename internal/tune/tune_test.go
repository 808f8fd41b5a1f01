package tune

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/batchlas/batchlas/internal/bench"
	"github.com/batchlas/batchlas/internal/route"
)

// testOp is a synthetic op, so that these tests do not move with the
// built-in candidates: native:tiny runs n ≤ 16 on a GPU, vendor any n on a
// GPU, cpu on the host only.
func testOp() *route.Op {
	gpu := func(c route.Call) error {
		if !c.Device.GPU() {
			return errors.New("needs a GPU")
		}
		return nil
	}
	return &route.Op{Name: "potrf", Keys: []route.Key{{Name: "uplo"}, {Name: "n", Weight: 3}, {Name: "batch", Weight: 1}},
		Candidates: []route.Candidate{
			{Name: "native:tiny", CanRun: func(c route.Call) error {
				if err := gpu(c); err != nil {
					return err
				}
				if c.N > 16 {
					return fmt.Errorf("n=%d > 16", c.N)
				}
				return nil
			}},
			{Name: "vendor", CanRun: gpu},
			{Name: "cpu", CanRun: func(c route.Call) error {
				if c.Device.GPU() {
					return errors.New("host only")
				}
				return nil
			}},
		}}
}

var gpu = route.Device{Key: "sm_90", Vendor: true}

// fakeTimes are ns per call by candidate: native:tiny grows with n, vendor
// is flat, so native wins at small n only.
func fakeTimes(p Point, arm string) float64 {
	switch arm {
	case "native:tiny":
		return float64(p.N) * 1000
	case "vendor":
		return 10000
	}
	return 1e6
}

// fake is a Measure that records its calls.
type fake struct {
	calls []string
	// fail, when set, marks an arm failed at a point; its time is still
	// reported (and must be ignored).
	fail func(p Point, arm string) bool
	skip func(p Point, arm string) bool
	// after, when set, runs after each call (to cancel a sweep).
	after func(n int)
}

func (f *fake) measure(p Point, arms []string) ([]bench.ArmResult, error) {
	f.calls = append(f.calls, fmt.Sprintf("%s n=%d batch=%d %s", p.DType, p.N, p.Batch, strings.Join(arms, ",")))
	var out []bench.ArmResult
	for _, a := range arms {
		r := bench.ArmResult{Arm: a, NsPerCall: fakeTimes(p, a)}
		if f.fail != nil && f.fail(p, a) {
			r.Failed = true
			r.NsPerCall = 1 // faster than anything: must never be ranked
		}
		if f.skip != nil && f.skip(p, a) {
			r = bench.ArmResult{Arm: a, Skipped: "cannot"}
		}
		out = append(out, r)
	}
	if f.after != nil {
		f.after(len(f.calls))
	}
	return out, nil
}

func testConfig(t *testing.T, dir string, f *fake) Config {
	t.Helper()
	op := testOp()
	return Config{
		Op:      op,
		Grid:    Grid{DTypes: []string{"float32", "float64"}, N: []int{8, 16, 32}, Batch: []int{100, 1000}},
		Device:  gpu,
		Dir:     dir,
		Source:  "batchlas tune potrf --dtype float32,float64 --n 8:32:x2 --batch 100,1000",
		Measure: f.measure,
		Ops:     []*route.Op{op},
		Now:     func() time.Time { return time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC) },
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestRunWritesTables(t *testing.T) {
	dir := t.TempDir()
	f := &fake{}
	s, err := Run(context.Background(), testConfig(t, dir, f))
	if err != nil {
		t.Fatal(err)
	}
	if s.Points != 12 || s.Measured != 12 || s.Resumed != 0 || len(f.calls) != 12 {
		t.Fatalf("summary %+v, %d calls", s, len(f.calls))
	}
	// Only candidates that can run are measured: no cpu on a GPU, and no
	// native:tiny past n = 16.
	if f.calls[0] != "float32 n=8 batch=100 native:tiny,vendor" || f.calls[4] != "float32 n=32 batch=100 vendor" {
		t.Errorf("calls: %q", f.calls)
	}
	want := `# a note
op      potrf
dtype   float32
device  sm_90
date    2026-03-04
source  batchlas tune potrf --dtype float32,float64 --n 8:32:x2 --batch 100,1000
keys    uplo n batch
L  8   100    native:tiny 8   vendor 10
L  8   1000   native:tiny 8   vendor 10
L  16  100    vendor 10       native:tiny 16
L  16  1000   vendor 10       native:tiny 16
L  32  100    vendor 10
L  32  1000   vendor 10
`
	// Notes come from the config; rerun with one to compare the whole file.
	cfg := testConfig(t, t.TempDir(), &fake{})
	cfg.Notes = []string{"a note"}
	s2, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, s2.Tables[0]); got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
	if !slices.Equal(s.Tables, []string{filepath.Join(dir, "potrf.float32.sm_90.txt"), filepath.Join(dir, "potrf.float64.sm_90.txt")}) {
		t.Errorf("tables %v", s.Tables)
	}
	for _, path := range s.Tables {
		if _, err := route.ParseTable(path, strings.NewReader(readFile(t, path))); err != nil {
			t.Error(err)
		}
		// Tables are copied and committed: readable by all, not CreateTemp's 0600.
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v (%v), want 0644", path, fi.Mode().Perm(), err)
		}
	}
	if got := readFile(t, filepath.Join(dir, route.IndexFile)); !strings.HasSuffix(got, "\npotrf.float32.sm_90.txt\npotrf.float64.sm_90.txt\n") {
		t.Errorf("index.txt:\n%s", got)
	}

	// The folder routes as BATCHLAS_TUNED_DIR would. n = 10 is nearer 8
	// (3·log₂(10/8) = 0.97) than 16 (2.03); n = 12 nearer 16 (1.25 < 1.75).
	r, err := route.New(route.Config{Ops: []*route.Op{testOp()}, Tables: fstest.MapFS{}, Dir: dir, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		n    int
		want string
	}{{8, "native:tiny"}, {10, "native:tiny"}, {12, "vendor"}, {16, "vendor"}, {64, "vendor"}} {
		d, err := r.Choose(route.Call{Op: "potrf", DType: "float64", Device: gpu, Uplo: "L", N: c.n, Batch: 500}, "")
		if err != nil || d.Candidate.Name != c.want || d.Why != route.WhyTable {
			t.Errorf("n=%d: %v %s; want %s from the table", c.n, err, d, c.want)
		}
	}
}

// TestFailedNeverTimed: a candidate whose result failed the oracle check is
// written as "-" after the timed ones, whatever time came with it, and the
// router never chooses it.
func TestFailedNeverTimed(t *testing.T) {
	dir := t.TempDir()
	f := &fake{fail: func(p Point, arm string) bool { return arm == "native:tiny" && p.N == 8 }}
	cfg := testConfig(t, dir, f)
	cfg.Grid.DTypes = []string{"float32"}
	s, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := route.ParseTable(s.Tables[0], strings.NewReader(readFile(t, s.Tables[0])))
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tab.Rows {
		if row.Values[1] != "8" {
			continue
		}
		want := []route.Entry{{Name: "vendor", Micros: 10}, {Name: "native:tiny", Failed: true}}
		if !reflect.DeepEqual(row.Entries, want) {
			t.Errorf("row %v: %+v, want %+v", row.Values, row.Entries, want)
		}
	}
	if !strings.Contains(readFile(t, s.Journal), "potrf float32 sm_90 uplo=L n=8 batch=100 | native:tiny - vendor 10\n") {
		t.Errorf("journal:\n%s", readFile(t, s.Journal))
	}
	r, err := route.New(route.Config{Ops: []*route.Op{testOp()}, Tables: fstest.MapFS{}, Dir: dir, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.Choose(route.Call{Op: "potrf", DType: "float32", Device: gpu, Uplo: "L", N: 8, Batch: 100}, "")
	if err != nil || d.Candidate.Name != "vendor" {
		t.Errorf("%v %s", err, d)
	}

	// Every candidate failed: the row lists them all as "-", in the op's order.
	dir = t.TempDir()
	cfg = testConfig(t, dir, &fake{fail: func(p Point, arm string) bool { return p.N == 8 }})
	cfg.Grid.DTypes = []string{"float32"}
	if s, err = Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if text := readFile(t, s.Tables[0]); !strings.Contains(text, "\nL  8   100    native:tiny -   vendor -\n") {
		t.Errorf("table:\n%s", text)
	}
}

func TestEntries(t *testing.T) {
	op := testOp()
	got := entries(op, []Result{
		{Name: "cpu", Micros: 5},
		{Name: "vendor", Failed: true, Micros: 1},
		{Name: "native:tiny", Micros: 5.00001},
		{Name: "other", Skipped: true},
	})
	// 5.00001 rounds to 5: equal times go in the op's order.
	want := []route.Entry{{Name: "native:tiny", Micros: 5}, {Name: "cpu", Micros: 5}, {Name: "vendor", Failed: true}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	for in, want := range map[float64]float64{12.3456: 12.35, 123456: 123500, 0.0123456: 0.01235, 7: 7} {
		if got := roundMicros(in); got != want {
			t.Errorf("roundMicros(%v) = %v, want %v", in, got, want)
		}
	}
}

// TestSkippedLeftOut: a candidate the measurement could not run is not in
// the row; a point where no candidate ran has no row; a dtype with no rows
// has no table.
func TestSkippedLeftOut(t *testing.T) {
	dir := t.TempDir()
	f := &fake{skip: func(p Point, arm string) bool { return arm == "vendor" || p.DType == "float64" }}
	s, err := Run(context.Background(), testConfig(t, dir, f))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tables) != 1 || !slices.Equal(s.Empty, []string{"float64"}) {
		t.Fatalf("tables %v, empty %v", s.Tables, s.Empty)
	}
	text := readFile(t, s.Tables[0])
	if strings.Contains(text, "vendor") || strings.Contains(text, " 32 ") {
		t.Errorf("table:\n%s", text)
	}
	if _, err := os.Stat(filepath.Join(dir, "potrf.float64.sm_90.txt")); err == nil {
		t.Error("an empty float64 table was written")
	}
}

// TestNoCandidateCanRun: points that no candidate can run on the device
// are not measured and are reported.
func TestNoCandidateCanRun(t *testing.T) {
	cfg := testConfig(t, t.TempDir(), &fake{})
	cfg.Op.Candidates = cfg.Op.Candidates[:1] // native:tiny only: n ≤ 16
	cfg.Ops = []*route.Op{cfg.Op}
	cfg.Grid.DTypes = []string{"float32"}
	s, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Unrunnable) != 2 || s.Unrunnable[0].N != 32 || s.Measured != 4 {
		t.Errorf("%+v", s)
	}
}

// TestResume: a sweep stopped after three points leaves a journal of three
// lines and no tables; --resume measures only the rest, and the tables are
// those of an uninterrupted sweep.
func TestResume(t *testing.T) {
	whole := t.TempDir()
	if _, err := Run(context.Background(), testConfig(t, whole, &fake{})); err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	f := &fake{after: func(n int) {
		if n == 3 {
			cancel()
		}
	}}
	s, err := Run(ctx, testConfig(t, dir, f))
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "stopped after 3 of 12 points") || !strings.Contains(err.Error(), "--resume") {
		t.Fatalf("err = %v", err)
	}
	if s.Measured != 3 || len(f.calls) != 3 {
		t.Fatalf("%+v", s)
	}
	records, err := ReadJournal(s.Journal)
	if err != nil || len(records) != 3 {
		t.Fatalf("journal: %v, %d records", err, len(records))
	}
	if _, err := os.Stat(filepath.Join(dir, "potrf.float32.sm_90.txt")); err == nil {
		t.Error("tables written by an interrupted sweep")
	}

	// Without --resume the journal is not overwritten.
	_, err = Run(context.Background(), testConfig(t, dir, &fake{}))
	if !IsUsage(err) || !strings.Contains(err.Error(), "exists: pass --resume") {
		t.Fatalf("err = %v", err)
	}

	// A write cut short leaves a torn last line: it is dropped.
	jf, err := os.OpenFile(s.Journal, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	jf.WriteString("potrf float32 sm_90 uplo=L n=32 batch=10")
	jf.Close()

	f = &fake{}
	cfg := testConfig(t, dir, f)
	cfg.Resume = true
	s, err = Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if s.Resumed != 3 || s.Measured != 9 || len(f.calls) != 9 || f.calls[0] != "float32 n=16 batch=1000 native:tiny,vendor" {
		t.Fatalf("%+v\ncalls %q", s, f.calls)
	}
	for _, name := range []string{"potrf.float32.sm_90.txt", "potrf.float64.sm_90.txt", route.IndexFile} {
		if a, b := readFile(t, filepath.Join(whole, name)), readFile(t, filepath.Join(dir, name)); a != b {
			t.Errorf("%s differs after resuming:\n%s\nwant:\n%s", name, b, a)
		}
	}
	if records, err = ReadJournal(s.Journal); err != nil || len(records) != 12 {
		t.Fatalf("journal: %v, %d records", err, len(records))
	}

	// Resuming a finished sweep measures nothing and writes the same tables;
	// a smaller grid leaves the other journal points out.
	f = &fake{}
	cfg = testConfig(t, dir, f)
	cfg.Resume = true
	cfg.Grid.Batch = []int{100}
	if s, err = Run(context.Background(), cfg); err != nil || len(f.calls) != 0 || s.Outside != 6 || s.Resumed != 6 {
		t.Fatalf("%v %+v", err, s)
	}
	if text := readFile(t, filepath.Join(dir, "potrf.float32.sm_90.txt")); strings.Contains(text, " 1000 ") {
		t.Errorf("points outside the grid in the table:\n%s", text)
	}
}

func TestJournalRoundTrip(t *testing.T) {
	op := builtin(t, "trsm")
	keys := []string{"side", "uplo", "trans", "n", "nrhs", "batch"}
	in := []Record{
		{Op: "trsm", Device: "sm_90", Point: Point{DType: "complex64", Side: "R", Uplo: "U", Trans: "C", N: 7, NRHS: 3, Batch: 100},
			Results: []Result{{Name: "vendor", Micros: 12.5}, {Name: "native:blocked:nb=64", Failed: true}, {Name: "cpu", Skipped: true}}},
		{Op: "trsm", Device: "sm_90", Point: Point{DType: "float32", Side: "L", Uplo: "L", Trans: "N", N: 1, NRHS: 1, Batch: 1}},
	}
	var b bytes.Buffer
	b.WriteString(journalHeader)
	for i := range in {
		b.WriteString(in[i].line(keys) + "\n")
	}
	if line := in[0].line(keys); line != "trsm complex64 sm_90 side=R uplo=U trans=C n=7 nrhs=3 batch=100 | vendor 12.5 native:blocked:nb=64 - cpu skip" {
		t.Errorf("line %q", line)
	}
	out, err := parseJournal("j", b.Bytes())
	if err != nil || !reflect.DeepEqual(out, in) {
		t.Fatalf("%v\n got %+v\nwant %+v", err, out, in)
	}
	if in[0].Point.Text(op) != "complex64 side=R uplo=U trans=C n=7 nrhs=3 batch=100" {
		t.Errorf("text %q", in[0].Point.Text(op))
	}
	for _, c := range []struct{ line, want string }{
		{"potrf float32 cpu uplo=L n=8 batch=64", `j:4: no "|"`},
		{"potrf float32 cpu | cpu 1", "j:4: want op, dtype, device and keys"},
		{"potrf float16 cpu n=8 | cpu 1", `j:4: dtype "float16"`},
		{"potrf float32 cpu n8 | cpu 1", `j:4: "n8" is not key=value`},
		{"potrf float32 cpu n=0 | cpu 1", `j:4: n="0": want an integer ≥ 1`},
		{"potrf float32 cpu uplo=X | cpu 1", `j:4: uplo="X"`},
		{"potrf float32 cpu q=1 | cpu 1", `j:4: unknown key "q"`},
		{"potrf float32 cpu n=1 n=2 | cpu 1", "j:4: key n twice"},
		{"potrf float32 cpu n=8 | cpu", `j:4: want pairs of candidate and result; "cpu" has none`},
		{"potrf float32 cpu n=8 | cpu 0", `j:4: cpu: "0" is not a time`},
		{"potrf float32 cpu n=8 | cpu fast", `j:4: cpu: "fast" is not a time`},
	} {
		_, err := parseJournal("j", []byte(journalHeader+c.line+"\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want %q", c.line, err, c.want)
		}
	}
	// A torn last line (no newline) is dropped, not an error.
	out, err = parseJournal("j", []byte(journalHeader+in[1].line(keys)+"\npotrf float32 cpu n=8 | cpu 1"))
	if err != nil || len(out) != 1 {
		t.Errorf("torn line: %v %d", err, len(out))
	}
}

func TestBenchSupports(t *testing.T) {
	if err := BenchSupports("potrf", Point{DType: "float32", Uplo: "L", N: 8, Batch: 8}, ""); err != nil {
		t.Error(err)
	}
	// Both triangles of potrf, on either input family, and of potrs and
	// posv.
	for _, inputs := range []string{"", "gpumode"} {
		for _, uplo := range []string{"L", "U"} {
			if err := BenchSupports("potrf", Point{DType: "float32", Uplo: uplo, N: 8, Batch: 8}, inputs); err != nil {
				t.Errorf("inputs %q, uplo %s: %v", inputs, uplo, err)
			}
		}
	}
	for _, op := range []string{"potrs", "posv"} {
		if err := BenchSupports(op, Point{DType: "complex64", Uplo: "U", N: 8, NRHS: 2, Batch: 8}, ""); err != nil {
			t.Errorf("%s Upper: %v", op, err)
		}
	}
	for _, c := range []struct {
		op     string
		p      Point
		inputs string
		want   string
	}{
		{"trmm", Point{N: 8}, "", "bench cannot time trmm"},
		{"syrk", Point{Uplo: "U", Trans: "N", N: 8}, "", "bench times syrk with uplo=L only, not U"},
		{"trsm", Point{Side: "L", Uplo: "U", Trans: "N", N: 8}, "", "bench times trsm with uplo=L only, not U"},
		{"getrf", Point{M: 9, N: 8}, "", "square matrices only (m = n), not m=9 n=8"},
		{"gemm", Point{M: 8, N: 8, K: 4, Trans: "N", TransB: "N"}, "", "k = n only"},
		{"trsm", Point{Side: "R", Uplo: "L", Trans: "N", N: 8}, "", "side=L only"},
		{"getrs", Point{Trans: "T", N: 8}, "", "trans=N only"},
	} {
		if err := BenchSupports(c.op, c.p, c.inputs); err == nil || !strings.Contains(err.Error(), c.want) || !IsUsage(err) {
			t.Errorf("%s %+v %q: err = %v, want %q", c.op, c.p, c.inputs, err, c.want)
		}
	}
	// Run refuses such a grid before measuring anything.
	cfg := testConfig(t, t.TempDir(), &fake{})
	syrk := *cfg.Op
	syrk.Name = "syrk"
	cfg.Op, cfg.Ops = &syrk, []*route.Op{&syrk}
	cfg.Measure = nil
	cfg.Grid.Uplo = []string{"U"}
	cfg.Bench = BenchOptions{Count: 1, Time: time.Millisecond}
	if _, err := Run(context.Background(), cfg); !IsUsage(err) || !strings.Contains(err.Error(), "bench times syrk with uplo=L only") {
		t.Errorf("err = %v", err)
	}
}

func TestHeatmap(t *testing.T) {
	dir := t.TempDir()
	f := &fake{fail: func(p Point, arm string) bool { return arm == "vendor" && p.N == 16 && p.Batch == 1000 }}
	s, err := Run(context.Background(), testConfig(t, dir, f))
	if err != nil {
		t.Fatal(err)
	}
	cells := map[string]Cell{}
	for i := range s.Records {
		cells[s.Records[i].Point.Text(testOp())] = RatioCell(&s.Records[i])
	}
	for text, want := range map[string]Cell{
		"float32 uplo=L n=8 batch=100":   {Ratio: 0.8},
		"float32 uplo=L n=16 batch=100":  {Ratio: 1.6},
		"float32 uplo=L n=16 batch=1000": {Mark: MarkFailed},
		"float32 uplo=L n=32 batch=100":  {Mark: MarkNoRun},
	} {
		got := cells[text]
		got.Point = Point{}
		if got != want {
			t.Errorf("%s: %+v, want %+v", text, got, want)
		}
	}
	path := filepath.Join(dir, "heat.png")
	if err := Heatmap(path, testOp(), "sm_90", s.Records); err != nil {
		t.Fatal(err)
	}
	if data := readFile(t, path); !strings.HasPrefix(data, "\x89PNG\r\n") || len(data) < 1000 {
		t.Errorf("not a PNG (%d bytes)", len(data))
	}
	// On the host there is no native or vendor candidate: no ratio anywhere.
	cfg := testConfig(t, t.TempDir(), &fake{})
	cfg.Device = route.Device{Key: "cpu"}
	if s, err = Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if err := Heatmap(filepath.Join(dir, "cpu.png"), testOp(), "cpu", s.Records); err == nil || !strings.Contains(err.Error(), "no point has both") {
		t.Errorf("err = %v", err)
	}
}
