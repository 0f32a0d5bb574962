package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// add --date stores the event date: get --json shows it in meta, ls
// --long in a fifth column, it survives an export through get --json and
// an import into another backend, and an update without --date keeps it.
func TestAddDate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mem")
	c := newCLI(t, nil)
	c.ok("--store", dir, "add", "diary", "beach", "--content", "Swam at Yalong Bay.", "--date", "2024-05-03")
	c.ok("--store", dir, "add", "diary", "lunch", "--content", "Noodles.", "--date", "2024-05-03T12:30:00+08:00")
	c.ok("--store", dir, "add", "diary", "plain", "--content", "No date.")
	line := c.ok("--store", dir, "get", "--json", "diary", "beach")
	if !strings.Contains(line, `"date":"2024-05-03"`) {
		t.Errorf("get --json = %s, want meta.date 2024-05-03", line)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "diary", "beach.md"))
	if err != nil || !strings.Contains(string(raw), "\ndate: 2024-05-03\n") {
		t.Errorf("front matter = %q, %v; want a date: 2024-05-03 line", raw, err)
	}
	long := c.ok("--store", dir, "ls", "--long")
	for _, want := range []string{"diary:beach\t", "\tdate 2024-05-03\n", "\tdate 2024-05-03T12:30:00+08:00\n"} {
		if !strings.Contains(long, want) {
			t.Errorf("ls --long = %q, want %q in it", long, want)
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(long), "\n") {
		if strings.HasPrefix(l, "diary:plain\t") && strings.Count(l, "\t") != 3 {
			t.Errorf("undated row %q has more than the four columns of before", l)
		}
	}
	c.ok("--store", dir, "add", "diary", "beach", "--content", "Swam again.")
	if again := c.ok("--store", dir, "get", "--json", "diary", "beach"); !strings.Contains(again, `"date":"2024-05-03"`) {
		t.Errorf("update without --date: %s, want the date kept", again)
	}
	db := filepath.Join(t.TempDir(), "b.db")
	o := c.runIn(strings.NewReader(c.ok("--store", dir, "get", "--json", "diary", "lunch")), "--store", db, "import", "-")
	if o.code != 0 {
		t.Fatalf("import: %+v", o)
	}
	if got := c.ok("--store", db, "get", "--json", "diary", "lunch"); !strings.Contains(got, `"date":"2024-05-03T04:30:00Z"`) {
		t.Errorf("after import into bolt: %s, want the instant of the date", got)
	}
	bad := c.run("--store", dir, "add", "diary", "x", "--content", "y", "--date", "May 3rd")
	if bad.code == 0 || !strings.Contains(bad.stderr, `--date invalid date "May 3rd"`) {
		t.Errorf("bad --date: %+v", bad)
	}
}

// retrieve's time flags: the answer says what range was understood, and
// bad values are usage errors that name the flag.
func TestRetrieveTimeFlags(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mem")
	c := newCLI(t, nil)
	c.ok("--store", dir, "add", "diary", "beach", "--content", "Swam at Yalong Bay.", "--date", "2025-05-28")
	c.ok("--store", dir, "add", "diary", "old", "--content", "Swam in the lake.", "--date", "2024-05-28")
	out := c.ok("--store", dir, "retrieve", "swam last week", "--now", "2025-06-04T09:00:00+08:00")
	if !strings.HasPrefix(out, `time: "last week" = from 2025-05-26 (Mon) +0800 up to 2025-06-02 (Mon) +0800`) ||
		!strings.Contains(out, "hit diary:beach") || strings.Contains(out, "diary:old") || !strings.Contains(out, "date=2025-05-28") {
		t.Errorf("retrieve with a phrase:\n%s", out)
	}
	if out := c.ok("--store", dir, "retrieve", "swam last week", "--no-time"); strings.Contains(out, "time:") || !strings.Contains(out, "diary:old") {
		t.Errorf("--no-time:\n%s", out)
	}
	if out := c.ok("--store", dir, "retrieve", "--before", "2025-01-01", "--tz", "Asia/Shanghai"); !strings.Contains(out, "hit diary:old") || strings.Contains(out, "diary:beach") {
		t.Errorf("timeline before 2025:\n%s", out)
	}
	if out := c.ok("--store", dir, "ls", "--after", "2025-01-01"); out != "diary:beach\n" {
		t.Errorf("ls --after: %q", out)
	}
	for _, args := range [][]string{
		{"retrieve", "x", "--after", "junk"},
		{"retrieve", "x", "--now", "tomorrow"},
		{"retrieve", "x", "--tz", "Mars/Base"},
		{"ls", "--before", "2024-13-01"},
		{"retrieve"},
	} {
		o := c.run(append([]string{"--store", dir}, args...)...)
		want := "--after/--before" // retrieve without a query says what else it takes
		if len(args) > 1 {
			want = args[len(args)-2]
		}
		if o.code != 2 || !strings.Contains(o.stderr, want) {
			t.Errorf("%v: %+v, want a usage error naming the flag", args, o)
		}
	}
}

// ls --after/--before lists in the order plain ls does (category, then
// name, bytewise) on a folder store too, whose walk visits "x-y.md" before
// "x.md" and the folder a/b before the file a/z.md.
func TestLsRangeSorted(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mem")
	c := newCLI(t, nil)
	for _, k := range [][2]string{{"a", "z"}, {"a/b", "x"}, {"notes", "x-y"}, {"notes", "x"}} {
		c.ok("--store", dir, "add", k[0], k[1], "--content", "Swam.", "--date", "2024-05-03")
	}
	want := c.ok("--store", dir, "ls")
	if want != "a:z\na/b:x\nnotes:x\nnotes:x-y\n" {
		t.Fatalf("ls = %q", want)
	}
	for _, args := range [][]string{{"--after", "2024-01-01"}, {"--before", "2025-01-01"}, {"--after", "2024-05-03", "--before", "2024-05-04", "--tz", "UTC"}} {
		if got := c.ok(append([]string{"--store", dir, "ls"}, args...)...); got != want {
			t.Errorf("ls %v = %q, want %q as plain ls", args, got, want)
		}
	}
}
