// Command icepost plays Icehouse pyramid games by email, checks and formats
// game records, and keeps an archive of finished games. This package only
// reads flags, wires the packages together and sets exit codes; run is
// what tests call.
//
// Every command, and every subcommand, is an entry of one table, commands
// (commands.go): run dispatches through it, and help and every -h print
// from it. Each command is in the file of its name.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"runtime/trace"
	"syscall"
)

func main() {
	// SIGINT and SIGTERM end the context, with the signal as its cause
	// (serve logs it). A second signal kills the process as usual.
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-sigs
		signal.Stop(sigs)
		cancel(fmt.Errorf("signal %v", sig))
	}()
	stop := profile(os.Getenv("ICEPOST_CPUPROFILE"), os.Getenv("ICEPOST_TRACE"), os.Getenv("ICEPOST_MEMPROFILE"), os.Stderr)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	cancel(nil)
	os.Exit(code)
}

// profile writes a CPU profile (to cpu), an execution trace (to tr) and
// a profile of the allocations (to mem, at the end) of the whole command,
// for each that is not "": ICEPOST_CPUPROFILE=f, ICEPOST_TRACE=f and
// ICEPOST_MEMPROFILE=f in the environment, read with go tool pprof and go
// tool trace (docs/bench.md). The returned func ends them.
func profile(cpu, tr, mem string, stderr io.Writer) (stop func()) {
	var stops []func() error
	start := func(what, file string, begin func(io.Writer) error, end func()) {
		if file == "" {
			return
		}
		f, err := os.Create(file)
		if err == nil {
			if err = begin(f); err != nil {
				f.Close()
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "icepost: %s: %v\n", what, err)
			return
		}
		stops = append(stops, func() error { end(); return f.Close() })
	}
	start("ICEPOST_CPUPROFILE", cpu, pprof.StartCPUProfile, pprof.StopCPUProfile)
	start("ICEPOST_TRACE", tr, trace.Start, trace.Stop)
	var memOut io.Writer
	start("ICEPOST_MEMPROFILE", mem, func(w io.Writer) error { memOut = w; return nil }, func() {
		if err := pprof.Lookup("allocs").WriteTo(memOut, 0); err != nil {
			fmt.Fprintf(stderr, "icepost: ICEPOST_MEMPROFILE: %v\n", err)
		}
	})
	return func() {
		for _, stop := range stops {
			if err := stop(); err != nil {
				fmt.Fprintf(stderr, "icepost: %v\n", err)
			}
		}
	}
}

// run runs the command that args name, and returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name := args[0]
	if isHelpFlag(name) {
		usage(stdout)
		return exitOK
	}
	if name == "--version" || name == "-version" {
		name = "version"
	}
	if c := find(name); c != nil {
		return c.run(e, args[1:])
	}
	fmt.Fprintf(stderr, "icepost: unknown command %q\n", name)
	usage(stderr)
	return exitUsage
}
