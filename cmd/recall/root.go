package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/buildinfo"
	"github.com/recallhq/recall/docs/commands"
	"github.com/recallhq/recall/render"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/setup"
)

// Exit codes: 1 for a failed command, 2 for a command line that could not
// be understood (bad flags or arguments), so scripts can tell them apart.
const (
	exitFailure = 1
	exitUsage   = 2
)

// app is what every subcommand shares: the process's streams, its
// environment, and the global flags. Tests build one per run, so no state
// leaks between them.
type app struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string

	storeFlag     string
	cacheInFolder bool
}

// newRootCmd builds the whole command tree over the given streams and
// environment lookup (os.Getenv in main, a map in tests).
func newRootCmd(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) *cobra.Command {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	root := documented(&cobra.Command{
		Use:                        "recall",
		SuggestionsMinimumDistance: 2,
		// Errors are printed once, as one line, by execute.
		SilenceErrors: true,
		SilenceUsage:  true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			msg := fmt.Sprintf("unknown command %q", args[0])
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				msg += fmt.Sprintf(", did you mean %q?", s[0])
			}
			return &usageError{cmd: cmd, msg: msg}
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmd.Help()
		},
	})
	root.Version = buildinfo.Read().String()
	root.SetVersionTemplate("recall {{.Version}}\n")
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.CompletionOptions.HiddenDefaultCmd = true
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return &usageError{cmd: cmd, msg: err.Error()}
	})
	root.PersistentFlags().StringVar(&a.storeFlag, "store", "",
		"the store `PATH`: a folder of markdown files, or a bolt file ending in .db (default $RECALL_STORE, else a per-user data folder)")
	root.PersistentFlags().BoolVar(&a.cacheInFolder, "cache-in-folder", false,
		"keep a folder store's index copy and vector cache in <folder>/.recall, not in the user's cache directory ($RECALL_CACHE_DIR, else e.g. ~/.cache/recall)")

	root.AddCommand(
		newAddCmd(a),
		newAppendCmd(a),
		newEditCmd(a),
		newGetCmd(a),
		newRmCmd(a),
		newLsCmd(a),
		newCategoriesCmd(a),
		newRetrieveCmd(a),
		newReindexCmd(a),
		newEmbedCmd(a),
		newBenchCmd(a),
		newImportCmd(a),
		newExportCmd(a),
		newBackupCmd(a),
		newRestoreCmd(a),
		newMCPCmd(a),
		newServeCmd(a),
		newContextCmd(a),
	)
	return root
}

// execute runs root and turns its error into one line on its stderr and
// an exit code.
func execute(ctx context.Context, root *cobra.Command) int {
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return 0
	}
	if se := (*setup.Error)(nil); errors.As(err, &se) {
		err = &usageError{cmd: cmd, msg: err.Error()} // a setting the command line gave
	}
	fmt.Fprintf(root.ErrOrStderr(), "recall: %s\n", service.OneLine(err.Error())) // a YAML error folded, what a damaged file put there escaped
	var u *usageError
	if errors.As(err, &u) {
		return exitUsage
	}
	return exitFailure
}

// usageError is a command line that could not be understood.
type usageError struct {
	cmd *cobra.Command
	msg string
}

func (e *usageError) Error() string {
	return fmt.Sprintf("%s (see '%s --help')", e.msg, e.cmd.CommandPath())
}

func usagef(cmd *cobra.Command, format string, args ...any) error {
	return &usageError{cmd: cmd, msg: fmt.Sprintf(format, args...)}
}

// exactArgs requires one argument per name.
func exactArgs(names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(names) == 0 && len(args) > 0 {
			return usagef(cmd, "%s takes no arguments, got %s", cmd.Name(), render.Plural(len(args), "argument", "arguments"))
		}
		if len(args) != len(names) {
			return usagef(cmd, "%s takes %s, got %s", cmd.Name(), strings.Join(names, " "), render.Plural(len(args), "argument", "arguments"))
		}
		return nil
	}
}

// rangeArgs requires between min and max arguments.
func rangeArgs(min, max int, usage string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < min || len(args) > max {
			return usagef(cmd, "%s takes %s, got %s", cmd.Name(), usage, render.Plural(len(args), "argument", "arguments"))
		}
		return nil
	}
}

// documented fills cmd's Short, Long and Example from its page of the
// manual (docs/commands/NAME.md), which users read too. Every command has
// one (TestEveryCommandHasAPage), so a missing page is a build mistake.
func documented(cmd *cobra.Command) *cobra.Command {
	p, err := commands.Lookup(cmd.Name())
	if err != nil {
		panic(err)
	}
	cmd.Short, cmd.Long, cmd.Example = p.Short, p.Long, p.Example
	return cmd
}
