package cuda

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
)

// copyMatricesHost is the definition CopyMatrices must match bit for bit;
// a and b are the host images of the device buffers (a nil for m.A == 0).
func copyMatricesHost[T any](m MatrixCopy, a, b []T, one T) {
	var zero T
	for k := range m.Count {
		for j := range m.Cols {
			for i := range m.Rows {
				dst := &b[int64(k)*m.StrideB+int64(j*m.LDB+i)]
				var selected bool
				switch m.Part {
				case CopyAll:
					selected = true
				case CopyLower:
					selected = i >= j
				case CopyUpper:
					selected = i <= j
				case CopyStrictLower:
					selected = i > j
				case CopyStrictUpper:
					selected = i < j
				}
				switch {
				case a != nil && selected:
					*dst = a[int64(k)*m.StrideA+int64(j*m.LDA+i)]
				case m.Rest == RestZero || (m.Rest == RestIdentity && i != j):
					*dst = zero
				case m.Rest == RestIdentity:
					*dst = one
				}
			}
		}
	}
}

func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

// randomElements fills n elements with random bits (NaN payloads included:
// the copy must move bits, not values).
func randomElements[T any](n int, seed uint64) []T {
	s := make([]T, n)
	copy(asBytes(s), randomBytes(len(asBytes(s)), seed))
	return s
}

func TestCopyMatrices(t *testing.T) {
	c := rtContext(t)
	rtNeedNVRTC(t)
	s := rtStream(t, c)
	t.Run("float32", func(t *testing.T) { testCopyMatrices[float32](t, s) })
	t.Run("float64", func(t *testing.T) { testCopyMatrices[float64](t, s) })
	t.Run("complex64", func(t *testing.T) { testCopyMatrices[complex64](t, s) })
	t.Run("complex128", func(t *testing.T) { testCopyMatrices[complex128](t, s) })
}

func testCopyMatrices[T core.Scalar](t *testing.T, s *Stream) {
	c := s.Context()
	type shape struct{ rows, cols, count, padA, padB, gapA, gapB int }
	shapes := []shape{
		{1, 1, 1, 0, 0, 0, 0},
		{4, 4, 3, 0, 0, 0, 0},
		{5, 3, 7, 3, 1, 2, 5},    // ld > rows, strides beyond ld·cols
		{3, 5, 4, 0, 2, 0, 0},    // wide
		{33, 31, 5, 7, 0, 11, 3}, // straddles a warp
		{64, 64, 2, 0, 0, 0, 0},
		{2, 2, 3000, 1, 1, 0, 0}, // many tiny matrices
	}
	seed := uint64(1)
	for _, sh := range shapes {
		for part := CopyAll; part <= CopyStrictUpper; part++ {
			for rest := RestKeep; rest <= RestIdentity; rest++ {
				for _, mode := range []string{"copy", "fill", "inplace", "broadcast"} {
					m := MatrixCopy{Rows: sh.rows, Cols: sh.cols, Count: sh.count, Part: part, Rest: rest,
						LDA: sh.rows + sh.padA, LDB: sh.rows + sh.padB}
					m.StrideA = int64(m.LDA*sh.cols + sh.gapA)
					m.StrideB = int64(m.LDB*sh.cols + sh.gapB)
					switch mode {
					case "inplace":
						m.LDA, m.StrideA = m.LDB, m.StrideB
					case "broadcast":
						m.StrideA = 0
					}
					name := fmt.Sprintf("%dx%dx%d/lda=%d/ldb=%d/part=%d/rest=%d/%s", m.Rows, m.Cols, m.Count, m.LDA, m.LDB, part, rest, mode)
					seed++
					if err := runCopyCase[T](c, s, m, mode, seed); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
				}
			}
		}
	}
}

func runCopyCase[T core.Scalar](c *Context, s *Stream, m MatrixCopy, mode string, seed uint64) error {
	var z T
	size := int64(unsafe.Sizeof(z))
	lenA := (int64(m.Count)-1)*m.StrideA + int64(m.LDA*m.Cols) + 3
	lenB := (int64(m.Count)-1)*m.StrideB + int64(m.LDB*m.Cols) + 3
	hostA := randomElements[T](int(lenA), seed)
	hostB := randomElements[T](int(lenB), seed+1000)
	devB, err := c.Alloc(lenB * size)
	if err != nil {
		return err
	}
	defer c.Free(devB)
	if err := Upload(s, devB, hostB); err != nil {
		return err
	}
	var refA []T
	switch mode {
	case "copy", "broadcast":
		devA, err := c.Alloc(lenA * size)
		if err != nil {
			return err
		}
		defer c.Free(devA)
		if err := Upload(s, devA, hostA); err != nil {
			return err
		}
		m.A, refA = devA, hostA
	case "inplace":
		m.A, refA = devB, append([]T(nil), hostB...)
	case "fill":
		m.A = 0
	}
	m.B = devB
	if err := CopyMatrices[T](s, m); err != nil {
		return err
	}
	got := make([]T, lenB)
	if err := Download(s, got, devB); err != nil {
		return err
	}
	want := append([]T(nil), hostB...)
	copyMatricesHost(m, refA, want, T(1))
	if !bytes.Equal(asBytes(got), asBytes(want)) {
		for i := range got {
			if !bytes.Equal(asBytes(got[i:i+1]), asBytes(want[i:i+1])) {
				return fmt.Errorf("element %d (matrix %d) = %v, want %v", i, int64(i)/max(m.StrideB, 1), got[i], want[i])
			}
		}
	}
	return nil
}

// TestCopyMatricesArguments needs no GPU: the checks run before any launch.
func TestCopyMatricesArguments(t *testing.T) {
	ok := MatrixCopy{Rows: 4, Cols: 3, Count: 2, A: 256, LDA: 4, StrideA: 12, B: 1024, LDB: 5, StrideB: 15}
	if err := checkMatrixCopy(ok, 8); err != nil {
		t.Fatalf("valid copy refused: %v", err)
	}
	for name, tc := range map[string]struct {
		edit func(*MatrixCopy)
		want error
	}{
		"negative rows":    {func(m *MatrixCopy) { m.Rows = -1 }, core.ErrShape},
		"ldb < rows":       {func(m *MatrixCopy) { m.LDB = 3 }, core.ErrShape},
		"lda < rows":       {func(m *MatrixCopy) { m.LDA = 3 }, core.ErrShape},
		"strideB overlaps": {func(m *MatrixCopy) { m.StrideB = 14 }, core.ErrShape},
		"negative strideA": {func(m *MatrixCopy) { m.StrideA = -1 }, core.ErrShape},
		"null B":           {func(m *MatrixCopy) { m.B = 0 }, core.ErrArgument},
		"misaligned A":     {func(m *MatrixCopy) { m.A = 260 }, core.ErrArgument},
		"bad part":         {func(m *MatrixCopy) { m.Part = 9 }, core.ErrArgument},
		"bad rest":         {func(m *MatrixCopy) { m.Rest = 9 }, core.ErrArgument},
		"in place, ld":     {func(m *MatrixCopy) { m.A = m.B }, core.ErrShape},
		"huge matrix":      {func(m *MatrixCopy) { m.Rows, m.Cols, m.LDA, m.LDB = 1<<16, 1<<16, 1<<16, 1<<16 }, core.ErrShape},
	} {
		m := ok
		tc.edit(&m)
		if err := checkMatrixCopy(m, 8); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}
	if err := checkMatrixCopy(MatrixCopy{Rows: 0, Cols: 5, Count: 3}, 4); err != nil {
		t.Errorf("an empty copy: %v", err)
	}
	one := oneBits[complex64]()
	if one != [2]uint64{0x3f800000, 0} || oneBits[float64]() != [2]uint64{0x3ff0000000000000, 0} ||
		oneBits[complex128]() != [2]uint64{0x3ff0000000000000, 0} || oneBits[float32]() != [2]uint64{0x3f800000, 0} {
		t.Errorf("oneBits: complex64 %#x, float64 %#x", one, oneBits[float64]())
	}
	dev := &Device{SMs: 132}
	if g, b := copyGrid(dev, MatrixCopy{Rows: 2, Cols: 2, Count: 3000}); g != [3]uint32{47, 1, 1} || b != [3]uint32{256, 1, 1} {
		t.Errorf("copyGrid small: %v %v", g, b)
	}
	if g, _ := copyGrid(dev, MatrixCopy{Rows: 1 << 10, Cols: 1 << 10, Count: 1 << 12}); g[1] != 1<<12 || g[0] < 1 {
		t.Errorf("copyGrid wide: %v", g)
	}
}

// BenchmarkLaunch measures the host cost of one small kernel launch.
func BenchmarkLaunch(b *testing.B) {
	c := rtContext(b)
	rtNeedNVRTC(b)
	s, err := c.NewStream()
	if err != nil {
		b.Fatal(err)
	}
	defer s.Destroy()
	p, _ := c.Alloc(1 << 12)
	defer c.Free(p)
	m := MatrixCopy{Rows: 8, Cols: 8, Count: 4, A: p, LDA: 8, StrideA: 64, B: p + 2048, LDB: 8, StrideB: 64}
	if err := CopyMatrices[float32](s, m); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := CopyMatrices[float32](s, m); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Synchronize(); err != nil {
		b.Fatal(err)
	}
}
