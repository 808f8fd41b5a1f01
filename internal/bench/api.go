package bench

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/internal/core"
)

// The arms other than gonum run the op through the public API, as a user
// would: one call on the whole batch with batchlas.Route(pin), then
// Queue.Wait.

// cpuDevice opens the CPU device: -device cpu:N picks the number of workers.
func cpuDevice(cfg *Config) (*batchlas.Device, error) {
	spec := "cpu"
	if d := strings.ToLower(cfg.Device); strings.HasPrefix(d, "cpu") {
		spec = d
	}
	return batchlas.OpenDevice(spec)
}

// gpuDevice opens the GPU named by -device ("auto" means cuda), or says
// why it cannot as a *SkipError.
func gpuDevice(cfg *Config) (*batchlas.Device, error) {
	spec := strings.ToLower(cfg.Device)
	if spec == "" || spec == "auto" {
		spec = "cuda"
	}
	if strings.HasPrefix(spec, "cpu") {
		return nil, skipf("-device %s is not a GPU", cfg.Device)
	}
	dev, err := batchlas.OpenDevice(spec)
	if err != nil {
		return nil, skipf("%v", err)
	}
	return dev, nil
}

func setupCPU(cfg *Config, op *Op, in any, pin string) (runner, string, error) {
	dev, err := cpuDevice(cfg)
	if err != nil {
		return nil, "", err
	}
	return setupAPI(dev, op, in, pin)
}

func setupGPU(cfg *Config, op *Op, in any, pin string) (runner, string, error) {
	dev, err := gpuDevice(cfg)
	if err != nil {
		return nil, "", err
	}
	return setupAPI(dev, op, in, pin)
}

func setupAPI(dev *batchlas.Device, op *Op, in any, pin string) (runner, string, error) {
	var r runner
	var err error
	switch in := in.(type) {
	case *inputs[float32]:
		r, err = newAPIRunner(dev, op, in, pin)
	case *inputs[float64]:
		r, err = newAPIRunner(dev, op, in, pin)
	case *inputs[complex64]:
		r, err = newAPIRunner(dev, op, in, pin)
	case *inputs[complex128]:
		r, err = newAPIRunner(dev, op, in, pin)
	default:
		panic(fmt.Sprintf("bench: inputs of type %T", in))
	}
	if err != nil {
		return nil, "", unsupportedAsSkip(err)
	}
	return r, apiAbout(dev, pin), nil
}

// apiAbout describes a public-API arm for the header.
func apiAbout(dev *batchlas.Device, pin string) string {
	return fmt.Sprintf("batchlas %s (%s), public API, batchlas.Route(%q) on every call", dev, dev.Name(), pin)
}

// unsupportedAsSkip turns "this device cannot run this op" into a skip.
func unsupportedAsSkip(err error) error {
	if errors.Is(err, batchlas.ErrUnsupported) || errors.Is(err, batchlas.ErrNoDevice) {
		return &SkipError{Reason: err.Error()}
	}
	return err
}

type apiRunner[T core.Scalar] struct {
	op      *Op
	n, nrhs int
	q       *batchlas.Queue
	a, b, c *batchlas.Batch[T]
	pivots  *batchlas.Pivots
	info    *batchlas.Info
	pa, pb  []T // the pristine A and B to restore before each call; nil: none
	run     func() error

	// On a GPU the pristine A and B also live on the device, so restoring
	// is a device copy rather than an upload per call.
	da, db *batchlas.Batch[T]
}

func newAPIRunner[T core.Scalar](dev *batchlas.Device, op *Op, in *inputs[T], pin string) (_ *apiRunner[T], err error) {
	q, err := dev.NewQueue()
	if err != nil {
		return nil, err
	}
	r := &apiRunner[T]{op: op, n: in.n, nrhs: in.nrhs, q: q}
	defer func() {
		if err != nil {
			r.release()
		}
	}()
	n, count := in.n, in.count
	upload := func(rows, cols int, host []T) (*batchlas.Batch[T], error) {
		x, err := batchlas.NewBatch[T](dev, rows, cols, count)
		if err != nil {
			return nil, err
		}
		if host != nil {
			err = x.Upload(q, host)
		}
		return x, err
	}
	if r.a, err = upload(n, n, in.a); err != nil {
		return nil, err
	}
	switch {
	case op.RHS:
		if r.b, err = upload(n, in.nrhs, in.b); err != nil {
			return nil, err
		}
	case op.Name == "gemm":
		if r.b, err = upload(n, n, in.b); err != nil {
			return nil, err
		}
	}
	if op.Name == "inv" || op.Name == "gemm" || op.Name == "syrk" {
		if r.c, err = upload(n, n, nil); err != nil {
			return nil, err
		}
	}
	if r.info, err = batchlas.NewInfo(dev, count); err != nil {
		return nil, err
	}
	switch op.Name {
	case "getrf", "getrs", "gesv", "getri":
		if r.pivots, err = batchlas.NewPivots(dev, n, count); err != nil {
			return nil, err
		}
	}

	// Ops that start from a factorization get it here, untimed, on this
	// arm's device with routing auto: the pin is for the timed op, which may
	// have candidates the factorization lacks.
	auto := batchlas.Route("auto")
	switch op.Name {
	case "potrs":
		err = r.prepare("Potrf", func() error { return batchlas.Potrf(q, in.uplo, r.a, r.info, auto) })
	case "getrs", "getri":
		err = r.prepare("Getrf", func() error { return batchlas.Getrf(q, r.a, r.pivots, r.info, auto) })
	}
	if err != nil {
		return nil, err
	}

	a, b, c, piv, info, uplo := r.a, r.b, r.c, r.pivots, r.info, in.uplo
	route := batchlas.Route(pin)
	switch op.Name {
	case "potrf":
		r.pa = in.a
		r.run = func() error { return batchlas.Potrf(q, uplo, a, info, route) }
	case "potrs":
		r.pb = in.b
		r.run = func() error { return batchlas.Potrs(q, uplo, a, b, route) }
	case "posv":
		r.pa, r.pb = in.a, in.b
		r.run = func() error { return batchlas.Posv(q, uplo, a, b, info, route) }
	case "getrf":
		r.pa = in.a
		r.run = func() error { return batchlas.Getrf(q, a, piv, info, route) }
	case "getrs":
		r.pb = in.b
		r.run = func() error { return batchlas.Getrs(q, batchlas.NoTrans, a, piv, b, route) }
	case "gesv":
		r.pa, r.pb = in.a, in.b
		r.run = func() error { return batchlas.Gesv(q, a, piv, b, info, route) }
	case "getri":
		r.pa = make([]T, len(in.a))
		if err := a.Download(q, r.pa); err != nil {
			return nil, err
		}
		r.run = func() error { return batchlas.Getri(q, a, piv, info, route) }
	case "inv":
		r.run = func() error { return batchlas.Inv(q, a, c, info, route) }
	case "gemm":
		r.run = func() error { return batchlas.Gemm(q, batchlas.NoTrans, batchlas.NoTrans, 1, a, b, 0, c, route) }
	case "trsm":
		r.pb = in.b
		r.run = func() error {
			return batchlas.Trsm(q, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1, a, b, route)
		}
	case "syrk":
		r.run = func() error { return batchlas.Syrk(q, batchlas.Lower, batchlas.NoTrans, 1, a, 0, c, route) }
	default:
		return nil, fmt.Errorf("bench: no cpu arm for %s", op.Name)
	}
	if dev.Kind() == batchlas.CUDA {
		if r.pa != nil {
			if r.da, err = upload(n, n, r.pa); err != nil {
				return nil, err
			}
		}
		if r.pb != nil {
			if r.db, err = upload(r.b.Rows(), r.b.Cols(), r.pb); err != nil {
				return nil, err
			}
		}
	}
	return r, nil
}

// prepare runs an untimed factorization that the timed op starts from and
// insists that it succeeded on every matrix.
func (r *apiRunner[T]) prepare(what string, f func() error) error {
	if err := f(); err != nil {
		return err
	}
	if err := r.q.Wait(); err != nil {
		return err
	}
	failed, err := r.info.Failed(r.q)
	if err != nil {
		return err
	}
	if len(failed) > 0 {
		return fmt.Errorf("bench: the untimed %s failed on %d matrices, the first #%d", what, len(failed), failed[0])
	}
	return nil
}

func (r *apiRunner[T]) restore() error {
	if r.q.Device().Kind() == batchlas.CUDA {
		if r.da != nil {
			if err := batchlas.Copy(r.q, r.da, r.a); err != nil {
				return err
			}
		}
		if r.db != nil {
			return batchlas.Copy(r.q, r.db, r.b)
		}
		return nil
	}
	if r.pa != nil {
		if err := r.a.Upload(r.q, r.pa); err != nil {
			return err
		}
	}
	if r.pb != nil {
		if err := r.b.Upload(r.q, r.pb); err != nil {
			return err
		}
	}
	return nil
}

func (r *apiRunner[T]) call() error {
	if err := r.run(); err != nil {
		return err
	}
	return r.q.Wait()
}

// deviceTime times one call on a GPU as the device sees it: the L2 cache
// evicted first (so operands come from memory, as on a first call), CUDA
// events around the call, host launch cost not included unless it stalls
// the device. ok is false on the CPU, where the wall clock is used.
func (r *apiRunner[T]) deviceTime() (d time.Duration, ok bool, err error) {
	if r.q.Device().Kind() != batchlas.CUDA {
		return 0, false, nil
	}
	if err := r.q.EvictCache(); err != nil {
		return 0, true, err
	}
	start, err := r.q.Mark()
	if err != nil {
		return 0, true, err
	}
	defer start.Release()
	if err := r.run(); err != nil {
		return 0, true, err
	}
	end, err := r.q.Mark()
	if err != nil {
		return 0, true, err
	}
	defer end.Release()
	d, err = end.Since(start)
	if werr := r.q.Wait(); err == nil {
		err = werr
	}
	return d, true, err
}

func (r *apiRunner[T]) snapshot(idx []int) ([]result, []int32, error) {
	var pivots []int32
	if r.pivots != nil {
		var err error
		if pivots, err = r.pivots.Values(r.q); err != nil {
			return nil, nil, err
		}
	}
	out := make([]result, len(idx))
	for k, i := range idx {
		var err error
		o := &out[k]
		if o.a, err = downloadOne(r.q, r.a, i); err != nil {
			return nil, nil, err
		}
		if o.b, err = downloadOne(r.q, r.b, i); err != nil {
			return nil, nil, err
		}
		if o.c, err = downloadOne(r.q, r.c, i); err != nil {
			return nil, nil, err
		}
		if pivots != nil {
			o.pivots = pivots[i*r.n : (i+1)*r.n]
		}
	}
	switch r.op.Name {
	case "potrs", "getrs", "gemm", "trsm", "syrk":
		return out, nil, nil // these take no info
	}
	info, err := r.info.Values(r.q)
	return out, info, err
}

// downloadOne returns matrix i of x, widened; nil if x is.
func downloadOne[T core.Scalar](q *batchlas.Queue, x *batchlas.Batch[T], i int) ([]complex128, error) {
	if x == nil {
		return nil, nil
	}
	one, err := x.Slice(i, i+1)
	if err != nil {
		return nil, err
	}
	host := make([]T, x.Rows()*x.Cols())
	if err := one.Download(q, host); err != nil {
		return nil, err
	}
	return widen(host), nil
}

func (r *apiRunner[T]) release() {
	for _, x := range []*batchlas.Batch[T]{r.a, r.b, r.c} {
		if x != nil {
			x.Free()
		}
	}
	if r.q != nil {
		r.q.Close()
	}
}
