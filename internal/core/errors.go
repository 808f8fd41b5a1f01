package core

import "errors"

// Sentinels shared by every layer; the public package re-exports them.
var (
	ErrShape           = errors.New("batchlas: bad shape")
	ErrArgument        = errors.New("batchlas: bad argument")
	ErrDevice          = errors.New("batchlas: wrong device")
	ErrNoDevice        = errors.New("batchlas: no such device")
	ErrLibraryNotFound = errors.New("batchlas: library not found")
	ErrUnsupported     = errors.New("batchlas: unsupported")
	ErrOutOfMemory     = errors.New("batchlas: out of memory")
	ErrNumerical       = errors.New("batchlas: numerical failure")
	ErrCanceled        = errors.New("batchlas: canceled")
)
