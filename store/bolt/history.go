package bolt

import (
	"encoding/binary"
	"errors"
	"hash/crc32"

	bbolt "go.etcd.io/bbolt"

	"github.com/recallhq/recall/store"
)

// The change history: a durable, bounded record of the keys each write
// transaction changed, in its own bucket, so that the change feed answers
// Changes(since) for a since from an earlier process (the revision of an
// index copy saved in the file) and a new process brings that copy up to
// date by re-reading only the changed entries.
//
// One record per write transaction that moved the revision, written in
// that transaction, so it commits or vanishes with the entries it names
// and can never disagree with them. Its key is the revision after the
// transaction (8 bytes, big endian, so cursor order is revision order);
// its value is the revision before it (uvarint), the number of keys
// (uvarint), each key as in bucketEntries (uvarint length, bytes), then a
// CRC-32C of the record key followed by the value. Records older than
// Options.History revisions are deleted by the write that outgrows them.
//
// A since is answered from the history only when the records after it
// are contiguous (each starts where the one before ended), the first
// starts at or before since, the last ends at the current revision, and
// every one passes its checksum; anything else is Reset, as it is today
// for a since older than this process's in-memory log. A file of format
// version 3 or older gains the bucket empty on its first Open (the
// version bump keeps an older recall, which would write entries without
// records, from writing the file again).

var bucketChanges = []byte("recall.changes")

// DefaultHistory is how many revisions of changed keys the file keeps when
// Options.History is zero: a new process brings an index copy that is up
// to this many writes behind up to date without reading every entry. At
// about 60 bytes per changed key in the file it costs about 1 MB.
const DefaultHistory = 1 << 14

// errHistory marks a history record that fails its checksum or does not
// decode.
var errHistory = errors.New("damaged change history record")

func revKey(rev uint64) []byte { return binary.BigEndian.AppendUint64(nil, rev) }

// logChanges records keys as written by the transaction tx that moved the
// revision from before to after, and deletes the records that fell out of
// the last keep revisions. keep < 0 records nothing (and leaves a gap, which
// readers see).
func logChanges(tx *bbolt.Tx, before, after uint64, keys []store.Key, keep int) error {
	if keep < 0 {
		return nil
	}
	b, err := tx.CreateBucketIfNotExists(bucketChanges)
	if err != nil {
		return err
	}
	k := revKey(after)
	v := binary.AppendUvarint(nil, before)
	v = binary.AppendUvarint(v, uint64(len(keys)))
	for _, key := range keys {
		ek := encodeKey(key.Category, key.Name)
		v = binary.AppendUvarint(v, uint64(len(ek)))
		v = append(v, ek...)
	}
	v = binary.LittleEndian.AppendUint32(v, crc32.Update(crc32.Checksum(k, castagnoli), castagnoli, v))
	if err := b.Put(k, v); err != nil {
		return err
	}
	if after <= uint64(keep) {
		return nil
	}
	floor := after - uint64(keep)
	c := b.Cursor()
	for ok, _ := c.First(); ok != nil && (len(ok) != 8 || binary.BigEndian.Uint64(ok) <= floor); ok, _ = c.First() {
		if err := c.Delete(); err != nil {
			return err
		}
	}
	return nil
}

// decodeRecord checks and decodes one history record.
func decodeRecord(k, v []byte) (before uint64, keys []store.Key, err error) {
	if len(k) != 8 || len(v) < crcSize {
		return 0, nil, errHistory
	}
	body := v[:len(v)-crcSize]
	if crc32.Update(crc32.Checksum(k, castagnoli), castagnoli, body) != binary.LittleEndian.Uint32(v[len(body):]) {
		return 0, nil, errHistory
	}
	before, n := binary.Uvarint(body)
	if n <= 0 {
		return 0, nil, errHistory
	}
	body = body[n:]
	count, n := binary.Uvarint(body)
	if n <= 0 || count > uint64(len(body)) {
		return 0, nil, errHistory
	}
	body = body[n:]
	keys = make([]store.Key, 0, count)
	for range count {
		l, n := binary.Uvarint(body)
		if n <= 0 || l > uint64(len(body)-n) {
			return 0, nil, errHistory
		}
		cat, name, err := decodeKey(body[n : n+int(l)])
		if err != nil {
			return 0, nil, errHistory
		}
		keys = append(keys, store.Key{Category: cat, Name: name})
		body = body[n+int(l):]
	}
	if len(body) != 0 || before >= binary.BigEndian.Uint64(k) {
		return 0, nil, errHistory
	}
	return before, keys, nil
}

// historyChanges answers Changes(since) from the history in tx, whose
// revision is rev, or reports false when the history does not cover since
// (see the comment at the top of this file).
func historyChanges(tx *bbolt.Tx, since, rev uint64) (store.ChangeSet, bool) {
	cs := store.ChangeSet{Since: since, Rev: rev}
	b := tx.Bucket(bucketChanges)
	if b == nil || since >= rev {
		return cs, since == rev
	}
	c := b.Cursor()
	at := since
	seen := map[store.Key]struct{}{}
	for k, v := c.Seek(revKey(since + 1)); k != nil; k, v = c.Next() {
		before, keys, err := decodeRecord(k, v)
		if err != nil || before > at || (at != since && before != at) {
			return cs, false
		}
		for _, key := range keys {
			if _, ok := seen[key]; !ok {
				seen[key] = struct{}{}
				cs.Keys = append(cs.Keys, key)
			}
		}
		at = binary.BigEndian.Uint64(k)
	}
	return cs, at == rev
}
