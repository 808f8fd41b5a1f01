package batchlas

// Argument checks shared by the ops. Each returns an *ArgError naming the op
// and the argument, so the caller sees "batchlas: Potrf: a is 32×31, must be
// square" and errors.Is(err, ErrShape) holds.

func checkQueue(op string, q *Queue) error {
	if q == nil || q.dev == nil {
		return argErr(ErrArgument, op, "q", "is nil")
	}
	if q.closed {
		return argErr(ErrArgument, op, "q", "is closed")
	}
	return nil
}

func checkBatch[T Scalar](op string, q *Queue, name string, b *Batch[T]) error {
	switch {
	case b == nil || b.mem == nil:
		return argErr(ErrArgument, op, name, "is nil")
	case b.mem.size < 0:
		return argErr(ErrArgument, op, name, "was freed")
	case b.mem.dev != q.dev:
		return argErr(ErrDevice, op, name, "is on %v, the queue on %v", b.mem.dev, q.dev)
	}
	return nil
}

func checkSquare[T Scalar](op, name string, b *Batch[T]) error {
	if b.rows != b.cols {
		return argErr(ErrShape, op, name, "is %d×%d, must be square", b.rows, b.cols)
	}
	return nil
}

func checkCount[T Scalar](op, name string, b *Batch[T], count int) error {
	if b.count != count {
		return argErr(ErrShape, op, name, "has %d matrices, want %d", b.count, count)
	}
	return nil
}

func checkDims[T Scalar](op, name string, b *Batch[T], rows, cols int) error {
	if b.rows != rows || b.cols != cols {
		return argErr(ErrShape, op, name, "is %d×%d, want %d×%d", b.rows, b.cols, rows, cols)
	}
	return nil
}

// checkDistinct rejects two operands whose memory spans intersect, where the
// op would read one while writing the other. Views of one batch that cover
// interleaved but disjoint elements are rejected too: the check is by span.
func checkDistinct[T Scalar](op, nameA string, a *Batch[T], nameB string, b *Batch[T]) error {
	if a.mem != b.mem || a.span() == 0 || b.span() == 0 {
		return nil
	}
	if a.off < b.off+b.span() && b.off < a.off+a.span() {
		return argErr(ErrArgument, op, nameB, "overlaps %s in memory", nameA)
	}
	return nil
}

func checkInfo(op string, q *Queue, info *Info, count int) error {
	if info == nil {
		return nil
	}
	if info.freed {
		return argErr(ErrArgument, op, "info", "was freed")
	}
	if info.dev != q.dev {
		return argErr(ErrDevice, op, "info", "is on %v, the queue on %v", info.dev, q.dev)
	}
	if info.count < count {
		return argErr(ErrShape, op, "info", "has %d entries, the batch %d matrices", info.count, count)
	}
	return nil
}

func checkPivots(op string, q *Queue, p *Pivots, k, count int) error {
	if p == nil {
		return argErr(ErrArgument, op, "pivots", "is nil")
	}
	if p.freed {
		return argErr(ErrArgument, op, "pivots", "were freed")
	}
	if p.dev != q.dev {
		return argErr(ErrDevice, op, "pivots", "is on %v, the queue on %v", p.dev, q.dev)
	}
	if p.k != k || p.count < count {
		return argErr(ErrShape, op, "pivots", "hold %d per matrix for %d matrices, want %d for %d", p.k, p.count, k, count)
	}
	return nil
}

func checkUplo(op string, u Uplo) error {
	if !u.Valid() {
		return argErr(ErrArgument, op, "uplo", "is %v, want Lower or Upper", u)
	}
	return nil
}

func checkTrans(op, name string, t Transpose) error {
	if !t.Valid() {
		return argErr(ErrArgument, op, name, "is %v, want NoTrans, Trans or ConjTrans", t)
	}
	return nil
}

func checkSide(op string, s Side) error {
	if !s.Valid() {
		return argErr(ErrArgument, op, "side", "is %v, want Left or Right", s)
	}
	return nil
}

func checkDiag(op string, d Diag) error {
	if !d.Valid() {
		return argErr(ErrArgument, op, "diag", "is %v, want NonUnit or Unit", d)
	}
	return nil
}

// pivotsOf returns matrix pivots as the CPU engine takes them.
func (p *Pivots) hostFor(count int) []int32 { return p.host[:p.k*count] }
