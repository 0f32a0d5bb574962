package tenants

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
)

// grants maps each bearer token to what it grants. Tokens are kept only
// as HMAC-SHA256 digests under a key drawn when the Server is made, so a
// lookup compares digests: how long it takes can tell an attacker about a
// digest at most, and without the key a digest tells nothing about any
// token (not even offline, for a weak token).
type grants struct {
	key []byte
	by  map[[sha256.Size]byte]string // digest → memory name; "" for an admin token
}

func newGrants() (*grants, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("token key: %w", err)
	}
	return &grants{key: key, by: map[[sha256.Size]byte]string{}}, nil
}

func (g *grants) digest(token string) [sha256.Size]byte {
	mac := hmac.New(sha256.New, g.key)
	mac.Write([]byte(token))
	var d [sha256.Size]byte
	copy(d[:], mac.Sum(nil))
	return d
}

// add grants memory (or every memory, for "") to token. A token may
// grant one thing only: given twice, for two memories or for a memory
// and as an admin token, it is an error (which never shows the token).
func (g *grants) add(memory, token string) error {
	if token == "" || strings.TrimSpace(token) != token {
		return errors.New("a token is empty or has surrounding whitespace, which no client can send back")
	}
	d := g.digest(token)
	if prev, ok := g.by[d]; ok {
		if prev == memory {
			return nil
		}
		return fmt.Errorf("one token is given to %s and to %s: each token grants one memory (an admin token, all)", what(prev), what(memory))
	}
	g.by[d] = memory
	return nil
}

func what(memory string) string {
	if memory == "" {
		return "the admin"
	}
	return "memory " + memory
}

// lookup says what token grants: a memory's name, or "" and admin true
// for an admin token; ok is false for a token that grants nothing.
func (g *grants) lookup(token string) (memory string, admin, ok bool) {
	m, ok := g.by[g.digest(token)]
	return m, ok && m == "", ok
}
