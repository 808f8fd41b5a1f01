package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing/fstest"
	"time"

	"github.com/batchlas/batchlas/internal/route"
)

// Config is one sweep.
type Config struct {
	Op     *route.Op
	Grid   Grid
	Device route.Device // where the candidates run; its Key names the tables
	Dir    string       // the output folder, made if missing
	Resume bool         // go on with the journal in Dir instead of refusing it
	Source string       // the command line, written in each table's source line

	// Measure times the candidates at a point; nil: BenchMeasure(Op.Name,
	// Bench) with its output appended to <op>.<device>.bench.log in Dir.
	Measure Measure
	Bench   BenchOptions

	// Ops are the ops the folder's tables are checked against once written;
	// nil: route.Builtin().
	Ops []*route.Op
	// Notes are comment lines for each table, without '#'.
	Notes []string
	// Now dates the tables; nil: time.Now.
	Now func() time.Time
	// Progress, when set, is called before each point is measured and once
	// at the end (done == total); point is the point's text.
	Progress func(done, total int, point string)
	// Report, when set, is called with each point as it is measured.
	Report func(r *Record)
}

// Summary is what a sweep did.
type Summary struct {
	Journal    string   // the journal's path
	Records    []Record // the grid's measured points in grid order, from the journal and this run
	Points     int      // points in the grid
	Measured   int      // measured by this run
	Resumed    int      // found in the journal
	Unrunnable []Point  // points no candidate can run on the device
	Outside    int      // journal points not in this grid, left out of the tables
	Tables     []string // the tables written (paths)
	Empty      []string // dtypes with no table: no candidate ran at any of their points
}

// JournalFile is the journal's name in the output folder for op on device.
// It does not end in .txt, so route does not take it for a table.
func JournalFile(op, device string) string { return op + "." + device + ".journal" }

// Run measures every point of the grid that the journal does not already
// hold, appending each to the journal as soon as it is measured, then
// writes one table per dtype and Dir's index.txt from the journal, and
// checks that the folder loads with route.New.
//
// At each point the candidates of the op that can run the call on Device
// (their CanRun) are measured together; the others are not listed. When
// ctx is done Run stops between points and returns ctx's error without
// writing tables: the journal keeps what was measured, for Resume.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	var s Summary
	op := cfg.Op
	if op == nil {
		return s, usagef("no op")
	}
	if err := cfg.Grid.Validate(op); err != nil {
		return s, err
	}
	if cfg.Dir == "" {
		return s, usagef("no output folder")
	}
	if cfg.Device.Key == "" {
		return s, usagef("no device")
	}
	points := cfg.Grid.Points(op)
	s.Points = len(points)
	measure := cfg.Measure
	if measure == nil {
		for _, p := range points {
			if err := BenchSupports(op.Name, p, cfg.Bench.Inputs); err != nil {
				return s, err
			}
		}
		if cfg.Bench.Count < 1 || cfg.Bench.Time <= 0 {
			return s, usagef("--count %d, --time %v: want a count ≥ 1 and a positive time", cfg.Bench.Count, cfg.Bench.Time)
		}
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return s, err
	}
	j, old, err := OpenJournal(filepath.Join(cfg.Dir, JournalFile(op.Name, cfg.Device.Key)), cfg.Resume)
	if err != nil {
		return s, err
	}
	defer j.Close()
	s.Journal = j.Path()
	if measure == nil {
		log, err := os.OpenFile(filepath.Join(cfg.Dir, op.Name+"."+cfg.Device.Key+".bench.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return s, err
		}
		defer log.Close()
		o := cfg.Bench
		o.Log = log
		measure = BenchMeasure(op.Name, o)
	}

	var keys []string
	for _, k := range op.Keys {
		keys = append(keys, k.Name)
	}
	done := map[string]Record{} // point text → its latest record
	for _, r := range old {
		if r.Op == op.Name && r.Device == cfg.Device.Key {
			done[r.Point.Text(op)] = r
		}
	}
	inGrid := map[string]bool{}
	for _, p := range points {
		inGrid[p.Text(op)] = true
	}
	for text := range done {
		if !inGrid[text] {
			s.Outside++
		}
	}
	for i := range old {
		if r := &old[i]; r.Op != op.Name || r.Device != cfg.Device.Key {
			s.Outside++
		}
	}

	progress := func(i int, text string) {
		if cfg.Progress != nil {
			cfg.Progress(i, len(points), text)
		}
	}
	for i, p := range points {
		text := p.Text(op)
		if r, ok := done[text]; ok {
			s.Resumed++
			s.Records = append(s.Records, r)
			continue
		}
		if err := ctx.Err(); err != nil {
			return s, fmt.Errorf("tune: stopped after %d of %d points; %s keeps them: run again with --resume: %w",
				s.Resumed+s.Measured, len(points), j.Path(), err)
		}
		call := p.Call(op.Name, cfg.Device)
		var arms []string
		for _, c := range op.Candidates {
			if !c.PinnedOnly && c.CanRun(call) == nil {
				arms = append(arms, c.Name)
			}
		}
		if len(arms) == 0 {
			s.Unrunnable = append(s.Unrunnable, p)
			continue
		}
		progress(i, text)
		got, err := measure(p, arms)
		if err != nil {
			return s, err
		}
		r := Record{Op: op.Name, Device: cfg.Device.Key, Point: p}
		if len(got) != len(arms) {
			return s, fmt.Errorf("tune: %s: the measurement returned %d results for %d candidates", text, len(got), len(arms))
		}
		for k, a := range got {
			if a.Arm != arms[k] {
				return s, fmt.Errorf("tune: %s: the measurement returned %s in place of %s", text, a.Arm, arms[k])
			}
			res := Result{Name: a.Arm}
			switch {
			case a.Skipped != "":
				res.Skipped = true
			case a.Failed || !(a.NsPerCall > 0) || math.IsInf(a.NsPerCall, 0):
				// No time for a result that failed its check; a missing
				// time is treated alike, so it is never ranked.
				res.Failed = true
			default:
				// Six digits are past any timing's precision; the journal
				// holds the same value that the tables are built from.
				res.Micros, _ = strconv.ParseFloat(strconv.FormatFloat(a.NsPerCall/1e3, 'g', 6, 64), 64)
			}
			r.Results = append(r.Results, res)
		}
		if err := j.Append(&r, keys); err != nil {
			return s, err
		}
		s.Measured++
		s.Records = append(s.Records, r)
		if cfg.Report != nil {
			cfg.Report(&r)
		}
	}
	progress(len(points), "")

	now := time.Now
	if cfg.Now != nil {
		now = cfg.Now
	}
	h := Header{Date: now().Format(time.DateOnly), Source: cfg.Source, Notes: cfg.Notes}
	if h.Source == "" {
		h.Source = "batchlas tune " + op.Name
	}
	for _, dtype := range cfg.Grid.DTypes {
		t, err := BuildTable(op, dtype, cfg.Device.Key, s.Records, h)
		if err != nil {
			return s, err
		}
		if t == nil {
			s.Empty = append(s.Empty, dtype)
			continue
		}
		path, err := WriteTable(cfg.Dir, t)
		if err != nil {
			return s, err
		}
		s.Tables = append(s.Tables, path)
	}
	if _, err := WriteIndex(cfg.Dir); err != nil {
		return s, err
	}
	return s, CheckFolder(cfg.Dir, cfg.Ops)
}

// CheckFolder loads the tables of dir alone (no embedded ones) against ops
// (nil: route.Builtin()) as the router would with BATCHLAS_TUNED_DIR=dir.
func CheckFolder(dir string, ops []*route.Op) error {
	_, err := route.New(route.Config{Ops: ops, Tables: fstest.MapFS{}, Dir: dir,
		Getenv: func(string) string { return "" }, Warn: func(string) {}})
	if err != nil {
		return fmt.Errorf("tune: the folder does not load: %w", err)
	}
	return nil
}

// IsUsage reports whether err is a usage error (a bad grid, flag or
// folder state) rather than a failure while measuring.
func IsUsage(err error) bool {
	var u *UsageError
	return errors.As(err, &u)
}
