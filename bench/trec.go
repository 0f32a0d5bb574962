package bench

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteRun writes a run in the TREC run format that trec_eval and
// pytrec_eval read, one line per hit:
//
//	query-id Q0 doc-id rank score tag
//
// Queries come in the order given; hits in the order Evaluate scores them
// (score descending, ties by id descending), ranks from 1. Ids and the tag
// must not contain white space, which would break the format.
func WriteRun(w io.Writer, tag string, queries []Query, run map[string][]Hit) error {
	if tag == "" || strings.ContainsFunc(tag, isSpace) {
		return fmt.Errorf("write run: tag %q is empty or contains white space", tag)
	}
	bw := bufio.NewWriter(w)
	for _, q := range queries {
		if strings.ContainsFunc(q.ID, isSpace) {
			return fmt.Errorf("write run: query id %q contains white space", q.ID)
		}
		for i, h := range trecOrder(run[q.ID]) {
			if strings.ContainsFunc(h.ID, isSpace) || h.ID == "" {
				return fmt.Errorf("write run: document id %q is empty or contains white space", h.ID)
			}
			bw.WriteString(q.ID)
			bw.WriteString(" Q0 ")
			bw.WriteString(h.ID)
			bw.WriteByte(' ')
			bw.WriteString(strconv.Itoa(i + 1))
			bw.WriteByte(' ')
			// Shortest exact form: ties in the file are ties in memory.
			bw.WriteString(strconv.FormatFloat(h.Score, 'g', -1, 64))
			bw.WriteByte(' ')
			bw.WriteString(tag)
			bw.WriteByte('\n')
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write run: %w", err)
	}
	return nil
}

func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f'
}
