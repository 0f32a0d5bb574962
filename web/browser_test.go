package web

// Tests in a real browser: headless Chromium, driven by chromedp, against
// `recall serve` on a copy of the sample memory. Without Chromium they
// skip, saying so; with RECALL_REQUIRE_BROWSER=1 or CI=true (.ci/run sets
// the first) they fail instead. RECALL_CHROMIUM names the browser binary.
//
// The server runs in-process (httptest), assembled from the same packages
// `recall serve` wires together; the CLI answers the page is compared with
// come from the real binary, built from ../cmd/recall.
//
// go test ./web -run TestScreenshot -args -screenshot ../docs/web.png
// writes the screenshots (and a -390 and an -entry variant beside it).

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/recallhq/recall/embed/cache"
	"github.com/recallhq/recall/embed/hash"
	"github.com/recallhq/recall/internal/cachetest"
	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/service/httpapi"
	fsstore "github.com/recallhq/recall/store/fs"
)

// TestMain closes the browser and removes the browser profile and the
// built binary when the tests are done.
func TestMain(m *testing.M) {
	flag.Parse()
	code := cachetest.Run(m)
	if browserCtx != nil {
		chromedp.Cancel(browserCtx)
	}
	for _, dir := range tempDirs {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// tempDirs are removed by TestMain.
var tempDirs []string

var screenshot = flag.String("screenshot", "", "write screenshots of the page on the sample memory to this PNG path (and -390, -entry variants)")

const seaside = "想去海边玩"

// ---- the browser, once per test binary ----------------------------------

var (
	browserOnce sync.Once
	browserCtx  context.Context
	browserErr  error
	browserSkip string
)

func requireBrowser() bool {
	return os.Getenv("RECALL_REQUIRE_BROWSER") == "1" || os.Getenv("CI") == "true"
}

func findChromium() string {
	if p := os.Getenv("RECALL_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// tab opens a new tab of the shared headless browser, or skips the test
// (fails it in CI) when there is no browser.
func tab(t *testing.T) context.Context {
	t.Helper()
	browserOnce.Do(func() {
		path := findChromium()
		if path == "" {
			browserSkip = "no Chromium found (apt-get install -y chromium, or set RECALL_CHROMIUM); browser tests skipped"
			return
		}
		dir, err := os.MkdirTemp("", "recall-web-chromium-")
		if err != nil {
			browserErr = err
			return
		}
		tempDirs = append(tempDirs, dir)
		alloc, _ := chromedp.NewExecAllocator(context.Background(),
			chromedp.ExecPath(path),
			chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.Flag("hide-scrollbars", true),
			// A foreign site that resolves to this machine: DNS rebinding
			// and cross-site requests, for TestForeignOriginRefused.
			chromedp.Flag("host-resolver-rules", "MAP evil.example 127.0.0.1"),
			chromedp.UserDataDir(dir),
			chromedp.WindowSize(1280, 900),
		)
		ctx, _ := chromedp.NewContext(alloc)
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
			browserErr = fmt.Errorf("start %s: %w", path, err)
			return
		}
		browserCtx = ctx
	})
	switch {
	case browserSkip != "" && requireBrowser():
		t.Fatal(browserSkip + " — but RECALL_REQUIRE_BROWSER/CI asks for them")
	case browserSkip != "":
		t.Skip(browserSkip)
	case browserErr != nil:
		t.Fatal(browserErr)
	}
	ctx, cancel := chromedp.NewContext(browserCtx)
	t.Cleanup(cancel)
	ctx, cancel2 := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancel2)
	return ctx
}

// ---- the server -----------------------------------------------------------

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// recallBin builds cmd/recall once.
func recallBin(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "recall-web-bin-")
		if err != nil {
			binErr = err
			return
		}
		tempDirs = append(tempDirs, dir)
		binPath = filepath.Join(dir, "recall")
		out, err := exec.Command("go", "build", "-o", binPath, "../cmd/recall").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build ../cmd/recall: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

type server struct {
	URL   string // http://127.0.0.1:PORT
	Store string // the folder it serves
	bin   string
}

// startServer serves a fresh copy of the sample memory in-process, put
// together as `recall serve` does it (cmd/recall/serve.go): a folder store
// watched by a service.Memory, the HTTP API of service/httpapi with
// GET /v1/links mounted behind its checks, and Page around it. extra are
// serve's flags that the tests use: --token T and --embedder hash.
func startServer(t *testing.T, extra ...string) *server {
	t.Helper()
	bin := recallBin(t) // for the CLI answers the page is compared with
	dir := copyMemory(t)
	var token, embedder string
	for i := 0; i+1 < len(extra); i += 2 {
		switch extra[i] {
		case "--token":
			token = extra[i+1]
		case "--embedder":
			embedder = extra[i+1]
		default:
			t.Fatalf("startServer: unknown flag %s", extra[i])
		}
	}
	st, err := fsstore.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var eo retrieve.Options
	var opts Options
	if embedder == "hash" {
		emb, err := hash.New(hash.Config{})
		if err != nil {
			t.Fatal(err)
		}
		c := cache.New(emb, st, cache.Options{})
		eo.Embedder, eo.Vectors = emb, c
		opts.Embedder = c.Model()
	}
	m := service.New(st, service.Options{Engine: eo})
	ctx, cancel := context.WithCancel(context.Background())
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	h, err := httpapi.New(m, httpapi.Options{Token: token})
	if err != nil {
		t.Fatal(err)
	}
	h.Handle("GET /v1/links/{category}/{name}", Links(m.Engine()))
	ts := httptest.NewServer(Page(h, opts))
	t.Cleanup(func() {
		ts.Close()
		cancel()
		m.Close()
		st.Close()
	})
	return &server{URL: ts.URL, Store: dir, bin: bin}
}

// cliResult is what `recall retrieve --json` prints, as far as the page
// shows it.
type cliResult struct {
	Items           []cliItem `json:"items"`
	Dropped         []cliItem `json:"dropped"`
	BudgetUsed      int       `json:"budget_used"`
	EmbeddingUsed   bool      `json:"embedding_used"`
	UnresolvedLinks []string  `json:"unresolved_links"`
}

type cliItem struct {
	Source    string   `json:"source"`
	Category  string   `json:"category"`
	Name      string   `json:"name"`
	BM25Score *float64 `json:"bm25_score"`
	Matched   []string `json:"matched_terms"`
	TokensEst int      `json:"tokens_est"`
	Via       *struct {
		Category string `json:"category"`
		Name     string `json:"name"`
	} `json:"via"`
}

// cli runs `recall retrieve QUERY --explain --json` on the server's folder.
func (s *server) cli(t *testing.T, query string, flags ...string) cliResult {
	t.Helper()
	args := append([]string{"--store", s.Store, "retrieve", query, "--explain", "--json"}, flags...)
	cmd := exec.Command(s.bin, args...)
	cmd.Env = append(os.Environ(), "RECALL_EMBEDDER=none")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("recall %s: %v", strings.Join(args, " "), err)
	}
	var r cliResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// ---- page helpers -----------------------------------------------------------

func do(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// waitFor polls a JavaScript predicate.
func waitFor(t *testing.T, ctx context.Context, js string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	var err error
	for time.Now().Before(deadline) {
		_, err = chromedp.Run(ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingTimeout(time.Until(deadline)), chromedp.WithPollingInterval(10*time.Millisecond)))
		// A navigation under way destroys the context the poll ran in.
		if err == nil || !strings.Contains(err.Error(), "context") || ctx.Err() != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		html, _ := chromedp.Run(context.WithoutCancel(ctx), chromedp.Evaluate[string](`document.querySelector('main').innerText.slice(0, 2000) + '\nstatus: ' + document.querySelector('#status').innerText`))
		t.Fatalf("waiting for %s: %v\npage:\n%s", js, err, html)
	}
}

// resultSeq is the number of the last rendered query.
func resultSeq(t *testing.T, ctx context.Context) int {
	return eval[int](t, ctx, `Number(document.querySelector('#result').dataset.seq || 0)`)
}

// waitResult waits for a query rendered after seq.
func waitResult(t *testing.T, ctx context.Context, seq int) {
	t.Helper()
	waitFor(t, ctx, fmt.Sprintf(`Number(document.querySelector('#result').dataset.seq || 0) > %d && !document.querySelector('#result').hasAttribute('aria-busy')`, seq))
}

type pageItem struct {
	Source string `json:"source"`
	Ident  string `json:"ident"`
	Text   string `json:"text"`
	Marks  []string
}

// pageItems reads the rendered items (sel: #items or #dropped).
func pageItems(t *testing.T, ctx context.Context, sel string) []pageItem {
	return eval[[]pageItem](t, ctx, `[...document.querySelectorAll('`+sel+` > li')].map(li => ({
		source: li.dataset.source, ident: li.dataset.ident, text: li.innerText,
		Marks: [...li.querySelectorAll('.content mark')].map(m => m.textContent)}))`)
}

func idents(items []cliItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Source+" "+it.Category+":"+it.Name)
	}
	return out
}

func pageIdents(items []pageItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Source+" "+it.Ident)
	}
	return out
}

// query types q into the search box of a loaded page and presses Enter.
func query(t *testing.T, ctx context.Context, q string) {
	t.Helper()
	seq := resultSeq(t, ctx)
	setValue(t, ctx, "q", "")
	do(t, ctx, chromedp.SendKeys(chromedp.ID("q"), q+kb.Enter))
	waitResult(t, ctx, seq)
}

// click clicks the element sel selects once it is there. (The page may
// re-render between a lookup and a mouse click; the element's own click
// does not race with that.)
func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	waitFor(t, ctx, `document.querySelector(`+jsString(sel)+`)`)
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector(`+jsString(sel)+`).click()`))
}

// setValue sets a form field's value as a paste would.
func setValue(t *testing.T, ctx context.Context, id, v string) {
	t.Helper()
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById(`+jsString(id)+`).value = `+jsString(v)))
}

// openPage loads a page and waits for the script to have started.
func openPage(t *testing.T, ctx context.Context, u string) {
	t.Helper()
	do(t, ctx, chromedp.Navigate(u))
	waitFor(t, ctx, `document.body && document.body.dataset.app === 'ready'`)
}

// ---- tests ------------------------------------------------------------------

// TestQuerySeaside types the README's query and finds on the page the
// items, the order and the budget cut that the CLI prints for it; with
// links off, the link items go, as they do from the CLI.
func TestQuerySeaside(t *testing.T) {
	ctx := tab(t)
	s := startServer(t)
	openPage(t, ctx, s.URL+"/")
	query(t, ctx, seaside)

	want := s.cli(t, seaside)
	items, dropped := pageItems(t, ctx, "#items"), pageItems(t, ctx, "#dropped")
	if got, w := pageIdents(items), idents(want.Items); !slices.Equal(got, w) {
		t.Errorf("items on the page:\n%s\nrecall retrieve --json:\n%s", strings.Join(got, "\n"), strings.Join(w, "\n"))
	}
	if got, w := pageIdents(dropped), idents(want.Dropped); !slices.Equal(got, w) {
		t.Errorf("dropped on the page: %v, CLI: %v", got, w)
	}
	if len(want.Dropped) == 0 {
		t.Fatalf("the sample query should overrun the default budget; CLI: %+v", want)
	}
	summary := eval[string](t, ctx, `document.querySelector('#summary').innerText`)
	if w := fmt.Sprintf("%d items · %d / 800 tokens", len(want.Items), want.BudgetUsed); !strings.Contains(summary, w) {
		t.Errorf("summary %q does not say %q", summary, w)
	}
	if !strings.Contains(summary, "embedding not used") {
		t.Errorf("summary %q does not say the embedding did not run", summary)
	}
	cut := eval[string](t, ctx, `document.querySelector('#cut').innerText`)
	next := want.Dropped[0].TokensEst
	if w := fmt.Sprintf("Item %d (%d tokens) would bring the total to %d", len(want.Items)+1, next, want.BudgetUsed+next); !strings.Contains(cut, w) {
		t.Errorf("budget cut %q does not say %q", cut, w)
	}
	// The budget bar: one segment per item, dropped ones marked, and the
	// budget line.
	bar := eval[[]int](t, ctx, `[document.querySelectorAll('.bar .seg').length, document.querySelectorAll('.bar .seg.dropped').length, document.querySelectorAll('.bar .limit').length]`)
	if w := []int{len(want.Items) + len(want.Dropped), len(want.Dropped), 1}; !slices.Equal(bar, w) {
		t.Errorf("budget bar segments/dropped/limit = %v, want %v", bar, w)
	}
	// Evidence of each item: scores, tokens, via, matched terms marked.
	for i, it := range want.Items {
		p := items[i]
		if !strings.Contains(p.Text, fmt.Sprintf("tokens\n%d", it.TokensEst)) && !strings.Contains(p.Text, fmt.Sprintf("tokens %d", it.TokensEst)) && !strings.Contains(p.Text, fmt.Sprintf("tokens\t%d", it.TokensEst)) {
			t.Errorf("item %d (%s) does not show tokens %d:\n%s", i+1, p.Ident, it.TokensEst, p.Text)
		}
		if it.Source == "hit" {
			if w := fmt.Sprintf("%.3f", *it.BM25Score); !strings.Contains(p.Text, w) {
				t.Errorf("item %d (%s) does not show bm25 %s:\n%s", i+1, p.Ident, w, p.Text)
			}
			if len(p.Marks) == 0 {
				t.Errorf("item %d (%s): no matched term is highlighted (matched %v)", i+1, p.Ident, it.Matched)
			}
		} else if w := "via " + it.Via.Category + ":" + it.Via.Name; !strings.Contains(p.Text, w) {
			t.Errorf("item %d (%s) does not say %q:\n%s", i+1, p.Ident, w, p.Text)
		}
	}
	if items[0].Marks[0] != "想去" || !slices.Contains(items[0].Marks, "海边玩") {
		t.Errorf("first item marks %v, want 想去 and 海边玩 (bigrams 海边, 边玩 merged)", items[0].Marks)
	}

	// Links off: the link items go, as from the CLI.
	seq := resultSeq(t, ctx)
	do(t, ctx, chromedp.Click(chromedp.ID("links")))
	waitResult(t, ctx, seq)
	want = s.cli(t, seaside, "--no-links")
	items = pageItems(t, ctx, "#items")
	if got, w := pageIdents(items), idents(want.Items); !slices.Equal(got, w) {
		t.Errorf("links off, items on the page:\n%s\nCLI --no-links:\n%s", strings.Join(got, "\n"), strings.Join(w, "\n"))
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('li[data-source=link]').length`); n != 0 {
		t.Errorf("links off: %d link items on the page", n)
	}
	if h := eval[string](t, ctx, `location.hash`); !strings.Contains(h, "links=0") {
		t.Errorf("links off is not in the address (%s): a reload would lose it", h)
	}
}

// TestOpenLinkItem follows a link item to its entry, whose view shows the
// hit that linked to it among its backlinks, its own links, and the graph.
func TestOpenLinkItem(t *testing.T) {
	ctx := tab(t)
	s := startServer(t)
	openPage(t, ctx, s.URL+"/#/?q="+url.QueryEscape(seaside))
	waitFor(t, ctx, `document.querySelector('#items li[data-source=link]')`)
	link := eval[pageItem](t, ctx, `(() => { const li = document.querySelector('#items li[data-source=link]'); return {source: li.dataset.source, ident: li.dataset.ident, text: li.innerText}; })()`)
	via := eval[string](t, ctx, `document.querySelector('#items li[data-source=link] .via a').textContent`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`#items li[data-source=link] a.ident`)))
	waitFor(t, ctx, `!document.querySelector('#view-entry').hidden && document.querySelector('#entry-content')`)
	category, name, _ := strings.Cut(link.Ident, ":")
	title := eval[string](t, ctx, `document.querySelector('#entry-title').innerText`)
	if title != category+" / "+name {
		t.Errorf("entry title %q, want %q", title, category+" / "+name)
	}
	back := eval[[]string](t, ctx, `[...document.querySelectorAll('#backlinks a')].map(a => a.textContent)`)
	if !slices.Contains(back, via) {
		t.Errorf("backlinks of %s = %v, want %s among them", link.Ident, back, via)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#graph .gnode').length`); n < len(back) {
		t.Errorf("graph has %d neighbour nodes, want at least the %d backlinks", n, len(back))
	}
	// Resolved links in the content navigate; follow one back.
	do(t, ctx, chromedp.Click(chromedp.CSS(`#entry-content a.wikilink`)))
	waitFor(t, ctx, `!document.querySelector('#view-entry').hidden && document.querySelector('#entry-title').innerText !== `+jsString(title))
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestUnresolvedLinkMarked: an entry's link to nothing is marked in its
// view and in the query result's unresolved list.
func TestUnresolvedLinkMarked(t *testing.T) {
	ctx := tab(t)
	s := startServer(t)
	put(t, s, "notes", "dangling", `{"content": "zebrafish notes: see [[people:nobody]] and [[notes:packing-list]]."}`, 201)
	openPage(t, ctx, s.URL+"/#/entry?c=notes&n=dangling")
	waitFor(t, ctx, `document.querySelector('#entry-content .wikilink.unresolved')`)
	if got := eval[string](t, ctx, `document.querySelector('#entry-content .wikilink.unresolved').textContent`); got != "[[people:nobody]]" {
		t.Errorf("unresolved link marked: %q", got)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#entry-content a.wikilink').length`); n != 1 {
		t.Errorf("%d resolved links in the content, want 1", n)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#graph .node.unresolved').length`); n != 1 {
		t.Errorf("%d unresolved nodes in the graph, want 1", n)
	}
	do(t, ctx, chromedp.Navigate(s.URL+"/#/"))
	query(t, ctx, "zebrafish")
	if got := eval[[]string](t, ctx, `[...document.querySelectorAll('#unresolved code')].map(c => c.textContent)`); !slices.Equal(got, []string{"[[people:nobody]]"}) {
		t.Errorf("unresolved links listed: %v", got)
	}
}

func put(t *testing.T, s *server, category, name, body string, status int) {
	t.Helper()
	if got := putStatus(t, s, category, name, body); got != status {
		t.Fatalf("PUT %s:%s: %d, want %d", category, name, got, status)
	}
}

func putStatus(t *testing.T, s *server, category, name, body string) int {
	t.Helper()
	req, _ := http.NewRequest("PUT", s.URL+"/v1/entries/"+url.PathEscape(category)+"/"+url.PathEscape(name), strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestEditThenRetrieve edits an entry on the page and finds the new text
// with the next query; adds one (a bad name gets the API's message first)
// and deletes it.
func TestEditThenRetrieve(t *testing.T) {
	ctx := tab(t)
	s := startServer(t)
	file := filepath.Join(s.Store, "trips", "青岛计划.md")
	before, _ := os.ReadFile(file)

	openPage(t, ctx, s.URL+"/#/entry?c=trips&n="+url.QueryEscape("青岛计划"))
	waitFor(t, ctx, `document.querySelector('#entry-content')`)
	do(t, ctx, chromedp.Click(chromedp.ID("edit")))
	waitFor(t, ctx, `!document.querySelector('#view-edit').hidden && document.querySelector('#e-content').value.includes('青岛')`)
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('#e-content').setSelectionRange(1e9, 1e9)`),
		chromedp.SendKeys(chromedp.ID("e-content"), " Bring the snorkel mask."),
		chromedp.Click(chromedp.ID("save")))
	waitFor(t, ctx, `!document.querySelector('#view-entry').hidden && document.querySelector('#entry-content') && document.querySelector('#entry-content').textContent.includes('snorkel mask')`)
	after, _ := os.ReadFile(file)
	if !strings.Contains(string(after), "酒店和机票都还没订。") || !strings.HasSuffix(strings.TrimSpace(string(after)), "Bring the snorkel mask.") {
		t.Errorf("file after the edit:\n%s", after)
	}
	if !strings.Contains(string(after), "tags: [海边, plan]") && !strings.Contains(string(after), "- 海边") {
		t.Errorf("the edit lost the tags:\nbefore:\n%s\nafter:\n%s", before, after)
	}

	do(t, ctx, chromedp.Navigate(s.URL+"/#/"))
	query(t, ctx, "snorkel")
	items := pageItems(t, ctx, "#items")
	if len(items) == 0 || items[0].Ident != "trips:青岛计划" || !slices.Contains(items[0].Marks, "snorkel") {
		t.Errorf("query snorkel after the edit: %+v", items)
	}

	// Add: the API's validation message for a bad name, then a good one.
	do(t, ctx, chromedp.Navigate(s.URL+"/#/new?c=notes"))
	waitFor(t, ctx, `!document.querySelector('#view-edit').hidden && document.querySelector('#e-category').value === 'notes'`)
	do(t, ctx,
		chromedp.SendKeys(chromedp.ID("e-name"), "bad:name"),
		chromedp.SendKeys(chromedp.ID("e-content"), "Quokka sightings."),
		chromedp.Click(chromedp.ID("save")))
	waitFor(t, ctx, `document.querySelector('#edit-error').textContent !== ''`)
	msg := eval[string](t, ctx, `document.querySelector('#edit-error').textContent`)
	if !strings.Contains(msg, "name") || eval[string](t, ctx, `document.querySelector('#e-name').getAttribute('aria-invalid')`) != "true" {
		t.Errorf("bad name: message %q, and the name field should be marked invalid", msg)
	}
	setValue(t, ctx, "e-name", "quokka")
	do(t, ctx, chromedp.Click(chromedp.ID("save")))
	waitFor(t, ctx, `!document.querySelector('#view-entry').hidden && document.querySelector('#entry-title') && document.querySelector('#entry-title').innerText === 'notes / quokka'`)
	if _, err := os.Stat(filepath.Join(s.Store, "notes", "quokka.md")); err != nil {
		t.Errorf("added entry: %v", err)
	}
	// Adding it again is refused, not an overwrite.
	do(t, ctx, chromedp.Navigate(s.URL+"/#/new?c=notes"))
	waitFor(t, ctx, `!document.querySelector('#view-edit').hidden && document.querySelector('#e-name').value === ''`)
	do(t, ctx,
		chromedp.SendKeys(chromedp.ID("e-name"), "quokka"),
		chromedp.SendKeys(chromedp.ID("e-content"), "Overwritten!"),
		chromedp.Click(chromedp.ID("save")))
	waitFor(t, ctx, `document.querySelector('#edit-error').textContent.includes('already exists')`)
	if b, _ := os.ReadFile(filepath.Join(s.Store, "notes", "quokka.md")); strings.Contains(string(b), "Overwritten") {
		t.Errorf("adding an existing identity overwrote it:\n%s", b)
	}

	// Delete asks first.
	do(t, ctx, chromedp.Navigate(s.URL+"/#/entry?c=notes&n=quokka"))
	waitFor(t, ctx, `document.querySelector('#entry-title').innerText === 'notes / quokka' && document.querySelector('#delete')`)
	click(t, ctx, "#delete")
	waitFor(t, ctx, `document.activeElement && document.activeElement.id === 'delete-yes'`)
	if _, err := os.Stat(filepath.Join(s.Store, "notes", "quokka.md")); err != nil {
		t.Fatalf("one click deleted the entry")
	}
	// The confirmation has the focus: Enter confirms, from the keyboard.
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	waitFor(t, ctx, `!document.querySelector('#view-browse').hidden && document.querySelector('#entry-list')`)
	if _, err := os.Stat(filepath.Join(s.Store, "notes", "quokka.md")); !os.IsNotExist(err) {
		t.Errorf("after delete: %v", err)
	}
}

// TestBrowse walks the category tree and a category's entries.
func TestBrowse(t *testing.T) {
	ctx := tab(t)
	s := startServer(t)
	if code := putStatus(t, s, "projects/harbor", "kickoff", `{"content": "Kickoff notes."}`); code != http.StatusCreated {
		t.Fatalf("PUT of an entry in the nested category projects/harbor: %d, want 201 (SPEC §1 allows nested categories)", code)
	}
	openPage(t, ctx, s.URL+"/#/browse")
	waitFor(t, ctx, `document.querySelector('#tree a') && document.querySelector('#entry-list')`)
	tree := eval[[]string](t, ctx, `[...document.querySelectorAll('#tree a')].map(a => a.getAttribute('title') || a.firstChild.textContent)`)
	for _, w := range []string{"All", "trips", "people", "projects", "projects/harbor"} {
		if !slices.Contains(tree, w) {
			t.Errorf("category tree %v lacks %s", tree, w)
		}
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`#tree a[title="trips"]`)))
	waitFor(t, ctx, `document.querySelector('#entries h3') && document.querySelector('#entries h3').innerText.startsWith('trips')`)
	names := eval[[]string](t, ctx, `[...document.querySelectorAll('#entry-list a')].map(a => a.textContent)`)
	entries, _ := os.ReadDir(filepath.Join(s.Store, "trips"))
	var want []string
	for _, e := range entries {
		want = append(want, strings.TrimSuffix(e.Name(), ".md"))
	}
	sort.Strings(want)
	if !slices.Equal(names, want) {
		t.Errorf("trips on the page %v, in the folder %v", names, want)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`#tree a[title="projects/harbor"]`)))
	waitFor(t, ctx, `document.querySelector('#entry-list a') && document.querySelector('#entry-list a').textContent === 'kickoff'`)
}

// TestToken: with a token, the page asks for it once and sends it.
func TestToken(t *testing.T) {
	ctx := tab(t)
	s := startServer(t, "--token", "s3cret")
	openPage(t, ctx, s.URL+"/#/?q="+url.QueryEscape(seaside))
	waitFor(t, ctx, `document.querySelector('#token-dialog').open`)
	do(t, ctx, chromedp.SendKeys(chromedp.ID("token"), "wrong"+kb.Enter))
	waitFor(t, ctx, `document.querySelector('#token-dialog').open && document.querySelector('#token-error').textContent.includes('refused')`)
	setValue(t, ctx, "token", "")
	do(t, ctx, chromedp.SendKeys(chromedp.ID("token"), "s3cret"+kb.Enter))
	waitFor(t, ctx, `document.querySelectorAll('#items li').length > 0`)
	// Asked once: a reload and more requests go through without asking.
	do(t, ctx, chromedp.Reload())
	waitFor(t, ctx, `document.querySelectorAll('#items li').length > 0`)
	do(t, ctx, chromedp.Navigate(s.URL+"/#/browse"))
	waitFor(t, ctx, `document.querySelector('#entry-list')`)
	if eval[bool](t, ctx, `document.querySelector('#token-dialog').open`) {
		t.Error("the page asked for the token again")
	}
}

// TestFast: the page paints and answers each query on the sample memory,
// and says how fast: first paint and each query under 100 ms. Each figure
// is the best of several tries, and the limits stretch by how much slower
// than 50 ms a bare "<p>hello 海边</p>" page paints. Timings are asserted
// only with RECALL_TIMING=1 (on a quiet machine: docs/performance.md), as
// speed targets do not belong in the default test run of a shared machine;
// otherwise they are logged.
func TestFast(t *testing.T) {
	timed := os.Getenv("RECALL_TIMING") == "1"
	ctx := tab(t)
	s := startServer(t)
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><meta charset="utf-8"><title>bare</title><p>hello 海边</p>`)
	}))
	t.Cleanup(bare.Close)
	paint := func(u string) float64 {
		do(t, ctx, chromedp.Navigate(u))
		waitFor(t, ctx, `performance.getEntriesByName('first-contentful-paint').length > 0`)
		return eval[float64](t, ctx, `performance.getEntriesByName('first-contentful-paint')[0].startTime`)
	}
	openPage(t, ctx, s.URL+"/")
	query(t, ctx, seaside) // builds the index
	// Alternate the two pages, so that both see the same load.
	fcp, floor := math.Inf(1), math.Inf(1)
	for i := range 6 {
		floor = min(floor, paint(fmt.Sprintf("%s/?load=%d", bare.URL, i)))
		fcp = min(fcp, paint(fmt.Sprintf("%s/?load=%d", s.URL, i)))
	}
	openPage(t, ctx, s.URL+"/")
	var worst, worstFetch float64
	var slowest string
	for _, q := range []string{seaside, "coffee", "Harbor release", "花生过敏", "Kyoto autumn"} {
		best, bestFetch := math.Inf(1), 0.0
		for range 3 {
			query(t, ctx, q)
			ms := eval[float64](t, ctx, `Number(document.querySelector('#result').dataset.ms)`)
			if ms < best {
				best, bestFetch = ms, eval[float64](t, ctx, `Number(document.querySelector('#result').dataset.fetchMs)`)
			}
		}
		if best > worst {
			worst, worstFetch, slowest = best, bestFetch, q
		}
	}
	t.Logf("first contentful paint %.0f ms (a bare page: %.0f ms); slowest query %q %.1f ms from Enter to rendered (%.1f ms of it the request)", fcp, floor, slowest, worst, worstFetch)
	// A bare page paints within 50 ms on an idle machine; when it takes
	// longer, the machine is busy and the limits stretch by the same factor.
	load := max(1, floor/50)
	if !timed {
		return
	}
	if fcp > 100*load {
		t.Errorf("first paint %.0f ms; want under %.0f ms (100 ms × load %.1f, from a bare page's %.0f ms)", fcp, 100*load, load, floor)
	}
	if worst > 100*load {
		t.Errorf("slowest query %.1f ms; want under %.0f ms (100 ms × load %.1f)", worst, 100*load, load)
	}
}

// TestForeignOriginRefused: a page from another site cannot read or
// write the memory, neither by DNS rebinding (its own name resolving to
// 127.0.0.1) nor by cross-site requests.
//
// This needs the Host and Origin checks of SPEC §9 in the API (issue 9,
// branch service); before they land it fails.
func TestForeignOriginRefused(t *testing.T) {
	ctx := tab(t)
	s := startServer(t)
	u, _ := url.Parse(s.URL)
	_, port, _ := strings.Cut(u.Host, ":")

	// The API itself.
	for _, h := range []struct{ host, origin string }{
		{"evil.example:" + port, ""},
		{u.Host, "http://evil.example"},
	} {
		req, _ := http.NewRequest("PUT", s.URL+"/v1/entries/rebound/x", strings.NewReader(`{"content":"injected"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Host = h.host
		if h.origin != "" {
			req.Header.Set("Origin", h.origin)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("PUT with Host %s, Origin %q: %d, want 403", h.host, h.origin, res.StatusCode)
		}
	}

	// DNS rebinding: the page loaded under a foreign name gets no data.
	openPage(t, ctx, "http://evil.example:"+port+"/#/?q="+url.QueryEscape(seaside))
	waitFor(t, ctx, `Number(document.querySelector('#result').dataset.seq) > 0`)
	if n := eval[int](t, ctx, `document.querySelectorAll('#items li').length`); n != 0 {
		t.Errorf("under the name evil.example the page got %d items", n)
	}

	// Cross-site: another site fires requests that need no preflight.
	attacker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><script>
const base = 'http://127.0.0.1:%s';
Promise.allSettled([
  fetch(base + '/v1/entries/trips/%%E9%%9D%%92%%E5%%B2%%9B%%E8%%AE%%A1%%E5%%88%%92/edit', {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'}, body: JSON.stringify({old: '计划中', new: 'PWNED'})}),
  fetch(base + '/v1/entries/pwn/x/append', {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'}, body: JSON.stringify({content: 'PWNED'})}),
]).then(() => { document.title = 'done'; });
</script>`, port)
	}))
	t.Cleanup(attacker.Close)
	_, aport, _ := strings.Cut(strings.TrimPrefix(attacker.URL, "http://"), ":")
	do(t, ctx, chromedp.Navigate("http://evil.example:"+aport+"/"))
	waitFor(t, ctx, `document.title === 'done'`)
	b, _ := os.ReadFile(filepath.Join(s.Store, "trips", "青岛计划.md"))
	if strings.Contains(string(b), "PWNED") {
		t.Errorf("a cross-site POST edited the entry:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(s.Store, "pwn")); err == nil {
		t.Error("a cross-site POST created an entry")
	}
}

// TestAccessible checks every view for unlabelled controls and, at 390 px,
// for content wider than the screen.
func TestAccessible(t *testing.T) {
	ctx := tab(t)
	s := startServer(t)
	put(t, s, "notes", "dangling", `{"content": "see [[people:nobody]]"}`, 201)
	views := []string{
		"#/?q=" + url.QueryEscape(seaside), "#/browse?c=trips", "#/entry?c=notes&n=dangling",
		"#/entry?c=trips&n=" + url.QueryEscape("青岛计划"), "#/edit?c=trips&n=" + url.QueryEscape("青岛计划"), "#/new",
	}
	for _, width := range []int64{390, 1280} {
		for _, v := range views {
			do(t, ctx, chromedp.Navigate("about:blank"), chromedp.EmulateViewport(width, 844))
			openPage(t, ctx, s.URL+"/"+v)
			waitFor(t, ctx, `(document.querySelector('#view-query').hidden || document.querySelectorAll('#items li').length > 0) && (document.querySelector('#view-entry').hidden || document.querySelector('#graph')) && (document.querySelector('#view-browse').hidden || document.querySelector('#entry-list')) && (document.querySelector('#view-edit').hidden || document.activeElement.tagName !== 'BODY')`)
			bad := eval[[]string](t, ctx, `[...document.querySelectorAll('input, textarea, select, button, a')]
				.filter(e => e.offsetParent !== null)
				.filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim())
				.map(e => e.outerHTML.slice(0, 80))`)
			if len(bad) > 0 {
				t.Errorf("%s at %d px: controls without a label or text: %v", v, width, bad)
			}
			if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > int(width) {
				t.Errorf("%s at %d px: the page is %d px wide, wider than the screen", v, width, w)
			}
		}
	}
}

// TestKeyboard: "/" brings the query box from another view; Escape
// cancels a delete.
func TestKeyboard(t *testing.T) {
	ctx := tab(t)
	s := startServer(t)
	openPage(t, ctx, s.URL+"/#/entry?c=trips&n="+url.QueryEscape("青岛计划"))
	waitFor(t, ctx, `document.querySelector('#delete')`)
	click(t, ctx, "#delete")
	waitFor(t, ctx, `document.activeElement.id === 'delete-yes'`)
	do(t, ctx, chromedp.KeyEvent(kb.Escape))
	waitFor(t, ctx, `document.querySelector('#confirm-delete').hidden && document.activeElement.id === 'delete'`)
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`), chromedp.KeyEvent("/"))
	waitFor(t, ctx, `!document.querySelector('#view-query').hidden && document.activeElement.id === 'q'`)
	do(t, ctx, chromedp.KeyEvent(seaside+kb.Enter))
	waitFor(t, ctx, `document.querySelectorAll('#items li').length > 0 && document.querySelector('#announce').textContent.includes('items')`)
	if _, err := os.Stat(filepath.Join(s.Store, "trips", "青岛计划.md")); err != nil {
		t.Error("Escape deleted the entry")
	}
}

// TestScreenshot writes the README's screenshots when -screenshot is given.
func TestScreenshot(t *testing.T) {
	if *screenshot == "" {
		t.Skip("no -screenshot path given")
	}
	ctx := tab(t)
	s := startServer(t)
	base := strings.TrimSuffix(*screenshot, ".png")
	shots := []struct {
		file          string
		width, height int64
		hash          string
	}{
		{base + ".png", 1280, 900, "#/?q=" + url.QueryEscape(seaside)},
		{base + "-390.png", 390, 844, "#/?q=" + url.QueryEscape(seaside)},
		{base + "-entry.png", 1280, 900, "#/entry?c=trips&n=" + url.QueryEscape("青岛计划")},
		{base + "-entry-390.png", 390, 844, "#/entry?c=preferences&n=travel-style"},
		{base + "-browse.png", 1280, 700, "#/browse?c=trips"},
		{base + "-fused.png", 1280, 700, "#/?q=" + url.QueryEscape(seaside)}, // on a server with --embedder hash
	}
	// Build the index (and load the vectors) first, so that the page shows
	// a warm query's time.
	warm := func(s *server) {
		res, err := http.Post(s.URL+"/v1/retrieve", "application/json", strings.NewReader(`{"query": "warm up"}`))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	warm(s)
	for _, sh := range shots {
		if strings.HasSuffix(sh.file, "-fused.png") {
			s = startServer(t, "--embedder", "hash")
			time.Sleep(time.Second) // the background fill of the vectors
			warm(s)
		}
		do(t, ctx, chromedp.Navigate("about:blank"), chromedp.EmulateViewport(sh.width, sh.height), chromedp.Navigate(s.URL+"/"+sh.hash))
		waitFor(t, ctx, `(document.querySelector('#view-query').hidden || document.querySelectorAll('#items li').length > 0) && (document.querySelector('#view-entry').hidden || document.querySelector('#graph')) && (document.querySelector('#view-browse').hidden || document.querySelector('#entry-list'))`)
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(sh.file, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%dx%d)", sh.file, sh.width, sh.height)
	}
}

// TestAPIAfterService drives the page against a stand-in for the API the
// service branch is adding: GET /v1/categories, cursor pages of
// GET /v1/entries, POST …/edit, and a hierarchical category sent as one
// percent-encoded path segment. It checks what the page asks for, so that
// api.js and the new HTTP package can be matched.
func TestAPIAfterService(t *testing.T) {
	// A stand-in with the shapes of service/httpapi (kept small so that the
	// exact requests can be checked): categories as an array, pages as
	// arrays with X-Next-Cursor, edit with old_text and new_text.
	ctx := tab(t)
	var (
		mu       sync.Mutex
		requests []string
		content  = "Kickoff on Monday, see [[trips:nowhere]]."
	)
	entry := func(name string) map[string]any {
		return map[string]any{"category": "projects/harbor", "name": name, "tokens_est": 3}
	}
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		requests = append(requests, r.Method+" "+r.URL.EscapedPath()+"?"+r.URL.RawQuery)
		w.Header().Set("Content-Type", "application/json")
		send := func(v any) { json.NewEncoder(w).Encode(v) }
		switch p := r.URL.EscapedPath(); {
		case p == "/v1/categories":
			send([]map[string]any{
				{"category": "projects", "count": 1}, {"category": "projects/harbor", "count": 3}, {"category": "trips", "count": 2}})
		case p == "/v1/entries" && r.URL.Query().Get("cursor") == "":
			w.Header().Set("X-Next-Cursor", "page2")
			send([]any{entry("kickoff"), entry("retro")})
		case p == "/v1/entries":
			send([]any{entry("standup")})
		case p == "/v1/entries/projects%2Fharbor/kickoff" && r.Method == "GET":
			send(map[string]any{"category": "projects/harbor", "name": "kickoff", "content": content})
		case p == "/v1/entries/projects%2Fharbor/kickoff/edit" && r.Method == "POST":
			var b struct {
				Old string `json:"old_text"`
				New string `json:"new_text"`
			}
			json.NewDecoder(r.Body).Decode(&b)
			requests[len(requests)-1] += " " + r.Header.Get("Content-Type") + " old=" + b.Old + " new=" + b.New
			if !strings.Contains(content, b.Old) {
				w.WriteHeader(http.StatusConflict)
				send(map[string]any{"error": "old_text not found", "field": "old_text"})
				return
			}
			content = strings.Replace(content, b.Old, b.New, 1)
			send(map[string]any{"category": "projects/harbor", "name": "kickoff", "status": "edited"})
		case p == "/v1/links/projects%2Fharbor/kickoff":
			send(map[string]any{"category": "projects/harbor", "name": "kickoff",
				"links":     []any{map[string]any{"raw": "[[trips:nowhere]]", "category": "trips", "name": "nowhere", "resolved": false}},
				"backlinks": []any{}})
		default:
			w.WriteHeader(http.StatusNotFound)
			send(map[string]any{"error": "no such endpoint: " + p})
		}
	})
	ts := httptest.NewServer(Page(api, Options{}))
	t.Cleanup(ts.Close)
	seen := func(want string) {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		for _, r := range requests {
			if strings.HasPrefix(r, want) {
				return
			}
		}
		t.Errorf("the page never sent %q; it sent:\n%s", want, strings.Join(requests, "\n"))
	}

	openPage(t, ctx, ts.URL+"/#/browse")
	waitFor(t, ctx, `document.querySelector('#tree a[title="projects/harbor"]')`)
	seen("GET /v1/categories?")
	// projects holds 1 entry itself, 4 with its subcategory.
	if got := eval[string](t, ctx, `document.querySelector('#tree a[title="projects"] .count').textContent`); got != "1 · 4" {
		t.Errorf("projects count %q, want \"1 · 4\"", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('#tree a[title="projects/harbor"]').firstChild.textContent`); got != "harbor" {
		t.Errorf("the subcategory shows as %q, want harbor, nested under projects", got)
	}
	click(t, ctx, `#tree a[title="projects/harbor"]`)
	waitFor(t, ctx, `document.querySelector('#entries h3').innerText.startsWith('projects/harbor') && document.querySelectorAll('#entry-list a').length === 2`)
	seen("GET /v1/entries?category=projects%2Fharbor&limit=50")
	click(t, ctx, `a[rel=next]`)
	waitFor(t, ctx, `document.querySelectorAll('#entry-list a').length === 1 && document.querySelector('#entry-list a').textContent === 'standup'`)
	seen("GET /v1/entries?category=projects%2Fharbor&limit=50&cursor=page2")
	click(t, ctx, `a[rel=prev]`)
	waitFor(t, ctx, `document.querySelectorAll('#entry-list a').length === 2 && !document.querySelector('a[rel=prev]')`)

	click(t, ctx, `#entry-list a`)
	waitFor(t, ctx, `document.querySelector('#entry-content .wikilink.unresolved')`)
	seen("GET /v1/entries/projects%2Fharbor/kickoff?")
	seen("GET /v1/links/projects%2Fharbor/kickoff?")
	click(t, ctx, "#edit")
	waitFor(t, ctx, `!document.querySelector('#view-edit').hidden && document.querySelector('#e-content').value.startsWith('Kickoff')`)
	setValue(t, ctx, "e-content", "Kickoff on Tuesday.")
	click(t, ctx, "#save")
	waitFor(t, ctx, `!document.querySelector('#view-entry').hidden && document.querySelector('#entry-content') && document.querySelector('#entry-content').textContent === 'Kickoff on Tuesday.'`)
	seen("POST /v1/entries/projects%2Fharbor/kickoff/edit? application/json old=Kickoff on Monday, see [[trips:nowhere]]. new=Kickoff on Tuesday.")
}

// TestTimeQuery: a query with a time phrase shows what range it was read
// as, only entries dated in it are hits (the CLI's answer), each shows its
// date, a link out of the range is marked, and the entry view shows the
// date.
func TestTimeQuery(t *testing.T) {
	ctx := tab(t)
	s := startServer(t)
	openPage(t, ctx, s.URL+"/")
	put := `fetch('/v1/entries/diary/beach%20day', {method: 'PUT', headers: {'Content-Type': 'application/json'},
		body: JSON.stringify({content: '海边 swim, with [[trips:三亚之行]]', date: '2024-05-03'})}).then(r => { window.putStatus = r.status })`
	do(t, ctx, chromedp.Evaluate[chromedp.Void](put+`, undefined`))
	waitFor(t, ctx, `window.putStatus !== undefined`)
	if status := eval[int](t, ctx, `window.putStatus`); status != 201 {
		t.Fatalf("PUT of a dated entry: %d", status)
	}
	const q = "海边 in May 2024"
	query(t, ctx, q)
	want := s.cli(t, q)
	items := pageItems(t, ctx, "#items")
	if got, w := pageIdents(items), idents(want.Items); !slices.Equal(got, w) || len(w) != 2 || w[0] != "hit diary:beach day" {
		t.Fatalf("items on the page:\n%s\nrecall retrieve --json:\n%s", strings.Join(got, "\n"), strings.Join(w, "\n"))
	}
	tr := eval[string](t, ctx, `document.querySelector('#time-range').innerText`)
	if !strings.Contains(tr, "in May 2024") || !strings.Contains(tr, "2024-05-01T00:00:00") || !strings.Contains(tr, "2024-06-01T00:00:00") {
		t.Errorf("time range on the page: %q", tr)
	}
	if !strings.Contains(items[0].Text, "2024-05-03") {
		t.Errorf("the hit does not show its date:\n%s", items[0].Text)
	}
	if !strings.Contains(strings.ToLower(items[1].Text), "outside range") {
		t.Errorf("the link out of the range is not marked:\n%s", items[1].Text)
	}
	// Without a time phrase there is no time line.
	query(t, ctx, "海边")
	if n := eval[int](t, ctx, `document.querySelectorAll('#time-range').length`); n != 0 {
		t.Errorf("a query without a time phrase shows a time range")
	}
	openPage(t, ctx, s.URL+"/#/entry?c=diary&n="+url.QueryEscape("beach day"))
	waitFor(t, ctx, `document.querySelector('#entry-date')`)
	if d := eval[string](t, ctx, `document.querySelector('#entry-date').textContent`); d != "2024-05-03" {
		t.Errorf("entry view date %q", d)
	}
}
