package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// result is one measurement: a number of clients loading a target for a
// while.
type result struct {
	requests int // answered in the measured window
	errors   int
	elapsed  time.Duration
	p50, p99 time.Duration
	// cpuPerRequest is the server process's CPU time over the whole run,
	// warm-up included, per request answered. Other jobs on the machine
	// slow a server down but hardly change it, so it is the steadier
	// measure of cost.
	cpuPerRequest time.Duration
}

func (r result) throughput() float64 { return float64(r.requests) / r.elapsed.Seconds() }

// load runs clients closed-loop clients against t for warmup (not
// measured) and then for d.
func load(t *target, clients int, warmup, d time.Duration) (result, error) {
	c := t.caller(clients)
	defer c.close()

	cpuBefore, err := t.cpu()
	if err != nil {
		return result{}, err
	}
	start := time.Now()
	measureFrom := start.Add(warmup)
	end := measureFrom.Add(d)
	var (
		mu        sync.Mutex
		latencies []time.Duration
		errors    int
		total     int // requests answered, warm-up included
		wg        sync.WaitGroup
	)
	for range clients {
		wg.Go(func() {
			var mine []time.Duration
			failed, answered := 0, 0
			for {
				begin := time.Now()
				if begin.After(end) {
					break
				}
				ok := c.call()
				if ok {
					answered++
				}
				if begin.Before(measureFrom) {
					continue
				}
				if !ok {
					failed++
					continue
				}
				mine = append(mine, time.Since(begin))
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			errors += failed
			total += answered
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(measureFrom)
	cpuAfter, err := t.cpu()
	if err != nil {
		return result{}, err
	}
	slices.Sort(latencies)
	r := result{
		requests: len(latencies),
		errors:   errors,
		elapsed:  elapsed,
		p50:      percentile(latencies, 50),
		p99:      percentile(latencies, 99),
	}
	if total > 0 {
		r.cpuPerRequest = (cpuAfter - cpuBefore) / time.Duration(total)
	}
	return r, nil
}

// httpCaller posts the call, each client on its own kept-alive connection.
type httpCaller struct {
	client  *http.Client
	url     string
	body    string
	headers map[string]string
}

func newHTTPCaller(clients int, url string, s server) *httpCaller {
	return &httpCaller{
		client:  &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}},
		url:     url,
		body:    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + s.params + `}`,
		headers: s.headers,
	}
}

func (h *httpCaller) close() { h.client.CloseIdleConnections() }

// call makes one request and reports whether it got a 200 with a result.
func (h *httpCaller) call() bool {
	req, err := http.NewRequest(http.MethodPost, h.url, strings.NewReader(h.body))
	if err != nil {
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	for k, v := range h.headers {
		req.Header.Set(k, v)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return false
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	return err == nil && resp.StatusCode == http.StatusOK && answered(body)
}

// answered reports whether a reply is a result that is not an error.
func answered(reply []byte) bool {
	return bytes.Contains(reply, []byte(`"result"`)) && !bytes.Contains(reply, []byte(`"isError"`))
}

// percentile is the nearest-rank percentile of sorted latencies.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100 // ceil(p/100 * n)
	return sorted[max(rank, 1)-1]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000) }

func us(d time.Duration) string { return fmt.Sprintf("%dµs", d.Microseconds()) }
