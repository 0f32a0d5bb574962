package index

// EntryText is the text recall embeds for an entry and keys its document
// vector by: name + " " + content (SPEC §4). It is the one place that
// rule is written. BM25 indexes IndexText, which is EntryText when the
// entry has no aliases (titles.go).
func EntryText(name, content string) string { return name + " " + content }
