package mcptools

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// runGuard feeds data to the stdio guard and returns what it answered
// itself (on out) and what it passed on to the SDK.
func runGuard(data []byte) (answered, passed []byte) {
	var out bytes.Buffer
	pr, pw := io.Pipe()
	g := &guard{out: &out, pass: pw}
	done := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(pr)
		done <- b
	}()
	g.run(bytes.NewReader(data))
	passed = <-done
	return out.Bytes(), passed
}

func lines(b []byte) [][]byte {
	var out [][]byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		l = bytes.TrimSuffix(l, []byte("\r"))
		if len(bytes.TrimSpace(l)) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// FuzzStdioFrames sends arbitrary bytes to the stdio transport's frame
// reader. It must never panic, and every non-blank line must either be
// passed on to the SDK as one JSON-RPC 2.0 object its decoder reads (what
// it refuses would end the session) or answered, on the guard's side,
// with one JSON-RPC error (-32700 or -32600).
func FuzzStdioFrames(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"a","result":{}}`,
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n\n  \n{",
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"1.0","id":1,"method":"ping"}`,
		`{"id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":{},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":7}`,
		`{"jsonrpc":"2.0"}`,
		`"just a string"`, `null`, `1`, `{`, "\xff\xfe", "\u00a0{}",
		`{"jsonrpc":"2.0","jsonrpc":"1.0","id":1,"method":"ping"}`,
		// Frames the SDK's decoder refuses, which used to end the session.
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-1e309,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":` + strings.Repeat("[", 4000) + strings.Repeat("]", 4000) + `}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}`,
		`{"jsonrpc":"2.0","method":"x","params":{"s":"[[[[\"]]"}}`,
		// The one key rule (internal/jsonkeys).
		`{"jsonrpc":"2.0","id":1,"Method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","id":2}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":{"b":1,"b":2}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		answered, passed := runGuard(data)
		in, ans, pass := lines(data), lines(answered), lines(passed)
		if len(ans)+len(pass) != len(in) {
			t.Fatalf("%d non-blank lines in, %d answered + %d passed on", len(in), len(ans), len(pass))
		}
		for _, l := range ans {
			var e struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(l, &e); err != nil || e.JSONRPC != "2.0" || e.ID == nil || e.Error == nil ||
				(e.Error.Code != codeParseError && e.Error.Code != codeInvalidRequest) || e.Error.Message == "" {
				t.Fatalf("answer %q is not a JSON-RPC error (%v)", l, err)
			}
		}
		for _, l := range pass {
			var env struct {
				JSONRPC string `json:"jsonrpc"`
			}
			if err := json.Unmarshal(l, &env); err != nil || env.JSONRPC != "2.0" {
				t.Fatalf("passed on %q, which is no JSON-RPC 2.0 object (%v)", l, err)
			}
			if _, err := jsonrpc.DecodeMessage(l); err != nil {
				t.Fatalf("passed on %.200q, which the SDK refuses: %v", l, err)
			}
		}
	})
}
