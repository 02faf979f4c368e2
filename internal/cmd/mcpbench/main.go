// Command mcpbench measures mobilemcp's MCP server against the floor the
// SDK sets, over both of its transports.
//
// Over Streamable HTTP: tools/call of get_sms_subscriptions through the
// whole stack (token, Origin check, rate limiter, call log, engine on the
// simulated phone) against tools/call of a no-op tool on a bare go-sdk
// server, and a bare server whose tool returns mobilemcp's reply as a
// constant, which shows how much of the difference is the reply's size
// alone. All are stateless with JSON replies.
//
// Over stdio: the same call through ServeStdio (its line guard, call log on
// stderr, engine), against a bare go-sdk server on the SDK's own stdio
// transport returning the same reply.
//
// Each server runs in a process of its own, loaded by this process with 1,
// 8 and 64 concurrent clients (over stdio: requests in flight on the one
// pipe). The runs of one transport's servers take turns, so all see the
// same machine; each cell is repeated and reported as its best run and the
// spread of all runs, and mobilemcp as a share of each floor.
//
//	go run ./internal/cmd/mcpbench [-rounds 5] [-duration 2s] [-clients 1,8,64] [-transports http,stdio] [-v]
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
	transportList := flag.String("transports", "http,stdio", "comma-separated transports to measure: http, stdio")
	verbose := flag.Bool("v", false, "print every measurement")
	child := flag.String("serve", "", "internal: run `server` as a child process")
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
	var chosen []group
	for _, f := range strings.Split(*transportList, ",") {
		i := slices.IndexFunc(groups, func(g group) bool { return g.transport == strings.TrimSpace(f) })
		if i < 0 {
			fmt.Fprintf(os.Stderr, "mcpbench: -transports %q: want http, stdio or both\n", *transportList)
			os.Exit(2)
		}
		chosen = append(chosen, groups[i])
	}
	fmt.Printf("mcpbench: tools/call, protocol 2025-11-25; each server in its own process\n")
	fmt.Printf("%s, %s/%s, %d CPUs, GOGC=%s, %d rounds of %s per cell (after %s warm-up), servers taking turns\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), gogc(), *rounds, *duration, *warmup)
	for _, g := range chosen {
		if err := run(g, clients, *rounds, *warmup, *duration, *verbose); err != nil {
			fmt.Fprintf(os.Stderr, "mcpbench: %v\n", err)
			os.Exit(1)
		}
	}
}

// run measures the servers of g, taking turns.
func run(g group, clients []int, rounds int, warmup, d time.Duration, verbose bool) error {
	var targets []*target
	for _, name := range g.servers {
		t, err := start(name)
		if err != nil {
			return err
		}
		defer t.stop()
		if err := t.check(); err != nil {
			return fmt.Errorf("%s does not answer tools/call: %v", t.name, err)
		}
		targets = append(targets, t)
	}
	fmt.Printf("\n%s\n\n", g.title)

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
					fmt.Printf("round %d  %-45s c=%-3d %7.0f req/s  p50 %s  p99 %s  server CPU %s/req  errors %d\n",
						round+1, t.name, c, r.throughput(), ms(r.p50), ms(r.p99), us(r.cpuPerRequest), r.errors)
				}
			}
		}
	}
	if verbose {
		fmt.Println()
	}
	report(g, clients, targets, results)
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
// median server CPU per request, and the group's last server (mobilemcp)
// against each of the others: the ratios of each round's two runs, which
// ran one after the other, as their median and range. Those paired ratios
// are what to compare before and after a change: a machine shared with
// other work changes both runs of a pair alike.
func report(g group, clients []int, targets []*target, results map[*target]map[int][]result) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "clients\tserver\tbest req/s\tall runs req/s\tmedian req/s\tp50\tp99\tserver CPU/req\terrors\t")
	for _, c := range clients {
		for _, t := range targets {
			s := summarize(results[t][c])
			fmt.Fprintf(tw, "%d\t%s\t%.0f\t%.0f–%.0f\t%.0f\t%s\t%s\t%s\t%d\t\n", c, t.name,
				s.best.throughput(), s.minTput, s.maxTput, s.medianTput, ms(s.best.p50), ms(s.best.p99), us(s.medianCPU), s.errors)
		}
	}
	tw.Flush()
	fmt.Println()
	tw = tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "clients\tpaired runs\treq/s ratio, median (range)\trequests per CPU-second ratio, median (range)\t")
	ours := results[targets[len(targets)-1]]
	for _, c := range clients {
		for i, base := range targets[:len(targets)-1] {
			var tput, cpu []float64
			for r, b := range results[base][c] {
				o := ours[c][r]
				tput = append(tput, o.throughput()/b.throughput())
				cpu = append(cpu, float64(b.cpuPerRequest)/float64(o.cpuPerRequest))
			}
			fmt.Fprintf(tw, "%d\tmobilemcp / %s\t%s\t%s\t\n", c, g.servers[i], ratios(tput), ratios(cpu))
		}
	}
	tw.Flush()
}

// ratios is the median and the range of rs.
func ratios(rs []float64) string {
	slices.Sort(rs)
	return fmt.Sprintf("%.2f× (%.2f–%.2f)", rs[len(rs)/2], rs[0], rs[len(rs)-1])
}

func gogc() string {
	if v := os.Getenv("GOGC"); v != "" {
		return v
	}
	return "100 (default)"
}
