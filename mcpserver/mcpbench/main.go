// Command mcpbench measures mobilemcp's MCP server against the floor the
// SDK sets: tools/call of get_sms_subscriptions through the whole stack
// (token, Origin check, rate limiter, call log, engine on the simulated
// phone) and tools/call of a no-op tool on a bare go-sdk server. Both are
// stateless with JSON replies, each in a process of its own, loaded over
// loopback by this process at 1, 8 and 64 concurrent clients. Runs of the
// two servers alternate, so both see the same machine; each cell is
// repeated and reported as its best run and the spread of all runs.
//
//	go run ./mcpserver/mcpbench [-rounds 5] [-duration 2s] [-clients 1,8,64] [-v]
//
// It is a measurement, not a test: it never fails on a number.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

func main() {
	rounds := flag.Int("rounds", 5, "measurements per cell")
	duration := flag.Duration("duration", 2*time.Second, "length of one measurement")
	warmup := flag.Duration("warmup", 300*time.Millisecond, "unmeasured load before each measurement")
	clientList := flag.String("clients", "1,8,64", "comma-separated numbers of concurrent clients")
	verbose := flag.Bool("v", false, "print every measurement")
	child := flag.String("serve", "", "internal: run `server` (floor or mobilemcp) as a child process")
	flag.Parse()
	if *child != "" {
		if err := serve(*child); err != nil {
			fmt.Fprintf(os.Stderr, "mcpbench -serve: %v\n", err)
			os.Exit(1)
		}
		return
	}
	var clients []int
	for _, f := range strings.Split(*clientList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "mcpbench: -clients %q: want numbers such as 1,8,64\n", *clientList)
			os.Exit(2)
		}
		clients = append(clients, n)
	}
	if err := run(clients, *rounds, *warmup, *duration, *verbose); err != nil {
		fmt.Fprintf(os.Stderr, "mcpbench: %v\n", err)
		os.Exit(1)
	}
}

func run(clients []int, rounds int, warmup, d time.Duration, verbose bool) error {
	f, err := start("floor")
	if err != nil {
		return err
	}
	defer f.stop()
	o, err := start("mobilemcp")
	if err != nil {
		return err
	}
	defer o.stop()
	for _, t := range []*target{f, o} {
		if !call(newClient(1), t) {
			return fmt.Errorf("%s does not answer tools/call", t.name)
		}
	}

	fmt.Printf("mcpbench: tools/call, protocol 2025-11-25, stateless JSON, loopback; each server in its own process\n")
	fmt.Printf("%s, %s/%s, %d CPUs, GOGC=%s, %d rounds of %s per cell (after %s warm-up), servers alternating\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), gogc(), rounds, d, warmup)

	results := map[*target]map[int][]result{f: {}, o: {}}
	for round := range rounds {
		for _, c := range clients {
			order := []*target{f, o}
			if round%2 == 1 {
				order = []*target{o, f} // neither always goes first
			}
			for _, t := range order {
				r, err := load(t, c, warmup, d)
				if err != nil {
					return err
				}
				results[t][c] = append(results[t][c], r)
				if verbose {
					fmt.Printf("round %d  %-34s c=%-3d %7.0f req/s  p50 %s  p99 %s  server CPU %s/req  errors %d\n",
						round+1, t.name, c, r.throughput(), ms(r.p50), ms(r.p99), us(r.cpuPerRequest), r.errors)
				}
			}
		}
	}
	if verbose {
		fmt.Println()
	}
	report(clients, f, o, results)
	return nil
}

// summary is one cell: a server at a number of clients over all rounds.
type summary struct {
	best             result // the run with the highest throughput
	minTput, maxTput float64
	medianTput       float64
	medianCPU        time.Duration
	errors           int
}

func summarize(runs []result) summary {
	var s summary
	tputs := make([]float64, len(runs))
	cpus := make([]time.Duration, len(runs))
	for i, r := range runs {
		tputs[i], cpus[i] = r.throughput(), r.cpuPerRequest
		s.errors += r.errors
		if r.throughput() > s.best.throughput() || i == 0 {
			s.best = r
		}
	}
	slices.Sort(tputs)
	slices.Sort(cpus)
	s.minTput, s.maxTput, s.medianTput, s.medianCPU = tputs[0], tputs[len(tputs)-1], tputs[len(tputs)/2], cpus[len(cpus)/2]
	return s
}

// report prints, per number of clients, each server's best run (its
// throughput and latencies), the spread of throughput over all runs, the
// median server CPU per request, and mobilemcp as a share of the floor.
func report(clients []int, f, o *target, results map[*target]map[int][]result) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "clients\tserver\tbest req/s\tall runs req/s\tmedian req/s\tp50\tp99\tserver CPU/req\terrors\t")
	for _, c := range clients {
		fs, os := summarize(results[f][c]), summarize(results[o][c])
		for _, row := range []struct {
			t *target
			s summary
		}{{f, fs}, {o, os}} {
			fmt.Fprintf(tw, "%d\t%s\t%.0f\t%.0f–%.0f\t%.0f\t%s\t%s\t%s\t%d\t\n", c, row.t.name,
				row.s.best.throughput(), row.s.minTput, row.s.maxTput, row.s.medianTput,
				ms(row.s.best.p50), ms(row.s.best.p99), us(row.s.medianCPU), row.s.errors)
		}
		fmt.Fprintf(tw, "\tmobilemcp / floor\t%.0f%%\t\t%.0f%%\t\t\t%.0f%% of the floor's req per CPU-second\t\t\n",
			100*os.best.throughput()/fs.best.throughput(), 100*os.medianTput/fs.medianTput,
			100*float64(fs.medianCPU)/float64(os.medianCPU))
	}
	tw.Flush()
}

func gogc() string {
	if v := os.Getenv("GOGC"); v != "" {
		return v
	}
	return "100 (default)"
}
