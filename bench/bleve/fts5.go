package main

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/recallhq/recall/index"

	_ "modernc.org/sqlite" // SQLite with FTS5, pure Go (no cgo)
)

// fts5 is SQLite's full-text index (basic-memory's engine) through
// modernc.org/sqlite, a pure-Go SQLite with FTS5 compiled in, as a peer
// of recall's ranking in BenchmarkRanking. It is fed recall's analyzer
// output (each document's tokens joined by spaces, which the unicode61
// tokenizer splits back as they are: lower case, stemmed, CJK bigrams),
// so it ranks the same terms; its bm25() has k1 = 1.2 and b = 0.75 fixed
// in SQLite, so its scores are not recall's. The database lives in memory,
// one connection, the index optimised (merged into one segment) after the
// load.
type fts5 struct {
	an  *index.Analyzer
	db  *sql.DB
	top *sql.Stmt
}

func newFTS5(ctx context.Context, an *index.Analyzer, docs []index.Input) (*fts5, error) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1) // one in-memory database
	f := &fts5{an: an, db: db}
	if err := f.load(ctx, docs); err != nil {
		db.Close()
		return nil, err
	}
	return f, nil
}

func (f *fts5) load(ctx context.Context, docs []index.Input) error {
	if _, err := f.db.ExecContext(ctx, `CREATE VIRTUAL TABLE t USING fts5(name UNINDEXED, body, tokenize = 'unicode61 remove_diacritics 0')`); err != nil {
		return fmt.Errorf("fts5: %w", err)
	}
	tx, err := f.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ins, err := tx.PrepareContext(ctx, `INSERT INTO t(name, body) VALUES (?, ?)`)
	if err != nil {
		return err
	}
	var toks []string
	for _, d := range docs {
		toks = f.an.AppendTokens(toks[:0], d.Name)
		toks = f.an.AppendTokens(toks, d.Content)
		if _, err := ins.ExecContext(ctx, d.Category+":"+d.Name, strings.Join(toks, " ")); err != nil {
			return fmt.Errorf("fts5 insert: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if _, err := f.db.ExecContext(ctx, `INSERT INTO t(t) VALUES ('optimize')`); err != nil {
		return fmt.Errorf("fts5 optimize: %w", err)
	}
	f.top, err = f.db.PrepareContext(ctx, `SELECT name, rank FROM t WHERE t MATCH ? ORDER BY rank LIMIT ?`)
	return err
}

// match is the FTS5 query of terms: any of them (FTS5 ands bare words).
func match(terms []string) string {
	var b strings.Builder
	for i, t := range terms {
		if i > 0 {
			b.WriteString(" OR ")
		}
		b.WriteString(`"` + strings.ReplaceAll(t, `"`, `""`) + `"`)
	}
	return b.String()
}

// Top returns the names ("category:name") of the k best documents for
// query, analysed with recall's analyzer, and their scores (FTS5's rank:
// lower is better, so the negated bm25).
func (f *fts5) Top(ctx context.Context, query string, k int, dst []string) ([]string, error) {
	terms := f.an.Query(query).Terms
	if len(terms) == 0 {
		return dst, nil
	}
	rows, err := f.top.QueryContext(ctx, match(terms), k)
	if err != nil {
		return dst, err
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var rank float64
		if err := rows.Scan(&name, &rank); err != nil {
			return dst, err
		}
		dst = append(dst, name)
	}
	return dst, rows.Err()
}

func (f *fts5) Close() error { return f.db.Close() }
