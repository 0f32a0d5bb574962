// Package hostctx puts recall's memory in an agent host's context before
// the model's first word: it reads the input a host's hook sends on stdin
// and writes what the host injects as context. `recall context` is this
// package behind a command line.
//
// # Basics
//
// The host implemented is Claude Code (its hooks reference,
// https://code.claude.com/docs/en/hooks). A command hook gets one JSON
// object on stdin: session_id, transcript_path, cwd, hook_event_name, and
// per event prompt (UserPromptSubmit) or source (SessionStart: startup,
// resume, clear or compact). For those two events, what the hook prints
// on stdout with exit code 0 is added to the model's context, as plain
// text or as the JSON {"hookSpecificOutput": {"hookEventName": …,
// "additionalContext": …}}; up to 10,000 characters reach the model whole.
//
//	UserPromptSubmit  the memory relevant to the prompt (service.Memory.RetrieveMessage:
//	                  the retrieve of the MCP prompt, time phrases included),
//	                  as mcptools.ContextText renders it; nothing when nothing matched
//	SessionStart      one line on the memory (entries, categories); the entries about
//	                  the project, found by the name of the session's folder (cwd's
//	                  last element: /home/u/src/harbor searches "harbor"), within half
//	                  the budget; then the entries dated in the last Options.Recent
//	                  (default 7 days), newest first, less those already given;
//	                  nothing for an empty memory
//	any other event   nothing
//
// Both are within Options.Budget estimated tokens (default 800, as a
// retrieve) and cut at MaxOutputChars.
//
//	err := hostctx.Run(ctx, os.Stdin, os.Stdout, open, hostctx.Options{})
//	if err != nil {
//		log.Print(err) // stderr; the host goes on without memory
//	}
//
// # Caveats
//
// Run fails open: a bad input, a store that cannot be opened or read, a
// retrieve error, a panic, or the deadline (Options.Timeout, default 5 s,
// covering the read of stdin too) writes nothing at all and returns the
// error; the caller exits 0, so that a broken memory never blocks the
// host (Claude Code treats exit code 2 as "block this prompt"). On the
// deadline Run returns at once and leaves its work to finish in the
// background; a command exits anyway.
//
// A bolt store that a running `recall mcp` or `recall serve` holds is
// locked: the hook cannot open it and injects nothing. Folder and
// PostgreSQL stores are shared.
package hostctx
