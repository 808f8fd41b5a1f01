package tune

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/batchlas/batchlas/internal/route"
)

// TableFile is the name of the table of op for dtype on device:
// potrf.float32.sm_90.txt.
func TableFile(op, dtype, device string) string { return op + "." + dtype + "." + device + ".txt" }

// Header is what a table says about itself besides its rows.
type Header struct {
	Date   string   // YYYY-MM-DD
	Source string   // the command that measured it
	Notes  []string // comment lines, without '#'
}

// BuildTable makes op's table for dtype on device from the records of that
// dtype (others are ignored), in the form route.ParseTable reads, and
// returns it as parsed back. A row lists the timed candidates fastest first
// (equal times in the op's order), then those that failed the oracle check
// as "-"; skipped candidates are left out, and so is a point with none
// left. Rows are sorted by their keys. The table is nil when no row is left.
func BuildTable(op *route.Op, dtype, device string, records []Record, h Header) (*route.Table, error) {
	t := &route.Table{Notes: h.Notes, Op: op.Name, DType: dtype, Device: device, Date: h.Date, Source: h.Source}
	for _, k := range op.Keys {
		t.Keys = append(t.Keys, k.Name)
	}
	type sortable struct {
		row  route.Row
		sort []int
	}
	var rows []sortable
	seen := map[string]bool{}
	for _, r := range records {
		if r.Point.DType != dtype {
			continue
		}
		row, sortKey := route.Row{}, []int{}
		for _, k := range op.Keys {
			row.Values = append(row.Values, r.Point.Value(k.Name))
			if values, exact := exactKeys[k.Name]; exact {
				sortKey = append(sortKey, slices.Index(values, r.Point.Exact(k.Name)))
			} else {
				sortKey = append(sortKey, r.Point.Int(k.Name))
			}
		}
		text := strings.Join(row.Values, " ")
		if seen[text] {
			return nil, fmt.Errorf("tune: %s %s %s: the point %s is measured twice", op.Name, dtype, device, text)
		}
		seen[text] = true
		row.Entries = entries(op, r.Results)
		if len(row.Entries) > 0 {
			rows = append(rows, sortable{row, sortKey})
		}
	}
	if len(rows) == 0 {
		return nil, nil
	}
	slices.SortFunc(rows, func(a, b sortable) int { return slices.Compare(a.sort, b.sort) })
	for _, r := range rows {
		t.Rows = append(t.Rows, r.row)
	}
	file := TableFile(op.Name, dtype, device)
	parsed, err := route.ParseTable(file, bytes.NewReader(t.Format()))
	if err != nil {
		return nil, fmt.Errorf("tune: the table written does not read back (a bug): %w", err)
	}
	return parsed, nil
}

// entries ranks results as a row lists them: timed fastest first, then
// failed. A failed result never has a time, whatever it measured.
func entries(op *route.Op, results []Result) []route.Entry {
	var timed, failed []route.Entry
	for _, r := range results {
		switch {
		case r.Skipped:
		case r.Failed || !(r.Micros > 0):
			failed = append(failed, route.Entry{Name: r.Name, Failed: true})
		default:
			timed = append(timed, route.Entry{Name: r.Name, Micros: roundMicros(r.Micros)})
		}
	}
	order := func(name string) int {
		return slices.IndexFunc(op.Candidates, func(c route.Candidate) bool { return c.Name == name })
	}
	slices.SortStableFunc(timed, func(a, b route.Entry) int {
		return cmp.Or(cmp.Compare(a.Micros, b.Micros), cmp.Compare(order(a.Name), order(b.Name)))
	})
	slices.SortStableFunc(failed, func(a, b route.Entry) int { return cmp.Compare(order(a.Name), order(b.Name)) })
	return append(timed, failed...)
}

// roundMicros keeps four significant digits: run-to-run noise is far above
// 0.1%, and short numbers keep a table's diff readable.
func roundMicros(us float64) float64 {
	x, err := strconv.ParseFloat(strconv.FormatFloat(us, 'g', 4, 64), 64)
	if err != nil || !(x > 0) {
		return us
	}
	return x
}

// WriteTable writes t into dir under its file name, replacing any table of
// that name through a rename so that no reader sees half a file, and
// returns the path.
func WriteTable(dir string, t *route.Table) (string, error) {
	path := filepath.Join(dir, TableFile(t.Op, t.DType, t.Device))
	return path, writeFile(path, t.Format())
}

func writeFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err == nil {
		// CreateTemp makes the file 0600; tables are read, copied and committed.
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// indexHeader opens the index.txt that WriteIndex writes.
const indexHeader = `# The routing tables in this folder, one file name a line (written by batchlas tune).
# Copy a table into tuned/ together with its line here into tuned/index.txt.
`

// WriteIndex writes dir's index.txt (route.IndexFile) listing every table
// file in dir, sorted, and returns the names listed.
func WriteIndex(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() && strings.HasSuffix(name, ".txt") && name != route.IndexFile && !strings.HasPrefix(name, ".") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteString(indexHeader)
	for _, n := range names {
		b.WriteString(n + "\n")
	}
	return names, writeFile(filepath.Join(dir, route.IndexFile), []byte(b.String()))
}
