package route

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// IndexFile lists the tables of a folder, one file name a line. When a folder
// has one, a table it lists that is missing, or a table it does not list, is
// a load error: a table lost in a merge is caught, not silently replaced by
// a borrowed one. tuned/ always has one; BATCHLAS_TUNED_DIR may.
const IndexFile = "index.txt"

// folder is a folder of tables; label is how errors name it.
type folder struct {
	fsys  fs.FS
	label string
	onOS  bool // label is an OS path
}

func (f folder) name(file string) string {
	if f.onOS {
		return filepath.Join(f.label, file)
	}
	return path.Join(f.label, file)
}

// readFolder parses every table in f.
func readFolder(f folder) (map[tableID]*Table, error) {
	fsys, label := f.fsys, f.label
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("route: tables folder %s: %w", label, err)
	}
	tables := map[tableID]*Table{}
	broken := map[string]bool{} // present but unreadable: not "missing" too
	var errs []error
	hasIndex := false
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".txt") {
			continue
		}
		if name == IndexFile {
			hasIndex = true
			continue
		}
		file := f.name(name)
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			errs = append(errs, &TableError{File: file, Msg: err.Error()})
			broken[name] = true
			continue
		}
		t, err := ParseTable(file, bytes.NewReader(data))
		if err != nil {
			errs = append(errs, err)
			broken[name] = true
			continue
		}
		id, _ := parseTableName(name)
		tables[id] = t
	}
	if hasIndex {
		errs = append(errs, checkIndex(f, tables, broken)...)
	}
	return tables, errors.Join(errs...)
}

// checkIndex compares the folder's index with the tables found in it;
// broken names tables present but already reported as unreadable.
func checkIndex(f folder, tables map[tableID]*Table, broken map[string]bool) []error {
	file := f.name(IndexFile)
	data, err := fs.ReadFile(f.fsys, IndexFile)
	if err != nil {
		return []error{&TableError{File: file, Msg: err.Error()}}
	}
	var errs []error
	listed := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fail := func(format string, args ...any) {
			errs = append(errs, &TableError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
		}
		id, ok := parseTableName(text)
		switch {
		case !ok || strings.ContainsAny(text, " \t/"):
			fail("%q is not a table file name <op>.<dtype>.<device>.txt", text)
		case listed[text] > 0:
			fail("%s is listed twice (line %d)", text, listed[text])
		case tables[id] == nil && !broken[text]:
			fail("lists %s, which is missing from %s (restore it, or remove this line with the table)", text, f.label)
		}
		listed[text] = line
	}
	for id, t := range tables {
		if listed[id.file()] == 0 {
			errs = append(errs, &TableError{File: t.File, Msg: fmt.Sprintf("not listed in %s: add it there when adding a table", file)})
		}
	}
	return errs
}

// checkAgainst validates a table's keys and candidates against its op.
func (t *Table) checkAgainst(ops map[string]*Op) error {
	op := ops[t.Op]
	if op == nil {
		return &TableError{File: t.File, Msg: fmt.Sprintf("no op %q is routed", t.Op)}
	}
	var want []string
	for _, k := range op.Keys {
		want = append(want, k.Name)
	}
	if !slices.Equal(t.Keys, want) {
		return &TableError{File: t.File, Line: t.Rows[0].Line, Msg: fmt.Sprintf("keys are %q; %s keys on %q",
			strings.Join(t.Keys, " "), op.Name, strings.Join(want, " "))}
	}
	for _, r := range t.Rows {
		for _, e := range r.Entries {
			if op.index(e.Name) < 0 {
				return &TableError{File: t.File, Line: r.Line, Msg: fmt.Sprintf("%s has no candidate %s (it has %s)",
					op.Name, e.Name, strings.Join(op.names(), ", "))}
			}
		}
	}
	return nil
}

// deviceOrder splits a device key into a family and a number: sm_90 is
// ("sm_", 90); cpu is ("cpu", -1).
func deviceOrder(key string) (family string, number int) {
	i := len(key)
	for i > 0 && key[i-1] >= '0' && key[i-1] <= '9' {
		i--
	}
	if i == len(key) || i == 0 {
		return key, -1
	}
	n, err := strconv.Atoi(key[i:])
	if err != nil {
		return key, -1
	}
	return key[:i], n
}

// borrowOrder sorts the devices that have a table, best lender first, for a
// device that has none: its own family first, the closest lower number, then
// the closest higher (sm_90: sm_89, sm_86, ..., sm_100, sm_120); then other
// families, newest first; the host last.
func borrowOrder(device string, have []string) []string {
	fam, num := deviceOrder(device)
	rank := func(key string) (group int, dist int, f string) {
		f2, n2 := deviceOrder(key)
		switch {
		case f2 == fam && num >= 0 && n2 >= 0 && n2 <= num:
			return 0, num - n2, f2
		case f2 == fam && num >= 0 && n2 >= 0:
			return 1, n2 - num, f2
		case key == "cpu":
			return 3, 0, f2
		}
		return 2, -n2, f2
	}
	out := slices.DeleteFunc(slices.Clone(have), func(k string) bool { return k == device })
	slices.SortFunc(out, func(a, b string) int {
		ga, da, fa := rank(a)
		gb, db, fb := rank(b)
		return cmp.Or(cmp.Compare(ga, gb), strings.Compare(fa, fb), cmp.Compare(da, db), strings.Compare(a, b))
	})
	return out
}

// loadTables reads the embedded folder, then the override folder dir (if
// any) whose tables replace embedded ones of the same name.
func loadTables(embedded folder, dir string) (map[tableID]*Table, error) {
	tables, err := readFolder(embedded)
	if err != nil {
		return nil, err
	}
	if dir == "" {
		return tables, nil
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		if err == nil {
			err = errors.New("not a folder")
		}
		return nil, fmt.Errorf("route: %s=%s: %w", TunedDirEnv, dir, err)
	}
	over, err := readFolder(folder{fsys: os.DirFS(dir), label: dir, onOS: true})
	if err != nil {
		return nil, err
	}
	for id, t := range over {
		tables[id] = t
	}
	return tables, nil
}
