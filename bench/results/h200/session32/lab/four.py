# Go side of four split stages in the kernels for one block a multiprocessor (the 4-stage variants' builds).
import sys
p = "internal/gpu/cholblocked/tiled.go"; s = open(p).read()
old = "\tif occupancy == 4 {\n\t\treturn 4\n\t}\n\treturn 3\n}"
assert s.count(old) == 1
open(p, "w").write(s.replace(old, "\treturn 4\n}"))
p = "internal/gpu/cholblocked/blocked_test.go"; s = open(p).read()
old = """			// The launches do not opt in to more than 48 KiB (splitSharedBytes).
			if k.StaticSharedBytes+dynamic > 48<<10 {
				t.Errorf("%s: %d B static and %d B dynamic shared memory, more than 48 KiB", k.Name, k.StaticSharedBytes, dynamic)
			}"""
new = """			// Beyond 48 KiB the launch opts in; two blocks a multiprocessor must still fit.
			if k.StaticSharedBytes+dynamic > 48<<10 {
				if err := k.AllowDynamicShared(dynamic); err != nil {
					t.Errorf("%s: %v", k.Name, err)
				} else if blocks, err := k.ActiveBlocksPerSM(threads, dynamic); err != nil || blocks < 2 {
					t.Errorf("%s: %d blocks a multiprocessor (%v), want 2", k.Name, blocks, err)
				}
			}"""
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
