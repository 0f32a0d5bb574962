package store

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestValidateNameAllowed(t *testing.T) {
	for _, s := range []string{
		"Budget (2025)", "Tom's notes", "Q&A", "C++", "Hello, world", "50% done",
		"a;b", "wow!", "~home", "a+b=c", "三亚之行", "Zoë Ångström", "🎉 party",
		"👨‍👩‍👧 family", "v1.2", " leading space", "a\u00a0b", "con_sole", "COM10", "LPT0",
		"console", "auxiliary", "nul-safe", "x.md", strings.Repeat("长", 66), // 198 bytes
		"it's {braces} $dollar @at `tick` =eq",
	} {
		if err := ValidateName("name", s); err != nil {
			t.Errorf("ValidateName(%q) = %v, want nil", s, err)
		}
	}
}

func TestValidateNameRefused(t *testing.T) {
	cases := map[string]string{
		"":                       "empty",
		".":                      ". or ..",
		"..":                     ". or ..",
		".hidden":                "start with '.'",
		"trailing.":              "end with '.'",
		"trailing ":              "end with a space",
		"a\x00b":                 "NUL",
		"a\nb":                   "control",
		"a\x7fb":                 "control",
		"a\u0085b":               "control",
		"a\u202eb":               "not allowed", // bidi override
		"a\xffb":                 "UTF-8",
		strings.Repeat("x", 201): "bytes",
	}
	for _, r := range `/\:[]|#^<>"?*` {
		cases["a"+string(r)+"b"] = "not allowed"
	}
	for _, d := range []string{"CON", "con", "Prn", "aux", "NUL", "nul.txt", "COM1", "com9.tar.gz", "LPT3", "lpt¹", "CON .txt"} {
		cases[d] = "device"
	}
	for s, want := range cases {
		err := ValidateName("name", s)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != "name" || !errors.Is(err, ErrInvalid) {
			t.Errorf("ValidateName(%q) = %v, want a FieldError for name", s, err)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("ValidateName(%q) = %q, want it to mention %q", s, err, want)
		}
	}
}

func TestValidateCategory(t *testing.T) {
	for _, c := range []string{"a", "a/b", "projects/harbor", "trips/2024/spring", "1/2/3/4/5/6/7/8", "旅行/日本", "Q&A/C++"} {
		if err := ValidateCategory(c); err != nil {
			t.Errorf("ValidateCategory(%q) = %v", c, err)
		}
		if err := ValidateName("category", c); err != nil {
			t.Errorf("ValidateName(category, %q) = %v", c, err)
		}
	}
	for c, want := range map[string]string{
		"":                  "empty",
		"/a":                "empty level",
		"a/":                "empty level",
		"a//b":              "empty level",
		"1/2/3/4/5/6/7/8/9": "levels",
		"a/../b":            ". or ..",
		"a/.git":            "start with '.'",
		"a/con":             "device",
		"a/b:c":             "not allowed",
		`a\b`:               "not allowed",
	} {
		err := ValidateCategory(c)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != "category" {
			t.Errorf("ValidateCategory(%q) = %v, want a FieldError for category", c, err)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("ValidateCategory(%q) = %q, want it to mention %q", c, err, want)
		}
	}
}

func TestValidateNFC(t *testing.T) {
	nfd := "Cafe\u0301" // é as e + combining acute
	if err := ValidateName("name", nfd); err != nil {
		t.Fatalf("NFD name refused: %v", err)
	}
	if c, n := NormalizeKey("re\u0301sume\u0301", nfd); c != "résumé" || n != "Café" {
		t.Errorf("NormalizeKey = %q, %q", c, n)
	}
	// The byte limit applies to the NFC form: 100 × (e + U+0301) is 300
	// bytes in NFD, 200 in NFC.
	if err := ValidateName("name", strings.Repeat("e\u0301", 100)); err != nil {
		t.Errorf("200-byte NFC name given in NFD refused: %v", err)
	}
	e := Normalize(Entry{Category: "a\u0301", Name: nfd, Content: "e\u0301"})
	if e.Category != "á" || e.Name != "Café" || e.Content != "e\u0301" {
		t.Errorf("Normalize = %+v; content must stay as given", e)
	}
}

func TestValidateKeyLegacy(t *testing.T) {
	// Names older recall versions wrote: readable, not writable.
	for _, k := range [][2]string{{"con", "x"}, {"a", "trailing."}, {"a", "trailing "}, {"a", "nul"}} {
		if err := ValidateKey(k[0], k[1]); err != nil {
			t.Errorf("ValidateKey(%q, %q) = %v, want nil (legacy names stay readable)", k[0], k[1], err)
		}
		if err := Validate(Entry{Category: k[0], Name: k[1]}); !errors.Is(err, ErrInvalid) {
			t.Errorf("Validate(%q, %q) = %v, want ErrInvalid", k[0], k[1], err)
		}
	}
	for _, k := range [][2]string{{"..", "x"}, {"a", "b/c"}, {"a", ""}, {"a:b", "c"}} {
		if err := ValidateKey(k[0], k[1]); !errors.Is(err, ErrInvalid) {
			t.Errorf("ValidateKey(%q, %q) = %v, want ErrInvalid", k[0], k[1], err)
		}
	}
}

// FuzzValidateName: names come from outside (file names in a folder
// store, JSON, URLs). Validation never panics; whatever it accepts is
// safe as one file name on every platform once normalised, and passes
// again after normalisation.
func FuzzValidateName(f *testing.F) {
	for _, s := range []string{"Budget (2025)", "a/b", "con.txt", "e\u0301", "..", "x.", "👨‍👩‍👧", "\xff", "a\u202eb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := ValidateName("name", s)
		cerr := ValidateCategory(s)
		kerr := ValidateKey(s, s)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if cerr != nil || kerr != nil {
			t.Fatalf("a valid name %q is not a valid category (%v) or key (%v)", s, cerr, kerr)
		}
		_, n := NormalizeKey("", s)
		if err := ValidateName("name", n); err != nil {
			t.Fatalf("NFC form %q of valid %q refused: %v", n, s, err)
		}
		if _, n2 := NormalizeKey("", n); n2 != n {
			t.Fatalf("NormalizeKey not idempotent: %q -> %q", n, n2)
		}
		if len(n) > MaxNameBytes || strings.ContainsAny(n, forbiddenRunes+"\x00") || n[0] == '.' ||
			strings.HasSuffix(n, ".") || strings.HasSuffix(n, " ") || IsDeviceName(n) {
			t.Fatalf("accepted %q breaks a rule", n)
		}
		for _, r := range n {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("accepted %q holds control character %U", n, r)
			}
		}
	})
}

func TestValidateTag(t *testing.T) {
	tests := []struct {
		tag    string
		reason string // "" for valid
	}{
		{"travel", ""},
		{"海边", ""},
		{"two words", ""},
		{"tab\tinside", "contains control character U+0009, which is not allowed"},
		{"", "must not be empty"},
		{" ", "must not be empty"},
		{"\u3000", "must not be empty"}, // an ideographic space is white space too
		{"#", "must not be empty"},      // '#' alone names no tag (issue 24)
		{" # ", "must not be empty"},
		{"#x", ""},
		{"##", ""},
		{"a\x00b", "contains a NUL byte, which is not allowed"},
		{"\x1b[31mred", "contains control character U+001B, which is not allowed"},
		{"c1\u009bx", "contains control character U+009B, which is not allowed"},
		{"bad\xff", "is not valid UTF-8"},
	}
	for _, tt := range tests {
		err := ValidateTag(tt.tag)
		if tt.reason == "" {
			if err != nil {
				t.Errorf("ValidateTag(%q) = %v, want nil", tt.tag, err)
			}
			continue
		}
		var fe *FieldError
		if !errors.As(err, &fe) || !errors.Is(err, ErrInvalid) || fe.Field != "tags" || fe.Reason != tt.reason {
			t.Errorf("ValidateTag(%q) = %v, want a tag FieldError %q", tt.tag, err, tt.reason)
		}
		// Validate applies the same rule to an entry's tags.
		e := Entry{Category: "c", Name: "n", Meta: Meta{Tags: []string{"ok", tt.tag}}}
		if err := Validate(e); !errors.As(err, &fe) || fe.Field != "tags" {
			t.Errorf("Validate with tag %q = %v, want the tag's FieldError", tt.tag, err)
		}
	}
}

func TestCleanTags(t *testing.T) {
	if got, err := CleanTags(nil); got != nil || err != nil {
		t.Errorf("CleanTags(nil) = %v, %v; want nil, nil", got, err)
	}
	if got, err := CleanTags([]string{}); got == nil || len(got) != 0 || err != nil {
		t.Errorf("CleanTags([]) = %#v, %v; want an empty list", got, err)
	}
	got, err := CleanTags([]string{"b", "a", "b", "c", "a"})
	if err != nil || !slices.Equal(got, []string{"b", "a", "c"}) {
		t.Errorf("CleanTags with repeats = %v, %v; want [b a c]", got, err)
	}
	if _, err := CleanTags([]string{"a", " "}); err == nil {
		t.Error("CleanTags accepted a blank tag")
	}
}
