package retrieve

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/recallhq/recall/store"
	boltstore "github.com/recallhq/recall/store/bolt"
)

// TestRetrieveToReusesRoom: one Result reused across retrieves of every
// shape (many hits, fewer, none, links, a budget cut with explain, a
// refused query) holds exactly what Retrieve returns for each, and a
// retrieve of no more hits than the last one writes into the same room.
func TestRetrieveToReusesRoom(t *testing.T) {
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "m.db"), &boltstore.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var es []store.Entry
	for i := range 60 {
		content := fmt.Sprintf("sea turtle note %d", i)
		if i%3 == 0 {
			content += " ocean"
		}
		if i%7 == 0 {
			content += fmt.Sprintf(" see [[c:n%d]] and [[missing%d]]", (i+11)%60, i)
		}
		es = append(es, store.Entry{Category: "c", Name: fmt.Sprintf("n%d", i), Content: content})
	}
	if err := st.PutBatch(ctx, es); err != nil {
		t.Fatal(err)
	}
	e := New(st, Options{})
	reqs := []Request{
		{Query: "turtle", Limit: 50, Budget: Unlimited, NoLinks: true},
		{Query: "ocean", Limit: 50, Budget: Unlimited, NoLinks: true},
		{Query: "turtle note 7", Limit: 5, NoLinks: true},
		{Query: "turtle", Limit: 30},
		{Query: "nothing matches", NoLinks: true},
		{Query: "sea ocean", Limit: 40, Budget: 20, Explain: true},
		{Query: "sea turtle note ocean", MaxTerms: 2},
		{Query: "ocean", Limit: 3, Budget: Unlimited, NoLinks: true},
	}
	var res Result
	for i, req := range reqs {
		want, wantErr := e.Retrieve(ctx, req)
		if want != nil && want.room != nil {
			t.Fatalf("request %d: Retrieve's result keeps its room", i)
		}
		err := e.RetrieveTo(ctx, req, &res)
		if wantErr != nil || err != nil {
			var te *TermsError
			if !errors.As(err, &te) || !errors.As(wantErr, &te) {
				t.Fatalf("request %d: RetrieveTo error %v, Retrieve error %v", i, err, wantErr)
			}
			if len(res.Items) != 0 || len(res.UnresolvedLinks) != 0 {
				t.Fatalf("request %d: refused, but res holds %d items", i, len(res.Items))
			}
			continue
		}
		g, _ := json.Marshal(&res)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Fatalf("request %d %+v:\nRetrieveTo %s\nRetrieve   %s", i, req, g, w)
		}
		for j := range res.Items {
			if it := &res.Items[j]; it.BM25Score != nil && *it.BM25Score != it.Score && !res.EmbeddingUsed {
				t.Fatalf("request %d item %d: bm25_score %v, score %v", i, j, *it.BM25Score, it.Score)
			}
		}
	}
	// The room of the 50 hits of "turtle" serves "ocean"'s 20.
	if err := e.RetrieveTo(ctx, reqs[0], &res); err != nil {
		t.Fatal(err)
	}
	first := &res.Items[0]
	if err := e.RetrieveTo(ctx, reqs[1], &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Items) == 0 || &res.Items[0] != first {
		t.Fatal("a retrieve of fewer hits did not reuse the room")
	}
}
