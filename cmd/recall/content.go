package main

import (
	"cmp"
	"errors"
	"os"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/store"
)

// contentSource is text given by exactly one of a flag (--text TEXT),
// --file F (- for stdin), or stdin when it is not a terminal.
type contentSource struct {
	flag string
	text string
	file string
	// fileUsage is --file's usage text ("" means "read it from ...").
	fileUsage string
	// emptyStdin, when set, is the usage error for an empty piped stdin.
	emptyStdin string
}

func (c *contentSource) register(cmd *cobra.Command, flag, usage string) {
	c.flag = flag
	cmd.Flags().StringVar(&c.text, flag, "", usage)
	cmd.Flags().StringVarP(&c.file, "file", "f", "", cmp.Or(c.fileUsage, "read it from file `F` (- for stdin)"))
}

func (c *contentSource) read(cmd *cobra.Command, a *app, what string) (string, error) {
	textSet, fileSet := cmd.Flags().Changed(c.flag), cmd.Flags().Changed("file")
	switch {
	case textSet && fileSet:
		return "", usagef(cmd, "give the %s once: --%s or --file, not both", what, c.flag)
	case textSet:
		return c.text, nil
	case fileSet && c.file == "":
		return "", usagef(cmd, "--file needs a path (- for stdin)")
	case fileSet && c.file == "-":
		if a.stdin == nil {
			return "", errors.New("--file -: no stdin")
		}
		return store.ReadContent(a.stdin, "stdin")
	case fileSet:
		f, err := os.Open(c.file)
		if err != nil {
			return "", err
		}
		defer f.Close()
		return store.ReadContent(f, c.file)
	case a.stdin != nil && !isTerminal(a.stdin): // piped (a file, a buffer in tests)
		s, err := store.ReadContent(a.stdin, "stdin")
		if err == nil && s == "" && c.emptyStdin != "" {
			return "", usagef(cmd, "%s", c.emptyStdin)
		}
		return s, err
	default:
		return "", usagef(cmd, "no %s: use --%s TEXT, --file F, or pipe it on stdin", what, c.flag)
	}
}
