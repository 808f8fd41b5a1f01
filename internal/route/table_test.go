package route

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/batchlas/batchlas/tuned"
)

// A valid table: line 7 is the keys line, rows are lines 8-10.
const goodTable = `# SYNTHETIC: invented numbers for tests.
op      potrf
dtype   float32
device  sm_90
date    2026-01-01
source  synthetic
keys    uplo n batch
L  8   1024   native:tiny 10   vendor 40   cpu -
L  32  1024   vendor 100       native:tiny 103.1
U  8   1024   vendor 50
`

const goodName = "potrf.float32.sm_90.txt"

func TestParseTable(t *testing.T) {
	tab, err := ParseTable("x/"+goodName, strings.NewReader(goodTable))
	if err != nil {
		t.Fatal(err)
	}
	if tab.Op != "potrf" || tab.DType != "float32" || tab.Device != "sm_90" || tab.Date != "2026-01-01" || tab.Source != "synthetic" ||
		!reflect.DeepEqual(tab.Keys, []string{"uplo", "n", "batch"}) || len(tab.Rows) != 3 || !reflect.DeepEqual(tab.Notes, []string{"SYNTHETIC: invented numbers for tests."}) {
		t.Fatalf("%+v", tab)
	}
	r := tab.Rows[0]
	want := []Entry{{Name: "native:tiny", Micros: 10}, {Name: "vendor", Micros: 40}, {Name: "cpu", Failed: true}}
	if r.Line != 8 || !reflect.DeepEqual(r.Values, []string{"L", "8", "1024"}) || !reflect.DeepEqual(r.Entries, want) {
		t.Fatalf("row %+v", r)
	}
}

// TestMalformedTable: every defect is reported with the file and the line.
func TestMalformedTable(t *testing.T) {
	cases := []struct {
		name, old, new, want string
	}{
		{"missing header field", "date    2026-01-01\n", "", goodName + ":6: header has no date line before keys"},
		{"unknown header field", "source  synthetic\n", "source  synthetic\nunit us\n", goodName + `:7: "unit" is not a header field`},
		{"header repeats", "source  synthetic\n", "source  synthetic\nop potrf\n", goodName + ":7: second op line"},
		{"header disagrees with name", "device  sm_90", "device  sm_89", goodName + ":4: header says device sm_89 but the file name says sm_90"},
		{"bad date", "2026-01-01", "2026-13-01", goodName + `:5: date "2026-13-01" is not YYYY-MM-DD`},
		{"date with two fields", "2026-01-01", "2026-01-01 12:00", goodName + ":5: date wants one value"},
		{"unknown key", "keys    uplo n batch", "keys    uplo n count", goodName + `:7: unknown key "count"`},
		{"key twice", "keys    uplo n batch", "keys    uplo n n", goodName + `:7: key "n" twice`},
		{"short row", "U  8   1024   vendor 50", "U  8", goodName + ":10: row has 2 fields, the keys line names 3 keys"},
		{"no candidates", "U  8   1024   vendor 50", "U  8  1024", goodName + ":10: row lists no candidates"},
		{"candidate without time", "U  8   1024   vendor 50", "U  8   1024   vendor 50 cpu", goodName + `:10: after the 3 keys, want pairs of candidate and time (µs or -); "cpu" has no time`},
		{"integer key not a number", "U  8   1024", "U  8.5 1024", goodName + `:10: n="8.5": want an integer ≥ 1`},
		{"integer key zero", "U  8   1024", "U  0   1024", goodName + `:10: n="0"`},
		{"exact key value", "U  8   1024", "X  8   1024", goodName + `:10: uplo="X": want one of L, U`},
		{"candidate misspelt", "vendor 50", "Vendor 50", goodName + `:10: candidate "Vendor" does not start with native, vendor or cpu`},
		{"candidate twice", "vendor 50", "vendor 50 vendor 60", goodName + ":10: candidate vendor twice"},
		{"time not a number", "vendor 50", "vendor fast", goodName + `:10: vendor: time "fast" is not a positive number`},
		{"time zero", "vendor 50", "vendor 0", goodName + `:10: vendor: time "0"`},
		{"time NaN", "vendor 50", "vendor NaN", goodName + `:10: vendor: time "NaN"`},
		{"not fastest first", "vendor 100       native:tiny 103.1", "vendor 100       native:tiny 99", goodName + ":9: native:tiny 99 is faster than vendor 100 before it"},
		{"timed after failed", "vendor 40   cpu -", "cpu -   vendor 40", goodName + ":8: vendor is timed but follows cpu, which failed"},
		{"repeated keys", "U  8   1024", "L  8   1024", goodName + ":10: keys L 8 1024 repeat line 8"},
		{"no rows", "L  8   1024   native:tiny 10   vendor 40   cpu -\nL  32  1024   vendor 100       native:tiny 103.1\nU  8   1024   vendor 50\n", "", goodName + ":7: no rows after the keys line"},
		{"no keys line", "keys    uplo n batch\n", "", goodName + `:7: "L" is not a header field`},
		{"only a header", "keys    uplo n batch\nL  8   1024   native:tiny 10   vendor 40   cpu -\nL  32  1024   vendor 100       native:tiny 103.1\nU  8   1024   vendor 50\n", "", goodName + ": no keys line"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(goodTable, c.old, c.new, 1)
			if text == goodTable {
				t.Fatalf("%q not in the table", c.old)
			}
			_, err := ParseTable(goodName, strings.NewReader(text))
			var te *TableError
			if !errors.As(err, &te) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v\nwant *TableError containing %q", err, c.want)
			}
			// The router reports it at load, through New.
			_, err = New(Config{Ops: testOps(), Tables: fstest.MapFS{goodName: {Data: []byte(text)}}, Label: "dir"})
			if err == nil || !strings.Contains(err.Error(), "dir/"+c.want) {
				t.Fatalf("New: %v", err)
			}
		})
	}
	if _, err := ParseTable("potrf.sm_90.txt", strings.NewReader(goodTable)); err == nil || err.Error() != "route: potrf.sm_90.txt: name is not <op>.<dtype>.<device>.txt" {
		t.Errorf("bad name: %v", err)
	}
}

// TestTableAgainstOps: a table that parses but disagrees with its op.
func TestTableAgainstOps(t *testing.T) {
	cases := []struct {
		file, old, new, want string
	}{
		{goodName, "native:tiny 103.1", "native:huge 103.1", "dir/" + goodName + ":9: potrf has no candidate native:huge (it has native:tiny, native:blocked:nb=64, vendor, cpu)"},
		{goodName, "keys    uplo n batch", "keys    n uplo batch", "dir/" + goodName + `:8: keys are "n uplo batch"; potrf keys on "uplo n batch"`},
		{"getrf.float32.sm_90.txt", "op      potrf", "op      getrf", `dir/getrf.float32.sm_90.txt: no op "getrf" is routed`},
	}
	for _, c := range cases {
		text := strings.Replace(goodTable, c.old, c.new, 1)
		if c.new == "keys    n uplo batch" {
			text = strings.NewReplacer("L  8   1024", "8  L  1024", "L  32  1024", "32  L  1024", "U  8   1024", "8  U  1024").Replace(text)
		}
		_, err := New(Config{Ops: testOps(), Tables: fstest.MapFS{c.file: {Data: []byte(text)}}, Label: "dir"})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v\nwant %q", err, c.want)
		}
	}
}

func basicFS(t *testing.T) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	entries, err := os.ReadDir("testdata/basic")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join("testdata/basic", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		fsys[e.Name()] = &fstest.MapFile{Data: data}
	}
	return fsys
}

// TestIndex: a table removed from the folder, or added without listing it,
// fails at load, naming index.txt's line or the table.
func TestIndex(t *testing.T) {
	load := func(fsys fstest.MapFS) error {
		_, err := New(Config{Ops: testOps(), Tables: fsys, Label: "tuned"})
		return err
	}
	if err := load(basicFS(t)); err != nil {
		t.Fatal(err)
	}
	fsys := basicFS(t)
	delete(fsys, "potrf.float64.cpu.txt")
	want := "route: tuned/index.txt:3: lists potrf.float64.cpu.txt, which is missing from tuned (restore it, or remove this line with the table)"
	if err := load(fsys); err == nil || err.Error() != want {
		t.Errorf("removed table: %v\nwant %s", err, want)
	}
	fsys = basicFS(t)
	fsys["potrf.float32.sm_89.txt"] = &fstest.MapFile{Data: []byte(strings.Replace(goodTable, "sm_90", "sm_89", 1))}
	want = "route: tuned/potrf.float32.sm_89.txt: not listed in tuned/index.txt: add it there when adding a table"
	if err := load(fsys); err == nil || err.Error() != want {
		t.Errorf("unlisted table: %v\nwant %s", err, want)
	}
	fsys = basicFS(t)
	fsys["index.txt"].Data = append(fsys["index.txt"].Data, "trsm.float64.sm_90.txt\nnotes.md\n"...)
	err := load(fsys)
	for _, w := range []string{"tuned/index.txt:7: trsm.float64.sm_90.txt is listed twice (line 6)", `tuned/index.txt:8: "notes.md" is not a table file name`} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("index errors: %v\nwant %s", err, w)
		}
	}
	// A .txt that is not a table is an error too; other files are ignored.
	fsys = basicFS(t)
	fsys["notes.txt"] = &fstest.MapFile{Data: []byte("hello")}
	fsys["README.md"] = &fstest.MapFile{Data: []byte("hello")}
	if err := load(fsys); err == nil || !strings.Contains(err.Error(), "tuned/notes.txt: name is not <op>.<dtype>.<device>.txt") {
		t.Errorf("stray .txt: %v", err)
	}
}

// TestTunedDir: BATCHLAS_TUNED_DIR's tables replace embedded ones of the
// same name and add others; a bad one fails naming its path and line.
func TestTunedDir(t *testing.T) {
	dir := t.TempDir()
	// vendor first where the embedded row 10 has native:tiny first.
	over := strings.Replace(goodTable, "native:tiny 10   vendor 40", "vendor 10   native:tiny 40", 1)
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(goodName, over)
	write("potrf.float32.sm_80.txt", strings.Replace(goodTable, "sm_90", "sm_80", 1))
	r, err := New(Config{Ops: testOps(), Tables: os.DirFS("testdata/basic"), Label: "testdata/basic", Dir: dir, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.Choose(potrf("float32", h200, "L", 8, 1024), "")
	if err != nil || d.Candidate.Name != "vendor" || d.Table != filepath.Join(dir, goodName) || d.Line != 8 {
		t.Fatalf("%v %s", err, d)
	}
	d, err = r.Choose(potrf("float32", Device{Key: "sm_80", Vendor: true}, "L", 8, 1024), "")
	if err != nil || d.Why != WhyTable || d.TableDevice != "sm_80" {
		t.Fatalf("%v %s", err, d)
	}
	// Tables kept from the embedded folder.
	if d, _ = r.Choose(trsm("L", "T", 16, 16, 1000), ""); d.Table != "testdata/basic/trsm.float64.sm_90.txt" {
		t.Fatalf("%s", d)
	}

	write(goodName, strings.Replace(over, "vendor 50", "vendor -5", 1))
	_, err = New(Config{Ops: testOps(), Tables: os.DirFS("testdata/basic"), Dir: dir})
	if want := filepath.Join(dir, goodName) + `:10: vendor: time "-5"`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
	_, err = New(Config{Ops: testOps(), Tables: os.DirFS("testdata/basic"), Dir: filepath.Join(dir, "nope")})
	if err == nil || !strings.Contains(err.Error(), "BATCHLAS_TUNED_DIR="+filepath.Join(dir, "nope")) {
		t.Errorf("missing dir: %v", err)
	}
}

// TestFormatRoundTrip: what Format writes, ParseTable reads back unchanged.
func TestFormatRoundTrip(t *testing.T) {
	for _, name := range []string{"potrf.float32.sm_90.txt", "trsm.float64.sm_90.txt"} {
		data, err := os.ReadFile(filepath.Join("testdata/basic", name))
		if err != nil {
			t.Fatal(err)
		}
		a, err := ParseTable(name, strings.NewReader(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		out := a.Format()
		b, err := ParseTable(name, strings.NewReader(string(out)))
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		for i := range a.Rows {
			a.Rows[i].Line, b.Rows[i].Line = 0, 0
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: round trip differs:\n%s", name, out)
		}
		if again := b.Format(); string(again) != string(out) {
			t.Errorf("%s: Format is not stable", name)
		}
	}
}

func TestFormatLayout(t *testing.T) {
	tab, err := ParseTable(goodName, strings.NewReader(goodTable))
	if err != nil {
		t.Fatal(err)
	}
	want := `# SYNTHETIC: invented numbers for tests.
op      potrf
dtype   float32
device  sm_90
date    2026-01-01
source  synthetic
keys    uplo n batch
L  8   1024   native:tiny 10   vendor 40           cpu -
L  32  1024   vendor 100       native:tiny 103.1
U  8   1024   vendor 50
`
	if got := string(tab.Format()); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestSpelling(t *testing.T) {
	for _, s := range []string{"cpu", "vendor", "native:tiny", "native:blocked:nb=64", "native:blocked:ib=8:nb=64", "cpu:blocked", "vendor:nb=2", "native:cta_2:k=x1"} {
		if err := checkSpelling(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	for _, s := range []string{"", "gpu", "CPU", "native", "native:", "native:Tiny", "native:nb=64", "native:t:nb", "native:t:nb=", "native:t:=1",
		"native:t:nb=64:nb=32", "native:t:nb=64:ib=8", "native:t:x:y", "native:2t", "native:t:nb=6.4"} {
		if err := checkSpelling(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestOpValidation(t *testing.T) {
	ok := func(Call) error { return nil }
	n := Key{Name: "n", Weight: 1}
	cases := []struct {
		op   *Op
		want string
	}{
		{&Op{Name: "Potrf", Keys: []Key{n}, Candidates: []Candidate{{Name: "cpu", CanRun: ok}}}, "name is not a lower-case word"},
		{&Op{Name: "x", Keys: []Key{{Name: "q", Weight: 1}}, Candidates: []Candidate{{Name: "cpu", CanRun: ok}}}, `unknown key "q"`},
		{&Op{Name: "x", Keys: []Key{n, n}, Candidates: []Candidate{{Name: "cpu", CanRun: ok}}}, `key "n" twice`},
		{&Op{Name: "x", Keys: []Key{n, {Name: "uplo"}}, Candidates: []Candidate{{Name: "cpu", CanRun: ok}}}, `exact key "uplo" after an integer key`},
		{&Op{Name: "x", Keys: []Key{{Name: "n"}}, Candidates: []Candidate{{Name: "cpu", CanRun: ok}}}, `key "n" has weight 0`},
		{&Op{Name: "x", Keys: []Key{{Name: "uplo"}}, Candidates: []Candidate{{Name: "cpu", CanRun: ok}}}, "no integer key"},
		{&Op{Name: "x", Keys: []Key{n}}, "no candidates"},
		{&Op{Name: "x", Keys: []Key{n}, Candidates: []Candidate{{Name: "native", CanRun: ok}}}, "names its tier"},
		{&Op{Name: "x", Keys: []Key{n}, Candidates: []Candidate{{Name: "cpu", CanRun: ok}, {Name: "cpu", CanRun: ok}}}, `candidate "cpu" twice`},
		{&Op{Name: "x", Keys: []Key{n}, Candidates: []Candidate{{Name: "cpu"}}}, "has no CanRun"},
		{&Op{Name: "x", Keys: []Key{n}, Candidates: []Candidate{{Name: "cpu", CanRun: ok}, {Name: "vendor", CanRun: ok}}}, `candidate "vendor" after "cpu": list native, then vendor, then cpu`},
		{&Op{Name: "x", Keys: []Key{n}, Candidates: []Candidate{{Name: "cpu", CanRun: ok}}, Default: []string{"vendor"}}, `default order names "vendor"`},
	}
	for _, c := range cases {
		_, err := New(Config{Ops: []*Op{c.op}, Tables: fstest.MapFS{}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.op.Name, err, c.want)
		}
	}
	two := []*Op{{Name: "x", Keys: []Key{n}, Candidates: []Candidate{{Name: "cpu", CanRun: ok}}}, {Name: "x", Keys: []Key{n}, Candidates: []Candidate{{Name: "cpu", CanRun: ok}}}}
	if _, err := New(Config{Ops: two, Tables: fstest.MapFS{}}); err == nil || !strings.Contains(err.Error(), `op "x" defined twice`) {
		t.Errorf("twice: %v", err)
	}
}

// TestEmbeddedTables guards the tuned/ folder: it has an index, and every
// table in it loads against the built-in ops.
func TestEmbeddedTables(t *testing.T) {
	if _, err := tuned.FS.Open(IndexFile); err != nil {
		t.Fatalf("tuned/%s: %v", IndexFile, err)
	}
	r, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tab := range r.Tables() {
		t.Logf("%s: %d rows, %s, %s", tab.File, len(tab.Rows), tab.Date, tab.Source)
	}
}

// TestEmbeddedPotrfTrianglesGPU guards the GPU potrf tables against an
// Upper call routed by a Lower row (the uplo key relaxed) to cuSOLVER's
// Upper path, which can take twice as long as its Lower one. A table ranks
// both triangles on the same grid, or holds Lower rows only (the complex
// tables, measured before bench timed Upper on its usual inputs): then no Upper call at
// any of its rows, or at twice its largest order, takes the vendor's Upper
// path (vendor or vendor:loop; vendor:transposed runs its Lower path).
func TestEmbeddedPotrfTrianglesGPU(t *testing.T) {
	r, err := New(Config{Getenv: func(string) string { return "" }, Tracer: &harness{}, Warn: func(string) {}})
	if err != nil {
		t.Fatal(err)
	}
	checked, lowerOnly := 0, 0
	for _, tab := range r.Tables() {
		if tab.Op != "potrf" || !strings.HasPrefix(tab.Device, "sm_") {
			continue
		}
		if tab.Keys[0] != "uplo" {
			t.Fatalf("%s: keys %q, want uplo first", tab.File, tab.Keys)
		}
		checked++
		grid := map[string][]string{} // uplo -> the other keys, row by row
		for _, row := range tab.Rows {
			grid[row.Values[0]] = append(grid[row.Values[0]], strings.Join(row.Values[1:], " "))
		}
		if len(grid["U"]) > 0 || len(grid["L"]) == 0 {
			if !reflect.DeepEqual(grid["L"], grid["U"]) {
				t.Errorf("%s: %d Lower rows and %d Upper rows on different grids", tab.File, len(grid["L"]), len(grid["U"]))
			}
			continue
		}
		lowerOnly++
		largest := 0
		for _, row := range tab.Rows {
			n, batch := atoi(t, row.Values[1]), atoi(t, row.Values[2])
			largest = max(largest, n)
			upperCall(t, r, tab, n, batch)
		}
		upperCall(t, r, tab, 2*largest, 1)
	}
	if checked == 0 {
		t.Fatal("no embedded GPU potrf table")
	}
	t.Logf("%d GPU potrf tables, %d of them with Lower rows only", checked, lowerOnly)
}

// upperCall routes an Upper potrf call of tab's dtype and device and fails t
// when a Lower row sends it to the vendor's Upper path.
func upperCall(t *testing.T, r *Router, tab *Table, n, batch int) {
	t.Helper()
	c := Call{Op: "potrf", DType: tab.DType, Device: Device{Key: tab.Device, Vendor: true}, Uplo: "U", N: n, Batch: batch}
	d, err := r.Choose(c, "")
	if err != nil {
		t.Errorf("%s: U n=%d batch=%d: %v", tab.File, n, batch, err)
		return
	}
	if d.Candidate.Kind() == Vendor && d.Candidate.Name != "vendor:transposed" && slices.Contains(d.Relaxed, "uplo") {
		t.Errorf("%s: U n=%d batch=%d takes %s from a Lower row: %s", tab.File, n, batch, d.Candidate.Name, d)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// TestEmbeddedPotrfSaturatingRows guards the GPU float32 and float64 potrf
// tables against holes at large batches: at every order up to 128 (the
// register, warp and CTA tiers) there is a row, both triangles, at every
// batch of the table's grid whose matrices fit in 4 GiB. Without one, the
// nearest row comes from another order, whose tier can be several times
// slower there: float32 n = 48 with 65,536 matrices went to the row n = 32's
// native:tiled:occ=4 (3123 µs) instead of native:warp (481 µs) until
// session 41 measured the points its tune's --max-mib had left out.
func TestEmbeddedPotrfSaturatingRows(t *testing.T) {
	const maxOrder, maxBytes = 128, 4 << 30
	r, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, tab := range r.Tables() {
		size := map[string]int{"float32": 4, "float64": 8}[tab.DType]
		if tab.Op != "potrf" || !strings.HasPrefix(tab.Device, "sm_") || size == 0 {
			continue
		}
		checked++
		have := map[[3]string]bool{}
		orders, batches := map[int]bool{}, map[int]bool{}
		for _, row := range tab.Rows {
			have[[3]string(row.Values[:3])] = true
			orders[atoi(t, row.Values[1])] = true
			batches[atoi(t, row.Values[2])] = true
		}
		for _, n := range slices.Sorted(maps.Keys(orders)) {
			for _, batch := range slices.Sorted(maps.Keys(batches)) {
				if n > maxOrder || n*n*size*batch > maxBytes {
					continue
				}
				for _, uplo := range []string{"L", "U"} {
					if !have[[3]string{uplo, strconv.Itoa(n), strconv.Itoa(batch)}] {
						t.Errorf("%s: no row %s n=%d batch=%d (%d MiB of matrices)", tab.File, uplo, n, batch, n*n*size*batch>>20)
					}
				}
			}
		}
	}
	if checked != 2 {
		t.Fatalf("%d float32 and float64 GPU potrf tables, want 2", checked)
	}
}

// FuzzParseTable: no text makes ParseTable panic (BATCHLAS_TUNED_DIR's
// tables come from users), and what it accepts, Format writes back in a
// form it reads again unchanged.
func FuzzParseTable(f *testing.F) {
	f.Add(goodTable)
	data, err := os.ReadFile(filepath.Join("testdata/basic", goodName))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(data))
	f.Fuzz(func(t *testing.T, text string) {
		a, err := ParseTable(goodName, strings.NewReader(text))
		if err != nil {
			return
		}
		out := a.Format()
		b, err := ParseTable(goodName, strings.NewReader(string(out)))
		if err != nil {
			t.Fatalf("Format's output does not parse: %v\n%s", err, out)
		}
		for i := range a.Rows {
			a.Rows[i].Line, b.Rows[i].Line = 0, 0
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("round trip changed the table:\n%s", out)
		}
	})
}
