package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/batchlas/batchlas/internal/bench"
	"github.com/batchlas/batchlas/internal/cuda"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // in stderr
	}{
		{nil, "Usage"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"help", "frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"bench"}, "no op given"},
		{[]string{"bench", "potrx"}, `unknown op "potrx"`},
		{[]string{"bench", "potrf", "-dtype", "float16"}, `unknown dtype "float16"`},
		{[]string{"bench", "potrf", "-arms", "cpu,mkl"}, `unknown arm "mkl"`},
		{[]string{"bench", "potrf", "-n", "0"}, "-n 0"},
		{[]string{"bench", "potrf", "-count", "0"}, "-count 0"},
		{[]string{"bench", "potrf", "-time", "0s"}, "-time"},
		{[]string{"bench", "potrf", "-bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"bench", "potrf", "-n", "x"}, "invalid value"},
		{[]string{"bench", "potrf", "getrf"}, `unexpected argument "getrf"`},
		{[]string{"devices", "extra"}, `unexpected argument "extra"`},
	} {
		code, _, stderr := runCLI(c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("batchlas %s: exit %d, stderr %q; want exit %d and %q",
				strings.Join(c.args, " "), code, stderr, exitUsage, c.want)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"help", "bench"}, {"help", "devices"}} {
		code, stdout, _ := runCLI(args...)
		if code != exitOK || !strings.Contains(stdout, "Usage") {
			t.Errorf("batchlas %s: exit %d, stdout %q", strings.Join(args, " "), code, stdout)
		}
	}
	for _, args := range [][]string{{"bench", "-h"}, {"bench", "potrf", "-h"}, {"devices", "-h"}} {
		code, _, stderr := runCLI(args...)
		if code != exitOK || !strings.Contains(stderr, "Usage: batchlas "+args[0]) {
			t.Errorf("batchlas %s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
		}
	}
	_, stdout, _ := runCLI("help", "bench")
	for _, op := range bench.Ops() {
		if !strings.Contains(stdout, "  "+op.Name+" ") {
			t.Errorf("bench help does not list %s", op.Name)
		}
	}
}

func TestDevices(t *testing.T) {
	code, stdout, stderr := runCLI("devices")
	if code != exitOK || !strings.HasPrefix(stdout, "cpu ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "cuda") {
		t.Errorf("no cuda entry (available or not) in %q", stdout)
	}
}

var (
	benchLine = regexp.MustCompile(`(?m)^Benchmark[A-Z][a-z]+/dtype=\w+/n=\d+(/nrhs=\d+)?/batch=\d+/arm=([\w-]+?)(-\d+)?\s+\d+\s+[\d.]+ ns/op\s+[\d.]+ MB/s\s+[\d.]+ GFLOP/s$`)
	ratioLine = regexp.MustCompile(`(?m)^ratio gonum/cpu \d+\.\d\d$`)
	skipLine  = regexp.MustCompile(`(?m)^--- SKIP: Benchmark\S+/arm=cpu\S*: .*unsupported`)
)

// A tiny run of every op with both arms: the cpu arm either produces a
// checked time or, while its engine code is missing, a SKIP line that says
// it is unsupported; it never fails.
func TestBenchTiny(t *testing.T) {
	for _, op := range bench.Ops() {
		t.Run(op.Name, func(t *testing.T) {
			code, stdout, stderr := runCLI("bench", op.Name, "-batch", "3", "-n", "4", "-count", "1", "-time", "1ms", "-arms", "cpu,gonum")
			if code != exitOK {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			for _, h := range []string{"goos: ", "goarch: ", "pkg: "} {
				if !strings.Contains(stdout, "\n"+h) && !strings.HasPrefix(stdout, h) {
					t.Errorf("no %q header line", h)
				}
			}
			arms := map[string]bool{}
			for _, m := range benchLine.FindAllStringSubmatch(stdout, -1) {
				arms[m[2]] = true
			}
			if !arms["gonum"] {
				t.Errorf("no gonum benchmark line in\n%s", stdout)
			}
			switch {
			case arms["cpu"]:
				if !ratioLine.MatchString(stdout) {
					t.Errorf("no ratio line in\n%s", stdout)
				}
			case skipLine.MatchString(stdout):
				t.Logf("cpu %s is not implemented yet: SKIP", op.Name)
			default:
				t.Errorf("cpu arm neither timed nor skipped as unsupported:\n%s", stdout)
			}
			if strings.Contains(stdout, "FAIL") {
				t.Errorf("FAIL in\n%s", stdout)
			}
		})
	}
}

func TestBenchOtherTypes(t *testing.T) {
	for _, dtype := range bench.Dtypes {
		code, stdout, stderr := runCLI("bench", "gemm", "-dtype", dtype, "-batch", "3", "-n", "4", "-count", "1", "-time", "1ms", "-arms", "cpu,gonum")
		if code != exitOK || !benchLine.MatchString(stdout) {
			t.Errorf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", dtype, code, stdout, stderr)
		}
		if gonumSkip := strings.Contains(stdout, "--- SKIP: BenchmarkGemm/dtype="+dtype); gonumSkip != (dtype != "float64") {
			t.Errorf("%s: gonum skipped = %v\n%s", dtype, gonumSkip, stdout)
		}
	}
}

// Without a GPU, kernels fails with the reason and exit status 1; on a GPU
// machine it must list kernels and exit 0.
func TestKernelsCommand(t *testing.T) {
	var out, errOut strings.Builder
	code := run([]string{"kernels"}, &out, &errOut)
	if _, err := cuda.Devices(); err != nil {
		if code != exitFailure || !strings.Contains(errOut.String(), "batchlas kernels:") {
			t.Errorf("kernels without a GPU: exit %d, stderr %q", code, errOut.String())
		}
		return
	}
	if code != exitOK || !strings.Contains(out.String(), "copy_matrices") {
		t.Errorf("kernels: exit %d\n%s%s", code, out.String(), errOut.String())
	}
}
