package hostctx_test

import (
	"testing"
	"time"

	"github.com/recallhq/recall/hostctx"
)

func TestSettings(t *testing.T) {
	for _, c := range []struct {
		s    hostctx.Settings
		want hostctx.Options
		err  string
	}{
		{hostctx.Settings{Budget: 300, Recent: time.Hour, Timeout: time.Second, Format: "json"}, hostctx.Options{Budget: 300, Recent: time.Hour, Timeout: time.Second, Format: hostctx.JSON}, ""},
		{hostctx.Settings{Budget: 0, Timeout: time.Second, Format: "text"}, hostctx.Options{Budget: -1, Timeout: time.Second, Format: hostctx.Text}, ""},
		{hostctx.Settings{Timeout: time.Second, Format: "yaml"}, hostctx.Options{}, `--format must be json or text, got "yaml"`},
		{hostctx.Settings{Format: "json"}, hostctx.Options{}, "--timeout must be more than 0, got 0s"},
		{hostctx.Settings{Budget: -2, Timeout: time.Second, Format: "json"}, hostctx.Options{}, "--budget must be 0 (no cap) or more, got -2"},
	} {
		o, err := c.s.Options()
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%+v: error %v, want %s", c.s, err, c.err)
			}
			continue
		}
		if err != nil || o.Budget != c.want.Budget || o.Recent != c.want.Recent || o.Timeout != c.want.Timeout || o.Format != c.want.Format {
			t.Errorf("%+v: %+v, %v; want %+v", c.s, o, err, c.want)
		}
	}
}
