// Command mcpbench measures mobilemcp's MCP server against the floor the
// SDK sets: tools/call of get_sms_subscriptions through the whole stack
// (token, Origin check, rate limiter, call log, engine on the simulated
// phone) and tools/call of a no-op tool on a bare go-sdk server. A third
// server, a bare one whose tool returns mobilemcp's reply as a constant,
// shows how much of the difference is the reply's size alone.
//
// All are stateless with JSON replies, each in a process of its own, loaded
// over loopback by this process at 1, 8 and 64 concurrent clients. Their
// runs take turns, so all see the same machine; each cell is repeated and
// reported as its best run and the spread of all runs.
//
//	go run ./internal/cmd/mcpbench [-rounds 5] [-duration 2s] [-clients 1,8,64] [-v]
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
	var targets []*target
	for _, name := range serverNames {
		t, err := start(name)
		if err != nil {
			return err
		}
		defer t.stop()
		if !call(newClient(1), t) {
			return fmt.Errorf("%s does not answer tools/call", t.name)
		}
		targets = append(targets, t)
	}

	fmt.Printf("mcpbench: tools/call, protocol 2025-11-25, stateless JSON, loopback; each server in its own process\n")
	fmt.Printf("%s, %s/%s, %d CPUs, GOGC=%s, %d rounds of %s per cell (after %s warm-up), servers taking turns\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), gogc(), rounds, d, warmup)

	results := map[*target]map[int][]result{}
	for _, t := range targets {
		results[t] = map[int][]result{}
	}
	for round := range rounds {
		for _, c := range clients {
			for i := range targets {
				t := targets[(i+round)%len(targets)] // none always goes first
				r, err := load(t, c, warmup, d)
				if err != nil {
					return err
				}
				results[t][c] = append(results[t][c], r)
				if verbose {
					fmt.Printf("round %d  %-41s c=%-3d %7.0f req/s  p50 %s  p99 %s  server CPU %s/req  errors %d\n",
						round+1, t.name, c, r.throughput(), ms(r.p50), ms(r.p99), us(r.cpuPerRequest), r.errors)
				}
			}
		}
	}
	if verbose {
		fmt.Println()
	}
	report(clients, targets, results)
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
// median server CPU per request, and the last server (mobilemcp) as a
// share of each of the others.
func report(clients []int, targets []*target, results map[*target]map[int][]result) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "clients\tserver\tbest req/s\tall runs req/s\tmedian req/s\tp50\tp99\tserver CPU/req\terrors\t")
	for _, c := range clients {
		sums := make([]summary, len(targets))
		for i, t := range targets {
			s := summarize(results[t][c])
			sums[i] = s
			fmt.Fprintf(tw, "%d\t%s\t%.0f\t%.0f–%.0f\t%.0f\t%s\t%s\t%s\t%d\t\n", c, t.name,
				s.best.throughput(), s.minTput, s.maxTput, s.medianTput, ms(s.best.p50), ms(s.best.p99), us(s.medianCPU), s.errors)
		}
		ours := sums[len(sums)-1]
		for i, base := range sums[:len(sums)-1] {
			fmt.Fprintf(tw, "\tmobilemcp / %s\t%.0f%%\t\t%.0f%%\t\t\t%.0f%% of its requests per CPU-second\t\t\n", serverNames[i],
				100*ours.best.throughput()/base.best.throughput(), 100*ours.medianTput/base.medianTput,
				100*float64(base.medianCPU)/float64(ours.medianCPU))
		}
	}
	tw.Flush()
}

func gogc() string {
	if v := os.Getenv("GOGC"); v != "" {
		return v
	}
	return "100 (default)"
}
