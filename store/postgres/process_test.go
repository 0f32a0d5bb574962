package postgres

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/recallhq/recall/store"
)

// childEnv makes the test binary act as a helper process (runChild)
// instead of running tests: another "host" with its own pool.
const childEnv = "RECALL_POSTGRES_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(runChild())
	}
	os.Exit(m.Run())
}

// runChild does RECALL_POSTGRES_TEST_ROUNDS read-modify-write updates of
// race:shared, each appending the token h<host>w0i<round>.
func runChild() int {
	host := os.Getenv("RECALL_POSTGRES_TEST_HOST")
	rounds, _ := strconv.Atoi(os.Getenv("RECALL_POSTGRES_TEST_ROUNDS"))
	s, err := Open(ctx, os.Getenv(urlEnv), &Options{Schema: os.Getenv("RECALL_POSTGRES_TEST_SCHEMA")})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	for i := range rounds {
		tok := fmt.Sprintf("h%sw0i%d", host, i)
		err := s.Update(ctx, "race", "shared", func(old store.Entry, _ bool) (store.Entry, error) {
			old.Content = strings.TrimSpace(old.Content + " " + tok)
			n, _ := strconv.Atoi(firstTag(old.Meta.Tags))
			old.Meta.Tags = []string{strconv.Itoa(n + 1)}
			return old, nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// Two processes update one entry at once through Update; nothing is lost.
func TestTwoProcessesUpdate(t *testing.T) {
	schema := newSchema(t)
	s := openSchema(t, schema, nil) // creates the schema first
	const procs, rounds = 3, 40
	cmds := make([]*exec.Cmd, procs)
	for h := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"=1",
			"RECALL_POSTGRES_TEST_HOST="+strconv.Itoa(h),
			"RECALL_POSTGRES_TEST_ROUNDS="+strconv.Itoa(rounds),
			"RECALL_POSTGRES_TEST_SCHEMA="+schema)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[h] = cmd
	}
	for h, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("process %d: %v", h, err)
		}
	}
	e, err := s.Get(ctx, "race", "shared")
	if err != nil {
		t.Fatal(err)
	}
	checkTokens(t, e, procs, 1, rounds)
}
