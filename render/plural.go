package render

import "fmt"

// Plural writes a count with its noun: "1 entry", "2 entries".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
