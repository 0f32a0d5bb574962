package service

import "fmt"

// SkipSummary is what a one-shot command that builds the index to answer
// (recall retrieve) says about the entries it could not read: nothing for
// none, the one as "skipped <reason>", and for several one line naming the
// first and how to list them all. A vault with a few dozen broken notes
// would otherwise print all of them before every answer; `recall ls` and
// `recall reindex` name each one, and a server logs each once, when it
// starts. The reasons are made safe to print (OneLine).
func SkipSummary(skipped []error) string {
	switch len(skipped) {
	case 0:
		return ""
	case 1:
		return "skipped " + OneLine(skipped[0].Error())
	}
	return fmt.Sprintf("skipped %s that could not be read, the first: %s (recall reindex names them all)",
		plural(len(skipped), "entry", "entries"), OneLine(skipped[0].Error()))
}
