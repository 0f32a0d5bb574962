package service

import (
	"context"
	"errors"

	"github.com/recallhq/recall/store"
)

// lookupKey is the identity a name given to get, append, edit or delete
// refers to: the name as given when it is an identity, else its mapped
// form (store.NameKey, SPEC §1's name mapping), so that
// `recall get Questions "What is it?"` reaches the note of that file
// name. A name that is a valid lookup both ways ("Notes.", which an older
// store may hold as it is) is tried as given first. Adding a new entry
// never goes through it: Add refuses "What is it?" as before.
//
// invalid is why the name as given is not an identity (nil when it is):
// when the mapped one is not found either, callers report invalid, as
// they did before the mapping ("contains ':', which is not allowed").
func (m *Memory) lookupKey(ctx context.Context, category, name string) (c, n string, invalid error) {
	c, n = store.CategoryKey(category), store.NameKey(name)
	if c == category && n == name {
		return category, name, nil
	}
	if invalid = store.ValidateKey(category, name); invalid != nil {
		return c, n, invalid
	}
	if _, err := m.st.Get(ctx, category, name); !errors.Is(err, store.ErrNotFound) {
		return category, name, nil
	}
	return c, n, nil
}

// notFoundAs returns invalid in place of an error wrapping
// store.ErrNotFound (see lookupKey), else err.
func notFoundAs(err, invalid error) error {
	if invalid != nil && errors.Is(err, store.ErrNotFound) {
		return invalid
	}
	return err
}
