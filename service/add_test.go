package service_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/recallhq/recall/service"
	fsstore "github.com/recallhq/recall/store/fs"
)

// An update says what it replaced; IfAbsent refuses to replace, on every
// backend, and writes nothing.
func TestAddReplacedAndIfAbsent(t *testing.T) {
	ctx := context.Background()
	long := strings.Repeat("海", 100) // 300 bytes: cut at a character
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			m := service.New(st, service.Options{})
			defer m.Close()
			c, err := m.Add(ctx, service.AddRequest{Category: "trips", Name: "sanya", Content: "\n  \n" + long + "\nday two", Tags: []string{"海边"}})
			if err != nil || c.Status != service.StatusAdded || c.Replaced != nil {
				t.Fatalf("add: %+v, %v", c, err)
			}
			c, err = m.Add(ctx, service.AddRequest{Category: "trips", Name: "sanya", Content: "short"})
			want := service.Replaced{Bytes: 4 + len(long) + 8, FirstLine: strings.Repeat("海", service.MaxFirstLineBytes/3) + "…", Tags: []string{"海边"}}
			if err != nil || c.Status != service.StatusUpdated || c.Replaced == nil || !reflect.DeepEqual(*c.Replaced, want) {
				t.Errorf("update: %+v %+v, %v; want replaced %+v", c, c.Replaced, err, want)
			}
			_, err = m.Add(ctx, service.AddRequest{Category: "trips", Name: "sanya", Content: "lost", IfAbsent: true})
			if !errors.Is(err, service.ErrExists) || !strings.Contains(err.Error(), "trips:sanya") {
				t.Errorf("IfAbsent over an existing entry: %v", err)
			}
			if e, err := m.Get(ctx, "trips", "sanya"); err != nil || e.Content != "short" {
				t.Errorf("after the refused add: %q, %v", e.Content, err)
			}
			if c, err := m.Add(ctx, service.AddRequest{Category: "trips", Name: "new", Content: "x", IfAbsent: true}); err != nil || c.Status != service.StatusAdded {
				t.Errorf("IfAbsent on a new entry: %+v, %v", c, err)
			}
		})
	}
}

// An entry the store cannot read still exists: IfAbsent refuses it, and
// a plain add replaces it saying so.
func TestAddOverUnreadableEntry(t *testing.T) {
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "m")
	st, err := fsstore.Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := service.New(st, service.Options{})
	defer m.Close()
	if err := os.MkdirAll(filepath.Join(root, "trips"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "trips", "sanya.md"), []byte("body \xff\n") /* not UTF-8; broken front matter is read since issue 24 */, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Add(ctx, service.AddRequest{Category: "trips", Name: "sanya", Content: "x", IfAbsent: true}); !errors.Is(err, service.ErrExists) {
		t.Errorf("IfAbsent over an unreadable entry: %v", err)
	}
	c, err := m.Add(ctx, service.AddRequest{Category: "trips", Name: "sanya", Content: "x"})
	if err != nil || c.Replaced == nil || !c.Replaced.Unreadable {
		t.Errorf("add over an unreadable entry: %+v %+v, %v", c, c.Replaced, err)
	}
}
