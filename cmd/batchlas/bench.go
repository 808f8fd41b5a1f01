package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/batchlas/batchlas/internal/bench"
)

func benchFlags(cfg *bench.Config, arms *string) *flag.FlagSet {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.StringVar(&cfg.Dtype, "dtype", "float64", "element type: "+strings.Join(bench.Dtypes, ", "))
	fs.IntVar(&cfg.N, "n", 32, "matrix order")
	fs.IntVar(&cfg.Batch, "batch", 10000, "matrices per call")
	fs.IntVar(&cfg.NRHS, "nrhs", 0, "right-hand sides of potrs, posv, getrs, gesv and trsm (default 1, n for trsm)")
	fs.StringVar(arms, "arms", "cpu,gonum", "comma-separated arms (see Arms); ratios compare each with those listed before it; a suite's default is vendor,native,auto on a GPU device, cpu,gonum on the CPU")
	fs.StringVar(&cfg.Device, "device", "auto", "device of the GPU arms (auto, cuda, cuda:N); cpu:N sets the cpu arm's workers")
	fs.IntVar(&cfg.Count, "count", 5, "repetitions per arm")
	fs.DurationVar(&cfg.Time, "time", time.Second, "target duration of one repetition")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the generated inputs")
	fs.StringVar(&cfg.Inputs, "inputs", "", "potrf only: gpumode times GPU MODE's dense cond-2 inputs, formed and checked on the GPU above n = 1024 as in suite cholesky-gpumode")
	fs.StringVar(&cfg.Uplo, "uplo", "L", "triangle of potrf, potrs and posv: L or U (every other op times L)")
	fs.StringVar(&cfg.Suite, "suite", "", "run the named list of cases instead of one ("+bench.SuiteNames()+"); conflicts with an op, -n, -batch and -nrhs")
	fs.StringVar(&cfg.Cases, "cases", "", "with -suite, a regular expression picking the cases whose names match (e.g. 'n=(32|64)/')")
	return fs
}

func benchUsage(w io.Writer) {
	var cfg bench.Config
	var arms string
	fs := benchFlags(&cfg, &arms)
	fs.SetOutput(w)
	fmt.Fprintf(w, "Usage: batchlas bench OP [flags]\n       batchlas bench -suite NAME [-cases REGEXP] [flags]\n\n")
	fmt.Fprintf(w, "Times OP on a batch of generated matrices with each arm, checks every timed\n")
	fmt.Fprintf(w, "result against a float64/complex128 reference, and prints Go benchmark lines\n")
	fmt.Fprintf(w, "(for benchstat) and the ratio of median times of each pair of arms.\n\nOps:\n")
	for _, o := range bench.Ops() {
		fmt.Fprintf(w, "  %-10s %s\n", o.Name, o.Doc)
	}
	fmt.Fprintf(w, "\nArms:\n%s", bench.ArmHelp())
	fmt.Fprintf(w, "\nSuites (a table of every arm's time per case, its ratio to vendor and the\ngeometric means follows the benchmark lines):\n")
	for _, s := range bench.Suites() {
		fmt.Fprintf(w, "  %-18s %s (default dtype %s)\n", s.Name, s.Doc, s.DefaultDtype)
	}
	fmt.Fprintf(w, "  In cholesky-gpumode a repetition is one call on each of the case's k inputs;\n")
	fmt.Fprintf(w, "  an arm stops repeating a case after -count × -time (at least 3 repetitions).\n")
	fmt.Fprintf(w, "\nFlags:\n")
	fs.PrintDefaults()
	fmt.Fprintf(w, "\nExamples:\n  batchlas bench potrf -dtype float64 -n 32 -batch 20000 -arms cpu,gonum\n")
	fmt.Fprintf(w, "  batchlas bench potrf -dtype float32 -n 32 -batch 65536 -arms vendor,native:tiny,auto\n")
	fmt.Fprintf(w, "  batchlas bench -suite cholesky-gpumode -arms vendor,native,auto\n")
	fmt.Fprintf(w, "  batchlas bench -suite cholesky-gpumode -device cpu -cases 'n=(32|64|128)/'\n")
}

func runBench(args []string, stdout, stderr io.Writer) int {
	var cfg bench.Config
	var arms string
	fs := benchFlags(&cfg, &arms)
	fs.SetOutput(stderr)
	fs.Usage = func() { benchUsage(stderr) }

	// The op comes first (bench potrf -n 32) but may also follow the flags.
	rest := args
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		cfg.Op, rest = rest[0], rest[1:]
	}
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	extra := fs.Args()
	if cfg.Op == "" && len(extra) > 0 && cfg.Suite == "" {
		cfg.Op, extra = extra[0], extra[1:]
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case cfg.Suite != "":
		var clash []string
		if cfg.Op != "" {
			clash = append(clash, "an op ("+cfg.Op+")")
		}
		if len(extra) > 0 {
			clash = append(clash, fmt.Sprintf("the argument %q", extra[0]))
		}
		for _, f := range []string{"n", "batch", "nrhs"} {
			if set[f] {
				clash = append(clash, "-"+f)
			}
		}
		if len(clash) > 0 {
			fmt.Fprintf(stderr, "batchlas bench: -suite %s conflicts with %s: the suite names its cases (pick some with -cases)\n", cfg.Suite, strings.Join(clash, ", "))
			return exitUsage
		}
		// The suite decides what the flags left at their defaults mean.
		cfg.N, cfg.Batch = 0, 0
		if !set["dtype"] {
			cfg.Dtype = ""
		}
		if !set["arms"] {
			arms = ""
		}
	case cfg.Op == "":
		fmt.Fprintf(stderr, "batchlas bench: no op given (want one of %s, or -suite NAME)\n", bench.OpNames())
		return exitUsage
	case len(extra) > 0:
		fmt.Fprintf(stderr, "batchlas bench: unexpected argument %q (flags go after the op)\n", extra[0])
		return exitUsage
	}
	cfg.Op = strings.ToLower(cfg.Op)
	cfg.Dtype = strings.ToLower(cfg.Dtype)
	cfg.Uplo = strings.ToUpper(cfg.Uplo) // as route and tune take it
	for _, a := range strings.Split(arms, ",") {
		if a = strings.TrimSpace(a); a != "" {
			cfg.Arms = append(cfg.Arms, strings.ToLower(a))
		}
	}
	cfg.Command = "batchlas bench " + strings.Join(args, " ")
	if err := cfg.Validate(); err != nil {
		fmt.Fprintf(stderr, "batchlas bench: %v\n", err)
		return exitUsage
	}

	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		bar := progressbar.NewOptions(1,
			progressbar.OptionSetWriter(f),
			progressbar.OptionSetDescription("bench "+cfg.Op+cfg.Suite),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSetElapsedTime(true),
		)
		cfg.Progress = func(done, total int) {
			bar.ChangeMax(total)
			bar.Set(done)
		}
		defer bar.Clear()
	}

	out, err := bench.Run(cfg, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "batchlas bench: %v\n", err)
		var u *bench.UsageError
		if errors.As(err, &u) {
			return exitUsage
		}
		return exitFailure
	}
	if len(out.Failed) > 0 {
		fmt.Fprintf(stderr, "batchlas bench: FAIL: %s\n", strings.Join(out.Failed, ", "))
		return exitFailure
	}
	if len(out.Skipped) > 0 && len(out.Skipped) == len(out.Arms) {
		// Nothing was measured: as kernels and route, a failure.
		fmt.Fprintf(stderr, "batchlas bench: no arm ran (%s)\n", strings.Join(out.Skipped, ", "))
		return exitFailure
	}
	return exitOK
}
