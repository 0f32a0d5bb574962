package mcptools

import (
	"strings"

	"github.com/recallhq/recall/retrieve"
)

// validityNote tells the model what an item's validity evidence means
// (docs/validity.md); "" for an item without any.
func validityNote(it retrieve.Item) string {
	var notes []string
	if it.SupersededBy != "" {
		notes = append(notes, "superseded by "+it.SupersededBy+": no longer current")
	}
	if it.Expired {
		notes = append(notes, "expired: no longer valid")
	}
	if len(it.Supersedes) > 0 {
		notes = append(notes, "supersedes "+strings.Join(it.Supersedes, ", "))
	}
	if len(notes) == 0 {
		return ""
	}
	return " [" + strings.Join(notes, "; ") + "]"
}
