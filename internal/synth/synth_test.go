package synth

import (
	"reflect"
	"testing"

	"github.com/recallhq/recall/index"
	"github.com/recallhq/recall/store"
)

func TestEntries(t *testing.T) {
	a := New(1, 5000).Entries(500, 80)
	b := New(1, 5000).Entries(500, 80)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed, different entries")
	}
	tok := index.Spec()
	total := 0
	for _, e := range a {
		if err := store.Validate(e); err != nil {
			t.Fatalf("invalid entry: %v", err)
		}
		total += len(tok.Tokens(e.Name + " " + e.Content))
	}
	if avg := total / len(a); avg < 60 || avg > 100 {
		t.Fatalf("average %d terms per entry, want about 80", avg)
	}
}
