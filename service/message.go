package service

import (
	"context"
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recallhq/recall/retrieve"
)

// messageCuts bounds how many times RetrieveMessage shortens a message
// whose words exceed MaxQueryTerms before it gives up.
const messageCuts = 4

// RetrieveMessage retrieves what the memory holds for a message a person
// wrote to an agent (a chat message, a coding agent's prompt), the query
// of the MCP prompt and of `recall context`. p gives everything but the
// query; the query is the message, cut to the bounds of a query so that a
// long message still retrieves with its beginning: to MaxQueryBytes (on a
// character boundary), then, while it has more than MaxQueryTerms distinct
// terms, to the share of its bytes the limit allows (on a word boundary
// when there is one). A message with no words is a *ParamError on "query",
// as for Retrieve; so is a message that still has too many terms after
// four cuts.
//
// A time phrase in the message narrows the search to its range, as in
// Retrieve; when nothing in that range matches, the message is searched
// again as words only (NoTime), so that a passing "today" in a prompt
// ("can we deploy today?") does not hide what the memory holds on the
// rest of it.
func (m *Memory) RetrieveMessage(ctx context.Context, message string, p RetrieveParams) (*retrieve.Result, retrieve.Request, error) {
	p.Query = cutMessage(strings.TrimSpace(message), MaxQueryBytes)
	req, f, err := p.parse()
	if err != nil {
		return nil, req, err
	}
	if err := m.available(); err != nil {
		return nil, req, err
	}
	for cut := 0; ; cut++ {
		res, got, err := m.retrieve(ctx, req, f)
		if err == nil && len(res.Items) == 0 && res.TimeRange != nil && res.TimeRange.Text != "" && !req.NoTime {
			words := req
			words.NoTime = true
			return m.retrieve(ctx, words, f)
		}
		var te *retrieve.TermsError
		if !errors.As(err, &te) {
			return res, got, err
		}
		if cut == messageCuts {
			return nil, req, paramf("query", "has %d distinct terms, the limit is %d", te.Terms, te.Max)
		}
		req.Query = cutMessage(req.Query, len(req.Query)*te.Max/te.Terms*9/10)
	}
}

// cutMessage returns s cut to at most n bytes: at the last space before
// the cut when there is one in its second half, else at a character
// boundary.
func cutMessage(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	s = s[:n]
	if i := strings.LastIndexFunc(s, unicode.IsSpace); i > len(s)/2 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
