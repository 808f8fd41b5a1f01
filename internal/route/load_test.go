package route

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// TestLoadErrors: in the embedded folder (an fs.FS with index.txt, as
// tuned/ is) and in a BATCHLAS_TUNED_DIR folder with an index alike, a
// table removed, a table added without its index line, and a malformed row
// each fail at load with a *TableError naming the file and, for a row or an
// index line, the line.
func TestLoadErrors(t *testing.T) {
	type folder = map[string]string
	read := func() folder {
		f := folder{}
		for name, file := range basicFS(t) {
			f[name] = string(file.Data)
		}
		return f
	}
	// trsm.float64.sm_90.txt: rows on lines 8-11; index.txt lists it on line 6.
	const trsmFile = "trsm.float64.sm_90.txt"
	cases := []struct {
		name   string
		change func(folder)
		file   string // the file the error names, relative to the folder
		line   int
		msg    string
	}{
		{"table removed", func(f folder) { delete(f, trsmFile) },
			IndexFile, 6, "lists trsm.float64.sm_90.txt, which is missing"},
		{"table not listed", func(f folder) {
			f[IndexFile] = strings.Replace(f[IndexFile], trsmFile+"\n", "", 1)
		}, trsmFile, 0, "not listed in"},
		{"malformed row", func(f folder) {
			f[trsmFile] = strings.Replace(f[trsmFile], "R  N  16   16  1000   native:small 7   vendor 7.1", "R  N  16", 1)
		}, trsmFile, 10, "row has 3 fields, the keys line names 5 keys"},
		{"row with an unknown candidate", func(f folder) {
			f[trsmFile] = strings.Replace(f[trsmFile], "vendor 50", "native:huge 50", 1)
		}, trsmFile, 11, "trsm has no candidate native:huge"},
		{"times out of order", func(f folder) {
			f[trsmFile] = strings.Replace(f[trsmFile], "vendor 8 ", "vendor 10 ", 1)
		}, trsmFile, 9, "native:small 9 is faster than vendor 10 before it"},
	}
	check := func(t *testing.T, err error, where string, wantLine int, msg string) {
		t.Helper()
		var te *TableError
		if !errors.As(err, &te) {
			t.Fatalf("err = %v, want a *TableError", err)
		}
		found := false
		for _, e := range unjoin(err) {
			if errors.As(e, &te) && te.File == where && te.Line == wantLine && strings.Contains(te.Msg, msg) {
				found = true
			}
		}
		if !found {
			t.Errorf("err = %v\nwant %s line %d: %s", err, where, wantLine, msg)
		}
		// A table that is present but broken is not also reported missing.
		if !strings.Contains(msg, "missing") && strings.Contains(err.Error(), "which is missing") {
			t.Errorf("err = %v\nalso calls a present table missing", err)
		}
	}
	for _, c := range cases {
		t.Run(c.name+"/embedded", func(t *testing.T) {
			f := read()
			c.change(f)
			fsys := fstest.MapFS{}
			for name, text := range f {
				fsys[name] = &fstest.MapFile{Data: []byte(text)}
			}
			_, err := New(Config{Ops: testOps(), Tables: fsys, Label: "tuned"})
			check(t, err, "tuned/"+c.file, c.line, c.msg)
		})
		t.Run(c.name+"/dir", func(t *testing.T) {
			f := read()
			c.change(f)
			dir := t.TempDir()
			for name, text := range f {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := New(Config{Ops: testOps(), Tables: fstest.MapFS{}, Dir: dir})
			check(t, err, filepath.Join(dir, c.file), c.line, c.msg)
		})
	}

	// Several defects are reported together, each with its place.
	f := read()
	delete(f, "potrf.float64.cpu.txt")
	f[trsmFile] = strings.Replace(f[trsmFile], "vendor 50", "vendor x", 1)
	fsys := fstest.MapFS{}
	for name, text := range f {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	_, err := New(Config{Ops: testOps(), Tables: fsys, Label: "tuned"})
	for _, want := range []string{"tuned/index.txt:3: lists potrf.float64.cpu.txt, which is missing", `tuned/trsm.float64.sm_90.txt:11: vendor: time "x"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v\nwant %s", err, want)
		}
	}
}

// unjoin flattens errors.Join trees.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, unjoin(e)...)
		}
		return out
	}
	return []error{err}
}
