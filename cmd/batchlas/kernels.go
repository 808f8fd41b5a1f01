package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
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
	fmt.Fprintf(w, "The kernels are compiled in the groups batchlas loads them in (modules, one\n")
	fmt.Fprintf(w, "NVRTC program each), since what a program holds can change a kernel's code.\n\n")
	fmt.Fprintf(w, "With -dump it needs no GPU: for each kernel source it writes into DIR the\n")
	fmt.Fprintf(w, "code NVRTC is given (NN-name.cu), its name expressions (NN-name.names, one\n")
	fmt.Fprintf(w, "a line, the modules separated by an empty line) and the options added to\n")
	fmt.Fprintf(w, "--gpu-architecture and -std=c++17 (NN-name.options), so the kernels can be\n")
	fmt.Fprintf(w, "compiled and compared elsewhere (scripts/kernel-sass).\n")
}

// kernelFamily is one source's kernels: what `kernels` loads on a GPU and
// what -dump writes without one.
type kernelFamily struct {
	name   string // for messages and the dump's file names
	source cuda.Source
	// modules are the name expressions as the package loads them, one NVRTC
	// program each.
	modules func() [][]string
	// load puts the kernels into ctx, in modules' order; nil loads each
	// module.
	load func(*cuda.Context) ([]*cuda.Kernel, error)
}

// kernelSources are every family batchlas ships; a new kernel family adds
// itself here.
var kernelSources = []kernelFamily{
	{name: "copy.cu", source: cuda.CopySource, modules: oneModule(cuda.CopyKernelNames)},
	{name: "transpose.cu", source: cuda.TransposeSource, modules: oneModule(cuda.TransposeKernelNames)},
	{name: "fixup.cu", source: fixup.Source, modules: oneModule(fixup.KernelNames), load: fixup.Load},
	{name: "potrf.cu", source: potrf.Source, modules: potrf.KernelModules},
	{name: "posv.cu", source: posv.Source, modules: posv.KernelModules, load: posv.Load},
	{name: "cta.cu", source: potrf.CTASource, modules: potrf.CTAKernelModules},
	{name: "warp.cu", source: potrf.WarpSource, modules: potrf.WarpKernelModules},
	{name: "cta.cu (posv_cta)", source: potrf.CTASource, modules: potrf.PosvCTAModules},
	{name: "blocked.cu", source: cholblocked.Source, modules: cholblocked.KernelModules},
}

// oneModule is the modules of a family its package loads whole.
func oneModule(names func() []string) func() [][]string {
	return func() [][]string { return [][]string{names()} }
}

func (f kernelFamily) loadInto(c *cuda.Context) ([]*cuda.Kernel, error) {
	if f.load != nil {
		return f.load(c)
	}
	ms := f.modules()
	out := make([][]*cuda.Kernel, len(ms))
	loads := make([]func() error, len(ms))
	for i, names := range ms {
		loads[i] = func() (err error) {
			out[i], err = cuda.DefaultJIT().Load(c, f.source, names...)
			return err
		}
	}
	if err := cuda.LoadEach(loads...); err != nil {
		return nil, err
	}
	return slices.Concat(out...), nil
}

// dumpKernels writes each family's code, names and options into dir (made
// if missing), files numbered in kernelSources' order. The names file has
// one name a line and an empty line between modules, so that a compile
// check builds the programs batchlas loads.
func dumpKernels(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, f := range kernelSources {
		base := filepath.Join(dir, fmt.Sprintf("%02d-%s", i, dumpName(f.name)))
		files := map[string]string{
			".cu":      f.source.Code,
			".names":   dumpModules(f.modules()),
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

// dumpModules is the names file's text: one name a line, the modules
// separated by an empty line.
func dumpModules(ms [][]string) string {
	var b strings.Builder
	for i, m := range ms {
		if i > 0 {
			b.WriteString("\n")
		}
		for _, name := range m {
			b.WriteString(name + "\n")
		}
	}
	return b.String()
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
