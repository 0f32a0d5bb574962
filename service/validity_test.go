package service_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/bolt"
	"github.com/recallhq/recall/store/fs"
	"github.com/recallhq/recall/store/postgres"
)

// validityBackends opens a folder, a bbolt file and, when
// RECALL_TEST_POSTGRES_URL is set, a PostgreSQL schema.
func validityBackends(t *testing.T) map[string]store.Store {
	t.Helper()
	ctx := context.Background()
	f, err := fs.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := bolt.Open(filepath.Join(t.TempDir(), "m.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]store.Store{"fs": f, "bolt": b}
	if url := os.Getenv("RECALL_TEST_POSTGRES_URL"); url != "" {
		var rb [6]byte
		_, _ = rand.Read(rb[:])
		schema := "test_" + hex.EncodeToString(rb[:])
		admin, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_, _ = admin.Exec(context.Background(), "DROP SCHEMA IF EXISTS "+schema+" CASCADE")
			admin.Close(context.Background())
		})
		pg, err := postgres.Open(ctx, url, &postgres.Options{Schema: schema})
		if err != nil {
			t.Fatal(err)
		}
		out["postgres"] = pg
	} else if os.Getenv("CI") == "true" {
		t.Fatal("CI=true: the PostgreSQL tests must run")
	}
	t.Cleanup(func() {
		for _, st := range out {
			st.Close()
		}
	})
	return out
}

// Add writes supersedes and expires on every backend; a retrieve leaves
// the superseded and the expired entry out (include_* bring them back,
// marked); get still reads them; an update keeps the keys unless given;
// bad values are refused naming the field, nothing written.
func TestValidityEveryBackend(t *testing.T) {
	ctx := context.Background()
	now := "2026-07-01T12:00:00Z"
	for name, st := range validityBackends(t) {
		t.Run(name, func(t *testing.T) {
			m := service.New(st, service.Options{})
			defer m.Close()
			add := func(r service.AddRequest) {
				t.Helper()
				if _, err := m.Add(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
			add(service.AddRequest{Category: "places", Name: "Paris flat", Content: "flat in Paris"})
			add(service.AddRequest{Category: "places", Name: "Berlin flat", Content: "flat in Berlin", Supersedes: []string{"Paris flat"}})
			add(service.AddRequest{Category: "work", Name: "sprint", Content: "flat sprint", Expires: time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)})
			add(service.AddRequest{Category: "work", Name: "later", Content: "flat later", Expires: time.Date(2026, 7, 2, 0, 0, 0, 0, time.UTC)})
			got := func(p service.RetrieveParams) []string {
				t.Helper()
				p.Query, p.Now = "flat", now
				res, _, err := m.Retrieve(ctx, p)
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, it := range res.Items {
					s := it.Category + ":" + it.Name
					if it.SupersededBy != "" {
						s += ">" + it.SupersededBy
					}
					if it.Expired {
						s += "!"
					}
					for _, x := range it.Supersedes {
						s += "<" + x
					}
					out = append(out, s)
				}
				slices.Sort(out)
				return out
			}
			if g, want := got(service.RetrieveParams{}), []string{"places:Berlin flat<places:Paris flat", "work:later"}; !slices.Equal(g, want) {
				t.Errorf("default: %q, want %q", g, want)
			}
			want := []string{"places:Berlin flat<places:Paris flat", "places:Paris flat>places:Berlin flat", "work:later", "work:sprint!"}
			if g := got(service.RetrieveParams{IncludeSuperseded: true, IncludeExpired: true}); !slices.Equal(g, want) {
				t.Errorf("include both: %q, want %q", g, want)
			}
			// The filtered path (a category filter) leaves them out too.
			if g := got(service.RetrieveParams{Categories: []string{"places"}}); !slices.Equal(g, []string{"places:Berlin flat<places:Paris flat"}) {
				t.Errorf("filtered: %q", g)
			}
			e, err := m.Get(ctx, "places", "Paris flat")
			if err != nil || e.Content != "flat in Paris" {
				t.Errorf("get of a superseded entry: %+v, %v", e, err)
			}
			// An update without the fields keeps them.
			add(service.AddRequest{Category: "places", Name: "Berlin flat", Content: "flat in Berlin, Mitte"})
			if g := got(service.RetrieveParams{}); !slices.Contains(g, "places:Berlin flat<places:Paris flat") {
				t.Errorf("after an update: %q, want the supersession kept", g)
			}
			// An empty list removes it.
			add(service.AddRequest{Category: "places", Name: "Berlin flat", Content: "flat in Berlin", Supersedes: []string{}})
			if g := got(service.RetrieveParams{}); !slices.Contains(g, "places:Paris flat") {
				t.Errorf("after supersedes []: %q, want Paris flat back", g)
			}
			_, err = m.Add(ctx, service.AddRequest{Category: "x", Name: "y", Content: "z", Supersedes: []string{"[[a]] [[b]]"}})
			var fe *store.FieldError
			if !errors.As(err, &fe) || fe.Field != store.MetaSupersedes {
				t.Errorf("bad supersedes: %v, want a field error naming supersedes", err)
			}
			if _, err := m.Get(ctx, "x", "y"); err == nil {
				t.Errorf("a refused add wrote x:y")
			}
		})
	}
}
