package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/internal/synth"
	boltstore "github.com/recallhq/recall/store/bolt"
)

// What memories cost a server (docs/performance.md, "Many memories, one
// server"):
//
//	go test -run '^$' -bench BenchmarkServeMemories -benchtime 1x ./cmd/recall
//
// A real `recall serve` process (built once) holding N memories (1, 10,
// 100), each a bolt file of 1,000 synthetic entries (internal/synth, seed
// 1, about 80 terms each), each with its own token. It reports the time
// from exec to the "listening" line (start-ms), the process's RSS then
// (rss-start-MB) and once every memory has answered a first retrieve
// (rss-open-MB), the first retrieve of each memory in turn (open + index
// build + retrieve: first-p50-ms, first-max-ms), a second retrieve on
// each (warm-p50-ms); then the same after a restart, when each store holds
// the index copy the first run saved (restart-first-p50-ms).
func BenchmarkServeMemories(b *testing.B) {
	bin := recallBinary(b)
	tmpl := filepath.Join(b.TempDir(), "template.db")
	st, err := boltstore.Open(tmpl, &boltstore.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	gen := synth.New(1, 20000)
	for _, e := range gen.Entries(1000, 80) {
		if err := st.Put(context.Background(), e); err != nil {
			b.Fatal(err)
		}
	}
	st.Close()
	queries := make([]string, 64)
	for i := range queries {
		queries[i] = gen.Query(3)
	}
	for _, n := range []int{1, 10, 100} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for range b.N {
				dir := b.TempDir()
				var args []string
				env := childEnv(b)
				for i := range n {
					name := fmt.Sprintf("m%03d", i)
					path := filepath.Join(dir, name+".db")
					copyFile(b, tmpl, path)
					args = append(args, "--memory", name+"="+path, "--memory-token", name+"=env:TOK_"+name)
					env = append(env, "TOK_"+name+"=token-"+name)
				}
				first, warm := serveMemories(b, bin, env, args, n, queries, true)
				restart, _ := serveMemories(b, bin, env, args, n, queries, false)
				b.ReportMetric(median(first), "first-p50-ms")
				b.ReportMetric(slices.Max(first), "first-max-ms")
				b.ReportMetric(median(warm), "warm-p50-ms")
				b.ReportMetric(median(restart), "restart-first-p50-ms")
			}
		})
	}
}

// serveMemories starts the server, retrieves once then again from each
// memory, and stops it; report adds start time and RSS to b.
func serveMemories(b *testing.B, bin string, env, args []string, n int, queries []string, report bool) (first, warm []float64) {
	start := time.Now()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--quiet"}, args...)...)
	cmd.Env = env
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer cmd.Process.Kill()
	var base string
	for deadline := time.Now().Add(time.Minute); base == ""; time.Sleep(time.Millisecond) {
		if m := listenRE.FindStringSubmatch(stderr.String()); m != nil {
			base = m[1]
		} else if time.Now().After(deadline) {
			b.Fatalf("no listening line:\n%s", stderr.String())
		}
	}
	started := time.Since(start)
	rssStart := rssMB(b, cmd.Process.Pid)
	client := &http.Client{Timeout: time.Minute}
	ask := func(i int, q string) float64 {
		name := fmt.Sprintf("m%03d", i)
		req, _ := http.NewRequest("POST", base+"/v1/m/"+name+"/retrieve", strings.NewReader(`{"query":`+strconv.Quote(q)+`}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer token-"+name)
		t0 := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"items"`)) {
			b.Fatalf("%s: %d %s", name, resp.StatusCode, body)
		}
		return float64(time.Since(t0).Microseconds()) / 1000
	}
	for i := range n {
		first = append(first, ask(i, queries[i%len(queries)]))
	}
	for i := range n {
		warm = append(warm, ask(i, queries[(i+7)%len(queries)]))
	}
	if report {
		b.ReportMetric(float64(started.Microseconds())/1000, "start-ms")
		b.ReportMetric(rssStart, "rss-start-MB")
		b.ReportMetric(rssMB(b, cmd.Process.Pid), "rss-open-MB")
	}
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
	return first, warm
}

var listenRE = regexp.MustCompile(`listening on (http://\S+),`)

func rssMB(b *testing.B, pid int) float64 {
	s, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skip("no /proc: RSS is read from /proc/PID/status")
	}
	for line := range strings.Lines(string(s)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return float64(kb) / 1024
		}
	}
	return 0
}

func copyFile(b *testing.B, from, to string) {
	data, err := os.ReadFile(from)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o600); err != nil {
		b.Fatal(err)
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
