package setup

import (
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

// Add is an add's settings as a person gives them (recall add's
// arguments and flags), checked in two steps so that a mistake neither
// creates a store nor writes anything: Check before the content is read,
// Request once it is.
type Add struct {
	Category, Name string
	// Tags (--tag) replace the entry's tags when TagsGiven, even with
	// none; else an update keeps them.
	Tags      []string
	TagsGiven bool
	// Date (--date) is the event date, 2024-05-03 or an RFC 3339 time
	// (service.ParseDate); "" keeps the entry's.
	Date string
	// Supersedes (--supersedes) are links to the entries this one
	// replaces; none keeps the key on an update.
	Supersedes []string
	// Expires (--expires) is when it stops being a hit
	// (service.ParseExpires); "" keeps the entry's.
	Expires string
}

// Check checks the identity and the tags (store.ValidateKey,
// store.CleanTags).
func (a Add) Check() error {
	if err := store.ValidateKey(a.Category, a.Name); err != nil {
		return err
	}
	_, err := store.CleanTags(a.Tags)
	return err
}

// Request checks a with its content and returns the service's request. A
// date at fault is an *Error naming its flag.
func (a Add) Request(content string) (service.AddRequest, error) {
	if err := a.Check(); err != nil {
		return service.AddRequest{}, err
	}
	if err := store.ValidateContent(content); err != nil {
		return service.AddRequest{}, err
	}
	req := service.AddRequest{Category: a.Category, Name: a.Name, Content: content}
	if a.Date != "" {
		d, err := service.ParseDate("--date", a.Date)
		if err != nil {
			return service.AddRequest{}, &Error{"--date", err.Error()}
		}
		req.Date = d
	}
	if len(a.Supersedes) > 0 {
		req.Supersedes = a.Supersedes
	}
	if a.Expires != "" {
		t, err := service.ParseExpires("--expires", a.Expires)
		if err != nil {
			return service.AddRequest{}, &Error{"--expires", err.Error()}
		}
		req.Expires = t
	}
	if a.TagsGiven {
		req.Tags, _ = store.CleanTags(a.Tags)
		if req.Tags == nil {
			req.Tags = []string{}
		}
	}
	return req, nil
}
