package cuda

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
)

// Smoke tests of the cuBLAS bindings: one small case per routine and type
// against a complex128 host reference. They skip without a GPU. Sizes follow
// the brief: n = 5, batch 3, leading dimension 7, with gaps between matrices.

const (
	vtN     = 5
	vtLD    = 7
	vtCount = 3
)

func TestVendorGemmStridedBatched(t *testing.T) {
	e := vtSetup(t, true, false)
	vtEachType(t, testGemmStridedBatched[float32](e), testGemmStridedBatched[float64](e),
		testGemmStridedBatched[complex64](e), testGemmStridedBatched[complex128](e))
}

func testGemmStridedBatched[T core.Scalar](e *vtEnv) func(*testing.T) {
	return func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 1))
		const m, n, k = vtN, 4, 6
		a := vtBatch[T](rng, m, k, vtLD, vtCount) // op(A) = A
		b := vtBatch[T](rng, n, k, vtLD, vtCount) // op(B) = Bᴴ is k×n
		c := vtBatch[T](rng, m, n, vtLD, vtCount)
		alpha, beta := vtT[T](1.5+0.5i), vtT[T](-0.5+0.25i)
		da, db, dc := vtDev(t, e, a.Data), vtDev(t, e, b.Data), vtDev(t, e, c.Data)
		err := GemmStridedBatched(e.blas, core.NoTrans, core.ConjTrans, m, n, k,
			alpha, da, vtLD, int64(a.Stride), db, vtLD, int64(b.Stride),
			beta, dc, vtLD, int64(c.Stride), vtCount)
		if err != nil {
			t.Fatal(err)
		}
		got := vtWiden(vtBack[T](t, e, dc, len(c.Data)))
		want := vtWiden(c.Data)
		cx := core.IsComplex[T]()
		for i := range vtCount {
			opB, _, _ := vtOp(vtDense(b, i), n, k, core.ConjTrans, cx)
			ab := vtMul(vtDense(a, i), opB, m, k, n)
			for col := range n {
				for row := range m {
					w := &want[i*c.Stride+col*vtLD+row]
					*w = vtC(alpha)*ab[row+col*m] + vtC(beta)**w
				}
			}
		}
		vtNear(t, "C", got, want, vtTol[T]())
	}
}

// TestVendorGemmStridedBatchedEx runs the Ex binding with each compute type
// that applies to each data type, against the same host reference as
// GemmStridedBatched. FAST_TF32 rounds the inputs to 10 mantissa bits, so
// it is held to a TF32 tolerance, and then fed operands that are exact in
// TF32 (multiples of 1/64 in [-1, 1]), where it must be as accurate as FP32.
func TestVendorGemmStridedBatchedEx(t *testing.T) {
	e := vtSetup(t, true, false)
	t.Run("float32/32F", testGemmEx[float32](e, Compute32F, false))
	t.Run("float32/32F_FAST_TF32", testGemmEx[float32](e, Compute32FFastTF32, false))
	t.Run("float32/32F_FAST_TF32/exact-inputs", testGemmEx[float32](e, Compute32FFastTF32, true))
	t.Run("complex64/32F_FAST_TF32", testGemmEx[complex64](e, Compute32FFastTF32, false))
	t.Run("float64/64F", testGemmEx[float64](e, Compute64F, false))
	t.Run("complex128/64F", testGemmEx[complex128](e, Compute64F, false))
	err := GemmStridedBatchedEx[float64](e.blas, Compute32FFastTF32, core.NoTrans, core.NoTrans, 1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1)
	if !errors.Is(err, core.ErrArgument) {
		t.Errorf("float64 data with FAST_TF32: %v, want ErrArgument", err)
	}
}

func testGemmEx[T core.Scalar](e *vtEnv, compute ComputeType, tf32Inputs bool) func(*testing.T) {
	return func(t *testing.T) {
		rng := rand.New(rand.NewPCG(11, uint64(compute)))
		const m, n, k = vtN, 4, 6
		a := vtBatch[T](rng, k, m, vtLD, vtCount) // op(A) = Aᴴ is m×k
		b := vtBatch[T](rng, k, n, vtLD, vtCount) // op(B) = B
		c := vtBatch[T](rng, m, n, vtLD, vtCount)
		if tf32Inputs {
			for _, s := range []core.Strided[T]{a, b, c} {
				for i := range s.Data {
					z := vtC(s.Data[i])
					s.Data[i] = vtT[T](complex(math.Round(real(z)*64)/64, math.Round(imag(z)*64)/64))
				}
			}
		}
		alpha, beta := vtT[T](0.75-0.25i), vtT[T](-0.5+0.5i)
		if tf32Inputs {
			alpha, beta = 1, 1
		}
		da, db, dc := vtDev(t, e, a.Data), vtDev(t, e, b.Data), vtDev(t, e, c.Data)
		err := GemmStridedBatchedEx(e.blas, compute, core.ConjTrans, core.NoTrans, m, n, k,
			alpha, da, vtLD, int64(a.Stride), db, vtLD, int64(b.Stride),
			beta, dc, vtLD, int64(c.Stride), vtCount)
		if err != nil {
			t.Fatal(err)
		}
		got := vtWiden(vtBack[T](t, e, dc, len(c.Data)))
		want := vtWiden(c.Data)
		cx := core.IsComplex[T]()
		for i := range vtCount {
			opA, _, _ := vtOp(vtDense(a, i), k, m, core.ConjTrans, cx)
			ab := vtMul(opA, vtDense(b, i), m, k, n)
			for col := range n {
				for row := range m {
					w := &want[i*c.Stride+col*vtLD+row]
					*w = vtC(alpha)*ab[row+col*m] + vtC(beta)**w
				}
			}
		}
		tol := vtTol[T]()
		if compute == Compute32FFastTF32 && !tf32Inputs {
			tol = 0x1p-8 * float64(k) // each input rounded or cut to 10 mantissa bits; a wrong binding misses by O(1)
		}
		vtNear(t, "C", got, want, tol)
	}
}

func TestVendorTrsmBatched(t *testing.T) {
	e := vtSetup(t, true, false)
	vtEachType(t, testTrsmBatched[float32](e), testTrsmBatched[float64](e),
		testTrsmBatched[complex64](e), testTrsmBatched[complex128](e))
}

// Left, Lower, NoTrans, NonUnit: A_i·X_i = alpha·B_i.
func testTrsmBatched[T core.Scalar](e *vtEnv) func(*testing.T) {
	return func(t *testing.T) {
		rng := rand.New(rand.NewPCG(2, 1))
		const m, n = vtN, 3
		a := vtBatch[T](rng, m, m, vtLD, vtCount)
		vtAddDiag(a, m)
		b := vtBatch[T](rng, m, n, vtLD, vtCount)
		alpha := vtT[T](2 - 1i)
		da, db := vtDev(t, e, a.Data), vtDev(t, e, b.Data)
		err := TrsmBatched(e.blas, core.Left, core.Lower, core.NoTrans, core.NonUnit, m, n,
			alpha, vtPtrs(t, e, da, a), vtLD, vtPtrs(t, e, db, b), vtLD, vtCount)
		if err != nil {
			t.Fatal(err)
		}
		x := b
		x.Data = vtBack[T](t, e, db, len(b.Data))
		for i := range vtCount {
			l := vtTri(vtDense(a, i), m, core.Lower, core.NonUnit)
			want := vtDense(b, i)
			for j := range want {
				want[j] *= vtC(alpha)
			}
			vtNear(t, "A·X", vtMul(l, vtDense(x, i), m, m, n), want, vtTol[T]())
		}
	}
}

func TestVendorTrsm(t *testing.T) {
	e := vtSetup(t, true, false)
	vtEachType(t, testTrsm[float32](e), testTrsm[float64](e), testTrsm[complex64](e), testTrsm[complex128](e))
}

// Right, Upper, ConjTrans, Unit: X·op(A) = alpha·B for one matrix.
func testTrsm[T core.Scalar](e *vtEnv) func(*testing.T) {
	return func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 1))
		const m, n = vtN, 4
		a := vtBatch[T](rng, n, n, vtLD, 1)
		b := vtBatch[T](rng, m, n, vtLD, 1)
		alpha := vtT[T](0.75 + 0.25i)
		da, db := vtDev(t, e, a.Data), vtDev(t, e, b.Data)
		if err := Trsm(e.blas, core.Right, core.Upper, core.ConjTrans, core.Unit, m, n, alpha, da, vtLD, db, vtLD); err != nil {
			t.Fatal(err)
		}
		x := b
		x.Data = vtBack[T](t, e, db, len(b.Data))
		opA, _, _ := vtOp(vtTri(vtDense(a, 0), n, core.Upper, core.Unit), n, n, core.ConjTrans, core.IsComplex[T]())
		want := vtDense(b, 0)
		for j := range want {
			want[j] *= vtC(alpha)
		}
		vtNear(t, "X·op(A)", vtMul(vtDense(x, 0), opA, m, n, n), want, vtTol[T]())
	}
}

func TestVendorTrmm(t *testing.T) {
	e := vtSetup(t, true, false)
	vtEachType(t, testTrmm[float32](e), testTrmm[float64](e), testTrmm[complex64](e), testTrmm[complex128](e))
}

// Left, Upper, Trans, NonUnit: C = alpha·Aᵀ·B, first out of place, then in
// place (C = B).
func testTrmm[T core.Scalar](e *vtEnv) func(*testing.T) {
	return func(t *testing.T) {
		rng := rand.New(rand.NewPCG(4, 1))
		const m, n = vtN, 4
		a := vtBatch[T](rng, m, m, vtLD, 1)
		b := vtBatch[T](rng, m, n, vtLD, 1)
		c := vtBatch[T](rng, m, n, vtLD, 1)
		alpha := vtT[T](-1 + 2i)
		da, db, dc := vtDev(t, e, a.Data), vtDev(t, e, b.Data), vtDev(t, e, c.Data)
		opA, _, _ := vtOp(vtTri(vtDense(a, 0), m, core.Upper, core.NonUnit), m, m, core.Trans, core.IsComplex[T]())
		want := vtMul(opA, vtDense(b, 0), m, m, n)
		for j := range want {
			want[j] *= vtC(alpha)
		}
		if err := Trmm(e.blas, core.Left, core.Upper, core.Trans, core.NonUnit, m, n, alpha, da, vtLD, db, vtLD, dc, vtLD); err != nil {
			t.Fatal(err)
		}
		got := c
		got.Data = vtBack[T](t, e, dc, len(c.Data))
		vtNear(t, "C", vtDense(got, 0), want, vtTol[T]())
		unchanged := b
		unchanged.Data = vtBack[T](t, e, db, len(b.Data))
		vtNear(t, "B after out-of-place trmm", vtWiden(unchanged.Data), vtWiden(b.Data), 0)

		if err := Trmm(e.blas, core.Left, core.Upper, core.Trans, core.NonUnit, m, n, alpha, da, vtLD, db, vtLD, db, vtLD); err != nil {
			t.Fatal(err)
		}
		got.Data = vtBack[T](t, e, db, len(b.Data))
		vtNear(t, "B in place", vtDense(got, 0), want, vtTol[T]())
	}
}

func TestVendorSyrk(t *testing.T) {
	e := vtSetup(t, true, false)
	vtEachType(t, testSyrk[float32](e), testSyrk[float64](e), testSyrk[complex64](e), testSyrk[complex128](e))
}

// Lower, NoTrans: C = alpha·A·Aᵀ + beta·C on the lower triangle; the strict
// upper triangle and the padding must not change.
func testSyrk[T core.Scalar](e *vtEnv) func(*testing.T) {
	return func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 1))
		const n, k = vtN, 3
		a := vtBatch[T](rng, n, k, vtLD, 1)
		c := vtBatch[T](rng, n, n, vtLD, 1)
		alpha, beta := vtT[T](1.25-0.5i), vtT[T](0.5+0.5i)
		da, dc := vtDev(t, e, a.Data), vtDev(t, e, c.Data)
		if err := Syrk(e.blas, core.Lower, core.NoTrans, n, k, alpha, da, vtLD, beta, dc, vtLD); err != nil {
			t.Fatal(err)
		}
		at, _, _ := vtOp(vtDense(a, 0), n, k, core.Trans, core.IsComplex[T]())
		aat := vtMul(vtDense(a, 0), at, n, k, n)
		want := vtWiden(c.Data)
		for j := range n {
			for i := j; i < n; i++ {
				want[j*vtLD+i] = vtC(alpha)*aat[i+j*n] + vtC(beta)*want[j*vtLD+i]
			}
		}
		vtNear(t, "C", vtWiden(vtBack[T](t, e, dc, len(c.Data))), want, vtTol[T]())
		if core.IsComplex[T]() {
			if err := Syrk(e.blas, core.Lower, core.ConjTrans, n, k, alpha, da, vtLD, beta, dc, vtLD); !errors.Is(err, core.ErrArgument) {
				t.Errorf("complex Syrk with ConjTrans: %v, want ErrArgument", err)
			}
		}
	}
}

func TestVendorHerk(t *testing.T) {
	e := vtSetup(t, true, false)
	vtEachType(t, testHerk[float32](e), testHerk[float64](e), testHerk[complex64](e), testHerk[complex128](e))
}

// Upper, ConjTrans: C = alpha·Aᴴ·A + beta·C on the upper triangle with real
// alpha and beta; C's diagonal comes out real. Real T goes through syrk.
func testHerk[T core.Scalar](e *vtEnv) func(*testing.T) {
	return func(t *testing.T) {
		rng := rand.New(rand.NewPCG(6, 1))
		const n, k = vtN, 3
		a := vtBatch[T](rng, k, n, vtLD, 1)
		c := vtBatch[T](rng, n, n, vtLD, 1)
		const alpha, beta = 0.75, -1.5
		da, dc := vtDev(t, e, a.Data), vtDev(t, e, c.Data)
		if err := Herk[T](e.blas, core.Upper, core.ConjTrans, n, k, alpha, da, vtLD, beta, dc, vtLD); err != nil {
			t.Fatal(err)
		}
		ah, _, _ := vtOp(vtDense(a, 0), k, n, core.ConjTrans, core.IsComplex[T]())
		aha := vtMul(ah, vtDense(a, 0), n, k, n)
		want := vtWiden(c.Data)
		for j := range n {
			for i := 0; i <= j; i++ {
				old := want[j*vtLD+i]
				if i == j {
					old = complex(real(old), 0) // herk reads the diagonal of C as real
				}
				want[j*vtLD+i] = alpha*aha[i+j*n] + beta*old
				if i == j {
					want[j*vtLD+i] = complex(real(want[j*vtLD+i]), 0)
				}
			}
		}
		vtNear(t, "C", vtWiden(vtBack[T](t, e, dc, len(c.Data))), want, vtTol[T]())
		if core.IsComplex[T]() {
			if err := Herk[T](e.blas, core.Upper, core.Trans, n, k, alpha, da, vtLD, beta, dc, vtLD); !errors.Is(err, core.ErrArgument) {
				t.Errorf("complex Herk with Trans: %v, want ErrArgument", err)
			}
		}
	}
}

func TestVendorLU(t *testing.T) {
	e := vtSetup(t, true, false)
	vtEachType(t, testLU[float32](e), testLU[float64](e), testLU[complex64](e), testLU[complex128](e))
}

// GetrfBatched (P·L·U = A, and a singular matrix reported alone), then
// GetrsBatched, GetriBatched and MatinvBatched on the factors or the input.
func testLU[T core.Scalar](e *vtEnv) func(*testing.T) {
	return func(t *testing.T) {
		rng := rand.New(rand.NewPCG(7, 1))
		const n, nrhs = vtN, 2
		tol := vtTol[T]()
		a := vtBatch[T](rng, n, n, vtLD, vtCount)
		vtAddDiag(a, 1) // pivoting still happens; the matrices stay far from singular
		b := vtBatch[T](rng, n, nrhs, vtLD, vtCount)
		da, db := vtDev(t, e, a.Data), vtDev(t, e, b.Data)
		aArr, bArr := vtPtrs(t, e, da, a), vtPtrs(t, e, db, b)
		pivots := vtDev(t, e, make([]int32, n*vtCount))
		info := vtDev(t, e, make([]int32, vtCount))

		if err := GetrfBatched[T](e.blas, n, aArr, vtLD, pivots, info, vtCount); err != nil {
			t.Fatal(err)
		}
		lu := a
		lu.Data = vtBack[T](t, e, da, len(a.Data))
		piv := vtBack[int32](t, e, pivots, n*vtCount)
		for i, v := range vtBack[int32](t, e, info, vtCount) {
			if v != 0 {
				t.Errorf("getrf info[%d] = %d", i, v)
			}
		}
		for i := range vtCount {
			f := vtDense(lu, i)
			plu := vtMul(vtTri(f, n, core.Lower, core.Unit), vtTri(f, n, core.Upper, core.NonUnit), n, n, n)
			for r := n - 1; r >= 0; r-- {
				p := int(piv[i*n+r]) - 1
				if p < r || p >= n {
					t.Fatalf("matrix %d: pivot[%d] = %d, want in [%d, %d]", i, r, p+1, r+1, n)
				}
				for col := range n {
					plu[r+col*n], plu[p+col*n] = plu[p+col*n], plu[r+col*n]
				}
			}
			vtNear(t, "P·L·U", plu, vtDense(a, i), tol)
		}

		if err := GetrsBatched[T](e.blas, core.NoTrans, n, nrhs, aArr, vtLD, pivots, bArr, vtLD, vtCount); err != nil {
			t.Fatal(err)
		}
		x := b
		x.Data = vtBack[T](t, e, db, len(b.Data))
		for i := range vtCount {
			vtNear(t, "A·X", vtMul(vtDense(a, i), vtDense(x, i), n, n, nrhs), vtDense(b, i), tol)
		}

		inv := vtBatch[T](rng, n, n, vtLD, vtCount)
		dinv := vtDev(t, e, inv.Data)
		if err := GetriBatched[T](e.blas, n, aArr, vtLD, pivots, vtPtrs(t, e, dinv, inv), vtLD, info, vtCount); err != nil {
			t.Fatal(err)
		}
		inv.Data = vtBack[T](t, e, dinv, len(inv.Data))
		for i, v := range vtBack[int32](t, e, info, vtCount) {
			if v != 0 {
				t.Errorf("getri info[%d] = %d", i, v)
			}
		}
		for i := range vtCount {
			vtNear(t, "A·getri(A)", vtMul(vtDense(a, i), vtDense(inv, i), n, n, n), vtIdentity(n), tol)
		}

		// matinv from the original matrices.
		da2 := vtDev(t, e, a.Data)
		minv := vtBatch[T](rng, n, n, vtLD, vtCount)
		dminv := vtDev(t, e, minv.Data)
		if err := MatinvBatched[T](e.blas, n, vtPtrs(t, e, da2, a), vtLD, vtPtrs(t, e, dminv, minv), vtLD, info, vtCount); err != nil {
			t.Fatal(err)
		}
		minv.Data = vtBack[T](t, e, dminv, len(minv.Data))
		for i, v := range vtBack[int32](t, e, info, vtCount) {
			if v != 0 {
				t.Errorf("matinv info[%d] = %d", i, v)
			}
		}
		for i := range vtCount {
			vtNear(t, "A·matinv(A)", vtMul(vtDense(a, i), vtDense(minv, i), n, n, n), vtIdentity(n), tol)
		}
		if err := MatinvBatched[T](e.blas, MatinvMax+1, aArr, 40, aArr, 40, info, 1); !errors.Is(err, core.ErrUnsupported) {
			t.Errorf("MatinvBatched n = 33: %v, want ErrUnsupported", err)
		}

		// A zero column in matrix 1 only: its info says so, its neighbours are 0.
		sing := vtBatch[T](rng, n, n, vtLD, vtCount)
		vtAddDiag(sing, n)
		for r := range n {
			sing.Data[1*sing.Stride+2*vtLD+r] = 0
		}
		ds := vtDev(t, e, sing.Data)
		if err := GetrfBatched[T](e.blas, n, vtPtrs(t, e, ds, sing), vtLD, pivots, info, vtCount); err != nil {
			t.Fatal(err)
		}
		got := vtBack[int32](t, e, info, vtCount)
		if got[0] != 0 || got[1] <= 0 || got[2] != 0 {
			t.Errorf("getrf info with matrix 1 singular = %v, want [0 k>0 0] (LAPACK: k = 3)", got)
		}
	}
}

// Argument checks made before any library call, and one made by cuBLAS
// itself, whose status must arrive typed.
func TestVendorArgumentErrors(t *testing.T) {
	e := vtSetup(t, true, true)
	if err := GemmStridedBatched[float32](e.blas, core.Transpose(9), core.NoTrans, 1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1); !errors.Is(err, core.ErrArgument) {
		t.Errorf("bad transpose: %v", err)
	}
	if err := GemmStridedBatched[float64](e.blas, core.NoTrans, core.NoTrans, -1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1); !errors.Is(err, core.ErrShape) {
		t.Errorf("m = -1: %v", err)
	}
	err := GemmStridedBatched[float64](e.blas, core.NoTrans, core.NoTrans, 4, 4, 4, 1, 0, 1, 16, 0, 4, 16, 0, 0, 4, 16, 1)
	var bs BLASStatus
	if !errors.As(err, &bs) || bs != 7 {
		t.Errorf("lda < m: %v, want CUBLAS_STATUS_INVALID_VALUE", err)
	}
	if err := PotrsBatched[float32](e.solver, core.Lower, 4, 2, 0, 4, 0, 4, 0, 1); !errors.Is(err, core.ErrUnsupported) {
		t.Errorf("potrs nrhs = 2: %v, want ErrUnsupported", err)
	}
}
