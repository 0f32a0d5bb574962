package httpapi_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
	fsstore "github.com/recallhq/recall/store/fs"
)

// bigAnswerEntries entries of about 1 MiB each make one retrieve answer
// of that many MiB, far more than loopback's socket buffers take.
const bigAnswerEntries = 12

const bigRetrieve = `{"query":"beach","limit":100,"budget_tokens":0,"expand_links":false,"keep_duplicates":true}` // the copies make the size

// bigMemory is a folder store whose retrieve for "beach" answers about
// bigAnswerEntries MiB.
func bigMemory(t testing.TB) *service.Memory {
	t.Helper()
	st, err := fsstore.Open(filepath.Join(t.TempDir(), "m"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m := service.New(st, service.Options{})
	t.Cleanup(func() { m.Close() })
	ctx := context.Background()
	content := strings.Repeat("beach sand ", 95_000) // 1,045,000 bytes
	for i := range bigAnswerEntries {
		if _, err := m.Add(ctx, service.AddRequest{Category: "big", Name: fmt.Sprint("e", i), Content: content}); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	return m
}

// serveLoopback serves h on a loopback port until the test ends. ended
// gets one value each time a request's handler returns.
func serveLoopback(t testing.TB, h http.Handler) (addr string, ended chan int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ended = make(chan int, 1000)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		ended <- 1
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), ended
}

// sendAndNotRead sends a retrieve on a connection with a small receive
// buffer and never reads the answer. The connection is closed at the end
// of the test.
func sendAndNotRead(t testing.TB, addr, body string) net.Conn {
	t.Helper()
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "POST /v1/retrieve HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	return c
}

// Clients that send a request and never read the answer are cut off at
// the write timeout: their handlers return, so the answers they pinned
// are freed. Without the bound, the handlers wait in Write for as long
// as the clients keep their connections open.
func TestSlowReadersAreCutOff(t *testing.T) {
	m := bigMemory(t)
	h, err := httpapi.New(m, httpapi.Options{WriteTimeout: time.Second, MaxPendingBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	addr, ended := serveLoopback(t, h)
	const clients = 3
	conns := make([]net.Conn, clients)
	for i := range conns {
		conns[i] = sendAndNotRead(t, addr, bigRetrieve)
	}
	deadline := time.After(60 * time.Second)
	for i := range clients {
		select {
		case <-ended:
		case <-deadline:
			t.Fatalf("after 60 s, %d of %d handlers still hold their answers for clients that do not read", clients-i, clients)
		}
	}
	// The cut-off client finds its answer short: the connection was
	// closed before the whole body was sent.
	conns[0].SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conns[0]), nil)
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	if err == nil || n >= resp.ContentLength {
		t.Errorf("the cut-off client read %d of %d bytes (%v), want a short body", n, resp.ContentLength, err)
	}
}

// While large answers held by clients that do not read fill
// MaxPendingBytes, another large answer is refused with 503 and
// Retry-After (small ones are still answered); once the slow client is
// gone, large answers are sent again.
func TestLargeAnswersInFlightAreCapped(t *testing.T) {
	m := bigMemory(t)
	h, err := httpapi.New(m, httpapi.Options{WriteTimeout: -1, MaxPendingBytes: (bigAnswerEntries + bigAnswerEntries/2) << 20})
	if err != nil {
		t.Fatal(err)
	}
	addr, ended := serveLoopback(t, h)
	client := &http.Client{Timeout: 60 * time.Second}
	post := func(body string) (*http.Response, []byte) {
		t.Helper()
		resp, err := client.Post("http://"+addr+"/v1/retrieve", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, b
	}
	if resp, _ := post(bigRetrieve); resp.StatusCode != http.StatusOK {
		t.Fatalf("a large answer with no other in flight: %d", resp.StatusCode)
	}
	<-ended
	// The slow client reads its status line only: once it says 200, its
	// answer holds its share until the client goes (a 503 means another
	// answer held it: ask again).
	var slow net.Conn
	for {
		slow = sendAndNotRead(t, addr, bigRetrieve)
		slow.SetReadDeadline(time.Now().Add(2 * time.Minute))
		status := make([]byte, len("HTTP/1.1 200"))
		if _, err := io.ReadFull(slow, status); err != nil {
			t.Fatal(err)
		}
		if string(status) == "HTTP/1.1 200" {
			break
		}
		slow.Close()
	}
	resp, b := post(bigRetrieve)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(b), "large answers") {
		t.Fatalf("a second large answer while the first one's client does not read: %d %v %.200s, want 503 with Retry-After and the reason", resp.StatusCode, resp.Header, b)
	}
	if resp, _ := post(`{"query":"beach","limit":1,"budget_tokens":50}`); resp.StatusCode != http.StatusOK {
		t.Errorf("a small answer while the large ones are full: %d, want 200", resp.StatusCode)
	}
	slow.Close()
	for start := time.Now(); ; {
		resp, _ := post(bigRetrieve)
		if resp.StatusCode == http.StatusOK {
			break
		}
		if time.Since(start) > 30*time.Second {
			t.Fatalf("large answers still refused 30 s after the slow client left: %d", resp.StatusCode)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// BenchmarkSlowReaders measures the live heap held by 30 clients that ask
// for a 12 MiB retrieve answer each and never read it: once every answer
// is built and sent or refused (held-MB, 10 s after they asked), and,
// under the default bounds, after the write timeout too
// (held-after-timeout-MB). "unbounded" is the handler without
// bounds, as it was before them. See docs/performance.md.
func BenchmarkSlowReaders(b *testing.B) {
	for _, c := range []struct {
		name string
		opts httpapi.Options
	}{
		{"unbounded", httpapi.Options{WriteTimeout: -1, MaxPendingBytes: -1}},
		{"default", httpapi.Options{}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				m := bigMemory(b)
				h, err := httpapi.New(m, c.opts)
				if err != nil {
					b.Fatal(err)
				}
				addr, _ := serveLoopback(b, h)
				base := liveHeap()
				for range 30 {
					sendAndNotRead(b, addr, bigRetrieve)
				}
				time.Sleep(10 * time.Second)
				b.ReportMetric(float64(liveHeap()-base)/(1<<20), "held-MB")
				if c.opts.WriteTimeout == 0 {
					time.Sleep(httpapi.DefaultWriteTimeout)
					b.ReportMetric(float64(liveHeap()-base)/(1<<20), "held-after-timeout-MB")
				}
			}
		})
	}
}

// liveHeap is the heap in use after a collection.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC() // sync.Pool's victims too
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
