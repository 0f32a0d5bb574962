package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// POST /v1/retrieve answers a long note by its section (the section
// field), and whole_entries by the whole note.
func TestRetrieveSections(t *testing.T) {
	_, h := newHandler(t)
	filler := strings.Repeat("lorem ipsum dolor sit amet ", 90)
	note := "Intro. " + filler + "\n\n## Install\n\n### On Linux\nzebrafish with apt.\n" + filler + "\n\n## Usage\nRun it. " + filler
	body, _ := json.Marshal(map[string]string{"content": note})
	if rec := send(h, "PUT", "/v1/entries/notes/guide", string(body)); rec.Code != http.StatusCreated {
		t.Fatalf("PUT: %d %s", rec.Code, rec.Body)
	}
	for _, c := range []struct {
		body, section string
	}{
		{`{"query":"zebrafish apt"}`, "Install > On Linux"},
		{`{"query":"zebrafish apt","whole_entries":true}`, ""},
	} {
		rec := send(h, "POST", "/v1/retrieve", c.body)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", c.body, rec.Code, rec.Body)
		}
		var res struct {
			Items []map[string]any `json:"items"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
			t.Fatal(err)
		}
		sec, has := res.Items[0]["section"]
		if c.section == "" && has || c.section != "" && sec != c.section {
			t.Errorf("%s: section %v (present %v), want %q", c.body, sec, has, c.section)
		}
		if strings.Contains(rec.Body.String(), `"section": ""`) {
			t.Errorf("%s: an empty section is written", c.body)
		}
	}
}
