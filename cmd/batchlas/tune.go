package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/batchlas/batchlas/internal/bench"
	"github.com/batchlas/batchlas/internal/route"
	"github.com/batchlas/batchlas/internal/tune"
)

type tuneOptions struct {
	keys    keyFlags
	out     string
	resume  bool
	heatmap string
	time    time.Duration
	count   int
	maxMiB  int
	inputs  string
}

func tuneFlags(o *tuneOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("tune", flag.ContinueOnError)
	o.keys.register(fs, true)
	fs.StringVar(&o.keys.device, "device", "auto", "where to measure: auto (the first GPU, else the CPU), cpu, cuda or cuda:N; with --resume also a device key such as sm_90, which opens nothing and rewrites the tables from a journal that holds every point")
	fs.StringVar(&o.out, "out", "tuned-out", "output folder: tables, index.txt, the journal and bench's log")
	fs.BoolVar(&o.resume, "resume", false, "go on with the journal in --out: skip the points it holds")
	fs.StringVar(&o.heatmap, "heatmap", "", "also write a PNG of best native time / vendor time by n and batch, per dtype")
	fs.DurationVar(&o.time, "time", 200*time.Millisecond, "target duration of one repetition of one candidate")
	fs.IntVar(&o.count, "count", 3, "repetitions per candidate and point (the time is their median)")
	fs.IntVar(&o.maxMiB, "max-mib", 0, "skip points whose largest operand batch exceeds this many MiB (0: no limit)")
	fs.StringVar(&o.inputs, "inputs", "", "potrf only: gpumode measures on GPU MODE's dense inputs, formed and checked on the GPU above n = 1024 (bench -inputs), so large orders are affordable")
	return fs
}

func tuneUsage(w io.Writer) {
	var o tuneOptions
	fs := tuneFlags(&o)
	fs.SetOutput(w)
	fmt.Fprintf(w, "Usage: batchlas tune OP --n LIST --batch LIST [flags]\n\n")
	fmt.Fprintf(w, "Measures OP over a grid (every combination of the dtypes and key lists) on\n")
	fmt.Fprintf(w, "one device: at each point, every candidate that can run the call there, timed\n")
	fmt.Fprintf(w, "interleaved in one process by bench with each timed result checked against\n")
	fmt.Fprintf(w, "the oracle. It writes one routing table per dtype, <op>.<dtype>.<device>.txt,\n")
	fmt.Fprintf(w, "and index.txt into --out (see tuned/README.md): candidates fastest first in\n")
	fmt.Fprintf(w, "µs per whole-batch call, \"-\" for one that failed the check. Try the tables\n")
	fmt.Fprintf(w, "with BATCHLAS_TUNED_DIR=<out> before copying them into tuned/.\n\n")
	fmt.Fprintf(w, "Each point is appended to <out>/<op>.<device>.journal as soon as it is\n")
	fmt.Fprintf(w, "measured; after Ctrl-C (or a crash), --resume measures only the rest.\n\n")
	fmt.Fprintf(w, "A LIST is %s.\n\n", tune.ListHelp)
	var ops []string
	for _, op := range route.Builtin() {
		if bench.LookupOp(op.Name) != nil {
			ops = append(ops, op.Name)
		}
	}
	fmt.Fprintf(w, "OP is a routed op that bench can time:\n  %s.\n", strings.Join(ops, ", "))
	fmt.Fprintf(w, "Bench times one form of each: square matrices (m = k = n), Lower, Left,\n")
	fmt.Fprintf(w, "NoTrans; so uplo, side, trans and transb keep their first value and m, k\n")
	fmt.Fprintf(w, "follow n. The exception: potrf, potrs and posv also time --uplo U.\n\n")
	fmt.Fprintf(w, "Flags:\n")
	fs.PrintDefaults()
	fmt.Fprintf(w, "\nExamples:\n")
	fmt.Fprintf(w, "  batchlas tune potrf --dtype float32,float64 --n 1:64,96:1024:x2 --batch 128:32768:x4 --heatmap potrf.png\n")
	fmt.Fprintf(w, "  batchlas tune potrf --dtype float64 --n 8,16 --batch 64 --device cpu --time 20ms --count 2\n")
	fmt.Fprintf(w, "  batchlas tune potrf --dtype float32 --n 1024,2048,4096,8192 --batch 1,2,4,8 --inputs gpumode --uplo L,U --max-mib 1024\n")
}

func runTune(args []string, stdout, stderr io.Writer) int {
	var o tuneOptions
	fs := tuneFlags(&o)
	fs.SetOutput(stderr)
	fs.Usage = func() { tuneUsage(stderr) }
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "batchlas tune: "+format+"\n", a...)
		return exitUsage
	}
	op, g, code, done := opAndGrid("tune", fs, &o.keys, args, stderr)
	if done {
		return code
	}
	g.MaxMiB = o.maxMiB
	if o.inputs != "" && (o.inputs != "gpumode" || op.Name != "potrf") {
		return usageErr("--inputs %q: only gpumode, and only for potrf", o.inputs)
	}
	for _, d := range g.DTypes {
		// Asked here, not by the first point's bench: by then the journal exists.
		if o.inputs == "gpumode" && d != "float32" && d != "float64" {
			return usageErr("--inputs gpumode is for float32 and float64, not %s", d)
		}
	}
	if o.count < 1 || o.time <= 0 {
		return usageErr("--count %d, --time %v: want a count ≥ 1 and a positive time", o.count, o.time)
	}
	// A device key (only with --resume) opens no device: the tables come
	// from the journal alone, for instance one brought back from a GPU
	// machine whose tune run was stopped before it wrote them.
	dev, usage, err := pickDevice(o.keys.device, o.resume)
	if err != nil {
		fmt.Fprintf(stderr, "batchlas tune: %v\n", err)
		if usage {
			return exitUsage
		}
		return exitFailure
	}
	keyOnly := dev.bench == ""
	if keyOnly {
		dev.about = dev.route.Key + " (these tables were rewritten from the journal, no device opened)"
	}
	source := "batchlas tune " + shellJoin(args)
	notes := []string{
		fmt.Sprintf("Measured by batchlas tune on %s: the median of %d repetitions of about %v per", dev.about, o.count, o.time),
		"candidate, interleaved; every timed result checked against the oracle (- failed).",
	}
	if o.inputs == "gpumode" {
		notes = []string{
			fmt.Sprintf("Measured by batchlas tune on %s, on GPU MODE's dense cond-2 inputs with the cholesky-gpumode", dev.about),
			fmt.Sprintf("timing (k inputs per repetition, L2 evicted; the median of at least 3 repetitions, up to %v per candidate),", time.Duration(o.count)*o.time),
			"interleaved; every timed result checked on every matrix (- failed).",
		}
	}
	cfg := tune.Config{
		Op: op, Grid: g, Device: dev.route, Dir: o.out, Resume: o.resume, Source: source,
		Bench: tune.BenchOptions{Device: dev.bench, Count: o.count, Time: o.time, Command: source, Inputs: o.inputs},
		Notes: notes,
		Report: func(r *tune.Record) {
			var parts []string
			for _, res := range r.Results {
				switch {
				case res.Skipped:
					parts = append(parts, res.Name+" skipped")
				case res.Failed:
					parts = append(parts, res.Name+" FAIL")
				default:
					parts = append(parts, res.Name+" "+microsText(res.Micros)+" µs")
				}
			}
			keys := strings.TrimPrefix(r.Point.Text(op), r.Point.DType+" ")
			fmt.Fprintf(stdout, "%s %s %s %s: %s\n", op.Name, r.Point.DType, dev.route.Key, keys, strings.Join(parts, ", "))
		},
	}
	if keyOnly {
		cfg.Measure = func(p tune.Point, _ []string) ([]bench.ArmResult, error) {
			return nil, fmt.Errorf("%s is not in the journal, and --device %s opens no device to measure it on", p.Text(op), dev.route.Key)
		}
	}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		bar := progressbar.NewOptions(1,
			progressbar.OptionSetWriter(f),
			progressbar.OptionSetDescription("tune "+op.Name),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionShowCount(),
		)
		cfg.Progress = func(done, total int, point string) {
			bar.ChangeMax(total)
			bar.Describe("tune " + op.Name + " " + point)
			bar.Set(done)
		}
		defer bar.Clear()
	}

	// The first Ctrl-C (or SIGTERM, as timeout(1) sends) lets the point
	// being measured finish, so that the journal ends on a whole point; a
	// second one stops at once.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	interrupt := make(chan os.Signal, 1)
	signal.Notify(interrupt, os.Interrupt, syscall.SIGTERM)
	finished := make(chan struct{})
	defer close(finished)
	go func() {
		select {
		case <-interrupt:
			signal.Stop(interrupt)
			fmt.Fprintf(stderr, "\nbatchlas tune: interrupted: finishing the point being measured (Ctrl-C again stops at once)\n")
			cancel()
		case <-finished:
			signal.Stop(interrupt)
		}
	}()

	fmt.Fprintf(stderr, "batchlas tune: %s on %s (%s) into %s\n", op.Name, dev.route.Key, dev.about, o.out)
	s, err := tune.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "batchlas tune: %s\n", strings.TrimPrefix(err.Error(), "tune: "))
		if tune.IsUsage(err) {
			return exitUsage
		}
		return exitFailure
	}
	fmt.Fprintf(stdout, "%d points: %d measured, %d from the journal %s\n", s.Points, s.Measured, s.Resumed, s.Journal)
	if len(s.Unrunnable) > 0 {
		fmt.Fprintf(stdout, "%d points no candidate can run on %s, not measured (the first: %s)\n", len(s.Unrunnable), dev.route.Key, s.Unrunnable[0].Text(op))
	}
	if s.Outside > 0 {
		fmt.Fprintf(stdout, "%d journal points are outside this grid and not in the tables\n", s.Outside)
	}
	for _, d := range s.Empty {
		fmt.Fprintf(stdout, "no %s table: no candidate was timed at any %s point\n", d, d)
	}
	for _, t := range s.Tables {
		fmt.Fprintf(stdout, "wrote %s\n", t)
	}
	fmt.Fprintf(stdout, "wrote %s; try the tables with %s=%s\n", o.out+string(os.PathSeparator)+route.IndexFile, route.TunedDirEnv, o.out)
	if o.heatmap != "" {
		if err := tune.Heatmap(o.heatmap, op, dev.route.Key, s.Records); err != nil {
			fmt.Fprintf(stderr, "batchlas tune: %v\n", err)
			return exitFailure
		}
		fmt.Fprintf(stdout, "wrote %s\n", o.heatmap)
	}
	return exitOK
}

// microsText is us with four significant digits, without an exponent.
func microsText(us float64) string {
	if us >= 1000 {
		return strconv.FormatFloat(us, 'f', 0, 64)
	}
	return strconv.FormatFloat(us, 'g', 4, 64)
}

// shellJoin writes args as a shell would need them typed, so that a table's
// source line is the command that reproduces it.
func shellJoin(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_=:,./+@%", r))
		}) < 0 {
			quoted[i] = a
			continue
		}
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(quoted, " ")
}
