package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/recallhq/recall/store"
)

// maxLineBytes bounds one JSONL line: the largest content JSON-escaped
// (a CJK character may become a 6-byte \uXXXX) with room for metadata.
const maxLineBytes = 8 * store.MaxContentBytes

// readJSONL queues the entries of a JSONL stream; name is how reports call
// it ("file.jsonl:3").
func readJSONL(ctx context.Context, r io.Reader, name string, im *importer) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, tooLong, err := readLine(br, maxLineBytes)
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("import %s: line %d: %w", name, n, err)
		}
		eof := errors.Is(err, io.EOF)
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // a BOM some editors write
		}
		where := fmt.Sprintf("%s:%d", name, n)
		switch {
		case tooLong:
			im.skip(where, fmt.Errorf("line is longer than %d bytes", maxLineBytes))
		case len(bytes.TrimSpace(line)) == 0:
			// Blank lines, a trailing one included, are not items.
		default:
			if e, err := parseRecord(line); err != nil {
				im.skip(where, err)
			} else {
				im.add(where, e)
			}
		}
		if eof {
			return nil
		}
	}
}

// readLine returns the next line without its "\n" or "\r\n". A line
// longer than max is consumed and reported as tooLong instead of being
// held in memory. err is io.EOF with the last line of the stream.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+2 { // +2: the line break is not content
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
