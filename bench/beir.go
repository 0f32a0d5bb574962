package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
)

// Dataset is a BEIR test collection held in memory: a corpus, the queries
// that have relevance judgements, and the judgements. Nothing in this
// package modifies a Dataset after Load, so subjects may read it from
// several goroutines.
type Dataset struct {
	// Name is the folder's base name ("msmarco").
	Name string
	// Lang is "zh" when most of the corpus's letters are Chinese, else
	// "en". Peers use it to pick an analyzer.
	Lang string
	Docs []Doc
	// Queries are the queries that appear in the qrels, in the order of
	// queries.jsonl. Queries without judgements are not scored, so they
	// are not kept.
	Queries []Query
	Qrels   Qrels
}

// Doc is one corpus document.
type Doc struct {
	ID    string `json:"_id"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// Content is the text a system indexes: title and text joined by a space.
func (d Doc) Content() string {
	switch {
	case d.Title == "":
		return d.Text
	case d.Text == "":
		return d.Title
	}
	return d.Title + " " + d.Text
}

// Query is one test query.
type Query struct {
	ID   string `json:"_id"`
	Text string `json:"text"`
}

// Qrels holds graded relevance judgements: query id → document id → grade.
// Grade 0 means judged not relevant.
type Qrels map[string]map[string]int

// Load reads the BEIR folder dir: corpus.jsonl, queries.jsonl and
// qrels/test.tsv.
func Load(dir string) (*Dataset, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("load dataset %s: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("load dataset: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("load dataset %s: %w: not a folder", dir, ErrFormat)
	}
	return LoadFS(os.DirFS(abs), filepath.Base(abs))
}

// LoadFS reads a BEIR dataset from the root of fsys and names it name.
func LoadFS(fsys iofs.FS, name string) (*Dataset, error) {
	ds := &Dataset{Name: name}
	qrels, err := readQrels(fsys, path.Join("qrels", "test.tsv"))
	if err != nil {
		return nil, fmt.Errorf("load dataset %s: %w", name, err)
	}
	ds.Qrels = qrels
	seen := map[string]bool{}
	err = readJSONL(fsys, "corpus.jsonl", func(line int, d Doc) error {
		if d.ID == "" {
			return fmt.Errorf("line %d: %w: document without _id", line, ErrFormat)
		}
		if seen[d.ID] {
			return fmt.Errorf("line %d: %w: duplicate document id %q", line, ErrFormat, d.ID)
		}
		seen[d.ID] = true
		ds.Docs = append(ds.Docs, d)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load dataset %s: %w", name, err)
	}
	err = readJSONL(fsys, "queries.jsonl", func(line int, q Query) error {
		if q.ID == "" {
			return fmt.Errorf("line %d: %w: query without _id", line, ErrFormat)
		}
		if _, ok := qrels[q.ID]; ok {
			ds.Queries = append(ds.Queries, q)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load dataset %s: %w", name, err)
	}
	if len(ds.Queries) == 0 {
		return nil, fmt.Errorf("load dataset %s: %w: no query in queries.jsonl has judgements in qrels/test.tsv", name, ErrFormat)
	}
	ds.Lang = detectLang(ds.Docs)
	return ds, nil
}

func readJSONL[T any](fsys iofs.FS, file string, fn func(line int, v T) error) error {
	f, err := fsys.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	for line := 1; ; line++ {
		b, err := r.ReadBytes('\n')
		if len(strings.TrimSpace(string(b))) > 0 {
			var v T
			if jerr := json.Unmarshal(b, &v); jerr != nil {
				return fmt.Errorf("%s line %d: %w: %v", file, line, ErrFormat, jerr)
			}
			if ferr := fn(line, v); ferr != nil {
				return fmt.Errorf("%s %w", file, ferr)
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", file, err)
		}
	}
}

// readQrels reads a tab-separated qrels file with a header line
// ("query-id corpus-id score"). A repeated (query, doc) pair keeps its last
// grade.
func readQrels(fsys iofs.FS, file string) (Qrels, error) {
	f, err := fsys.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	q := Qrels{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		fields := strings.Split(text, "\t")
		if len(fields) != 3 {
			return nil, fmt.Errorf("%s line %d: %w: want 3 tab-separated fields, got %d", file, line, ErrFormat, len(fields))
		}
		grade, err := strconv.Atoi(strings.TrimSpace(fields[2]))
		if err != nil {
			if line == 1 {
				continue // the header
			}
			return nil, fmt.Errorf("%s line %d: %w: grade %q is not an integer", file, line, ErrFormat, fields[2])
		}
		qid, did := fields[0], fields[1]
		if q[qid] == nil {
			q[qid] = map[string]int{}
		}
		q[qid][did] = grade
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	return q, nil
}

// detectLang samples the corpus and says "zh" when CJK characters make up
// more than a fifth of its letters.
func detectLang(docs []Doc) string {
	var cjk, letters int
	for i, d := range docs {
		if i == 200 {
			break
		}
		for _, r := range d.Content() {
			if !unicode.IsLetter(r) {
				continue
			}
			letters++
			if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
				cjk++
			}
		}
	}
	if letters > 0 && cjk*5 > letters {
		return "zh"
	}
	return "en"
}
