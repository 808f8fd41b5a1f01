package bench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
)

// header is the block before the results: the configuration lines that go
// test prints (benchstat groups results by them), then comment lines that
// say what was measured and how. Lines starting with '#' are not
// configuration lines to benchstat, so they do not split its tables.
type header struct {
	cfg      Config
	op       *Op
	nrhs     int
	distinct int
}

// writeEnvironment writes the configuration lines and the comment lines
// about the machine and the command.
func writeEnvironment(w io.Writer, command string) {
	fmt.Fprintf(w, "goos: %s\n", runtime.GOOS)
	fmt.Fprintf(w, "goarch: %s\n", runtime.GOARCH)
	fmt.Fprintf(w, "pkg: github.com/batchlas/batchlas\n")
	if cpu := CPUModel(); cpu != "" {
		fmt.Fprintf(w, "cpu: %s\n", cpu)
	}
	if command != "" {
		fmt.Fprintf(w, "# command: %s\n", command)
	}
	fmt.Fprintf(w, "# go: %s, GOMAXPROCS %d, %d CPUs", runtime.Version(), runtime.GOMAXPROCS(0), runtime.NumCPU())
	if load := loadAverage(); load != "" {
		fmt.Fprintf(w, ", load average %s before the run", load)
	}
	fmt.Fprintln(w)
}

// write writes the lines that describe the case and the arms.
func (h header) write(w io.Writer, arms []*armState) {
	op := fmt.Sprintf("# op: %s, %s", h.op.Name, h.op.Doc)
	switch {
	case h.op.Name == "potrf" && h.cfg.Uplo == "U":
		op = "# op: potrf, Cholesky factorization A = Uᴴ·U (Upper)"
	case slices.Contains(poisonedOps, h.op.Name):
		form, other := "Lower, A = L·Lᴴ", "upper"
		if h.cfg.Uplo == "U" {
			form, other = "Upper, A = Uᴴ·U", "lower"
		}
		op += fmt.Sprintf(" (%s; A's strict %s triangle holds NaN, which the op must not read)", form, other)
	}
	if h.op.RHS {
		op += fmt.Sprintf(", nrhs %d", h.nrhs)
	}
	fmt.Fprintln(w, op)
	repeat := ""
	if h.distinct < h.cfg.Batch {
		repeat = fmt.Sprintf(", %d distinct matrices repeated in turn over the batch", h.distinct)
	}
	fmt.Fprintf(w, "# input: %s; seed %d%s\n", h.op.Input, h.cfg.Seed, repeat)
	if h.op.InPlace {
		fmt.Fprintf(w, "# timing: ns/op is one call on the whole batch; the operands it overwrites are restored from a pristine copy before each call, outside the timer; a garbage collection runs before each repetition, also outside\n")
	} else {
		fmt.Fprintf(w, "# timing: ns/op is one call on the whole batch; calls run back to back (the op does not read what it writes); a garbage collection runs before each repetition, outside the timer\n")
	}
	for _, a := range arms {
		if a.about != "" && a.spec.gpu {
			fmt.Fprintf(w, "# gpu arms: each call timed alone on the device with CUDA events, after writing 4× the L2 cache size to evict it; host-side launch cost counts only where it stalls the device\n")
			break
		}
	}
	fmt.Fprintf(w, "# metrics: MB/s counts each operand once; GFLOP/s from LAPACK Working Note 41 counts\n")
	fmt.Fprintf(w, "# check: after warm-up and each repetition, matrices %v against a complex128 reference, scaled residual ≤ %d, every info 0\n",
		checkIndices(h.cfg.Batch), Tolerance)
	for _, a := range arms {
		switch {
		case a.about == "" || a.skipped:
		case a.calls > 0:
			fmt.Fprintf(w, "# arm %s: %s, %d calls per repetition\n", a.spec.name, a.about, a.calls)
		default:
			fmt.Fprintf(w, "# arm %s: %s\n", a.spec.name, a.about)
		}
	}
}

// CPUModel is the processor's model name from /proc/cpuinfo, or "" where
// there is none.
func CPUModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		key, value, ok := strings.Cut(s.Text(), ":")
		if ok && strings.TrimSpace(key) == "model name" {
			return strings.TrimSpace(value)
		}
	}
	return ""
}

// loadAverage is the 1-minute load average from /proc/loadavg, or "": a
// busy machine makes every arm slower and noisier, so the header says.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}
