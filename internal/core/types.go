package core

import "fmt"

// Scalar is the set of element types every op supports.
type Scalar interface {
	~float32 | ~float64 | ~complex64 | ~complex128
}

// Uplo selects the triangle of a matrix that an op reads or writes.
type Uplo uint8

const (
	Lower Uplo = iota
	Upper
)

func (u Uplo) String() string {
	switch u {
	case Lower:
		return "Lower"
	case Upper:
		return "Upper"
	}
	return fmt.Sprintf("Uplo(%d)", uint8(u))
}

// Valid reports whether u is Lower or Upper.
func (u Uplo) Valid() bool { return u == Lower || u == Upper }

// Transpose selects op(A): A, Aᵀ or Aᴴ (for real types Aᴴ = Aᵀ).
type Transpose uint8

const (
	NoTrans Transpose = iota
	Trans
	ConjTrans
)

func (t Transpose) String() string {
	switch t {
	case NoTrans:
		return "NoTrans"
	case Trans:
		return "Trans"
	case ConjTrans:
		return "ConjTrans"
	}
	return fmt.Sprintf("Transpose(%d)", uint8(t))
}

// Valid reports whether t is NoTrans, Trans or ConjTrans.
func (t Transpose) Valid() bool { return t <= ConjTrans }

// Side says whether a triangular operand multiplies from the left or the right.
type Side uint8

const (
	Left Side = iota
	Right
)

func (s Side) String() string {
	switch s {
	case Left:
		return "Left"
	case Right:
		return "Right"
	}
	return fmt.Sprintf("Side(%d)", uint8(s))
}

// Valid reports whether s is Left or Right.
func (s Side) Valid() bool { return s == Left || s == Right }

// Diag says whether a triangular matrix has an implicit unit diagonal.
type Diag uint8

const (
	NonUnit Diag = iota
	Unit
)

func (d Diag) String() string {
	switch d {
	case NonUnit:
		return "NonUnit"
	case Unit:
		return "Unit"
	}
	return fmt.Sprintf("Diag(%d)", uint8(d))
}

// Valid reports whether d is NonUnit or Unit.
func (d Diag) Valid() bool { return d == NonUnit || d == Unit }

// IsComplex reports whether T is complex64 or complex128.
func IsComplex[T Scalar]() bool {
	var z T
	switch any(z).(type) {
	case complex64, complex128:
		return true
	}
	return false
}

// Eps is the unit roundoff of T's real part (2⁻²⁴ for 32-bit, 2⁻⁵³ for 64-bit).
func Eps[T Scalar]() float64 {
	var z T
	switch any(z).(type) {
	case float32, complex64:
		return 0x1p-24
	}
	return 0x1p-53
}

// TypeName is the dtype spelling used by the CLI, tables and errors.
func TypeName[T Scalar]() string {
	var z T
	switch any(z).(type) {
	case float32:
		return "float32"
	case float64:
		return "float64"
	case complex64:
		return "complex64"
	case complex128:
		return "complex128"
	}
	return fmt.Sprintf("%T", z)
}
