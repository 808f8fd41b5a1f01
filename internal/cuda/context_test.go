package cuda

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
	"unsafe"
)

// TestConcurrentWork runs many goroutines at once, each with its own
// stream, allocating, uploading, copying with a kernel (plain device copy
// where NVRTC is missing), downloading and freeing. Goroutines move between
// OS threads, so this fails if any path forgets to make the context current.
func TestConcurrentWork(t *testing.T) {
	c := rtContext(t)
	_, _, nvrtcErr := NVRTCVersion()
	if nvrtcErr != nil {
		t.Logf("NVRTC missing, copying without a kernel: %v", nvrtcErr)
	} else if _, err := copyKernel(c, 4); err != nil { // compile once, before the crowd
		t.Fatal(err)
	}
	const goroutines, rounds = 16, 12
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := range goroutines {
		wg.Go(func() {
			errs <- func() error {
				s, err := c.NewStream()
				if err != nil {
					return err
				}
				defer s.Destroy()
				// Multi-chunk copies from every goroutine at once exhaust the
				// staging chunks: this deadlocks or corrupts if their hand-over is wrong.
				big := randomBytes(2*stagingChunkBytes+4096*g+8, uint64(g))
				d, err := c.Alloc(int64(len(big)))
				if err != nil {
					return err
				}
				back := make([]byte, len(big))
				if err := Upload(s, d, big); err != nil {
					return err
				}
				if err := Download(s, back, d); err != nil {
					return err
				}
				c.Free(d)
				if !bytes.Equal(back, big) {
					return fmt.Errorf("goroutine %d: a %d-byte round trip changed the data", g, len(big))
				}
				for r := range rounds {
					rows, cols, count := 3+g, 2+r, 1+(g*r)%9
					n := rows * cols * count
					src := make([]float32, n)
					for i := range src {
						src[i] = float32(g*1000000 + r*10000 + i)
					}
					a, err := c.Alloc(int64(4 * n))
					if err != nil {
						return err
					}
					b, err := c.Alloc(int64(4 * n))
					if err != nil {
						return err
					}
					if err := Upload(s, a, src); err != nil {
						return err
					}
					if nvrtcErr == nil {
						err = CopyMatrices[float32](s, MatrixCopy{Rows: rows, Cols: cols, Count: count,
							A: a, LDA: rows, StrideA: int64(rows * cols), B: b, LDB: rows, StrideB: int64(rows * cols)})
					} else {
						err = CopyDtoD(s, b, a, int64(4*n))
					}
					if err != nil {
						return err
					}
					got := make([]float32, n)
					if err := Download(s, got, b); err != nil {
						return err
					}
					c.Free(a)
					c.Free(b)
					for i := range got {
						if got[i] != src[i] {
							return fmt.Errorf("goroutine %d round %d: element %d = %v, want %v", g, r, i, got[i], src[i])
						}
					}
				}
				return nil
			}()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func TestNestedDo(t *testing.T) {
	c := rtContext(t)
	depth := 0
	err := c.Do(func() error {
		depth++
		return c.Do(func() error {
			depth++
			var cur uintptr
			callp(c.d.cuCtxGetCurrent, uintptr(unsafe.Pointer(&cur)))
			if cur != c.handle {
				return fmt.Errorf("inner Do: current context %#x, want %#x", cur, c.handle)
			}
			return nil
		})
	})
	if err != nil || depth != 2 {
		t.Fatalf("nested Do: depth %d, %v", depth, err)
	}
}

func TestEventsAndStreams(t *testing.T) {
	c := rtContext(t)
	s := rtStream(t, c)
	start, err := c.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	defer start.Destroy()
	end, err := c.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	defer end.Destroy()
	const n = 256 << 20
	p, err := c.Alloc(n)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Free(p)
	if err := start.Record(s); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		if err := Memset(s, p, 1, n); err != nil {
			t.Fatal(err)
		}
	}
	if err := end.Record(s); err != nil {
		t.Fatal(err)
	}
	ms, err := ElapsedMs(start, end)
	if err != nil {
		t.Fatal(err)
	}
	if ms <= 0 || ms > 10000 {
		t.Errorf("ElapsedMs = %v for 1 GiB of memset", ms)
	}
	t.Logf("4 × 256 MiB memset: %.3f ms (%.0f GB/s)", ms, 4*n/float64(ms)/1e6)
	if done, err := end.Done(); err != nil || !done {
		t.Errorf("end.Done() = %v, %v after ElapsedMs", done, err)
	}

	// One stream waits for an event of another.
	s2 := rtStream(t, c)
	if err := Memset(s, p, 2, n); err != nil {
		t.Fatal(err)
	}
	if err := end.Record(s); err != nil {
		t.Fatal(err)
	}
	if err := s2.Wait(end); err != nil {
		t.Fatal(err)
	}
	if err := Memset(s2, p, 3, 1); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 2)
	if err := Download(s2, got, p); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, []byte{3, 2}) {
		t.Errorf("stream order across an event: got %v, want [3 2]", got)
	}
	if done, err := s.Done(); err != nil || !done {
		t.Errorf("s.Done() = %v, %v", done, err)
	}
	if err := c.Synchronize(); err != nil {
		t.Fatal(err)
	}
}
