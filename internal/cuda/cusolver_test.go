package cuda

import (
	"math/rand/v2"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
)

// Smoke tests of the cuSOLVER bindings; they skip without a GPU.

// vtSPD is a strided batch of Hermitian positive definite matrices
// M·Mᴴ + n·I with a real diagonal; both triangles are filled.
func vtSPD[T core.Scalar](rng *rand.Rand, n, ld, count int) core.Strided[T] {
	s := vtBatch[T](rng, n, n, ld, count)
	cx := core.IsComplex[T]()
	for b := range count {
		m := vtDense(s, b)
		mh, _, _ := vtOp(m, n, n, core.ConjTrans, cx)
		a := vtMul(m, mh, n, n, n)
		for j := range n {
			for i := range n {
				v := a[i+j*n]
				if i == j {
					v = complex(real(v)+float64(n), 0)
				}
				s.Data[b*s.Stride+j*ld+i] = vtT[T](v)
			}
		}
	}
	return s
}

// vtCholCheck compares the factor in the uplo triangle of f (packed n×n)
// rebuilt as L·Lᴴ or Uᴴ·U with a.
func vtCholCheck(t *testing.T, what string, f, a []complex128, n int, uplo core.Uplo, cx bool, tol float64) {
	t.Helper()
	tri := vtTri(f, n, uplo, core.NonUnit)
	h, _, _ := vtOp(tri, n, n, core.ConjTrans, cx)
	var prod []complex128
	if uplo == core.Lower {
		prod = vtMul(tri, h, n, n, n)
	} else {
		prod = vtMul(h, tri, n, n, n)
	}
	vtNear(t, what, prod, a, tol)
}

func TestVendorPotrfBatched(t *testing.T) {
	e := vtSetup(t, false, true)
	vtEachType(t, testPotrfBatched[float32](e, core.Lower), testPotrfBatched[float64](e, core.Upper),
		testPotrfBatched[complex64](e, core.Lower), testPotrfBatched[complex128](e, core.Upper))
}

// Matrix 1 is made indefinite: its info must be positive and its neighbours
// must still factor correctly.
func testPotrfBatched[T core.Scalar](e *vtEnv, uplo core.Uplo) func(*testing.T) {
	return func(t *testing.T) {
		rng := rand.New(rand.NewPCG(8, 1))
		const n = vtN
		a := vtSPD[T](rng, n, vtLD, vtCount)
		a.Data[1*a.Stride+2*vtLD+2] = vtT[T](-100)
		da := vtDev(t, e, a.Data)
		info := vtDev(t, e, []int32{-7, -7, -7})
		if err := PotrfBatched[T](e.solver, uplo, n, vtPtrs(t, e, da, a), vtLD, info, vtCount); err != nil {
			t.Fatal(err)
		}
		got := vtBack[int32](t, e, info, vtCount)
		if got[0] != 0 || got[1] <= 0 || got[2] != 0 {
			t.Errorf("info = %v, want [0 k>0 0] (LAPACK: k = 3)", got)
		}
		f := a
		f.Data = vtBack[T](t, e, da, len(a.Data))
		for _, i := range []int{0, 2} {
			vtCholCheck(t, "factor", vtDense(f, i), vtDense(a, i), n, uplo, core.IsComplex[T](), vtTol[T]())
		}
	}
}

func TestVendorPotrsBatched(t *testing.T) {
	e := vtSetup(t, false, true)
	vtEachType(t, testPotrsBatched[float32](e, core.Upper), testPotrsBatched[float64](e, core.Lower),
		testPotrsBatched[complex64](e, core.Upper), testPotrsBatched[complex128](e, core.Lower))
}

func testPotrsBatched[T core.Scalar](e *vtEnv, uplo core.Uplo) func(*testing.T) {
	return func(t *testing.T) {
		rng := rand.New(rand.NewPCG(9, 1))
		const n = vtN
		a := vtSPD[T](rng, n, vtLD, vtCount)
		b := vtBatch[T](rng, n, 1, vtLD, vtCount)
		da, db := vtDev(t, e, a.Data), vtDev(t, e, b.Data)
		aArr := vtPtrs(t, e, da, a)
		infos := vtDev(t, e, make([]int32, vtCount))
		if err := PotrfBatched[T](e.solver, uplo, n, aArr, vtLD, infos, vtCount); err != nil {
			t.Fatal(err)
		}
		info := vtDev(t, e, []int32{-7})
		if err := PotrsBatched[T](e.solver, uplo, n, 1, aArr, vtLD, vtPtrs(t, e, db, b), vtLD, info, vtCount); err != nil {
			t.Fatal(err)
		}
		if got := vtBack[int32](t, e, info, 1); got[0] != 0 {
			t.Errorf("potrs info = %d", got[0])
		}
		for i, v := range vtBack[int32](t, e, infos, vtCount) {
			if v != 0 {
				t.Errorf("potrf info[%d] = %d", i, v)
			}
		}
		x := b
		x.Data = vtBack[T](t, e, db, len(b.Data))
		for i := range vtCount {
			vtNear(t, "A·x", vtMul(vtDense(a, i), vtDense(x, i), n, n, 1), vtDense(b, i), vtTol[T]())
		}
	}
}

func TestVendorXpotrf(t *testing.T) {
	e := vtSetup(t, false, true)
	vtEachType(t, testXpotrf[float32](e, core.Upper), testXpotrf[float64](e, core.Lower),
		testXpotrf[complex64](e, core.Lower), testXpotrf[complex128](e, core.Upper))
}

func testXpotrf[T core.Scalar](e *vtEnv, uplo core.Uplo) func(*testing.T) {
	return func(t *testing.T) {
		rng := rand.New(rand.NewPCG(10, 1))
		const n = vtN
		a := vtSPD[T](rng, n, vtLD, 1)
		da := vtDev(t, e, a.Data)
		devBytes, hostBytes, err := XpotrfBufferSize[T](e.solver, uplo, n, da, vtLD)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("workspace: %d device bytes, %d host bytes", devBytes, hostBytes)
		work, err := e.ctx.Alloc(devBytes)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.ctx.Free(work) })
		hostWork := make([]byte, hostBytes)
		info := vtDev(t, e, []int32{-7})
		if err := Xpotrf[T](e.solver, uplo, n, da, vtLD, work, devBytes, hostWork, info); err != nil {
			t.Fatal(err)
		}
		if got := vtBack[int32](t, e, info, 1); got[0] != 0 {
			t.Errorf("info = %d", got[0])
		}
		f := a
		f.Data = vtBack[T](t, e, da, len(a.Data))
		vtCholCheck(t, "factor", vtDense(f, 0), vtDense(a, 0), n, uplo, core.IsComplex[T](), vtTol[T]())
	}
}
