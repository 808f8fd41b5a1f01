// Package matbatch moves matrices between gonum's mat types and batchlas
// batches, for programs that hold their problems as gonum matrices: a
// []*mat.SymDense of covariances goes up as one batch, and the batch's
// Cholesky factors come back as []*mat.Cholesky.
//
// gonum stores matrices row-major and batchlas column-major, so every
// transfer packs or unpacks through a host buffer of the batch's size. The
// float64 functions take gonum's real types; UploadC and DownloadC its
// complex128 ones. gonum has no float32 or complex64 matrices.
package matbatch

import (
	"fmt"
	"reflect"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/batchlas/batchlas"
)

// Upload copies ms into b, ms[k] into matrix k: len(ms) must be b.Count()
// and every matrix b.Rows()×b.Cols() (or empty, where the batch's matrices
// have no element: gonum has no 0×c matrix). *mat.Dense, *mat.SymDense,
// *mat.TriDense and *mat.VecDense are read from their storage, any other
// mat.Matrix (a mat.Transpose, say) element by element. The copy is taken
// before Upload returns, as for Batch.Upload.
func Upload[M mat.Matrix](q *batchlas.Queue, b *batchlas.Batch[float64], ms []M) error {
	if err := checkMatrices("matbatch.Upload", b, ms); err != nil {
		return err
	}
	rows, cols := b.Rows(), b.Cols()
	host := make([]float64, rows*cols*len(ms))
	for k, m := range ms {
		packReal(host[k*rows*cols:(k+1)*rows*cols], rows, cols, m)
	}
	return b.Upload(q, host)
}

// packReal writes m, rows×cols, column-major into dst.
func packReal(dst []float64, rows, cols int, m mat.Matrix) {
	if rows*cols == 0 {
		return // m may be any empty matrix (checkMatrices)
	}
	switch v := any(m).(type) {
	case *mat.Dense:
		raw := v.RawMatrix()
		fromRowMajor(dst, rows, cols, raw.Data, raw.Stride)
	case *mat.SymDense:
		raw := v.RawSymmetric()
		for i := range rows {
			for j := range cols {
				if (j >= i) == (raw.Uplo == blas.Upper) || i == j {
					x := raw.Data[i*raw.Stride+j]
					dst[j*rows+i], dst[i*rows+j] = x, x
				}
			}
		}
	case *mat.TriDense:
		raw := v.RawTriangular()
		for i := range rows {
			for j := range cols {
				switch {
				case i == j && raw.Diag == blas.Unit:
					dst[j*rows+i] = 1
				case i == j || (j > i) == (raw.Uplo == blas.Upper):
					dst[j*rows+i] = raw.Data[i*raw.Stride+j]
				default:
					dst[j*rows+i] = 0
				}
			}
		}
	case *mat.VecDense:
		raw := v.RawVector()
		for i := range rows {
			dst[i] = raw.Data[i*raw.Inc]
		}
	default:
		for j := range cols {
			for i := range rows {
				dst[j*rows+i] = m.At(i, j)
			}
		}
	}
}

// UploadC is Upload for complex128: *mat.CDense is read from its storage,
// any other mat.CMatrix (a mat.ConjTranspose, say) element by element.
func UploadC[M mat.CMatrix](q *batchlas.Queue, b *batchlas.Batch[complex128], ms []M) error {
	if err := checkMatrices("matbatch.UploadC", b, ms); err != nil {
		return err
	}
	rows, cols := b.Rows(), b.Cols()
	host := make([]complex128, rows*cols*len(ms))
	for k, m := range ms {
		dst := host[k*rows*cols : (k+1)*rows*cols]
		if v, ok := any(m).(*mat.CDense); ok {
			raw := v.RawCMatrix()
			fromRowMajor(dst, rows, cols, raw.Data, raw.Stride)
			continue
		}
		for j := range cols {
			for i := range rows {
				dst[j*rows+i] = m.At(i, j)
			}
		}
	}
	return b.Upload(q, host)
}

// Download copies b's matrices into dst and returns it, dst[k] holding
// matrix k, after the work enqueued on q so far has finished. dst may be
// nil: it is extended to b.Count() entries, and an entry that is nil or
// not b.Rows()×b.Cols() is replaced by a new matrix (an empty one where
// the batch's matrices have no element). Passing the previous result back
// reuses its matrices.
func Download(q *batchlas.Queue, b *batchlas.Batch[float64], dst []*mat.Dense) ([]*mat.Dense, error) {
	return downloadGeneral(q, b, dst, "matbatch.Download", (*mat.Dense).Dims, func(m *mat.Dense) ([]float64, int) {
		raw := m.RawMatrix()
		return raw.Data, raw.Stride
	}, func(r, c int) *mat.Dense { return mat.NewDense(r, c, nil) })
}

// DownloadC is Download for complex128.
func DownloadC(q *batchlas.Queue, b *batchlas.Batch[complex128], dst []*mat.CDense) ([]*mat.CDense, error) {
	return downloadGeneral(q, b, dst, "matbatch.DownloadC", (*mat.CDense).Dims, func(m *mat.CDense) ([]complex128, int) {
		raw := m.RawCMatrix()
		return raw.Data, raw.Stride
	}, func(r, c int) *mat.CDense { return mat.NewCDense(r, c, nil) })
}

// downloadGeneral is Download for a gonum type M of general matrices of T,
// given its size, its row-major storage and its constructor.
func downloadGeneral[T batchlas.Scalar, M any](q *batchlas.Queue, b *batchlas.Batch[T], dst []*M, op string,
	dims func(*M) (int, int), storage func(*M) ([]T, int), fresh func(rows, cols int) *M) ([]*M, error) {
	host, err := download(q, b, op)
	if err != nil {
		return dst, err
	}
	rows, cols := b.Rows(), b.Cols()
	dst = fit(dst, b.Count(), func(m *M) bool {
		r, c := dims(m)
		return r == rows && c == cols
	}, func() *M {
		if rows == 0 || cols == 0 {
			return new(M) // gonum's empty matrix
		}
		return fresh(rows, cols)
	})
	if rows == 0 || cols == 0 {
		return dst, nil
	}
	for k, m := range dst {
		data, stride := storage(m)
		src := host[k*rows*cols : (k+1)*rows*cols]
		for i := range rows {
			row := data[i*stride : i*stride+cols]
			for j := range row {
				row[j] = src[j*rows+i]
			}
		}
	}
	return dst, nil
}

// fromRowMajor writes the rows×cols matrix stored row-major in data with
// row stride stride into dst, column-major.
func fromRowMajor[T any](dst []T, rows, cols int, data []T, stride int) {
	for i := range rows {
		for j, x := range data[i*stride : i*stride+cols] {
			dst[j*rows+i] = x
		}
	}
}

// DownloadSym copies the uplo triangle of b's square matrices into dst as
// symmetric matrices, as Download does (the other triangle is not read:
// Syrk writes only one), and returns it.
func DownloadSym(q *batchlas.Queue, b *batchlas.Batch[float64], uplo batchlas.Uplo, dst []*mat.SymDense) ([]*mat.SymDense, error) {
	const op = "matbatch.DownloadSym"
	if err := checkSquare(op, b, uplo); err != nil {
		return dst, err
	}
	host, err := download(q, b, op)
	if err != nil {
		return dst, err
	}
	n := b.Rows()
	dst = fit(dst, b.Count(), func(s *mat.SymDense) bool { return s.SymmetricDim() == n }, func() *mat.SymDense {
		if n == 0 {
			return &mat.SymDense{}
		}
		return mat.NewSymDense(n, nil)
	})
	for k, s := range dst {
		eachUpper(host[k*n*n:(k+1)*n*n], n, uplo, s.SetSym)
	}
	return dst, nil
}

// eachUpper calls set(i, j, x) for i ≤ j, x element (i, j) of the n×n
// column-major src read from its uplo triangle: at (i, j), or for Lower
// at (j, i), the same element of a symmetric matrix and Uᵀ's of L = Uᵀ.
func eachUpper(src []float64, n int, uplo batchlas.Uplo, set func(i, j int, x float64)) {
	for j := range n {
		for i := range j + 1 {
			if uplo == batchlas.Lower {
				set(i, j, src[i*n+j])
			} else {
				set(i, j, src[j*n+i])
			}
		}
	}
}

// Cholesky returns the Cholesky factorizations that Potrf left in the uplo
// triangle of b's matrices, as gonum values (for their solves,
// determinants and condition estimates): entry k is nil where info, the
// Info that Potrf was given, reports matrix k failed.
func Cholesky(q *batchlas.Queue, b *batchlas.Batch[float64], uplo batchlas.Uplo, info *batchlas.Info) ([]*mat.Cholesky, error) {
	const op = "matbatch.Cholesky"
	if err := checkSquare(op, b, uplo); err != nil {
		return nil, err
	}
	switch {
	case info == nil:
		return nil, argErr(batchlas.ErrArgument, op, "info", "is nil: the statuses say which factors are valid")
	case info.Len() != b.Count():
		return nil, argErr(batchlas.ErrShape, op, "info", "has %d statuses for a batch of %d", info.Len(), b.Count())
	}
	status, err := info.Values(q)
	if err != nil {
		return nil, err
	}
	host, err := download(q, b, op)
	if err != nil {
		return nil, err
	}
	n := b.Rows()
	chols := make([]*mat.Cholesky, b.Count())
	for k := range chols {
		if status[k] != 0 {
			continue
		}
		chols[k] = &mat.Cholesky{}
		if n == 0 {
			continue
		}
		u := mat.NewTriDense(n, mat.Upper, nil)
		eachUpper(host[k*n*n:(k+1)*n*n], n, uplo, u.SetTri)
		chols[k].SetFromU(u)
	}
	return chols, nil
}

// download checks b and copies it to a packed host slice.
func download[T batchlas.Scalar](q *batchlas.Queue, b *batchlas.Batch[T], op string) ([]T, error) {
	if b == nil {
		return nil, argErr(batchlas.ErrArgument, op, "b", "is nil")
	}
	host := make([]T, b.Rows()*b.Cols()*b.Count())
	if err := b.Download(q, host); err != nil {
		return nil, err
	}
	return host, nil
}

// checkMatrices checks that b is not nil and that ms match its count and
// shape.
func checkMatrices[T batchlas.Scalar, M interface{ Dims() (int, int) }](op string, b *batchlas.Batch[T], ms []M) error {
	if b == nil {
		return argErr(batchlas.ErrArgument, op, "b", "is nil")
	}
	if len(ms) != b.Count() {
		return argErr(batchlas.ErrShape, op, "ms", "has %d matrices for a batch of %d", len(ms), b.Count())
	}
	for k, m := range ms {
		arg := fmt.Sprintf("ms[%d]", k)
		if isNil(m) {
			return argErr(batchlas.ErrArgument, op, arg, "is nil")
		}
		// gonum has no 0×c matrix: any empty one stands for one.
		if r, c := m.Dims(); (r != b.Rows() || c != b.Cols()) && (r*c != 0 || b.Rows()*b.Cols() != 0) {
			return argErr(batchlas.ErrShape, op, arg, "is %d×%d, the batch's matrices %d×%d", r, c, b.Rows(), b.Cols())
		}
	}
	return nil
}

// checkSquare checks that b is not nil, its matrices square, and uplo valid.
func checkSquare(op string, b *batchlas.Batch[float64], uplo batchlas.Uplo) error {
	switch {
	case b == nil:
		return argErr(batchlas.ErrArgument, op, "b", "is nil")
	case b.Rows() != b.Cols():
		return argErr(batchlas.ErrShape, op, "b", "has %d×%d matrices, not square ones", b.Rows(), b.Cols())
	case uplo != batchlas.Lower && uplo != batchlas.Upper:
		return argErr(batchlas.ErrArgument, op, "uplo", "is %v, not Lower or Upper", uplo)
	}
	return nil
}

// fit returns dst with count entries, each kept where ok says it fits and
// made by fresh otherwise.
func fit[M any](dst []*M, count int, ok func(*M) bool, fresh func() *M) []*M {
	if len(dst) > count {
		dst = dst[:count]
	}
	for len(dst) < count {
		dst = append(dst, nil)
	}
	for k, m := range dst {
		if m == nil || !ok(m) {
			dst[k] = fresh()
		}
	}
	return dst
}

// isNil reports whether m is a nil interface or a nil pointer in one.
func isNil(m any) bool {
	v := reflect.ValueOf(m)
	return !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil()
}

// argErr is a batchlas.ArgError, which errors.Is matches with kind.
func argErr(kind error, op, arg, format string, args ...any) error {
	return &batchlas.ArgError{Op: op, Arg: arg, Msg: fmt.Sprintf(format, args...), Kind: kind}
}
