package cuda

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
)

func TestSizeClass(t *testing.T) {
	prev := int64(0)
	for n := int64(1); n < 1<<30; n += 1 + n/37 {
		c := sizeClass(n)
		if c < n || c < prev || c%minBlockBytes != 0 {
			t.Fatalf("sizeClass(%d) = %d (previous class %d)", n, c, prev)
		}
		if n > 4*minBlockBytes && float64(c) > 1.25*float64(n) {
			t.Fatalf("sizeClass(%d) = %d wastes more than a quarter", n, c)
		}
		if sizeClass(c) != c {
			t.Fatalf("sizeClass is not idempotent at %d", c)
		}
		prev = c
	}
	if got := sizeClass(300<<20 + 1); got != 302<<20 {
		t.Errorf("sizeClass(300 MiB + 1) = %d, want the next 2 MiB page", got)
	}
	if got := sizeClass(1 << 50); got != 1<<50 {
		t.Errorf("sizeClass(1 PiB) = %d", got)
	}
}

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 7))
	b := make([]byte, n)
	for i := 0; i < n; i += 8 {
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], r.Uint64())
		copy(b[i:], w[:])
	}
	return b
}

func TestPoolReuse(t *testing.T) {
	c := rtContext(t)
	c.Trim()
	before := c.PoolStats()
	p, err := c.Alloc(1000)
	if err != nil {
		t.Fatal(err)
	}
	c.Free(p)
	c.Free(p) // a second free is ignored
	q, err := c.Alloc(1000)
	if err != nil {
		t.Fatal(err)
	}
	if q != p {
		t.Errorf("a freed block of the same class was not reused: %#x then %#x", p, q)
	}
	r, err := c.Alloc(1001) // the same 1 KiB class
	if err != nil {
		t.Fatal(err)
	}
	after := c.PoolStats()
	if after.DriverAllocs != before.DriverAllocs+2 || after.Reuses != before.Reuses+1 {
		t.Errorf("driver allocations %d → %d (want +2), reuses %d → %d (want +1)",
			before.DriverAllocs, after.DriverAllocs, before.Reuses, after.Reuses)
	}
	// Steady state: the same shapes again allocate nothing new from the driver.
	for range 100 {
		c.Free(q)
		c.Free(r)
		if q, err = c.Alloc(1000); err != nil {
			t.Fatal(err)
		}
		if r, err = c.Alloc(1000); err != nil {
			t.Fatal(err)
		}
	}
	if got := c.PoolStats().DriverAllocs; got != after.DriverAllocs {
		t.Errorf("steady state called cuMemAlloc %d more times", got-after.DriverAllocs)
	}
	c.Free(q)
	c.Free(r)
	if released := c.Trim(); released < 2*1024 {
		t.Errorf("Trim released %d bytes, want at least 2 KiB", released)
	}
	if st := c.PoolStats(); st.CachedBlocks != 0 || st.CachedBytes != 0 {
		t.Errorf("after Trim: %+v", st)
	}
	if p, err := c.Alloc(0); p != 0 || err != nil {
		t.Errorf("Alloc(0) = %#x, %v", p, err)
	}
	if _, err := c.Alloc(-1); !errors.Is(err, core.ErrArgument) {
		t.Errorf("Alloc(-1) = %v", err)
	}
}

func TestRoundTrip(t *testing.T) {
	c := rtContext(t)
	s := rtStream(t, c)
	for _, n := range []int{1, 7, 4096, stagingChunkBytes - 1, stagingChunkBytes, 3*stagingChunkBytes + 5} {
		src := randomBytes(n, uint64(n))
		a, err := c.Alloc(int64(n))
		if err != nil {
			t.Fatal(err)
		}
		b, err := c.Alloc(int64(n))
		if err != nil {
			t.Fatal(err)
		}
		if err := Upload(s, a, src); err != nil {
			t.Fatal(err)
		}
		if err := CopyDtoD(s, b, a, int64(n)); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, n)
		if err := Download(s, got, b); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, src) {
			t.Errorf("%d bytes: the round trip changed the data", n)
		}
		// Memset, then a typed round trip through float64.
		if err := Memset(s, b, 0xab, int64(n)); err != nil {
			t.Fatal(err)
		}
		if err := Download(s, got, b); err != nil {
			t.Fatal(err)
		}
		if bytes.Count(got, []byte{0xab}) != n {
			t.Errorf("%d bytes: Memset did not set every byte", n)
		}
		c.Free(a)
		c.Free(b)
	}

	// MemsetD32 and typed slices.
	d, err := c.Alloc(4000)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Free(d)
	if err := MemsetD32(s, d, 0x3f800000, 1000); err != nil {
		t.Fatal(err)
	}
	floats := make([]float32, 1000)
	if err := Download(s, floats, d); err != nil {
		t.Fatal(err)
	}
	for i, f := range floats {
		if f != 1 {
			t.Fatalf("MemsetD32: element %d = %v, want 1", i, f)
		}
	}
}

// TestCopy2D copies a 5×3 block between pitched layouts (lda 8, ldb 6) and
// checks it against the host equivalent, untouched padding included.
func TestCopy2D(t *testing.T) {
	c := rtContext(t)
	s := rtStream(t, c)
	const rows, cols, lda, ldb = 5, 3, 8, 6
	a := make([]float64, lda*cols)
	for i := range a {
		a[i] = float64(i) + 0.5
	}
	b := make([]float64, ldb*cols)
	for i := range b {
		b[i] = -1
	}
	da, _ := c.Alloc(int64(8 * len(a)))
	db, _ := c.Alloc(int64(8 * len(b)))
	defer c.Free(da)
	defer c.Free(db)
	if err := Upload(s, da, a); err != nil {
		t.Fatal(err)
	}
	if err := Upload(s, db, b); err != nil {
		t.Fatal(err)
	}
	if err := CopyDtoD2D(s, db, 8*ldb, da, 8*lda, 8*rows, cols); err != nil {
		t.Fatal(err)
	}
	got := make([]float64, len(b))
	if err := Download(s, got, db); err != nil {
		t.Fatal(err)
	}
	for j := range cols {
		for i := range rows {
			b[j*ldb+i] = a[j*lda+i]
		}
	}
	for i := range b {
		if got[i] != b[i] {
			t.Fatalf("element %d = %v, want %v", i, got[i], b[i])
		}
	}
	if err := CopyDtoD2D(s, db, 8, da, 8*lda, 16, 2); !errors.Is(err, core.ErrArgument) {
		t.Errorf("a pitch below the width: %v", err)
	}
}

func TestPinnedAsync(t *testing.T) {
	c := rtContext(t)
	s := rtStream(t, c)
	const n = 1 << 20
	h, err := c.AllocHost(n)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Free()
	src := randomBytes(n, 3)
	copy(h.Bytes(), src)
	d, err := c.Alloc(n)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Free(d)
	if err := CopyHtoDAsync(s, d, h, 0, n); err != nil {
		t.Fatal(err)
	}
	if err := Memset(s, d, 0, 16); err != nil {
		t.Fatal(err)
	}
	if err := CopyDtoHAsync(s, h, 0, d, n); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	want := append(make([]byte, 16), src[16:]...)
	if !bytes.Equal(h.Bytes(), want) {
		t.Errorf("pinned round trip changed the data")
	}
	if v := HostView[uint64](h); len(v) != n/8 {
		t.Errorf("HostView length %d", len(v))
	}
	if err := CopyHtoDAsync(s, d, h, n-4, 8); !errors.Is(err, core.ErrArgument) {
		t.Errorf("a copy past the pinned buffer: %v", err)
	}
}

// TestOutOfMemory asks for more than the device has: the error wraps
// core.ErrOutOfMemory and the device keeps working.
func TestOutOfMemory(t *testing.T) {
	c := rtContext(t)
	s := rtStream(t, c)
	if _, err := c.Alloc(1 << 50); !errors.Is(err, core.ErrOutOfMemory) {
		t.Fatalf("Alloc(1 PiB) = %v, want ErrOutOfMemory", err)
	}
	// Within the device's size but beyond what is free (with the pool's
	// cache given back first, so the retry cannot succeed): the driver refuses.
	c.Trim()
	free, total, err := c.MemoryInfo()
	if err != nil {
		t.Fatal(err)
	}
	if ask := free + 64<<20; ask <= total {
		_, err := c.Alloc(ask)
		if !errors.Is(err, core.ErrOutOfMemory) || !errors.Is(err, StatusOutOfMemory) {
			t.Fatalf("Alloc(free + 64 MiB = %d) = %v, want ErrOutOfMemory from the driver", ask, err)
		}
		t.Logf("driver refusal: %v", err)
	}
	p, err := c.Alloc(1 << 20)
	if err != nil {
		t.Fatalf("after an out-of-memory error a 1 MiB allocation failed: %v", err)
	}
	defer c.Free(p)
	src := randomBytes(1<<20, 9)
	got := make([]byte, 1<<20)
	if err := Upload(s, p, src); err != nil {
		t.Fatal(err)
	}
	if err := Download(s, got, p); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, src) {
		t.Errorf("the device does not work after an out-of-memory error")
	}
}
