package setup_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/recallhq/recall/importer"
	"github.com/recallhq/recall/setup"
)

func TestImportOptions(t *testing.T) {
	in := strings.NewReader("")
	opts, err := setup.Import{Category: importer.RootCategory}.Options(in, "/m.db")
	if err != nil {
		t.Fatal(err)
	}
	if opts.RootCategory != importer.RootCategory || opts.Category != "" || opts.Format != "" || opts.Stdin != in || opts.Store != "/m.db" {
		t.Errorf("defaults: %+v", opts)
	}
	opts, err = setup.Import{Category: "chats", CategoryGiven: true, Format: "mem0"}.Options(nil, "")
	if err != nil || opts.Category != "chats" || opts.RootCategory != "chats" || opts.Format != importer.Format("mem0") {
		t.Errorf("given: %+v, %v", opts, err)
	}
	for _, tt := range []struct {
		i         setup.Import
		flag, msg string
	}{
		{setup.Import{Category: "a/../b"}, "--category", "--category: "},
		{setup.Import{Category: "notes", Format: "csv"}, "--format", "--format: "},
	} {
		_, err := tt.i.Options(nil, "")
		var se *setup.Error
		if !errors.As(err, &se) || se.Setting != tt.flag || !strings.HasPrefix(err.Error(), tt.msg) {
			t.Errorf("%+v: %v, want %s error %q...", tt.i, err, tt.flag, tt.msg)
		}
	}
}
