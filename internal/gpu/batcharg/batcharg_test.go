package batcharg

import (
	"errors"
	"strings"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
)

func TestFactor(t *testing.T) {
	const a, info = cuda.DevicePtr(1 << 20), cuda.DevicePtr(1 << 24)
	if err := Factor("potrf", cuda.Float64, core.Lower, 100, a, 101, 10100, 5, info); err != nil {
		t.Fatalf("valid call refused: %v", err)
	}
	for name, tc := range map[string]struct {
		dt            cuda.DType
		uplo          core.Uplo
		n, lda, count int
		stride        int64
		a, info       cuda.DevicePtr
		want          error
	}{
		"bad uplo":        {cuda.Float64, core.Uplo(9), 4, 4, 2, 16, a, info, core.ErrArgument},
		"lda < n":         {cuda.Float64, core.Lower, 4, 3, 2, 16, a, info, core.ErrShape},
		"lda ≥ 2³¹":       {cuda.Float64, core.Lower, 4, 1 << 31, 1, 0, a, info, core.ErrShape},
		"stride < lda·n":  {cuda.Float64, core.Upper, 4, 5, 2, 19, a, info, core.ErrShape},
		"negative count":  {cuda.Float64, core.Lower, 4, 4, -1, 16, a, info, core.ErrShape},
		"count ≥ 2³¹":     {cuda.Float64, core.Lower, 4, 4, 1 << 31, 16, a, info, core.ErrShape},
		"null a":          {cuda.Float64, core.Lower, 4, 4, 2, 16, 0, info, core.ErrArgument},
		"null info":       {cuda.Float64, core.Lower, 4, 4, 2, 16, a, 0, core.ErrArgument},
		"misaligned a":    {cuda.Complex128, core.Lower, 4, 4, 2, 16, a + 8, info, core.ErrArgument},
		"misaligned info": {cuda.Float64, core.Lower, 4, 4, 2, 16, a, info + 2, core.ErrArgument},
	} {
		err := Factor("potrf: cta", tc.dt, tc.uplo, tc.n, tc.a, tc.lda, tc.stride, tc.count, tc.info)
		if !errors.Is(err, tc.want) || !strings.HasPrefix(err.Error(), tc.want.Error()+": potrf: cta: ") {
			t.Errorf("%s: %v, want %v from potrf: cta", name, err, tc.want)
		}
	}
	// Empty work needs no matrix; a batch of one any stride.
	for _, err := range []error{
		Factor("potrf", cuda.Float32, core.Lower, 0, 0, 1, 0, 3, info),
		Factor("potrf", cuda.Float32, core.Lower, 4, 0, 4, 0, 0, 0),
		Factor("potrf", cuda.Float64, core.Upper, 100, a, 100, 0, 1, info),
	} {
		if err != nil {
			t.Errorf("empty or single work refused: %v", err)
		}
	}
}

func TestElements(t *testing.T) {
	if err := Elements("posv", "b", cuda.Complex64, 1<<20+8); err != nil {
		t.Errorf("aligned complex64: %v", err)
	}
	if err := Elements("posv", "b", cuda.Complex128, 1<<20+8); !errors.Is(err, core.ErrArgument) || !strings.Contains(err.Error(), "posv: b = 0x100008 is not aligned to its 16-byte elements") {
		t.Errorf("misaligned complex128: %v", err)
	}
	if err := Elements("posv", "b", cuda.Float32, 0); !errors.Is(err, core.ErrArgument) || !strings.Contains(err.Error(), "b is a null pointer") {
		t.Errorf("null: %v", err)
	}
}
