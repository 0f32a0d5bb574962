package bench

import "errors"

// Sentinel errors, wrapped with context; test them with errors.Is.
var (
	// ErrFormat is wrapped by every error about a dataset that cannot be
	// read as BEIR: a path that is not a folder, a bad JSON line, a qrels
	// line without three fields, a document without an id.
	ErrFormat = errors.New("not a BEIR dataset")
	// ErrName is wrapped by EntryName when an id cannot become an entry
	// name (empty, invalid UTF-8, or too long once escaped) and by DocID
	// when a name does not decode to valid UTF-8.
	ErrName = errors.New("no entry name for this id")
	// ErrNoEmbedder is returned by RecallModes when the fusion mode is
	// asked for without an embedder.
	ErrNoEmbedder = errors.New("the fusion mode needs an embedder")
)
