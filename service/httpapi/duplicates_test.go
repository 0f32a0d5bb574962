package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// PUT answers name the entries the content duplicates (omitted when
// none); POST /v1/retrieve collapses them into the kept hit, and
// keep_duplicates keeps them.
func TestPutDuplicates(t *testing.T) {
	_, h := newHandler(t)
	put := func(path, body string) string {
		t.Helper()
		rec := send(h, "PUT", path, body)
		if rec.Code != http.StatusCreated && rec.Code != http.StatusOK {
			t.Fatalf("PUT %s: %d %s", path, rec.Code, rec.Body)
		}
		return strings.TrimSpace(rec.Body.String())
	}
	if got := put("/v1/entries/shop/milk", `{"content":"Buy oat milk on Friday"}`); strings.Contains(got, "duplicates") {
		t.Fatalf("first PUT: %s", got)
	}
	var c struct {
		Duplicates []string `json:"duplicates"`
	}
	got := put("/v1/entries/notes/milk", `{"content":"buy  OAT milk on friday"}`)
	if err := json.Unmarshal([]byte(got), &c); err != nil || len(c.Duplicates) != 1 || c.Duplicates[0] != "shop:milk" {
		t.Fatalf("second PUT: %s", got)
	}
	if got := put("/v1/entries/notes/bread", `{"content":"Buy oat bread on Friday"}`); strings.Contains(got, "duplicates") {
		t.Fatalf("another value: %s", got)
	}
	retrieve := func(body string) []map[string]any {
		t.Helper()
		rec := send(h, "POST", "/v1/retrieve", body)
		if rec.Code != http.StatusOK {
			t.Fatalf("retrieve %s: %d %s", body, rec.Code, rec.Body)
		}
		var res struct {
			Items []map[string]any `json:"items"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
			t.Fatal(err)
		}
		return res.Items
	}
	items := retrieve(`{"query":"oat milk"}`)
	if len(items) != 2 || items[0]["collapsed"] == nil {
		t.Fatalf("collapsed retrieve: %v", items)
	}
	items = retrieve(`{"query":"oat milk","keep_duplicates":true}`)
	if len(items) != 3 || items[0]["collapsed"] != nil {
		t.Fatalf("keep_duplicates: %v", items)
	}
	// A filtered retrieve collapses among the hits that pass.
	items = retrieve(`{"query":"oat milk","categories":["notes"]}`)
	if len(items) != 2 || items[0]["collapsed"] != nil {
		t.Fatalf("filtered to notes: %v", items)
	}
}
