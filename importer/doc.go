// Package importer brings notes into a store: a folder of markdown files
// such as an Obsidian vault (ReadVault), JSON lines (ReadJSONL), or the
// files of other memory tools, told by their content (ReadFile,
// DetectFormat): the reference MCP memory server's graph, ChatGPT's and
// Claude's conversations.json, mem0's memories. ReadPath reads a folder or
// a file as `recall import PATH` does. It is the library behind `recall
// import`, usable without the CLI. It also holds recall's one
// JSONL codec: ParseRecord reads a line, AppendRecord writes one, so that
// what `recall export` writes `recall import` reads, field for field.
//
// # Basics
//
// Importing is two steps. A Read function turns the input into a Plan,
// without touching any store: the entries to write, in input order, each
// with the place it came from, and the inputs refused with the reason (and,
// when a name is at fault, a rename that would be accepted). Plan.Write then
// writes the entries and reports how many were added, updated and
// unchanged:
//
//	plan, err := importer.ReadVault(ctx, "/home/me/Vault", importer.VaultOptions{})
//	if err != nil { return err }
//	for _, s := range plan.Skipped { fmt.Println("skipped", s) }
//	rep, err := plan.Write(ctx, st, importer.WriteOptions{})
//
// Reading first means that nothing is written for an input that holds
// nothing valid, and that a bad line or file is reported with its position
// rather than as a store error.
//
// # Vaults
//
// A note's folder path is its category, so nested folders are a
// hierarchy (trips/2024/spring/Kyoto Trip.md is the entry
// trips/2024/spring:Kyoto Trip); notes at the top of the vault take
// RootCategory. Front matter is metadata, read exactly as the folder store
// reads its own files; dates missing from it come from the file's times.
// .obsidian/, .trash/, other hidden names and attachments are ignored and
// counted (Plan.Ignored). See ReadVault.
//
// # Other tools
//
// Each Format constant names the source of its definition. An MCP memory
// entity becomes an entry in the category of its entityType, its
// observations the content (one per line), each relation a line
// "relationType [[type:name]]" of its from-entity, so that retrieve
// follows it. A conversation of ChatGPT or Claude becomes one entry named
// "Title (first 8 characters of its id)" (titles repeat; ids do not), with
// the conversation's created and updated times and its messages as
// content under "### User (2024-03-02 09:15)" headings; for ChatGPT the
// branch the user last saw (current_node up to the root), without system
// and hidden messages. A mem0 memory becomes an entry named by its id.
// Records that do not fit are skipped with the reason.
//
// # Re-importing
//
// Write compares each entry with the one stored (store.Update with
// store.ErrNoChange), so importing the same notes again writes nothing,
// moves no revision and reports them as unchanged. "The same" is content
// and metadata, never where a note's file came from: the times a vault
// note takes from its file because its front matter has none (birth and
// modification time) are no change, so a copy (cp -a, a git clone, a
// restore, Syncthing) imported again rewrites nothing, and a note that
// did change keeps the created time stored, unless its file's is
// earlier: created never moves later. New entries go through
// store.Batcher when the store offers it.
//
// # Caveats
//
// Duplicate identities within one input (two lines naming the same entry,
// or a root note and a note in a folder named like RootCategory) keep the
// first and report the rest. Symbolic links in a vault are reported, never
// followed. The package never deletes: an entry whose note was removed from
// the vault stays in the store.
package importer
