package httpapi

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Guard is the check a Handler makes before it routes a request, for a
// server that routes requests itself (package service/tenants, several
// memories behind one listener) and mounts Handlers made with
// Options.Authorized: with a token, the bearer token; without one, the
// Host and Origin checks (see Security in the package doc). A Guard is
// safe for concurrent use.
type Guard struct {
	tokenHash  []byte // SHA-256 of the bearer token; nil: none required
	allowHosts map[string]bool
	allowOrigs map[string]bool // normalised: scheme://host:port
}

// NewGuard returns the Guard of opts's Token, AllowHosts and AllowOrigins.
func NewGuard(opts Options) (*Guard, error) {
	if opts.Token != "" && strings.TrimSpace(opts.Token) != opts.Token {
		return nil, errors.New("the bearer token has surrounding whitespace, which no client can send back; remove it")
	}
	g := &Guard{allowHosts: map[string]bool{}, allowOrigs: map[string]bool{}}
	if opts.Token != "" {
		sum := sha256.Sum256([]byte(opts.Token))
		g.tokenHash = sum[:]
	}
	for _, a := range opts.AllowHosts {
		g.allowHosts[strings.ToLower(strings.TrimSuffix(a, "."))] = true
	}
	for _, o := range opts.AllowOrigins {
		n, ok := normalOrigin(o)
		if !ok {
			return nil, fmt.Errorf("allowed origin %q is not an origin such as http://localhost:3000 (scheme, host and optional port, no path)", o)
		}
		g.allowOrigs[n] = true
	}
	return g, nil
}

// CheckOrigin returns the 403 *Error a Guard without a token answers r
// with when its Host is not a loopback or allowed name, or its Origin is
// another site's; nil when r passes, and always with a token.
func (g *Guard) CheckOrigin(r *http.Request) *Error {
	switch {
	case g.tokenHash != nil:
		return nil
	case !g.localHost(r.Host):
		return &Error{Status: http.StatusForbidden, Field: "Host",
			Message: fmt.Sprintf("Host %q is not this machine's loopback name or address; without a token only those (and --allow-host names) are served", r.Host)}
	case !g.localOrigin(r):
		return &Error{Status: http.StatusForbidden, Field: "Origin",
			Message: fmt.Sprintf("requests from a web page at %q are refused: without a token only the server's own origin (a loopback name on this port) and allowed origins are served", r.Header.Get("Origin"))}
	}
	return nil
}

// CheckToken returns the 401 *Error (ErrUnauthorized) when r lacks the
// Guard's bearer token; nil when it has it, and always without a token.
// The comparison takes constant time; hashing first makes it independent
// of the length too.
func (g *Guard) CheckToken(r *http.Request) *Error {
	if g.tokenHash == nil {
		return nil
	}
	if tok, ok := BearerToken(r); ok {
		sum := sha256.Sum256([]byte(tok))
		if subtle.ConstantTimeCompare(sum[:], g.tokenHash) == 1 {
			return nil
		}
	}
	return ErrUnauthorized()
}

// ErrUnauthorized is the 401 answer to a request without the right
// bearer token. (A Handler adds WWW-Authenticate: Bearer realm="recall".)
func ErrUnauthorized() *Error {
	return &Error{Status: http.StatusUnauthorized, Message: "missing or wrong bearer token (send Authorization: Bearer TOKEN)"}
}

// BearerToken is the token of r's "Authorization: Bearer TOKEN" header
// (the scheme in any case, the token trimmed); ok is false without one.
func BearerToken(r *http.Request) (token string, ok bool) {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}

// localHost reports whether a Host header names this machine: a loopback
// address, "localhost" (or a name under .localhost), or an allowed host.
func (g *Guard) localHost(hostport string) bool {
	host := hostport
	if hh, _, err := net.SplitHostPort(hostport); err == nil {
		host = hh
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if host == "" {
		return false
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || g.allowHosts[host] {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// localOrigin reports whether the request's Origin headers, if any, are
// the server's own, an allowed host's or an allowed origin. Command-line
// clients send none; a browser sends the page's, "null" for opaque ones.
// A loopback origin counts as the server's own only on the port the
// request was sent to: another port is another site (SPEC §9).
func (g *Guard) localOrigin(r *http.Request) bool {
	for _, o := range r.Header.Values("Origin") {
		n, ok := normalOrigin(o)
		if !ok {
			return false
		}
		if g.allowOrigs[n] {
			continue
		}
		u, _ := url.Parse(n)
		host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
		if g.allowHosts[host] {
			continue // a name the operator gave: trusted on every port
		}
		if !g.localHost(u.Host) || u.Port() != requestPort(r) {
			return false
		}
	}
	return true
}

// normalOrigin is an origin as scheme://host:port, lower-case, with the
// scheme's default port made explicit; ok is false for anything else
// ("null", a path, no host).
func normalOrigin(o string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(o))
	if err != nil || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	switch {
	case port != "":
	case scheme == "http":
		port = "80"
	case scheme == "https":
		port = "443"
	default:
		return "", false
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port), true
}

// requestPort is the port the request was sent to, from its Host header.
func requestPort(r *http.Request) string {
	if _, p, err := net.SplitHostPort(r.Host); err == nil && p != "" {
		return p
	}
	if r.TLS != nil {
		return "443"
	}
	return "80"
}
