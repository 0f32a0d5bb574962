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
func StdioTransport(in io.Reader, out io.Writer, logger *log.Logger) mcp.Transport {
	pr, pw := io.Pipe()
	w := &lockedWriter{w: out}
	g := &guard{out: w, pass: pw, log: logger}
	go g.run(in)
	return &mcp.IOTransport{Reader: pr, Writer: w, MaxLineLength: -1}
}

// lockedWriter makes each Write (one frame: the SDK writes a frame and its
// newline in one call) atomic between the SDK and the guard's answers.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

type guard struct {
	out  io.Writer
	pass *io.PipeWriter
	log  *log.Logger
}

func (g *guard) run(in io.Reader) {
	br := bufio.NewReaderSize(in, 64<<10)
	for n := 1; ; n++ {
		line, tooLong, err := readLine(br, MaxFrameBytes)
		if tooLong {
			g.reject(n, nil, codeInvalidRequest, fmt.Sprintf("frame is longer than %d bytes", MaxFrameBytes))
		} else if len(bytes.TrimSpace(line)) > 0 {
			if id, code, msg := check(line); code != 0 {
				g.reject(n, id, code, msg)
			} else if _, werr := g.pass.Write(append(line, '\n')); werr != nil {
				return // the server stopped reading
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				g.pass.CloseWithError(err)
				return
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
// pass on, else the error to answer and the id to answer it with.
func check(line []byte) (id json.RawMessage, code int, msg string) {
	if !json.Valid(line) {
		return nil, codeParseError, "parse error: the frame is not valid JSON"
	}
	t := bytes.TrimSpace(line)
	if t[0] == '[' {
		return nil, codeInvalidRequest, "batches (JSON arrays) are not supported; send one request per line"
	}
	if t[0] != '{' {
		return nil, codeInvalidRequest, "a frame must be a JSON object"
	}
	var env map[string]json.RawMessage
	if err := json.Unmarshal(t, &env); err != nil {
		return nil, codeInvalidRequest, "a frame must be a JSON object"
	}
	if raw, ok := env["id"]; ok {
		switch raw[0] {
		case '"':
			id = raw
		case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			if f, err := strconv.ParseFloat(string(raw), 64); err != nil || math.IsInf(f, 0) {
				return nil, codeInvalidRequest, fmt.Sprintf("id %.40s is out of the range of a number id", raw)
			}
			id = raw
		default:
			return nil, codeInvalidRequest, "id must be a string or a number"
		}
	}
	var version string
	if err := json.Unmarshal(env["jsonrpc"], &version); err != nil || version != "2.0" {
		return id, codeInvalidRequest, `"jsonrpc" must be "2.0"`
	}
	if raw, ok := env["method"]; ok {
		var m string
		if err := json.Unmarshal(raw, &m); err != nil {
			return id, codeInvalidRequest, `"method" must be a string`
		}
	} else if id == nil {
		return nil, codeInvalidRequest, `a frame needs a "method" (or, for a response, an "id")`
	}
	if err := jsonkeys.Check(t, envelopeKeys, 0); err != nil {
		return id, codeInvalidRequest, err.Error()
	}
	if depth(t) > MaxFrameDepth {
		return id, codeInvalidRequest, fmt.Sprintf("the frame nests more than %d levels deep", MaxFrameDepth)
	}
	// The SDK's decoder is the last word: what it refuses would end the
	// session, so it is answered here instead.
	if _, err := jsonrpc.DecodeMessage(t); err != nil {
		return id, codeInvalidRequest, fmt.Sprintf("not a JSON-RPC message: %v", err)
	}
	return id, 0, ""
}

// depth is how deeply the valid JSON text b nests.
func depth(b []byte) int {
	d, deepest, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			if d++; d > deepest {
				deepest = d
			}
		case c == '}' || c == ']':
			d--
		}
	}
	return deepest
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
