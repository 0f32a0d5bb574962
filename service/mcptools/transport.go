package mcptools

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recallhq/recall/internal/jsonkeys"
)

// MaxFrameBytes bounds one inbound JSON-RPC frame (one line) of the stdio
// transport: an HTTP body's bound (4 MiB, room for a 1 MiB entry escaped)
// plus the envelope.
const MaxFrameBytes = 4<<20 + 64<<10

// MaxFrameDepth is how deeply a frame may nest ({"params":{…}} counts
// two): the SDK's decoder refuses deeper ones.
const MaxFrameDepth = 1000

// JSON-RPC error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// StdioTransport returns an MCP transport over newline-delimited JSON-RPC
// on in and out (a host's pipes) that survives bad input. The SDK's own
// transport ends the session at the first frame it cannot decode; this one
// checks every line first and answers a bad one itself, on out, without
// passing it on: invalid JSON gets -32700, and a batch array, a
// "jsonrpc" other than "2.0", a missing "jsonrpc", an id that is not a
// string or a number, a numeric id that overflows a float64 ("id":1e400),
// a "method" that is not a string, a key twice in one object or a case
// variant of a member's name ("Method"; the rule of internal/jsonkeys,
// which the tools' arguments and JSONL import follow too), nesting deeper
// than MaxFrameDepth, a
// line over MaxFrameBytes, or anything else the SDK's own decoder
// (jsonrpc.DecodeMessage) refuses gets -32600 (with the request's id when
// it has a usable one, else null). Each is also logged to logger (nil: not logged). Blank
// lines are skipped. The server goes on with the next line.
//
// At the end of in, the session ends once every request passed on has
// been answered (or after DrainTimeout): a host that writes its requests
// and closes stdin gets every answer.
func StdioTransport(in io.Reader, out io.Writer, logger *log.Logger) mcp.Transport {
	pr, pw := io.Pipe()
	fl := &inflight{ids: map[string]int{}}
	w := &lockedWriter{w: out, fl: fl}
	g := &guard{out: w, pass: pw, log: logger, fl: fl}
	go g.run(in)
	return &mcp.IOTransport{Reader: pr, Writer: w, MaxLineLength: -1}
}

// DrainTimeout bounds how long the stdio transport waits, at the end of
// its input, for the answers to requests still being served.
const DrainTimeout = 10 * time.Second

// lockedWriter makes each Write (one frame: the SDK writes a frame and its
// newline in one call) atomic between the SDK and the guard's answers, and
// marks the requests it answers as done.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
	fl *inflight
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	n, err := l.w.Write(p)
	l.mu.Unlock()
	if l.fl != nil && l.fl.busy() {
		if msg, derr := jsonrpc.DecodeMessage(bytes.TrimSpace(p)); derr == nil {
			if resp, ok := msg.(*jsonrpc.Response); ok {
				l.fl.done(resp.ID)
			}
		}
	}
	return n, err
}

// inflight counts the requests passed on to the SDK and not yet answered,
// by id.
type inflight struct {
	mu  sync.Mutex
	ids map[string]int
}

func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%T:%v", id.Raw(), id.Raw()) }

func (f *inflight) start(id jsonrpc.ID) {
	f.mu.Lock()
	f.ids[idKey(id)]++
	f.mu.Unlock()
}

func (f *inflight) done(id jsonrpc.ID) {
	f.mu.Lock()
	k := idKey(id)
	if f.ids[k]--; f.ids[k] <= 0 {
		delete(f.ids, k)
	}
	f.mu.Unlock()
}

func (f *inflight) busy() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.ids) > 0
}

// drain waits until no request is in flight, or for timeout.
func (f *inflight) drain(timeout time.Duration) {
	for end := time.Now().Add(timeout); f.busy() && time.Now().Before(end); {
		time.Sleep(5 * time.Millisecond)
	}
}

func (l *lockedWriter) Close() error { return nil }

type guard struct {
	out  io.Writer
	pass *io.PipeWriter
	log  *log.Logger
	fl   *inflight // nil: no drain at the end of input
}

func (g *guard) run(in io.Reader) {
	br := bufio.NewReaderSize(in, 64<<10)
	for n := 1; ; n++ {
		line, tooLong, err := readLine(br, MaxFrameBytes)
		if tooLong {
			g.reject(n, nil, codeInvalidRequest, fmt.Sprintf("frame is longer than %d bytes", MaxFrameBytes))
		} else if len(bytes.TrimSpace(line)) > 0 {
			if id, code, msg, req := check(line); code != 0 {
				g.reject(n, id, code, msg)
			} else {
				if req != nil && req.ID.IsValid() && g.fl != nil {
					g.fl.start(req.ID)
				}
				if _, werr := g.pass.Write(append(line, '\n')); werr != nil {
					return // the server stopped reading
				}
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				g.pass.CloseWithError(err)
				return
			}
			if g.fl != nil {
				g.fl.drain(DrainTimeout)
			}
			g.pass.Close()
			return
		}
	}
}

func (g *guard) reject(n int, id json.RawMessage, code int, msg string) {
	if g.log != nil {
		g.log.Printf("frame %d dropped: %s", n, msg)
	}
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	g.out.Write(append(b, '\n'))
}

// envelopeKeys are a JSON-RPC frame's members, spelled exactly.
var envelopeKeys = []string{"jsonrpc", "id", "method", "params", "result", "error"}

// check validates one frame's envelope. It returns code 0 for a frame to
// pass on (and the request it is, if it is one), else the error to answer
// and the id to answer it with.
func check(line []byte) (id json.RawMessage, code int, msg string, req *jsonrpc.Request) {
	if !json.Valid(line) {
		return nil, codeParseError, "parse error: the frame is not valid JSON", nil
	}
	t := bytes.TrimSpace(line)
	if t[0] == '[' {
		return nil, codeInvalidRequest, "batches (JSON arrays) are not supported; send one request per line", nil
	}
	if t[0] != '{' {
		return nil, codeInvalidRequest, "a frame must be a JSON object", nil
	}
	var env map[string]json.RawMessage
	if err := json.Unmarshal(t, &env); err != nil {
		return nil, codeInvalidRequest, "a frame must be a JSON object", nil
	}
	if raw, ok := env["id"]; ok {
		switch raw[0] {
		case '"':
			id = raw
		case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			if f, err := strconv.ParseFloat(string(raw), 64); err != nil || math.IsInf(f, 0) {
				return nil, codeInvalidRequest, fmt.Sprintf("id %.40s is out of the range of a number id", raw), nil
			}
			id = raw
		default:
			return nil, codeInvalidRequest, "id must be a string or a number", nil
		}
	}
	var version string
	if err := json.Unmarshal(env["jsonrpc"], &version); err != nil || version != "2.0" {
		return id, codeInvalidRequest, `"jsonrpc" must be "2.0"`, nil
	}
	if raw, ok := env["method"]; ok {
		var m string
		if err := json.Unmarshal(raw, &m); err != nil {
			return id, codeInvalidRequest, `"method" must be a string`, nil
		}
	} else if id == nil {
		return nil, codeInvalidRequest, `a frame needs a "method" (or, for a response, an "id")`, nil
	}
	if err := jsonkeys.Check(t, envelopeKeys, MaxFrameDepth); err != nil {
		if ke := (*jsonkeys.Error)(nil); errors.As(err, &ke) && ke.Key == "" { // nesting too deep
			return id, codeInvalidRequest, fmt.Sprintf("the frame nests more than %d levels deep", MaxFrameDepth), nil
		}
		return id, codeInvalidRequest, err.Error(), nil
	}
	// The SDK's decoder is the last word: what it refuses would end the
	// session, so it is answered here instead.
	m, err := jsonrpc.DecodeMessage(t)
	if err != nil {
		return id, codeInvalidRequest, fmt.Sprintf("not a JSON-RPC message: %v", err), nil
	}
	req, _ = m.(*jsonrpc.Request)
	return id, 0, "", req
}

// readLine returns the next line without its "\n" or "\r\n". A line
// longer than max is consumed and reported as tooLong instead of being
// held in memory. err is io.EOF with the last line of the stream.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+2 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		return line, tooLong, err
	}
}
