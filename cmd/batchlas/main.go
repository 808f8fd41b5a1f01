// Command batchlas lists the devices batchlas can use, benchmarks its ops
// against other implementations, measures routing tables and shows routing
// decisions.
//
//	batchlas devices
//	batchlas kernels [-device cuda:N | -dump DIR]
//	batchlas bench OP [flags]
//	batchlas route OP --n N --batch B [flags]
//	batchlas tune OP --n LIST --batch LIST [flags]
//	batchlas help [command]
package main

import (
	"fmt"
	"io"
	"os"
)

// Exit codes: 0 success, 1 a failure while running (a check failed, a
// device broke), 2 a bad command line.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
	usage   func(w io.Writer)
}

func commands() []command {
	return []command{
		{"devices", "list the CPU and GPUs, or why a GPU cannot be used", runDevices, devicesUsage},
		{"bench", "time an op on a batch, side by side with other implementations", runBench, benchUsage},
		{"kernels", "compile and load the GPU kernels, list registers, local memory and compile time", runKernels, kernelsUsage},
		{"route", "show which implementation a call would run and why, from the routing tables", runRoute, routeUsage},
		{"tune", "measure every implementation of an op over a grid and write routing tables", runTune, tuneUsage},
		{"run", "run one op on the matrices of .npy files and write the result as .npy", runRun, runUsage},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole program, apart from the process it runs in.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[0] == "help" && args[1] != "help" {
			if c, ok := lookup(args[1]); ok {
				c.usage(stdout)
				return exitOK
			}
			fmt.Fprintf(stderr, "batchlas help: unknown command %q\n", args[1])
			usage(stderr)
			return exitUsage
		}
		usage(stdout)
		return exitOK
	}
	c, ok := lookup(args[0])
	if !ok {
		fmt.Fprintf(stderr, "batchlas: unknown command %q\n", args[0])
		usage(stderr)
		return exitUsage
	}
	return c.run(args[1:], stdout, stderr)
}

func lookup(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "batchlas: batched dense linear algebra on the CPU and NVIDIA GPUs.\n\n")
	fmt.Fprintf(w, "Usage:\n\n\tbatchlas <command> [arguments]\n\nCommands:\n\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "\t%-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\t%-8s %s\n", "help", "show this text, or a command's with: batchlas help <command>")
	fmt.Fprintf(w, "\nEach command takes -h for its flags.\n")
}
