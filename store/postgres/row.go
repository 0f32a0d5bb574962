package postgres

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/recallhq/recall/store"
)

// row is the stored part of an entry as read from the entries table.
type row struct {
	content          string
	tags             []string
	created, updated time.Time
	extra            []byte     // jsonb text, nil for NULL
	date             *time.Time // nil for NULL
}

// scanRow reads one row of a get query; found is false when there is none.
func scanRow(r pgx.Row) (row, bool, error) {
	var x row
	err := r.Scan(&x.content, &x.tags, &x.created, &x.updated, &x.extra, &x.date)
	if errors.Is(err, pgx.ErrNoRows) {
		return row{}, false, nil
	}
	if err != nil {
		return row{}, false, err
	}
	return x, true, nil
}

// entry builds the store.Entry of the row. Times read back in UTC.
func (r row) entry(category, name string) (store.Entry, error) {
	e := store.Entry{Category: category, Name: name, Content: r.content}
	if len(r.tags) > 0 {
		e.Meta.Tags = r.tags
	}
	e.Meta.Created = r.created.UTC()
	e.Meta.Updated = r.updated.UTC()
	if r.date != nil {
		e.Meta.Date = r.date.UTC()
	}
	if len(r.extra) > 0 && !bytes.Equal(r.extra, []byte("null")) {
		extra, err := decodeExtra(r.extra)
		if err != nil {
			return store.Entry{}, err
		}
		e.Meta.Extra = extra
	}
	return e, nil
}

// decodeExtra reads the extra metadata as store/bolt does: numbers that
// are integers come back as int, others as float64.
func decodeExtra(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var extra map[string]any
	if err := dec.Decode(&extra); err != nil {
		return nil, fmt.Errorf("extra metadata is not a JSON object: %v", err)
	}
	for k, v := range extra {
		extra[k] = store.NormaliseNumbers(v)
	}
	if len(extra) == 0 {
		return nil, nil
	}
	return extra, nil
}
