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

// MaxReadMetaBytes bounds the metadata of a row the store serves, as
// PostgreSQL prints it: the text of the tags array plus that of the extra
// jsonb. It is four times store.MaxMetaBytes, which Put measures as JSON,
// because PostgreSQL prints jsonb with a space after each ':' and ','
// and numbers in full (1e300 is 301 digits), so that what recall writes
// always reads back; it stops rows written with SQL (a million tags, a
// 50 MB object) from being read at all.
const MaxReadMetaBytes = 4 * store.MaxMetaBytes

// readCols are the columns a read selects, in the order scan expects: the
// sizes first, then the values, each NULL when its size is over the
// bound, so that an oversized row costs the client a few bytes, never its
// contents (octet_length of a text reads only its header).
var readCols = fmt.Sprintf(`octet_length(content),
	CASE WHEN octet_length(content) <= %[1]d THEN content END,
	octet_length(tags::text) + COALESCE(octet_length(extra::text), 0),
	CASE WHEN octet_length(tags::text) + COALESCE(octet_length(extra::text), 0) <= %[2]d THEN tags END,
	created, updated,
	CASE WHEN octet_length(tags::text) + COALESCE(octet_length(extra::text), 0) <= %[2]d THEN extra END,
	date`,
	store.MaxContentBytes, MaxReadMetaBytes)

// metaCols are readCols without the content (its size only), for Metas;
// the table is e.
var metaCols = fmt.Sprintf(`octet_length(e.content),
	octet_length(e.tags::text) + COALESCE(octet_length(e.extra::text), 0),
	CASE WHEN octet_length(e.tags::text) + COALESCE(octet_length(e.extra::text), 0) <= %[1]d THEN e.tags END,
	e.created, e.updated,
	CASE WHEN octet_length(e.tags::text) + COALESCE(octet_length(e.extra::text), 0) <= %[1]d THEN e.extra END,
	e.date`,
	MaxReadMetaBytes)

// row is the stored part of an entry as read from the entries table.
type row struct {
	contentLen, metaLen int64   // as stored
	content             *string // nil when over store.MaxContentBytes
	tags                []string
	created, updated    time.Time
	extra               []byte     // jsonb text, nil for NULL (or over the bound)
	date                *time.Time // nil for NULL
}

// dest returns the scan destinations of readCols.
func (x *row) dest() []any {
	return []any{&x.contentLen, &x.content, &x.metaLen, &x.tags, &x.created, &x.updated, &x.extra, &x.date}
}

// scanRow reads one row of a get query; found is false when there is none.
func scanRow(r pgx.Row) (row, bool, error) {
	var x row
	err := r.Scan(x.dest()...)
	if errors.Is(err, pgx.ErrNoRows) {
		return row{}, false, nil
	}
	if err != nil {
		return row{}, false, err
	}
	return x, true, nil
}

// entry builds the store.Entry of the row. Times read back in UTC. A row
// over the bounds is an error wrapping store.ErrUnreadable.
func (r row) entry(category, name string) (store.Entry, error) {
	m, err := r.meta()
	if err != nil {
		return store.Entry{}, err
	}
	if r.content == nil { // over the bound: meta said so
		return store.Entry{}, fmt.Errorf("%w: content was not read", store.ErrUnreadable)
	}
	return store.Entry{Category: category, Name: name, Content: *r.content, Meta: m}, nil
}

// meta checks the row's bounds and builds its metadata.
func (r row) meta() (store.Meta, error) {
	var m store.Meta
	if r.contentLen > store.MaxContentBytes {
		return m, fmt.Errorf("%w: content is %d bytes, the limit is %d (written outside recall)",
			store.ErrUnreadable, r.contentLen, store.MaxContentBytes)
	}
	if r.metaLen > MaxReadMetaBytes {
		return m, fmt.Errorf("%w: tags and extra metadata are %d bytes, the limit is %d (written outside recall)",
			store.ErrUnreadable, r.metaLen, MaxReadMetaBytes)
	}
	if len(r.tags) > 0 {
		m.Tags = r.tags
	}
	m.Created = r.created.UTC()
	m.Updated = r.updated.UTC()
	if r.date != nil {
		m.Date = r.date.UTC()
	}
	if len(r.extra) > 0 && !bytes.Equal(r.extra, []byte("null")) {
		extra, err := decodeExtra(r.extra)
		if err != nil {
			return store.Meta{}, err
		}
		m.Extra = extra
	}
	return m, nil
}

// rowError is an error about one row, which it names by its identity as
// stored (what the change feed names), so that a consumer can tell when
// the same row is read again: retrieve.Engine keeps its count of
// unreadable entries by it (the EntryKey method).
type rowError struct {
	key store.Key
	err error
}

func (e rowError) Error() string       { return e.err.Error() }
func (e rowError) Unwrap() error       { return e.err }
func (e rowError) EntryKey() store.Key { return e.key }

// checkStoredKey reports a row whose identity recall would neither write
// nor find: one that breaks the naming rules, or is not in Unicode NFC
// (SPEC §1: identities are NFC; psql may write a macOS file name's NFD).
// Such a row is an unreadable entry, named, never served; Delete of its
// name, in either form, removes it.
func checkStoredKey(category, name string) error {
	if err := store.ValidateKey(category, name); err != nil {
		return fmt.Errorf("row %q/%q: %w: %w", category, name, store.ErrUnreadable, err)
	}
	if c, n := store.NormalizeKey(category, name); c != category || n != name {
		return fmt.Errorf("row %q/%q: %w: its identity is not in Unicode NFC, the form recall writes and looks up (written outside recall); recall rm %s removes it",
			category, name, store.ErrUnreadable, store.Key{Category: c, Name: n})
	}
	return nil
}

// decodeExtra reads the extra metadata as store/bolt does: numbers that
// are integers come back as int, others as float64.
func decodeExtra(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var extra map[string]any
	if err := dec.Decode(&extra); err != nil {
		return nil, fmt.Errorf("%w: extra metadata is not a JSON object: %v", store.ErrUnreadable, err)
	}
	for k, v := range extra {
		extra[k] = store.NormaliseNumbers(v)
	}
	if len(extra) == 0 {
		return nil, nil
	}
	return extra, nil
}
