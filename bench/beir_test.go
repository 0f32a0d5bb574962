package bench

import (
	"errors"
	iofs "io/fs"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func TestLoadTiny(t *testing.T) {
	ds, err := Load(filepath.Join("testdata", "tiny"))
	if err != nil {
		t.Fatal(err)
	}
	if ds.Name != "tiny" || ds.Lang != "en" {
		t.Errorf("name, lang = %q, %q; want tiny, en", ds.Name, ds.Lang)
	}
	if len(ds.Docs) != 6 {
		t.Fatalf("%d docs, want 6", len(ds.Docs))
	}
	if d := ds.Docs[0]; d.ID != "<dbpedia:Sea_Turtle>" || !strings.HasPrefix(d.Content(), "Sea turtle Sea turtles are") {
		t.Errorf("first doc = %+v, content %q", d, d.Content())
	}
	if got := ds.Docs[2].Content(); !strings.HasPrefix(got, "Espresso") {
		t.Errorf("a doc without title has content %q: want the text alone", got)
	}
	// The unjudged query is dropped; file order is kept; the blank line
	// is skipped.
	var ids []string
	for _, q := range ds.Queries {
		ids = append(ids, q.ID)
	}
	if got := strings.Join(ids, ","); got != "q1,q2,q3,q4" {
		t.Errorf("queries = %s, want q1,q2,q3,q4", got)
	}
	if g := ds.Qrels["q1"]; len(g) != 3 || g["<dbpedia:Sea_Turtle>"] != 2 || g["mountains"] != 0 {
		t.Errorf("qrels of q1 = %v", g)
	}
}

func TestLoadLang(t *testing.T) {
	fsys := fstest.MapFS{
		"corpus.jsonl":   {Data: []byte(`{"_id":"1","title":"海边","text":"周末想去海边玩 with friends"}` + "\n")},
		"queries.jsonl":  {Data: []byte(`{"_id":"q","text":"海边"}`)}, // no trailing newline
		"qrels/test.tsv": {Data: []byte("q\t1\t1\r\n")},             // no header, CRLF
	}
	ds, err := LoadFS(fsys, "zh-set")
	if err != nil {
		t.Fatal(err)
	}
	if ds.Lang != "zh" || len(ds.Queries) != 1 || ds.Qrels["q"]["1"] != 1 {
		t.Errorf("got lang %q, %d queries, qrels %v", ds.Lang, len(ds.Queries), ds.Qrels)
	}
}

func TestLoadErrors(t *testing.T) {
	good := fstest.MapFS{
		"corpus.jsonl":   {Data: []byte(`{"_id":"1","text":"a"}` + "\n")},
		"queries.jsonl":  {Data: []byte(`{"_id":"q","text":"a"}` + "\n")},
		"qrels/test.tsv": {Data: []byte("query-id\tcorpus-id\tscore\nq\t1\t1\n")},
	}
	with := func(file, data string) fstest.MapFS {
		m := fstest.MapFS{}
		for k, v := range good {
			m[k] = v
		}
		if data == "" {
			delete(m, file)
		} else {
			m[file] = &fstest.MapFile{Data: []byte(data)}
		}
		return m
	}
	cases := []struct {
		name   string
		fsys   fstest.MapFS
		target error
		msg    string
	}{
		{"bad json", with("corpus.jsonl", "{\"_id\":\"1\"}\n{oops\n"), ErrFormat, "corpus.jsonl line 2"},
		{"doc without id", with("corpus.jsonl", `{"text":"a"}`), ErrFormat, "without _id"},
		{"duplicate doc", with("corpus.jsonl", "{\"_id\":\"1\"}\n{\"_id\":\"1\"}\n"), ErrFormat, "duplicate document id"},
		{"short qrels line", with("qrels/test.tsv", "q\t1\n"), ErrFormat, "want 3"},
		{"bad grade", with("qrels/test.tsv", "h\th\th\nq\t1\tx\n"), ErrFormat, "line 2"},
		{"nothing judged", with("qrels/test.tsv", "h\th\th\nother\t1\t1\n"), ErrFormat, "no query"},
		{"missing corpus", with("corpus.jsonl", ""), iofs.ErrNotExist, "corpus.jsonl"},
		{"missing qrels", with("qrels/test.tsv", ""), iofs.ErrNotExist, "test.tsv"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := LoadFS(c.fsys, "set")
			if !errors.Is(err, c.target) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("err = %v; want %v mentioning %q", err, c.target, c.msg)
			}
		})
	}
	if _, err := LoadFS(good, "set"); err != nil {
		t.Errorf("the good dataset: %v", err)
	}
}

func TestLoadNotAFolder(t *testing.T) {
	if _, err := Load(filepath.Join("testdata", "tiny", "corpus.jsonl")); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("err = %v", err)
	}
	if _, err := Load(filepath.Join("testdata", "missing")); !errors.Is(err, iofs.ErrNotExist) {
		t.Errorf("err = %v", err)
	}
}
