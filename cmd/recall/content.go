package main

import (
	"cmp"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/progress"
	"github.com/recallhq/recall/setup"
)

// contentSource is the flags of text given by exactly one of a flag
// (--text TEXT), --file F (- for stdin), or stdin when it is not a
// terminal.
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

// read reads the text the command line gives (setup.Content).
func (c *contentSource) read(cmd *cobra.Command, a *app, what string) (string, error) {
	return setup.Content{Flag: c.flag, What: what, Text: c.text, TextGiven: cmd.Flags().Changed(c.flag),
		File: c.file, FileGiven: cmd.Flags().Changed("file"),
		Stdin: a.stdin, StdinPiped: a.stdin != nil && !progress.IsTerminal(a.stdin), EmptyStdin: c.emptyStdin}.Read()
}
