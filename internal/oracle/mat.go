package oracle

import (
	"fmt"
	"math"
	"reflect"

	"github.com/batchlas/batchlas/internal/core"
)

// Mat is a dense column-major matrix of complex128: element (i, j) is
// Data[j*Rows+i]. Real data is held with zero imaginary parts.
type Mat struct {
	Rows, Cols int
	Data       []complex128
}

// New returns a zero r×c matrix.
func New(r, c int) *Mat {
	return &Mat{Rows: r, Cols: c, Data: make([]complex128, r*c)}
}

// Identity returns the n×n identity.
func Identity(n int) *Mat {
	m := New(n, n)
	for i := range n {
		m.Set(i, i, 1)
	}
	return m
}

// At returns element (i, j).
func (m *Mat) At(i, j int) complex128 { return m.Data[j*m.Rows+i] }

// Set sets element (i, j) to v.
func (m *Mat) Set(i, j int, v complex128) { m.Data[j*m.Rows+i] = v }

// Col returns column j as a slice sharing m's storage.
func (m *Mat) Col(j int) []complex128 { return m.Data[j*m.Rows : (j+1)*m.Rows] }

// Clone returns a deep copy of m.
func (m *Mat) Clone() *Mat {
	return &Mat{Rows: m.Rows, Cols: m.Cols, Data: append([]complex128(nil), m.Data...)}
}

// Sub returns a copy of the r×c block whose (0, 0) element is m(i, j).
func (m *Mat) Sub(i, j, r, c int) *Mat {
	s := New(r, c)
	for q := range c {
		copy(s.Col(q), m.Col(j + q)[i:i+r])
	}
	return s
}

// HasNaN reports whether any element has a NaN part.
func (m *Mat) HasNaN() bool {
	for _, v := range m.Data {
		if isNaN(v) {
			return true
		}
	}
	return false
}

func isNaN(v complex128) bool { return real(v) != real(v) || imag(v) != imag(v) }

func (m *Mat) String() string { return fmt.Sprintf("%d×%d matrix", m.Rows, m.Cols) }

// ToComplex widens one element of any scalar type to complex128.
func ToComplex[T core.Scalar](x T) complex128 {
	switch v := any(x).(type) {
	case float32:
		return complex(float64(v), 0)
	case float64:
		return complex(v, 0)
	case complex64:
		return complex128(v)
	case complex128:
		return v
	}
	// A named type over one of the four (the constraint allows ~T).
	r := reflect.ValueOf(x)
	if r.CanComplex() {
		return r.Complex()
	}
	return complex(r.Float(), 0)
}

// FromComplex rounds z to T; the imaginary part is dropped for real T.
func FromComplex[T core.Scalar](z complex128) T {
	var out T
	switch p := any(&out).(type) {
	case *float32:
		*p = float32(real(z))
	case *float64:
		*p = real(z)
	case *complex64:
		*p = complex64(z)
	case *complex128:
		*p = z
	default:
		r := reflect.ValueOf(&out).Elem()
		if r.CanComplex() {
			r.SetComplex(z)
		} else {
			r.SetFloat(real(z))
		}
	}
	return out
}

// SameBits reports whether x and y are the same bit pattern (so +0 and −0
// differ and a NaN equals only the same NaN).
func SameBits[T core.Scalar](x, y T) bool {
	switch a := any(x).(type) {
	case float32:
		return math.Float32bits(a) == math.Float32bits(any(y).(float32))
	case float64:
		return math.Float64bits(a) == math.Float64bits(any(y).(float64))
	case complex64:
		b := any(y).(complex64)
		return math.Float32bits(real(a)) == math.Float32bits(real(b)) &&
			math.Float32bits(imag(a)) == math.Float32bits(imag(b))
	}
	a, b := ToComplex(x), ToComplex(y)
	return math.Float64bits(real(a)) == math.Float64bits(real(b)) &&
		math.Float64bits(imag(a)) == math.Float64bits(imag(b))
}

// Poison is the value that fills every element of a test batch that no op
// may write: padding rows, the gap between matrices, unreferenced triangles.
// It is finite in float32 and large enough that reading it ruins a result.
const Poison = -3.0517578125e29

// PoisonValue is Poison as a T; complex types get a distinct imaginary part
// so a swap of real and imaginary parts is noticed too.
func PoisonValue[T core.Scalar]() T {
	return FromComplex[T](complex(Poison, Poison/4))
}

// NewStrided allocates count rows×cols matrices with leading dimension
// max(1, rows)+ldPad and batch stride ld·cols+stridePad, every element set to
// PoisonValue. The slice holds count full strides, so the area after the last
// matrix is padding as well.
func NewStrided[T core.Scalar](rows, cols, count, ldPad, stridePad int) core.Strided[T] {
	ld := max(1, rows) + ldPad
	return NewStridedLayout[T](rows, cols, count, ld, ld*cols+stridePad)
}

// NewStridedLayout allocates count rows×cols matrices with the given leading
// dimension and stride (which must be valid for core.Strided), count full
// strides long, every element set to PoisonValue.
func NewStridedLayout[T core.Scalar](rows, cols, count, ld, stride int) core.Strided[T] {
	s := core.Strided[T]{Rows: rows, Cols: cols, LD: ld, Stride: stride, Count: count}
	s.Data = make([]T, max(s.Stride*count, s.Need()))
	if err := s.Check("oracle.NewStridedLayout"); err != nil {
		panic(err)
	}
	p := PoisonValue[T]()
	for i := range s.Data {
		s.Data[i] = p
	}
	return s
}

// Clone returns s with a copy of its data.
func Clone[T core.Scalar](s core.Strided[T]) core.Strided[T] {
	s.Data = append([]T(nil), s.Data...)
	return s
}

// Item returns a batch of one holding a copy of matrix b of s, with s's
// leading dimension and stride and the padding of one stride copied as well.
func Item[T core.Scalar](s core.Strided[T], b int) core.Strided[T] {
	one := s
	one.Count = 1
	lo := b * s.Stride
	hi := min(len(s.Data), lo+max(s.Stride, s.Span()))
	one.Data = append([]T(nil), s.Data[lo:hi]...)
	return one
}

// Load reads matrix b of s into a new Mat.
func Load[T core.Scalar](s core.Strided[T], b int) *Mat {
	m := New(s.Rows, s.Cols)
	off := b * s.Stride
	for j := range s.Cols {
		col := s.Data[off+j*s.LD : off+j*s.LD+s.Rows]
		for i, v := range col {
			m.Data[j*s.Rows+i] = ToComplex(v)
		}
	}
	return m
}

// Store writes m, rounded to T, into matrix b of s; m must be s.Rows×s.Cols.
func Store[T core.Scalar](s core.Strided[T], b int, m *Mat) {
	if m.Rows != s.Rows || m.Cols != s.Cols {
		panic(fmt.Sprintf("oracle: Store of a %d×%d matrix into %d×%d", m.Rows, m.Cols, s.Rows, s.Cols))
	}
	off := b * s.Stride
	for j := range s.Cols {
		for i := range s.Rows {
			s.Data[off+j*s.LD+i] = FromComplex[T](m.Data[j*s.Rows+i])
		}
	}
}

// Round returns m rounded to T and widened back: the matrix an engine
// working in T actually receives.
func Round[T core.Scalar](m *Mat) *Mat {
	r := m.Clone()
	for i, v := range r.Data {
		r.Data[i] = ToComplex(FromComplex[T](v))
	}
	return r
}

// PoisonTriangle sets the strict triangle opposite to uplo of matrix b of s
// (the part a Hermitian or triangular op must not read) to PoisonValue, and
// the diagonal too when unitDiag is set.
func PoisonTriangle[T core.Scalar](s core.Strided[T], b int, uplo core.Uplo, unitDiag bool) {
	p := PoisonValue[T]()
	off := b * s.Stride
	for j := range s.Cols {
		for i := range s.Rows {
			if (uplo == core.Lower && i < j) || (uplo == core.Upper && i > j) || (unitDiag && i == j) {
				s.Data[off+j*s.LD+i] = p
			}
		}
	}
}
