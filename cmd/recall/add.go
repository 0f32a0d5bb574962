package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

type addOptions struct {
	app *app

	content    string
	contentSet bool // --content was given, possibly empty
	file       string
	fileSet    bool
	tags       []string
	tagsSet    bool
	date       string
	supersedes []string
	expires    string
}

func newAddCmd(a *app) *cobra.Command {
	o := &addOptions{app: a}
	cmd := &cobra.Command{
		Use:   "add CATEGORY NAME",
		Short: "Add an entry, or update the entry with that identity",
		Long: `Add writes the entry CATEGORY:NAME, replacing its content if it exists.

The content comes from exactly one of --content TEXT, --file F (- for stdin), or
stdin when it is not a terminal; it is stored byte for byte (a trailing newline
included). An update keeps the entry's metadata (created time, other front
matter keys) and its tags unless --tag is given, in which case the --tag values
replace them, and its event date unless --date is given.

--date says when the thing happened, if not now: a date (2024-05-03) or an RFC
3339 time (2024-05-03T14:30:00+08:00). Time ranges on retrieve and ls place an
entry at its date, else at its created time.

--supersedes LINK (repeatable) names an entry this one replaces, as a link
([[places:Paris flat]] or places:Paris flat); a superseded entry stays stored
but is no hit of a retrieve. --expires DATE (2026-07-01, from its midnight) or
an RFC 3339 time: from then on the entry is no hit. See docs/validity.md.`,
		Example: `  recall add trips 三亚之行 --content "2024年3月去三亚，住在亚龙湾。" --tag travel
  recall add people alice --file alice.md
  pbpaste | recall add notes "meeting 2025-06-01"
  recall add diary "beach day" --content "Swam at Yalong Bay." --date 2024-05-03
  recall add places "Berlin flat" --content "Lives in Berlin." --supersedes "places:Paris flat"
  recall add work sprint --content "Goal: ship v2." --expires 2026-07-01`,
		Args: exactArgs("CATEGORY", "NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := cmd.Flags()
			o.contentSet, o.fileSet, o.tagsSet = f.Changed("content"), f.Changed("file"), f.Changed("tag")
			return o.run(cmd, args[0], args[1])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.content, "content", "", "the content `TEXT`")
	f.StringVarP(&o.file, "file", "f", "", "read the content from file `F` (- for stdin)")
	f.StringArrayVarP(&o.tags, "tag", "t", nil, "a tag (repeat for several); replaces the entry's tags")
	f.StringVar(&o.date, "date", "", "when it happened: `DATE` 2024-05-03 or an RFC 3339 time")
	f.StringArrayVar(&o.supersedes, "supersedes", nil, "an entry this one replaces: `LINK` such as places:Paris flat (repeat for several)")
	f.StringVar(&o.expires, "expires", "", "when it stops being a hit: `DATE` 2026-07-01 or an RFC 3339 time")
	return cmd
}

func (o *addOptions) run(cmd *cobra.Command, category, name string) error {
	ctx := cmd.Context()
	// Everything is checked before the store is opened, so a mistake
	// neither creates a store nor writes anything.
	if err := store.ValidateKey(category, name); err != nil {
		return err
	}
	tags, err := store.CleanTags(o.tags)
	if err != nil {
		return err
	}
	content, err := o.readContent(cmd)
	if err != nil {
		return err
	}
	if err := store.ValidateContent(content); err != nil {
		return err
	}
	req := service.AddRequest{Category: category, Name: name, Content: content}
	if o.date != "" {
		d, err := service.ParseDate("--date", o.date)
		if err != nil {
			return usagef(cmd, "%v", err)
		}
		req.Date = d
	}
	if len(o.supersedes) > 0 {
		req.Supersedes = o.supersedes
	}
	if o.expires != "" {
		t, err := service.ParseExpires("--expires", o.expires)
		if err != nil {
			return usagef(cmd, "%v", err)
		}
		req.Expires = t
	}
	if o.tagsSet {
		req.Tags = tags
		if req.Tags == nil {
			req.Tags = []string{}
		}
	}
	return o.app.withMemory(ctx, create, nil, func(m *service.Memory) error {
		c, err := m.Add(ctx, req)
		if err != nil {
			return err
		}
		fmt.Fprintf(o.app.stderr, "%s %s\n", c.Status, store.Key{Category: c.Category, Name: c.Name})
		return nil
	})
}

// readContent takes the content from the one source given.
func (o *addOptions) readContent(cmd *cobra.Command) (string, error) {
	switch {
	case o.contentSet && o.fileSet:
		return "", usagef(cmd, "give the content once: --content or --file, not both")
	case o.contentSet:
		return o.content, nil
	case o.fileSet && o.file == "":
		return "", usagef(cmd, "--file needs a path (- for stdin)")
	case o.fileSet && o.file == "-":
		if o.app.stdin == nil {
			return "", errors.New("--file -: no stdin")
		}
		return readContent(o.app.stdin, "stdin")
	case o.fileSet:
		f, err := os.Open(o.file)
		if err != nil {
			return "", err
		}
		defer f.Close()
		return readContent(f, o.file)
	case stdinPiped(o.app.stdin):
		s, err := readContent(o.app.stdin, "stdin")
		if err == nil && s == "" {
			// Most likely a script with stdin at /dev/null, not a wish to
			// store nothing; --content "" says that explicitly.
			return "", usagef(cmd, "no content: stdin is empty (use --content \"\" for an empty entry)")
		}
		return s, err
	default:
		return "", usagef(cmd, "no content: use --content TEXT, --file F, or pipe it on stdin")
	}
}

// readContent reads at most one byte past the content limit, so a huge
// input fails fast instead of filling memory.
func readContent(r io.Reader, from string) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, store.MaxContentBytes+1))
	if err != nil {
		if _, named := err.(*os.PathError); named { // it already names the file
			return "", err
		}
		return "", fmt.Errorf("read %s: %w", from, err)
	}
	if len(b) > store.MaxContentBytes {
		return "", &store.FieldError{Field: "content", Reason: fmt.Sprintf("%s is larger than the limit of %d bytes", from, store.MaxContentBytes)}
	}
	return string(b), nil
}

// stdinPiped reports whether stdin carries data for us: it exists and is
// not an interactive terminal (a pipe, a file, or a buffer in tests).
func stdinPiped(stdin io.Reader) bool {
	return stdin != nil && !isTerminal(stdin)
}
