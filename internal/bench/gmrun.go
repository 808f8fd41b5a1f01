package bench

import (
	"fmt"
	"time"
)

// runGPUMode runs the cholesky-gpumode cases.
func runGPUMode(s *suiteRun) []CaseOutcome {
	w := s.w
	uplo := "U"
	if len(s.cases) > 0 {
		uplo = s.cases[0].Uplo
	}
	if uplo == "U" {
		fmt.Fprintf(w, "# op: potrf, uplo U: GPU MODE's row-major lower L is column-major upper U = Lᵀ in the same memory, so each call is batchlas.Potrf(q, Upper, a, info, Route(ARM)) on the column-major batch\n")
	} else {
		fmt.Fprintf(w, "# op: potrf, uplo L: each call is batchlas.Potrf(q, Lower, a, info, Route(ARM)) on the column-major batch (GPU MODE's row-major L is its Upper)\n")
	}
	fmt.Fprintf(w, "# input (§1.4 dense, cond 2): Y n×n standard normal, column c of matrix m of input j from PCG(case seed + 42·j, seed·2³² ⊕ m·2¹⁶ ⊕ c) with seed %d; A = Yᵀ·Y/n + 0.01·I (exactly symmetric), formed in float64 and rounded\n", s.cfg.Seed)
	fmt.Fprintf(w, "# timing (§1.6): k = clamp(256 MiB/(batch·n²·4), 1, 50) distinct inputs; one repetition = restore the k inputs from pristine copies on the arm's device and wait (outside the timer), evict the L2 cache (Queue.EvictCache writes ≥ 256 MiB), Mark, one call per input back to back, Mark; ns/op = elapsed/k (CUDA events on a GPU, the wall clock on the CPU); the median of 30 repetitions (10 at n ≥ 2048, 3 at n ≥ 8192), or fewer (at least 3) once an arm has spent count×time = %v on a case; arms interleaved\n", time.Duration(s.cfg.Count)*s.cfg.Time)
	fmt.Fprintf(w, "# check (§1.5): after the warm-up repetition and after the last, every matrix of every input: info 0; the factor triangle finite with a positive diagonal; ‖L·Lᵀ − A‖₁ ≤ %d·n·eps·‖A‖₁, eps = 2⁻²³ (2⁻⁵² for float64), in float64 (on the host for n ≤ %d, above on the GPU through batchlas.Gemm with Route(\"vendor\")); L is built from the factor triangle alone: Potrf leaves the other strict triangle as the input (LAPACK), so §1.5's triangularity test, which needs zeros there, is not applied. A failed arm has no time printed or used\n", gmBound, hostCheckMaxN)
	fmt.Fprintf(w, "# metrics: MB/s counts the n² elements of each matrix once; GFLOP/s from LAPACK Working Note 41 counts\n")

	chk := &gmChecker{cfg: &s.cfg}
	defer chk.close()
	var out []CaseOutcome
	for _, c := range s.cases {
		var res []ArmResult
		if s.cfg.Dtype == "float64" {
			res = runGMCase[float64](s, c, chk)
		} else {
			res = runGMCase[float32](s, c, chk)
		}
		out = append(out, CaseOutcome{Case: c, Arms: res})
	}
	return out
}

// gmArm is one arm during a case.
type gmArm[T gmFloat] struct {
	spec    *armSpec
	r       gmRunner[T]
	about   string
	times   []float64
	lines   []string      // benchmark lines, printed once the last check passes
	spent   time.Duration // wall time of the timed repetitions
	verdict gmVerdict
	failed  string // why the arm failed; "" if it did not
	skipped string // why the arm could not run; "" if it ran
}

func (a *gmArm[T]) alive() bool { return a.failed == "" && a.skipped == "" }

// runGMCase times case c with every arm.
func runGMCase[T gmFloat](s *suiteRun, c Case, chk *gmChecker) []ArmResult {
	w, cfg, prog := s.w, &s.cfg, s.prog
	reps := gmRepetitions(c.N)
	prog.add(1 + len(s.arms)*(reps+2))
	op := LookupOp(c.Op)
	name := benchName(op, Config{Dtype: cfg.Dtype, N: c.N, Batch: c.Batch}, 0)
	elem := int(sizeOfElem[T]())

	arms := make([]*gmArm[T], len(s.arms))
	for i, spec := range s.arms {
		arms[i] = &gmArm[T]{spec: spec}
	}
	defer func() {
		for _, a := range arms {
			if a.r != nil {
				a.r.release()
			}
		}
	}()

	in, err := gmGenerate[T](cfg, c, chk)
	prog.step()
	inputs := "inputs of %s each"
	if c.Inputs == 1 {
		inputs = "input of %s"
	}
	fmt.Fprintf(w, "# case %s: seed %d, k = %d "+inputs+", uplo %s, %d repetitions", c.Name, c.Seed, c.Inputs, mib(c.Batch*c.N*c.N*elem), c.Uplo, reps)
	if err != nil {
		fmt.Fprintln(w)
		reason := err.Error()
		if sk, ok := asSkip(err); ok {
			reason = sk.Reason
		}
		for _, a := range arms {
			a.skipped = "the case cannot run: " + reason
			fmt.Fprintf(w, "--- SKIP: %s: %s\n", fullName(name, a.spec.name), a.skipped)
			for range reps + 2 {
				prog.step()
			}
		}
		return gmResults(arms)
	}
	fmt.Fprintf(w, "; A formed %s\n", in.formed)

	fail := func(a *gmArm[T], err error) {
		if sk, ok := asSkip(err); ok {
			a.skipped = sk.Reason
			fmt.Fprintf(w, "--- SKIP: %s: %s\n", fullName(name, a.spec.name), a.skipped)
			return
		}
		a.failed = err.Error()
		a.times, a.lines = nil, nil
		fmt.Fprintf(w, "--- FAIL: %s: %s\n", fullName(name, a.spec.name), a.failed)
	}
	var f []T // one input's results, shared by the arms' checks
	check := func(a *gmArm[T]) error {
		if f == nil {
			f = make([]T, c.Batch*c.N*c.N)
		}
		for j := range c.Inputs {
			info, err := a.r.output(j, f)
			if err != nil {
				return err
			}
			v, err := gmCheck(chk, j, in.a[j], f, info, c.N, c.Batch, c.Uplo)
			if err != nil {
				return err
			}
			a.verdict.merge(v)
		}
		return nil
	}

	// Set up, warm up and check every arm.
	for _, a := range arms {
		r, about, err := setupGM(cfg, a.spec, c, in)
		if err == nil {
			a.r, a.about = r, about
			if cfg.wrapGM != nil {
				a.r = cfg.wrapGM(a.spec.name, r).(gmRunner[T])
			}
			_, err = a.r.repetition()
			if err != nil {
				err = unsupportedAsSkip(err)
			}
		}
		if err == nil {
			err = check(a)
		}
		if err != nil {
			fail(a, err)
		}
		if a.about != "" && a.skipped == "" {
			fmt.Fprintln(s.hdr.wrap(w), "# arm "+a.spec.name+": "+a.about)
		}
		prog.step()
	}

	// Repetitions, interleaved.
	budget := time.Duration(cfg.Count) * cfg.Time
	width := 0
	for _, a := range arms {
		width = max(width, len(fullName(name, a.spec.name)))
	}
	flops := op.Flops(c.N, 0, false) * float64(c.Batch)
	bytes := op.Bytes(c.N, 0, elem) * float64(c.Batch)
	for range reps {
		for _, a := range arms {
			if !a.alive() || (len(a.times) >= 3 && a.spent >= budget) {
				prog.step()
				continue
			}
			start := time.Now()
			ns, err := a.r.repetition()
			a.spent += time.Since(start)
			if err != nil {
				fail(a, err)
				prog.step()
				continue
			}
			a.times = append(a.times, ns)
			a.lines = append(a.lines, resultLine(fullName(name, a.spec.name), width, c.Inputs, ns, bytes, flops))
			prog.step()
		}
	}

	// The last check, then the times of the arms that pass it.
	for _, a := range arms {
		if a.alive() {
			if err := check(a); err != nil {
				fail(a, err)
			}
		}
		prog.step()
	}
	for _, a := range arms {
		if !a.alive() {
			continue
		}
		for _, l := range a.lines {
			fmt.Fprintln(w, l)
		}
		fmt.Fprintf(w, "# check %s: all %d matrices pass after the warm-up and after the last repetition, largest ‖L·Lᵀ − A‖₁ = %.3g·n·eps·‖A‖₁ (bound %d), %s\n",
			fullName(name, a.spec.name), c.Batch*c.Inputs, a.verdict.worst, gmBound, a.verdict.where)
	}
	why := func(a *gmArm[T]) string {
		if a.skipped != "" {
			return "skipped"
		}
		return "failed"
	}
	ref := arms[s.ref()]
	for _, a := range arms {
		if a != ref {
			fmt.Fprintln(w, ratioText(ref.spec.name, a.spec.name, ref.times, a.times, why(ref), why(a)))
		}
	}
	return gmResults(arms)
}

func gmResults[T gmFloat](arms []*gmArm[T]) []ArmResult {
	var out []ArmResult
	for _, a := range arms {
		r := ArmResult{Arm: a.spec.name, Failed: a.failed != "", Skipped: a.skipped}
		if a.alive() && len(a.times) > 0 {
			r.NsPerCall = median(a.times)
		}
		out = append(out, r)
	}
	return out
}
