package cuda

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
)

// transposeHost is the definition TransposeMatrices must match exactly.
func transposeHost[T core.Scalar](m MatrixTranspose, a, b []T) {
	for k := range m.Count {
		for c := range m.Rows { // column of B, row of A
			for r := range m.Cols { // row of B, column of A
				var sel bool
				switch m.Part {
				case CopyAll:
					sel = true
				case CopyLower:
					sel = r >= c
				case CopyUpper:
					sel = r <= c
				case CopyStrictLower:
					sel = r > c
				case CopyStrictUpper:
					sel = r < c
				}
				if sel {
					v := a[int64(k)*m.StrideA+int64(r*m.LDA+c)]
					if z, ok := any(v).(complex64); ok {
						v = any(complex(real(z), -imag(z))).(T)
					}
					if z, ok := any(v).(complex128); ok {
						v = any(complex(real(z), -imag(z))).(T)
					}
					b[int64(k)*m.StrideB+int64(c*m.LDB+r)] = v
				}
			}
		}
	}
}

func randomScalars[T core.Scalar](n int, seed uint64) []T {
	rng := rand.New(rand.NewPCG(seed, 3))
	s := make([]T, n)
	for i := range s {
		re, im := rng.NormFloat64(), rng.NormFloat64()
		switch p := any(&s[i]).(type) {
		case *float32:
			*p = float32(re)
		case *float64:
			*p = re
		case *complex64:
			*p = complex64(complex(re, im))
		case *complex128:
			*p = complex(re, im)
		}
	}
	return s
}

func TestTransposeMatrices(t *testing.T) {
	c := rtContext(t)
	rtNeedNVRTC(t)
	s := rtStream(t, c)
	t.Run("float32", func(t *testing.T) { testTranspose[float32](t, s) })
	t.Run("float64", func(t *testing.T) { testTranspose[float64](t, s) })
	t.Run("complex64", func(t *testing.T) { testTranspose[complex64](t, s) })
	t.Run("complex128", func(t *testing.T) { testTranspose[complex128](t, s) })
}

func testTranspose[T core.Scalar](t *testing.T, s *Stream) {
	c := s.Context()
	var z T
	size := int64(unsafe.Sizeof(z))
	type shape struct{ rows, cols, count, padA, padB, gapA, gapB int }
	seed := uint64(1)
	for _, sh := range []shape{
		{1, 1, 1, 0, 0, 0, 0}, {31, 31, 3, 0, 0, 0, 0}, {32, 32, 2, 1, 0, 0, 5},
		{33, 33, 4, 3, 2, 7, 1}, {5, 70, 3, 0, 4, 0, 0}, {70, 5, 3, 2, 0, 3, 0},
		{100, 100, 2, 1, 1, 0, 0}, {3, 3, 70000, 0, 0, 0, 0},
	} {
		for part := CopyAll; part <= CopyStrictUpper; part++ {
			m := MatrixTranspose{Rows: sh.rows, Cols: sh.cols, Count: sh.count, Part: part,
				LDA: sh.rows + sh.padA, LDB: sh.cols + sh.padB}
			m.StrideA = int64(m.LDA*sh.cols + sh.gapA)
			m.StrideB = int64(m.LDB*sh.rows + sh.gapB)
			lenA := (int64(m.Count)-1)*m.StrideA + int64(m.LDA*m.Cols)
			lenB := (int64(m.Count)-1)*m.StrideB + int64(m.LDB*m.Rows)
			seed++
			hostA, hostB := randomScalars[T](int(lenA), seed), randomScalars[T](int(lenB), seed+99)
			devA, err := c.Alloc(lenA * size)
			if err != nil {
				t.Fatal(err)
			}
			devB, err := c.Alloc(lenB * size)
			if err != nil {
				t.Fatal(err)
			}
			if err := errors.Join(Upload(s, devA, hostA), Upload(s, devB, hostB)); err != nil {
				t.Fatal(err)
			}
			m.A, m.B = devA, devB
			if err := TransposeMatrices[T](s, m); err != nil {
				t.Fatal(err)
			}
			got := make([]T, lenB)
			if err := Download(s, got, devB); err != nil {
				t.Fatal(err)
			}
			want := append([]T(nil), hostB...)
			transposeHost(m, hostA, want)
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s: element %d = %v, want %v", fmt.Sprintf("%+v", sh)+fmt.Sprintf(" part %d", part), i, got[i], want[i])
				}
			}
			c.Free(devA)
			c.Free(devB)
		}
	}
}

func TestTransposeArguments(t *testing.T) {
	const p = DevicePtr(1 << 20)
	for name, m := range map[string]MatrixTranspose{
		"negative":   {Rows: -1, Cols: 2, Count: 1, A: p, B: p, LDA: 1, LDB: 2},
		"lda":        {Rows: 4, Cols: 2, Count: 1, A: p, B: p << 1, LDA: 3, LDB: 2},
		"ldb":        {Rows: 4, Cols: 2, Count: 1, A: p, B: p << 1, LDA: 4, LDB: 1},
		"stride":     {Rows: 4, Cols: 2, Count: 2, A: p, B: p << 1, LDA: 4, LDB: 2, StrideA: 7, StrideB: 8},
		"null":       {Rows: 4, Cols: 2, Count: 1, A: 0, B: p, LDA: 4, LDB: 2},
		"misaligned": {Rows: 4, Cols: 2, Count: 1, A: p + 2, B: p << 1, LDA: 4, LDB: 2},
		"part":       {Rows: 4, Cols: 2, Count: 1, A: p, B: p << 1, LDA: 4, LDB: 2, Part: 9},
	} {
		if err := checkTranspose(m, 4); !errors.Is(err, core.ErrShape) && !errors.Is(err, core.ErrArgument) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := checkTranspose(MatrixTranspose{Rows: 4, Cols: 2, Count: 2, A: p, B: p << 1, LDA: 4, LDB: 2, StrideA: 8, StrideB: 8}, 4); err != nil {
		t.Errorf("valid: %v", err)
	}
}
