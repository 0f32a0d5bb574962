package setup

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/recallhq/recall/store"
)

// Content is an entry's text as a person gives it, in exactly one way: a
// flag (add's --content TEXT, append's --text TEXT), --file F (- for
// stdin), or piped on stdin. Read reads it.
type Content struct {
	// Flag is the text flag's name ("content", "text"); What names the
	// text in messages ("content", "text").
	Flag, What string
	// Text is the flag's value, TextGiven whether it was given at all
	// (--content "" is an empty entry).
	Text      string
	TextGiven bool
	// File is --file's value, FileGiven whether it was given.
	File      string
	FileGiven bool
	// Stdin is the process's standard input (nil: none); StdinPiped
	// says it is not a terminal, so that it holds the text when neither
	// flag is given.
	Stdin      io.Reader
	StdinPiped bool
	// EmptyStdin, when set, is the message for an empty piped stdin
	// (most likely a script with stdin at /dev/null, not a wish to store
	// nothing).
	EmptyStdin string
}

// Read returns the text (read with store.ReadContent, which bounds it).
// A command line at fault (both ways given, none, --file without a path,
// an empty stdin where EmptyStdin says so) is an *Error naming the flag.
func (c Content) Read() (string, error) {
	switch {
	case c.TextGiven && c.FileGiven:
		return "", &Error{"--" + c.Flag, fmt.Sprintf("give the %s once: --%s or --file, not both", c.What, c.Flag)}
	case c.TextGiven:
		return c.Text, nil
	case c.FileGiven && c.File == "":
		return "", &Error{"--file", "--file needs a path (- for stdin)"}
	case c.FileGiven && c.File == "-":
		if c.Stdin == nil {
			return "", errors.New("--file -: no stdin")
		}
		return store.ReadContent(c.Stdin, "stdin")
	case c.FileGiven:
		f, err := os.Open(c.File)
		if err != nil {
			return "", err
		}
		defer f.Close()
		return store.ReadContent(f, c.File)
	case c.Stdin != nil && c.StdinPiped: // a file, a buffer in tests
		s, err := store.ReadContent(c.Stdin, "stdin")
		if err == nil && s == "" && c.EmptyStdin != "" {
			return "", &Error{"--" + c.Flag, c.EmptyStdin}
		}
		return s, err
	default:
		return "", &Error{"--" + c.Flag, fmt.Sprintf("no %s: use --%s TEXT, --file F, or pipe it on stdin", c.What, c.Flag)}
	}
}
