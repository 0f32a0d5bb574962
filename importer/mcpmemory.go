package importer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/recallhq/recall/store"
)

// An MCP memory graph record: one line of memory.jsonl (see
// FormatMCPMemory).
type mcpRecord struct {
	Type         string   `json:"type"`
	Name         string   `json:"name"`
	EntityType   string   `json:"entityType"`
	Observations []string `json:"observations"`
	From         string   `json:"from"`
	To           string   `json:"to"`
	RelationType string   `json:"relationType"`
}

// readMCPMemory reads the reference MCP memory server's graph. An entity
// is an entry: its entityType the category, its name the name, its
// observations the content, one per line. A relation is a line of its
// from-entity's content, after the observations: the relationType and a
// link to the other entity, "works_at [[organization:Anthropic]]", so
// that retrieve follows it. A relation naming an entity the file does not
// hold is skipped with the reason, as is a line that is not a record.
func readMCPMemory(ctx context.Context, r io.Reader, name string) (*Plan, error) {
	p := newPlan()
	type entity struct {
		where string
		rec   mcpRecord
		links []string
	}
	var (
		entities []*entity
		byName   = map[string]*entity{}
	)
	type relation struct {
		where string
		rec   mcpRecord
	}
	var relations []relation
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		line, tooLong, err := readLine(br, MaxLineBytes)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: line %d: %w", name, n, err)
		}
		eof := errors.Is(err, io.EOF)
		where := fmt.Sprintf("%s:%d", name, n)
		line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		switch {
		case tooLong:
			p.skip(where, fmt.Errorf("line is longer than %d bytes", MaxLineBytes), "")
		case len(bytes.TrimSpace(line)) == 0:
		default:
			var rec mcpRecord
			if err := json.Unmarshal(line, &rec); err != nil {
				p.skip(where, jsonReason(err), "")
				break
			}
			switch rec.Type {
			case "entity":
				switch {
				case rec.Name == "":
					p.skip(where, errors.New("entity without a name"), "")
				case byName[rec.Name] != nil:
					p.skip(where, fmt.Errorf("entity %q was already read from %s", rec.Name, byName[rec.Name].where), "")
				case strings.TrimSpace(rec.EntityType) == "":
					p.skip(where, fmt.Errorf("entity %q has no entityType (its category)", rec.Name), "")
				default:
					e := &entity{where: where, rec: rec}
					entities = append(entities, e)
					byName[rec.Name] = e
				}
			case "relation":
				relations = append(relations, relation{where, rec})
			default:
				p.skip(where, fmt.Errorf("type %q: want \"entity\" or \"relation\"", rec.Type), "")
			}
		}
		if eof {
			break
		}
	}
	for _, rel := range relations {
		from, to := byName[rel.rec.From], byName[rel.rec.To]
		switch {
		case from == nil:
			p.skip(rel.where, fmt.Errorf("relation from %q: no entity of that name", rel.rec.From), "")
		case to == nil:
			p.skip(rel.where, fmt.Errorf("relation to %q: no entity of that name", rel.rec.To), "")
		default:
			rt := strings.TrimSpace(rel.rec.RelationType)
			if rt == "" {
				rt = "related to"
			}
			from.links = append(from.links, rt+" [["+to.rec.EntityType+":"+to.rec.Name+"]]")
		}
	}
	for _, e := range entities {
		lines := append(append([]string(nil), e.rec.Observations...), e.links...)
		content := strings.Join(lines, "\n")
		if content != "" {
			content += "\n"
		}
		p.add(e.where, store.Entry{
			Category: e.rec.EntityType,
			Name:     e.rec.Name,
			Content:  content,
			Meta:     store.Meta{Extra: map[string]any{"source": "mcp-memory"}},
		})
	}
	sortSkips(p.Skipped)
	return p, nil
}

// sortSkips orders skips "name:N" by line number, as a person reads the
// file (entities are checked after every relation was read).
func sortSkips(s []Skip) {
	line := func(where string) int {
		i := strings.LastIndexByte(where, ':')
		n, _ := strconv.Atoi(where[i+1:])
		return n
	}
	slices.SortStableFunc(s, func(a, b Skip) int { return line(a.Where) - line(b.Where) })
}
