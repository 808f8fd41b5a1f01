package core

import "fmt"

// Strided describes Count column-major matrices of Rows×Cols held in one
// slice: element (i, j) of matrix b is Data[b*Stride + j*LD + i].
// LD ≥ max(1, Rows) and Stride ≥ LD*Cols (or any value when Count ≤ 1).
type Strided[T any] struct {
	Data              []T
	Rows, Cols        int
	LD, Stride, Count int
}

// Matrix returns the elements of matrix b, from its (0, 0) element to its
// last element; the slice is short when the matrix is empty.
func (s Strided[T]) Matrix(b int) []T {
	n := s.Span()
	if n == 0 {
		return nil
	}
	off := b * s.Stride
	return s.Data[off : off+n]
}

// Span is the number of elements one matrix covers from (0, 0) to its last element.
func (s Strided[T]) Span() int {
	if s.Rows == 0 || s.Cols == 0 {
		return 0
	}
	return (s.Cols-1)*s.LD + s.Rows
}

// Need is the length Data must have to hold all Count matrices.
func (s Strided[T]) Need() int {
	if s.Count == 0 || s.Span() == 0 {
		return 0
	}
	return (s.Count-1)*s.Stride + s.Span()
}

// Check validates the layout and returns an error wrapping ErrShape that
// names the operand.
func (s Strided[T]) Check(name string) error {
	switch {
	case s.Rows < 0 || s.Cols < 0 || s.Count < 0:
		return fmt.Errorf("%w: %s is %d×%d×%d, sizes must not be negative", ErrShape, name, s.Rows, s.Cols, s.Count)
	case s.LD < max(1, s.Rows):
		return fmt.Errorf("%w: %s has leading dimension %d, must be at least %d", ErrShape, name, s.LD, max(1, s.Rows))
	case s.Count > 1 && s.Stride < s.LD*s.Cols:
		return fmt.Errorf("%w: %s has batch stride %d, must be at least ld·cols = %d", ErrShape, name, s.Stride, s.LD*s.Cols)
	case len(s.Data) < s.Need():
		return fmt.Errorf("%w: %s needs %d elements, has %d", ErrShape, name, s.Need(), len(s.Data))
	}
	return nil
}
