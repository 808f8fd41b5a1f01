package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/cholblocked"
	"github.com/batchlas/batchlas/internal/gpu/fixup"
	"github.com/batchlas/batchlas/internal/gpu/posv"
	"github.com/batchlas/batchlas/internal/gpu/potrf"
)

func kernelsUsage(w io.Writer) {
	fmt.Fprintf(w, "Usage: batchlas kernels [-device cuda:N]\n\n")
	fmt.Fprintf(w, "Compiles (or finds in the disk cache) every kernel batchlas ships, loads it\n")
	fmt.Fprintf(w, "on the GPU, and lists its registers, local (spill) bytes, static shared\n")
	fmt.Fprintf(w, "bytes and the time it took, with \"cache\" where the compiled image came from\n")
	fmt.Fprintf(w, "the disk cache. It exits 1 if a kernel uses local memory (the house rule).\n")
}

// kernelSources loads each family's kernels into ctx; a new kernel family
// adds its loader here.
var kernelSources = []struct {
	name string
	load func(*cuda.Context) ([]*cuda.Kernel, error)
}{
	{"copy.cu", func(c *cuda.Context) ([]*cuda.Kernel, error) {
		return cuda.DefaultJIT().Load(c, cuda.CopySource, cuda.CopyKernelNames()...)
	}},
	{"transpose.cu", func(c *cuda.Context) ([]*cuda.Kernel, error) {
		return cuda.DefaultJIT().Load(c, cuda.TransposeSource, cuda.TransposeKernelNames()...)
	}},
	{"fixup.cu", fixup.Load},
	{"potrf.cu", func(c *cuda.Context) ([]*cuda.Kernel, error) {
		return cuda.DefaultJIT().Load(c, potrf.Source, potrf.KernelNames()...)
	}},
	{"posv.cu", posv.Load},
	{"cta.cu", potrf.LoadCTAKernels},
	{"warp.cu", potrf.LoadWarpKernels},
	{"cta.cu (posv_cta)", func(c *cuda.Context) ([]*cuda.Kernel, error) {
		var all []*cuda.Kernel
		for dt := cuda.Float32; dt <= cuda.Complex128; dt++ {
			ks, err := potrf.PosvCTAKernels(c, dt)
			if err != nil {
				return nil, err
			}
			all = append(all, ks...)
		}
		return all, nil
	}},
	{"blocked.cu", func(c *cuda.Context) ([]*cuda.Kernel, error) {
		return cuda.DefaultJIT().Load(c, cholblocked.Source, cholblocked.KernelNames()...)
	}},
}

func runKernels(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kernels", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { kernelsUsage(stderr) }
	device := fs.String("device", "cuda:0", "the GPU")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	ordinal, err := strconv.Atoi(strings.TrimPrefix(strings.TrimPrefix(*device, "cuda"), ":"))
	if *device == "cuda" {
		ordinal, err = 0, nil
	}
	if err != nil {
		fmt.Fprintf(stderr, "batchlas kernels: -device %q: want cuda or cuda:N\n", *device)
		return exitUsage
	}
	dev, err := cuda.DeviceByOrdinal(ordinal)
	if err != nil {
		fmt.Fprintf(stderr, "batchlas kernels: %v\n", err)
		return exitFailure
	}
	ctx, err := dev.Context()
	if err != nil {
		fmt.Fprintf(stderr, "batchlas kernels: %v\n", err)
		return exitFailure
	}
	status := exitOK
	for _, src := range kernelSources {
		if _, err := src.load(ctx); err != nil {
			fmt.Fprintf(stderr, "batchlas kernels: %s: %v\n", src.name, err)
			status = exitFailure
		}
	}
	fmt.Fprintf(stdout, "%s, cache %s\n", dev, cuda.DefaultJIT().CacheDir())
	tw := tabwriter.NewWriter(stdout, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "source\tkernel\tarch\tregisters\tlocal B\tshared B\tmax threads\tcompile ms\tload ms\tfrom")
	for _, k := range cuda.LoadedKernels() {
		from := "nvrtc"
		if k.FromCache {
			from = "cache"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%.1f\t%.2f\t%s\n", k.Source, k.Name, k.Arch, k.Registers,
			k.LocalBytes, k.StaticSharedBytes, k.MaxThreadsPerBlock,
			float64(k.CompileTime.Microseconds())/1000, float64(k.LoadTime.Microseconds())/1000, from)
		if k.LocalBytes > 0 {
			status = exitFailure
		}
	}
	tw.Flush()
	if status != exitOK {
		fmt.Fprintln(stderr, "batchlas kernels: a kernel failed to load or uses local memory")
	}
	return status
}
