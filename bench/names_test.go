package bench

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/recallhq/recall/store"
)

func TestEntryName(t *testing.T) {
	cases := []struct{ id, name string }{
		{"4380635", "4380635"},
		{"drcd-1147-5", "drcd-1147-5"},
		{"cmrc-DEV_0", "cmrc-DEV_0"},
		{"三亚之行", "三亚之行"},
		{"<dbpedia:Foo_Bar>", "_3Cdbpedia_3AFoo_Bar_3E"},
		{"<dbpedia:Paris,_Texas>", "_3Cdbpedia_3AParis,_Texas_3E"},
		{"Budget (2025)", "Budget (2025)"},
		{"a/b\\c|d[e]", "a_2Fb_5Cc_7Cd_5Be_5D"},
		// A literal mark before two upper-case hex digits is escaped so
		// that DocID does not read it as an escape...
		{"flat_1A", "flat_5F1A"},
		{"x_FF", "x_5FFF"},
		// ...but not before lower case, one digit, or an escaped rune.
		{"x_ff", "x_ff"},
		{"x_1", "x_1"},
		{"x_:", "x__3A"},
		{"x_A:", "x_A_3A"},
		{".hidden", "_2Ehidden"},
		{".", "_2E"},
		{"..", "_2E_2E"},
		{"v1.", "v1_2E"},
		{"v1.2", "v1.2"},
		{"trailing ", "trailing_20"},
		{"con", "_63on"},
		{"LPT1.txt", "_4CPT1.txt"},
		{"tab\there", "tab_09here"},
		{"é–ü", "é–ü"},
		{"a\u202eb", "a_E2_80_AEb"},
	}
	for _, c := range cases {
		name, err := EntryName(c.id)
		if err != nil {
			t.Errorf("EntryName(%q): %v", c.id, err)
			continue
		}
		if name != c.name {
			t.Errorf("EntryName(%q) = %q, want %q", c.id, name, c.name)
		}
		if err := store.ValidateName("name", name); err != nil {
			t.Errorf("EntryName(%q) = %q, not a valid name: %v", c.id, name, err)
		}
		back, err := DocID(name)
		if err != nil || back != c.id {
			t.Errorf("DocID(%q) = %q, %v; want %q", name, back, err, c.id)
		}
	}
}

func TestEntryNameErrors(t *testing.T) {
	for _, id := range []string{"", "\xff", strings.Repeat("<", 100)} {
		if _, err := EntryName(id); !errors.Is(err, ErrName) {
			t.Errorf("EntryName(%q): err = %v, want ErrName", id, err)
		}
	}
	if _, err := DocID("_FF"); !errors.Is(err, ErrName) {
		t.Errorf("DocID of a lone invalid byte: err = %v, want ErrName", err)
	}
}

func FuzzEntryName(f *testing.F) {
	for _, s := range []string{"<dbpedia:Foo_Bar>", "flat_1A", "_", "__41", "._2E", "a_", "_4", "三亚_:", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		name, err := EntryName(id)
		if err != nil {
			if !errors.Is(err, ErrName) {
				t.Fatalf("EntryName(%q): error not wrapping ErrName: %v", id, err)
			}
			if id != "" && utf8.ValidString(id) && len(id) <= store.MaxNameBytes/3 {
				t.Fatalf("EntryName(%q) failed although even escaping every byte fits: %v", id, err)
			}
			return
		}
		if err := store.ValidateName("name", name); err != nil {
			t.Fatalf("EntryName(%q) = %q: %v", id, name, err)
		}
		back, err := DocID(name)
		if err != nil || back != id {
			t.Fatalf("DocID(EntryName(%q)) = %q, %v", id, back, err)
		}
	})
}
