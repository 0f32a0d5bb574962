package httpapi

import (
	"strings"
	"testing"
)

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1":   true,
		"127.0.0.2":   true,
		"localhost":   true,
		"::1":         true,
		"0.0.0.0":     false,
		"":            false,
		"::":          false,
		"192.168.1.5": false,
		"example.com": false,
	} {
		if got := IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", addr, got, want)
		}
	}
}

func TestCheckListen(t *testing.T) {
	for _, tt := range []struct {
		addr, token string
		tokenSet    bool
		hosts       []string
		err         string // "" for none
	}{
		{"127.0.0.1:7411", "", false, nil, ""},
		{"localhost:0", "", false, []string{"recall.lan"}, ""},
		{"0.0.0.0:7411", "s3cret", true, nil, ""},
		{":7411", "", false, nil, "--addr :7411 is not a loopback address"},
		{"0.0.0.0:7411", "", false, nil, "is not a loopback address: set a bearer token"},
		{"127.0.0.1", "", false, nil, `--addr "127.0.0.1" is not a HOST:PORT address (for example 127.0.0.1:7411 or :7411): missing port in address`},
		{"127.0.0.1:7411", "", true, nil, "the token (--token or $RECALL_TOKEN) is empty"},
		{"127.0.0.1:7411", " s3cret", true, nil, "has surrounding whitespace"},
		{"127.0.0.1:7411", "", false, []string{"http://recall.lan"}, `--allow-host "http://recall.lan": give a host name without scheme or port`},
		{"127.0.0.1:7411", "", false, []string{"recall.lan:80"}, "without scheme or port"},
		{"127.0.0.1:7411", "", false, []string{""}, "--allow-host"},
	} {
		err := CheckListen(tt.addr, tt.token, tt.tokenSet, false, tt.hosts)
		if (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("CheckListen(%q, %q, %v, %q) = %v, want %q", tt.addr, tt.token, tt.tokenSet, tt.hosts, err, tt.err)
		}
	}
}

func TestCheckListenMemoryTokens(t *testing.T) {
	if err := CheckListen("0.0.0.0:7411", "", false, true, nil); err != nil {
		t.Errorf("off loopback with per-memory tokens: %v, want nil", err)
	}
	if err := CheckListen("0.0.0.0:7411", "", false, false, nil); err == nil {
		t.Error("off loopback with no token at all: nil, want an error")
	}
}
