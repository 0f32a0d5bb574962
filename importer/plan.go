package importer

import (
	"fmt"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/recallhq/recall/store"
)

// Item is one entry read from the input, checked and ready to write.
type Item struct {
	// Where is the place it was read from, for reports: the file's path as
	// the walk found it ("vault/trips/kyoto.md") or "data.jsonl:3".
	Where string
	Entry store.Entry
	// CreatedFromFile and UpdatedFromFile say that the entry's created or
	// updated time is not the note's own (its front matter has none) but
	// the file's (birth and modification time, ReadVault): a hint that a
	// copy, a git clone or a restore changes while the note stays the
	// same. Write does not count such a time as a change, and never moves
	// a stored created time later for one.
	CreatedFromFile, UpdatedFromFile bool
}

// Skip is an input that is not imported, and why.
type Skip struct {
	Where  string
	Reason string
	// Rename, when a name is at fault, is a name that would be accepted
	// ("Q3: plan" → "Q3- plan"); empty when renaming would not help or
	// no acceptable name could be derived.
	Rename string
}

// String is the report line: "where: reason", and the rename when there
// is one.
func (s Skip) String() string {
	if s.Rename != "" {
		return fmt.Sprintf("%s: %s (rename it to %q)", s.Where, s.Reason, s.Rename)
	}
	return s.Where + ": " + s.Reason
}

// Ignored counts what a vault holds that is not a note. Each file under
// .obsidian/ and .trash/ counts once; any other file or folder whose name
// starts with '.' counts once, whatever it holds (a .git folder is one).
type Ignored struct {
	Obsidian    int // files under .obsidian/ (the app's settings)
	Trash       int // files under .trash/ (notes deleted in Obsidian)
	Hidden      int // other names starting with '.'
	Attachments int // files not ending in .md (images, PDFs, canvases, ...)
}

// Total is the number of ignored items.
func (i Ignored) Total() int { return i.Obsidian + i.Trash + i.Hidden + i.Attachments }

// String lists the non-zero counts: "3 in .obsidian, 1 attachment".
func (i Ignored) String() string {
	var parts []string
	add := func(n int, one, many string) {
		switch {
		case n == 1:
			parts = append(parts, "1 "+one)
		case n > 1:
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	add(i.Obsidian, "in .obsidian", "in .obsidian")
	add(i.Trash, "in .trash", "in .trash")
	add(i.Attachments, "attachment", "attachments")
	add(i.Hidden, "hidden", "hidden")
	return strings.Join(parts, ", ")
}

// Plan is what an input holds: the entries to write, in the order they
// were read, and what was refused or ignored. Read functions fill it;
// Write writes it. A Plan is not safe for concurrent use.
type Plan struct {
	Items   []Item
	Skipped []Skip
	// Warnings are items that are imported with something less than the
	// input held: a note whose front matter does not parse (kept verbatim,
	// see store.UnparsedFrontMatter).
	Warnings []Skip
	Ignored  Ignored

	seen map[store.Key]string // identity → where it was first read
}

// Keys returns the identities of the plan's items, in order.
func (p *Plan) Keys() []store.Key {
	keys := make([]store.Key, len(p.Items))
	for i, it := range p.Items {
		keys[i] = it.Entry.Key()
	}
	return keys
}

func newPlan() *Plan { return &Plan{seen: map[store.Key]string{}} }

// skip records an input that is not imported.
func (p *Plan) skip(where string, err error, rename string) {
	p.Skipped = append(p.Skipped, Skip{Where: where, Reason: oneLine(err.Error()), Rename: rename})
}

// add queues an entry after the checks the store would make (so that a bad
// item is reported with its line or path, and an input that holds nothing
// valid writes nothing), normalising the identity to NFC. The first item
// with an identity wins; a later one is reported with a free name.
func (p *Plan) add(where string, e store.Entry) { p.addItem(Item{Where: where, Entry: e}) }

// addItem is add for an item with its flags.
func (p *Plan) addItem(it Item) {
	where, e := it.Where, it.Entry
	e.Category, e.Name = norm.NFC.String(e.Category), norm.NFC.String(e.Name)
	if err := store.ValidateKey(e.Category, e.Name); err != nil {
		p.skip(where, err, renameFor(err, e))
		return
	}
	if err := store.ValidateContent(e.Content); err != nil {
		p.skip(where, err, "")
		return
	}
	if first, dup := p.seen[e.Key()]; dup {
		p.skip(where, fmt.Errorf("%s was already read from %s", e.Key(), first), p.freeName(e.Category, e.Name))
		return
	}
	p.seen[e.Key()] = where
	it.Entry = e
	p.Items = append(p.Items, it)
}

// freeName returns "name (2)", "name (3)", ..., the first not yet read in
// category and acceptable as a name.
func (p *Plan) freeName(category, name string) string {
	for i := 2; i < 1000; i++ {
		for _, format := range []string{"%s (%d)", "%s-%d"} { // the second for stores without '(' in names
			n := fmt.Sprintf(format, name, i)
			if _, taken := p.seen[store.Key{Category: category, Name: n}]; !taken && store.ValidateName("name", n) == nil {
				return n
			}
		}
	}
	return ""
}

// renameFor suggests a name for an entry whose name is invalid; none when
// the category is at fault (the vault reader reports folders itself).
func renameFor(err error, e store.Entry) string {
	if fe, ok := err.(*store.FieldError); ok && fe.Field == "name" {
		return SuggestName(e.Name)
	}
	return ""
}

// oneLine folds a multi-line reason onto one line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
