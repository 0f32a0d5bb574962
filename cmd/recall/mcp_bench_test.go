package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCP over HTTP against the JSON API, on the same server
// (docs/performance.md, "MCP over HTTP"):
//
//	go test -run '^$' -bench BenchmarkServeMCP -benchtime 2000x ./cmd/recall
//
// The server and queries are BenchmarkServeRetrieve's (10,000 synthetic
// entries, bolt, /v1/retrieve and /mcp on one loopback listener). Each
// sub-benchmark (1, 8, 64 concurrent clients) sends b.N retrieves each
// way, in rounds of 50 per client that alternate between the ways (and
// swap which goes first every round), so that every way sees the same
// background load:
//
//   - json: POST /v1/retrieve, the answer read whole and not decoded;
//   - mcp: POST /mcp, a tools/call of retrieve as a client of protocol
//     2025-11-25 sends it (no session: the handler is stateless), the
//     answer read whole and not decoded; the server's cost, like json;
//   - sdk: the official Go SDK's client (one session per client,
//     protocol 2026-07-28, the answer decoded and checked against the
//     tool's output schema): what a Go host sees end to end.
//
// It reports each way's p50 and p90 latency (µs) and throughput (req/s),
// and mcp's and sdk's p50 and throughput as ratios to json's. "handler"
// is the server's own work without the network: the handler answering
// the json and mcp POSTs and an MCP ping (the floor of any MCP request)
// in turn, p50 each.
func BenchmarkServeMCP(b *testing.B) {
	sb := newServeBench(b)
	calls := make([][]byte, benchQueries)
	for i, q := range sb.queries {
		calls[i], _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
			"params": map[string]any{"name": "retrieve", "arguments": map[string]any{"query": q}}})
	}
	mcpPost := func(i int) error {
		req, _ := http.NewRequest("POST", sb.base+"/mcp", bytes.NewReader(calls[i%benchQueries]))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		resp, err := sb.client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		var buf bytes.Buffer
		if _, err := io.Copy(&buf, resp.Body); err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK || bytes.Contains(buf.Bytes(), []byte(`"isError":true`)) {
			return fmt.Errorf("status %d: %.200s", resp.StatusCode, buf.Bytes())
		}
		return nil
	}
	// Every answer is checked once before timing: the same items both ways.
	for i := range 8 {
		if err := sb.post(i); err != nil {
			b.Fatal(err)
		}
		if err := mcpPost(i); err != nil {
			b.Fatal(err)
		}
	}
	// The server's own work, without the network: the handler answers a
	// JSON retrieve, an MCP one and an MCP ping (a request that does
	// nothing: the floor of one MCP request), in turn, b.N times each.
	ping := []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	b.Run("handler", func(b *testing.B) {
		var took [3][]time.Duration // json, mcp, ping
		b.ResetTimer()
		for i := range b.N {
			for k := range 3 {
				way := (i + k) % 3 // rotate which goes first
				req := httptest.NewRequest("POST", "http://127.0.0.1/v1/retrieve", bytes.NewReader(sb.bodies[i%benchQueries]))
				if way > 0 {
					body := calls[i%benchQueries]
					if way == 2 {
						body = ping
					}
					req = httptest.NewRequest("POST", "http://127.0.0.1/mcp", bytes.NewReader(body))
					req.Header.Set("Accept", "application/json, text/event-stream")
					req.Header.Set("MCP-Protocol-Version", "2025-11-25")
				}
				req.Header.Set("Content-Type", "application/json")
				rec := httptest.NewRecorder()
				t0 := time.Now()
				sb.handler.ServeHTTP(rec, req)
				took[way] = append(took[way], time.Since(t0))
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d: %.200s", rec.Code, rec.Body.Bytes())
				}
			}
		}
		b.StopTimer()
		pj, pm, pp := micros(percentile(took[0], 50)), micros(percentile(took[1], 50)), micros(percentile(took[2], 50))
		b.ReportMetric(pj, "json-p50-µs")
		b.ReportMetric(pm, "mcp-p50-µs")
		b.ReportMetric(pp, "ping-p50-µs")
		b.ReportMetric(pm/pj, "mcp/json-p50")
		b.ReportMetric(0, "ns/op")
	})
	ways := []string{"json", "mcp", "sdk"}
	for _, clients := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			sessions := make([]*mcp.ClientSession, clients)
			for c := range sessions {
				tr := &mcp.StreamableClientTransport{Endpoint: sb.base + "/mcp", HTTPClient: sb.client, MaxRetries: -1}
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), tr, nil)
				if err != nil {
					b.Fatal(err)
				}
				defer cs.Close()
				sessions[c] = cs
			}
			sdk := func(c, i int) error {
				res, err := sessions[c].CallTool(context.Background(), &mcp.CallToolParams{Name: "retrieve",
					Arguments: map[string]any{"query": sb.queries[i%benchQueries]}})
				if err == nil && res.IsError {
					err = fmt.Errorf("tool error: %v", res.Content)
				}
				return err
			}
			do := map[string]func(c, i int) error{
				"json": func(_, i int) error { return sb.post(i) },
				"mcp":  func(_, i int) error { return mcpPost(i) },
				"sdk":  sdk,
			}
			const round = 50 // requests per client per way per round
			perClient := max(1, b.N/clients)
			lat := map[string][]time.Duration{}
			busy := map[string]time.Duration{}
			var mu sync.Mutex
			b.ResetTimer()
			for r := 0; r*round < perClient; r++ {
				n := min(round, perClient-r*round)
				order := slices.Clone(ways)
				if r%2 == 1 {
					slices.Reverse(order)
				}
				for _, way := range order {
					var wg sync.WaitGroup
					errs := make(chan error, clients)
					t0 := time.Now()
					for c := range clients {
						wg.Add(1)
						go func() {
							defer wg.Done()
							mine := make([]time.Duration, 0, n)
							for k := range n {
								s := time.Now()
								if err := do[way](c, (c*7919+r*round+k)%benchQueries); err != nil {
									errs <- fmt.Errorf("%s: %v", way, err)
									return
								}
								mine = append(mine, time.Since(s))
							}
							mu.Lock()
							lat[way] = append(lat[way], mine...)
							mu.Unlock()
						}()
					}
					wg.Wait()
					busy[way] += time.Since(t0)
					close(errs)
					for err := range errs {
						b.Fatal(err)
					}
				}
			}
			b.StopTimer()
			p50, thru := map[string]float64{}, map[string]float64{}
			for _, way := range ways {
				p50[way] = micros(percentile(lat[way], 50))
				thru[way] = float64(len(lat[way])) / busy[way].Seconds()
				b.ReportMetric(p50[way], way+"-p50-µs")
				b.ReportMetric(micros(percentile(lat[way], 90)), way+"-p90-µs")
				b.ReportMetric(thru[way], way+"-req/s")
			}
			for _, way := range ways[1:] {
				b.ReportMetric(p50[way]/p50["json"], way+"/json-p50")
				b.ReportMetric(thru["json"]/thru[way], "json/"+way+"-req/s")
			}
			b.ReportMetric(0, "ns/op") // the figures above are the result
		})
	}
}
