package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/recallhq/recall/store"
)

// progressThreshold is how many entries an import needs before it shows a
// progress bar: smaller ones finish before a bar would tell anything.
const progressThreshold = 200

type importOptions struct {
	app *app
	// category is given to markdown files directly in a vault's root.
	category string
}

func newImportCmd(a *app) *cobra.Command {
	o := &importOptions{app: a}
	cmd := &cobra.Command{
		Use:   "import PATH",
		Short: "Import a folder of markdown files or a .jsonl file",
		Long: `Import adds (or updates) entries from PATH, which is either

  - a folder of markdown files, such as an Obsidian vault: the top-level
    sub-folder is the category, the file name without .md the name, and YAML
    front matter the metadata, read exactly as the fs store reads its files.
    Files deeper down take the category of their top-level folder
    (vault/trips/2024/kyoto.md is trips:kyoto); files in the root take
    --category (default "notes"). Folders and files whose names start with a
    dot (.obsidian, .trash) and files not ending in .md are ignored;
    symbolic links to folders are not followed. Front matter is read exactly
    as the fs store reads it.
  - a .jsonl (or .ndjson) file, or - for stdin, with one JSON object per line:
    {"category": "...", "name": "...", "content": "...", "meta": {...}}
    meta is optional and holds tags (a list of strings), created and updated
    (RFC 3339 times or dates) and any other keys. Other top-level keys are
    an error, so a typo does not silently drop data. Blank lines are ignored.

Every input is read and checked before the store is opened. Invalid lines
and files are skipped and reported on stderr, one per line, with the line
number or path and the reason; the rest is imported. When two lines or files
name the same category:name, the first wins and the later one is reported.
A summary "imported N, skipped M" ends the output. The exit status is 0 when
something was imported (or the input held nothing), 1 when every item was
skipped or the store failed.`,
		Example: `  recall import ~/Obsidian/MyVault
  recall import --category inbox ~/notes
  recall import memories.jsonl
  jq -c '.[]' export.json | recall import -`,
		Args: exactArgs("PATH"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := store.ValidateName("category", o.category); err != nil {
				return usagef(cmd, "--category: %v", err)
			}
			return o.run(cmd.Context(), args[0])
		},
	}
	cmd.Flags().StringVar(&o.category, "category", "notes", "category for markdown files in the root of a folder")
	return cmd
}

// pending is an entry read from the input and where it came from
// ("file.jsonl:3" or a path), for reports.
type pending struct {
	where string
	e     store.Entry
}

// importer collects what an import read, skipped and wrote.
type importer struct {
	app      *app
	seen     map[store.Key]string // first place each identity came from
	items    []pending
	imported int
	skipped  int
}

func (o *importOptions) run(ctx context.Context, path string) error {
	im := &importer{app: o.app, seen: map[store.Key]string{}}
	if err := o.read(ctx, im, path); err != nil {
		return err
	}
	if len(im.items) > 0 {
		err := o.app.withStore(ctx, create, func(st store.Store) error { return im.write(ctx, st) })
		if err != nil {
			im.summary()
			return err
		}
	}
	im.summary()
	if im.imported == 0 && im.skipped > 0 {
		return fmt.Errorf("import: nothing imported, all %s skipped", plural(im.skipped, "item was", "items were"))
	}
	return nil
}

// read fills im from a vault folder or a JSONL file.
func (o *importOptions) read(ctx context.Context, im *importer, path string) error {
	if path == "-" {
		if o.app.stdin == nil {
			return errors.New("import -: no stdin")
		}
		return readJSONL(ctx, o.app.stdin, "stdin", im)
	}
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	if info.IsDir() {
		if err := o.checkNotStore(path); err != nil {
			return err
		}
		return readVault(ctx, path, o.category, im)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jsonl", ".ndjson":
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		defer f.Close()
		return readJSONL(ctx, f, path, im)
	default:
		return fmt.Errorf("import %s: not a folder or a .jsonl file", path)
	}
}

// checkNotStore refuses to import an fs store into itself, which would
// only rewrite every file.
func (o *importOptions) checkNotStore(vault string) error {
	loc, err := o.app.storeLocation()
	if err != nil {
		return err
	}
	a, errA := filepath.Abs(vault)
	b, errB := filepath.Abs(loc)
	if errA == nil && errB == nil && a == b {
		return fmt.Errorf("import %s: that folder is the store itself", vault)
	}
	return nil
}

// skip reports an item that is not imported, and why.
func (im *importer) skip(where string, err error) {
	im.skipped++
	fmt.Fprintf(im.app.stderr, "skipped %s: %s\n", where, oneLine(err.Error()))
}

// add queues an entry, after the checks the store would make, so that a
// bad item is reported with its line or path, and nothing is written for
// an input that holds nothing valid.
func (im *importer) add(where string, e store.Entry) {
	if err := store.Validate(e); err != nil {
		im.skip(where, err)
		return
	}
	if first, dup := im.seen[e.Key()]; dup {
		im.skip(where, fmt.Errorf("%s was already read from %s", e.Key(), first))
		return
	}
	im.seen[e.Key()] = where
	im.items = append(im.items, pending{where: where, e: e})
}

// importBatch is how many entries import hands the store per PutBatch.
const importBatch = 1000

// write puts the queued entries. An entry the store rejects as invalid
// is skipped; any other failure (disk full, cancelled) stops the import.
func (im *importer) write(ctx context.Context, st store.Store) error {
	bar := im.newBar(len(im.items))
	// Reports wait for the bar to finish, so they do not tear it apart.
	var rejected []string
	defer func() {
		if bar != nil {
			_ = bar.Finish()
		}
		for _, r := range rejected {
			fmt.Fprintln(im.app.stderr, r)
		}
	}()
	b, batched := st.(store.Batcher)
	for i := 0; i < len(im.items); i++ {
		if batched && i%importBatch == 0 {
			// A chunk at a time through the store's batch writes (one
			// transaction, one folder sync). A chunk the store rejects
			// as invalid is redone entry by entry below, to skip just the
			// bad ones and name them.
			chunk := im.items[i:min(i+importBatch, len(im.items))]
			es := make([]store.Entry, len(chunk))
			for j, p := range chunk {
				es[j] = p.e
			}
			err := b.PutBatch(ctx, es)
			if err == nil {
				im.imported += len(chunk)
				if bar != nil {
					_ = bar.Add(len(chunk))
				}
				i += len(chunk) - 1
				continue
			}
			if !errors.Is(err, store.ErrInvalid) || ctx.Err() != nil {
				return fmt.Errorf("import stopped at %s, item %d of %d: %w", chunk[0].where, i+1, len(im.items), err)
			}
		}
		p := im.items[i]
		err := st.Put(ctx, p.e)
		switch {
		case err == nil:
			im.imported++
		case errors.Is(err, store.ErrInvalid) && ctx.Err() == nil:
			im.skipped++
			rejected = append(rejected, fmt.Sprintf("skipped %s: %s", p.where, oneLine(err.Error())))
		default:
			return fmt.Errorf("import stopped at %s, item %d of %d: %w", p.where, i+1, len(im.items), err)
		}
		if bar != nil {
			_ = bar.Add(1)
		}
	}
	return nil
}

func (im *importer) summary() {
	fmt.Fprintf(im.app.stderr, "imported %d, skipped %d\n", im.imported, im.skipped)
}

// newBar returns a progress bar on stderr for n items, or nil when stderr
// is not a terminal or n is small.
func (im *importer) newBar(n int) *progressbar.ProgressBar {
	if n <= progressThreshold {
		return nil
	}
	return newBar(im.app.stderr, n, "importing")
}
