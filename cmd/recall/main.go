package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	root := newRootCmd(os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	root.SetArgs(os.Args[1:])
	code := execute(ctx, root)
	stop()
	os.Exit(code)
}
