package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/recallhq/recall/store"
	fsstore "github.com/recallhq/recall/store/fs"
)

// RootCategory is the category of the notes at the top of a vault, beside
// its folders (Home.md is notes:Home). It is the one place this package
// names it; a folder store opened on a vault must use the same one so that
// the two views of a vault agree.
const RootCategory = fsstore.RootCategory

// MaxDepth is how many folders deep a note may sit: a category has at most
// 8 segments (SPEC §1).
const MaxDepth = 8

// VaultOptions tune ReadVault. The zero value is the default.
type VaultOptions struct {
	// RootCategory is given to notes at the top of the vault; empty means
	// the package's RootCategory.
	RootCategory string
}

// ReadVault reads the markdown notes under root, a folder such as an
// Obsidian vault, into a Plan. It only reads.
//
// Every file ending in .md is a note: its folder path relative to root is
// the category (trips/2024/Kyoto Trip.md is trips/2024:Kyoto Trip), notes at
// the top take opts.RootCategory, and the YAML front matter is its
// metadata, read exactly as the folder store reads its own files (tags,
// aliases and every other key kept; front matter that does not parse is
// kept verbatim under store.UnparsedFrontMatter and reported in
// Plan.Warnings). Names and folder names that SPEC §1 refuses for new
// entries ("What is it?", "Notes.") are mapped by store.EscapeName, as a
// folder store opened on the vault maps them. created and updated come from the
// front matter, else from the file: updated is its modification time,
// created its birth time where the system records one, else the
// modification time, but never later than the modification time or the
// updated of the front matter (a copy is born when it is copied). Names are normalised to NFC.
//
// Ignored, and counted in Plan.Ignored: .obsidian/ and .trash/ at the top,
// any other file or folder whose name starts with '.', and files that do
// not end in .md (attachments). Skipped, with the reason (and a rename when
// a name is at fault): notes whose name or folders the store would refuse,
// folders nested deeper than MaxDepth, unreadable or damaged files, files
// that are not regular (a FIFO, a device), and symbolic links, which are
// never followed. The error is for the walk as a whole: root unreadable,
// ctx cancelled.
func ReadVault(ctx context.Context, root string, opts VaultOptions) (*Plan, error) {
	rootCat := opts.RootCategory
	if rootCat == "" {
		rootCat = RootCategory
	}
	p := newPlan()
	err := filepath.WalkDir(root, func(path string, d iofs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			if path == root {
				return err
			}
			p.skip(path, err, "") // an unreadable sub-folder
			return nil
		}
		if path == root {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			p.skip(path, err, "")
			return nil
		}
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(d.Name(), ".") {
			return p.ignoreHidden(path, rel, d)
		}
		switch {
		case d.Type()&iofs.ModeSymlink != 0:
			p.skip(path, errors.New("is a symbolic link; links are not followed"), "")
			return nil
		case d.IsDir():
			if depth := strings.Count(rel, "/") + 1; depth > MaxDepth {
				p.skip(path, fmt.Errorf("folder is %d levels deep, a category holds at most %d; %s", depth, MaxDepth, notesIn(path)), "")
				return filepath.SkipDir
			}
			// A folder name SPEC §1 refuses for new entries is mapped, as
			// a folder store opened on the vault maps it (store.EscapeName).
			seg := store.EscapeName(norm.NFC.String(d.Name()))
			if err := store.ValidateName("category", seg); err != nil {
				p.skip(path, fmt.Errorf("folder name: %w; %s", err, notesIn(path)), SuggestName(seg))
				return filepath.SkipDir
			}
			return nil
		case !strings.HasSuffix(d.Name(), ".md"):
			p.Ignored.Attachments++
			return nil
		case !d.Type().IsRegular():
			p.skip(path, errors.New("is not a regular file"), "")
			return nil
		}
		category := rootCat
		if dir := filepath.ToSlash(filepath.Dir(rel)); dir != "." {
			segs := strings.Split(dir, "/")
			for i, s := range segs {
				segs[i] = store.EscapeName(norm.NFC.String(s))
			}
			category = strings.Join(segs, "/")
		}
		name := store.EscapeName(norm.NFC.String(strings.TrimSuffix(d.Name(), ".md")))
		it, err := readNote(path, category, name)
		if err != nil {
			p.skip(path, err, "")
			return nil
		}
		it.Where = path
		if problem := fsstore.UnparsedProblem(it.Entry.Meta); problem != "" {
			p.Warnings = append(p.Warnings, Skip{Where: path, Reason: oneLine(problem) + "; kept verbatim, the note is imported without its properties"})
		} else {
			for _, w := range fsstore.UnparsedWarnings(it.Entry.Meta) {
				p.Warnings = append(p.Warnings, Skip{Where: path, Reason: oneLine(w)})
			}
		}
		p.addItem(it)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// ignoreHidden counts a name starting with '.' and skips a folder.
func (p *Plan) ignoreHidden(path, rel string, d iofs.DirEntry) error {
	switch {
	case rel == ".obsidian" || rel == ".trash":
		n := countFiles(path)
		if rel == ".obsidian" {
			p.Ignored.Obsidian += n
		} else {
			p.Ignored.Trash += n
		}
	default:
		p.Ignored.Hidden++
	}
	if d.IsDir() {
		return filepath.SkipDir
	}
	return nil
}

// notesIn says how many notes a skipped folder holds, for its report line.
func notesIn(dir string) string {
	n := 0
	_ = filepath.WalkDir(dir, func(_ string, d iofs.DirEntry, err error) error {
		switch {
		case err != nil:
		case strings.HasPrefix(d.Name(), ".") && d.IsDir():
			return filepath.SkipDir
		case !d.IsDir() && !strings.HasPrefix(d.Name(), ".") && strings.HasSuffix(d.Name(), ".md"):
			n++
		}
		return nil
	})
	switch n {
	case 0:
		return "it holds no notes"
	case 1:
		return "its 1 note is not imported"
	}
	return fmt.Sprintf("its %d notes are not imported", n)
}

// countFiles counts the files under dir, without following links.
func countFiles(dir string) int {
	n := 0
	_ = filepath.WalkDir(dir, func(_ string, d iofs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

// maxNoteBytes bounds what is read of one file: content up to the entry
// limit plus generous front matter.
const maxNoteBytes = store.MaxContentBytes + 1<<20

// readNote reads one note with the folder store's own parser, so that front
// matter means exactly what it means in a folder store.
func readNote(path, category, name string) (Item, error) {
	f, err := os.Open(path)
	if err != nil {
		return Item{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return Item{}, err
	}
	if !info.Mode().IsRegular() { // replaced since the walk saw it
		return Item{}, errors.New("is not a regular file")
	}
	b, err := io.ReadAll(io.LimitReader(f, maxNoteBytes+1))
	if err != nil {
		return Item{}, err
	}
	if len(b) > maxNoteBytes {
		return Item{}, fmt.Errorf("file is more than %d bytes, more than an entry can hold", maxNoteBytes)
	}
	meta, content, err := fsstore.ParseEntry(b)
	if err != nil {
		return Item{}, err
	}
	if meta.Tags, err = cleanTags(meta.Tags); err != nil {
		return Item{}, fmt.Errorf("front matter: tags: %w", err)
	}
	if err := store.CheckValidity(meta); err != nil {
		return Item{}, fmt.Errorf("front matter: %w", err)
	}
	it := Item{CreatedFromFile: meta.Created.IsZero(), UpdatedFromFile: meta.Updated.IsZero()}
	if it.UpdatedFromFile {
		meta.Updated = info.ModTime().UTC()
	}
	if it.CreatedFromFile {
		// A copy (cp -a, a restore, Syncthing) is born when it is copied
		// but keeps its modification time: a note is not created after
		// it was last changed, nor after the updated its front matter
		// gives.
		c := birthTime(path, info)
		if mt := info.ModTime(); mt.Before(c) {
			c = mt
		}
		if !meta.Updated.IsZero() && meta.Updated.Before(c) {
			c = meta.Updated
		}
		meta.Created = c.UTC()
	}
	it.Entry = store.Entry{Category: category, Name: name, Content: content, Meta: meta}
	return it, nil
}
