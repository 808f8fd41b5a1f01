package potrf

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/gputest"
)

var variantsFlag = flag.String("potrf.variants", "", "TestRegVariants: cases dtype/n/count, comma-separated, e.g. float32/32/4096 (empty: skip)")

// TestRegVariants times potrf_reg against potrf_reg_min at several MINB in
// one process, both triangles (Upper through the tile and in place), as the
// cholesky-gpumode suite calls it: k back-to-back calls on k distinct
// inputs (k·count·n² elements at least 256 MiB) after an L2 flush, CUDA
// events around them, the median of 15 interleaved repetitions per call.
// Every variant's result is checked. It chose potrf.go's minBlocks; run
// with -potrf.variants CASES.
func TestRegVariants(t *testing.T) {
	if *variantsFlag == "" {
		t.Skip("run with -potrf.variants CASES")
	}
	s := gputest.Stream(t)
	tm := gputest.NewTimer(t, s)
	for _, key := range strings.Split(*variantsFlag, ",") {
		var dt string
		var n, count int
		if _, err := fmt.Sscanf(strings.ReplaceAll(key, "/", " "), "%s %d %d", &dt, &n, &count); err != nil {
			t.Fatalf("case %q: %v", key, err)
		}
		for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
			name := fmt.Sprintf("%s/%v/n=%d/count=%d", dt, uplo, n, count)
			switch dt {
			case "float32":
				t.Run(name, func(t *testing.T) { regVariants[float32](t, s, tm, uplo, n, count, []int{0, 5, 6, 7, 8}) })
			case "float64":
				t.Run(name, func(t *testing.T) { regVariants[float64](t, s, tm, uplo, n, count, []int{0, 3, 4, 5, 6}) })
			default:
				t.Fatalf("case %q: dtype float32 or float64", key)
			}
		}
	}
}

func regVariants[T core.Scalar](t *testing.T, s *cuda.Stream, tm *gputest.Timer, uplo core.Uplo, n, count int, minBlocks []int) {
	dt := cuda.DTypeOf[T]()
	lanes, cols := shape(n)
	// Upper runs each bound through the tile and in place (VEC, no
	// dynamic shared memory); shared[i] is kernel i's dynamic shared memory.
	var names []string
	var shared []int
	for _, mb := range minBlocks {
		for _, vec := range []bool{false, true} {
			if vec && uplo == core.Lower {
				continue
			}
			up := uplo == core.Upper
			if mb == 0 {
				names = append(names, fmt.Sprintf("potrf_reg<%s, %d, %d, %v, %v>", typeName[dt], lanes, cols, up, vec))
			} else {
				names = append(names, fmt.Sprintf("potrf_reg_min<%s, %d, %d, %v, %v, %d>", typeName[dt], lanes, cols, up, vec, mb))
			}
			sh := 0
			if up && !vec {
				sh = upperTileBytes(dt, n)
			}
			shared = append(shared, sh)
		}
	}
	ks, err := cuda.DefaultJIT().Load(s.Context(), Source, names...)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range ks {
		if err := k.AllowDynamicShared(shared[i]); err != nil {
			t.Fatal(err)
		}
		gputest.CheckResources(t, k, threadsPerBlock, shared[i])
	}

	var zero T
	perInput := count * n * n * int(unsafe.Sizeof(zero))
	inputs := max(1, (256<<20+perInput-1)/perInput)
	host := gputest.SPDBatch[T](n, count, 32, false)
	src := gputest.Upload(t, s, host.Data)
	work := gputest.Alloc(t, s, int64(inputs*perInput))
	info := gputest.Alloc(t, s, int64(4*inputs*count))
	restore := func() error {
		for j := range inputs {
			if err := cuda.CopyDtoD(s, work+cuda.DevicePtr(j*perInput), src, int64(perInput)); err != nil {
				return err
			}
		}
		return cuda.MemsetD32(s, info, 0x7f7f7f7f, int64(inputs*count))
	}
	launch := func(i, j int) error {
		var args cuda.Args
		args.Ptr(work + cuda.DevicePtr(j*perInput)).Int64(int64(n)).Int64(int64(n * n)).Int32(int32(n)).Int32(int32(count)).Ptr(info + cuda.DevicePtr(4*j*count))
		blocks := (count + threadsPerBlock/lanes - 1) / (threadsPerBlock / lanes)
		return cuda.LaunchArgs(s, ks[i], [3]uint32{uint32(blocks), 1, 1}, [3]uint32{threadsPerBlock, 1, 1}, uint32(shared[i]), &args)
	}
	var arms []gputest.Arm
	for i, k := range ks {
		arms = append(arms, gputest.Arm{Name: k.Name, Prepare: restore, Run: func() error {
			for j := range inputs {
				if err := launch(i, j); err != nil {
					return err
				}
			}
			return nil
		}})
	}
	times := tm.Interleaved(t, 15, arms)

	eps := gputest.MachineEps[T]()
	for i, k := range ks {
		if err := restore(); err != nil {
			t.Fatal(err)
		}
		if err := arms[i].Run(); err != nil {
			t.Fatal(err)
		}
		inf := gputest.Download[int32](t, s, info, inputs*count)
		if j := slices.IndexFunc(inf, func(v int32) bool { return v != 0 }); j >= 0 {
			t.Errorf("%s: info[%d] = %d on a positive definite matrix", k.Name, j, inf[j])
		}
		out := host
		out.Data = gputest.Download[T](t, s, work+cuda.DevicePtr((inputs-1)*perInput), len(host.Data))
		for _, b := range []int{0, count / 2, count - 1} {
			if r := gputest.Residual1(host, out, b, uplo, n, eps); !(r <= 20) {
				t.Errorf("%s: matrix %d: ‖A − L·Lᴴ‖₁ = %.3g·n·eps·‖A‖₁, bound 20", k.Name, b, r)
			}
		}
		us := gputest.Median(times[i]) / float64(inputs)
		gbs := 2 * float64(perInput) / us / 1e3
		t.Logf("%-50s %3d registers: %8.2f µs per call (%d calls of %d matrices), %5.0f GB/s", k.Name, k.Registers, us, inputs, count, gbs)
	}
}
