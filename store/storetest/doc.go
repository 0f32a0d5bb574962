// Package storetest is a conformance suite for implementations of
// store.Store, in the manner of testing/fstest. Every backend runs it from
// its own tests:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) store.Store { return openTemp(t) })
//	}
//
// The suite checks the whole contract of store.Store: CRUD, add-is-update,
// a revision that rises on every write and never on a read or a failed
// write, rejection of invalid entries naming the field (nothing written;
// each refused character and Windows device name), the names of SPEC §1
// (punctuation, emoji, any script, nested categories, NFD input stored and
// found as NFC), iteration that yields each entry once and tolerates
// writes from its loop body, metadata round trips, concurrent readers and
// writers (run it under -race), and ErrClosed after Close.
//
// RunDamaged checks the rule for a damaged entry that store.Store states,
// given a function that damages one stored entry behind the backend's back.
//
// RunVectors does the same for the optional vector-cache capability
// (LoadVectors, PutVectors, DeleteVectors; see package embed/cache): models
// never mix, vectors round-trip bit for bit and survive a reopen, vector
// writes never move the revision, invalid input writes nothing.
package storetest
