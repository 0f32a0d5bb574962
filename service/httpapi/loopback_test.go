package httpapi

import "testing"

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
