package tenants

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
)

// MaxNameLen bounds a memory's name.
const MaxNameLen = 64

// ErrInvalidName is wrapped by the error for a memory name that cannot be
// one (ValidateName).
var ErrInvalidName = errors.New("invalid memory name")

// ValidateName checks a memory's name: 1 to MaxNameLen lower-case ASCII
// letters, digits, ".", "_" or "-", starting with a letter or digit. A
// name is one path segment of every URL of its memory (/v1/m/NAME/...,
// /mcp/NAME), so it needs no escaping and cannot be "." or "..".
func ValidateName(name string) error {
	ok := name != "" && len(name) <= MaxNameLen
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case (c == '.' || c == '_' || c == '-') && i > 0:
		default:
			ok = false
		}
	}
	if !ok {
		return fmt.Errorf("%w %q: use 1 to %d lower-case letters, digits, \".\", \"_\" or \"-\", starting with a letter or digit (it is a segment of the memory's URLs)", ErrInvalidName, name, MaxNameLen)
	}
	return nil
}

// ParseMemory reads a memory given as NAME=STORE (the `recall serve
// --memory` flag): a valid name, then any store location (a folder, a
// .db file, a postgres:// URL; see store/location).
func ParseMemory(s string) (Memory, error) {
	name, loc, ok := strings.Cut(s, "=")
	if !ok || loc == "" {
		return Memory{}, fmt.Errorf("memory %q is not NAME=STORE (for example alice=/srv/recall/alice.db)", redactStore(s))
	}
	if err := ValidateName(name); err != nil {
		return Memory{}, err
	}
	return Memory{Name: name, Store: loc}, nil
}

// redactStore hides what follows "=" when it may be a URL with a
// password.
func redactStore(s string) string {
	if i := strings.Index(s, "://"); i >= 0 {
		return s[:i] + "://…"
	}
	return s
}

// ReadTokens reads the bearer tokens a source names, for the `recall
// serve --memory-token NAME=SOURCE` flag and Options.AdminTokens:
//
//	@FILE    every non-empty line of FILE that does not start with "#",
//	         trimmed (one token a line, so that a rotation can hold the
//	         old and the new one for a while)
//	env:VAR  the value of the environment variable VAR, trimmed
//
// A token is never taken from the command line itself, where every user
// of the machine can read it (ps). The error names the file or variable,
// never a token. getenv nil means os.Getenv.
func ReadTokens(source string, getenv func(string) string) ([]string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	switch {
	case strings.HasPrefix(source, "@"):
		path := source[1:]
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("token file: %w", err)
		}
		var toks []string
		for line := range strings.Lines(string(b)) {
			line = strings.TrimSpace(line)
			if line != "" && !strings.HasPrefix(line, "#") {
				toks = append(toks, line)
			}
		}
		if len(toks) == 0 {
			return nil, fmt.Errorf("token file %s holds no token (one a line; lines starting with # are comments)", path)
		}
		return toks, nil
	case strings.HasPrefix(source, "env:"):
		v := strings.TrimSpace(getenv(source[4:]))
		if v == "" {
			return nil, fmt.Errorf("environment variable %s, named for a token, is empty or unset", source[4:])
		}
		return []string{v}, nil
	}
	return nil, errors.New(`a token source must be @FILE (a file of tokens, one a line) or env:VAR (an environment variable); tokens are not given on the command line, where any user of the machine can read them`)
}

// ParseMemoryToken reads NAME=SOURCE (the `recall serve --memory-token`
// flag): the memory's name and its tokens, read by ReadTokens.
func ParseMemoryToken(s string, getenv func(string) string) (name string, tokens []string, err error) {
	name, source, ok := strings.Cut(s, "=")
	if !ok {
		return "", nil, errors.New("a memory token is NAME=@FILE or NAME=env:VAR (for example alice=@/etc/recall/alice.token)")
	}
	if err := ValidateName(name); err != nil {
		return "", nil, err
	}
	tokens, err = ReadTokens(source, getenv)
	if err != nil {
		return "", nil, fmt.Errorf("memory %s: %w", name, err)
	}
	return name, tokens, nil
}

// ParseFlags reads the memories of `recall serve`'s flags and adds them
// to base (those of a memories file, ReadConfig): each of memories
// NAME=STORE (ParseMemory), each of tokens NAME=@FILE or NAME=env:VAR
// (ParseMemoryToken), which must name one of the memories.
func ParseFlags(base []Memory, memories, tokens []string, getenv func(string) string) ([]Memory, error) {
	mems := slices.Clone(base)
	at := map[string]int{}
	for i, m := range mems {
		at[m.Name] = i
	}
	for _, s := range memories {
		m, err := ParseMemory(s)
		if err != nil {
			return nil, err
		}
		if _, dup := at[m.Name]; dup {
			return nil, fmt.Errorf("memory %s is given twice", m.Name)
		}
		at[m.Name] = len(mems)
		mems = append(mems, m)
	}
	for _, s := range tokens {
		name, toks, err := ParseMemoryToken(s, getenv)
		if err != nil {
			return nil, err
		}
		i, ok := at[name]
		if !ok {
			return nil, fmt.Errorf("a token is given for memory %s, which is not served (give it with NAME=STORE)", name)
		}
		mems[i].Tokens = append(mems[i].Tokens, toks...)
	}
	return mems, nil
}
