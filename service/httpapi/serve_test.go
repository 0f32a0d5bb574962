package httpapi

import (
	"bytes"
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"testing"
)

// A cancelled context lets the request in flight finish, then Serve
// returns nil and says so in the log.
func TestServeShutsDownGracefully(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started, release := make(chan struct{}), make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		io.WriteString(w, "done")
	})
	var logBuf bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, h, log.New(&logBuf, "", 0)) }()

	answer := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/")
		if err != nil {
			answer <- "error: " + err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		answer <- string(b)
	}()
	<-started
	cancel()
	close(release)
	if got := <-answer; got != "done" {
		t.Fatalf("request in flight got %q, want done", got)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve = %v, want nil after a shutdown", err)
	}
	if !strings.Contains(logBuf.String(), "shutting down") {
		t.Errorf("log %q lacks the shutdown line", logBuf.String())
	}
	if _, err := net.Dial("tcp", ln.Addr().String()); err == nil {
		t.Error("the listener still accepts after Serve returned")
	}
}

func TestServeReturnsListenerError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	if err := Serve(context.Background(), ln, http.NotFoundHandler(), log.New(io.Discard, "", 0)); err == nil {
		t.Fatal("Serve on a closed listener returned nil")
	}
}
