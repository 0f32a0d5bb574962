package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"testing"
)

func TestTermDictGrows(t *testing.T) {
	d := newTermDict(0, 0)
	const n = 50_000
	for i := range n {
		id, added := d.add(fmt.Sprintf("t%d", i))
		if !added || id != uint32(i) {
			t.Fatalf("add #%d: id %d added %v", i, id, added)
		}
	}
	for i := range n {
		s := fmt.Sprintf("t%d", i)
		if id, added := d.add(s); added || id != uint32(i) {
			t.Fatalf("re-add %q: id %d added %v", s, id, added)
		}
		if id, ok := d.id(s); !ok || id != uint32(i) || string(d.term(id)) != s {
			t.Fatalf("id(%q) = %d, %v", s, id, ok)
		}
		for _, absent := range []string{s + "x", "x" + s, s[:len(s)-1] + "_"} {
			if _, ok := d.id(absent); ok {
				t.Fatalf("absent %q found", absent)
			}
		}
	}
	if _, ok := d.id(""); ok {
		t.Fatal("empty term found")
	}
	if d.Len() != n || (d.Len()+1)*4 > len(d.slots)*3 {
		t.Fatalf("%d terms in %d slots", d.Len(), len(d.slots))
	}
}

// segmentTerms returns every distinct term of the base documents.
func segmentTerms(s *Snapshot) map[string]bool {
	all := map[string]bool{}
	for i := range s.base.docs {
		d := &s.base.docs[i]
		for _, t := range s.tok.Tokens(d.Name + " " + d.Content) {
			all[t] = true
		}
	}
	return all
}

// TestTermDictLookup looks every term of a built and a loaded segment up:
// each is found with the same id in both, the ids are 0..n-1 once each,
// and terms that are not in the documents are not found.
func TestTermDictLookup(t *testing.T) {
	s, _ := persistCorpus(t)
	got, _, err := Decode(Encode(s, nil), EnglishStop(), 42)
	if err != nil {
		t.Fatal(err)
	}
	all := segmentTerms(s)
	if len(all) != s.base.terms.Len() || len(all) != got.base.terms.Len() || len(all) != s.base.nTerms() {
		t.Fatalf("%d terms, dictionary holds %d built and %d loaded, %d lists",
			len(all), s.base.terms.Len(), got.base.terms.Len(), s.base.nTerms())
	}
	seen := make([]bool, len(all))
	for term := range all {
		id, ok := s.base.terms.id(term)
		if !ok || string(s.base.terms.term(id)) != term || seen[id] {
			t.Fatalf("built: id(%q) = %d, %v", term, id, ok)
		}
		seen[id] = true
		if id2, ok := got.base.terms.id(term); !ok || id2 != id {
			t.Fatalf("loaded: id(%q) = %d, %v, want %d", term, id2, ok, id)
		}
		if s.base.listLen(id) == 0 {
			t.Fatalf("term %q has no postings", term)
		}
		for _, absent := range []string{term + "\x00", "\x00" + term, term + "zz"} {
			if all[absent] {
				continue
			}
			if _, ok := s.base.terms.id(absent); ok {
				t.Fatalf("built: absent %q found", absent)
			}
			if _, ok := got.base.terms.id(absent); ok {
				t.Fatalf("loaded: absent %q found", absent)
			}
		}
	}
	if _, ok := got.base.terms.id(""); ok {
		t.Fatal("empty term found")
	}
}

// reseal recomputes the header's length and checksum of a persisted
// snapshot whose payload a test changed, so that Decode reaches the
// payload's own checks.
func reseal(b []byte) []byte {
	binary.LittleEndian.PutUint64(b[16:], uint64(len(b)-persistHeader))
	binary.LittleEndian.PutUint32(b[12:], crc32.Checksum(b[persistHeader:], castagnoli))
	return b
}

// TestPersistRejectsDamagedPayload changes the payload under a valid
// checksum (what Encode never writes: a bug, another build's layout): no
// change of any byte may panic, in the load or in the queries after it.
// Damage itself is what the checksum refuses (TestDecodeEveryByteDamaged);
// since format 6 the load no longer re-hashes every term, so a term table
// that is wrong under a right checksum (a term twice) is not refused.
func TestPersistRejectsDamagedPayload(t *testing.T) {
	s := Build(7, Spec(), []Input{
		{Category: "c", Name: "n1", Content: "alpha beta"},
		{Category: "c", Name: "n2", Content: "alphb gamma 数据"},
	})
	data := Encode(s, nil)
	if _, _, err := Decode(reseal(bytes.Clone(data)), Spec(), 7); err != nil {
		t.Fatal(err)
	}
	for pos := persistHeader; pos < len(data); pos++ {
		for _, x := range []byte{0x01, 0x10, 0x80, 0xff} {
			d := bytes.Clone(data)
			d[pos] ^= x
			got, _, err := Decode(reseal(d), Spec(), 7)
			if err != nil {
				if !errors.Is(err, ErrPersisted) {
					t.Fatalf("byte %d ^ %#x: err %v", pos, x, err)
				}
				continue
			}
			for id := range got.base.terms.Len() {
				term := string(got.base.terms.term(uint32(id)))
				got.Search(got.Terms(term), 0)
			}
			got.Search(got.Terms("alpha beta gamma 数据"), 1)
			got.Docs(func(d *Doc) bool {
				got.Lookup(d.Category, d.Name)
				got.LookupName(d.Name)
				return true
			})
			if got.base.terms.Len() != got.base.nTerms() {
				t.Fatalf("byte %d ^ %#x: %d terms, %d lists", pos, x, got.base.terms.Len(), got.base.nTerms())
			}
		}
	}
}
