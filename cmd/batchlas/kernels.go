package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	fmt.Fprintf(w, "Usage: batchlas kernels [-device cuda:N]\n")
	fmt.Fprintf(w, "       batchlas kernels -dump DIR\n\n")
	fmt.Fprintf(w, "Compiles (or finds in the disk cache) every kernel batchlas ships, loads it\n")
	fmt.Fprintf(w, "on the GPU, and lists its registers, local (spill) bytes, static shared\n")
	fmt.Fprintf(w, "bytes and the time it took, with \"cache\" where the compiled image came from\n")
	fmt.Fprintf(w, "the disk cache. It exits 1 if a kernel uses local memory (the house rule).\n\n")
	fmt.Fprintf(w, "With -dump it needs no GPU: for each kernel source it writes into DIR the\n")
	fmt.Fprintf(w, "code NVRTC is given (NN-name.cu), its name expressions (NN-name.names, one\n")
	fmt.Fprintf(w, "a line) and the options added to --gpu-architecture and -std=c++17\n")
	fmt.Fprintf(w, "(NN-name.options), so the kernels can be compiled and compared elsewhere\n")
	fmt.Fprintf(w, "(scripts/kernel-sass).\n")
}

// kernelFamily is one source's kernels: what `kernels` loads on a GPU and
// what -dump writes without one.
type kernelFamily struct {
	name   string // for messages and the dump's file names
	source cuda.Source
	names  func() []string
	// load puts the kernels into ctx; nil loads source with names as one
	// module.
	load func(*cuda.Context) ([]*cuda.Kernel, error)
}

// kernelSources are every family batchlas ships; a new kernel family adds
// itself here.
var kernelSources = []kernelFamily{
	{name: "copy.cu", source: cuda.CopySource, names: cuda.CopyKernelNames},
	{name: "transpose.cu", source: cuda.TransposeSource, names: cuda.TransposeKernelNames},
	{name: "fixup.cu", source: fixup.Source, names: fixup.KernelNames, load: fixup.Load},
	{name: "potrf.cu", source: potrf.Source, names: potrf.KernelNames},
	{name: "posv.cu", source: posv.Source, names: posv.KernelNames, load: posv.Load},
	{name: "cta.cu", source: potrf.CTASource, names: potrf.CTAKernelNames, load: potrf.LoadCTAKernels},
	{name: "warp.cu", source: potrf.WarpSource, names: potrf.WarpKernelNames, load: potrf.LoadWarpKernels},
	{name: "cta.cu (posv_cta)", source: potrf.CTASource, names: posvCTANames, load: func(c *cuda.Context) ([]*cuda.Kernel, error) {
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
	{name: "blocked.cu", source: cholblocked.Source, names: cholblocked.KernelNames},
}

// posvCTANames are posv_cta's and potrs_cta's names for every type, in the
// order the family's load returns them.
func posvCTANames() []string {
	var names []string
	for dt := cuda.Float32; dt <= cuda.Complex128; dt++ {
		names = append(names, potrf.PosvCTANames(dt)...)
	}
	return names
}

func (f kernelFamily) loadInto(c *cuda.Context) ([]*cuda.Kernel, error) {
	if f.load != nil {
		return f.load(c)
	}
	return cuda.DefaultJIT().Load(c, f.source, f.names()...)
}

// dumpKernels writes each family's code, names and options into dir (made
// if missing), files numbered in kernelSources' order.
func dumpKernels(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, f := range kernelSources {
		base := filepath.Join(dir, fmt.Sprintf("%02d-%s", i, dumpName(f.name)))
		files := map[string]string{
			".cu":      f.source.Code,
			".names":   strings.Join(f.names(), "\n") + "\n",
			".options": strings.Join(f.source.Options, "\n"),
		}
		for ext, text := range files {
			if err := os.WriteFile(base+ext, []byte(text), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// dumpName is a family's name as a file name: "cta.cu (posv_cta)" is
// "cta-posv_cta".
func dumpName(family string) string {
	name, extra, _ := strings.Cut(family, " ")
	name = strings.TrimSuffix(name, ".cu")
	if extra = strings.Trim(extra, "()"); extra != "" {
		name += "-" + extra
	}
	return name
}

func runKernels(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kernels", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { kernelsUsage(stderr) }
	device := fs.String("device", "cuda:0", "the GPU")
	dump := fs.String("dump", "", "write each kernel source, its names and options into this directory instead (no GPU needed)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "batchlas kernels: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if *dump != "" {
		deviceSet := false
		fs.Visit(func(f *flag.Flag) { deviceSet = deviceSet || f.Name == "device" })
		if deviceSet {
			fmt.Fprintln(stderr, "batchlas kernels: -dump needs no device; give one or the other")
			return exitUsage
		}
		if err := dumpKernels(*dump); err != nil {
			fmt.Fprintf(stderr, "batchlas kernels: -dump: %v\n", err)
			return exitFailure
		}
		return exitOK
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
		if _, err := src.loadInto(ctx); err != nil {
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
