package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// PUT takes supersedes and expires; POST /v1/retrieve leaves the
// superseded and expired entries out, and include_superseded and
// include_expired bring them back marked; a bad value is a 400 naming
// the field, with nothing written.
func TestPutValidity(t *testing.T) {
	_, h := newHandler(t)
	for path, body := range map[string]string{
		"/v1/entries/places/Paris%20flat":  `{"content":"flat in Paris"}`,
		"/v1/entries/places/Berlin%20flat": `{"content":"flat in Berlin","supersedes":["[[places:Paris flat|the old one]]"]}`,
		"/v1/entries/work/sprint":          `{"content":"flat sprint","expires":"2026-07-01T12:00:00+02:00"}`,
	} {
		if rec := send(h, "PUT", path, body); rec.Code != http.StatusCreated {
			t.Fatalf("PUT %s: %d %s", path, rec.Code, rec.Body)
		}
	}
	retrieve := func(body string) map[string]string {
		t.Helper()
		rec := send(h, "POST", "/v1/retrieve", body)
		if rec.Code != http.StatusOK {
			t.Fatalf("retrieve %s: %d %s", body, rec.Code, rec.Body)
		}
		var res struct {
			Items []struct {
				Name         string   `json:"name"`
				SupersededBy string   `json:"superseded_by"`
				Supersedes   []string `json:"supersedes"`
				Expired      bool     `json:"expired"`
			} `json:"items"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, it := range res.Items {
			v := it.SupersededBy + "|" + strings.Join(it.Supersedes, ",")
			if it.Expired {
				v += "|expired"
			}
			out[it.Name] = v
		}
		return out
	}
	got := retrieve(`{"query":"flat","now":"2026-07-01T10:00:00Z"}`)
	if len(got) != 1 || got["Berlin flat"] != "|places:Paris flat" {
		t.Errorf("default: %v", got)
	}
	got = retrieve(`{"query":"flat","now":"2026-07-01T09:59:59Z","include_superseded":true}`)
	if len(got) != 3 || got["Paris flat"] != "places:Berlin flat|" || got["sprint"] != "|" {
		t.Errorf("include_superseded, before the expiry: %v", got)
	}
	got = retrieve(`{"query":"flat","now":"2026-07-01T10:00:00Z","include_expired":true}`)
	if len(got) != 2 || got["sprint"] != "||expired" {
		t.Errorf("include_expired: %v", got)
	}
	for _, c := range []struct{ body, field string }{
		{`{"content":"x","expires":"next week"}`, "expires"},
		{`{"content":"x","supersedes":["[[a]] [[b]]"]}`, "supersedes"},
	} {
		rec := send(h, "PUT", "/v1/entries/x/y", c.body)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), c.field) {
			t.Errorf("PUT %s: %d %s, want a 400 naming %s", c.body, rec.Code, rec.Body, c.field)
		}
	}
	if rec := send(h, "GET", "/v1/entries/x/y", ""); rec.Code != http.StatusNotFound {
		t.Errorf("a refused PUT wrote x:y: %d", rec.Code)
	}
}
