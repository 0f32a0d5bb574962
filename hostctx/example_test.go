package hostctx_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/recallhq/recall/hostctx"
	"github.com/recallhq/recall/service"
	fsstore "github.com/recallhq/recall/store/fs"
)

// A Claude Code UserPromptSubmit hook's input on stdin, and the context
// it gets back, as `recall context --format text` prints it.
func ExampleRun() {
	dir, _ := os.MkdirTemp("", "hostctx-example-")
	defer os.RemoveAll(dir)
	st, _ := fsstore.Open(dir, nil)
	defer st.Close()
	m := service.New(st, service.Options{})
	defer m.Close()
	m.Add(context.Background(), service.AddRequest{Category: "work", Name: "harbor", Content: "Harbor deploys are frozen on Fridays."})

	open := func(context.Context) (*service.Memory, func(), error) { return m, func() {}, nil }
	stdin := strings.NewReader(`{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/w","hook_event_name":"UserPromptSubmit","prompt":"can I deploy harbor?"}`)
	if err := hostctx.Run(context.Background(), stdin, os.Stdout, open, hostctx.Options{Format: hostctx.Text}); err != nil {
		fmt.Println("no context:", err)
	}
	// Output:
	// Memory from recall relevant to the user's message (best first; use what bears on it and ignore the rest; call retrieve for more):
	//
	// [hit] work:harbor (bm25 0.70; matched deploy, harbor)
	// Harbor deploys are frozen on Fridays.
	//
	// 1 item, 7/800 tokens.
}
