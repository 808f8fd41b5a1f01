package route

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Table is one routing table: for one op, dtype and device, rows of measured
// shapes, each ranking the candidates that were timed there.
//
// The file form, read by ParseTable and written by Format:
//
//	# comments: whole lines starting with '#'
//	op      potrf
//	dtype   float32
//	device  sm_90
//	date    2026-10-09
//	source  batchlas tune potrf --dtype float32 ...
//	keys    uplo n batch
//	L  32   8192   native:tiny 210.5   vendor 388   cpu -
//
// A row is its key values, then pairs of candidate and time in µs per
// whole-batch call, fastest first; "-" in place of a time marks a candidate
// whose result failed the oracle check, listed after the timed ones.
type Table struct {
	File   string   // the file as errors and traces name it
	Notes  []string // the comment lines before the header, without '#'
	Op     string
	DType  string
	Device string
	Date   string // YYYY-MM-DD
	Source string // the command that measured the table
	Keys   []string
	Rows   []Row

	// groups[u] maps the codes of the first u exact keys to the rows that
	// have those values, so a lookup scans only rows that agree.
	groups []map[uint32][]int32
}

// Row is one measured shape.
type Row struct {
	Line    int      // line in the file, 1-based; 0 for rows built in code
	Values  []string // key values as written, in the order of Table.Keys
	Entries []Entry  // fastest first, failed ones last

	logs []float64 // log₂ of each integer key value; 0 for exact keys
	ints []int     // each integer key value; 0 for exact keys
}

// Entry is one candidate's result in a row.
type Entry struct {
	Name   string  // candidate spelling
	Micros float64 // µs per whole-batch call; 0 when Failed
	Failed bool    // the result failed the oracle check: never chosen
}

// TableError is a malformed or missing table, naming the file and line.
type TableError struct {
	File string
	Line int // 0 when the error is about the whole file
	Msg  string
}

func (e *TableError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("route: %s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("route: %s: %s", e.File, e.Msg)
}

// tableID is (op, dtype, device), the identity of a table.
type tableID struct{ op, dtype, device string }

func (id tableID) file() string { return id.op + "." + id.dtype + "." + id.device + ".txt" }

// parseTableName splits "potrf.float32.sm_90.txt".
func parseTableName(name string) (tableID, bool) {
	base, ok := strings.CutSuffix(path.Base(name), ".txt")
	if !ok {
		return tableID{}, false
	}
	parts := strings.Split(base, ".")
	if len(parts) != 3 || !isWord(parts[0]) || !validDType(parts[1]) || !validDeviceKey(parts[2]) {
		return tableID{}, false
	}
	return tableID{parts[0], parts[1], parts[2]}, true
}

var headerFields = []string{"op", "dtype", "device", "date", "source"}

// ParseTable reads a table. file names it in errors and must end in
// <op>.<dtype>.<device>.txt, which the header must repeat. Every error is a
// *TableError naming file and line.
func ParseTable(file string, r io.Reader) (*Table, error) {
	t := &Table{File: file}
	id, ok := parseTableName(file)
	if !ok {
		return nil, &TableError{File: file, Msg: "name is not <op>.<dtype>.<device>.txt"}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	line := 0
	fail := func(format string, args ...any) (*Table, error) {
		return nil, &TableError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	header := map[string]string{}
	headerLine := map[string]int{}
	keysLine := 0
	seen := map[string]int{} // row key text → line
	var ints []bool          // per key: integer (true) or exact
	var defs []keyDef
	started := false
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		if strings.HasPrefix(text, "#") {
			if !started {
				t.Notes = append(t.Notes, strings.TrimSpace(strings.TrimPrefix(text, "#")))
			}
			continue
		}
		started = true
		fields := strings.Fields(text)
		if keysLine == 0 {
			word := fields[0]
			if word == "keys" {
				for _, h := range headerFields {
					if header[h] == "" {
						return fail("header has no %s line before keys", h)
					}
				}
				for _, h := range [][2]string{{"op", id.op}, {"dtype", id.dtype}, {"device", id.device}} {
					if header[h[0]] != h[1] {
						line = headerLine[h[0]]
						return fail("header says %s %s but the file name says %s", h[0], header[h[0]], h[1])
					}
				}
				if _, err := time.Parse(time.DateOnly, header["date"]); err != nil {
					line = headerLine["date"]
					return fail("date %q is not YYYY-MM-DD", header["date"])
				}
				if len(fields) == 1 {
					return fail("keys line names no keys")
				}
				for _, k := range fields[1:] {
					d, ok := keyDefs[k]
					if !ok {
						return fail("unknown key %q", k)
					}
					for _, prev := range t.Keys {
						if prev == k {
							return fail("key %q twice", k)
						}
					}
					t.Keys = append(t.Keys, k)
					ints = append(ints, !d.exact)
					defs = append(defs, d)
				}
				t.Op, t.DType, t.Device = header["op"], header["dtype"], header["device"]
				t.Date, t.Source = header["date"], header["source"]
				keysLine = line
				continue
			}
			known := false
			for _, h := range headerFields {
				known = known || word == h
			}
			if !known {
				return fail("%q is not a header field (want op, dtype, device, date, source, then keys)", word)
			}
			if header[word] != "" {
				return fail("second %s line", word)
			}
			value := strings.TrimSpace(strings.TrimPrefix(text, word))
			if value == "" || word != "source" && len(fields) != 2 {
				return fail("%s wants one value", word)
			}
			header[word], headerLine[word] = value, line
			continue
		}

		// A row: key values, then candidate-time pairs.
		nk := len(t.Keys)
		if len(fields) < nk {
			return fail("row has %d fields, the keys line names %d keys", len(fields), nk)
		}
		row := Row{Line: line, Values: fields[:nk], logs: make([]float64, nk), ints: make([]int, nk)}
		for i, v := range row.Values {
			if !ints[i] {
				if !defs[i].valid(v) {
					return fail("%s=%q: want one of %s", t.Keys[i], v, strings.Join(defs[i].values, ", "))
				}
				continue
			}
			x, err := strconv.Atoi(v)
			if err != nil || x < 1 {
				return fail("%s=%q: want an integer ≥ 1", t.Keys[i], v)
			}
			row.ints[i], row.logs[i] = x, math.Log2(float64(x))
		}
		keyText := strings.Join(row.Values, " ")
		if prev, dup := seen[keyText]; dup {
			return fail("keys %s repeat line %d", keyText, prev)
		}
		seen[keyText] = line
		rest := fields[nk:]
		if len(rest) == 0 {
			return fail("row lists no candidates")
		}
		if len(rest)%2 != 0 {
			return fail("after the %d keys, want pairs of candidate and time (µs or -); %q has no time", nk, rest[len(rest)-1])
		}
		for j := 0; j < len(rest); j += 2 {
			e := Entry{Name: rest[j]}
			if err := checkSpelling(e.Name); err != nil {
				return fail("candidate %v", err)
			}
			for _, prev := range row.Entries {
				if prev.Name == e.Name {
					return fail("candidate %s twice", e.Name)
				}
			}
			if rest[j+1] == "-" {
				e.Failed = true
			} else {
				x, err := strconv.ParseFloat(rest[j+1], 64)
				if err != nil || !(x > 0) || math.IsInf(x, 0) {
					return fail("%s: time %q is not a positive number of µs (or - for a failed check)", e.Name, rest[j+1])
				}
				e.Micros = x
				if n := len(row.Entries); n > 0 {
					if prev := row.Entries[n-1]; prev.Failed {
						return fail("%s is timed but follows %s, which failed: list failed candidates last", e.Name, prev.Name)
					} else if x < prev.Micros {
						return fail("%s %s is faster than %s %s before it: list candidates fastest first", e.Name, rest[j+1], prev.Name, fmtMicros(prev.Micros))
					}
				}
			}
			row.Entries = append(row.Entries, e)
		}
		t.Rows = append(t.Rows, row)
	}
	if err := sc.Err(); err != nil {
		line++
		return fail("%v", err)
	}
	if keysLine == 0 {
		return nil, &TableError{File: file, Msg: "no keys line: a table has a header (op, dtype, device, date, source), a keys line and rows"}
	}
	if len(t.Rows) == 0 {
		return nil, &TableError{File: file, Line: keysLine, Msg: "no rows after the keys line"}
	}
	t.index()
	return t, nil
}

// index fills t.groups for the leading exact keys.
func (t *Table) index() {
	nExact := 0
	for nExact < len(t.Keys) && keyDefs[t.Keys[nExact]].exact {
		nExact++
	}
	t.groups = make([]map[uint32][]int32, nExact+1)
	for u := range t.groups {
		t.groups[u] = map[uint32][]int32{}
	}
	for i, r := range t.Rows {
		code := uint32(0)
		t.groups[0][0] = append(t.groups[0][0], int32(i))
		for u := 1; u <= nExact; u++ {
			code = code<<2 | uint32(exactIndex(t.Keys[u-1], r.Values[u-1]))
			t.groups[u][code] = append(t.groups[u][code], int32(i))
		}
	}
}

// exactIndex is v's position among the values of exact key k (at most 4).
func exactIndex(k, v string) int { return slices.Index(keyDefs[k].values, v) }

func fmtMicros(us float64) string { return strconv.FormatFloat(us, 'f', -1, 64) }

// Format writes t in the form ParseTable reads, with columns aligned so a
// diff shows only the rows that changed.
func (t *Table) Format() []byte {
	var b bytes.Buffer
	for _, n := range t.Notes {
		b.WriteString(strings.TrimRight("# "+n, " ") + "\n")
	}
	for _, h := range [][2]string{{"op", t.Op}, {"dtype", t.DType}, {"device", t.Device}, {"date", t.Date}, {"source", t.Source}} {
		fmt.Fprintf(&b, "%-7s %s\n", h[0], h[1])
	}
	fmt.Fprintf(&b, "%-7s %s\n", "keys", strings.Join(t.Keys, " "))

	// Column widths: key values, then each entry position's name and time.
	keyW := make([]int, len(t.Keys))
	var entryW []int // per position in the rows: the widest "name time"
	for _, r := range t.Rows {
		for i, v := range r.Values {
			keyW[i] = max(keyW[i], len(v))
		}
		for j, e := range r.Entries {
			if j == len(entryW) {
				entryW = append(entryW, 0)
			}
			entryW[j] = max(entryW[j], len(e.text()))
		}
	}
	for _, r := range t.Rows {
		var line strings.Builder
		for i, v := range r.Values {
			fmt.Fprintf(&line, "%-*s  ", keyW[i], v)
		}
		for j, e := range r.Entries {
			fmt.Fprintf(&line, " %-*s  ", entryW[j], e.text())
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	return b.Bytes()
}

// text is the entry as a row writes it: "vendor 40.5" or "cpu -".
func (e Entry) text() string {
	if e.Failed {
		return e.Name + " -"
	}
	return e.Name + " " + fmtMicros(e.Micros)
}
