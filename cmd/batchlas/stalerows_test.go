package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runCLIEnv, set to 1, makes the test binary the batchlas command, so that
// scripts under test can call it back (scripts/stale-rows -b).
const runCLIEnv = "BATCHLAS_TEST_RUN_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(runCLIEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// staleRows runs scripts/stale-rows with this test binary as its CLI.
func staleRows(t *testing.T, tables ...string) (stdout, stderr string, err error) {
	t.Helper()
	bash, lookErr := exec.LookPath("bash")
	if lookErr != nil {
		t.Skipf("no bash: %v", lookErr)
	}
	if _, lookErr := exec.LookPath("awk"); lookErr != nil {
		t.Skipf("no awk: %v", lookErr)
	}
	exe, exeErr := os.Executable()
	if exeErr != nil {
		t.Fatal(exeErr)
	}
	args := append([]string{filepath.Join("..", "..", "scripts", "stale-rows"), "-b", exe}, tables...)
	cmd := exec.Command(bash, args...)
	cmd.Env = append(os.Environ(), runCLIEnv+"=1")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// writeTable writes a float32 potrf table for sm_90 with the given rows into
// a folder of its own and returns its path.
func writeTable(t *testing.T, rows ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "potrf.float32.sm_90.txt")
	text := "# written by TestStaleRowsScript\nop potrf\ndtype float32\ndevice sm_90\ndate 2026-12-07\nsource a test\n" +
		"keys uplo n batch\n# a comment between the keys and the rows\n" + strings.Join(rows, "\n") + "\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestStaleRowsScript checks that scripts/stale-rows asks about the table it
// is given (not the CLI's embedded ones): a row holding every candidate tune
// measures is not listed, a row of two lists the others that can run, and a
// table route cannot read is an error, not an empty answer.
func TestStaleRowsScript(t *testing.T) {
	potrf, _ := lookupOp("potrf")
	var full []string
	for i, c := range potrf.Candidates {
		if !c.PinnedOnly {
			full = append(full, fmt.Sprintf("%s %d", c.Name, 10+i))
		}
	}
	table := writeTable(t,
		"L 32 1 "+strings.Join(full, " "),
		"L 32 2 native:tiny 5.7 vendor 26")
	stdout, stderr, err := staleRows(t, table)
	if err != nil {
		t.Fatalf("%v\n%s%s", err, stdout, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], table+": L 32 2:") {
		t.Fatalf("want one line, for L 32 2:\n%s", stdout)
	}
	missing := " " + strings.TrimPrefix(lines[0], table+": L 32 2:") + " "
	for _, want := range []string{" native:tiled ", " native:tiled:occ=3:prec=tf32x3 ", " vendor:loop "} {
		if !strings.Contains(missing, want) {
			t.Errorf("%q not listed as missing:\n%s", want, stdout)
		}
	}
	// In the row, or only run when pinned: not missing.
	for _, not := range []string{" native:tiny ", " vendor ", " native:blocked:prec=tf32 "} {
		if strings.Contains(missing, not) {
			t.Errorf("%q listed as missing:\n%s", not, stdout)
		}
	}

	bad := writeTable(t, "L 32 1 native:tiny 5.7 nonsense 26")
	stdout, stderr, err = staleRows(t, bad)
	if err == nil || !strings.Contains(stderr, "route lists no candidates") || !strings.Contains(stderr, `"nonsense"`) {
		t.Errorf("unreadable table: err %v, want an error naming the candidate\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
}
