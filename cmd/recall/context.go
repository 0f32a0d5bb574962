package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/recallhq/recall/hostctx"
	"github.com/recallhq/recall/service"
)

type contextOptions struct {
	app    *app
	engine engineFlags
	s      hostctx.Settings
}

func newContextCmd(a *app) *cobra.Command {
	o := &contextOptions{app: a}
	cmd := documented(&cobra.Command{
		Use:  "context",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.failOpen(o.run(cmd, args))
		},
	})
	// A flag the command line cannot parse fails open too: Claude Code
	// blocks the prompt on exit code 2.
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return a.failOpen(err) })
	o.engine.register(cmd)
	f := cmd.Flags()
	f.IntVar(&o.s.Budget, "budget", hostctx.DefaultBudget, "cap on the estimated `TOKENS` of the entries given (0: no cap)")
	f.DurationVar(&o.s.Recent, "recent", hostctx.DefaultRecent, "how far back SessionStart lists entries")
	f.DurationVar(&o.s.Timeout, "timeout", hostctx.DefaultTimeout, "give up (printing nothing) after this long, reading stdin included")
	f.StringVar(&o.s.Format, "format", "json", "output `FORMAT`: json (Claude Code's hookSpecificOutput) or text")
	return cmd
}

func (o *contextOptions) run(cmd *cobra.Command, args []string) error {
	a := o.app
	if len(args) > 0 {
		return fmt.Errorf("context takes no arguments, got %q", args)
	}
	opts, err := o.s.Options()
	if err != nil {
		return err
	}
	if err := o.engine.config(a).Check(); err != nil {
		return err
	}
	if a.stdin == nil {
		return fmt.Errorf("no stdin to read the hook input from")
	}
	return hostctx.Run(cmd.Context(), a.stdin, a.stdout, o.engine.config(a).Opener(a.storeFlag, a.locationOptions(false)), opts)
}

// failOpen says err, if any, on stderr and succeeds: a broken memory never
// blocks the host.
func (a *app) failOpen(err error) error {
	if err != nil {
		fmt.Fprintf(a.stderr, "recall context: %s (no context given)\n", service.OneLine(err.Error()))
	}
	return nil
}
