package tune

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Result is one candidate's outcome at a point.
type Result struct {
	Name    string  // candidate spelling
	Micros  float64 // µs per whole-batch call; 0 unless timed
	Failed  bool    // failed the oracle check, or broke while running: no time
	Skipped bool    // the measurement could not run it (bench's log says why)
}

// Record is one measured point: its results in the order measured.
type Record struct {
	Op      string
	Device  string // the device key: cpu, sm_90
	Point   Point
	Results []Result
}

// Journal lines look like
//
//	potrf float64 cpu uplo=L n=8 batch=64 | cpu:unblocked 12.5 cpu:blocked 15.25 cpu:other - vendor skip
//
// the op, dtype, device and the op's keys, then each candidate measured with
// its µs per whole-batch call, "-" for a failed oracle check (or a run that
// broke), "skip" for one the measurement could not run.
const journalHeader = `# batchlas tune journal: one measured point a line, appended as it is measured.
# op dtype device key=value... | candidate µs (- failed the oracle check, skip could not run) ...
# batchlas tune --resume skips the points listed here and rewrites the tables from them.
`

// line is r as a journal line, without the newline; keys are op's key names.
func (r *Record) line(keys []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s", r.Op, r.Point.DType, r.Device)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%s", k, r.Point.Value(k))
	}
	b.WriteString(" |")
	for _, res := range r.Results {
		switch {
		case res.Skipped:
			fmt.Fprintf(&b, " %s skip", res.Name)
		case res.Failed:
			fmt.Fprintf(&b, " %s -", res.Name)
		default:
			fmt.Fprintf(&b, " %s %s", res.Name, strconv.FormatFloat(res.Micros, 'g', -1, 64))
		}
	}
	return b.String()
}

// parseRecord reads a journal line; it also returns the key names in the
// order written.
func parseRecord(text string) (Record, []string, error) {
	left, right, ok := strings.Cut(text, "|")
	if !ok {
		return Record{}, nil, errors.New(`no "|" between the point and its results`)
	}
	head := strings.Fields(left)
	if len(head) < 4 {
		return Record{}, nil, errors.New("want op, dtype, device and keys before the |")
	}
	r := Record{Op: head[0], Device: head[2], Point: Point{DType: head[1]}}
	if !slices.Contains(Dtypes, r.Point.DType) {
		return Record{}, nil, fmt.Errorf("dtype %q: want %s", r.Point.DType, strings.Join(Dtypes, ", "))
	}
	var keys []string
	for _, kv := range head[3:] {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			return Record{}, nil, fmt.Errorf("%q is not key=value", kv)
		}
		if slices.Contains(keys, name) {
			return Record{}, nil, fmt.Errorf("key %s twice", name)
		}
		if allowed, exact := exactKeys[name]; exact {
			if !slices.Contains(allowed, value) {
				return Record{}, nil, fmt.Errorf("%s=%q: want one of %s", name, value, strings.Join(allowed, ", "))
			}
			r.Point.setExact(name, value)
		} else if slices.Contains(intKeys, name) {
			v, err := strconv.Atoi(value)
			if err != nil || v < 1 {
				return Record{}, nil, fmt.Errorf("%s=%q: want an integer ≥ 1", name, value)
			}
			r.Point.setInt(name, v)
		} else {
			return Record{}, nil, fmt.Errorf("unknown key %q", name)
		}
		keys = append(keys, name)
	}
	rest := strings.Fields(right)
	if len(rest)%2 != 0 {
		return Record{}, nil, fmt.Errorf("want pairs of candidate and result; %q has none", rest[len(rest)-1])
	}
	for i := 0; i < len(rest); i += 2 {
		res := Result{Name: rest[i]}
		switch v := rest[i+1]; v {
		case "-":
			res.Failed = true
		case "skip":
			res.Skipped = true
		default:
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || !(x > 0) || math.IsInf(x, 0) {
				return Record{}, nil, fmt.Errorf("%s: %q is not a time in µs, - or skip", res.Name, v)
			}
			res.Micros = x
		}
		r.Results = append(r.Results, res)
	}
	return r, keys, nil
}

// ReadJournal reads the records of the journal at path. A last line without
// its newline (a write cut short) is left out; any other malformed line is
// an error naming the file and line.
func ReadJournal(path string) ([]Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseJournal(path, data)
}

func parseJournal(path string, data []byte) ([]Record, error) {
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		data = data[:i+1] // a torn last line
	}
	var out []Record
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		r, _, err := parseRecord(text)
		if err != nil {
			return nil, fmt.Errorf("tune: %s:%d: %v", path, line, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("tune: %s: %v", path, err)
	}
	return out, nil
}

// Journal is an append-only record of measured points. Each Append is one
// write followed by a sync, so a sweep stopped at any moment leaves every
// finished point in it.
type Journal struct {
	path string
	f    *os.File
}

// OpenJournal opens the journal at path. Without resume the file must not
// exist (a UsageError says to pass --resume or remove it); with resume the
// records already in it are returned, and a torn last line is cut off
// before appending.
func OpenJournal(path string, resume bool) (*Journal, []Record, error) {
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return nil, nil, err
		}
		j := &Journal{path: path, f: f}
		if err := j.write(journalHeader); err != nil {
			f.Close()
			return nil, nil, err
		}
		return j, nil, nil
	case err != nil:
		return nil, nil, err
	case !resume:
		return nil, nil, usagef("%s exists: pass --resume to go on with it, or remove it to start again", path)
	}
	records, err := parseJournal(path, data)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0o644)
	if err != nil {
		return nil, nil, err
	}
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		if err := f.Truncate(int64(i + 1)); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, nil, err
	}
	return &Journal{path: path, f: f}, records, nil
}

// Path is the journal's file.
func (j *Journal) Path() string { return j.path }

// Append writes r as one line (keys are its op's key names) and syncs.
func (j *Journal) Append(r *Record, keys []string) error {
	return j.write(r.line(keys) + "\n")
}

func (j *Journal) write(s string) error {
	if _, err := j.f.WriteString(s); err != nil {
		return fmt.Errorf("tune: journal %s: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("tune: journal %s: %w", j.path, err)
	}
	return nil
}

// Close closes the file.
func (j *Journal) Close() error { return j.f.Close() }
