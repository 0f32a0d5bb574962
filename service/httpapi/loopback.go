package httpapi

import (
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
