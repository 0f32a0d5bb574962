// Recall is the command-line face of the recall memory engine: it adds,
// lists and removes memories, imports them in bulk, and retrieves the ones
// relevant to a query with the evidence of why.
//
//	recall [--store PATH] <command> [flags] [arguments]
//
// Its manual is docs/commands in the source tree, one page per command,
// which is also what each command prints as its --help (package
// github.com/recallhq/recall/docs/commands embeds it): the store location,
// the output and exit status conventions, and every command's flags.
//
// This package only parses flags and wires them to packages a Go program
// can use as well: service (every operation), setup (the engine from
// settings given by name), store/location, importer, backup, render,
// bench, service/httpapi and service/mcptools.
package main
