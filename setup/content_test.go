package setup_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recallhq/recall/setup"
	"github.com/recallhq/recall/store"
)

func TestContentRead(t *testing.T) {
	file := filepath.Join(t.TempDir(), "note.md")
	if err := os.WriteFile(file, []byte("from the file"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := setup.Content{Flag: "content", What: "content"}
	with := func(edit func(*setup.Content)) setup.Content { c := base; edit(&c); return c }
	for _, c := range []struct {
		name    string
		c       setup.Content
		want    string
		setting string // the flag an *Error names; "" for success or another error
		errText string
	}{
		{"flag", with(func(c *setup.Content) { c.Text, c.TextGiven = "hello", true }), "hello", "", ""},
		{"empty flag", with(func(c *setup.Content) { c.TextGiven = true }), "", "", ""},
		{"flag wins over a piped stdin", with(func(c *setup.Content) {
			c.Text, c.TextGiven, c.Stdin, c.StdinPiped = "hello", true, strings.NewReader("piped"), true
		}), "hello", "", ""},
		{"file", with(func(c *setup.Content) { c.File, c.FileGiven = file, true }), "from the file", "", ""},
		{"file -", with(func(c *setup.Content) { c.File, c.FileGiven, c.Stdin = "-", true, strings.NewReader("stdin text") }), "stdin text", "", ""},
		{"piped", with(func(c *setup.Content) { c.Stdin, c.StdinPiped = strings.NewReader("piped"), true }), "piped", "", ""},
		{"both", with(func(c *setup.Content) { c.TextGiven, c.FileGiven, c.File = true, true, file }), "", "--content", "give the content once: --content or --file, not both"},
		{"file without path", with(func(c *setup.Content) { c.FileGiven = true }), "", "--file", "--file needs a path (- for stdin)"},
		{"file - without stdin", with(func(c *setup.Content) { c.File, c.FileGiven = "-", true }), "", "", "--file -: no stdin"},
		{"terminal stdin", with(func(c *setup.Content) { c.Stdin = strings.NewReader("typed") }), "", "--content", "no content: use --content TEXT, --file F, or pipe it on stdin"},
		{"empty piped stdin", with(func(c *setup.Content) {
			c.Stdin, c.StdinPiped, c.EmptyStdin = strings.NewReader(""), true, "no content: stdin is empty"
		}), "", "--content", "no content: stdin is empty"},
		{"empty piped stdin allowed", with(func(c *setup.Content) { c.Stdin, c.StdinPiped = strings.NewReader(""), true }), "", "", ""},
	} {
		got, err := c.c.Read()
		var se *setup.Error
		isSetup := errors.As(err, &se)
		switch {
		case c.errText == "" && (err != nil || got != c.want):
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		case c.errText != "" && (err == nil || err.Error() != c.errText):
			t.Errorf("%s: error %v, want %q", c.name, err, c.errText)
		case c.errText != "" && (isSetup != (c.setting != "") || (isSetup && se.Setting != c.setting)):
			t.Errorf("%s: %#v, want a setup.Error naming %q", c.name, err, c.setting)
		}
	}
	// A missing file is the os error, which names it; too much content is the store's.
	if _, err := with(func(c *setup.Content) { c.File, c.FileGiven = filepath.Join(t.TempDir(), "none"), true }).Read(); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	big := strings.NewReader(strings.Repeat("x", store.MaxContentBytes+1))
	var fe *store.FieldError
	if _, err := with(func(c *setup.Content) { c.Stdin, c.StdinPiped = big, true }).Read(); !errors.As(err, &fe) {
		t.Errorf("too much content: %v", err)
	}
}
