package potrf

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/batchlas/batchlas/internal/conformance"
	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/gputest"
	"github.com/batchlas/batchlas/internal/gpu/scalar"
	"github.com/batchlas/batchlas/internal/oracle"
)

// ---- tests that need no GPU ----

func TestCTAShape(t *testing.T) {
	for n, want := range map[int]int{33: 64, 64: 64, 65: 96, 96: 96, 97: 128, 128: 128, 129: 160, 255: 256, 256: 256} {
		if got := ctaBucket(n); got != want {
			t.Errorf("ctaBucket(%d) = %d, want %d", n, got, want)
		}
	}
	// The trapezoid of n = 64, float: 16·(64 + 48 + 32 + 16) elements.
	if got := ctaSharedBytes(cuda.Float32, 64); got != 4*16*160 {
		t.Errorf("ctaSharedBytes(float32, 64) = %d", got)
	}
	for dt := cuda.Float32; dt <= cuda.Complex128; dt++ {
		top := MaxCTAFor(dt)
		if top < 128 || top > MaxCTA || top%32 != 0 {
			t.Errorf("%v: MaxCTAFor = %d", dt, top)
		}
		if got := ctaSharedBytes(dt, top); got > ctaSharedLimit {
			t.Errorf("%v: the largest bucket needs %d B of shared memory, more than %d", dt, got, ctaSharedLimit)
		}
		// Each limit is the shared memory's, or the 256-thread cap's.
		if top < MaxCTA && ctaSharedBytes(dt, top+32) <= ctaSharedLimit {
			t.Errorf("%v: bucket %d would fit too (%d B)", dt, top+32, ctaSharedBytes(dt, top+32))
		}
		nb := ctaPanel(dt)
		for _, np := range ctaBuckets(dt) {
			if np%32 != 0 || np%nb != 0 || 32%nb != 0 || nb*dt.Size()%16 != 0 {
				t.Errorf("%v: bucket %d, panel %d", dt, np, nb)
			}
		}
		for n := MaxN + 1; n <= top; n++ {
			if np := ctaBucket(n); np < n || np > top || np-n >= 32 && np != 64 {
				t.Errorf("%v: n = %d runs in bucket %d", dt, n, np)
			}
		}
	}
	// The trapezoid of n = 64, double (steps of 8): 8·(64 + 56 + … + 8) elements.
	if got := ctaSharedBytes(cuda.Float64, 64); got != 8*8*288 {
		t.Errorf("ctaSharedBytes(float64, 64) = %d", got)
	}
	if got := ctaKernelNames(cuda.Complex128, 160); !slices.Equal(got, []string{"potrf_cta<cdouble, 160, 4, false>", "potrf_cta<cdouble, 160, 4, true>"}) {
		t.Errorf("ctaKernelNames = %q", got)
	}
	if got := len(CTAKernelNames()); got != 2*(7+6+6+4) {
		t.Errorf("%d CTA kernel names, want 46", got)
	}
	for _, src := range []cuda.Source{CTASource, WarpSource} {
		rest, ok := strings.CutPrefix(src.Code, Source.Code)
		if !ok || !strings.HasPrefix(Source.Code, scalar.Prelude()) || !strings.Contains(rest, "warp_sweeps") {
			t.Errorf("%s is not the prelude, potrf.cu and sweeps.cu first", src.Name)
		}
	}
	if !strings.Contains(CTASource.Code, "potrf_cta") || !strings.Contains(WarpSource.Code, "potrf_warp") {
		t.Error("CTASource or WarpSource lacks its own kernels")
	}
}

func TestCTAArguments(t *testing.T) {
	const a, info = cuda.DevicePtr(1 << 20), cuda.DevicePtr(1 << 24)
	testFactorArguments(t, checkCTA, 40, map[string]int{"n ≤ MaxN": MaxN, "n > MaxCTA": MaxCTA + 1}, 40)
	if err := checkCTA(cuda.Complex128, core.Lower, 161, a, 161, 161*161, 2, info); !errors.Is(err, core.ErrUnsupported) {
		t.Errorf("n > complex128's limit: %v, want ErrUnsupported", err)
	}
	if err := PotrfCTA[float32](nil, core.Lower, 40, a, 40, 1600, 1, info); !errors.Is(err, core.ErrArgument) {
		t.Errorf("nil stream: %v", err)
	}
	// posv_cta and potrs_cta solve only above the register tier: their
	// solve (sweeps.cu) steps rows 0…31 as real ones. The order is checked
	// before the stream, so these need no GPU.
	const b = cuda.DevicePtr(1 << 22)
	for _, n := range []int{1, MaxN, MaxPosvCTA + 1} {
		if err := PosvCTA[complex128](nil, core.Lower, n, 1, a, n, int64(n*n), b, n, int64(n), 1, info); !errors.Is(err, core.ErrUnsupported) {
			t.Errorf("PosvCTA n = %d: %v, want ErrUnsupported", n, err)
		}
		if err := PotrsCTA[complex64](nil, core.Upper, n, 1, a, n, int64(n*n), b, n, int64(n), 1); !errors.Is(err, core.ErrUnsupported) {
			t.Errorf("PotrsCTA n = %d: %v, want ErrUnsupported", n, err)
		}
	}
	if err := PotrsCTA[complex64](nil, core.Lower, -1, 1, a, 1, 1, b, 1, 1, 1); !errors.Is(err, core.ErrShape) {
		t.Errorf("PotrsCTA n = -1: %v, want ErrShape", err)
	}
	for _, n := range []int{MaxN + 1, MaxPosvCTA} {
		if err := PosvCTA[complex128](nil, core.Lower, n, 1, a, n, int64(n*n), b, n, int64(n), 1, info); !errors.Is(err, core.ErrArgument) {
			t.Errorf("PosvCTA n = %d, nil stream: %v, want ErrArgument", n, err)
		}
		if err := PotrsCTA[complex64](nil, core.Lower, n, 1, a, n, int64(n*n), b, n, int64(n), 1); !errors.Is(err, core.ErrArgument) {
			t.Errorf("PotrsCTA n = %d, nil stream: %v, want ErrArgument", n, err)
		}
	}
	for dt := cuda.Float32; dt <= cuda.Complex128; dt++ {
		if err := CanRunCTA(dt, MaxCTAFor(dt)); err != nil {
			t.Errorf("CanRunCTA(%v, MaxCTAFor) = %v", dt, err)
		}
		if err := CanRunCTA(dt, MaxN+1); err != nil {
			t.Errorf("CanRunCTA(%v, MaxN+1) = %v", dt, err)
		}
		// The tiers meet: every order up to the CTA limit has exactly one.
		for n := 1; n <= MaxCTAFor(dt); n++ {
			if (CanRun(dt, n) == nil) == (CanRunCTA(dt, n) == nil) {
				t.Errorf("%v, n = %d: CanRun %v, CanRunCTA %v", dt, n, CanRun(dt, n), CanRunCTA(dt, n))
			}
		}
	}
}

func TestCTAVector(t *testing.T) {
	const a = cuda.DevicePtr(1 << 20)
	for _, tc := range []struct {
		dt     cuda.DType
		uplo   core.Uplo
		a      cuda.DevicePtr
		lda    int
		stride int64
		count  int
		want   bool
	}{
		{cuda.Float32, core.Upper, a, 64, 64 * 64, 9, true},
		{cuda.Float32, core.Lower, a, 64, 64 * 64, 9, false}, // Lower rows are not contiguous
		{cuda.Float32, core.Upper, a + 4, 64, 64 * 64, 9, false},
		{cuda.Float32, core.Upper, a, 66, 66 * 64, 9, false},
		{cuda.Float32, core.Upper, a, 64, 64*64 + 2, 9, false},
		{cuda.Float32, core.Upper, a, 64, 64*64 + 2, 1, true}, // one matrix: the stride is not used
		{cuda.Float64, core.Upper, a, 34, 34 * 40, 3, true},
		{cuda.Complex128, core.Upper, a, 41, 41*40 + 1, 3, true},
		{cuda.Complex128, core.Upper, a + 8, 41, 41 * 40, 3, false},
	} {
		if got := upperVectors(tc.dt, tc.uplo, tc.a, tc.lda, tc.stride, tc.count); got != tc.want {
			t.Errorf("upperVectors(%v, %v, %#x, lda %d, stride %d, count %d) = %v", tc.dt, tc.uplo, uintptr(tc.a), tc.lda, tc.stride, tc.count, got)
		}
	}
}

// ---- tests that need a GPU ----

// ctaSizes are the orders of the sweep: every order of the tier for dt, or
// under -short the edges of the panels and buckets.
func ctaSizes(dt cuda.DType) []int {
	top := MaxCTAFor(dt)
	var sizes []int
	for n := MaxN + 1; n <= top; n++ {
		if !testing.Short() || slices.Contains([]int{33, 47, 48, 49, 63, 64, 65, 96, 97, 127, 128, 129, top - 1, top}, n) {
			sizes = append(sizes, n)
		}
	}
	return slices.Compact(sizes)
}

// TestPotrfCTA factors, for every type, both triangles and every order of
// the tier, a batch of 20 mixed matrices (gputest.MixedBatch: random, ill-conditioned,
// not positive definite, NaN on and off the diagonal; lda > n, a gap between
// matrices, the other triangle poisoned) and checks it as TestPotrf does
// (checkFactors), and the whole batch bit-identical to each matrix factored
// alone. Orders run in parallel, each on its own stream, since the host
// reference (n³ per matrix) costs more than the GPU.
func TestPotrfCTA(t *testing.T) {
	s := gputest.Stream(t)
	if err := LoadCTAModules(s.Context()); err != nil { // every bucket at once, not order by order
		t.Log(err) // and each order's case below
	}
	t.Run("float32", func(t *testing.T) { testPotrfCTA[float32](t) })
	t.Run("float64", func(t *testing.T) { testPotrfCTA[float64](t) })
	t.Run("complex64", func(t *testing.T) { testPotrfCTA[complex64](t) })
	t.Run("complex128", func(t *testing.T) { testPotrfCTA[complex128](t) })
}

func testPotrfCTA[T core.Scalar](t *testing.T) {
	const count = 20
	dt := cuda.DTypeOf[T]()
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		var (
			mu            sync.Mutex
			worst         float64
			worstN, cases int
		)
		t.Run(uplo.String(), func(t *testing.T) {
			for _, n := range ctaSizes(dt) {
				t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
					t.Parallel()
					r := ctaCase[T](t, gputest.Stream(t), uplo, n, count, uint64(7000*n)+uint64(uplo))
					mu.Lock()
					if cases++; r > worst {
						worst, worstN = r, n
					}
					mu.Unlock()
				})
			}
		})
		t.Logf("%s %v: %d orders, worst ‖A − L·Lᴴ‖₁/(n·eps·‖A‖₁) = %.3f (n = %d; bound 20)", core.TypeName[T](), uplo, cases, worst, worstN)
	}
}

// ctaCase runs one case of TestPotrfCTA and returns its worst residual ratio.
func ctaCase[T core.Scalar](t *testing.T, s *cuda.Stream, uplo core.Uplo, n, count int, seed uint64) float64 {
	t.Helper()
	in, items := gputest.MixedBatch[T](n, count, uplo, seed)
	return factorRun(t, s, uplo, in, items, PotrfCTA[T])
}

// TestPotrfCTAFailures puts failures where a blocked kernel can get them
// wrong: on the first and last column of a panel, the first column of the
// next, the middle and the last column, NaN on and off the diagonal, each
// between good matrices, subnormal pivots (which must not fail), in a
// layout that allows 16-byte Upper rows (lda a multiple of 4, aligned
// stride) and in one that does not.
func TestPotrfCTAFailures(t *testing.T) {
	s := gputest.Stream(t)
	t.Run("float32", func(t *testing.T) { testPotrfCTAFailures[float32](t, s) })
	t.Run("float64", func(t *testing.T) { testPotrfCTAFailures[float64](t, s) })
	t.Run("complex64", func(t *testing.T) { testPotrfCTAFailures[complex64](t, s) })
	t.Run("complex128", func(t *testing.T) { testPotrfCTAFailures[complex128](t, s) })
}

func testPotrfCTAFailures[T core.Scalar](t *testing.T, s *cuda.Stream) {
	dt := cuda.DTypeOf[T]()
	nb := ctaPanel(dt)
	for _, n := range []int{33, 64, 100, 129, MaxCTAFor(dt)} {
		mats, items := failureBatch[T](n, 3, []int{1, 2, nb, nb + 1, 2 * nb, 2*nb + 1, n/2 + 1, n - 1, n}, []int{nb - 1, nb, n - 1}, [][2]int{{nb, nb - 1}, {n - 1, 0}, {n - 1, n - 2}},
			[][2]int{{1, 0}, {nb + 1, 0}, {n, 0}, {nb, n - 1}})
		for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
			for _, aligned := range []bool{false, true} {
				lda, stride := n+1, (n+1)*n+3
				if aligned {
					lda = (n + 4) / 4 * 4
					stride = lda*n + 4
				}
				t.Run(fmt.Sprintf("%v/n=%d/aligned=%v", uplo, n, aligned), func(t *testing.T) {
					factorLaidOut[T](t, s, uplo, mats, items, lda, stride, PotrfCTA[T])
				})
			}
		}
	}
}

// TestCTAConformance runs the shared Potrf suite on the CTA kernel, on the
// orders around its panel and bucket edges (33 and 64 also with ld = n and
// a packed stride). The suite's empty batch of order 4 is below the tier
// and listed as unsupported.
func TestCTAConformance(t *testing.T) {
	s := gputest.Stream(t)
	run := func(dt cuda.DType, suite func(cfg conformance.Config)) {
		var sizes []int
		for _, n := range []int{33, 47, 48, 63, 64, 65, 100, 127, 128, 129, 160, 161, 200, 224, 255, 256} {
			if n <= MaxCTAFor(dt) {
				sizes = append(sizes, n)
			}
		}
		suite(conformance.Config{Sizes: sizes, Unsupported: []string{`^Potrf/[^/]+/Empty/(Lower|Upper)/n=4/count=0$`}})
	}
	t.Run("float32", func(t *testing.T) {
		run(cuda.Float32, func(cfg conformance.Config) {
			conformance.PotrfTest[float32](t, engine[float32]{s, PotrfCTA[float32]}, cfg)
		})
	})
	t.Run("float64", func(t *testing.T) {
		run(cuda.Float64, func(cfg conformance.Config) {
			conformance.PotrfTest[float64](t, engine[float64]{s, PotrfCTA[float64]}, cfg)
		})
	})
	t.Run("complex64", func(t *testing.T) {
		run(cuda.Complex64, func(cfg conformance.Config) {
			conformance.PotrfTest[complex64](t, engine[complex64]{s, PotrfCTA[complex64]}, cfg)
		})
	})
	t.Run("complex128", func(t *testing.T) {
		run(cuda.Complex128, func(cfg conformance.Config) {
			conformance.PotrfTest[complex128](t, engine[complex128]{s, PotrfCTA[complex128]}, cfg)
		})
	})
}

// TestCTAKernelResources loads every bucket (4 types, 23 buckets, 2
// triangles) and fails on any local memory (a spilled or stack-resident
// register row), printing registers, shared memory and blocks per SM for
// each; every bucket's shared memory must be granted on this device.
func TestCTAKernelResources(t *testing.T) {
	s := gputest.Stream(t)
	c := s.Context()
	if err := LoadCTAModules(c); err != nil {
		t.Log(err) // and each bucket's below
	}
	major, minor, _ := cuda.NVRTCVersion()
	t.Logf("NVRTC %d.%d, %s, %d B of shared memory per block with opt-in", major, minor, c.Device, c.Device.MaxSharedPerBlockOptin)
	for dt := cuda.Float32; dt <= cuda.Complex128; dt++ {
		for _, np := range ctaBuckets(dt) {
			ks, err := ctaKernels(c, dt, np)
			if err != nil {
				t.Errorf("%v, bucket %d: %v", dt, np, err)
				continue
			}
			shared := ctaSharedBytes(dt, np)
			for _, k := range ks {
				if err := k.AllowDynamicShared(shared); err != nil {
					t.Errorf("%s: %v", k.Name, err)
					continue
				}
				gputest.CheckResources(t, k, np, shared)
			}
		}
	}
}

// TestPotrfCTATiming times the CTA kernel against cuSOLVER's potrfBatched
// on the same data in the same process, as TestPotrfTiming does (events
// around one call after an L2 flush, arms interleaved, median of 9), on the
// GPU MODE shapes (n = 64/128/256 at batch 1024/256/64), their odd
// neighbours, and float64. Both results are checked. Run with -v to see the
// figures; skipped under -short.
func TestPotrfCTATiming(t *testing.T) {
	if testing.Short() {
		t.Skip("timing: skipped in -short mode")
	}
	s := gputest.Stream(t)
	sv := gputest.Solver(t, s)
	tm := gputest.NewTimer(t, s)
	for _, tc := range []struct{ n, count int }{{64, 1024}, {65, 1024}, {128, 256}, {129, 256}, {256, 64}, {255, 64}} {
		timeCTA[float32](t, s, sv, tm, core.Lower, tc.n, tc.count)
		timeCTA[float32](t, s, sv, tm, core.Upper, tc.n, tc.count)
	}
	for _, tc := range []struct{ n, count int }{{64, 1024}, {128, 256}, {224, 64}} {
		timeCTA[float64](t, s, sv, tm, core.Lower, tc.n, tc.count)
	}
}

func timeCTA[T core.Scalar](t *testing.T, s *cuda.Stream, sv *cuda.Solver, tm *gputest.Timer, uplo core.Uplo, n, count int) {
	name := fmt.Sprintf("%s %v n=%d count=%d", core.TypeName[T](), uplo, n, count)
	host := gputest.SPDBatch[T](n, count, 16, false)
	native := func(a, info cuda.DevicePtr) error { return PotrfCTA[T](s, uplo, n, a, n, int64(n*n), count, info) }
	med, bytesPerCall := timeAgainstVendor(t, s, sv, tm, name, host, uplo, native, false)
	gbs := func(us float64) float64 { return 2 * float64(bytesPerCall) / us / 1e3 }
	t.Logf("%s: native %8.1f µs (%5.0f GB/s), vendor %8.1f µs, vendor/native %5.2f×",
		name, med[0], gbs(med[0]), med[1], med[1]/med[0])
}

// TestPotrsCTAMatchesWarp checks what cta_solve's comment claims: potrs_cta
// and potrs_warp, both solving with sweeps.cu's steps, give X the same
// bits for the same factor, whatever the chunks (a warp of potrs_cta takes
// half the columns; potrs_warp takes 16 at a time, for float32 as halves of
// 8 up to n = 48, and for float64, as potrs_split, chunks of 16 and 8 as
// groups at every n: quarters to NC = 40, halves above). float32 and
// float64, where both kernels exist, both triangles, each side of the
// group edges (8, 16) and of 32, a leading dimension larger than the rows,
// and right-hand side counts each side of the chunk sizes.
func TestPotrsCTAMatchesWarp(t *testing.T) {
	s := gputest.Stream(t)
	t.Run("float32", func(t *testing.T) { testPotrsCTAMatchesWarp[float32](t, s) })
	t.Run("float64", func(t *testing.T) { testPotrsCTAMatchesWarp[float64](t, s) })
}

func testPotrsCTAMatchesWarp[T float32 | float64](t *testing.T, s *cuda.Stream) {
	const count = 9
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		for _, n := range []int{33, 36, 37, 40, 47, 48, 49, 63, 64} {
			in := gputest.SPDBatch[T](n, count, count, false)
			// Laid out again with lda = n + 3 and a gap between matrices.
			lda := n + 3
			a := oracle.NewStridedLayout[T](n, n, count, lda, lda*n+5)
			for b := range count {
				oracle.Store(a, b, oracle.Load(in, b))
			}
			pa := gputest.Upload(t, s, a.Data)
			info := gputest.Alloc(t, s, 4*count)
			if err := PotrfCTA[T](s, uplo, n, pa, lda, int64(a.Stride), count, info); err != nil {
				t.Fatalf("%v n=%d: potrf_cta: %v", uplo, n, err)
			}
			for _, nrhs := range []int{1, 3, 8, 9, 12, 16, 17, 24, 33} {
				ldb := n + 1
				rhs := oracle.NewStridedLayout[T](n, nrhs, count, ldb, ldb*nrhs+2)
				rng := rand.New(rand.NewPCG(uint64(n), uint64(nrhs)))
				for k := range rhs.Data {
					rhs.Data[k] = T(2*rng.Float64() - 1)
				}
				pc, pw := gputest.Upload(t, s, rhs.Data), gputest.Upload(t, s, rhs.Data)
				if err := PotrsCTA[T](s, uplo, n, nrhs, pa, lda, int64(a.Stride), pc, ldb, int64(rhs.Stride), count); err != nil {
					t.Fatalf("%v n=%d nrhs=%d: potrs_cta: %v", uplo, n, nrhs, err)
				}
				if err := PotrsWarp[T](s, uplo, n, nrhs, pa, lda, int64(a.Stride), pw, ldb, int64(rhs.Stride), count, 0); err != nil {
					t.Fatalf("%v n=%d nrhs=%d: potrs_warp: %v", uplo, n, nrhs, err)
				}
				xc, xw := gputest.Download[T](t, s, pc, len(rhs.Data)), gputest.Download[T](t, s, pw, len(rhs.Data))
				for k := range xc {
					if !oracle.SameBits(xc[k], xw[k]) {
						t.Errorf("%s %v n=%d nrhs=%d: potrs_cta's X differs from potrs_warp's at index %d: %v against %v",
							core.TypeName[T](), uplo, n, nrhs, k, xc[k], xw[k])
						break
					}
				}
			}
		}
	}
}
