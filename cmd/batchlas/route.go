package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/route"
	"github.com/batchlas/batchlas/internal/tune"
)

// keyFlags are the flags of a call's keys, shared by route (one value each)
// and tune (lists): each is a string parsed by the command.
type keyFlags struct {
	dtype, n, batch, nrhs, m, k string
	uplo, side, trans, transb   string
	device                      string
}

func (kf *keyFlags) register(fs *flag.FlagSet, list bool) {
	what := func(s string) string {
		if list {
			return "LIST: " + s
		}
		return s
	}
	fs.StringVar(&kf.dtype, "dtype", "float64", what("element type: float32, float64, complex64, complex128"))
	fs.StringVar(&kf.n, "n", "", what("matrix order (required)"))
	fs.StringVar(&kf.batch, "batch", "", what("matrices per call (required)"))
	fs.StringVar(&kf.nrhs, "nrhs", "", what("right-hand sides, or the other dimension of B for trsm/trmm (default 1; n for trsm, trmm)"))
	fs.StringVar(&kf.m, "m", "", what("rows, for getrf and gemm (default n)"))
	fs.StringVar(&kf.k, "k", "", what("inner dimension, for gemm, syrk, herk (default n)"))
	fs.StringVar(&kf.uplo, "uplo", "", what("triangle: L or U (default L)"))
	fs.StringVar(&kf.side, "side", "", what("side of A in trsm/trmm: L or R (default L)"))
	fs.StringVar(&kf.trans, "trans", "", what("op(A): N, T or C (default N)"))
	fs.StringVar(&kf.transb, "transb", "", what("op(B) of gemm: N, T or C (default N)"))
}

// grid reads the key flags as lists (a single value is a list of one).
func (kf *keyFlags) grid(fs *flag.FlagSet) (tune.Grid, error) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var g tune.Grid
	for _, d := range strings.Split(kf.dtype, ",") {
		g.DTypes = append(g.DTypes, strings.ToLower(strings.TrimSpace(d)))
	}
	ints := []struct {
		name string
		text string
		dst  *[]int
	}{{"n", kf.n, &g.N}, {"batch", kf.batch, &g.Batch}, {"nrhs", kf.nrhs, &g.NRHS}, {"m", kf.m, &g.M}, {"k", kf.k, &g.K}}
	for _, f := range ints {
		if !set[f.name] {
			continue
		}
		v, err := tune.ParseInts(f.text)
		if err != nil {
			return g, fmt.Errorf("--%s %v", f.name, err)
		}
		*f.dst = v
	}
	words := []struct {
		name string
		text string
		dst  *[]string
	}{{"uplo", kf.uplo, &g.Uplo}, {"side", kf.side, &g.Side}, {"trans", kf.trans, &g.Trans}, {"transb", kf.transb, &g.TransB}}
	for _, f := range words {
		if !set[f.name] {
			continue
		}
		v, err := tune.ParseWords(strings.ToUpper(f.text), tune.ExactValues(f.name))
		if err != nil {
			return g, fmt.Errorf("--%s %v", f.name, err)
		}
		*f.dst = v
	}
	return g, nil
}

// parseOp takes the op from before or after the flags, as bench does.
func parseOp(fs *flag.FlagSet, args []string) (op string, extra []string, err error) {
	rest := args
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		op, rest = rest[0], rest[1:]
	}
	if err := fs.Parse(rest); err != nil {
		return "", nil, err
	}
	extra = fs.Args()
	if op == "" && len(extra) > 0 {
		op, extra = extra[0], extra[1:]
	}
	return strings.ToLower(op), extra, nil
}

// opAndGrid parses `batchlas CMD OP [flags]`, as route and tune take it:
// the op, then its key flags as a grid. When the command line is wrong (or
// asks for help) it has written why to stderr, and done is set with the
// exit code.
func opAndGrid(cmd string, fs *flag.FlagSet, kf *keyFlags, args []string, stderr io.Writer) (op *route.Op, g tune.Grid, code int, done bool) {
	usageErr := func(format string, a ...any) (*route.Op, tune.Grid, int, bool) {
		fmt.Fprintf(stderr, "batchlas "+cmd+": "+format+"\n", a...)
		return nil, tune.Grid{}, exitUsage, true
	}
	name, extra, err := parseOp(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, tune.Grid{}, exitOK, true
		}
		return nil, tune.Grid{}, exitUsage, true
	}
	if len(extra) > 0 {
		return usageErr("unexpected argument %q (flags go after the op)", extra[0])
	}
	if op, err = lookupOp(name); err != nil {
		return usageErr("%v", err)
	}
	if g, err = kf.grid(fs); err != nil {
		return usageErr("%v", err)
	}
	return op, g, 0, false
}

func lookupOp(name string) (*route.Op, error) {
	var names []string
	for _, op := range route.Builtin() {
		if op.Name == name {
			return op, nil
		}
		names = append(names, op.Name)
	}
	if name == "" {
		return nil, fmt.Errorf("no op given (want one of %s)", strings.Join(names, ", "))
	}
	return nil, fmt.Errorf("unknown op %q (want one of %s)", name, strings.Join(names, ", "))
}

// device is a device to route for or measure on.
type device struct {
	route route.Device
	bench string // bench's -device: "cpu" or "cuda:N"
	about string // what it is, for the output
}

var cudaSpec = regexp.MustCompile(`^(cuda|gpu)(:([0-9]+))?$`)

// pickDevice reads --device: auto (the first GPU, else the CPU), cpu,
// cuda or cuda:N; with keys, also a device key such as sm_90 for a device
// that need not be present. usage reports a malformed spelling.
func pickDevice(spec string, keys bool) (d device, usage bool, err error) {
	spec = strings.ToLower(strings.TrimSpace(spec))
	if spec == "auto" {
		if devs, err := cuda.Devices(); err == nil && len(devs) > 0 {
			spec = "cuda:0"
		} else {
			spec = "cpu"
		}
	}
	if spec == "cpu" {
		return device{route: route.Host(), bench: "cpu", about: "the host CPU"}, false, nil
	}
	if m := cudaSpec.FindStringSubmatch(spec); m != nil {
		ordinal := 0
		if m[3] != "" {
			ordinal, _ = strconv.Atoi(m[3])
		}
		dev, err := cuda.DeviceByOrdinal(ordinal)
		if err != nil {
			return device{}, false, err
		}
		rd := route.CUDADevice(dev)
		about := dev.String()
		if rd.Vendor {
			about += ", cuBLAS and cuSOLVER loaded"
		} else {
			about += ", cuBLAS/cuSOLVER not loaded"
		}
		return device{route: rd, bench: fmt.Sprintf("cuda:%d", ordinal), about: about}, false, nil
	}
	if keys && deviceKey.MatchString(spec) {
		return device{route: route.Device{Key: spec, Vendor: true}, about: "named by its key, not opened: cuBLAS and cuSOLVER assumed loaded, limits unknown"}, false, nil
	}
	want := "auto, cpu, cuda or cuda:N"
	if keys {
		want += ", or a device key such as sm_90"
	}
	return device{}, true, fmt.Errorf("--device %q: want %s", spec, want)
}

var deviceKey = regexp.MustCompile(`^[a-z][a-z0-9_+-]*$`)

func routeUsage(w io.Writer) {
	var kf keyFlags
	fs := routeFlags(&kf, new(string))
	fs.SetOutput(w)
	fmt.Fprintf(w, "Usage: batchlas route OP --n N --batch B [flags]\n\n")
	fmt.Fprintf(w, "Shows how a call would be routed, without running anything: the call's\n")
	fmt.Fprintf(w, "keys, the table and row consulted (file:line), the candidate chosen and why,\n")
	fmt.Fprintf(w, "then every candidate of the op with whether it can run the call (and why\n")
	fmt.Fprintf(w, "not) and its time in the row. Tables are the embedded ones and those of\n")
	fmt.Fprintf(w, "BATCHLAS_TUNED_DIR; without --pin, BATCHLAS_<OP>_ROUTE applies as in a call.\n")
	fmt.Fprintf(w, "It exits 1 when the call cannot be routed (a pin that cannot run it).\n\nOps and their keys:\n")
	for _, op := range route.Builtin() {
		var keys, cands []string
		for _, k := range op.Keys {
			keys = append(keys, k.Name)
		}
		for _, c := range op.Candidates {
			cands = append(cands, c.Name)
		}
		fmt.Fprintf(w, "  %-6s %-34s %s\n", op.Name, strings.Join(keys, " "), strings.Join(cands, ", "))
	}
	fmt.Fprintf(w, "\nFlags:\n")
	fs.PrintDefaults()
	fmt.Fprintf(w, "\nExamples:\n  batchlas route potrf --dtype float32 --n 60 --batch 5000 --device sm_90\n")
	fmt.Fprintf(w, "  batchlas route trsm --n 32 --nrhs 8 --batch 1000 --side R --trans T --pin vendor\n")
}

func routeFlags(kf *keyFlags, pin *string) *flag.FlagSet {
	fs := flag.NewFlagSet("route", flag.ContinueOnError)
	kf.register(fs, false)
	fs.StringVar(&kf.device, "device", "auto", "auto (the first GPU, else the CPU), cpu, cuda, cuda:N, or a device key such as sm_90 for a GPU that is not here")
	fs.StringVar(pin, "pin", "", "a pin as batchlas.Route takes: auto, native, vendor, cpu or a candidate (default: BATCHLAS_<OP>_ROUTE)")
	return fs
}

func runRoute(args []string, stdout, stderr io.Writer) int {
	return routeWith(nil, args, stdout, stderr)
}

// routeWith is runRoute with router r; nil is route.Default(), the embedded
// tables and BATCHLAS_TUNED_DIR's.
func routeWith(r *route.Router, args []string, stdout, stderr io.Writer) int {
	var kf keyFlags
	var pin string
	fs := routeFlags(&kf, &pin)
	fs.SetOutput(stderr)
	fs.Usage = func() { routeUsage(stderr) }
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "batchlas route: "+format+"\n", a...)
		return exitUsage
	}
	op, g, code, done := opAndGrid("route", fs, &kf, args, stderr)
	if done {
		return code
	}
	if err := g.Validate(op); err != nil {
		return usageErr("%v", err)
	}
	points := g.Points(op)
	if len(points) != 1 {
		return usageErr("give one value per flag (tune takes lists)")
	}
	p := points[0]
	dev, usage, err := pickDevice(kf.device, true)
	if err != nil {
		fmt.Fprintf(stderr, "batchlas route: %v\n", err)
		if usage {
			return exitUsage
		}
		return exitFailure
	}
	if r == nil {
		if r, err = route.Default(); err != nil {
			fmt.Fprintf(stderr, "batchlas route: %v\n", err)
			return exitFailure
		}
	}
	call := p.Call(op.Name, dev.route)
	// As the library does: a real type's ConjTrans routes as Trans, and the
	// rank-k updates of complex types refuse the transpose they do not take.
	if cplx := strings.HasPrefix(call.DType, "complex"); !cplx {
		call.Trans = strings.ReplaceAll(call.Trans, "C", "T")
		call.TransB = strings.ReplaceAll(call.TransB, "C", "T")
	} else if op.Name == "herk" && call.Trans == "T" || op.Name == "syrk" && call.Trans == "C" {
		return usageErr("%s of %s takes --trans N or %s, as the API does", op.Name, call.DType, map[string]string{"herk": "C", "syrk": "T"}[op.Name])
	}
	if _, err := route.ParsePin(pin); err != nil {
		return usageErr("--pin: %v", err)
	}
	d, chooseErr := r.ChooseFrom(call, pin, "--pin")
	if chooseErr != nil && errors.Is(chooseErr, core.ErrArgument) {
		return usageErr("%v", chooseErr)
	}
	rowOf := d
	if chooseErr != nil {
		// The row the tables would consult, to list the candidates' times.
		rowOf, _ = r.Choose(call, "auto")
	}
	row := findRow(r, rowOf)

	keys := strings.TrimPrefix(p.Text(op), p.DType+" ")
	fmt.Fprintf(stdout, "call      %s %s %s %s\n", op.Name, p.DType, dev.route.Key, keys)
	fmt.Fprintf(stdout, "device    %s: %s\n", dev.route.Key, dev.about)
	if rowOf.Line == 0 {
		fmt.Fprintf(stdout, "table     none: no %s %s table on any device\n", op.Name, p.DType)
	} else {
		borrowed := ""
		if rowOf.TableDevice != dev.route.Key {
			borrowed = fmt.Sprintf(" (borrowed: %s has no table of its own)", dev.route.Key)
		}
		relaxed := ""
		if len(rowOf.Relaxed) > 0 {
			relaxed = " (" + strings.Join(rowOf.Relaxed, ", ") + " relaxed)"
		}
		fmt.Fprintf(stdout, "table     %s%s\nrow       %s:%d [%s]%s\n", rowOf.Table, borrowed, rowOf.Table, rowOf.Line, rowOf.Row, relaxed)
	}
	if chooseErr == nil {
		fmt.Fprintf(stdout, "decision  %s\n", d)
	} else {
		fmt.Fprintf(stdout, "decision  none: see the error below\n")
	}
	fmt.Fprintf(stdout, "candidates in the op's order (a tie within %g%% goes to the earlier); * chosen:\n", 100*route.TieMargin)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, c := range op.Candidates {
		mark := " "
		if chooseErr == nil && c.Name == d.Candidate.Name {
			mark = "*"
		}
		t := ""
		if row != nil {
			t = "not in the row\t"
			if i := entryIndex(row, c.Name); i >= 0 {
				if e := row.Entries[i]; e.Failed {
					t = "- (failed the oracle check)\t"
				} else {
					t = strconv.FormatFloat(e.Micros, 'f', -1, 64) + " µs\t"
				}
			}
		}
		can := "can run"
		if err := c.CanRun(call); err != nil {
			can = "cannot run: " + err.Error()
		} else if c.PinnedOnly {
			// Less accurate than the op's contract: neither auto nor tune weighs it.
			can = "can run when pinned (less accurate: auto and tune pass it over)"
		}
		fmt.Fprintf(tw, "  %s %s\t%s%s\n", mark, c.Name, t, can)
	}
	tw.Flush()
	if chooseErr != nil {
		fmt.Fprintf(stderr, "batchlas route: %v\n", chooseErr)
		return exitFailure
	}
	return exitOK
}

// findRow is the row d consulted; nil when none.
func findRow(r *route.Router, d route.Decision) *route.Row {
	if d.Line == 0 {
		return nil
	}
	for _, t := range r.Tables() {
		if t.File != d.Table {
			continue
		}
		for i := range t.Rows {
			if t.Rows[i].Line == d.Line {
				return &t.Rows[i]
			}
		}
	}
	return nil
}

func entryIndex(row *route.Row, name string) int {
	for i, e := range row.Entries {
		if e.Name == name {
			return i
		}
	}
	return -1
}
