package location

import (
	"context"
	"errors"
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

// Choose takes --store, else $RECALL_STORE, else the per-user default,
// which alone counts as the default; OpenChosen creates a missing store
// only when asked, and says how to make one.
func TestChoose(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, tt := range []struct {
		flag      string
		env       map[string]string
		name      string
		isDefault bool
		err       string
	}{
		{"/m", map[string]string{"RECALL_STORE": "/other", "HOME": "/h"}, "/m", false, ""},
		{"~/m.db", map[string]string{"HOME": "/h"}, "/h/m.db", false, ""},
		{"", map[string]string{"RECALL_STORE": "~/m", "HOME": "/h"}, "/h/m", false, ""},
		{"", map[string]string{"HOME": "/h"}, "/h/.local/share/recall/memory", true, ""},
		{"", map[string]string{}, "", false, "no default store: $HOME is unset"},
	} {
		name, isDefault, err := Choose(tt.flag, "linux", env(tt.env))
		if name != tt.name || isDefault != tt.isDefault || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("Choose(%q, %v) = %q, %v, %v; want %q, %v, %q", tt.flag, tt.env, name, isDefault, err, tt.name, tt.isDefault, tt.err)
		}
	}
	dir := filepath.Join(t.TempDir(), "m")
	_, _, err := OpenChosen(context.Background(), dir, Options{}, env(nil))
	if !errors.Is(err, ErrNotExist) || !strings.Contains(err.Error(), "add or import something first") {
		t.Fatalf("a missing store: %v", err)
	}
	st, loc, err := OpenChosen(context.Background(), dir, Options{Create: true}, env(nil))
	if err != nil || loc.Backend != Folder {
		t.Fatalf("create: %v, %v", loc, err)
	}
	st.Close()
	if _, _, err := OpenChosen(context.Background(), filepath.Join(dir, "a", "b.db"), Options{Create: true}, env(nil)); err == nil {
		t.Error("a typed location got its parent folders")
	}
}
