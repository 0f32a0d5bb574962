package server_test

import (
	"bufio"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/server"
	"github.com/recallhq/recall/store/bolt"
)

// ServeStdio answers the MCP handshake on its stdin and stdout, returns
// nil when the host closes stdin, and closes the memory's store.
func TestServeStdio(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	st, err := bolt.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var logs syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- server.ServeStdio(context.Background(), service.New(st, service.Options{}), "a test store", inR, outW, &logs)
		outW.Close()
	}()
	go func() {
		io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(line, `"id":1`) || !strings.Contains(line, `"serverInfo"`) {
		t.Errorf("initialize answer: %s", line)
	}
	inW.Close() // the host hangs up
	go io.Copy(io.Discard, outR)
	if err := <-done; err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	if want := "recall mcp: serving a test store over stdio\n"; !strings.HasPrefix(logs.String(), want) {
		t.Errorf("log %q, want it to start %q", logs.String(), want)
	}
	st2, err := bolt.Open(path, nil) // the lock is released
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	st2.Close()
}
