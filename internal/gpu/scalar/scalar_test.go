package scalar

import (
	"strings"
	"testing"
)

func TestSource(t *testing.T) {
	src := Source("k.cu", "__global__ void k() {}\n")
	if src.Name != "k.cu" || !strings.HasPrefix(src.Code, Prelude()) ||
		!strings.HasSuffix(src.Code, "\n#line 1 \"k.cu\"\n__global__ void k() {}\n") {
		t.Errorf("Source = %q …", src.Name)
	}
	for _, want := range []string{"struct alignas(8) cfloat", "struct alignas(16) cdouble", "sub_mul_conj", "add_mul", "rsqrt_"} {
		if !strings.Contains(Prelude(), want) {
			t.Errorf("the prelude has no %s", want)
		}
	}
}
