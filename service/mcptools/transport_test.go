package mcptools

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/recallhq/recall/service"
	fsstore "github.com/recallhq/recall/store/fs"
)

// stdioServer runs NewServer on StdioTransport over pipes, as `recall mcp`
// does, and hands back the client's ends.
type stdioServer struct {
	in      *io.PipeWriter
	answers chan []byte // each line the server wrote; closed at its end
	done    chan error
}

func startStdio(t *testing.T) *stdioServer {
	t.Helper()
	st, err := fsstore.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := service.New(st, service.Options{})
	t.Cleanup(func() { m.Close(); st.Close() })
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stdioServer{in: inW, answers: make(chan []byte, 1<<10), done: make(chan error, 1)}
	go func() { // read at once, as a host does, so no write of the server waits
		defer close(s.answers)
		br := bufio.NewReaderSize(outR, 1<<20)
		for {
			l, err := br.ReadBytes('\n')
			if err != nil {
				return
			}
			s.answers <- l
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		s.done <- NewServer(m, Options{}).Run(ctx, StdioTransport(inR, outW, nil))
		outW.Close()
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		go func() {
			for range s.answers {
			}
		}()
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop")
		}
	})
	return s
}

func (s *stdioServer) send(t *testing.T, frame string) {
	t.Helper()
	errc := make(chan error, 1)
	go func() { _, err := io.WriteString(s.in, frame+"\n"); errc <- err }()
	select {
	case err := <-errc:
		if err != nil {
			t.Fatalf("writing a frame: %v (the server stopped reading)", err)
		}
	case err := <-s.done:
		t.Fatalf("the server ended (%v) before reading %.80q", err, frame)
	case <-time.After(20 * time.Second):
		t.Fatalf("the server did not read %.80q", frame)
	}
}

// answer is one frame the server wrote.
type answer struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (s *stdioServer) next(t *testing.T) answer {
	t.Helper()
	select {
	case l, ok := <-s.answers:
		if !ok {
			t.Fatal("no more answers: the server ended")
		}
		var a answer
		if err := json.Unmarshal(l, &a); err != nil {
			t.Fatalf("answer %q: %v", l, err)
		}
		return a
	case <-time.After(20 * time.Second):
		t.Fatal("no answer in 20s")
	}
	return answer{}
}

const initFrame = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// nested is a ping whose frame nests depth levels in all.
func nested(depth int) string {
	return `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":` + strings.Repeat("[", depth-2) + strings.Repeat("]", depth-2) + `}}`
}

// TestStdioSurvivesFramesTheSDKRefuses sends, right after initialize,
// each frame that the guard used to pass on and the SDK's decoder
// refuses (which ended the session, with initialize's answer unsent):
// every one gets a JSON-RPC error and the session answers a ping after it.
func TestStdioSurvivesFramesTheSDKRefuses(t *testing.T) {
	for _, frame := range []string{
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-1e400,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1e400,"result":{}}`,
		nested(1001),
		nested(5000),
		nested(10000),
		nested(10001), // beyond encoding/json's own bound: -32700
		`{"jsonrpc":"2.0","method":"notifications/x","params":` + strings.Repeat("{\"a\":", 1500) + "1" + strings.Repeat("}", 1500) + `}`,
		// The one key rule (internal/jsonkeys).
		`{"jsonrpc":"2.0","id":3,"method":"ping","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping","Method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"a":1,"a":2}}`,
	} {
		t.Run(fmt.Sprintf("%.40s", frame), func(t *testing.T) {
			s := startStdio(t)
			s.send(t, initFrame)
			s.send(t, frame)
			s.send(t, `{"jsonrpc":"2.0","id":"after","method":"ping"}`)
			var got []answer
			for len(got) < 3 {
				got = append(got, s.next(t))
			}
			byID := map[string]answer{}
			for _, a := range got {
				byID[string(a.ID)] = a
			}
			if a, ok := byID["1"]; !ok || a.Error != nil || a.Result == nil {
				t.Errorf("initialize not answered: %+v", got)
			}
			if a, ok := byID[`"after"`]; !ok || a.Error != nil {
				t.Errorf("the ping after the frame not answered: %+v", got)
			}
			var bad int
			for _, a := range got {
				if a.Error != nil && (a.Error.Code == codeInvalidRequest || a.Error.Code == codeParseError) && a.Error.Message != "" {
					bad++
				}
			}
			if bad != 1 {
				t.Errorf("want one -32600 or -32700 answer to the frame, got %+v", got)
			}
		})
	}
}

// TestStdioRandomFrames interleaves many random frames, mostly damaged
// copies of real ones, with valid pings: the server never ends and
// answers every ping.
func TestStdioRandomFrames(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 26))
	s := startStdio(t)
	s.send(t, initFrame)
	if a := s.next(t); a.Error != nil {
		t.Fatalf("initialize: %+v", a.Error)
	}
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	bases := []string{
		`{"jsonrpc":"2.0","id":5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"list","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":9,"result":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`,
		nested(1200),
	}
	pieces := []string{`{`, `}`, `[`, `]`, `"`, `:`, `,`, `1e999`, `-0`, `null`, `"id"`, `"method"`, `\u0000`, "\xff", `"jsonrpc"`, strings.Repeat("[", 1100)}
	const rounds = 1000
	pings := 0
	for i := range rounds {
		f := []byte(bases[rng.IntN(len(bases))])
		for range rng.IntN(4) {
			at := rng.IntN(len(f) + 1)
			switch rng.IntN(3) {
			case 0:
				f = append(f[:at:at], append([]byte(pieces[rng.IntN(len(pieces))]), f[at:]...)...)
			case 1:
				if at < len(f) {
					f = append(f[:at:at], f[at+1:]...)
				}
			case 2:
				if at < len(f) {
					f[at] = byte(rng.IntN(128))
				}
			}
		}
		frame := strings.ReplaceAll(string(f), "\n", " ")
		s.send(t, frame)
		// Frames answered in any order: a valid ping with a fresh id,
		// then read until its answer comes.
		id := fmt.Sprintf(`"ping-%d"`, i)
		s.send(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
		pings++
		for {
			a := s.next(t)
			if string(a.ID) == id {
				if a.Error != nil {
					t.Fatalf("ping %s after %q: %+v", id, frame, a.Error)
				}
				break
			}
		}
	}
	select {
	case err := <-s.done:
		t.Fatalf("the server ended: %v", err)
	default:
	}
	t.Logf("%d pings answered among %d random frames", pings, rounds)
}

// A host that writes its requests and closes stdin at once gets every
// answer: the session ends only when they are sent.
func TestStdioAnswersEverythingBeforeEOF(t *testing.T) {
	s := startStdio(t)
	s.send(t, initFrame)
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	s.send(t, `{"jsonrpc":"2.0","id":"add","method":"tools/call","params":{"name":"add","arguments":{"category":"c","name":"n","content":"sea"}}}`)
	s.send(t, `{"jsonrpc":"2.0","id":"list","method":"tools/call","params":{"name":"list","arguments":{}}}`)
	s.send(t, `{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	s.in.Close()
	got := map[string]bool{}
	timeout := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-s.answers:
			if !ok {
				for _, id := range []string{"1", `"add"`, `"list"`, "4"} {
					if !got[id] {
						t.Errorf("no answer to %s before the session ended (got %v)", id, got)
					}
				}
				return
			}
			var a answer
			if err := json.Unmarshal(l, &a); err != nil {
				t.Fatalf("answer %q: %v", l, err)
			}
			got[string(a.ID)] = true
		case <-timeout:
			t.Fatal("the session did not end 30 s after its input did")
		}
	}
}

// check's answers to frames that nest too deep or break the key rule:
// the limit is MaxFrameDepth levels, the top-level object included.
func TestCheckDepthAndKeys(t *testing.T) {
	for _, tt := range []struct {
		frame string
		msg   string // "" for a frame to pass on
	}{
		{nested(MaxFrameDepth), ""},
		{nested(MaxFrameDepth + 1), "the frame nests more than 1000 levels deep"},
		{`{"jsonrpc":"2.0","id":3,"method":"ping","method":"x"}`, `key "method" appears twice`},
		{`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"a":1,"a":2}}`, `params: key "a" appears twice`},
	} {
		_, code, msg, _ := check([]byte(tt.frame))
		if msg != tt.msg || (tt.msg == "") != (code == 0) {
			t.Errorf("%.60s: code %d, %q; want %q", tt.frame, code, msg, tt.msg)
		}
	}
}
