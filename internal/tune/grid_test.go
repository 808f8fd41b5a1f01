package tune

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/batchlas/batchlas/internal/route"
)

func TestParseInts(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int
	}{
		{"8", []int{8}},
		{"1:4", []int{1, 2, 3, 4}},
		{"8:1024:x2", []int{8, 16, 32, 64, 128, 256, 512, 1024}},
		{"8:1000:x2", []int{8, 16, 32, 64, 128, 256, 512}},
		{"1:100:x10", []int{1, 10, 100}},
		{"16:64:+16", []int{16, 32, 48, 64}},
		{"5:5", []int{5}},
		{"64, 1:3 ,2,8:32:x2", []int{1, 2, 3, 8, 16, 32, 64}},
	} {
		got, err := ParseInts(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseInts(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"", "empty item"},
		{"8,,16", "empty item"},
		{"0", `"0" is not an integer ≥ 1`},
		{"-3", "not an integer"},
		{"x", "not an integer"},
		{"4:2", "ends below its start"},
		{"1:8:x1", "a factor is at least 2"},
		{"1:8:+0", "a step is at least 1"},
		{"1:8:2", `step "2": want xF`},
		{"1:8:x", `step "x"`},
		{"1:2:3:4", "want N, A:B"},
		{"1:100000", "more than 10000 values"},
		{"1:9000,1:9000:+1,20000:29000", "more than 10000 values"},
	} {
		if _, err := ParseInts(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseInts(%q): err = %v, want %q", c.in, err, c.want)
		}
	}
}

func TestParseWords(t *testing.T) {
	got, err := ParseWords("U,L,U", []string{"L", "U"})
	if err != nil || !slices.Equal(got, []string{"L", "U"}) {
		t.Errorf("got %v, %v", got, err)
	}
	if _, err := ParseWords("L,X", []string{"L", "U"}); err == nil || !strings.Contains(err.Error(), `"X": want a comma list of L, U`) {
		t.Errorf("err = %v", err)
	}
}

func builtin(t *testing.T, name string) *route.Op {
	t.Helper()
	for _, op := range route.Builtin() {
		if op.Name == name {
			return op
		}
	}
	t.Fatalf("no built-in op %s", name)
	return nil
}

func pointTexts(op *route.Op, ps []Point) []string {
	var s []string
	for _, p := range ps {
		s = append(s, p.Text(op))
	}
	return s
}

func TestGridPoints(t *testing.T) {
	potrf := builtin(t, "potrf")
	g := Grid{DTypes: []string{"float32", "float64"}, N: []int{8, 16}, Batch: []int{64}, Uplo: []string{"L", "U"}}
	if err := g.Validate(potrf); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"float32 uplo=L n=8 batch=64", "float32 uplo=L n=16 batch=64", "float32 uplo=U n=8 batch=64", "float32 uplo=U n=16 batch=64",
		"float64 uplo=L n=8 batch=64", "float64 uplo=L n=16 batch=64", "float64 uplo=U n=8 batch=64", "float64 uplo=U n=16 batch=64",
	}
	if got := pointTexts(potrf, g.Points(potrf)); !slices.Equal(got, want) {
		t.Errorf("potrf points:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Defaults: uplo L; trsm's nrhs is n, gemm's m and k are n, and the
	// other exact keys take their first value.
	g = Grid{DTypes: []string{"float64"}, N: []int{4}, Batch: []int{2}}
	for op, want := range map[string]string{
		"potrf": "float64 uplo=L n=4 batch=2",
		"potrs": "float64 uplo=L n=4 nrhs=1 batch=2",
		"trsm":  "float64 side=L uplo=L trans=N n=4 nrhs=4 batch=2",
		"gemm":  "float64 trans=N transb=N m=4 n=4 k=4 batch=2",
		"getrf": "float64 m=4 n=4 batch=2",
		"syrk":  "float64 uplo=L trans=N n=4 k=4 batch=2",
	} {
		o := builtin(t, op)
		if err := g.Validate(o); err != nil {
			t.Fatal(err)
		}
		if got := pointTexts(o, g.Points(o)); !slices.Equal(got, []string{want}) {
			t.Errorf("%s: %v, want %s", op, got, want)
		}
	}
	// A listed nrhs or m replaces the default.
	g = Grid{DTypes: []string{"float64"}, N: []int{4}, Batch: []int{2}, NRHS: []int{1, 3}}
	if got := pointTexts(builtin(t, "trsm"), g.Points(builtin(t, "trsm"))); !slices.Equal(got, []string{
		"float64 side=L uplo=L trans=N n=4 nrhs=1 batch=2", "float64 side=L uplo=L trans=N n=4 nrhs=3 batch=2"}) {
		t.Errorf("trsm nrhs list: %v", got)
	}
}

func TestGridValidate(t *testing.T) {
	potrf := builtin(t, "potrf")
	for _, c := range []struct {
		g    Grid
		want string
	}{
		{Grid{N: []int{8}, Batch: []int{8}}, "no dtype"},
		{Grid{DTypes: []string{"float16"}, N: []int{8}, Batch: []int{8}}, `dtype "float16"`},
		{Grid{DTypes: []string{"float32"}, Batch: []int{8}}, "--n: no values given"},
		{Grid{DTypes: []string{"float32"}, N: []int{8}}, "--batch: no values given"},
		{Grid{DTypes: []string{"float32"}, N: []int{8}, Batch: []int{8}, NRHS: []int{2}}, "--nrhs: potrf has no nrhs key (its keys: uplo n batch)"},
		{Grid{DTypes: []string{"float32"}, N: []int{8}, Batch: []int{8}, Trans: []string{"N"}}, "--trans: potrf has no trans key"},
		{Grid{DTypes: []string{"float32"}, N: []int{0}, Batch: []int{8}}, "--n 0"},
		{Grid{DTypes: []string{"float32"}, N: []int{8}, Batch: []int{8}, Uplo: []string{"X"}}, "--uplo X: want L, U"},
	} {
		err := c.g.Validate(potrf)
		if err == nil || !strings.Contains(err.Error(), c.want) || !IsUsage(err) {
			t.Errorf("%+v: err = %v, want a usage error with %q", c.g, err, c.want)
		}
	}
}

func TestGridMaxMiB(t *testing.T) {
	op, _ := route.New(route.Config{})
	potrf, _ := op.Op("potrf")
	g := Grid{DTypes: []string{"float32", "float64"}, N: []int{32, 1024}, Batch: []int{1, 1024}, MaxMiB: 64}
	var got []string
	for _, p := range g.Points(potrf) {
		got = append(got, fmt.Sprintf("%s n=%d b=%d", p.DType, p.N, p.Batch))
	}
	// 1024²·1024·4 B = 4 GiB is dropped; 32²·1024·8 B = 8 MiB and one
	// 1024² matrix (4 or 8 MiB) stay.
	want := []string{"float32 n=32 b=1", "float32 n=32 b=1024", "float32 n=1024 b=1",
		"float64 n=32 b=1", "float64 n=32 b=1024", "float64 n=1024 b=1"}
	if !slices.Equal(got, want) {
		t.Errorf("points %q, want %q", got, want)
	}
}
