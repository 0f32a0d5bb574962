package mcptools

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

// Resources. The memory is a tree of URIs, for hosts that let a user (or
// a model) attach resources to a conversation:
//
//	recall://                    the categories, each with its entry count
//	recall://{category}          the entries of one category
//	recall://{category}/{name}   one entry: its key and metadata, then its content
//
// Category and name are percent-encoded as a URI template's simple
// expansion does (RFC 6570: every byte but A-Z a-z 0-9 - . _ ~ as %XX of
// its UTF-8), so "projects/harbor" is projects%2Fharbor and a space is
// %20. Reading accepts them unencoded too (a CJK name as is, a '/' in the
// category: a name never holds '/', so the last one ends the category).
const (
	// RootURI lists the categories.
	RootURI = "recall://"
	// EntryTemplate and CategoryTemplate are the URI templates of an
	// entry and of a category listing (resources/templates/list).
	EntryTemplate    = "recall://{category}/{name}"
	CategoryTemplate = "recall://{category}"
)

// ResourcePage is how many entries one resources/list page holds; the
// next page is asked with the page's nextCursor. The first page also
// holds RootURI.
const ResourcePage = service.DefaultListLimit

// CategoryReadLimit bounds the entries a category listing (reading
// recall://{category}) shows; it says how many it left out, and the list
// tool pages through the rest.
const CategoryReadLimit = 1000

// EntryURI is the resource URI of the entry category:name.
func EntryURI(category, name string) string {
	return RootURI + escapeSegment(category) + "/" + escapeSegment(name)
}

// CategoryURI is the resource URI of a category's listing.
func CategoryURI(category string) string { return RootURI + escapeSegment(category) }

// escapeSegment percent-encodes every byte of s but RFC 3986's unreserved
// characters.
func escapeSegment(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// parseURI reads a recall:// URI: both empty for RootURI, name empty for a
// category listing (with or without a trailing '/').
func parseURI(uri string) (category, name string, err error) {
	rest, ok := strings.CutPrefix(uri, RootURI)
	if !ok {
		return "", "", fmt.Errorf("%q is not a recall:// URI", uri)
	}
	if rest == "" {
		return "", "", nil
	}
	cat, nm := rest, ""
	if i := strings.LastIndexByte(rest, '/'); i >= 0 {
		cat, nm = rest[:i], rest[i+1:]
	}
	if category, err = url.PathUnescape(cat); err != nil {
		return "", "", fmt.Errorf("URI %q: category: %v", uri, err)
	}
	if name, err = url.PathUnescape(nm); err != nil {
		return "", "", fmt.Errorf("URI %q: name: %v", uri, err)
	}
	if err := store.ValidateName("category", category); err != nil {
		return "", "", fmt.Errorf("URI %q: %w", uri, err)
	}
	if name != "" {
		if err := store.ValidateName("name", name); err != nil {
			return "", "", fmt.Errorf("URI %q: %w", uri, err)
		}
	}
	return category, name, nil
}

// registerResources adds the categories resource and the two templates to
// srv, and a middleware that lists the entries (resources/list, paged)
// and reads every recall:// URI itself, encoded or not (the SDK's
// template matching takes only fully encoded ones).
func registerResources(srv *mcp.Server, m *service.Memory) {
	read := func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return readResource(ctx, m, req.Params.URI)
	}
	srv.AddResource(rootResource(), read)
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: EntryTemplate, Name: "entry", Title: "Memory entry", MIMEType: "text/markdown",
		Description: "One entry of the user's memory: its category:name and metadata (tags, created, updated) on the first line, then its content. " +
			"Category and name are percent-encoded (a '/' in a category is %2F).",
	}, read)
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: CategoryTemplate, Name: "category", Title: "Memory category", MIMEType: "text/markdown",
		Description: fmt.Sprintf("The entries of one category of the user's memory, sorted by name, each with its URI and estimated tokens (at most %d; the list tool pages through more).", CategoryReadLimit),
	}, read)
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch r := req.(type) {
			case *mcp.ListResourcesRequest:
				return listResources(ctx, m, r, next)
			case *mcp.ReadResourceRequest:
				if r.Params != nil && strings.HasPrefix(r.Params.URI, RootURI) {
					return readResource(ctx, m, r.Params.URI)
				}
			}
			return next(ctx, method, req)
		}
	})
}

func rootResource() *mcp.Resource {
	return &mcp.Resource{
		URI: RootURI, Name: "categories", Title: "Memory categories", MIMEType: "text/markdown",
		Description: "Every category of the user's memory with its number of entries and its URI.",
	}
}

// listResources is resources/list: the server's own resources (RootURI
// first) on the first page, then the entries, ResourcePage at a time,
// sorted by category then name; the cursor is the list tool's.
func listResources(ctx context.Context, m *service.Memory, req *mcp.ListResourcesRequest, next mcp.MethodHandler) (mcp.Result, error) {
	cursor := ""
	if req.Params != nil {
		cursor = req.Params.Cursor
	}
	out := &mcp.ListResourcesResult{Resources: []*mcp.Resource{}, Cacheable: private}
	if cursor == "" {
		first, err := next(ctx, "resources/list", req)
		if err != nil {
			return nil, err
		}
		if lr, ok := first.(*mcp.ListResourcesResult); ok {
			out.Resources = append(out.Resources, lr.Resources...)
		}
	}
	page, err := m.List(ctx, service.ListRequest{Limit: ResourcePage, Cursor: cursor})
	if err != nil {
		return nil, requestError(err)
	}
	for _, it := range page.Entries {
		out.Resources = append(out.Resources, &mcp.Resource{
			URI: EntryURI(it.Category, it.Name), Name: keyString(it.Category, it.Name), MIMEType: "text/markdown",
			Description: itemSummary(it),
		})
	}
	out.NextCursor = page.NextCursor
	return out, nil
}

// private marks what the server reads from the memory: the user's data,
// for the requesting client only, stale at once (it changes with every
// write).
var private = mcp.Cacheable{CacheScope: "private"}

// readResource is resources/read of a recall:// URI.
func readResource(ctx context.Context, m *service.Memory, uri string) (*mcp.ReadResourceResult, error) {
	category, name, err := parseURI(uri)
	if err != nil {
		return nil, invalidParams(err.Error())
	}
	var text string
	switch {
	case category == "":
		cats, err := m.Categories(ctx)
		if err != nil {
			return nil, requestError(err)
		}
		text = renderCategoryTree(cats)
	case name == "":
		page, err := m.List(ctx, service.ListRequest{Category: category, Limit: CategoryReadLimit})
		if err != nil {
			return nil, requestError(err)
		}
		if page.Total == 0 {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		text = renderCategoryPage(category, page)
	default:
		e, err := m.Get(ctx, category, name)
		if errors.Is(err, store.ErrNotFound) {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		if err != nil {
			return nil, requestError(err)
		}
		text = renderEntry(e)
	}
	return &mcp.ReadResourceResult{
		Cacheable: private,
		Contents:  []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: text}},
	}, nil
}

// renderCategoryTree is RootURI's text: one line per category.
func renderCategoryTree(cats []service.CategoryCount) string {
	if len(cats) == 0 {
		return renderCategories(cats)
	}
	var b strings.Builder
	for _, c := range cats {
		fmt.Fprintf(&b, "- [%s](%s) (%s)\n", c.Category, CategoryURI(c.Category), plural(c.Count, "entry", "entries"))
	}
	return b.String()
}

// renderCategoryPage is a category's text: one line per entry.
func renderCategoryPage(category string, p service.ListPage) string {
	var b strings.Builder
	for _, it := range p.Entries {
		fmt.Fprintf(&b, "- [%s](%s) (%s)\n", keyString(it.Category, it.Name), EntryURI(it.Category, it.Name), itemSummary(it))
	}
	if p.NextCursor != "" {
		fmt.Fprintf(&b, "%d of %d entries shown; the list tool with category %q and cursor %q gives the next page.\n", len(p.Entries), p.Total, category, p.NextCursor)
	}
	if p.Skipped > 0 {
		fmt.Fprintf(&b, "%s could not be read.\n", plural(p.Skipped, "entry", "entries"))
	}
	return b.String()
}

// itemSummary is an entry's size and tags, as the list tool shows them.
func itemSummary(it service.ListItem) string {
	s := fmt.Sprintf("%d tokens", it.TokensEst)
	if tags, ok := it.Meta[service.MetaTags].([]string); ok && len(tags) > 0 {
		s += "; tags: " + strings.Join(tags, ", ")
	}
	return s
}
