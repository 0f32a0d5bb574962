package service

import (
	"maps"
	"time"

	"github.com/recallhq/recall/store"
)

// validityEdit is what an AddRequest does to the validity keys of an
// entry's metadata (store.MetaSupersedes, store.MetaExpires).
type validityEdit struct {
	setSupersedes bool
	supersedes    []any // the links, checked; empty: remove the key
	expires       string
}

// validityMeta checks req's validity fields once, before the write.
func validityMeta(req AddRequest) (validityEdit, error) {
	var v validityEdit
	if req.Supersedes != nil {
		v.setSupersedes = true
		seen := map[string]bool{}
		for _, s := range req.Supersedes {
			l, err := store.SupersedesLink(s)
			if err != nil {
				return v, err
			}
			if !seen[l] {
				seen[l] = true
				v.supersedes = append(v.supersedes, l)
			}
		}
	}
	if !req.Expires.IsZero() {
		v.expires = store.FormatDate(req.Expires)
	}
	return v, nil
}

// apply returns extra with the edit made, never changing the map given
// (it may be the stored entry's).
func (v validityEdit) apply(extra map[string]any) map[string]any {
	if !v.setSupersedes && v.expires == "" {
		return extra
	}
	extra = maps.Clone(extra)
	if extra == nil {
		extra = map[string]any{}
	}
	if v.setSupersedes {
		if len(v.supersedes) == 0 {
			delete(extra, store.MetaSupersedes)
		} else {
			extra[store.MetaSupersedes] = v.supersedes
		}
	}
	if v.expires != "" {
		extra[store.MetaExpires] = v.expires
	}
	if len(extra) == 0 {
		return nil
	}
	return extra
}

// ParseExpires reads an expiry as users write it: "2026-07-01" (a
// calendar day, from its midnight in the reader's zone) or an RFC 3339
// time. The error names the field.
func ParseExpires(field, s string) (time.Time, error) {
	t, err := store.ParseExpires(s)
	if err != nil {
		return time.Time{}, &ParamError{Field: field, Reason: "is not a date such as 2026-07-01 or an RFC 3339 time such as 2026-07-01T09:00:00+02:00"}
	}
	return t, nil
}
