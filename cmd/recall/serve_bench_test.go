package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/recallhq/recall/service/httpapi"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/synth"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service/mcptools"
	boltstore "github.com/recallhq/recall/store/bolt"
)

// Load benchmark of the HTTP API (docs/performance.md, "Serving").
//
//	go test -run '^$' -bench BenchmarkServeRetrieve -benchtime 4000x ./cmd/recall
//
// It loads 10,000 synthetic entries (internal/synth, about 80 terms each)
// into a bolt store, serves them on a loopback listener, and sends POST
// /v1/retrieve with synthetic 3-term queries (default limit, budget and
// links) from 1, 8 and 64 concurrent clients, each request on a kept-alive
// connection. "inprocess" is Engine.Retrieve for the same queries in the
// same process, "handler" the server's handler without the network
// (decode, retrieve, encode), "healthz" an HTTP request that does nothing.
// "overhead" times each query in-process and over HTTP back to back and
// reports the difference of the medians. b.N is the request count of each
// sub-benchmark, so -benchtime bounds the run either way.

const (
	benchEntries = 10000
	benchQueries = 256
)

type serveBench struct {
	eng     *retrieve.Engine
	handler http.Handler
	base    string // http://127.0.0.1:port
	url     string // POST /v1/retrieve
	client  *http.Client
	queries []string
	bodies  [][]byte
}

func newServeBench(b *testing.B) *serveBench {
	b.Helper()
	st, err := boltstore.Open(filepath.Join(b.TempDir(), "bench.db"), &boltstore.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	gen := synth.New(1, 20000)
	for _, e := range gen.Entries(benchEntries, 80) {
		if err := st.Put(ctx, e); err != nil {
			b.Fatal(err)
		}
	}
	a := &app{getenv: func(string) string { return "" }}
	m, err := a.newMemory(st, &engineFlags{analysis: analyzerFlags{segmenter: "off"}}, log.New(io.Discard, "", 0))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := m.Engine().Snapshot(ctx); err != nil { // the index is built before timing
		b.Fatal(err)
	}
	h, err := httpapi.New(m, httpapi.Options{})
	if err != nil {
		b.Fatal(err)
	}
	h.Handle("/mcp", mcptools.NewHTTPHandler(m, mcptools.Options{})) // as recall serve mounts it (BenchmarkServeMCP)
	hs := httptest.NewServer(h)
	tr := &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256, ReadBufferSize: 64 << 10}
	b.Cleanup(func() {
		tr.CloseIdleConnections()
		hs.Close()
		st.Close()
	})
	sb := &serveBench{eng: m.Engine(), handler: h, base: hs.URL, url: hs.URL + "/v1/retrieve", client: &http.Client{Transport: tr}}
	for range benchQueries {
		q := gen.Query(3)
		body, _ := json.Marshal(map[string]string{"query": q})
		sb.queries = append(sb.queries, q)
		sb.bodies = append(sb.bodies, body)
	}
	return sb
}

func BenchmarkServeRetrieve(b *testing.B) {
	sb := newServeBench(b)
	ctx := context.Background()
	inproc := func(i int) error {
		_, err := sb.eng.Retrieve(ctx, retrieve.Request{Query: sb.queries[i%benchQueries]})
		return err
	}

	b.Run("inprocess", func(b *testing.B) {
		sb.measure(b, 1, inproc)
	})
	// The handler without the network: decode, retrieve, encode.
	b.Run("handler", func(b *testing.B) {
		sb.measure(b, 1, func(i int) error {
			rec := httptest.NewRecorder()
			// A loopback Host and a JSON body, as a real client sends: the
			// handler refuses others (403, 415) before retrieving.
			req := httptest.NewRequest("POST", "http://127.0.0.1/v1/retrieve", bytes.NewReader(sb.bodies[i%benchQueries]))
			req.Header.Set("Content-Type", "application/json")
			sb.handler.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				return fmt.Errorf("status %d", rec.Code)
			}
			return nil
		})
	})
	// The floor: a request that does nothing (GET /healthz), so the cost
	// of HTTP itself on this machine is known.
	b.Run("healthz", func(b *testing.B) {
		sb.measure(b, 1, func(int) error {
			resp, err := sb.client.Get(sb.base + "/healthz")
			if err != nil {
				return err
			}
			io.Copy(io.Discard, resp.Body)
			return resp.Body.Close()
		})
	})
	// The overhead of HTTP over the in-process retrieve, measured in
	// pairs (the same query both ways, back to back, in alternating order)
	// so that both halves see the same background load.
	b.Run("overhead", func(b *testing.B) {
		var local, remote []time.Duration
		b.ResetTimer()
		for i := range b.N {
			ways := [2]func(int) error{inproc, sb.post}
			into := [2]*[]time.Duration{&local, &remote}
			if i%2 == 1 {
				ways[0], ways[1] = ways[1], ways[0]
				into[0], into[1] = into[1], into[0]
			}
			for k := range 2 {
				t0 := time.Now()
				if err := ways[k](i); err != nil {
					b.Fatal(err)
				}
				*into[k] = append(*into[k], time.Since(t0))
			}
		}
		b.StopTimer()
		lp, rp := percentile(local, 50), percentile(remote, 50)
		b.ReportMetric(micros(lp), "inproc-p50-µs")
		b.ReportMetric(micros(rp), "http-p50-µs")
		b.ReportMetric(micros(rp-lp), "overhead-µs")
	})
	for _, clients := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			sb.measure(b, clients, sb.post)
		})
	}
}

// post sends query i over HTTP and reads the whole answer.
func (sb *serveBench) post(i int) error {
	resp, err := sb.client.Post(sb.url, "application/json", bytes.NewReader(sb.bodies[i%benchQueries]))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

// measure runs b.N calls of fn spread over clients goroutines and reports
// throughput and latency percentiles.
func (sb *serveBench) measure(b *testing.B, clients int, fn func(i int) error) {
	per := make([][]time.Duration, clients)
	var (
		wg   sync.WaitGroup
		next = make(chan int, clients)
		fail = make(chan error, clients)
	)
	b.ResetTimer()
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				t0 := time.Now()
				if err := fn(i); err != nil {
					fail <- err
					return
				}
				per[c] = append(per[c], time.Since(t0))
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range b.N {
			select {
			case next <- i:
			case err := <-fail:
				fail <- err
				return
			}
		}
	}()
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	select {
	case err := <-fail:
		b.Fatal(err)
	default:
	}
	all := slices.Concat(per...)
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "req/s")
	b.ReportMetric(micros(percentile(all, 50)), "p50-µs")
	b.ReportMetric(micros(percentile(all, 99)), "p99-µs")
}

// percentile returns the p-th percentile of d (which it sorts).
func percentile(d []time.Duration, p int) time.Duration {
	slices.Sort(d)
	return d[min(len(d)-1, len(d)*p/100)]
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
