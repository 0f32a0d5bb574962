package index

// EntryText is the text recall indexes for an entry, and embeds and keys
// its document vector by: name + " " + content (SPEC §4). It is the one
// place that rule is written.
func EntryText(name, content string) string { return name + " " + content }
