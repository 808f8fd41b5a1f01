package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/batchlas/batchlas"
)

func devicesUsage(w io.Writer) {
	fmt.Fprintf(w, "Usage: batchlas devices\n\n")
	fmt.Fprintf(w, "Lists every device batchlas can open (the spelling -device and OpenDevice\n")
	fmt.Fprintf(w, "accept, its name and details) and, for a GPU that cannot be used, why.\n")
	fmt.Fprintf(w, "It exits 0 when there is no GPU: the CPU engine always works.\n")
}

func runDevices(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("devices", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { devicesUsage(stderr) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "batchlas devices: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	for _, d := range batchlas.Devices() {
		if d.Err != nil {
			fmt.Fprintf(stdout, "%-8s unavailable: %v\n", d.Spec, d.Err)
			continue
		}
		fmt.Fprintf(stdout, "%-8s %s\n", d.Spec, d.Name)
		for _, s := range d.Details {
			fmt.Fprintf(stdout, "%-8s   %s\n", "", s)
		}
	}
	return exitOK
}
