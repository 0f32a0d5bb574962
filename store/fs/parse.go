package fs

import "github.com/recallhq/recall/store"

// ParseEntry splits the bytes of an entry file into its metadata and its
// content, exactly as the store reads its own files: optional YAML front
// matter between "---" lines at the top, the rest verbatim. Importers of
// markdown folders (an Obsidian vault, say) use it to read files that sit
// outside any store. It does not validate the content; Put does.
func ParseEntry(data []byte) (store.Meta, string, error) { return parseFile(data) }
