// Package location opens a recall store from the one string that names
// it, as `recall --store` and $RECALL_STORE do: a folder of markdown files
// (store/fs), a bolt file whose name ends in ".db" (store/bolt), or a
// PostgreSQL database named by a postgres:// or postgresql:// URL
// (store/postgres).
//
// # Basics
//
// Open (or Parse, then Location.Open) chooses the backend and opens it:
//
//	st, loc, err := location.Open(ctx, "memory.db", &location.Options{Create: true})
//	if err != nil {
//		return err
//	}
//	defer st.Close()
//	log.Printf("serving %s", loc) // "serving memory.db (bolt)"
//
// A Location's String and Redacted never show a password: a URL's is
// replaced by "xxxxx", so a Location can go into any log line. Its Name is
// the string as given, for code that needs the real thing.
//
// Without Options.Create, a missing store is an error wrapping
// ErrNotExist, and nothing is created (for PostgreSQL: not even recall's
// schema). With Create, the store itself is made but never the folders
// above it, unless Options.Parents is set too: a mistyped location is an
// error, not a new tree of folders.
//
// # The default store
//
// DefaultPath is the per-user folder recall uses when no store is named
// ($XDG_DATA_HOME/recall/memory on Linux, say), and ExpandHome turns a
// leading "~" into the home folder for a location that reached the program
// quoted, so the shell did not expand it (RECALL_STORE="~/memory").
//
// # Caveats
//
// The package links every backend (bbolt, fsnotify and YAML, pgx). A
// program that needs one backend only can import that backend's package
// and call its Open instead.
package location
