package store

import (
	"errors"
	"strings"
	"testing"
)

func TestEscapeName(t *testing.T) {
	for _, tc := range []struct{ written, id string }{
		{"What is it?", "What is it%3F"},
		{"Q3: plan", "Q3%3A plan"},
		{"a|b", "a%7Cb"},
		{"C# notes", "C%23 notes"},
		{`say "hi"`, "say %22hi%22"},
		{"2*3", "2%2A3"},
		{"<tag>", "%3Ctag%3E"},
		{`back\slash`, "back%5Cslash"},
		{"[draft]", "%5Bdraft%5D"},
		{"x^2", "x%5E2"},
		{"Notes.", "Notes%2E"},
		{"Notes…", "Notes…"},
		{"Trailing ", "Trailing%20"},
		{"Two..", "Two.%2E"},
		{".hidden", "%2Ehidden"},
		{"CON", "%43ON"},
		{"nul.txt", "%6Eul.txt"},
		{"tab\there", "tab%09here"},
		{"100% sure", "100% sure"}, // no escape sequence follows the %
		{"100%3A", "100%253A"},     // a literal escape sequence
		{"50%3f", "50%3f"},         // lower case: not a sequence
		{"%41", "%2541"},           // "A": a device-name letter is a code
		{"%20 off", "%2520 off"},
		{"三亚之行", "三亚之行"},
		{"Budget (2025)", "Budget (2025)"},
		{"", ""},
	} {
		if got := EscapeName(tc.written); got != tc.id {
			t.Errorf("EscapeName(%q) = %q, want %q", tc.written, got, tc.id)
		}
		if got := UnescapeName(tc.id); got != tc.written {
			t.Errorf("UnescapeName(%q) = %q, want %q", tc.id, got, tc.written)
		}
		if tc.id != "" {
			if err := ValidateName("name", tc.id); err != nil {
				t.Errorf("identity %q of %q is not a valid name: %v", tc.id, tc.written, err)
			}
		}
	}
}

func TestNameKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"What is it?", "What is it%3F"},   // as written
		{"What is it%3F", "What is it%3F"}, // the identity itself
		{"Notes.", "Notes%2E"},
		{"plain", "plain"},
		{"100% sure", "100% sure"},
	} {
		if got := NameKey(tc.in); got != tc.want {
			t.Errorf("NameKey(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := CategoryKey("Q&A: misc/sub?"); got != "Q&A%3A misc/sub%3F" {
		t.Errorf("CategoryKey = %q", got)
	}
	if got := CategoryPath("Q&A%3A misc/sub%3F"); got != "Q&A: misc/sub?" {
		t.Errorf("CategoryPath = %q", got)
	}
	if got := DisplayKey(Key{Category: "a%3Ab", Name: "What is it%3F"}); got != "a:b:What is it?" {
		t.Errorf("DisplayKey = %q", got)
	}
}

// New entries keep today's rules: the name as written is refused with
// the error it always had, so the mapping opens no way around SPEC §1.
func TestValidateStillRefusesWrittenNames(t *testing.T) {
	err := ValidateName("name", "What is it?")
	var fe *FieldError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), `contains '?', which is not allowed`) {
		t.Fatalf("ValidateName(What is it?) = %v", err)
	}
}

// A name of 200 bytes as written stays within the limit once escaped.
func TestEscapedLengthCountsAsWritten(t *testing.T) {
	written := strings.Repeat("a", MaxNameBytes-3) + "???"
	if err := ValidateName("name", EscapeName(written)); err != nil {
		t.Fatal(err)
	}
	if err := ValidateName("name", EscapeName(written+"a")); err == nil {
		t.Fatal("a name of 201 bytes as written is accepted")
	}
}

func FuzzEscapeName(f *testing.F) {
	for _, s := range []string{"What is it?", "100%3A", "%", "%%3F", "CON.", ".x.", "a\x00b", "%2E%2", "\xff%3F", "lpt¹"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id := EscapeName(s)
		if back := UnescapeName(id); back != s {
			t.Fatalf("UnescapeName(EscapeName(%q)) = %q (via %q)", s, back, id)
		}
		if EscapeName(s) != id {
			t.Fatal("EscapeName is not stable")
		}
		if needsEscape(id) && !strings.ContainsAny(s, "/\x00") {
			t.Fatalf("identity %q of %q still needs an escape", id, s)
		}
		if NameKey(s) != id && needsEscape(s) {
			t.Fatalf("NameKey(%q) = %q, want %q", s, NameKey(s), id)
		}
		if NameKey(id) != id {
			t.Fatalf("NameKey of the identity %q is %q", id, NameKey(id))
		}
		// Collision-free: the identity decides the name as written.
		if EscapeName(UnescapeName(id)) != id {
			t.Fatalf("identity %q does not map back to itself", id)
		}
	})
}
