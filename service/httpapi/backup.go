package httpapi

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/recallhq/recall/backup"
	"github.com/recallhq/recall/store"
)

// backup serves GET /v1/backup: a copy of the live store, streamed.
//
//	?format=snapshot  the backend's consistent copy (store.Snapshotter; bolt:
//	                  a .db file), application/octet-stream; 400 for a store
//	                  that has none
//	?format=jsonl     every entry as JSONL (backup.WriteJSONL), application/x-ndjson
//	(no format)       snapshot when the store has one, else jsonl
//
// Content-Disposition names a file (recall-backup-<UTC time>.db or
// .jsonl), and X-Recall-Backup-Format the format. A failure after the
// first byte cannot change the status, so the handler then aborts the
// response: the client sees a transfer cut short (curl: exit 18), never
// a body that looks complete. The JSONL trailer X-Recall-Unreadable counts
// the entries the store could not read (not in the body). A backup of a
// large store takes as long as it takes: each write may take up to
// backupStall (the write deadline moves with the stream), so that a
// client that stops reading is cut off but a slow one is not.
func (h *Handler) backup(w http.ResponseWriter, r *http.Request) {
	st := h.m.Store()
	snap, canSnap := st.(store.Snapshotter)
	format := r.URL.Query().Get("format")
	switch format {
	case "":
		format = "jsonl"
		if canSnap {
			format = "snapshot"
		}
	case "jsonl":
	case "snapshot":
		if !canSnap {
			writeError(w, &Error{Status: http.StatusBadRequest, Field: "format",
				Message: "this store has no snapshot (only a bolt store does); ask for format=jsonl"})
			return
		}
	default:
		writeError(w, &Error{Status: http.StatusBadRequest, Field: "format",
			Message: fmt.Sprintf("format %q: want snapshot or jsonl", format)})
		return
	}
	out := stallWriter{rc: http.NewResponseController(w), w: w}
	stamp := time.Now().UTC().Format("20060102T150405Z")
	hdr := w.Header()
	hdr.Set("X-Recall-Backup-Format", format)
	hdr.Set("Cache-Control", "no-store")
	var err error
	if format == "snapshot" {
		hdr.Set("Content-Type", "application/octet-stream")
		hdr.Set("Content-Disposition", `attachment; filename="recall-backup-`+stamp+`.db"`)
		_, err = snap.WriteSnapshot(r.Context(), out)
	} else {
		hdr.Set("Content-Type", "application/x-ndjson; charset=utf-8")
		hdr.Set("Content-Disposition", `attachment; filename="recall-backup-`+stamp+`.jsonl"`)
		hdr.Set("Trailer", "X-Recall-Unreadable")
		var rep backup.Report
		rep, err = backup.WriteJSONL(r.Context(), st, out, backup.Options{})
		hdr.Set("X-Recall-Unreadable", strconv.Itoa(len(rep.Unreadable)))
		for _, u := range rep.Unreadable {
			if h.reqLog != nil {
				h.reqLog.Printf("backup: unreadable %s", u)
			}
		}
	}
	if err != nil {
		if h.reqLog != nil && !errors.Is(err, r.Context().Err()) {
			h.reqLog.Printf("backup: %v", err)
		}
		panic(http.ErrAbortHandler)
	}
}

// backupStall is how long one write of a backup may wait for the client.
const backupStall = time.Minute

// stallWriter moves the connection's write deadline before each write,
// where the server supports deadlines (net/http's does; others are left
// alone).
type stallWriter struct {
	rc *http.ResponseController
	w  http.ResponseWriter
}

func (s stallWriter) Write(p []byte) (int, error) {
	_ = s.rc.SetWriteDeadline(time.Now().Add(backupStall))
	return s.w.Write(p)
}
