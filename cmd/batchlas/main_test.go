package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/batchlas/batchlas/internal/bench"
	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/route"
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
		{[]string{"bench", "potrf", "-arms", "vendor,native:huge"}, `unknown arm "native:huge"`},
		{[]string{"bench", "-suite", "lapack"}, `unknown suite "lapack"`},
		{[]string{"bench", "potrf", "-suite", "cholesky-gpumode"}, "-suite cholesky-gpumode conflicts with an op (potrf)"},
		{[]string{"bench", "-suite", "cholesky-gpumode", "-n", "32", "-batch", "4"}, "conflicts with -n, -batch"},
		{[]string{"bench", "-suite", "small-batched", "-nrhs", "2"}, "conflicts with -nrhs"},
		{[]string{"bench", "-suite", "cholesky-gpumode", "-dtype", "complex64"}, "runs dtype float32 or float64"},
		{[]string{"bench", "-suite", "cholesky-gpumode", "-cases", "n=(32"}, "-cases"},
		{[]string{"bench", "-suite", "cholesky-gpumode", "-cases", "n=33/"}, "no case of suite cholesky-gpumode matches"},
		{[]string{"bench", "potrf", "-cases", "n=32/"}, "needs -suite"},
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
	for _, args := range [][]string{{"help"}, {"-h"}, {"help", "bench"}, {"help", "devices"}, {"help", "run"}, {"help", "help"}} {
		code, stdout, _ := runCLI(args...)
		if code != exitOK || !strings.Contains(stdout, "Usage") {
			t.Errorf("batchlas %s: exit %d, stdout %q", strings.Join(args, " "), code, stdout)
		}
	}
	for _, args := range [][]string{{"bench", "-h"}, {"bench", "potrf", "-h"}, {"devices", "-h"}, {"run", "potrf", "-h"}} {
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

// TestKernelsDump: -dump needs no GPU and writes, for every family, the
// code, one name expression a line (each of a template the code defines)
// with an empty line between modules, and the options, numbered in
// kernelSources' order.
func TestKernelsDump(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dump")
	if code, stdout, stderr := runCLI("kernels", "-dump", dir); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3*len(kernelSources) {
		t.Errorf("%d files for %d families", len(entries), len(kernelSources))
	}
	total := 0
	for i, f := range kernelSources {
		base := filepath.Join(dir, fmt.Sprintf("%02d-%s", i, dumpName(f.name)))
		code, err := os.ReadFile(base + ".cu")
		if err != nil || string(code) != f.source.Code {
			t.Errorf("%s: the code differs from the source's (%v)", f.name, err)
		}
		text, err := os.ReadFile(base + ".names")
		var modules [][]string
		for _, m := range strings.Split(string(text), "\n\n") {
			modules = append(modules, strings.Split(strings.TrimSuffix(m, "\n"), "\n"))
		}
		if err != nil || !slices.EqualFunc(modules, f.modules(), slices.Equal) {
			t.Errorf("%s: %d modules, want %d (%v)", f.name, len(modules), len(f.modules()), err)
		}
		lines := slices.Concat(modules...)
		for _, name := range lines {
			template, _, _ := strings.Cut(name, "<")
			if !strings.Contains(string(code), template) {
				t.Errorf("%s: %q names no template of the code", f.name, name)
			}
		}
		total += len(lines)
		if _, err := os.Stat(base + ".options"); err != nil {
			t.Error(err)
		}
	}
	if total < 800 {
		t.Errorf("%d kernels in all; batchlas ships more than 800", total)
	}
	if got, want := dumpModules([][]string{{"a<1>", "a<2>"}, {"b"}}), "a<1>\na<2>\n\nb\n"; got != want {
		t.Errorf("dumpModules = %q, want %q", got, want)
	}
	if got := dumpName("cta.cu (posv_cta)"); got != "cta-posv_cta" {
		t.Errorf(`dumpName("cta.cu (posv_cta)") = %q`, got)
	}
	for _, args := range [][]string{{"-dump", dir, "extra"}, {"-device", "cuda:0", "-dump", dir}} {
		if code, _, _ := runCLI(append([]string{"kernels"}, args...)...); code != exitUsage {
			t.Errorf("kernels %q: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// TestKernelModules: every family's modules are non-empty and name each
// kernel of their source once, and only kernels their source defines; and
// every kernel a source defines is named by some family (cta.cu and
// warp.cu hold potrf.cu's kernels too, which potrf.cu's family names):
// kernels and the resource tests compile what the modules list. Without a
// GPU nothing else compiles the names, so a misspelt or forgotten one
// would first show on the device.
func TestKernelModules(t *testing.T) {
	seen := map[string]string{}             // source and name → family
	listed := map[string]bool{}             // the bases of the names listed
	defined := map[string]map[string]bool{} // source → the names of its __global__ functions
	for _, f := range kernelSources {
		src := f.source.Name
		if defined[src] == nil {
			defined[src] = globalKernels(f.source.Code)
		}
		ms := f.modules()
		if len(ms) == 0 {
			t.Errorf("%s: no modules", f.name)
		}
		for i, m := range ms {
			if len(m) == 0 {
				t.Errorf("%s: module %d is empty", f.name, i)
			}
			for _, name := range m {
				key := src + " " + name
				if other, ok := seen[key]; ok {
					t.Errorf("%s: %q also in %s", f.name, name, other)
				}
				seen[key] = f.name
				base, _, _ := strings.Cut(name, "<") // the template's name
				if !defined[src][base] {
					t.Errorf("%s: %q is no __global__ function of %s", f.name, name, src)
				}
				listed[base] = true
			}
		}
	}
	for src, bases := range defined {
		if len(bases) == 0 {
			t.Errorf("%s: no __global__ function found", src)
		}
		for base := range bases {
			if !listed[base] {
				t.Errorf("%s defines __global__ %s, which no family lists", src, base)
			}
		}
	}
}

// kernelDef matches a __global__ function's head, the launch bounds between
// the return type and the name or not; its group is the name.
var kernelDef = regexp.MustCompile(`__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s*)?(\w+)\s*\(`)

// globalKernels returns the names of code's __global__ functions.
func globalKernels(code string) map[string]bool {
	names := map[string]bool{}
	for _, m := range kernelDef.FindAllStringSubmatch(code, -1) {
		names[m[1]] = true
	}
	return names
}

// TestRouteCommand: route explains a decision without a GPU, for the host
// and for a device named by its key.
func TestRouteCommand(t *testing.T) {
	potrf, _ := lookupOp("potrf")
	code, stdout, stderr := runCLI("route", "potrf", "--n", "8", "--batch", "64", "--device", "cpu")
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"call      potrf float64 cpu uplo=L n=8 batch=64\n",
		"device    cpu: the host CPU\n",
		"decision  potrf float64 cpu uplo=L n=8 batch=64 -> cpu:",
		"  * cpu:",
		"cannot run: cuBLAS and cuSOLVER need a GPU",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
	for _, c := range potrf.Candidates {
		if !strings.Contains(stdout, " "+c.Name+" ") {
			t.Errorf("candidate %s not listed:\n%s", c.Name, stdout)
		}
	}

	code, stdout, stderr = runCLI("route", "trsm", "--dtype", "complex64", "--n", "16", "--nrhs", "4", "--batch", "100",
		"--side", "R", "--trans", "C", "--device", "sm_90")
	if code != exitOK {
		t.Fatalf("sm_90: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"call      trsm complex64 sm_90 side=R uplo=L trans=C n=16 nrhs=4 batch=100\n",
		"device    sm_90: named by its key",
		"decision  trsm complex64 sm_90 side=R uplo=L trans=C n=16 nrhs=4 batch=100 -> ",
		"cannot run: the cpu engine works on host memory; the batch is on sm_90",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}

	// A candidate only a pin runs says so, and takes no part in the decision.
	code, stdout, stderr = runCLI("route", "potrf", "--dtype", "float32", "--n", "4096", "--batch", "1", "--device", "sm_90")
	if code != exitOK {
		t.Fatalf("potrf float32 sm_90: exit %d\n%s%s", code, stdout, stderr)
	}
	pinnedOnly := regexp.MustCompile(`(?m)^ {4}native:blocked:prec=tf32 +not in the row +can run when pinned \(less accurate`)
	if !pinnedOnly.MatchString(stdout) {
		t.Errorf("native:blocked:prec=tf32 not shown as pinned only:\n%s", stdout)
	}

	// A pin that cannot run the call: the error, exit 1.
	code, stdout, stderr = runCLI("route", "potrf", "--n", "8", "--batch", "64", "--device", "cpu", "--pin", "vendor")
	if code != exitFailure || !strings.Contains(stderr, "unsupported") || !strings.Contains(stderr, "cuBLAS and cuSOLVER need a GPU") ||
		!strings.Contains(stdout, "decision  none") {
		t.Errorf("pin vendor on the host: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI("route", "potrf", "--n", "8", "--batch", "64", "--device", "sm_90", "--pin", "cpu:blocked")
	if code != exitFailure || !strings.Contains(stderr, "pinned cpu:blocked (--pin) cannot run it") {
		t.Errorf("pin cpu:blocked on sm_90: exit %d\n%s%s", code, stdout, stderr)
	}
	// The decision names the flag as the pin's source, not code.
	code, stdout, stderr = runCLI("route", "potrf", "--n", "8", "--batch", "64", "--device", "cpu", "--pin", "cpu:blocked")
	if code != exitOK || !strings.Contains(stdout, "pinned cpu:blocked by --pin") {
		t.Errorf("pin cpu:blocked on the host: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestRouteTable: route names the table file and row line that decided.
func TestRouteTable(t *testing.T) {
	dir := t.TempDir()
	table := `op      potrf
dtype   float32
device  sm_90
date    2026-01-01
source  synthetic
keys    uplo n batch
L  16  8192   vendor 120   native:tiny 123   cpu:unblocked -
L  256 8192   vendor 2400
`
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("potrf.float32.sm_90.txt", table)
	write(route.IndexFile, "potrf.float32.sm_90.txt\n")
	r, err := route.New(route.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	// The command uses route.Default, which reads BATCHLAS_TUNED_DIR once
	// per process; the output is built from a router, so check it with one
	// over dir through the same function.
	var out, errOut bytes.Buffer
	code := routeWith(r, []string{"potrf", "--dtype", "float32", "--n", "20", "--batch", "5000", "--device", "sm_90"}, &out, &errOut)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errOut.String())
	}
	file := filepath.Join(dir, "potrf.float32.sm_90.txt")
	// Columns are aligned to the longest candidate name: compare lines with
	// runs of spaces folded.
	var lines []string
	for _, l := range strings.Split(out.String(), "\n") {
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	text := strings.Join(lines, "\n") + "\n"
	for _, want := range []string{
		"table " + file + "\n",
		"row " + file + ":7 [uplo=L n=16 batch=8192]\n",
		"-> native:tiny: table; tie → native, within 3% of vendor 120 µs; row " + file + ":7",
		"\n* native:tiny 123 µs can run\n",
		"\nvendor 120 µs can run\n",
		"\ncpu:unblocked - (failed the oracle check) cannot run: the cpu engine works on host memory",
		"\ncpu:blocked not in the row cannot run:",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
}

func TestRouteUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"route"}, "no op given"},
		{[]string{"route", "potrx", "--n", "8", "--batch", "8"}, `unknown op "potrx"`},
		{[]string{"route", "potrf", "--batch", "8"}, "--n: no values given"},
		{[]string{"route", "potrf", "--n", "8"}, "--batch: no values given"},
		{[]string{"route", "potrf", "--n", "8", "--batch", "8", "--nrhs", "2"}, "potrf has no nrhs key"},
		{[]string{"route", "potrf", "--n", "0", "--batch", "8"}, `--n "0"`},
		{[]string{"route", "potrf", "--n", "8:16", "--batch", "8"}, "one value per flag"},
		{[]string{"route", "potrf", "--n", "8", "--batch", "8", "--uplo", "X"}, `--uplo "X"`},
		{[]string{"route", "potrf", "--n", "8", "--batch", "8", "--dtype", "float16"}, `dtype "float16"`},
		{[]string{"route", "potrf", "--n", "8", "--batch", "8", "--device", "sm 90"}, `--device "sm 90"`},
		{[]string{"route", "potrf", "--n", "8", "--batch", "8", "--pin", "Vendor"}, `--pin`},
		{[]string{"route", "potrf", "--n", "8", "--batch", "8", "getrf"}, `unexpected argument "getrf"`},
		{[]string{"route", "herk", "--dtype", "complex64", "--n", "8", "--k", "4", "--batch", "8", "--trans", "T"}, "herk of complex64 takes --trans N or C"},
		{[]string{"route", "syrk", "--dtype", "complex128", "--n", "8", "--k", "4", "--batch", "8", "--trans", "C"}, "syrk of complex128 takes --trans N or T"},
	} {
		code, _, stderr := runCLI(c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("batchlas %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), code, stderr, exitUsage, c.want)
		}
	}
	if _, err := cuda.Devices(); err != nil {
		code, _, stderr := runCLI("route", "potrf", "--n", "8", "--batch", "8", "--device", "cuda:0")
		if code != exitFailure || !strings.Contains(stderr, "batchlas route:") {
			t.Errorf("cuda:0 without a GPU: exit %d, %q", code, stderr)
		}
	}
}

// readTable reads and parses the table file of dir, failing the test when
// it is missing or does not parse.
func readTable(t *testing.T, dir, name string) (*route.Table, []byte) {
	t.Helper()
	file := filepath.Join(dir, name)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := route.ParseTable(file, bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return tab, data
}

// TestTuneCPU: a tiny sweep on the CPU writes a table that parses and
// loads, and --resume measures nothing more.
func TestTuneCPU(t *testing.T) {
	dir := t.TempDir()
	args := []string{"tune", "potrf", "--dtype", "float64", "--n", "8,16", "--batch", "64", "--device", "cpu",
		"--time", "20ms", "--count", "2", "--out", dir}
	code, stdout, stderr := runCLI(args...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	file := filepath.Join(dir, "potrf.float64.cpu.txt")
	tab, data := readTable(t, dir, "potrf.float64.cpu.txt")
	if tab.Source != "batchlas tune potrf --dtype float64 --n 8,16 --batch 64 --device cpu --time 20ms --count 2 --out "+dir || len(tab.Rows) != 2 {
		t.Errorf("source %q, %d rows\n%s", tab.Source, len(tab.Rows), data)
	}
	for _, row := range tab.Rows {
		var names []string
		for _, e := range row.Entries {
			if e.Failed {
				t.Errorf("row %v: %s failed the check", row.Values, e.Name)
			}
			names = append(names, e.Name)
		}
		if len(names) != 2 || !strings.Contains(strings.Join(names, " "), "cpu:unblocked") || !strings.Contains(strings.Join(names, " "), "cpu:blocked") {
			t.Errorf("row %v: %v, want cpu:unblocked and cpu:blocked", row.Values, names)
		}
	}
	r, err := route.New(route.Config{Dir: dir, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.Choose(route.Call{Op: "potrf", DType: "float64", Device: route.Host(), Uplo: "L", N: 10, Batch: 64}, "")
	if err != nil || d.Why != route.WhyTable || d.Table != file || d.Candidate.Name != tab.Rows[0].Entries[0].Name {
		t.Errorf("%v %s", err, d)
	}
	if !strings.Contains(stdout, "potrf float64 cpu uplo=L n=8 batch=64: cpu:") || !strings.Contains(stdout, "2 points: 2 measured, 0 from the journal") {
		t.Errorf("stdout:\n%s", stdout)
	}

	// Again: the journal is there, so it wants --resume.
	code, _, stderr = runCLI(args...)
	if code != exitUsage || !strings.Contains(stderr, "potrf.cpu.journal exists: pass --resume") {
		t.Errorf("rerun: exit %d, %q", code, stderr)
	}
	code, stdout, stderr = runCLI(append(args, "--resume")...)
	if code != exitOK || !strings.Contains(stdout, "2 points: 0 measured, 2 from the journal") {
		t.Errorf("resume: exit %d\n%s%s", code, stdout, stderr)
	}
	if again, _ := os.ReadFile(file); !bytes.Equal(again[bytes.Index(again, []byte("keys")):], data[bytes.Index(data, []byte("keys")):]) {
		t.Errorf("resumed table differs:\n%s\nwas\n%s", again, data)
	}

	// No native or vendor candidate on the host: no heatmap.
	code, _, stderr = runCLI(append(args, "--resume", "--heatmap", filepath.Join(dir, "h.png"))...)
	if code != exitFailure || !strings.Contains(stderr, "no point has both") {
		t.Errorf("heatmap on the host: exit %d, %q", code, stderr)
	}
}

// TestTuneGPUModeInputs: --inputs gpumode measures with bench's gpumode
// inputs, on both triangles, and says so in the table's notes.
func TestTuneGPUModeInputs(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCLI("tune", "potrf", "--dtype", "float64", "--n", "40", "--batch", "2", "--device", "cpu",
		"--time", "1ms", "--count", "1", "--inputs", "gpumode", "--uplo", "L,U", "--out", dir)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	tab, data := readTable(t, dir, "potrf.float64.cpu.txt")
	if len(tab.Rows) != 2 || len(tab.Rows[0].Entries) != 2 {
		t.Fatalf("%d rows\n%s", len(tab.Rows), data)
	}
	if !regexp.MustCompile(`(?m)^L +40 +2 `).Match(data) || !regexp.MustCompile(`(?m)^U +40 +2 `).Match(data) {
		t.Errorf("want a row per triangle in\n%s", data)
	}
	if !strings.Contains(string(data), "on GPU MODE's dense cond-2 inputs with the cholesky-gpumode") {
		t.Errorf("no note on the inputs in\n%s", data)
	}
	if log, err := os.ReadFile(filepath.Join(dir, "potrf.cpu.bench.log")); err != nil || !strings.Contains(string(log), "# inputs gpumode: one case of potrf") ||
		!strings.Contains(string(log), "batchlas.Potrf(q, Upper,") {
		t.Errorf("bench's log does not name the inputs:\n%s", log)
	}
}

// TestTuneFromJournal: with --resume, --device sm_90 opens nothing and
// writes the tables from a journal brought back from that GPU; a point the
// journal lacks is an error, and no table is written then.
func TestTuneFromJournal(t *testing.T) {
	dir := t.TempDir()
	journal := "# batchlas tune journal (written by the test)\n" +
		"potrf float32 sm_90 uplo=L n=8 batch=1 | native:tiny 5.5 vendor 32.5\n" +
		"potrf float32 sm_90 uplo=L n=8 batch=4 | native:tiny 5.75 vendor 14.5\n"
	if err := os.WriteFile(filepath.Join(dir, "potrf.sm_90.journal"), []byte(journal), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"tune", "potrf", "--dtype", "float32", "--n", "8", "--device", "sm_90", "--resume", "--out", dir}
	code, stdout, stderr := runCLI(append(args, "--batch", "1,4,16")...)
	if code != exitFailure || !strings.Contains(stderr, "float32 uplo=L n=8 batch=16 is not in the journal, and --device sm_90 opens no device") {
		t.Errorf("a point missing from the journal: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "potrf.float32.sm_90.txt")); err == nil {
		t.Error("a table was written although a point was missing")
	}
	code, stdout, stderr = runCLI(append(args, "--batch", "1,4")...)
	if code != exitOK || !strings.Contains(stdout, "2 points: 0 measured, 2 from the journal") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	_, data := readTable(t, dir, "potrf.float32.sm_90.txt")
	for _, want := range []string{"rewritten from the journal, no device opened", "L  8  4  native:tiny 5.75"} {
		if !strings.Contains(strings.Join(strings.Fields(string(data)), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("no %q in\n%s", want, data)
		}
	}
}

func TestTuneUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tune"}, "no op given"},
		{[]string{"tune", "potrf", "--batch", "8"}, "--n: no values given"},
		{[]string{"tune", "potrf", "--n", "4:2", "--batch", "8"}, `--n "4:2": the range ends below its start`},
		{[]string{"tune", "potrf", "--n", "8", "--batch", "8", "--dtype", "float32,half"}, `dtype "half"`},
		{[]string{"tune", "potrf", "--n", "8", "--batch", "8", "--device", "sm_90"}, `--device "sm_90"`},
		{[]string{"tune", "syrk", "--n", "8", "--batch", "8", "--device", "cpu", "--uplo", "L,U"}, "bench times syrk with uplo=L only, not U"},
		{[]string{"tune", "trmm", "--n", "8", "--batch", "8", "--device", "cpu"}, "bench cannot time trmm"},
		{[]string{"tune", "potrf", "--n", "8", "--batch", "8", "--count", "0"}, "--count 0"},
		{[]string{"tune", "getrf", "--n", "8", "--batch", "8", "--inputs", "gpumode"}, "only gpumode, and only for potrf"},
		{[]string{"tune", "potrf", "--n", "8", "--batch", "8", "--inputs", "spd"}, `--inputs "spd"`},
		{[]string{"tune", "potrf", "--n", "8", "--batch", "8", "--device", "cpu", "--inputs", "gpumode", "--dtype", "complex64"}, "--inputs gpumode is for float32 and float64, not complex64"},
	} {
		code, _, stderr := runCLI(append(c.args, "--out", dir)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("batchlas %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), code, stderr, exitUsage, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused command left files: %v", entries)
	}
}

func TestRouteTuneHelp(t *testing.T) {
	for _, cmd := range []string{"route", "tune"} {
		code, stdout, _ := runCLI("help", cmd)
		if code != exitOK || !strings.Contains(stdout, "Usage: batchlas "+cmd) {
			t.Errorf("help %s: exit %d %q", cmd, code, stdout)
		}
		code, _, stderr := runCLI(cmd, "-h")
		if code != exitOK || !strings.Contains(stderr, "Usage: batchlas "+cmd) {
			t.Errorf("%s -h: exit %d %q", cmd, code, stderr)
		}
	}
	_, stdout, _ := runCLI("help")
	for _, cmd := range []string{"route", "tune"} {
		if !strings.Contains(stdout, "\t"+cmd+" ") {
			t.Errorf("usage does not list %s:\n%s", cmd, stdout)
		}
	}
}

func TestBenchHelpListsSuites(t *testing.T) {
	_, stdout, _ := runCLI("help", "bench")
	for _, s := range bench.Suites() {
		if !strings.Contains(stdout, "  "+s.Name+" ") {
			t.Errorf("bench help does not list the suite %s", s.Name)
		}
	}
	for _, want := range []string{"-suite", "-cases", "native:tiny", "cpu:blocked"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("bench help does not mention %s", want)
		}
	}
}

// A suite from the command line, cut down to one cheap case: the usual
// lines, then the table.
func TestBenchSuite(t *testing.T) {
	code, stdout, stderr := runCLI("bench", "-suite", "small-batched", "-cases", "^syrk/n=256/", "-device", "cpu", "-count", "1", "-time", "1ms")
	if code != exitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !regexp.MustCompile(`(?m)^BenchmarkSyrk/dtype=float64/n=256/batch=\d+/arm=gonum`).MatchString(stdout) ||
		!regexp.MustCompile(`(?m)^\| syrk/n=256/batch=\d+ +\| +[\d.]+ \| +[\d.]+ \| +[\d.]+ \|$`).MatchString(stdout) ||
		!strings.Contains(stdout, "| geomean (cases passed) |") {
		t.Errorf("no benchmark lines or table in\n%s", stdout)
	}
}

// TestBenchNothingRan: a bench whose every arm was skipped measured nothing,
// and says so with exit status 1 (it was 0, a table of skips).
func TestBenchNothingRan(t *testing.T) {
	if _, err := cuda.Devices(); err == nil {
		t.Skip("a GPU is here: the vendor arm runs")
	}
	code, _, stderr := runCLI("bench", "potrf", "-n", "8", "-batch", "4", "-arms", "vendor", "-time", "1ms", "-count", "1")
	if code != exitFailure || !strings.Contains(stderr, "no arm ran (vendor)") {
		t.Errorf("bench with only a vendor arm and no GPU: exit %d, stderr %q", code, stderr)
	}
}

// TestRouteRealConjTrans: a real type's ConjTrans is routed as Trans, as the
// library routes the call (its rows are the T rows).
func TestRouteRealConjTrans(t *testing.T) {
	code, stdout, stderr := runCLI("route", "getrs", "--n", "8", "--nrhs", "1", "--batch", "64", "--trans", "C", "--device", "cpu")
	if code != exitOK || !strings.Contains(stdout, "decision  getrs float64 cpu trans=T n=8") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
}
