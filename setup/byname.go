package setup

import (
	"errors"

	"github.com/recallhq/recall/store"
	"github.com/recallhq/recall/store/location"
)

// ByName runs a command on an entry given by name (get, rm): a name that is
// an identity only once mapped (store.NameKey, SPEC §1's name mapping:
// "What is it?") goes to the store, which finds the note of that file
// name; but when run fails because there is no store, or the name is not
// valid either way, the name's own error is the answer, as before the
// mapping ("invalid name "[[x]]": contains '['").
func ByName(category, name string, run func() error) error {
	raw := store.ValidateKey(category, name)
	if raw != nil && store.ValidateKey(store.CategoryKey(category), store.NameKey(name)) != nil {
		return raw
	}
	if err := run(); raw == nil || !errors.Is(err, location.ErrNotExist) {
		return err
	}
	return raw
}
