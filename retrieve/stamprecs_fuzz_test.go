package retrieve

import (
	"reflect"
	"testing"
)

// FuzzStampRecs: the records of a copy's meta are refused or decoded
// without panicking, and a decoded list encodes to records that decode
// to it again.
func FuzzStampRecs(f *testing.F) {
	f.Add(encodeStampRecs(nil))
	f.Add(encodeStampRecs([]stampRec{
		{cat: "a", name: "one", stamp: "01234567890123456789012345678901"},
		{cat: "b/c", name: "two", stamp: "", msg: "broken front matter"},
	}))
	f.Add([]byte{1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, meta []byte) {
		recs, err := decodeStampRecs(string(meta))
		if err != nil {
			return
		}
		again, err := decodeStampRecs(string(encodeStampRecs(recs)))
		if err != nil || !reflect.DeepEqual(again, recs) && len(recs) > 0 {
			t.Fatalf("decoded %q from %x, which encodes to %q, %v", recs, meta, again, err)
		}
	})
}
