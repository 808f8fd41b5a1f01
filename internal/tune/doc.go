// Package tune measures routing tables: the engine of `batchlas tune`.
//
// # Sweeps
//
// A Grid lists values for an op's keys (ParseInts reads "1:64,96:1024:x2");
// its Points are every combination, dtypes outermost. Run measures each
// point with the op's candidates that can run the call on the device
// (route.Candidate.CanRun), all at once so that they are timed interleaved
// in one process: by default through bench.Run with the candidate
// spellings as arms, which checks every timed result against the oracle.
// The measuring function is a field of Config, so that tests (and other
// measurements) can replace it.
//
// # Journal
//
// Each measured point is appended to a journal in the output folder, one
// plain-text line, synced, as soon as it is measured:
//
//	potrf float32 sm_90 uplo=L n=8 batch=4096 | native:tiny 12.5 vendor 40.25 cpu:blocked -
//
// A sweep stopped at any moment (Ctrl-C, a crash) leaves a valid journal;
// with Config.Resume, the points it holds are not measured again.
//
// # Tables
//
// After the sweep, one table per dtype is built from the journal in the
// format route.ParseTable reads (BuildTable) and checked by reading it
// back: candidates fastest first, a candidate whose result failed the
// oracle check written as "-" after them (never with a time, so never
// ranked), candidates that could not run left out. The folder's index.txt
// lists its tables, and the folder must load with route.New, as it would
// with BATCHLAS_TUNED_DIR. Heatmap draws the native/vendor time ratio by n
// and batch.
package tune
