// Recall is the command-line face of the recall memory engine: it adds,
// lists and removes memories, imports them in bulk, and retrieves the ones
// relevant to a query with the evidence of why.
//
// Usage:
//
//	recall [--store PATH] <command> [flags] [arguments]
//
// Commands:
//
//	add CATEGORY NAME   add or update an entry (--content TEXT, --file F, or stdin; --tag T)
//	append CATEGORY NAME  add text at the end of an entry (--text TEXT, --file F, or stdin)
//	edit CATEGORY NAME  replace one exact passage (--old TEXT --new TEXT)
//	get CATEGORY NAME   print an entry's content exactly (--json: with metadata, one line)
//	rm CATEGORY NAME    remove an entry (a missing one is an error)
//	ls [CATEGORY]       list category:name, sorted (--long, --json; --limit N --cursor C for pages)
//	categories          the categories with their number of entries (--json)
//	retrieve QUERY      the relevant entries within a token budget
//	                    (--limit N, --budget N | --no-budget, --no-links, --explain,
//	                    --segmenter auto|on|off, --category C, --tag T, --min-score S, --json)
//	reindex             build the index once; report entries, skips and time
//	import PATH         import a folder of markdown files (an Obsidian vault), a .jsonl file, or
//	                    another tool's file told by content: an MCP memory graph, ChatGPT's or
//	                    Claude's conversations.json, mem0's memories (--format to force one)
//	export              every entry as JSONL on stdout, or --output FILE.jsonl | DIR (a folder store)
//	backup DEST         a copy of the store, safe while it is in use (DEST.db: a bolt snapshot;
//	                    DEST.jsonl; a folder)
//	restore BACKUP      a backup into an empty store (--force: replace what the store holds)
//	mcp                 serve agent hosts over MCP on stdio (tools retrieve, add, append, edit,
//	                    get, delete, list, categories; the prompt recall; recall:// resources)
//	serve               serve an HTTP JSON API (--addr, --token, --allow-host, --quiet)
//	context             a Claude Code hook: the memory for a prompt or a session start, as
//	                    context (--budget, --recent, --timeout, --format); fails open, exit 0
//
// Examples:
//
//	recall add trips 三亚之行 --content "2024年3月去三亚，见[[people:小雨]]。" --tag travel
//	echo "likes the sea" | recall add preferences sea
//	recall get trips 三亚之行
//	recall ls trips --long
//	recall retrieve 想去海边玩
//	recall retrieve "peanut allergy" --limit 3 --no-budget --json
//	recall import ~/Obsidian/MyVault
//	recall --store ~/memory.db import memories.jsonl
//	recall export > memory.jsonl
//	recall --store ~/memory.db backup ~/backups/memory.db
//
// # Store
//
// --store PATH names the store. A path ending in ".db" (any case) is a bolt
// file (store/bolt); anything else is a folder of markdown files
// (store/fs). A folder that already exists under a name ending in ".db" is
// still used as a folder. Without --store, $RECALL_STORE is used, and
// without that a per-user data folder: $XDG_DATA_HOME/recall/memory (else
// ~/.local/share/recall/memory) on Linux and the BSDs,
// ~/Library/Application Support/recall/memory on macOS,
// %LocalAppData%\recall\memory on Windows. A leading "~" is expanded even
// when the shell did not (a quoted RECALL_STORE).
//
// add and import create a missing store (and so do the servers given
// --create), but never the folders above it: a mistyped --store is an
// error (only the per-user default location gets its parent folders, mode
// 0700). Every other command, the servers without --create included,
// fails when the store does not exist, rather than create an empty one
// and answer from it: a mistyped path should be noticed, not answered with
// "nothing found".
//
// A bolt file is held by one process at a time. A command that finds it
// held waits about a second and then fails with "store is locked by
// another process". Every command closes the store before it exits, so a
// finished command never keeps the file locked.
//
// # Output and exit status
//
// Data (entries, listings, results) goes to stdout; diagnostics ("added
// x:y", skipped import items, progress bars) to stderr. Human output uses
// bold and dim text only when stdout is a terminal and NO_COLOR is unset;
// --json output never does. A failed command prints one line, "recall:
// <reason>", on stderr and exits 1; a command line that cannot be
// understood (unknown flag, wrong number of arguments) exits 2.
//
// # Retrieve
//
// retrieve --json prints exactly one JSON object, the library's
// retrieve.Result, with the field names of SPEC §7 (items, budget_used,
// embedding_used, unresolved_links, dropped; per item source, category,
// name, content, score, bm25_score, via, matched_terms, tokens_est).
// Characters such as <, > and & are not escaped. The human output shows the
// same evidence: rank, source, category:name, score, BM25 score and matched
// terms for hits, via for links, the estimated tokens, then the content
// indented; then a summary line, the unresolved links, and with --explain
// the items the budget dropped. Control characters in stored text are
// shown escaped (\x1b) so that they cannot drive the terminal.
//
// --segmenter defaults to off in this one-shot command: loading the gse
// dictionary takes about two seconds and over 100 MB, which a single query
// rarely repays. Bigrams need no dictionary.
//
// --analyzer (retrieve, reindex, serve, mcp; default $RECALL_ANALYZER,
// else english-stop) chooses the index analyzer: english-stop
// (Snowball stemming of English words, Lucene's stop words), english
// (stemming only) or spec (the SPEC §3 tokenizer). gse is linked from
// index/gse, which only this command and the bench import.
//
// # Import
//
// See `recall import --help` for the layouts; the work is done by package
// importer, this command only wires it. Markdown files are read by the fs
// store's own code, so front matter means the same thing in a vault as in
// an fs store; nested folders are categories (trips/2024:Kyoto Trip).
// Invalid lines and notes are reported and skipped, with a rename when a
// name is at fault; the rest is imported, entries equal to the stored ones
// are left alone, and the exit status is 0 unless nothing could be
// imported. The summary reads "imported N, unchanged U, skipped S" and,
// for a folder, what was ignored (.obsidian, .trash, attachments, hidden
// files). A progress bar appears on stderr when it is a terminal and more
// than 200 entries are being written.
//
// # Servers
//
// mcp and serve are long-running: one process holds the store and an
// index kept fresh by every write it makes, and agent hosts reach it over
// MCP (stdio) or HTTP. Both need an existing store (--create makes a
// missing one), build the index in the background once they are up (the
// gse dictionary and any embedding model are touched only when first
// needed), and watch a folder store so that
// edits made meanwhile by the CLI, an editor or git are visible to the
// next retrieve within about a second. A bolt store is held for as long
// as the server runs; other commands on it fail with "locked", and should
// go through the server. The retrieve answer of POST /v1/retrieve is byte
// for byte what `recall retrieve --json` prints for the same options; the
// MCP retrieve tool returns the same object as structured content, with a
// compact text rendering beside it for the model. The operations live in
// package service (service.Memory), the HTTP handler in service/httpapi
// and the MCP tools in service/mcptools; this package parses flags and
// wires them (memory.go builds a Memory from the flags).
package main
