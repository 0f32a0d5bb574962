package setup

import (
	"fmt"
	"io"

	"github.com/recallhq/recall/importer"
	"github.com/recallhq/recall/store"
)

// Import is an import's settings as a person gives them (recall import's
// flags).
type Import struct {
	// Category (--category) is the category of the notes at the top of a
	// vault and, when CategoryGiven, of the entries of a chat export.
	Category      string
	CategoryGiven bool
	Format        string // --format; "" means told by the content
}

// Options checks i and returns how to read the path (importer.ReadPath):
// "-" reads stdin, and into is the location of the store imported into.
// A setting at fault is an *Error naming its flag.
func (i Import) Options(stdin io.Reader, into string) (importer.PathOptions, error) {
	if err := store.ValidateName("category", i.Category); err != nil {
		return importer.PathOptions{}, &Error{"--category", fmt.Sprintf("--category: %v", err)}
	}
	if i.Format != "" {
		if _, err := importer.ParseFormat(i.Format); err != nil {
			return importer.PathOptions{}, &Error{"--format", fmt.Sprintf("--format: %v", err)}
		}
	}
	opts := importer.PathOptions{Format: importer.Format(i.Format), RootCategory: i.Category, Stdin: stdin, Store: into}
	if i.CategoryGiven {
		opts.Category = i.Category
	}
	return opts, nil
}
