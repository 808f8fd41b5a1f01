package route

import (
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/tuned"
)

// Config sets up a Router. The zero Config routes the built-in ops with the
// embedded tables and no override folder.
type Config struct {
	Ops    []*Op  // nil: Builtin()
	Tables fs.FS  // nil: the embedded tuned/ folder
	Label  string // how errors and traces name Tables; "" is "tuned"
	Dir    string // a folder whose tables replace those of Tables with the same name

	Getenv func(string) string // pins and BATCHLAS_TRACE; nil: os.Getenv
	Tracer Tracer              // nil: one line per decision on stderr
	Warn   func(msg string)    // borrowing warnings; nil: stderr
}

// Router makes decisions. It is safe for concurrent use.
type Router struct {
	ops     map[string]*Op
	opList  []*Op
	tables  map[tableID]*Table
	lenders map[[2]string][]string // (op, dtype) → devices with a table
	getenv  func(string) string
	tracer  Tracer
	warn    func(string)

	resolved sync.Map // tableID → resolution

	cacheMu sync.Mutex
	cache   map[choiceKey]choice // ChooseFrom's decisions
}

type resolution struct {
	table    *Table // nil: no table for the op and dtype on any device
	borrowed bool
}

// New validates the ops and loads every table. Errors name the op, or the
// table's file and line.
func New(cfg Config) (*Router, error) {
	r := &Router{ops: map[string]*Op{}, getenv: cfg.Getenv, tracer: cfg.Tracer, warn: cfg.Warn, lenders: map[[2]string][]string{}}
	if r.getenv == nil {
		r.getenv = os.Getenv
	}
	if r.tracer == nil {
		r.tracer = stderrTracer{}
	}
	if r.warn == nil {
		r.warn = func(msg string) { fmt.Fprintln(os.Stderr, "batchlas:", msg) }
	}
	r.opList = cfg.Ops
	if r.opList == nil {
		r.opList = Builtin()
	}
	for _, op := range r.opList {
		if err := op.validate(); err != nil {
			return nil, err
		}
		if r.ops[op.Name] != nil {
			return nil, fmt.Errorf("route: op %q defined twice", op.Name)
		}
		r.ops[op.Name] = op
	}
	embedded := folder{fsys: cfg.Tables, label: cfg.Label}
	if embedded.fsys == nil {
		embedded.fsys = tuned.FS
	}
	if embedded.label == "" {
		embedded.label = "tuned"
	}
	tables, err := loadTables(embedded, cfg.Dir)
	if err != nil {
		return nil, err
	}
	for id, t := range tables {
		if err := t.checkAgainst(r.ops); err != nil {
			return nil, err
		}
		k := [2]string{id.op, id.dtype}
		r.lenders[k] = append(r.lenders[k], id.device)
	}
	r.tables = tables
	return r, nil
}

var std = sync.OnceValues(func() (*Router, error) {
	return New(Config{Dir: os.Getenv(TunedDirEnv)})
})

// Default is the process's router: built-in ops, embedded tables, and
// BATCHLAS_TUNED_DIR as read on first use.
func Default() (*Router, error) { return std() }

// Choose routes call with the default router; see Router.Choose.
func Choose(call Call, pin string) (Decision, error) {
	r, err := Default()
	if err != nil {
		return Decision{}, err
	}
	return r.Choose(call, pin)
}

// Op returns the op named name.
func (r *Router) Op(name string) (*Op, bool) {
	op, ok := r.ops[name]
	return op, ok
}

// Ops lists the routed ops.
func (r *Router) Ops() []*Op { return slices.Clone(r.opList) }

// Tables lists the loaded tables, sorted by file name.
func (r *Router) Tables() []*Table {
	var out []*Table
	for _, t := range r.tables {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b *Table) int { return strings.Compare(a.File, b.File) })
	return out
}

// Choose picks the candidate that runs call. pin is a pin in code (per call
// or per queue): "" defers to BATCHLAS_<OP>_ROUTE, read now; "auto" ignores
// that variable; "native", "vendor", "cpu" or a candidate spelling restrict
// or force the choice.
//
// A malformed call or pin is an error wrapping ErrArgument. A pinned
// candidate that the op lacks or that cannot run, or a call that no allowed
// candidate can run, is an error wrapping ErrUnsupported that says why each
// was refused.
func (r *Router) Choose(call Call, pin string) (Decision, error) {
	return r.ChooseFrom(call, pin, "code")
}

// ChooseFrom is Choose for a pin that came from somewhere other than code,
// named by from in the decision and the errors: the CLI's "--pin".
//
// Decisions are remembered per call, pin and BATCHLAS_<OP>_ROUTE value: the
// tables do not change once loaded, and deciding again cost every op call
// 1.3–1.6 µs (BenchmarkChooseBuiltin, BenchmarkChoose on the development
// VM; 0.24–0.27 µs remembered), beside GPU calls of 7–20 µs whose host
// side took 6–10 µs (TestCallOverhead, session 14).
func (r *Router) ChooseFrom(call Call, pin, from string) (Decision, error) {
	key := choiceKey{call: call, pin: pin, from: from}
	if op := r.ops[call.Op]; op != nil && pin == "" {
		key.env = r.getenv(op.EnvName())
	}
	r.cacheMu.Lock()
	c, ok := r.cache[key]
	r.cacheMu.Unlock()
	if !ok {
		c.d, c.err = r.decide(call, pin, from)
		r.cacheMu.Lock()
		if len(r.cache) >= maxCached || r.cache == nil {
			r.cache = make(map[choiceKey]choice) // a program that varies its shapes without end starts over
		}
		r.cache[key] = c
		r.cacheMu.Unlock()
	}
	if c.err != nil {
		return Decision{}, c.err
	}
	return r.done(c.d), nil
}

// choiceKey is what a decision depends on besides the tables.
type choiceKey struct {
	call           Call
	pin, from, env string
}

type choice struct {
	d   Decision
	err error
}

// maxCached bounds the decisions a Router remembers.
const maxCached = 4096

// decide is ChooseFrom without the memory of earlier decisions and the trace.
func (r *Router) decide(call Call, pin, from string) (Decision, error) {
	op := r.ops[call.Op]
	if op == nil {
		return Decision{}, fmt.Errorf("%w: route: no op %q (ops: %s)", core.ErrArgument, call.Op, r.opNames())
	}
	if err := call.check(op); err != nil {
		return Decision{}, err
	}
	p, from, err := r.pinOf(&call, op, pin, from)
	if err != nil {
		return Decision{}, err
	}
	d := Decision{Call: call, op: op, Why: WhyPinned, PinFrom: from}
	if !p.Auto() {
		d.Pin = p.String()
	}

	// The row, consulted for pinned calls too so the trace can show it.
	var row *Row
	res := r.resolve(call.Op, call.DType, call.Device.Key)
	if t := res.table; t != nil {
		row, d.Relaxed = t.nearest(&call, op)
		d.Table, d.TableDevice, d.Line = t.File, t.Device, row.Line
		d.Row = row.keyText(t.Keys)
	}

	if name, ok := p.Candidate(); ok {
		c, ok := op.Candidate(name)
		if !ok {
			return Decision{}, r.noCandidate(&call, op, name, from)
		}
		if err := c.CanRun(call); err != nil {
			return Decision{}, fmt.Errorf("%w: %s: pinned %s (%s) cannot run it: %v", core.ErrUnsupported, r.where(&call, op), name, from, err)
		}
		d.Candidate = c
		if row != nil {
			// A pin may force a candidate the table marks failed: that is how
			// a fixed kernel gets measured again. The trace says so.
			if i := row.find(name); i >= 0 {
				d.Micros = row.Entries[i].Micros
				if row.Entries[i].Failed {
					d.Note = "the row marks it as failing the oracle check"
				}
			}
		}
		return d, nil
	}

	if row != nil && r.pickFromRow(&d, row, op, &call, p) {
		if p.Auto() {
			d.Why = WhyTable
			if res.borrowed {
				d.Why = WhyBorrowed
			}
		}
		return d, nil
	}

	// The default order.
	order := op.Default
	if order == nil {
		order = op.names()
	}
	var refused []string
	for _, name := range order {
		c, _ := op.Candidate(name)
		if !p.allows(c) {
			continue
		}
		if err := c.CanRun(call); err != nil {
			refused = append(refused, fmt.Sprintf("%s: %v", name, err))
			continue
		}
		if row != nil {
			if i := row.find(name); i >= 0 && row.Entries[i].Failed {
				refused = append(refused, fmt.Sprintf("%s: failed the oracle check at %s:%d", name, d.Table, d.Line))
				continue
			}
		}
		d.Candidate = c
		if p.Auto() {
			d.Why = WhyDefault
		}
		switch {
		case row != nil:
			d.Note = "no candidate of the row can run"
		case p.Auto():
			d.Note = fmt.Sprintf("no %s %s table on any device", call.Op, call.DType)
		}
		return d, nil
	}
	what := "no candidate"
	if !p.Auto() {
		what = fmt.Sprintf("no %s candidate (pinned by %s)", p, from)
	}
	if len(refused) == 0 {
		return Decision{}, fmt.Errorf("%w: %s: %s: %s has none", core.ErrUnsupported, r.where(&call, op), what, op.Name)
	}
	return Decision{}, fmt.Errorf("%w: %s: %s can run it: %s", core.ErrUnsupported, r.where(&call, op), what, strings.Join(refused, "; "))
}

// pickFromRow chooses from row: its first runnable entry, or an earlier
// candidate of the op's list within TieMargin of it. Entries that failed
// the oracle check, that the pin excludes, that cannot run, or that are
// TriangleBound in a row of the other triangle are skipped; d.Skipped
// explains those that could otherwise have been chosen.
func (r *Router) pickFromRow(d *Decision, row *Row, op *Op, call *Call, p Pin) bool {
	best := -1   // index in row of the fastest runnable entry
	chosen := -1 // index in row of the choice
	var chosenCand Candidate
	var skipped []string
	otherTriangle := slices.Contains(d.Relaxed, "uplo")
	for i, e := range row.Entries {
		c, _ := op.Candidate(e.Name)
		if !p.allows(c) || e.Failed {
			continue // failed entries come last: none would be chosen anyway
		}
		if best >= 0 && e.Micros > row.Entries[best].Micros*(1+TieMargin) {
			break
		}
		if otherTriangle && c.TriangleBound {
			skipped = append(skipped, fmt.Sprintf("%s (timed on the other triangle only)", e.Name))
			continue
		}
		if err := c.CanRun(*call); err != nil {
			skipped = append(skipped, fmt.Sprintf("%s (cannot run: %v)", e.Name, err))
			continue
		}
		if best < 0 {
			best, chosen, chosenCand = i, i, c
		} else if op.index(e.Name) < op.index(row.Entries[chosen].Name) {
			chosen, chosenCand = i, c
		}
	}
	if chosen < 0 {
		return false
	}
	d.Candidate = chosenCand
	d.Micros = row.Entries[chosen].Micros
	d.Skipped = skipped
	if chosen != best {
		d.Tie, d.Fastest = true, row.Entries[best]
	}
	return true
}

// done traces d when tracing is on.
func (r *Router) done(d Decision) Decision {
	if v := r.getenv(TraceEnv); v != "" && v != "0" {
		r.tracer.Trace(d)
	}
	return d
}

// resolve finds the table for (op, dtype, device), borrowing the nearest
// device's when the device has none; the first borrow warns.
func (r *Router) resolve(op, dtype, device string) resolution {
	id := tableID{op, dtype, device}
	if v, ok := r.resolved.Load(id); ok {
		return v.(resolution)
	}
	var res resolution
	if t := r.tables[id]; t != nil {
		res.table = t
	} else if order := borrowOrder(device, r.lenders[[2]string{op, dtype}]); len(order) > 0 {
		res.table, res.borrowed = r.tables[tableID{op, dtype, order[0]}], true
	}
	if _, loaded := r.resolved.LoadOrStore(id, res); !loaded && res.borrowed {
		r.warn(fmt.Sprintf("route: no %s %s table for %s; borrowing %s's (%s). Run batchlas tune on this device for its own.",
			op, dtype, device, res.table.Device, res.table.File))
	}
	return res
}

func (r *Router) where(c *Call, op *Op) string {
	return fmt.Sprintf("route %s %s %s %s", c.Op, c.DType, c.Device.Key, c.keyText(op))
}

func (r *Router) opNames() string {
	var s []string
	for _, op := range r.opList {
		s = append(s, op.Name)
	}
	return strings.Join(s, ", ")
}

// nearest returns the row nearest c and the exact keys on which it differs.
// Exact keys must agree; when no row agrees on all, the last exact key is
// dropped, then the one before, and so on. Among the rows left, the lowest
// Σ wₖ·|log₂ rowₖ − log₂ callₖ| over the integer keys wins; equal scores
// prefer the smaller keys (in key order), then the earlier line.
func (t *Table) nearest(c *Call, op *Op) (*Row, []string) {
	nExact := len(t.groups) - 1
	var exact [maxExact]string         // the call's exact key values
	var codes [maxExact + 1]uint32     // codes[u]: the code of the first u of them
	var logs, weights [maxKeys]float64 // log₂ and weight of the integer keys, by key position
	for i, k := range op.Keys {
		d := keyDefs[k.Name]
		if d.exact {
			exact[i] = d.text(c)
			codes[i+1] = codes[i]<<2 | uint32(exactIndex(k.Name, exact[i]))
		} else {
			logs[i], weights[i] = math.Log2(float64(d.get(c))), k.Weight
		}
	}
	nKeys := len(op.Keys)
	const eps = 1e-9 // distances are sums of logs: equal ones may differ in the last bits
	for use := nExact; use >= 0; use-- {
		var best *Row
		bestD := math.Inf(1)
		for _, i := range t.groups[use][codes[use]] {
			row := &t.Rows[i]
			dist := 0.0
			for j, x := range row.logs[nExact:nKeys] {
				dist += weights[nExact+j] * math.Abs(x-logs[nExact+j])
			}
			if dist < bestD-eps || math.Abs(dist-bestD) <= eps && slices.Compare(row.ints[nExact:], best.ints[nExact:]) < 0 {
				best, bestD = row, dist
			}
		}
		if best != nil {
			var relaxed []string
			for i := range nExact {
				if best.Values[i] != exact[i] {
					relaxed = append(relaxed, op.Keys[i].Name)
				}
			}
			return best, relaxed
		}
	}
	panic("route: table without rows") // ParseTable refuses those
}

func (row *Row) find(name string) int {
	return slices.IndexFunc(row.Entries, func(e Entry) bool { return e.Name == name })
}

func (row *Row) keyText(keys []string) string {
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k + "=" + row.Values[i])
	}
	return b.String()
}

// CheckPin reports, for empty work (see Empty), what Choose would say of
// pin's spelling and name: a misspelt pin (from code, or
// BATCHLAS_<OP>_ROUTE when pin is "") is an error wrapping ErrArgument, a
// candidate the op lacks one wrapping ErrUnsupported. Whether the candidate
// could run the call is not asked: empty work runs nothing.
func (r *Router) CheckPin(call Call, pin string) error {
	op := r.ops[call.Op]
	if op == nil {
		return fmt.Errorf("%w: route: no op %q (ops: %s)", core.ErrArgument, call.Op, r.opNames())
	}
	p, from, err := r.pinOf(&call, op, pin, "code")
	if err != nil {
		return err
	}
	if name, ok := p.Candidate(); ok {
		if _, ok := op.Candidate(name); !ok {
			return r.noCandidate(&call, op, name, from)
		}
	}
	return nil
}

// pinOf reads the pin of call, an op's: pin itself, given by given ("code",
// "--pin"), or where it is "" BATCHLAS_<OP>_ROUTE; from says which. A
// misspelt pin is an error wrapping ErrArgument.
func (r *Router) pinOf(call *Call, op *Op, pin, given string) (p Pin, from string, err error) {
	from = given
	if pin == "" {
		from = op.EnvName()
		pin = r.getenv(from)
	}
	if p, err = parsePin(pin); err != nil {
		return Pin{}, from, fmt.Errorf("%w: %s: pin (%s) %v", core.ErrArgument, r.where(call, op), from, err)
	}
	return p, from, nil
}

// noCandidate is the error for a pin (from code or the environment) that
// names a candidate op does not have.
func (r *Router) noCandidate(call *Call, op *Op, name, from string) error {
	return fmt.Errorf("%w: %s: pin %s (%s) names no candidate of %s; it has %s",
		core.ErrUnsupported, r.where(call, op), name, from, op.Name, strings.Join(op.names(), ", "))
}

// Empty reports whether call is empty work, which needs no decision: one of
// its op's integer keys is below 1 (n = 0, batch = 0, ...). An unknown op is
// not empty; Choose reports it.
func (r *Router) Empty(call Call) bool {
	op := r.ops[call.Op]
	if op == nil {
		return false
	}
	for _, k := range op.Keys {
		if d := keyDefs[k.Name]; !d.exact && d.get(&call) < 1 {
			return true
		}
	}
	return false
}
