package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/npybatch"
)

// runOps are the ops `batchlas run` takes, with what each reads and writes.
var runOps = []struct{ name, doc string }{
	{"potrf", "-a A: the Cholesky factor of each A in -uplo's triangle, the other one zero"},
	{"potrs", "-a F -b B: X with A·X = B, F a factor from potrf (the same -uplo)"},
	{"posv", "-a A -b B: X with A·X = B, A Hermitian positive definite (its -uplo triangle is read)"},
	{"getrf", "-a A: L and U of P·A = L·U in one array (L's unit diagonal not stored); -pivots gets P"},
	{"gesv", "-a A -b B: X with A·X = B by LU with partial pivoting"},
	{"inv", "-a A: A⁻¹ by LU with partial pivoting"},
	{"gemm", "-a A -b B: A·B"},
}

type runArgs struct {
	op, a, b, out, info, pivots, uplo, device, route string
}

func runFlags(o *runArgs) *flag.FlagSet {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.StringVar(&o.a, "a", "", "the .npy file of A (required)")
	fs.StringVar(&o.b, "b", "", "the .npy file of B, for potrs, posv, gesv and gemm")
	fs.StringVar(&o.out, "o", "", "the .npy file to write the result to (required)")
	fs.StringVar(&o.info, "info", "", "write each matrix's status (int32, LAPACK's info: 0 for success) to this .npy file; failures then do not make the exit status 1")
	fs.StringVar(&o.pivots, "pivots", "", "getrf and gesv: write the row interchanges (int32, 1-based as LAPACK's ipiv) to this .npy file")
	fs.StringVar(&o.uplo, "uplo", "L", "triangle of potrf, potrs and posv: L (A = L·Lᴴ) or U (A = Uᴴ·U)")
	fs.StringVar(&o.device, "device", "auto", "auto (the first GPU, else the CPU), cpu, cpu:N (N workers), cuda or cuda:N")
	fs.StringVar(&o.route, "route", "", "pin the implementation, as batchlas.Route does (e.g. cpu, native, vendor:transposed); default: the routing tables")
	return fs
}

func runUsage(w io.Writer) {
	var o runArgs
	fs := runFlags(&o)
	fs.SetOutput(w)
	fmt.Fprintf(w, "Usage: batchlas run OP -a A.npy [-b B.npy] -o OUT.npy [flags]\n\n")
	fmt.Fprintf(w, "Runs one op on the matrices of NumPy .npy files and writes the result as\n")
	fmt.Fprintf(w, ".npy. An array of shape (rows, cols) is one matrix, (count, rows, cols) a\n")
	fmt.Fprintf(w, "batch; B may drop its last axis for one right-hand side a matrix: (n,) or\n")
	fmt.Fprintf(w, "(count, n). Either memory order is read; the result is written in C order\n")
	fmt.Fprintf(w, "with A's dtype (float32, float64, complex64 or complex128; B must match).\n")
	fmt.Fprintf(w, "Matrices are as NumPy indexes them, A[m, i, j] element (i, j) of matrix m.\n\n")
	fmt.Fprintf(w, "A matrix that fails (not positive definite, or exactly singular) is\n")
	fmt.Fprintf(w, "listed on stderr and the exit status is 1, unless -info is given; its\n")
	fmt.Fprintf(w, "result holds what LAPACK leaves (a factor up to the failing column; for a\n")
	fmt.Fprintf(w, "solve, B unchanged where the factorization failed).\n\nOps:\n")
	for _, op := range runOps {
		fmt.Fprintf(w, "  %-6s %s\n", op.name, op.doc)
	}
	fmt.Fprintf(w, "\nFlags:\n")
	fs.PrintDefaults()
	fmt.Fprintf(w, "\nExamples:\n  batchlas run potrf -a spd.npy -o chol.npy\n")
	fmt.Fprintf(w, "  batchlas run posv -a spd.npy -b rhs.npy -o x.npy -info info.npy -device cuda\n")
}

func runRun(args []string, stdout, stderr io.Writer) int {
	var o runArgs
	fs := runFlags(&o)
	fs.SetOutput(stderr)
	fs.Usage = func() { runUsage(stderr) }
	rest := args
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		o.op, rest = strings.ToLower(rest[0]), rest[1:]
	}
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "batchlas run: "+format+"\n", a...)
		return exitUsage
	}
	needB := map[string]bool{"potrs": true, "posv": true, "gesv": true, "gemm": true}
	switch {
	case o.op == "":
		return usageErr("no op given (want one of %s)", runOpNames())
	case !slices.ContainsFunc(runOps, func(r struct{ name, doc string }) bool { return r.name == o.op }):
		return usageErr("unknown op %q (want one of %s)", o.op, runOpNames())
	case fs.NArg() > 0:
		return usageErr("unexpected argument %q (flags go after the op)", fs.Arg(0))
	case o.a == "" || o.out == "":
		return usageErr("%s needs -a and -o", o.op)
	case needB[o.op] && o.b == "":
		return usageErr("%s needs -b", o.op)
	case !needB[o.op] && o.b != "":
		return usageErr("%s takes no -b", o.op)
	case o.pivots != "" && o.op != "getrf" && o.op != "gesv":
		return usageErr("-pivots is for getrf and gesv, not %s", o.op)
	case o.info != "" && (o.op == "potrs" || o.op == "gemm"):
		return usageErr("-info is for the ops that factor, not %s", o.op)
	}
	switch o.uplo = strings.ToUpper(o.uplo); o.uplo {
	case "L", "U":
	default:
		return usageErr("-uplo %q: want L or U", o.uplo)
	}
	dtype, err := npybatch.Dtype(o.a)
	if err != nil {
		fmt.Fprintf(stderr, "batchlas run: %v\n", err)
		return exitFailure
	}
	switch dtype {
	case "float32":
		return runTyped[float32](o, stderr)
	case "float64":
		return runTyped[float64](o, stderr)
	case "complex64":
		return runTyped[complex64](o, stderr)
	}
	return runTyped[complex128](o, stderr)
}

func runOpNames() string {
	var names []string
	for _, op := range runOps {
		names = append(names, op.name)
	}
	return strings.Join(names, ", ")
}

// operand is a .npy array seen as count rows×cols matrices, column-major.
type operand[T batchlas.Scalar] struct {
	shape             []int // the file's
	count, rows, cols int
	data              []T // packed column-major, matrix after matrix
}

// readMatrices reads path as one matrix (2 axes) or a batch (3); with
// vectors, one axis fewer is a column a matrix.
func readMatrices[T batchlas.Scalar](path string, vectors bool) (operand[T], error) {
	a, err := npybatch.Read[T](path)
	if err != nil {
		return operand[T]{}, err
	}
	o := operand[T]{shape: a.Shape, count: 1, cols: 1}
	switch s := a.Shape; {
	case len(s) == 3:
		o.count, o.rows, o.cols = s[0], s[1], s[2]
	case len(s) == 2 && vectors:
		o.count, o.rows = s[0], s[1]
	case len(s) == 2:
		o.rows, o.cols = s[0], s[1]
	case len(s) == 1 && vectors:
		o.rows = s[0]
	default:
		return operand[T]{}, fmt.Errorf("%s: shape %v, want (rows, cols) or (count, rows, cols)", path, a.Shape)
	}
	o.data = npybatch.ToColumnMajor(a.Data, o.count, o.rows, o.cols)
	return o, nil
}

// batched reports whether an array of shape is a batch (its first axis
// counts matrices) rather than one matrix: 3 axes, or 2 for a B of vectors.
func batched(shape []int, vectors bool) bool {
	return len(shape) == 3 || len(shape) == 2 && vectors
}

func runTyped[T batchlas.Scalar](o runArgs, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "batchlas run: %v\n", err)
		return exitFailure
	}
	a, err := readMatrices[T](o.a, false)
	if err != nil {
		return fail(err)
	}
	var b operand[T]
	vectors := o.op != "gemm"
	if o.b != "" {
		if b, err = readMatrices[T](o.b, vectors); err != nil {
			return fail(err)
		}
		if batched(a.shape, false) != batched(b.shape, vectors) || a.count != b.count {
			return fail(fmt.Errorf("A %s has shape %v and B %s %v: want as many matrices in each (3 axes, or 2 for a B of vectors, beside a batch)", o.a, a.shape, o.b, b.shape))
		}
	}
	switch o.op {
	case "potrf", "potrs", "posv", "gesv", "inv":
		if a.rows != a.cols {
			return fail(fmt.Errorf("%s: %s needs square matrices, not %d×%d", o.a, o.op, a.rows, a.cols))
		}
		if o.b != "" && b.rows != a.rows {
			return fail(fmt.Errorf("%s: B has %d rows, A is %d×%d", o.b, b.rows, a.rows, a.cols))
		}
	case "gemm":
		if b.rows != a.cols {
			return fail(fmt.Errorf("%s: B is %d×%d, A %d×%d: A's columns must be B's rows", o.b, b.rows, b.cols, a.rows, a.cols))
		}
	}

	dev, err := batchlas.OpenDevice(o.device)
	if err != nil {
		return fail(err)
	}
	q, err := dev.NewQueue()
	if err != nil {
		return fail(err)
	}
	defer q.Close()
	load := func(x operand[T]) (*batchlas.Batch[T], error) {
		bt, err := batchlas.NewBatch[T](dev, x.rows, x.cols, x.count)
		if err != nil {
			return nil, err
		}
		return bt, bt.Upload(q, x.data)
	}
	ab, err := load(a)
	if err != nil {
		return fail(err)
	}
	var bb *batchlas.Batch[T]
	if o.b != "" {
		if bb, err = load(b); err != nil {
			return fail(err)
		}
	}
	var opts []batchlas.CallOption
	if o.route != "" {
		opts = append(opts, batchlas.Route(o.route))
	}
	uplo := batchlas.Lower
	if o.uplo == "U" {
		uplo = batchlas.Upper
	}
	info, err := batchlas.NewInfo(dev, a.count)
	if err != nil {
		return fail(err)
	}
	var piv *batchlas.Pivots
	if o.op == "getrf" || o.op == "gesv" {
		if piv, err = batchlas.NewPivots(dev, min(a.rows, a.cols), a.count); err != nil {
			return fail(err)
		}
	}

	// result is the batch written to -o, with the file's shape.
	result, shape := ab, a.shape
	start := time.Now()
	switch o.op {
	case "potrf":
		err = batchlas.Potrf(q, uplo, ab, info, opts...)
	case "potrs":
		err = batchlas.Potrs(q, uplo, ab, bb, opts...)
		result, shape = bb, b.shape
	case "posv":
		err = batchlas.Posv(q, uplo, ab, bb, info, opts...)
		result, shape = bb, b.shape
	case "getrf":
		err = batchlas.Getrf(q, ab, piv, info, opts...)
	case "gesv":
		err = batchlas.Gesv(q, ab, piv, bb, info, opts...)
		result, shape = bb, b.shape
	case "inv":
		var c *batchlas.Batch[T]
		if c, err = batchlas.NewBatch[T](dev, a.rows, a.cols, a.count); err == nil {
			err = batchlas.Inv(q, ab, c, info, opts...)
		}
		result = c
	case "gemm":
		var c *batchlas.Batch[T]
		if c, err = batchlas.NewBatch[T](dev, a.rows, b.cols, a.count); err == nil {
			var one, zero T
			one = 1
			err = batchlas.Gemm(q, batchlas.NoTrans, batchlas.NoTrans, one, ab, bb, zero, c, opts...)
		}
		result = c
		shape = slices.Clone(a.shape)
		shape[len(shape)-1] = b.cols
	}
	if err == nil {
		err = q.Wait()
	}
	if err != nil {
		return fail(err)
	}
	elapsed := time.Since(start)

	out := make([]T, result.Rows()*result.Cols()*result.Count())
	if err := result.Download(q, out); err != nil {
		return fail(err)
	}
	if o.op == "potrf" {
		zeroOtherTriangle(out, a.count, a.rows, uplo)
	}
	arr := npybatch.Array[T]{Shape: shape, Data: npybatch.ToRowMajor(out, result.Count(), result.Rows(), result.Cols())}
	if err := npybatch.Write(o.out, arr); err != nil {
		return fail(err)
	}
	status, err := info.Values(q)
	if err != nil {
		return fail(err)
	}
	if o.info != "" {
		if err := npybatch.Write(o.info, npybatch.Array[int32]{Shape: []int{a.count}, Data: status}); err != nil {
			return fail(err)
		}
	}
	if piv != nil && o.pivots != "" {
		p, err := piv.Values(q)
		if err != nil {
			return fail(err)
		}
		pshape := []int{a.count, piv.Len()}
		if len(a.shape) == 2 {
			pshape = pshape[1:]
		}
		if err := npybatch.Write(o.pivots, npybatch.Array[int32]{Shape: pshape, Data: p}); err != nil {
			return fail(err)
		}
	}
	var failed []string
	for m, s := range status {
		if s != 0 {
			failed = append(failed, fmt.Sprintf("#%d (info %d)", m, s))
		}
	}
	fmt.Fprintf(stderr, "batchlas run: %s %s %d×%d×%d on %v: %d of %d failed, %v\n",
		o.op, core.TypeName[T](), a.count, a.rows, a.cols, dev, len(failed), a.count, elapsed.Round(time.Microsecond))
	if len(failed) > 0 && o.info == "" {
		const most = 20
		if len(failed) > most {
			failed = append(failed[:most], fmt.Sprintf("and %d more", len(failed)-most))
		}
		fmt.Fprintf(stderr, "batchlas run: failed: %s\n", strings.Join(failed, ", "))
		return exitFailure
	}
	return exitOK
}

// zeroOtherTriangle clears the strict triangle of each packed column-major
// n×n matrix that Potrf leaves as it was, so that the result is the factor
// alone (as numpy.linalg.cholesky gives it).
func zeroOtherTriangle[T batchlas.Scalar](a []T, count, n int, uplo batchlas.Uplo) {
	for m := range count {
		x := a[m*n*n:]
		for j := range n {
			for i := range n {
				if (uplo == batchlas.Lower && i < j) || (uplo == batchlas.Upper && i > j) {
					x[i+j*n] = 0
				}
			}
		}
	}
}
