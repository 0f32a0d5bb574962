package httpapi

import (
	"errors"
	"fmt"
	"net"
	"strings"
)

// IsLoopback reports whether a listen host (the HOST of HOST:PORT) only
// listens on this machine: "localhost" or a loopback address. An empty
// host (":7411") means every interface. A server that listens elsewhere
// should require a token (Options.Token), as `recall serve` does.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckListen reports whether a server may listen on addr with token and
// the extra allowed hosts, by the rules `recall serve` applies to its
// flags (the messages name them): addr is HOST:PORT; a token given
// (tokenSet: --token or $RECALL_TOKEN was set) is not empty and has no
// surrounding white space, which no client could send back; off loopback
// (IsLoopback) a token is required, unless memoryTokens says that every
// memory served has tokens of its own (service/tenants); an allowed host
// is a bare host name, without scheme or port.
func CheckListen(addr, token string, tokenSet, memoryTokens bool, allowHosts []string) error {
	if token != strings.TrimSpace(token) || (token == "" && tokenSet) {
		return errors.New("the token (--token or $RECALL_TOKEN) is empty or has surrounding whitespace, which no client could send back")
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q is not a HOST:PORT address (for example 127.0.0.1:7411 or :7411): %v", addr, strings.TrimPrefix(err.Error(), "address "+addr+": "))
	}
	if !IsLoopback(host) && token == "" && !memoryTokens {
		return fmt.Errorf("--addr %s is not a loopback address: set a bearer token with --token or $RECALL_TOKEN", addr)
	}
	for _, h := range allowHosts {
		if h == "" || strings.ContainsAny(h, "/: ") {
			return fmt.Errorf("--allow-host %q: give a host name without scheme or port, e.g. recall.lan", h)
		}
	}
	return nil
}
