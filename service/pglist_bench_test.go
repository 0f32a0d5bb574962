package service_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/postgres"
)

// getEach is a PostgreSQL store without store.MetaReader: a page reads
// each entry with Get, as List did before issue 26.
type getEach struct{ store.Store }

// BenchmarkListPagePostgres times GET /v1/entries?limit=10000's work (a
// started Memory's List of 10,000 entries of 2 KB) over PostgreSQL, with
// the page's metadata read in one query (metas) and with one Get per
// entry (get-each, the code before), alternated in one run:
//
//	go test -run '^$' -bench BenchmarkListPagePostgres -benchtime 5x -count 3 ./service
func BenchmarkListPagePostgres(b *testing.B) {
	url := os.Getenv("RECALL_TEST_POSTGRES_URL")
	if url == "" {
		b.Skip("set RECALL_TEST_POSTGRES_URL")
	}
	ctx := context.Background()
	var r [6]byte
	_, _ = rand.Read(r[:])
	schema := "bench_" + hex.EncodeToString(r[:])
	pg, err := postgres.Open(ctx, url, &postgres.Options{Schema: schema})
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		pg.Close()
		if admin, err := pgx.Connect(ctx, url); err == nil {
			_, _ = admin.Exec(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE")
			admin.Close(ctx)
		}
	}()
	var batch []store.Entry
	for i := range 10000 {
		e := store.Entry{Category: fmt.Sprintf("c%02d", i%50), Name: fmt.Sprintf("n%05d", i), Content: strings.Repeat("lorem ipsum ", 170)}
		e.Meta.Tags = []string{"t"}
		batch = append(batch, e)
	}
	if err := pg.PutBatch(ctx, batch); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		st   store.Store
	}{{"metas", pg}, {"get-each", getEach{pg}}} {
		b.Run(c.name, func(b *testing.B) {
			m := service.New(c.st, service.Options{})
			defer m.Close()
			if err := m.Start(ctx); err != nil {
				b.Fatal(err)
			}
			for h, _ := m.Health(ctx); !h.Indexed; h, _ = m.Health(ctx) {
				time.Sleep(10 * time.Millisecond)
			}
			b.ResetTimer()
			for range b.N {
				p, err := m.List(ctx, service.ListRequest{Limit: 10000})
				if err != nil || len(p.Entries) != 10000 {
					b.Fatalf("%d entries, %v", len(p.Entries), err)
				}
			}
		})
	}
}
