package cuda

import (
	"errors"
	"testing"
)

func TestKernelSets(t *testing.T) {
	var sets KernelSets[int]
	calls := 0
	fail := true
	load := func(c *Context, key int) ([]*Kernel, error) {
		calls++
		if fail {
			return nil, errors.New("no device")
		}
		return []*Kernel{{Name: "k", ctx: c}}, nil
	}
	c1, c2 := &Context{}, &Context{}
	if _, err := sets.Get(c1, 7, load); err == nil {
		t.Fatal("a failed load returned no error")
	}
	fail = false
	ks, err := sets.Get(c1, 7, load) // a failure is not remembered
	if err != nil || len(ks) != 1 || ks[0].ctx != c1 || calls != 2 {
		t.Fatalf("Get = %v, %v after %d loads", ks, err, calls)
	}
	if again, _ := sets.Get(c1, 7, load); calls != 2 || again[0] != ks[0] {
		t.Errorf("the second Get loaded again (%d loads)", calls)
	}
	if other, _ := sets.Get(c2, 7, load); calls != 3 || other[0] == ks[0] {
		t.Errorf("another context shares the set (%d loads)", calls)
	}
	if _, _ = sets.Get(c1, 8, load); calls != 4 {
		t.Errorf("another key shares the set (%d loads)", calls)
	}
}
