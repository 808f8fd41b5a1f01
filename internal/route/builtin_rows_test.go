package route

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/batchlas/batchlas/internal/core"
)

// TestBuiltinRows checks table decisions for every built-in op, with its
// real keys and candidates, against answers worked out from the rules of
// doc.go ("Choosing") rather than from the router's code. Each op gets
// synthetic tables:
//
//   - float32 ("corners"): every integer key at 8 or 128 (log₂ 3 or 7), the
//     exact keys at their first value; plus, when the op has exact keys, one
//     row with the last exact key at its second value and every integer key
//     at 32. Each row lists all candidates in reverse list order at 10, 20,
//     40 ... µs, far apart, so the first entry that can run wins.
//   - float64 ("weights"): two rows off the all-8 point, one with n = 16, one
//     with batch = 32, so that the call at all-8 is wₙ·1 from the first and
//     w_batch·2 from the second.
//   - complex64 ("ties"): for each pair of candidates that can both run on
//     a device, rows with the later one fastest and the earlier one just
//     inside or just outside the 3% margin, and one where the earlier one
//     failed the oracle check.
func TestBuiltinRows(t *testing.T) {
	for _, op := range Builtin() {
		t.Run(op.Name, func(t *testing.T) {
			ints, exact := splitKeys(op)
			if !slices.Contains(ints, "n") || !slices.Contains(ints, "batch") {
				t.Fatalf("keys %v: the test expects n and batch among them", ints)
			}
			files := fstest.MapFS{}
			corners := cornerTable(op, ints, exact)
			weights := weightTable(op, ints, exact)
			ties := map[string]*synthTable{}
			for _, dev := range []Device{h200, host} {
				if tt := tieTable(op, ints, exact, dev, "complex64"); tt != nil {
					ties[dev.Key] = tt
				}
			}
			for _, st := range append([]*synthTable{corners, weights}, mapValues(ties)...) {
				st.add(files)
			}
			addIndex(files)
			r, err := New(Config{Ops: []*Op{op}, Tables: files, Label: "synth", Getenv: func(string) string { return "" }, Warn: func(string) {}})
			if err != nil {
				t.Fatal(err)
			}

			t.Run("at rows", func(t *testing.T) {
				for i, row := range corners.rows {
					for _, dev := range []Device{h200, host} {
						checkRow(t, r, op, corners, dev, row.call, i, nil)
					}
				}
			})

			t.Run("between rows", func(t *testing.T) {
				base := corners.rows[0] // every integer key at 8
				for _, k := range ints {
					// log₂ 32 = 5 is 2 from both 3 and 7: equal distances
					// prefer the smaller keys, the row at 8. One either side
					// of the middle goes to the nearer row; far outside the
					// grid, to the edge.
					for _, c := range []struct {
						v     int
						upper bool
					}{{32, false}, {31, false}, {33, true}, {1, false}, {1 << 20, true}} {
						call := base.call
						setKey(&call, k, strconv.Itoa(c.v))
						want := 0
						if c.upper {
							want = corners.find(func(row synthRow) bool { return row.only(k, 128) })
						}
						for _, dev := range []Device{h200, host} {
							checkRow(t, r, op, corners, dev, call, want, nil)
						}
					}
				}
				// Every key at 32 at once: still the all-8 row, whose keys
				// are the smallest among the equidistant corners.
				call := base.call
				for _, k := range ints {
					setKey(&call, k, "32")
				}
				checkRow(t, r, op, corners, host, call, 0, nil)
			})

			if len(exact) > 0 {
				t.Run("exact keys", func(t *testing.T) {
					last := exact[len(exact)-1]
					values := keyDefs[last].values
					special := len(corners.rows) - 1
					// The one row with the second value is chosen, though
					// the all-8 corner is nearer in the integer keys.
					call := corners.rows[0].call
					setKey(&call, last, values[1])
					checkRow(t, r, op, corners, host, call, special, nil)
					if len(values) > 2 {
						// No row has the third value: the last exact key is
						// relaxed, and the nearest row agreeing on the rest
						// is the all-8 corner.
						setKey(&call, last, values[2])
						checkRow(t, r, op, corners, host, call, 0, []string{last})
					}
					if len(exact) > 1 {
						// The first exact key at a value no row has: every
						// key is relaxed in turn until all rows are left.
						call := corners.rows[0].call
						setKey(&call, exact[0], keyDefs[exact[0]].values[1])
						checkRow(t, r, op, corners, host, call, 0, []string{exact[0]})
					}
				})
			}

			t.Run("weights", func(t *testing.T) {
				// Row 0 has n = 16 (distance wₙ·1), row 1 batch = 32
				// (w_batch·2). On a tie the smaller keys win: row 1, whose
				// n (8) is smaller and comes before batch in every op.
				wn, wb := weight(op, "n"), weight(op, "batch")
				want := 1
				if wn*1 < wb*2 {
					want = 0
				}
				switch op.Name {
				case "potrf", "posv", "getri", "gesv", "inv": // 3·1 > 1·2
					if want != 1 {
						t.Errorf("n weighs %v: want the batch row", wn)
					}
				case "gemm", "getrf": // 1·1 < 2 and 1.5·1 < 2
					if want != 0 {
						t.Errorf("n weighs %v: want the n row", wn)
					}
				}
				checkRow(t, r, op, weights, host, weights.base, want, nil)
				checkRow(t, r, op, weights, h200, weights.base, want, nil)
			})

			t.Run("tie margin", func(t *testing.T) {
				for _, dev := range []Device{h200, host} {
					if tt := ties[dev.Key]; tt != nil {
						checkTies(t, r, op, tt, dev)
					}
				}
			})

			// The same keys and candidates with every candidate able to run,
			// so that every pair in the op's list meets the margin: the
			// earlier candidate (native before vendor before cpu) wins a tie.
			t.Run("tie margin, all candidates runnable", func(t *testing.T) {
				all := &Op{Name: op.Name, Keys: op.Keys, Default: op.Default}
				for _, c := range op.Candidates {
					all.Candidates = append(all.Candidates, Candidate{Name: c.Name, CanRun: func(Call) error { return nil }})
				}
				tt := tieTable(all, ints, exact, h200, "complex128")
				if tt == nil {
					t.Skip("one candidate: no ties")
				}
				files := fstest.MapFS{}
				tt.add(files)
				addIndex(files)
				r, err := New(Config{Ops: []*Op{all}, Tables: files, Label: "synth", Getenv: func(string) string { return "" }, Warn: func(string) {}})
				if err != nil {
					t.Fatal(err)
				}
				checkTies(t, r, all, tt, h200)
			})
		})
	}
}

// synthRow is one row of a synthetic table and the call at its keys.
type synthRow struct {
	values  []string
	entries string
	call    Call
	line    int

	// For tie rows: the expected choice, and the entry passed over for it.
	want, fastest string
}

// only reports whether the row has integer key k at v and every other
// integer key at 8.
func (row synthRow) only(k string, v int) bool {
	for _, name := range []string{"n", "batch", "nrhs", "m", "k"} {
		got := keyDefs[name].get(&row.call)
		if got == 0 {
			continue
		}
		if name == k && got != v || name != k && got != 8 {
			return false
		}
	}
	return true
}

type synthTable struct {
	op, dtype, device string
	keys              []string
	rows              []synthRow
	base              Call // for the weights table: the all-8 call
}

// firstRowLine is the line of the first row: the header takes lines 1-5
// and the keys line is 6.
const firstRowLine = 7

func (st *synthTable) file() string { return st.op + "." + st.dtype + "." + st.device + ".txt" }

func (st *synthTable) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "op %s\ndtype %s\ndevice %s\ndate 2026-01-01\nsource synthetic: builtin_rows_test.go\nkeys %s\n",
		st.op, st.dtype, st.device, strings.Join(st.keys, " "))
	for i := range st.rows {
		st.rows[i].line = firstRowLine + i
		fmt.Fprintf(&b, "%s %s\n", strings.Join(st.rows[i].values, " "), st.rows[i].entries)
	}
	return b.String()
}

func (st *synthTable) add(files fstest.MapFS) {
	files[st.file()] = &fstest.MapFile{Data: []byte(st.text())}
}

func (st *synthTable) find(f func(synthRow) bool) int { return slices.IndexFunc(st.rows, f) }

func addIndex(files fstest.MapFS) {
	var names []string
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	files[IndexFile] = &fstest.MapFile{Data: []byte(strings.Join(names, "\n") + "\n")}
}

func mapValues(m map[string]*synthTable) []*synthTable {
	var out []*synthTable
	for _, k := range []string{"sm_90", "cpu"} {
		if m[k] != nil {
			out = append(out, m[k])
		}
	}
	return out
}

func splitKeys(op *Op) (ints, exact []string) {
	for _, k := range op.Keys {
		if keyDefs[k.Name].exact {
			exact = append(exact, k.Name)
		} else {
			ints = append(ints, k.Name)
		}
	}
	return ints, exact
}

func weight(op *Op, name string) float64 {
	for _, k := range op.Keys {
		if k.Name == name {
			return k.Weight
		}
	}
	return math.NaN()
}

// setKey sets key name of c to v.
func setKey(c *Call, name, v string) {
	x, _ := strconv.Atoi(v)
	switch name {
	case "n":
		c.N = x
	case "batch":
		c.Batch = x
	case "nrhs":
		c.NRHS = x
	case "m":
		c.M = x
	case "k":
		c.K = x
	case "uplo":
		c.Uplo = v
	case "side":
		c.Side = v
	case "trans":
		c.Trans = v
	case "transb":
		c.TransB = v
	}
}

// newRow makes a row of op at the given key values (a missing integer key
// is 8, a missing exact key its first value).
func newRow(op *Op, dtype string, values map[string]string, entries string) synthRow {
	row := synthRow{entries: entries, call: Call{Op: op.Name, DType: dtype}}
	for _, k := range op.Keys {
		v, ok := values[k.Name]
		if !ok {
			v = "8"
			if d := keyDefs[k.Name]; d.exact {
				v = d.values[0]
			}
		}
		row.values = append(row.values, v)
		setKey(&row.call, k.Name, v)
	}
	return row
}

// reverseEntries lists op's candidates last first at 10, 20, 40 ... µs.
func reverseEntries(op *Op) string {
	var parts []string
	us := 10
	for i := len(op.Candidates) - 1; i >= 0; i-- {
		parts = append(parts, fmt.Sprintf("%s %d", op.Candidates[i].Name, us))
		us *= 2
	}
	return strings.Join(parts, " ")
}

func cornerTable(op *Op, ints, exact []string) *synthTable {
	st := &synthTable{op: op.Name, dtype: "float32", device: "sm_90"}
	for _, k := range op.Keys {
		st.keys = append(st.keys, k.Name)
	}
	entries := reverseEntries(op)
	// Corners in binary order of the integer keys, first key slowest: row 0
	// is every key at 8.
	for mask := range 1 << len(ints) {
		values := map[string]string{}
		for i, k := range ints {
			values[k] = "8"
			if mask&(1<<(len(ints)-1-i)) != 0 {
				values[k] = "128"
			}
		}
		st.rows = append(st.rows, newRow(op, st.dtype, values, entries))
	}
	if len(exact) > 0 {
		values := map[string]string{exact[len(exact)-1]: keyDefs[exact[len(exact)-1]].values[1]}
		for _, k := range ints {
			values[k] = "32"
		}
		st.rows = append(st.rows, newRow(op, st.dtype, values, entries))
	}
	st.text() // number the rows
	return st
}

func weightTable(op *Op, ints, exact []string) *synthTable {
	st := &synthTable{op: op.Name, dtype: "float64", device: "sm_90"}
	for _, k := range op.Keys {
		st.keys = append(st.keys, k.Name)
	}
	entries := reverseEntries(op)
	st.rows = append(st.rows,
		newRow(op, st.dtype, map[string]string{"n": "16"}, entries),
		newRow(op, st.dtype, map[string]string{"batch": "32"}, entries))
	st.base = newRow(op, st.dtype, nil, "").call
	st.text()
	return st
}

// tieTable has, for each pair (a, b) of candidates that can both run at the
// all-8 call on dev, a before b in the op's list, three rows at batches
// 100, 101, 102 ... (each call is at its row: distance 0): b 100 then a 102.9 (inside the margin: a), b 100 then
// a 103.1 (outside: b), and b 100 then a - (failed: b). Nil without a pair.
func tieTable(op *Op, ints, exact []string, dev Device, dtype string) *synthTable {
	st := &synthTable{op: op.Name, dtype: dtype, device: dev.Key}
	for _, k := range op.Keys {
		st.keys = append(st.keys, k.Name)
	}
	probe := newRow(op, dtype, nil, "").call
	probe.Device = dev
	var runnable []string
	for _, c := range op.Candidates {
		if c.CanRun(probe) == nil {
			runnable = append(runnable, c.Name)
		}
	}
	batch := 100
	add := func(entries, want, fastest string) {
		row := newRow(op, dtype, map[string]string{"batch": strconv.Itoa(batch)}, entries)
		row.want, row.fastest = want, fastest
		st.rows = append(st.rows, row)
		batch++
	}
	for i, a := range runnable {
		for _, b := range runnable[i+1:] {
			add(b+" 100 "+a+" 102.9", a, b)
			add(b+" 100 "+a+" 103.1", b, "")
			add(b+" 100 "+a+" -", b, "")
		}
	}
	if len(st.rows) == 0 {
		return nil
	}
	st.text()
	return st
}

// checkRow routes call on dev and checks that row want of st decided it,
// with the first entry of the row that can run, and relaxed exact keys.
func checkRow(t *testing.T, r *Router, op *Op, st *synthTable, dev Device, call Call, want int, relaxed []string) {
	t.Helper()
	call.Device, call.DType = dev, st.dtype
	row := st.rows[want]
	d, err := r.Choose(call, "")
	wantName := ""
	for e := range strings.FieldsSeq(row.entries) {
		if c, ok := op.Candidate(e); ok && c.CanRun(call) == nil {
			wantName = e
			break
		}
	}
	if wantName == "" {
		// No entry of the row can run the call (getrf's vendor on m ≠ n):
		// the default order decides, or nothing can run it.
		if err != nil && !errors.Is(err, core.ErrUnsupported) || err == nil && d.Why != WhyDefault {
			t.Errorf("%s: %v %s; want the default order or ErrUnsupported", callText(op, call), err, d)
		}
		if err == nil && d.Line != row.line {
			t.Errorf("%s: row %d, want %d", callText(op, call), d.Line, row.line)
		}
		return
	}
	if err != nil {
		t.Errorf("%s: %v", callText(op, call), err)
		return
	}
	wantWhy := WhyTable
	if dev.Key != st.device {
		wantWhy = WhyBorrowed
	}
	if d.Line != row.line || d.Candidate.Name != wantName || d.Why != wantWhy || d.Tie || !slices.Equal(d.Relaxed, relaxed) {
		t.Errorf("%s on %s:\n got %s\nwant line %d [%s] -> %s (%v), relaxed %v", callText(op, call), dev.Key, d, row.line, strings.Join(row.values, " "), wantName, wantWhy, relaxed)
	}
}

func checkTies(t *testing.T, r *Router, op *Op, st *synthTable, dev Device) {
	t.Helper()
	for _, row := range st.rows {
		call := row.call
		call.Device = dev
		d, err := r.Choose(call, "")
		tie := row.fastest != ""
		if err != nil || d.Line != row.line || d.Candidate.Name != row.want || d.Tie != tie || tie && d.Fastest.Name != row.fastest {
			t.Errorf("%s on %s, row [%s]: %v\n got %s\nwant %s (tie %v)", callText(op, call), dev.Key, row.entries, err, d, row.want, tie)
		}
	}
}

func callText(op *Op, c Call) string { return op.Name + " " + c.DType + " " + c.keyText(op) }
