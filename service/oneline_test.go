package service_test

import (
	"testing"

	"github.com/recallhq/recall/service"
)

func TestOneLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"yaml: line 2:\n  did not find expected key", "yaml: line 2: did not find expected key"},
		{"a\r\n\r\nb\n", "a b"},
	}
	for _, tt := range tests {
		if got := service.OneLine(tt.in); got != tt.want {
			t.Errorf("OneLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
