package location

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestDefaultPath(t *testing.T) {
	tests := []struct {
		name    string
		goos    string
		env     map[string]string
		want    string // "" means an error is expected
		errHint string
	}{
		{"linux xdg", "linux", map[string]string{"HOME": "/home/u", "XDG_DATA_HOME": "/data"},
			filepath.Join("/data", "recall", "memory"), ""},
		{"linux home", "linux", map[string]string{"HOME": "/home/u"},
			filepath.Join("/home/u", ".local", "share", "recall", "memory"), ""},
		{"linux relative xdg is ignored", "linux", map[string]string{"HOME": "/home/u", "XDG_DATA_HOME": "data"},
			filepath.Join("/home/u", ".local", "share", "recall", "memory"), ""},
		{"freebsd like linux", "freebsd", map[string]string{"HOME": "/usr/home/u"},
			filepath.Join("/usr/home/u", ".local", "share", "recall", "memory"), ""},
		{"linux no home", "linux", map[string]string{}, "", "$HOME"},
		{"darwin ignores xdg", "darwin", map[string]string{"HOME": "/Users/u", "XDG_DATA_HOME": "/data"},
			filepath.Join("/Users/u", "Library", "Application Support", "recall", "memory"), ""},
		{"darwin no home", "darwin", map[string]string{}, "", "$HOME"},
		{"windows local app data", "windows", map[string]string{"LOCALAPPDATA": `C:\Users\u\AppData\Local`, "USERPROFILE": `C:\Users\u`},
			filepath.Join(`C:\Users\u\AppData\Local`, "recall", "memory"), ""},
		{"windows from profile", "windows", map[string]string{"USERPROFILE": `C:\Users\u`},
			filepath.Join(`C:\Users\u`, "AppData", "Local", "recall", "memory"), ""},
		{"windows nothing", "windows", map[string]string{"HOME": "/home/u"}, "", "LocalAppData"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DefaultPath(tt.goos, func(k string) string { return tt.env[k] })
			if tt.want == "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHint) || !strings.Contains(err.Error(), "--store") {
					t.Fatalf("got %q, %v; want an error naming %s and --store", got, err, tt.errHint)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestExpandHome(t *testing.T) {
	env := func(k string) string { return map[string]string{"HOME": "/home/u", "USERPROFILE": `C:\Users\u`}[k] }
	tests := []struct {
		goos, in, want string
	}{
		{"linux", "~/memory", "/home/u/memory"},
		{"linux", "~", "/home/u"},
		{"linux", "~bob/memory", "~bob/memory"}, // another user's home: left alone
		{"linux", "/srv/~/memory", "/srv/~/memory"},
		{"linux", "memory", "memory"},
		{"windows", `~\memory`, `C:\Users\u\memory`},
	}
	for _, tt := range tests {
		if got := ExpandHome(tt.in, tt.goos, env); got != tt.want {
			t.Errorf("ExpandHome(%q, %s) = %q, want %q", tt.in, tt.goos, got, tt.want)
		}
	}
	if got := ExpandHome("~/m", "linux", func(string) string { return "" }); got != "~/m" {
		t.Errorf("without HOME: %q, want it unchanged", got)
	}
}
